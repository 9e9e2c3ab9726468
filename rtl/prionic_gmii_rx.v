// SPDX-License-Identifier: MIT
//
// prionic_gmii_rx: optional GMII receive front end (F2, docs/gmii.md). Takes one GMII
// byte per clk (rxd, rx_dv, rx_er; 125 MHz), strips the preamble (one or more 0x55) and
// the SFD (0xD5), checks the FCS (CRC-32 of IEEE 802.3) and strips it, and produces the
// 8-bit AXI4-Stream of docs/frame-path.md section 1 (F1): the frame without preamble and
// FCS, tuser = 1 on the last beat when the FCS is wrong or rx_er was high on a byte after
// the SFD. The inputs are registered; a 5-byte delay line holds the 4 candidate FCS bytes
// plus the byte that may be the last one until rx_dv shows whether more follow, so tlast
// lands on the byte before the FCS. Latency (tready high): a frame byte sampled at edge t
// is accepted on m_axis at edge t+7; the last FCS byte sampled at edge t gives tlast at
// edge t+3. Bursts without a valid preamble+SFD and bursts of 0..4 bytes after the SFD
// emit nothing and are counted. A MAC cannot wait: a beat refused by m_axis_tready
// truncates its frame (the refused byte closes it later with tlast, tuser = 1), a frame
// whose first beat is refused is dropped whole; both are counted. Counters: 32 bits,
// wrapping. Every state returns to idle when rx_dv falls, whatever the input.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_gmii_rx #(
    parameter DATA_WIDTH = 8,               // m_axis data width: 8 only (one GMII byte per beat)
    parameter KEEP_WIDTH = DATA_WIDTH / 8   // m_axis_tkeep width (1)
) (
    input  wire                  clk,
    input  wire                  rst,

    // GMII receive (from the PHY), one byte per clk
    input  wire [7:0]            gmii_rxd,
    input  wire                  gmii_rx_dv,
    input  wire                  gmii_rx_er,

    // AXI4-Stream master: the frame without preamble, SFD and FCS (F1)
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    // counters: 32-bit, wrapping
    output wire [31:0]           status_frames,          // frames delivered on m_axis (good or bad)
    output wire [31:0]           status_fcs_errors,      // delivered frames with a wrong FCS
    output wire [31:0]           status_rx_er_frames,    // delivered frames with rx_er on a byte
    output wire [31:0]           status_preamble_errors, // rx_dv bursts without a valid preamble+SFD
    output wire [31:0]           status_short_frames,    // frames of 0..4 bytes after the SFD
    output wire [31:0]           status_overflow_frames  // frames dropped or truncated by m_axis_tready
);

    initial begin
        if (DATA_WIDTH != 8) begin
            $error("Error: DATA_WIDTH must be 8 (instance %m)");
            $finish;
        end
        if (KEEP_WIDTH != 1) begin
            $error("Error: KEEP_WIDTH must be 1 (instance %m)");
            $finish;
        end
    end

    localparam [7:0]  ETH_PRE = 8'h55;
    localparam [7:0]  ETH_SFD = 8'hD5;
    // CRC-32 register (reflected, not inverted) after a frame and its own FCS
    localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;

    localparam [1:0]
        STATE_IDLE = 2'd0,   // waiting for rx_dv
        STATE_PRE  = 2'd1,   // in the preamble: 0x55 seen, waiting for the SFD
        STATE_DATA = 2'd2,   // after the SFD: frame bytes
        STATE_DROP = 2'd3;   // bad preamble: discard until rx_dv falls

    // one byte of the reflected CRC-32 (polynomial 0xEDB88320); reads its arguments only
    function [31:0] crc32_byte;
        input [31:0] crc;
        input [7:0]  data;
        integer i;
        reg [31:0] c;
        begin
            c = crc ^ {24'd0, data};
            for (i = 0; i < 8; i = i + 1) begin
                c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
            end
            crc32_byte = c;
        end
    endfunction

    // registered GMII inputs
    reg [7:0]  rxd_reg;
    reg        rx_dv_reg;
    reg        rx_er_reg;

    reg [1:0]  state_reg, state_next;
    reg [39:0] dly_reg, dly_next;               // [7:0] newest byte, [39:32] the byte 5 back
    reg [2:0]  cnt_reg, cnt_next;               // bytes of the frame in dly_reg (saturates at 5)
    reg [31:0] crc_reg, crc_next;
    reg        er_reg, er_next;                 // rx_er seen during this frame
    reg        started_reg, started_next;       // first beat of this frame went to m_axis
    reg        dropped_reg, dropped_next;       // first beat refused: frame dropped whole
    reg        trunc_reg, trunc_next;           // a later beat refused: frame truncated

    reg        term_pending_reg, term_pending_next;// a truncated frame's closing beat waits
    reg [7:0]  term_data_reg, term_data_next;

    reg [7:0]  m_axis_tdata_reg, m_axis_tdata_next;
    reg        m_axis_tvalid_reg, m_axis_tvalid_next;
    reg        m_axis_tlast_reg, m_axis_tlast_next;
    reg        m_axis_tuser_reg, m_axis_tuser_next;

    reg [31:0] frames_reg, frames_next;
    reg [31:0] fcs_errors_reg, fcs_errors_next;
    reg [31:0] rx_er_frames_reg, rx_er_frames_next;
    reg [31:0] preamble_errors_reg, preamble_errors_next;
    reg [31:0] short_frames_reg, short_frames_next;
    reg [31:0] overflow_frames_reg, overflow_frames_next;

    assign m_axis_tdata  = m_axis_tdata_reg;
    assign m_axis_tkeep  = {KEEP_WIDTH{1'b1}};
    assign m_axis_tvalid = m_axis_tvalid_reg;
    assign m_axis_tlast  = m_axis_tlast_reg;
    assign m_axis_tuser  = m_axis_tuser_reg;

    assign status_frames          = frames_reg;
    assign status_fcs_errors      = fcs_errors_reg;
    assign status_rx_er_frames    = rx_er_frames_reg;
    assign status_preamble_errors = preamble_errors_reg;
    assign status_short_frames    = short_frames_reg;
    assign status_overflow_frames = overflow_frames_reg;

    // a frame byte ready to leave the delay line this cycle
    reg        emit;
    reg        emit_last;
    reg        emit_user;
    reg        out_free;                        // the output register can take a beat at this edge
    reg        crc_bad;
    reg        lost;                            // this frame is dropped whole (first beat refused)
    reg        truncated;                       // this frame is truncated (a later beat refused)

    always @* begin
        state_next = state_reg;
        dly_next = dly_reg;
        cnt_next = cnt_reg;
        crc_next = crc_reg;
        er_next = er_reg;
        started_next = started_reg;
        dropped_next = dropped_reg;
        trunc_next = trunc_reg;
        term_pending_next = term_pending_reg;
        term_data_next = term_data_reg;

        m_axis_tdata_next = m_axis_tdata_reg;
        m_axis_tvalid_next = m_axis_tvalid_reg && !m_axis_tready;
        m_axis_tlast_next = m_axis_tlast_reg;
        m_axis_tuser_next = m_axis_tuser_reg;

        frames_next = frames_reg;
        fcs_errors_next = fcs_errors_reg;
        rx_er_frames_next = rx_er_frames_reg;
        preamble_errors_next = preamble_errors_reg;
        short_frames_next = short_frames_reg;
        overflow_frames_next = overflow_frames_reg;

        out_free = !m_axis_tvalid_reg || m_axis_tready;
        crc_bad = crc_reg != CRC_RESIDUE;
        emit = 1'b0;
        emit_last = 1'b0;
        emit_user = 1'b0;
        lost = 1'b0;
        truncated = 1'b0;

        case (state_reg)
            STATE_IDLE: begin
                if (rx_dv_reg) begin
                    if (rxd_reg == ETH_PRE && !rx_er_reg) begin
                        state_next = STATE_PRE;
                    end else begin
                        state_next = STATE_DROP;
                        preamble_errors_next = preamble_errors_reg + 32'd1;
                    end
                end
            end
            STATE_PRE: begin
                if (!rx_dv_reg) begin
                    // rx_dv fell inside the preamble
                    state_next = STATE_IDLE;
                    preamble_errors_next = preamble_errors_reg + 32'd1;
                end else if (rx_er_reg || (rxd_reg != ETH_PRE && rxd_reg != ETH_SFD)) begin
                    state_next = STATE_DROP;
                    preamble_errors_next = preamble_errors_reg + 32'd1;
                end else if (rxd_reg == ETH_SFD) begin
                    state_next = STATE_DATA;
                    cnt_next = 3'd0;
                    crc_next = 32'hFFFFFFFF;
                    er_next = 1'b0;
                    started_next = 1'b0;
                    dropped_next = 1'b0;
                    trunc_next = 1'b0;
                end
            end
            STATE_DATA: begin
                if (rx_dv_reg) begin
                    dly_next = {dly_reg[31:0], rxd_reg};
                    crc_next = crc32_byte(crc_reg, rxd_reg);
                    er_next = er_reg || rx_er_reg;
                    if (cnt_reg == 3'd5) begin
                        // 5 bytes held and one more came: the oldest is frame data, not the last
                        emit = 1'b1;
                    end else begin
                        cnt_next = cnt_reg + 3'd1;
                    end
                end else begin
                    // end of frame: dly_reg[31:0] is the FCS, dly_reg[39:32] the last byte
                    state_next = STATE_IDLE;
                    if (cnt_reg != 3'd5) begin
                        short_frames_next = short_frames_reg + 32'd1;
                    end else begin
                        emit = 1'b1;
                        emit_last = 1'b1;
                        emit_user = crc_bad || er_reg;
                    end
                end
            end
            default: begin  // STATE_DROP
                if (!rx_dv_reg) begin
                    state_next = STATE_IDLE;
                end
            end
        endcase

        // the output register takes a truncated frame's closing beat, or the byte leaving
        // the delay line; never both: a frame cannot start while a closing beat waits, and
        // a truncated frame emits nothing more
        if (term_pending_reg && out_free) begin
            m_axis_tdata_next = term_data_reg;
            m_axis_tvalid_next = 1'b1;
            m_axis_tlast_next = 1'b1;
            m_axis_tuser_next = 1'b1;
            term_pending_next = 1'b0;
        end

        lost = dropped_reg;
        truncated = trunc_reg;
        if (emit && !dropped_reg && !trunc_reg) begin
            if (out_free && (started_reg || !term_pending_reg)) begin
                started_next = 1'b1;
                m_axis_tdata_next = dly_reg[39:32];
                m_axis_tvalid_next = 1'b1;
                m_axis_tlast_next = emit_last;
                m_axis_tuser_next = emit_user;
            end else if (!started_reg) begin
                // the first beat is refused: drop the whole frame
                dropped_next = 1'b1;
                lost = 1'b1;
            end else begin
                // refused mid-frame: the refused byte closes the frame later, marked bad
                trunc_next = 1'b1;
                truncated = 1'b1;
                term_pending_next = 1'b1;
                term_data_next = dly_reg[39:32];
            end
        end

        // counters of a frame that ends now with at least one byte before its FCS
        if (emit_last) begin
            if (lost) begin
                overflow_frames_next = overflow_frames_reg + 32'd1;
            end else begin
                frames_next = frames_reg + 32'd1;
                if (crc_bad) begin
                    fcs_errors_next = fcs_errors_reg + 32'd1;
                end
                if (er_reg) begin
                    rx_er_frames_next = rx_er_frames_reg + 32'd1;
                end
                if (truncated) begin
                    overflow_frames_next = overflow_frames_reg + 32'd1;
                end
            end
        end
    end

    always @(posedge clk) begin
        rxd_reg <= gmii_rxd;
        rx_dv_reg <= gmii_rx_dv;
        rx_er_reg <= gmii_rx_er;

        state_reg <= state_next;
        dly_reg <= dly_next;
        cnt_reg <= cnt_next;
        crc_reg <= crc_next;
        er_reg <= er_next;
        started_reg <= started_next;
        dropped_reg <= dropped_next;
        trunc_reg <= trunc_next;
        term_pending_reg <= term_pending_next;
        term_data_reg <= term_data_next;

        m_axis_tdata_reg <= m_axis_tdata_next;
        m_axis_tvalid_reg <= m_axis_tvalid_next;
        m_axis_tlast_reg <= m_axis_tlast_next;
        m_axis_tuser_reg <= m_axis_tuser_next;

        frames_reg <= frames_next;
        fcs_errors_reg <= fcs_errors_next;
        rx_er_frames_reg <= rx_er_frames_next;
        preamble_errors_reg <= preamble_errors_next;
        short_frames_reg <= short_frames_next;
        overflow_frames_reg <= overflow_frames_next;

        if (rst) begin
            rx_dv_reg <= 1'b0;
            rx_er_reg <= 1'b0;
            state_reg <= STATE_IDLE;
            cnt_reg <= 3'd0;
            started_reg <= 1'b0;
            dropped_reg <= 1'b0;
            trunc_reg <= 1'b0;
            term_pending_reg <= 1'b0;
            m_axis_tvalid_reg <= 1'b0;
            frames_reg <= 32'd0;
            fcs_errors_reg <= 32'd0;
            rx_er_frames_reg <= 32'd0;
            preamble_errors_reg <= 32'd0;
            short_frames_reg <= 32'd0;
            overflow_frames_reg <= 32'd0;
        end
    end

endmodule

`resetall
