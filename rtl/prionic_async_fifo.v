// SPDX-License-Identifier: MIT
//
// prionic_async_fifo: asynchronous frame FIFO (docs/board.md, F29). AXI4-Stream frames
// written on s_clk come out on m_clk, whole: a frame is visible to the read side only
// once its tlast word is written, and a frame that does not fit is dropped whole and
// counted, never cut.
//
// Write side: there is no s_axis_tready (a MAC cannot wait). The side keeps two write
// pointers: the committed one (after the last tlast word written) and the current one
// (after the last word of the frame being written). A word that finds the memory full
// rolls the current pointer back to the committed one, discards the rest of its frame up
// to tlast and raises s_drop for one cycle: the frame is gone as if it had never come.
// tuser is carried (a bad frame is passed on with tuser, not dropped here). A frame of
// more than DEPTH words can never fit and is always dropped.
//
// Crossings, every one through prionic_sync_bit:
// * The read pointer steps by one word per m_clk edge: it crosses in Gray code (one bit
//   changes per step), decoded and registered once more on s_clk.
// * The committed write pointer jumps by a whole frame at each tlast, so a Gray code
//   would change several bits at once and a synchronizer could catch a mix of old and new
//   bits. It crosses by handshake instead: the write side copies it into a register held
//   still while a request toggle crosses (STAGES + 1 flops); the read side takes the held
//   value (STAGES flops, settled one edge before the toggle shows) and toggles an
//   acknowledge back (STAGES flops); only then may the write side offer a newer pointer,
//   which covers every frame committed meanwhile. One round trip is about STAGES + 2
//   cycles of each clock.
// Both views are late, never wrong: the write side sees the FIFO fuller than it is, the
// read side emptier. The memory is written on s_clk and read on m_clk (registered read:
// ECP5 block or distributed RAM); a word is read only after the write pointer that crossed
// said it was written: the one data path between the domains that is not synchronized,
// waived by name in the CDC check (tests/test_cdc.py).
//
// Read side: a registered memory read, then an output register: one word per m_clk
// cycle while m_axis_tready is high; latency from commit to m_axis_tvalid when no
// handshake is under way: the offer register, STAGES + 1 synchronizer flops, the read
// side's pointer register, the memory read register and the output register.
//
// Resets: s_rst (synchronous to s_clk) and m_rst (synchronous to m_clk) must be high
// together for a while: prionic_eth_rx holds m_rst until s_rst has been seen (docs/board.md).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_async_fifo #(
    parameter DATA_WIDTH = 32,               // tdata bits
    parameter KEEP_WIDTH = DATA_WIDTH / 8,   // tkeep bits
    parameter DEPTH      = 1024,             // words (power of 2, 4 or more)
    parameter STAGES     = 2                 // synchronizer flip-flops per pointer bit
) (
    input  wire                  s_clk,
    input  wire                  s_rst,
    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,
    output wire                  s_drop,          // a frame dropped whole (one s_clk cycle per frame)

    input  wire                  m_clk,
    input  wire                  m_rst,
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser
);

    localparam integer AW = $clog2(DEPTH);
    localparam integer WW = DATA_WIDTH + KEEP_WIDTH + 2;   // {tuser, tlast, tkeep, tdata}

    initial begin
        if ((1 << AW) != DEPTH || DEPTH < 4) begin
            $error("Error: DEPTH must be a power of 2, at least 4 (instance %m)");
            $finish;
        end
    end

    function [AW:0] bin2gray;
        input [AW:0] b;
        begin
            bin2gray = b ^ (b >> 1);
        end
    endfunction

    // bit i is the XOR of the Gray bits from i up: a balanced tree per bit, not a chain
    function [AW:0] gray2bin;
        input [AW:0] g;
        integer i;
        begin
            for (i = 0; i <= AW; i = i + 1) begin
                gray2bin[i] = ^(g >> i);
            end
        end
    endfunction

    reg [WW-1:0] mem [0:DEPTH-1];

    // ------------------------------------------------------------------ write side (s_clk)
    reg  [AW:0] wr_ptr_reg;        // committed: after the last tlast word
    reg  [AW:0] wr_cur_reg;        // after the last word written of the open frame
    reg  [AW:0] xfer_ptr_reg;      // the committed pointer offered to the read side, held
    reg         req_reg;           // toggles with each offer
    wire        ack_s;             // the read side's acknowledge toggle, synchronized
    reg  [AW:0] rd_ptr_s_reg;      // the read pointer as the write side sees it (binary)
    reg         dropping_reg;      // discarding the rest of a frame up to its tlast
    reg         drop_reg;
    wire [AW:0] rd_gray_s;

    // full: the open frame has used every word the read side has freed
    wire full = wr_cur_reg == (rd_ptr_s_reg ^ {1'b1, {AW{1'b0}}});
    wire wr_en = s_axis_tvalid && !dropping_reg && !full;

    always @(posedge s_clk) begin
        if (wr_en) begin
            mem[wr_cur_reg[AW-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        end
    end

    always @(posedge s_clk) begin
        rd_ptr_s_reg <= gray2bin(rd_gray_s);
        drop_reg <= 1'b0;
        if (s_axis_tvalid) begin
            if (dropping_reg) begin
                dropping_reg <= !s_axis_tlast;
            end else if (full) begin
                wr_cur_reg   <= wr_ptr_reg;      // roll the frame back
                dropping_reg <= !s_axis_tlast;
                drop_reg     <= 1'b1;
            end else begin
                wr_cur_reg <= wr_cur_reg + 1'b1;
                if (s_axis_tlast) begin
                    wr_ptr_reg <= wr_cur_reg + 1'b1;
                end
            end
        end
        // offer the committed pointer once the last offer was taken (and it moved)
        if (req_reg == ack_s && xfer_ptr_reg != wr_ptr_reg) begin
            xfer_ptr_reg <= wr_ptr_reg;
            req_reg      <= !req_reg;
        end
        if (s_rst) begin
            wr_ptr_reg   <= {(AW+1){1'b0}};
            wr_cur_reg   <= {(AW+1){1'b0}};
            xfer_ptr_reg <= {(AW+1){1'b0}};
            req_reg      <= 1'b0;
            rd_ptr_s_reg <= {(AW+1){1'b0}};
            dropping_reg <= 1'b0;
            drop_reg     <= 1'b0;
        end
    end

    assign s_drop = drop_reg;

    // ------------------------------------------------------------------ crossings
    wire [AW:0] xfer_ptr_m;   // the offered pointer on m_clk (settled when req_m shows the offer)
    wire        req_m;
    reg         ack_reg;      // the read side took the offer: toggles back
    reg  [AW:0] rd_gray_reg;

    prionic_sync_bit #(
        .WIDTH(AW + 1),
        .STAGES(STAGES)
    ) wr_sync_inst (
        .clk(m_clk),
        .rst(m_rst),
        .d(xfer_ptr_reg),
        .q(xfer_ptr_m)
    );

    // one flop more than the pointer: a pointer bit whose first flop missed the edge at
    // which the request's did takes the next one, so it has settled when the request shows
    prionic_sync_bit #(
        .WIDTH(1),
        .STAGES(STAGES + 1)
    ) req_sync_inst (
        .clk(m_clk),
        .rst(m_rst),
        .d(req_reg),
        .q(req_m)
    );

    prionic_sync_bit #(
        .WIDTH(1),
        .STAGES(STAGES)
    ) ack_sync_inst (
        .clk(s_clk),
        .rst(s_rst),
        .d(ack_reg),
        .q(ack_s)
    );

    prionic_sync_bit #(
        .WIDTH(AW + 1),
        .STAGES(STAGES)
    ) rd_sync_inst (
        .clk(s_clk),
        .rst(s_rst),
        .d(rd_gray_reg),
        .q(rd_gray_s)
    );

    // ------------------------------------------------------------------ read side (m_clk)
    reg  [AW:0]   rd_ptr_reg;
    reg  [AW:0]   wr_ptr_m_reg;     // the committed write pointer as the read side sees it
    reg  [WW-1:0] rd_data_reg;      // the memory's read register
    reg           rd_valid_reg;
    reg  [WW-1:0] out_data_reg;
    reg           out_valid_reg;

    wire empty    = rd_ptr_reg == wr_ptr_m_reg;
    wire out_load = m_axis_tready || !out_valid_reg;   // the output register takes a word
    wire rd_load  = out_load || !rd_valid_reg;         // the read register takes a word
    wire rd_en    = rd_load && !empty;

    always @(posedge m_clk) begin
        if (rd_en) begin
            rd_data_reg <= mem[rd_ptr_reg[AW-1:0]];
        end
    end

    always @(posedge m_clk) begin
        if (req_m != ack_reg) begin   // an offer: its pointer has settled
            wr_ptr_m_reg <= xfer_ptr_m;
            ack_reg      <= req_m;
        end
        if (out_load) begin
            out_valid_reg <= rd_valid_reg;
            out_data_reg  <= rd_data_reg;
        end
        if (rd_load) begin
            rd_valid_reg <= !empty;
        end
        if (rd_en) begin
            rd_ptr_reg  <= rd_ptr_reg + 1'b1;
            rd_gray_reg <= bin2gray(rd_ptr_reg + 1'b1);
        end
        if (m_rst) begin
            wr_ptr_m_reg  <= {(AW+1){1'b0}};
            ack_reg       <= 1'b0;
            rd_ptr_reg    <= {(AW+1){1'b0}};
            rd_gray_reg   <= {(AW+1){1'b0}};
            rd_valid_reg  <= 1'b0;
            out_valid_reg <= 1'b0;
        end
    end

    assign m_axis_tvalid = out_valid_reg;
    assign {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} = out_data_reg;

endmodule

`resetall
