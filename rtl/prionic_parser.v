// SPDX-License-Identifier: MIT
//
// prionic_parser: watches the accepted beats of the input stream (F1) and, six cycles
// after each frame's last beat, presents the frame's length, its parser verdict and
// the header fields the classifier needs (F3): Ethernet II with up to two VLAN tags,
// IPv4 (IHL with options, protocol, fragment bits, addresses), IPv6 (next header after at
// most two extension headers, fragment header), UDP/TCP ports and TCP flags, ICMP and
// ICMPv6; and the checksum flags (F4): IPv4 header checksum and the TCP/UDP/ICMP
// checksum. Rules: docs/frame-path.md section 2; latency and pipeline: section 2.7 (F25).
//
// The first HDR_BYTES bytes are captured a beat at a time; bytes past the capture and
// inside the IP packet are summed as they stream by (three register stages). The header
// walk is a pipeline of register stages P1..P5 and the output register, a few logic
// levels each, over the capture:
//   E1, E2    (every edge, F25) the bytes below 56, in place before a walked frame's last
//             beat: EtherType compares (E1); tags, EtherType, TCI and the IP header bytes
//             l3 .. l3+33 (E2), so that P1 registers them
//   P1 (T+1)  Ethernet and VLAN tags; the IP header bytes at l3 (3:1 by the tag count),
//             the candidates of the second IPv6 extension header; the extension header
//             walk's decodes, IP end offsets, IPv4 checks but the length one
//   P2 (T+2)  IPv4 and IPv6 length checks, extension header lengths, ip_end; the IPv4
//             header and IPv6 address sums begin; the thermometer's one-hot and compares
//   P3 (T+3)  l4, l4len, protocol; the capture's bytes below ip_end as 4-byte blocks and
//             which blocks lie at or past l4 (a thermometer)
//   P4 (T+4)  L4 fields at l4 (a mux by l4), the L4 blocks in six sums, pseudo-header
//   P5 (T+5)  L4 checks, malformed; the L4 sum in two parts; the IPv4 header checksum compare
//   out (T+6) the L4 sum and its checksum compare, flags, outputs
// Only a frame of at least MIN_FRAME_LEN bytes needs the walk (a shorter one is
// MALFORMED whatever its bytes), and such frames end at least ceil(60/KEEP_WIDTH) >= 8
// cycles apart: at its tlast the capture is copied to a walk buffer (at T+1), each
// stage is enabled only for such a frame and holds until the next one, and the walk
// reads the buffer at T+2..T+4 only. Every frame, runts included, passes a delay line
// of the same length, so results come out one per cycle, in order, at T+6.
//
// Latency: last beat accepted at edge T -> m_valid pulse and fields registered at T+6.
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

    output wire [2:0]            status_inflight,  // frames past tlast, not yet presented (0..6)

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
    localparam integer CAP_I    = CAP_BYTES;

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
        if (MIN_FRAME_LEN < 60) begin
            $error("Error: MIN_FRAME_LEN must be at least 60: the walk needs 8 cycles at 64 bits (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ capture
    reg [CAP_BYTES*8-1:0] hdr_reg;
    reg [HDR_WORDS_I-1:0] cap_sel;  // one-hot: the capture word the next beat fills (0: past it)
    reg [15:0] beat_cnt_reg;     // beats of the current frame so far (saturating)
    reg [15:0] len_reg;          // bytes of the current frame so far (saturating)
    reg        keep_err_reg;     // a non-last beat had tkeep != all ones

    // bytes in a last beat: ones from bit 0 up; anything else is a tkeep error (the bytes
    // are then the ones of tkeep, wherever they are). The count is built of gates, not an
    // adder chain, and picks one of the sums len_reg + b computed from the register alone:
    // no carry chain after the input (F25)
    reg [4:0] last_bytes;
    reg       last_keep_err;
    reg       pc_c;
    integer   k, kb;
    always @* begin
        last_bytes = 5'd0;
        for (k = 0; k < KEEP_WIDTH; k = k + 1) begin
            pc_c = s_beat_keep[k];
            for (kb = 0; kb < 5; kb = kb + 1) begin
                last_bytes[kb] = last_bytes[kb] ^ pc_c;
                pc_c = pc_c & !(last_bytes[kb]);
            end
        end
        last_keep_err = !s_beat_keep[0];
        for (k = 1; k < KEEP_WIDTH; k = k + 1) begin
            if (s_beat_keep[k] && !s_beat_keep[k-1]) begin
                last_keep_err = 1'b1;
            end
        end
    end

    // len_reg + b, saturating, and whether it reaches MIN_FRAME_LEN (b = 0 .. KEEP_WIDTH)
    reg [15:0]           len_plus [0:KEEP_WIDTH];
    reg [KEEP_WIDTH:0]   len_plus_min;
    reg [16:0]           lp_sum;
    integer              lb, lc;   // one loop variable per always block
    always @* begin
        for (lb = 0; lb <= KEEP_WIDTH; lb = lb + 1) begin
            lp_sum           = {1'b0, len_reg} + lb[16:0];
            len_plus[lb]     = lp_sum[16] ? 16'hFFFF : lp_sum[15:0];
            len_plus_min[lb] = {1'b0, len_reg} >= {1'b0, MIN_LEN} - lb[16:0];   // a constant compare
        end
    end
    reg [15:0] last_len;         // the frame's length with a last beat
    reg        last_walk;        // ... at least MIN_FRAME_LEN
    always @* begin
        last_len  = 16'd0;
        last_walk = 1'b0;
        for (lc = 0; lc <= KEEP_WIDTH; lc = lc + 1) begin
            if (last_bytes == lc[4:0]) begin
                last_len  = last_len | len_plus[lc];
                last_walk = last_walk | len_plus_min[lc];
            end
        end
    end
    wire [15:0] len_sat       = len_plus[KEEP_WIDTH];   // a full (not last) beat
    wire        beat_keep_err = s_beat_keep != {KEEP_WIDTH{1'b1}};

    // beat_cnt_reg < MAX_BEATS, a flag kept beside the count (timing: F25): the top ANDs it
    // with tvalid into the frame FIFO's push, so it is a flip-flop, not a compare
    reg store_reg;
    assign s_beat_store = store_reg;

    // delay line: every frame, stage 0 registered at T (the last beat), stage i at T+i
    reg [5:0]  d_valid;
    reg [5:0]  d_walk;           // length >= MIN_FRAME_LEN: the header walk runs for it
    reg [15:0] d_len   [0:5];
    reg [15:0] d_words [0:5];
    reg [31:0] d_ts    [0:5];
    reg [5:0]  d_bad;
    reg [5:0]  d_keep_err;
    integer    s;

    always @(posedge clk) begin
        d_valid[0] <= 1'b0;
        if (s_beat_valid) begin
            for (s = 0; s < HDR_WORDS_I; s = s + 1) begin
                if (cap_sel[s]) begin
                    hdr_reg[s*DATA_WIDTH +: DATA_WIDTH] <= s_beat_data;
                end
            end
            cap_sel <= s_beat_last ? {{(HDR_WORDS_I-1){1'b0}}, 1'b1} : {cap_sel[HDR_WORDS_I-2:0], 1'b0};
            if (s_beat_last) begin
                d_valid[0]    <= 1'b1;
                d_walk[0]     <= last_walk;
                d_len[0]      <= last_len;
                d_words[0]    <= store_reg ? beat_cnt_reg + 1'b1 : MAX_BEATS;
                d_ts[0]       <= ts;
                d_bad[0]      <= s_beat_user;
                d_keep_err[0] <= keep_err_reg | last_keep_err;
                beat_cnt_reg  <= 0;
                store_reg     <= 1'b1;   // 0 < MAX_BEATS
                len_reg       <= 0;
                keep_err_reg  <= 1'b0;
            end else begin
                beat_cnt_reg <= (beat_cnt_reg == 16'hFFFF) ? beat_cnt_reg : beat_cnt_reg + 1'b1;
                // the count + 1 (or the saturated 0xFFFF) < MAX_BEATS
                store_reg    <= beat_cnt_reg < MAX_BEATS - 16'd1;
                len_reg      <= len_sat;
                keep_err_reg <= keep_err_reg | beat_keep_err;
            end
        end
        for (s = 1; s < 6; s = s + 1) begin
            d_valid[s]    <= d_valid[s-1];
            d_walk[s]     <= d_walk[s-1];
            d_len[s]      <= d_len[s-1];
            d_words[s]    <= d_words[s-1];
            d_ts[s]       <= d_ts[s-1];
            d_bad[s]      <= d_bad[s-1];
            d_keep_err[s] <= d_keep_err[s-1];
        end
        if (rst) begin
            d_valid      <= 6'd0;
            cap_sel      <= {{(HDR_WORDS_I-1){1'b0}}, 1'b1};
            beat_cnt_reg <= 0;
            store_reg    <= 1'b1;
            len_reg      <= 0;
            keep_err_reg <= 1'b0;
        end
    end

    // stage enables: stage i runs at T+i for a frame that needs the walk
    wire en1 = d_valid[0] && d_walk[0];
    wire en2 = d_valid[1] && d_walk[1];
    wire en3 = d_valid[2] && d_walk[2];
    wire en4 = d_valid[3] && d_walk[3];
    wire en5 = d_valid[4] && d_walk[4];

    // the walk buffer: the capture of the frame being walked (loaded at T+1)
    reg [CAP_BYTES*8-1:0] w_hdr;
    reg [15:0]            w_len;
    always @(posedge clk) begin
        if (en1) begin
            w_hdr <= hdr_reg;
            w_len <= d_len[0];
        end
    end

    // ------------------------------------------------------------------ early stages
    // A walked frame (>= 60 bytes) has every byte below 56 captured before its last beat
    // (at edge T-1 at the latest; bytes below 28 at T-4 at the latest), and they stay until
    // the next frame's first beat (T+1 at the earliest). So stages registered at every
    // edge from the capture hold, after edge T, what P1 would otherwise compute from those
    // bytes (F25): E1 the EtherType compares (bytes 12..21), E2 the Ethernet and VLAN
    // decode and the IP header bytes l3 .. l3+33 (below 56). P1 registers them (en1).
    wire [15:0] h_et0 = {hdr_reg[8*12 +: 8], hdr_reg[8*13 +: 8]};
    wire [15:0] h_et1 = {hdr_reg[8*16 +: 8], hdr_reg[8*17 +: 8]};
    wire [15:0] h_et2 = {hdr_reg[8*20 +: 8], hdr_reg[8*21 +: 8]};
    reg         e1_tp0, e1_tp1;  // EtherType words 0 and 1 are a VLAN TPID
    reg  [2:0]  e1_is4, e1_is6;  // EtherType word k is IPv4 / IPv6
    always @(posedge clk) begin
        e1_tp0    <= h_et0 == 16'h8100 || h_et0 == 16'h88A8;
        e1_tp1    <= h_et1 == 16'h8100 || h_et1 == 16'h88A8;
        e1_is4[0] <= h_et0 == 16'h0800;
        e1_is4[1] <= h_et1 == 16'h0800;
        e1_is4[2] <= h_et2 == 16'h0800;
        e1_is6[0] <= h_et0 == 16'h86DD;
        e1_is6[1] <= h_et1 == 16'h86DD;
        e1_is6[2] <= h_et2 == 16'h86DD;
    end
    wire        h_tag1 = e1_tp0;
    wire        h_tag2 = e1_tp0 && e1_tp1;

    reg         ea_tag1, ea_tag2, ea_t4, ea_t6;
    reg  [15:0] ea_type, ea_tci;
    // bytes l3 .. l3+33, byte k at [8*k +: 8]: one vector loaded whole (an event-driven
    // simulator would otherwise run a per-byte loop at every edge)
    reg  [34*8-1:0] ea_ip;
    wire [34*8-1:0] ea_ip_d = h_tag2 ? hdr_reg[8*22 +: 34*8] : h_tag1 ? hdr_reg[8*18 +: 34*8]
                                                             : hdr_reg[8*14 +: 34*8];
    integer     eb;
    always @(posedge clk) begin
        ea_tag1 <= h_tag1;
        ea_tag2 <= h_tag2;
        ea_t4   <= h_tag2 ? e1_is4[2] : h_tag1 ? e1_is4[1] : e1_is4[0];
        ea_t6   <= h_tag2 ? e1_is6[2] : h_tag1 ? e1_is6[1] : e1_is6[0];
        ea_type <= h_tag2 ? h_et2 : h_tag1 ? h_et1 : h_et0;
        ea_tci  <= h_tag1 ? {hdr_reg[8*14 +: 8], hdr_reg[8*15 +: 8]} : 16'd0;
        ea_ip   <= ea_ip_d;
    end

    // ------------------------------------------------------------------ ip_end while streaming
    // ip_end from the capture in progress, three stages behind it: it depends on bytes below
    // 28 only, captured long before byte CAP_BYTES arrives
    reg [16:0] ea_end4 [0:2];
    reg [16:0] ea_end6 [0:2];
    reg [16:0] s_ipend;          // ip_end of the frame streaming in
    integer    c;
    always @(posedge clk) begin
        for (c = 0; c < 3; c = c + 1) begin
            ea_end4[c] <= 17'd14 + 17'd4 * c[16:0]
                        + {1'b0, hdr_reg[8*(16+4*c) +: 8], hdr_reg[8*(17+4*c) +: 8]};
            ea_end6[c] <= 17'd54 + 17'd4 * c[16:0]
                        + {1'b0, hdr_reg[8*(18+4*c) +: 8], hdr_reg[8*(19+4*c) +: 8]};
        end
        s_ipend <= ea_t4 ? (ea_tag2 ? ea_end4[2] : ea_tag1 ? ea_end4[1] : ea_end4[0])
                 : ea_t6 ? (ea_tag2 ? ea_end6[2] : ea_tag1 ? ea_end6[1] : ea_end6[0]) : 17'd0;
    end

    // ------------------------------------------------------------------ streaming sum
    // Bytes at index >= CAP_BYTES and < ip_end are added as big-endian 16-bit words (even
    // index = high byte, F4): lanes selected at the beat (SA), summed the cycle after (SB)
    // lane j of a beat at byte position pos is in [.., ip_end) iff pos < ip_end - j
    reg [16:0] s_thr [0:KEEP_WIDTH-1];
    integer    j, jt;   // one loop variable per always block
    always @(posedge clk) begin
        for (jt = 0; jt < KEEP_WIDTH; jt = jt + 1) begin
            s_thr[jt] <= (jt[16:0] < s_ipend) ? s_ipend - jt[16:0] : 17'd0;
        end
    end

    wire [19:0]             pos = {4'd0, beat_cnt_reg} * KEEP_WIDTH[19:0];  // a shift
    wire                    past_cap = beat_cnt_reg >= HDR_WORDS;
    reg [16*KEEP_WIDTH-1:0] sa_next;
    reg                     odd;
    always @* begin
        for (j = 0; j < KEEP_WIDTH; j = j + 1) begin
            odd = (KEEP_WIDTH == 1) ? pos[0] : j[0];
            if (past_cap && pos < {3'd0, s_thr[j]}) begin
                sa_next[16*j +: 16] = odd ? {8'd0, s_beat_data[8*j +: 8]} : {s_beat_data[8*j +: 8], 8'd0};
            end else begin
                sa_next[16*j +: 16] = 16'd0;
            end
        end
    end

    reg [16*KEEP_WIDTH-1:0] sa_w;
    reg                     sa_valid, sa_last;
    always @(posedge clk) begin
        sa_valid <= s_beat_valid;
        sa_last  <= s_beat_last;
        sa_w     <= sa_next;
        if (rst) begin
            sa_valid <= 1'b0;
        end
    end

    // SB: the lanes in two halves, each a balanced tree (at most 4 lanes: two adder levels)
    localparam integer HALF = (KEEP_WIDTH + 1) / 2;
    reg [17:0] sb_half [0:1];
    reg [17:0] t4s [0:3];
    integer    q, r;
    always @* begin
        for (r = 0; r < 2; r = r + 1) begin
            for (q = 0; q < 4; q = q + 1) begin
                t4s[q] = (q < HALF && r * HALF + q < KEEP_WIDTH) ? {2'd0, sa_w[16*(r*HALF+q) +: 16]} : 18'd0;
            end
            sb_half[r] = (t4s[0] + t4s[1]) + (t4s[2] + t4s[3]);
        end
    end

    reg [17:0] sb_p0, sb_p1;
    reg        sb_valid, sb_last;
    always @(posedge clk) begin
        sb_valid <= sa_valid;
        sb_last  <= sa_last;
        sb_p0    <= sb_half[0];
        sb_p1    <= sb_half[1];
        if (rst) begin
            sb_valid <= 1'b0;
        end
    end

    // SC: the current frame's stream sum so far; the walked frame's total is loaded at
    // T+2 (its last beat reaches SC then) and used at T+5
    wire [18:0] sb_sum = {1'b0, sb_p0} + {1'b0, sb_p1};
    reg  [31:0] sc_acc;
    reg  [31:0] w_ssum;
    reg  [16:0] w_sfold;         // w_ssum folded once (T+3): the same modulo 0xFFFF, 0 only if it was
    always @(posedge clk) begin
        if (sb_valid) begin
            sc_acc <= sb_last ? 32'd0 : sc_acc + {13'd0, sb_sum};
        end
        if (en2) begin
            w_ssum <= sc_acc + {13'd0, sb_sum};
        end
        if (en3) begin
            w_sfold <= {1'b0, w_ssum[15:0]} + {1'b0, w_ssum[31:16]};
        end
        if (rst) begin
            sc_acc <= 32'd0;
        end
    end

    // ------------------------------------------------------------------ P1 (T+1)
    // header byte i is hdr_reg[8*i +: 8] (the full capture at edge T+1)
    reg [1:0]  p1_tags;
    reg [15:0] p1_type;
    reg [15:0] p1_tci;
    reg        p1_t4, p1_t6;
    reg [7:0]  p1_ip [0:41];     // bytes l3 .. l3+41
    reg [7:0]  p1_e2 [0:15];     // bytes l3+48+8m, l3+49+8m, m = 0..7
    // decoded at P1 for P2 and P3 (F25): from the E2 registers, or one 3:1 byte mux
    reg        p1_walk1_r;       // the next header after IPv6 is walked (0, 43, 60)
    reg        p1_nh0_43;
    reg        p1_ip40_walk;     // byte l3+40 (the first header's next header) is walked
    reg        p1_ip40_43;
    reg        p1_p2_in_r;
    reg [8:0]  p1_b1p1, p1_b1p2; // b1 + 1, b1 + 2
    reg [8:0]  p1_b1_eq;         // b1 == j
    reg [16:0] p1_end4;          // l3 + total
    reg [16:0] p1_end6;          // l3 + 40 + payload length
    reg        p1_ip4_pre;       // the IPv4 rules but the length one
    reg        p1_ver6_bad;
    // IPv4: L4's 4-byte block, 3 + tags + IHL (3..20), a copy for each block it is compared
    // with, so that synthesis cannot chain the thermometer's bits through each other (F25)
    (* keep *) reg [4:0] p1_blk4 [8:20];
    reg [9:0]  p1_e2le [0:7];    // candidate m's length byte <= K
    reg [19:3] p1_ipen;          // IPv4 header blocks: n - 3 - tags < IHL
    wire [6:0] ea_l3  = 7'd14 + {3'd0, ea_tag2, ea_tag1 && !ea_tag2, 2'b00};
    wire [7:0] ea_b40 = ea_tag2 ? hdr_reg[8*62 +: 8] : ea_tag1 ? hdr_reg[8*58 +: 8] : hdr_reg[8*54 +: 8];
    wire [7:0] ea_b41 = ea_tag2 ? hdr_reg[8*63 +: 8] : ea_tag1 ? hdr_reg[8*59 +: 8] : hdr_reg[8*55 +: 8];
    wire [15:0] ea_total = {ea_ip[8*2 +: 8], ea_ip[8*3 +: 8]};
    wire [3:0]  ea_ihl   = ea_ip[3:0];
    integer    b;
    always @(posedge clk) begin
        if (en1) begin
            p1_tags <= ea_tag2 ? 2'd2 : ea_tag1 ? 2'd1 : 2'd0;
            p1_type <= ea_type;
            p1_tci  <= ea_tci;
            p1_t4   <= ea_t4;
            p1_t6   <= ea_t6;
            for (b = 0; b < 34; b = b + 1) begin
                p1_ip[b] <= ea_ip[8*b +: 8];
            end
            for (b = 34; b < 42; b = b + 1) begin
                p1_ip[b] <= ea_tag2 ? hdr_reg[8*(22+b) +: 8] : ea_tag1 ? hdr_reg[8*(18+b) +: 8] : hdr_reg[8*(14+b) +: 8];
            end
            for (b = 0; b < 8; b = b + 1) begin
                p1_e2[2*b]   <= ea_tag2 ? hdr_reg[8*(22+48+8*b) +: 8] : ea_tag1 ? hdr_reg[8*(18+48+8*b) +: 8]
                                                                        : hdr_reg[8*(14+48+8*b) +: 8];
                p1_e2[2*b+1] <= ea_tag2 ? hdr_reg[8*(22+49+8*b) +: 8] : ea_tag1 ? hdr_reg[8*(18+49+8*b) +: 8]
                                                                        : hdr_reg[8*(14+49+8*b) +: 8];
            end
            for (b = 0; b < 8; b = b + 1) begin
                for (eb = 0; eb < 10; eb = eb + 1) begin
                    p1_e2le[b][eb] <= eb[7:0] >= (ea_tag2 ? hdr_reg[8*(22+49+8*b) +: 8]
                                                  : ea_tag1 ? hdr_reg[8*(18+49+8*b) +: 8] : hdr_reg[8*(14+49+8*b) +: 8]);
                end
            end
            p1_walk1_r   <= ea_ip[8*6 +: 8] == 8'd0 || ea_ip[8*6 +: 8] == 8'd43 || ea_ip[8*6 +: 8] == 8'd60;
            p1_nh0_43    <= ea_ip[8*6 +: 8] == 8'd43;
            p1_ip40_walk <= ea_b40 == 8'd0 || ea_b40 == 8'd43 || ea_b40 == 8'd60;
            p1_ip40_43   <= ea_b40 == 8'd43;
            p1_p2_in_r   <= (ea_tag1 ? 8'd6 : 8'd7) >= ea_b41;
            p1_b1p1      <= {1'b0, ea_b41} + 9'd1;
            p1_b1p2      <= {1'b0, ea_b41} + 9'd2;
            for (b = 0; b < 9; b = b + 1) begin
                p1_b1_eq[b] <= ea_b41 == b[7:0];
            end
            p1_end4      <= {10'd0, ea_l3} + {1'b0, ea_total};
            p1_end6      <= {10'd0, ea_l3} + 17'd40 + {1'b0, ea_ip[8*4 +: 8], ea_ip[8*5 +: 8]};
            p1_ip4_pre   <= ea_ip[7:4] != 4'd4 || ea_ihl < 4'd5 || ea_total < {10'd0, ea_ihl, 2'b00};
            p1_ver6_bad  <= ea_ip[7:4] != 4'd6;
            for (b = 8; b < 21; b = b + 1) begin
                p1_blk4[b] <= 5'd3 + {3'd0, ea_tag2, ea_tag1 && !ea_tag2} + {1'b0, ea_ihl};
            end
            for (b = 3; b < 20; b = b + 1) begin
                p1_ipen[b] <= (!ea_tag1 && b >= 3 && b - 3 < {28'd0, ea_ihl})
                           || (ea_tag1 && !ea_tag2 && b >= 4 && b - 4 < {28'd0, ea_ihl})
                           || (ea_tag2 && b >= 5 && b - 5 < {28'd0, ea_ihl});
            end
        end
    end

    wire [6:0]  p1_l3    = 7'd14 + {3'd0, p1_tags, 2'b00};     // 14, 18 or 22
    wire [3:0]  p1_ihl   = p1_ip[0][3:0];
    wire [15:0] p1_total = {p1_ip[2], p1_ip[3]};
    wire [15:0] p1_plen  = {p1_ip[4], p1_ip[5]};
    wire [7:0]  p1_nh0   = p1_ip[6];
    wire [31:0] p1_src   = {p1_ip[12], p1_ip[13], p1_ip[14], p1_ip[15]};
    wire [31:0] p1_dst   = {p1_ip[16], p1_ip[17], p1_ip[18], p1_ip[19]};
    wire        p1_frag4 = ({p1_ip[6], p1_ip[7]} & 16'h3FFF) != 16'd0;
    wire [7:0]  p1_proto4 = p1_ip[9];
    wire [2:0]  p1_b1    = p1_ip[41][2:0];   // the second header candidate (b1 itself: P1 decodes)
    wire        p1_walk1 = p1_walk1_r;
    wire [7:0]  p1_nh1   = p1_walk1 ? p1_ip[40] : p1_nh0;
    // the second header's first 8 bytes in the capture: l3 + 40 + 8*(b1+1) + 8 <= 128
    wire        p1_p2_in = p1_p2_in_r;
    wire        p1_walk2 = p1_walk1 && p1_p2_in && p1_ip40_walk;

    // ------------------------------------------------------------------ P2 (T+2)
    // second extension header: at l3 + 40 + 8*(b1+1), one of the eight candidates of P1
    wire [7:0] e2_nh  = p1_e2[{p1_b1[2:0], 1'b0}];
    wire [7:0] e2_len = p1_e2[{p1_b1[2:0], 1'b1}];

    // IPv4 header sum: 4-byte blocks from byte 4i+2 (l3 and 4*IHL keep l3 = 2 mod 4),
    // the ones in [l3, l3 + 4*IHL): i from 3 + tags, IHL of them (blocks 3..19)
    reg [17:0] ipb [0:21];
    integer    n;
    always @* begin
        for (n = 0; n < 22; n = n + 1) begin
            ipb[n] = 18'd0;
        end
        for (n = 3; n < 20; n = n + 1) begin
            if (p1_ipen[n]) begin
                ipb[n] = {2'd0, w_hdr[8*(4*n+2) +: 8], w_hdr[8*(4*n+3) +: 8]}
                       + {2'd0, w_hdr[8*(4*n+4) +: 8], w_hdr[8*(4*n+5) +: 8]};
            end
        end
    end
    integer    i;

    reg        p2_ip4_bad, p2_ip6_bad;
    reg [6:0]  p2_l4w4;          // l3 + 4*IHL
    reg [16:0] p2_l4len4;        // total - 4*IHL
    // byte k (34..127) lies below ip_end: a thermometer of ip_end's low seven bits in two
    // halves (k's high three bits against ip_end's, then its low four), all ones from 128 up
    reg [127:34] p2_ipth;
    wire [16:0] p1_ipend = p1_t4 ? p1_end4 : p1_t6 ? p1_end6 : 17'd0;
    wire        th_big   = p1_ipend[16:7] != 10'd0;
    reg  [7:0]  th_hgt, th_heq;
    reg  [15:0] th_lgt;
    integer     tk;
    always @* begin
        for (tk = 0; tk < 8; tk = tk + 1) begin
            th_hgt[tk] = th_big || p1_ipend[6:4] > tk[2:0];
            th_heq[tk] = !th_big && p1_ipend[6:4] == tk[2:0];
        end
        for (tk = 0; tk < 16; tk = tk + 1) begin
            th_lgt[tk] = p1_ipend[3:0] > tk[3:0];
        end
    end
    reg        p2_walk1, p2_walk2, p2_routed;
    // 8-byte units of the walked extension headers: c1 + c2w (c1 = b1 + 1 (+ 1 with the
    // second header), c2w = b2 with it, else 0); L4 and its length begin at P2 with c1
    wire [8:0] p2_c1_d = p1_walk1 ? (p1_walk2 ? p1_b1p2 : p1_b1p1) : 9'd0;
    reg [7:0]  p2_c2w;
    reg [12:0] p2_l4w6;          // l3 + 40 + 8*c1
    reg [17:0] p2_l4len6;        // payload length - 8*c1 (two's complement)
    reg [7:0]  p2_nh1, p2_nh2;
    reg [17:0] p2_a4;            // IPv4 addresses as 16-bit words, summed
    reg [18:0] p2_ipsum [0:8];   // IPv4 header sum in nine parts
    reg [17:0] p2_a6 [0:3];      // IPv6 address sum in four parts
    // for P3's thermometer (F25): IPv6 L4 is at block 13 + tags + 2n, n = c1 + c2 (c2 when
    // walk2); a_oh one-hot a = tags + 2*c1 (a <= 18, IPv6 only), c2le[K] = c2 <= K
    reg [18:0] p2_a_oh;
    reg [9:0]  p2_c2le;
    reg [31:8] p2_th4;           // IPv4 (not IPv6): blocks at or past L4
    reg [9:0]  c1_is;            // c1 == i
    integer    aa, tt, ac;   // loop variables: one set per always block (a variable written
                             // in two blocks has two drivers in synthesis)
    always @* begin
        c1_is[0] = !p1_walk1;
        for (ac = 1; ac < 10; ac = ac + 1) begin
            c1_is[ac] = p1_walk1 && (p1_walk2 ? (ac >= 2 && p1_b1_eq[(ac >= 2) ? ac - 2 : 0]) : p1_b1_eq[ac - 1]);
        end
    end
    always @(posedge clk) begin
        if (en2) begin
            p2_ip4_bad <= p1_ip4_pre || {1'b0, w_len} < p1_end4;
            p2_ip6_bad <= p1_ver6_bad || {1'b0, w_len} < p1_end6;
            p2_l4w4    <= p1_l3 + {1'b0, p1_ihl, 2'b00};
            p2_l4len4  <= {1'b0, p1_total} - {11'd0, p1_ihl, 2'b00};
            for (aa = 34; aa < 128; aa = aa + 1) begin
                p2_ipth[aa] <= th_hgt[aa / 16] || (th_heq[aa / 16] && th_lgt[aa % 16]);
            end
            p2_walk1   <= p1_walk1;
            p2_walk2   <= p1_walk2;
            // a routing header changes the pseudo-header's destination (RFC 8200 8.1): not checked
            p2_routed  <= p1_t6 && p1_walk1 && (p1_nh0_43 || (p1_p2_in && p1_ip40_43));
            // units: (b1 + 1) + (b2 + 1) with both walked; the two ones go with b1
            p2_l4w6    <= {6'd0, p1_l3} + 13'd40 + {1'b0, p2_c1_d, 3'b000};
            p2_l4len6  <= {2'd0, p1_plen} - {6'd0, p2_c1_d, 3'b000};
            for (aa = 0; aa < 19; aa = aa + 1) begin
                p2_a_oh[aa] <= 1'b0;
                for (tt = 0; tt < 3; tt = tt + 1) begin
                    if (aa >= tt && (aa - tt) % 2 == 0 && p1_t6 && p1_tags == tt[1:0] && c1_is[(aa >= tt) ? (aa - tt) / 2 : 0]) begin
                        p2_a_oh[aa] <= 1'b1;
                    end
                end
            end
            for (aa = 0; aa < 10; aa = aa + 1) begin
                p2_c2le[aa] <= !p1_walk2 || p1_e2le[p1_b1][aa];
            end
            for (aa = 8; aa < 32; aa = aa + 1) begin
                p2_th4[aa] <= !p1_t6 && (aa > 20 || aa[4:0] >= p1_blk4[(aa > 20) ? 8 : aa]);
            end
            p2_c2w     <= p1_walk2 ? e2_len : 8'd0;
            p2_nh1     <= p1_nh1;
            p2_nh2     <= e2_nh;
            p2_a4      <= ({2'd0, p1_src[31:16]} + {2'd0, p1_src[15:0]}) + ({2'd0, p1_dst[31:16]} + {2'd0, p1_dst[15:0]});
            for (i = 0; i < 9; i = i + 1) begin
                p2_ipsum[i] <= {1'b0, ipb[2*i+3]} + {1'b0, ipb[2*i+4]};
            end
            for (i = 0; i < 4; i = i + 1) begin
                p2_a6[i] <= ({2'd0, p1_ip[8+8*i], p1_ip[9+8*i]} + {2'd0, p1_ip[10+8*i], p1_ip[11+8*i]})
                          + ({2'd0, p1_ip[12+8*i], p1_ip[13+8*i]} + {2'd0, p1_ip[14+8*i], p1_ip[15+8*i]});
            end
        end
    end

    // ------------------------------------------------------------------ P3 (T+3)
    // the capture's bytes below ip_end as 4-byte blocks from byte 4i+2, i = 8..31 (L4
    // starts at one of them: 34 <= l4 = 2 mod 4); even index = high byte (F4)
    reg [16:0] l4b [0:31];
    reg [7:0]  hi_b, lo_b;
    reg [15:0] wa, wb;
    integer    m, i3;
    always @* begin
        for (m = 0; m < 32; m = m + 1) begin
            l4b[m] = 17'd0;
        end
        for (m = 8; m < 31; m = m + 1) begin
            hi_b = p2_ipth[4*m+2] ? w_hdr[8*(4*m+2) +: 8] : 8'd0;
            lo_b = p2_ipth[4*m+3] ? w_hdr[8*(4*m+3) +: 8] : 8'd0;
            wa   = {hi_b, lo_b};
            hi_b = p2_ipth[4*m+4] ? w_hdr[8*(4*m+4) +: 8] : 8'd0;
            lo_b = p2_ipth[4*m+5] ? w_hdr[8*(4*m+5) +: 8] : 8'd0;
            wb   = {hi_b, lo_b};
            l4b[m] = {1'b0, wa} + {1'b0, wb};
        end
        // block 31: bytes 126 and 127 only
        hi_b = p2_ipth[126] ? w_hdr[8*126 +: 8] : 8'd0;
        lo_b = p2_ipth[127] ? w_hdr[8*127 +: 8] : 8'd0;
        wa   = {hi_b, lo_b};
        wb   = 16'd0;
        l4b[31] = {1'b0, wa};
    end

    wire [17:0] p3_l4len6 = p2_l4len6 - {7'd0, p2_c2w, 3'b000};   // negative: past the payload

    // blocks at or past L4 (block i starts at byte 4i+2): IPv4 l4 = l3 + 4*IHL (p2_th4);
    // IPv6 l4 = l3 + 40 + 8n, block 13 + tags + 2n. Only n <= 9 can put L4 in the capture:
    // block m is at or past it iff tags + 2*c1 = a and c2 <= (m - 13 - a) / 2 for some a:
    // registered one-hot and compares, no adder and no carry chain on this path (F25)
    reg [31:8] thermo;
    integer    m2, a2;
    always @* begin
        for (m2 = 8; m2 < 32; m2 = m2 + 1) begin
            thermo[m2] = p2_th4[m2];
            for (a2 = 0; a2 < 19; a2 = a2 + 1) begin
                if (a2 <= m2 - 13 && p2_a_oh[a2] && p2_c2le[(a2 <= m2 - 13) ? (m2 - 13 - a2) / 2 : 0]) begin
                    thermo[m2] = 1'b1;
                end
            end
        end
    end

    wire [7:0] p3_proto_d = p1_t6 ? (p2_walk2 ? p2_nh2 : p2_nh1) : p1_proto4;
    reg [31:8] p3_thermo;
    reg [12:0] p3_l4w;           // byte offset of L4
    reg [16:0] p3_l4len;
    reg        p3_ext_bad;
    reg [7:0]  p3_proto;
    reg        p3_frag;
    reg        p3_tcp_r, p3_udp_r, p3_icmp_r;
    reg [16:0] p3_blk [8:31];
    reg [20:0] p3_ipsum [0:2];
    reg [19:0] p3_a6;
    always @(posedge clk) begin
        if (en3) begin
            p3_l4w     <= p1_t6 ? p2_l4w6 + {2'd0, p2_c2w, 3'b000} : {6'd0, p2_l4w4};
            p3_l4len   <= p1_t6 ? p3_l4len6[16:0] : p2_l4len4;
            // the walked headers end inside the payload (the second one ends after the first)
            p3_ext_bad <= p2_walk1 && p3_l4len6[17];
            p3_proto   <= p3_proto_d;
            p3_tcp_r   <= p3_proto_d == 8'd6;
            p3_udp_r   <= p3_proto_d == 8'd17;
            p3_icmp_r  <= p1_t6 ? p3_proto_d == 8'd58 : p3_proto_d == 8'd1;
            p3_frag    <= p1_t6 ? (p2_walk2 ? p2_nh2 : p2_nh1) == 8'd44 : p1_frag4;
            for (i3 = 8; i3 < 32; i3 = i3 + 1) begin
                p3_blk[i3] <= l4b[i3];
            end
            p3_thermo  <= thermo;
            for (i3 = 0; i3 < 3; i3 = i3 + 1) begin
                p3_ipsum[i3] <= ({2'd0, p2_ipsum[3*i3]} + {2'd0, p2_ipsum[3*i3+1]}) + {2'd0, p2_ipsum[3*i3+2]};
            end
            p3_a6 <= ({2'd0, p2_a6[0]} + {2'd0, p2_a6[1]}) + ({2'd0, p2_a6[2]} + {2'd0, p2_a6[3]});
        end
    end

    // ------------------------------------------------------------------ P4 (T+4)
    // L4 header bytes: the walk buffer from byte 34 (the lowest l4 of a frame whose L4 is
    // read) shifted down to l4 = 4*q + 2, q = 8..31, in 4-byte steps, one shifter for every
    // field (zeros past the capture). The UDP checksum is only compared with 0: a flag per
    // block (bytes 4i+6, 4i+7 from byte 34 are 0), shifted alike
    // (q below 8, an l4 below 34, is a MALFORMED frame's: its q - 8 wraps to 24..31, zeros)
    localparam integer W34 = CAP_BYTES - 34;
    wire [32*32+111:0] w_pad  = {{(32*32+112-W34*8){1'b0}}, w_hdr[8*34 +: W34*8]};
    wire [4:0]         l4_q8  = {p3_l4w[6:5] - 2'd1, p3_l4w[4:2]};   // q - 8
    wire [10:0]        l4_bit = {1'b0, l4_q8, 5'd0};
    wire [47:0]        l4_sh  = w_pad[l4_bit +: 48];                 // bytes l4 .. l4+5
    wire [3:0]         l4_doff = w_pad[l4_bit + 11'd100 +: 4];       // b[l4+12] >> 4
    wire [7:0]         l4_flg  = w_pad[l4_bit + 11'd104 +: 8];       // b[l4+13]
    reg  [31:0]        l4_z;                                         // block i's bytes 6, 7 are 0
    integer            zi;
    always @* begin
        for (zi = 0; zi < 32; zi = zi + 1) begin
            l4_z[zi] = w_pad[8*(4*zi+6) +: 16] == 16'd0;
        end
    end
    wire               l4_csum0 = l4_z[l4_q8];
    wire        p3_v6   = p1_t6;
    wire        p3_tcp  = p3_tcp_r;
    wire        p3_udp  = p3_udp_r;
    wire        p3_icmp = p3_icmp_r;
    wire [4:0]  p3_need = p3_tcp ? 5'd20 : (p3_udp || (p3_icmp && !p3_v6)) ? 5'd8 : 5'd4;

    reg [18:0] l4p [0:5];
    reg [18:0] l4m [0:3];
    integer    g, h;
    always @* begin
        for (g = 0; g < 6; g = g + 1) begin
            for (h = 0; h < 4; h = h + 1) begin
                l4m[h] = p3_thermo[8+4*g+h] ? {2'd0, p3_blk[8+4*g+h]} : 19'd0;
            end
            l4p[g] = (l4m[0] + l4m[1]) + (l4m[2] + l4m[3]);
        end
    end
    integer    g2;

    reg        p4_tcp, p4_udp, p4_l4_known;
    reg        p4_need_gt;       // need > l4len
    reg        p4_ip_bad;
    reg [15:0] p4_sport, p4_dport, p4_udp_len;
    reg        p4_udp_csum0;     // the UDP checksum field is 0
    reg [3:0]  p4_doff;
    reg [7:0]  p4_tcp_flags;
    reg [18:0] p4_l4p [0:5];
    reg [20:0] p4_ipsum;
    reg [21:0] p4_ph;            // pseudo-header sum plus the bytes past the capture
    always @(posedge clk) begin
        if (en4) begin
            p4_tcp       <= p3_tcp;
            p4_udp       <= p3_udp;
            p4_need_gt   <= p3_l4len < {12'd0, p3_need};
            p4_ip_bad    <= p1_t4 ? p2_ip4_bad : (p2_ip6_bad || p3_ext_bad);
            // l4 + need <= 128, need 20 (TCP), 8 (UDP, ICMP) or 4 (ICMPv6)
            p4_l4_known  <= (p1_t4 || p1_t6) && !p3_frag
                         && ((p3_tcp && CAP_I[12:0] - 13'd20 >= p3_l4w)
                          || ((p3_udp || (p3_icmp && !p3_v6)) && CAP_I[12:0] - 13'd8 >= p3_l4w)
                          || (p3_icmp && p3_v6 && CAP_I[12:0] - 13'd4 >= p3_l4w));
            p4_sport     <= {l4_sh[0 +: 8], l4_sh[8 +: 8]};
            p4_dport     <= {l4_sh[16 +: 8], l4_sh[24 +: 8]};
            p4_udp_len   <= {l4_sh[32 +: 8], l4_sh[40 +: 8]};
            p4_udp_csum0 <= l4_csum0;
            p4_doff      <= l4_doff;
            p4_tcp_flags <= l4_flg;
            for (g2 = 0; g2 < 6; g2 = g2 + 1) begin
                p4_l4p[g2] <= l4p[g2];
            end
            p4_ipsum     <= (p3_ipsum[0] + p3_ipsum[1]) + p3_ipsum[2];
            // IPv6: addresses, l4len, protocol; IPv4 TCP/UDP: addresses, l4len, protocol;
            // ICMP over IPv4: none
            p4_ph        <= ((p3_v6 ? {2'd0, p3_a6} : p3_icmp ? 22'd0 : {4'd0, p2_a4}) + {5'd0, w_sfold})
                          + ((p3_v6 || !p3_icmp) ? {5'd0, p3_l4len} + {14'd0, p3_proto} : 22'd0);
        end
    end

    // ------------------------------------------------------------------ P5 (T+5)
    wire p4_l4_bad = p4_l4_known && (p4_need_gt
                  || (p4_udp && {1'b0, p4_udp_len} != p3_l4len)
                  || (p4_tcp && (p4_doff < 4'd5 || p3_l4len < {11'd0, p4_doff, 2'b00})));

    reg        p5_hdr_bad;       // the IP and L4 rules (an IP frame only)
    reg        p5_ip_cs_bad;
    reg        p5_l4_cs_checked;
    reg [20:0] p5_sa;            // the L4 sum in two parts: segment blocks 8..23
    reg [22:0] p5_sb;            // ... blocks 24..31 and the pseudo-header (stream part folded)
    always @(posedge clk) begin
        if (en5) begin
            p5_hdr_bad       <= (p1_t4 || p1_t6) && (p4_ip_bad || p4_l4_bad);
            // a one's-complement sum folds to 0xFFFF iff lo == ~hi (hi < 0xFFFF here)
            p5_ip_cs_bad     <= p4_ipsum[15:0] != ~{11'd0, p4_ipsum[20:16]};
            p5_l4_cs_checked <= p4_l4_known && !p2_routed && !(p4_udp && !p1_t6 && p4_udp_csum0);
            p5_sa            <= ({2'd0, p4_l4p[0]} + {2'd0, p4_l4p[1]}) + ({2'd0, p4_l4p[2]} + {2'd0, p4_l4p[3]});
            p5_sb            <= ({4'd0, p4_l4p[4]} + {4'd0, p4_l4p[5]}) + {1'd0, p4_ph};
        end
    end

    // ------------------------------------------------------------------ output (T+6)
    // folds to 0xFFFF iff lo + hi == 0xFFFF (the sum is below 2^24)
    wire [23:0] p5_sum    = {3'd0, p5_sa} + {1'd0, p5_sb};
    wire        l4_ok     = p5_sum[15:0] == ~{8'd0, p5_sum[23:16]};
    wire        malformed = d_keep_err[5] || d_len[5] < MIN_LEN || p5_hdr_bad;
    wire        l4_known  = p4_l4_known;
    wire [7:0]  flags = malformed ? 8'd0 : {
        p5_l4_cs_checked && !l4_ok, p5_l4_cs_checked,
        p1_t4 && p5_ip_cs_bad, p1_t4,
        l4_known && p4_udp, l4_known && p4_tcp, p1_t6, p1_t4};

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
        out_valid_reg <= d_valid[5];
        if (d_valid[5]) begin
            out_len_reg         <= d_len[5];
            out_words_reg       <= d_words[5];
            out_ts_reg          <= d_ts[5];
            out_bad_reg         <= d_bad[5];
            out_oversize_reg    <= MAX_LEN < {1'b0, d_len[5]};
            out_malformed_reg   <= malformed;
            out_is_ipv4_reg     <= p1_t4 && !malformed;
            out_is_ipv6_reg     <= p1_t6 && !malformed;
            out_proto_reg       <= p3_proto;
            out_ports_valid_reg <= !malformed && l4_known && (p4_udp || p4_tcp);
            out_sport_reg       <= p4_sport;
            out_dport_reg       <= p4_dport;
            out_ethertype_reg   <= p1_type;
            out_frag_reg        <= (p1_t4 || p1_t6) && !malformed && p3_frag;
            out_src_reg         <= p1_src;
            out_dst_reg         <= p1_dst;
            out_tags_reg        <= malformed ? 2'd0 : p1_tags;
            out_tci_reg         <= malformed ? 16'd0 : p1_tci;
            out_tcp_flags_reg   <= (!malformed && l4_known && p4_tcp) ? p4_tcp_flags : 8'd0;
            out_flags_reg       <= flags;
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
        end
    end

    // frames past their last beat whose result is not yet taken (the classifier's queue
    // takes m_valid): the delay line and the output register, counted as they will be
    // after this edge (a register: the top's room compare reads it, F25)
    reg  [2:0] inflight_reg;
    wire       d_valid0_next = s_beat_valid && s_beat_last;
    always @(posedge clk) begin
        inflight_reg <= {2'd0, d_valid0_next} + {2'd0, d_valid[0]} + {2'd0, d_valid[1]}
                      + {2'd0, d_valid[2]} + {2'd0, d_valid[3]} + {2'd0, d_valid[4]}
                      + {2'd0, d_valid[5]};
        if (rst) begin
            inflight_reg <= 3'd0;
        end
    end
    assign status_inflight = inflight_reg;

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
