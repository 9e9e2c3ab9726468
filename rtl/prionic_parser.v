// SPDX-License-Identifier: MIT
//
// prionic_parser: watches the accepted beats of the input stream (F1) and, one cycle
// after each frame's last beat, presents the frame's length, its parser verdict and
// the header fields the classifier needs (F3): Ethernet II with up to two VLAN tags,
// IPv4 (IHL with options, protocol, fragment bits, addresses), IPv6 (next header after at
// most two extension headers, fragment header), UDP/TCP ports and TCP flags, ICMP and
// ICMPv6; and the checksum flags (F4): IPv4 header checksum and the TCP/UDP/ICMP
// checksum. The first HDR_BYTES bytes are captured a beat at a time; bytes past the
// capture and inside the IP packet are summed as they stream by; parsing and the rest of
// the checksums are one combinational step over the capture, so the parser never stalls
// the stream and takes any number of back-to-back frames, even one-beat runts.
// Rules: docs/frame-path.md section 2.
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
    parameter HDR_BYTES     = 128,              // header bytes captured (128: fixed by the rules)
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
    output wire                  m_frag,           // IPv4 or IPv6 fragment
    output wire [31:0]           m_src_ip,
    output wire [31:0]           m_dst_ip,
    output wire                  m_is_ipv6,
    output wire [1:0]            m_vlan_tags,      // VLAN tags skipped (0..2)
    output wire [15:0]           m_tci,            // TCI of the outer tag, 0 without tags
    output wire [7:0]            m_tcp_flags,
    output wire [7:0]            m_flags           // completion status flags (F4)
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
        if (HDR_BYTES != 128) begin
            $error("Error: HDR_BYTES must be 128: the parser rules are written for it (instance %m)");
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
    reg [31:0] fin_sum_reg;      // 16-bit word sum of the bytes in [CAP_BYTES, ip_end)
    reg [31:0] sum_reg;          // the same, running

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
                fin_sum_reg      <= sum_reg + {14'd0, beat_sum};
                sum_reg          <= 32'd0;
                beat_cnt_reg     <= 0;
                len_reg          <= 0;
                keep_err_reg     <= 1'b0;
            end else begin
                beat_cnt_reg <= (beat_cnt_reg == 16'hFFFF) ? beat_cnt_reg : beat_cnt_reg + 1'b1;
                len_reg      <= len_sat;
                keep_err_reg <= keep_err_reg | beat_keep_err;
                sum_reg      <= sum_reg + {14'd0, beat_sum};
            end
        end
        if (rst) begin
            fin_valid_reg <= 1'b0;
            sum_reg       <= 32'd0;
            beat_cnt_reg  <= 0;
            len_reg       <= 0;
            keep_err_reg  <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ streaming sum
    // Bytes at index >= CAP_BYTES and < ip_end (computed from the capture, complete by
    // then) are added as big-endian 16-bit words: even index = high byte (F4).
    localparam integer CAP_I = CAP_BYTES;
    reg [17:0] beat_sum;
    reg [19:0] bidx;
    integer    j;
    always @* begin
        beat_sum = 18'd0;
        for (j = 0; j < KEEP_WIDTH; j = j + 1) begin
            bidx = {4'd0, beat_cnt_reg} * KEEP_WIDTH[19:0] + j[19:0];
            if (bidx >= CAP_I[19:0] && bidx < {3'd0, ip_end}) begin
                beat_sum = beat_sum + (bidx[0] ? {10'd0, s_beat_data[8*j +: 8]}
                                               : {2'd0, s_beat_data[8*j +: 8], 8'd0});
            end
        end
    end

    // ------------------------------------------------------------------ parse (comb)
    // header byte i is hdr_reg[8*i +: 8]; the rules are docs/frame-path.md section 2, in
    // its order. (No functions: Icarus would not re-evaluate a continuous assignment
    // whose function reads a module register.)
    wire [15:0] et0  = {hdr_reg[8*12 +: 8], hdr_reg[8*13 +: 8]};
    wire [15:0] et1  = {hdr_reg[8*16 +: 8], hdr_reg[8*17 +: 8]};
    wire [15:0] et2  = {hdr_reg[8*20 +: 8], hdr_reg[8*21 +: 8]};
    wire        tag1 = et0 == 16'h8100 || et0 == 16'h88A8;
    wire        tag2 = tag1 && (et1 == 16'h8100 || et1 == 16'h88A8);
    wire [15:0] ethertype = tag2 ? et2 : tag1 ? et1 : et0;
    wire [1:0]  ntags = tag2 ? 2'd2 : tag1 ? 2'd1 : 2'd0;
    wire [15:0] tci   = tag1 ? {hdr_reg[8*14 +: 8], hdr_reg[8*15 +: 8]} : 16'd0;
    wire [6:0]  l3    = 7'd14 + {3'd0, ntags, 2'b00};      // 14, 18 or 22
    wire        type_ipv4 = ethertype == 16'h0800;
    wire        type_ipv6 = ethertype == 16'h86DD;

    wire [3:0]  ip_ver   = hdr_reg[8*l3 + 4 +: 4];
    // IPv4
    wire [3:0]  ip_ihl   = hdr_reg[8*l3 +: 4];
    wire [15:0] ip_total = {hdr_reg[8*(l3+7'd2) +: 8], hdr_reg[8*(l3+7'd3) +: 8]};
    wire [7:0]  ip4_proto = hdr_reg[8*(l3+7'd9) +: 8];
    wire        ip4_frag = ({hdr_reg[8*(l3+7'd6) +: 8], hdr_reg[8*(l3+7'd7) +: 8]} & 16'h3FFF) != 16'd0;
    wire [5:0]  ip_hlen  = {ip_ihl, 2'b00};
    wire [31:0] ip4_src  = {hdr_reg[8*(l3+7'd12) +: 8], hdr_reg[8*(l3+7'd13) +: 8],
                            hdr_reg[8*(l3+7'd14) +: 8], hdr_reg[8*(l3+7'd15) +: 8]};
    wire [31:0] ip4_dst  = {hdr_reg[8*(l3+7'd16) +: 8], hdr_reg[8*(l3+7'd17) +: 8],
                            hdr_reg[8*(l3+7'd18) +: 8], hdr_reg[8*(l3+7'd19) +: 8]};
    wire        ip4_bad  = ip_ver != 4'd4 || ip_ihl < 4'd5 || ip_total < {10'd0, ip_hlen}
                        || {10'd0, l3} + {1'b0, ip_total} > {1'b0, fin_len_reg};
    // IPv6: walk at most two extension headers of type 0, 43, 60 whose first 8 bytes
    // lie in the capture; each must end inside the payload
    wire [15:0] ip6_plen = {hdr_reg[8*(l3+7'd4) +: 8], hdr_reg[8*(l3+7'd5) +: 8]};
    wire [7:0]  ip6_nh0  = hdr_reg[8*(l3+7'd6) +: 8];
    wire        ip6_bad_hdr = ip_ver != 4'd6
                           || {10'd0, l3} + 17'd40 + {1'b0, ip6_plen} > {1'b0, fin_len_reg};
    wire [7:0]  p1       = {1'b0, l3} + 8'd40;              // 54..62
    wire        walk1    = (ip6_nh0 == 8'd0 || ip6_nh0 == 8'd43 || ip6_nh0 == 8'd60);
    wire [11:0] hl1      = {1'b0, hdr_reg[8*(p1+8'd1) +: 8], 3'b000} + 12'd8;
    wire [7:0]  nh1      = walk1 ? hdr_reg[8*p1 +: 8] : ip6_nh0;
    wire [12:0] p2w      = {5'd0, p1} + (walk1 ? {1'b0, hl1} : 13'd0);
    wire        p2_in    = p2w + 13'd8 <= CAP_I[12:0];      // next header's first 8 bytes captured
    wire [6:0]  p2       = p2w[6:0];
    wire        walk2    = walk1 && p2_in && (nh1 == 8'd0 || nh1 == 8'd43 || nh1 == 8'd60);
    wire [11:0] hl2      = {1'b0, hdr_reg[8*(p2+7'd1) +: 8], 3'b000} + 12'd8;
    wire [7:0]  ip6_proto = walk2 ? hdr_reg[8*p2 +: 8] : nh1;
    wire [12:0] ext_len  = (walk1 ? {1'b0, hl1} : 13'd0) + (walk2 ? {1'b0, hl2} : 13'd0);
    // walk2 implies walk1, and ext_len >= hl1: one compare covers both headers
    wire        ext_bad  = walk1 && {3'd0, ext_len} > ip6_plen;
    wire [12:0] l4_6w    = {5'd0, p1} + ext_len;
    wire        ip6_frag = ip6_proto == 8'd44;

    // the IP packet, whichever version
    wire        ip_v6    = type_ipv6;
    wire [7:0]  proto    = ip_v6 ? ip6_proto : ip4_proto;
    wire        frag     = ip_v6 ? ip6_frag : ip4_frag;
    wire [16:0] ip_end   = type_ipv4 ? {10'd0, l3} + {1'b0, ip_total}
                         : type_ipv6 ? {10'd0, l3} + 17'd40 + {1'b0, ip6_plen} : 17'd0;
    wire [12:0] l4w      = ip_v6 ? l4_6w : {6'd0, l3} + {7'd0, ip_hlen};
    wire [16:0] l4len    = ip_v6 ? {1'b0, ip6_plen} - {4'd0, ext_len}
                                 : {1'b0, ip_total} - {11'd0, ip_hlen};
    wire        is_tcp   = proto == 8'd6;
    wire        is_udp   = proto == 8'd17;
    wire        is_icmp  = ip_v6 ? proto == 8'd58 : proto == 8'd1;
    wire [4:0]  l4_need  = is_tcp ? 5'd20 : (is_udp || (is_icmp && !ip_v6)) ? 5'd8 : 5'd4;
    wire        l4_known = (type_ipv4 || type_ipv6) && (is_tcp || is_udp || is_icmp) && !frag
                        && l4w + {8'd0, l4_need} <= CAP_I[12:0];
    wire [6:0]  l4       = l4w[6:0];
    wire [15:0] l4_sport = {hdr_reg[8*l4 +: 8], hdr_reg[8*(l4+7'd1) +: 8]};
    wire [15:0] l4_dport = {hdr_reg[8*(l4+7'd2) +: 8], hdr_reg[8*(l4+7'd3) +: 8]};
    wire [15:0] udp_len  = {hdr_reg[8*(l4+7'd4) +: 8], hdr_reg[8*(l4+7'd5) +: 8]};
    wire [15:0] udp_csum = {hdr_reg[8*(l4+7'd6) +: 8], hdr_reg[8*(l4+7'd7) +: 8]};
    wire [3:0]  tcp_doff = hdr_reg[8*(l4+7'd12) + 4 +: 4];
    wire [7:0]  tcp_flags = hdr_reg[8*(l4+7'd13) +: 8];
    wire        l4_bad   = l4_known && (l4len < {12'd0, l4_need}
                        || (is_udp && {1'b0, udp_len} != l4len)
                        || (is_tcp && (tcp_doff < 4'd5 || {11'd0, tcp_doff, 2'b00} > l4len)));

    wire ip_type   = type_ipv4 || type_ipv6;
    wire ip_bad    = type_ipv4 ? ip4_bad : (ip6_bad_hdr || ext_bad);
    wire malformed = fin_keep_err_reg || fin_len_reg < MIN_LEN || (ip_type && (ip_bad || l4_bad));

    // ------------------------------------------------------------------ checksums (F4)
    // one's-complement sums over the capture: the IPv4 header [l3, l3 + 4*IHL) and the
    // captured part of the L4 segment [l4, min(ip_end, CAP_BYTES)), plus the streamed part
    reg [23:0] ip_sum, l4_sum;
    reg [7:0]  lo_byte;
    reg [16:0] w_hi, w_lo;
    integer    w;
    always @* begin
        ip_sum = 24'd0;
        l4_sum = 24'd0;
        for (w = 0; w < CAP_I / 2; w = w + 1) begin
            w_hi = {w[15:0], 1'b0};
            w_lo = {w[15:0], 1'b1};
            if (w_hi >= {10'd0, l3} && w_hi < {10'd0, l3} + {11'd0, ip_hlen}) begin
                ip_sum = ip_sum + {8'd0, hdr_reg[16*w +: 8], hdr_reg[16*w + 8 +: 8]};
            end
            lo_byte = (w_lo < ip_end) ? hdr_reg[16*w + 8 +: 8] : 8'd0;
            if (w_hi >= {4'd0, l4w} && w_hi < ip_end) begin
                l4_sum = l4_sum + {8'd0, hdr_reg[16*w +: 8], lo_byte};
            end
        end
    end
    // pseudo-header: IPv4 addresses (TCP/UDP only), IPv6 addresses, length, protocol
    reg [23:0] ph_sum;
    integer    a;
    always @* begin
        ph_sum = 24'd0;
        a = 0;  // assigned on every path: no latch for the loop index (yosys proc_dlatch)
        if (ip_v6) begin
            for (a = 0; a < 16; a = a + 1) begin
                ph_sum = ph_sum + {8'd0, hdr_reg[8*({25'd0, l3} + 8 + 2*a) +: 8], hdr_reg[8*({25'd0, l3} + 9 + 2*a) +: 8]};
            end
            ph_sum = ph_sum + {7'd0, l4len} + {16'd0, proto};
        end else if (!is_icmp) begin
            ph_sum = {8'd0, ip4_src[31:16]} + {8'd0, ip4_src[15:0]} + {8'd0, ip4_dst[31:16]}
                   + {8'd0, ip4_dst[15:0]} + {7'd0, l4len} + {16'd0, proto};
        end
    end
    wire [31:0] l4_total = {8'd0, l4_sum} + {8'd0, ph_sum} + fin_sum_reg;
    wire [16:0] ip_f1  = {9'd0, ip_sum[23:16]} + {1'b0, ip_sum[15:0]};
    wire [15:0] ip_fold = ip_f1[15:0] + {15'd0, ip_f1[16]};
    wire [16:0] l4_f1  = {1'b0, l4_total[31:16]} + {1'b0, l4_total[15:0]};
    wire [15:0] l4_fold = l4_f1[15:0] + {15'd0, l4_f1[16]};
    wire        ip_cs_checked = type_ipv4;
    // a routing header changes the pseudo-header's destination (RFC 8200 8.1): not checked
    wire        routed = ip_v6 && ((walk1 && ip6_nh0 == 8'd43) || (walk2 && nh1 == 8'd43));
    wire        l4_cs_checked = l4_known && !routed && !(is_udp && !ip_v6 && udp_csum == 16'd0);
    wire [7:0]  flags = malformed ? 8'd0 : {
        l4_cs_checked && l4_fold != 16'hFFFF, l4_cs_checked,
        ip_cs_checked && ip_fold != 16'hFFFF, ip_cs_checked,
        l4_known && is_udp, l4_known && is_tcp, type_ipv6, type_ipv4};

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
    reg        out_is_ipv6_reg;
    reg [1:0]  out_tags_reg;
    reg [15:0] out_tci_reg;
    reg [7:0]  out_tcp_flags_reg;
    reg [7:0]  out_flags_reg;

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
            out_is_ipv6_reg     <= type_ipv6 && !malformed;
            out_proto_reg       <= proto;
            out_ports_valid_reg <= !malformed && l4_known && (is_udp || is_tcp);
            out_sport_reg       <= l4_sport;
            out_dport_reg       <= l4_dport;
            out_ethertype_reg   <= ethertype;
            out_frag_reg        <= ip_type && !malformed && frag;
            out_src_reg         <= ip4_src;
            out_dst_reg         <= ip4_dst;
            out_tags_reg        <= malformed ? 2'd0 : ntags;
            out_tci_reg         <= malformed ? 16'd0 : tci;
            out_tcp_flags_reg   <= (!malformed && l4_known && is_tcp) ? tcp_flags : 8'd0;
            out_flags_reg       <= flags;
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
    assign m_is_ipv6     = out_is_ipv6_reg;
    assign m_vlan_tags   = out_tags_reg;
    assign m_tci         = out_tci_reg;
    assign m_tcp_flags   = out_tcp_flags_reg;
    assign m_flags       = out_flags_reg;

endmodule

`resetall
