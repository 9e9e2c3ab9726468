// SPDX-License-Identifier: MIT
//
// prionic_parser: watches the accepted beats of the input stream (F1) and, one cycle
// after each frame's last beat, presents the frame's length, its parser verdict and
// the header fields the classifier needs (F3): Ethernet II (EtherType), IPv4 (IHL with
// options, protocol, fragment bits, addresses), UDP/TCP ports. The first HDR_BYTES bytes are captured a
// beat at a time; parsing is one combinational step over the capture, so the parser
// never stalls the stream and takes any number of back-to-back frames, even one-beat
// runts. Rules: docs/frame-path.md section 2.
//
// Latency: last beat accepted at edge T -> m_valid pulse and fields registered at T+1.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_parser #(
    parameter DATA_WIDTH    = 32,               // stream width, 8/16/32/64
    parameter KEEP_WIDTH    = DATA_WIDTH / 8,   // bytes per beat
    parameter MAX_FRAME_LEN = 1518,             // longer frames are OVERSIZE
    parameter HDR_BYTES     = 96,               // header bytes captured (>= 78)
    parameter MIN_FRAME_LEN = 60                // shorter frames are MALFORMED (runt)
) (
    input  wire                  clk,
    input  wire                  rst,

    // accepted beats of the input stream (tvalid && tready)
    input  wire [DATA_WIDTH-1:0] s_beat_data,
    input  wire [KEEP_WIDTH-1:0] s_beat_keep,
    input  wire                  s_beat_valid,
    input  wire                  s_beat_last,
    input  wire                  s_beat_user,
    output wire                  s_beat_store,     // this beat is to be stored in the frame FIFO

    input  wire [31:0]           ts,               // TIMESTAMP counter

    output wire                  m_valid,
    output wire [15:0]           m_len,
    output wire [15:0]           m_words,          // beats stored in the frame FIFO
    output wire [31:0]           m_ts,             // TIMESTAMP at the last beat
    output wire                  m_bad,
    output wire                  m_oversize,
    output wire                  m_malformed,
    output wire                  m_is_ipv4,
    output wire [7:0]            m_proto,
    output wire                  m_ports_valid,
    output wire [15:0]           m_sport,
    output wire [15:0]           m_dport,
    output wire [15:0]           m_ethertype,
    output wire                  m_frag,           // IPv4 fragment (valid when m_is_ipv4)
    output wire [31:0]           m_src_ip,
    output wire [31:0]           m_dst_ip
);

    localparam integer HDR_WORDS_I = (HDR_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH;
    localparam integer CAP_BYTES   = HDR_WORDS_I * KEEP_WIDTH;
    localparam integer MAX_BEATS_I = (MAX_FRAME_LEN + 1 + KEEP_WIDTH - 1) / KEEP_WIDTH;
    localparam integer MIN_LEN_I   = MIN_FRAME_LEN;
    localparam integer MAX_LEN_I   = MAX_FRAME_LEN;
    localparam [15:0] HDR_WORDS = HDR_WORDS_I[15:0];  // beats captured
    localparam [15:0] MAX_BEATS = MAX_BEATS_I[15:0];  // beats stored per frame at most
    localparam [15:0] MIN_LEN   = MIN_LEN_I[15:0];
    localparam [16:0] MAX_LEN   = MAX_LEN_I[16:0];

    initial begin
        if (DATA_WIDTH != 8 && DATA_WIDTH != 16 && DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
            $error("Error: DATA_WIDTH must be 8, 16, 32 or 64 (instance %m)");
            $finish;
        end
        if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
            $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
            $finish;
        end
        if (HDR_BYTES < 78) begin
            $error("Error: HDR_BYTES must be at least 78 (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ capture
    reg [CAP_BYTES*8-1:0] hdr_reg;
    reg [15:0] beat_cnt_reg;     // beats of the current frame so far (saturating)
    reg [15:0] len_reg;          // bytes of the current frame so far (saturating)
    reg        keep_err_reg;  // a non-last beat had tkeep != all ones

    // completed frame, registered at the last beat (edge T)
    reg        fin_valid_reg;
    reg [15:0] fin_len_reg;
    reg [15:0] fin_words_reg;
    reg [31:0] fin_ts_reg;
    reg        fin_bad_reg;
    reg        fin_keep_err_reg;

    // bytes in a last beat: ones from bit 0 up; anything else is a tkeep error
    reg [4:0] last_bytes;
    reg       last_keep_err;
    integer   k;
    always @* begin
        last_bytes = 0;
        last_keep_err = 1'b0;
        for (k = 0; k < KEEP_WIDTH; k = k + 1) begin
            if (s_beat_keep[k]) begin
                if (last_bytes != k[4:0]) begin
                    last_keep_err = 1'b1;
                end
                last_bytes = last_bytes + 1'b1;
            end
        end
        if (last_bytes == 0) begin
            last_keep_err = 1'b1;
        end
    end

    wire [15:0] beat_bytes = s_beat_last ? {11'd0, last_bytes} : KEEP_WIDTH[15:0];
    wire [16:0] len_sum    = {1'b0, len_reg} + {1'b0, beat_bytes};
    wire [15:0] len_sat    = len_sum[16] ? 16'hFFFF : len_sum[15:0];
    wire        beat_keep_err = s_beat_last ? last_keep_err : (s_beat_keep != {KEEP_WIDTH{1'b1}});

    assign s_beat_store = beat_cnt_reg < MAX_BEATS;

    always @(posedge clk) begin
        fin_valid_reg <= 1'b0;
        if (s_beat_valid) begin
            if (beat_cnt_reg < HDR_WORDS) begin
                hdr_reg[beat_cnt_reg*DATA_WIDTH +: DATA_WIDTH] <= s_beat_data;
            end
            if (s_beat_last) begin
                fin_valid_reg    <= 1'b1;
                fin_len_reg      <= len_sat;
                fin_words_reg    <= (beat_cnt_reg < MAX_BEATS) ? beat_cnt_reg + 1'b1 : MAX_BEATS;
                fin_ts_reg       <= ts;
                fin_bad_reg      <= s_beat_user;
                fin_keep_err_reg <= keep_err_reg | beat_keep_err;
                beat_cnt_reg     <= 0;
                len_reg          <= 0;
                keep_err_reg     <= 1'b0;
            end else begin
                beat_cnt_reg <= (beat_cnt_reg == 16'hFFFF) ? beat_cnt_reg : beat_cnt_reg + 1'b1;
                len_reg      <= len_sat;
                keep_err_reg <= keep_err_reg | beat_keep_err;
            end
        end
        if (rst) begin
            fin_valid_reg <= 1'b0;
            beat_cnt_reg  <= 0;
            len_reg       <= 0;
            keep_err_reg  <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ parse (comb)
    // header byte i is hdr_reg[8*i +: 8]; (no function: Icarus would not re-evaluate a
    // continuous assignment whose function reads a module register)
    wire [15:0] ethertype = {hdr_reg[8*12 +: 8], hdr_reg[8*13 +: 8]};
    wire        type_ipv4 = ethertype == 16'h0800;
    wire [3:0]  ip_ver    = hdr_reg[14*8+4 +: 4];
    wire [3:0]  ip_ihl    = hdr_reg[14*8 +: 4];
    wire [15:0] ip_total  = {hdr_reg[8*16 +: 8], hdr_reg[8*17 +: 8]};
    wire [7:0]  ip_proto  = hdr_reg[8*23 +: 8];
    wire        ip_frag   = ({hdr_reg[8*20 +: 8], hdr_reg[8*21 +: 8]} & 16'h3FFF) != 16'd0;
    wire [5:0]  ip_hlen   = {ip_ihl, 2'b00};                 // 4 * IHL, bytes
    wire [6:0]  l4_off    = 7'd14 + {1'b0, ip_hlen};        // <= 74
    wire [15:0] l4_sport  = {hdr_reg[l4_off*8 +: 8], hdr_reg[(l4_off+7'd1)*8 +: 8]};
    wire [15:0] l4_dport  = {hdr_reg[(l4_off+7'd2)*8 +: 8], hdr_reg[(l4_off+7'd3)*8 +: 8]};
    wire        is_udp    = ip_proto == 8'd17;
    wire        is_tcp    = ip_proto == 8'd6;
    wire [16:0] ip_end    = 17'd14 + {1'b0, ip_total};

    wire ip_bad = ip_ver != 4'd4 || ip_ihl < 4'd5 || ip_total < {10'd0, ip_hlen}
               || ip_end > {1'b0, fin_len_reg}
               || (!ip_frag && is_udp && ip_total < {10'd0, ip_hlen} + 16'd8)
               || (!ip_frag && is_tcp && ip_total < {10'd0, ip_hlen} + 16'd20);

    wire malformed = fin_keep_err_reg || fin_len_reg < MIN_LEN || (type_ipv4 && ip_bad);

    reg        out_valid_reg;
    reg [15:0] out_len_reg;
    reg [15:0] out_words_reg;
    reg [31:0] out_ts_reg;
    reg        out_bad_reg;
    reg        out_oversize_reg;
    reg        out_malformed_reg;
    reg        out_is_ipv4_reg;
    reg [7:0]  out_proto_reg;
    reg        out_ports_valid_reg;
    reg [15:0] out_sport_reg;
    reg [15:0] out_dport_reg;
    reg [15:0] out_ethertype_reg;
    reg        out_frag_reg;
    reg [31:0] out_src_reg;
    reg [31:0] out_dst_reg;

    always @(posedge clk) begin
        out_valid_reg <= fin_valid_reg;
        if (fin_valid_reg) begin
            out_len_reg         <= fin_len_reg;
            out_words_reg       <= fin_words_reg;
            out_ts_reg          <= fin_ts_reg;
            out_bad_reg         <= fin_bad_reg;
            out_oversize_reg    <= {1'b0, fin_len_reg} > MAX_LEN;
            out_malformed_reg   <= malformed;
            out_is_ipv4_reg     <= type_ipv4 && !malformed;
            out_proto_reg       <= ip_proto;
            out_ports_valid_reg <= type_ipv4 && !malformed && !ip_frag && (is_udp || is_tcp);
            out_sport_reg       <= l4_sport;
            out_dport_reg       <= l4_dport;
            out_ethertype_reg   <= ethertype;
            out_frag_reg        <= type_ipv4 && !malformed && ip_frag;
            out_src_reg         <= {hdr_reg[8*26 +: 8], hdr_reg[8*27 +: 8], hdr_reg[8*28 +: 8], hdr_reg[8*29 +: 8]};
            out_dst_reg         <= {hdr_reg[8*30 +: 8], hdr_reg[8*31 +: 8], hdr_reg[8*32 +: 8], hdr_reg[8*33 +: 8]};
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
        end
    end

    assign m_valid       = out_valid_reg;
    assign m_len         = out_len_reg;
    assign m_words       = out_words_reg;
    assign m_ts          = out_ts_reg;
    assign m_bad         = out_bad_reg;
    assign m_oversize    = out_oversize_reg;
    assign m_malformed   = out_malformed_reg;
    assign m_is_ipv4     = out_is_ipv4_reg;
    assign m_proto       = out_proto_reg;
    assign m_ports_valid = out_ports_valid_reg;
    assign m_sport       = out_sport_reg;
    assign m_dport       = out_dport_reg;
    assign m_ethertype   = out_ethertype_reg;
    assign m_frag        = out_frag_reg;
    assign m_src_ip      = out_src_reg;
    assign m_dst_ip      = out_dst_reg;

endmodule

`resetall
