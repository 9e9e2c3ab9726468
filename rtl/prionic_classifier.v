// SPDX-License-Identifier: MIT
//
// prionic_classifier: the classification engine -- rule table (F5), default action (F6),
// fragment action (F7) and flow cache (F8). Presents, per frame and in arrival order, the
// pre-admission verdict: a parser drop (BAD_FRAME, OVERSIZE, MALFORMED in that order),
// FRAGMENT (fragments skip the rules, F7), RULE_DROP, UNREGISTERED, or ACCEPT towards a
// queue (admission may still turn it into another drop). A target queue >= NUM_QUEUES is
// a configuration error and drops as RULE_DROP. With a flow table (FLOW_TABLE_SETS > 0,
// F31, docs/flowtable.md) a frame whose flow key is in the table takes the entry's action
// and skips the rules; the table then stands in for the flow cache (FLOW_ENTRIES must be 0).
//
// The engine takes one frame at a time. A frame that skips the rules (parser drop,
// fragment) is classified at the edge it is taken. Every other frame is looked up in a
// pipeline (F25), so that no path between flip-flops crosses a whole table compare:
//
//   edge s        take: the parse record, the flow key and its cache index registered
//   edge s+1+c    rule chunk c's field compares registered (c = 0 .. S-1; the table is
//                 compared RULES_PER_CYCLE rules per edge, S = ceil(NUM_RULES / RPC));
//                 at s+1 the cache entry is read
//   edge s+2+c    chunk c folded into the first match; at s+2 the cache entry compared
//   edge s+3      verdict on a cache hit (FLOW_ENTRIES > 0, FLOW_CTRL.ENABLE)
//   edge s+S+2    verdict otherwise (s+3 with the default one-cycle table)
//   with a flow table: the key's sets read at s, the table's answer registered at s+3,
//   every lookup's verdict at s+max(4, S+2) (the table's hit, else the rules')
//
// A table write seen during a lookup (cfg_table_clr) restarts it as a miss and clears the
// cache. Parse results wait in a FIFO of 2^QUEUE_ADDR_WIDTH entries (the one being looked
// up stays at its head until its verdict); status_pending lets the top hold the input
// before it fills. Rules: docs/frame-path.md section 3; edges: docs/timing.md s3 and s3.1.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_classifier #(
    parameter NUM_RULES        = 4,   // rules in the table (1..64)
    parameter NUM_QUEUES       = 2,   // receive queues (1..16)
    parameter RULES_PER_CYCLE  = 0,   // rules compared per edge; 0: all (F8)
    parameter FLOW_ENTRIES     = 0,   // flow cache entries: 0 (none) or a power of two 2..256
    parameter FLOW_TS_SHIFT    = 14,  // flow cache time unit: 2^FLOW_TS_SHIFT cycles (0..16)
    parameter FLOW_TABLE_SETS  = 0,   // flow table sets per bank: 0 (none) or a power of two 2..1024 (F31)
    parameter QUEUE_ADDR_WIDTH = 3    // log2 of the parse results that can wait
) (
    input  wire                    clk,
    input  wire                    rst,

    // rule table and default action (registers, docs/registers.md)
    input  wire [NUM_RULES*32-1:0] cfg_rule_ctrl,
    input  wire [NUM_RULES*32-1:0] cfg_rule_dport,
    input  wire [NUM_RULES*32-1:0] cfg_rule_sport,
    input  wire [NUM_RULES*16-1:0] cfg_rule_ethertype,
    input  wire [NUM_RULES*32-1:0] cfg_rule_src_ip,
    input  wire [NUM_RULES*32-1:0] cfg_rule_src_mask,
    input  wire [NUM_RULES*32-1:0] cfg_rule_dst_ip,
    input  wire [NUM_RULES*32-1:0] cfg_rule_dst_mask,
    input  wire [NUM_RULES*16-1:0] cfg_rule_vlan,
    input  wire [31:0]             cfg_default_action,
    input  wire [31:0]             cfg_frag_action,
    input  wire                    cfg_flow_enable,   // FLOW_CTRL.ENABLE
    input  wire [14:0]             cfg_flow_idle,     // FLOW_IDLE
    input  wire                    cfg_table_clr,     // a table write seen at this edge
    input  wire [31:0]             now_ts,            // TIMESTAMP: edge number
    // flow table commands (F31): FLOW_CMD's pulse, FLOW_CMD, FLOW_KEY0..4, FLOW_VAL
    input  wire                    cfg_flow_go,
    input  wire [2:0]              cfg_flow_cmd,
    input  wire [138:0]            cfg_flow_key,
    input  wire [15:0]             cfg_flow_val,
    output wire [25:0]             status_flow,       // FLOW_STATUS
    output wire [15:0]             status_flow_rval,  // FLOW_RVAL
    output wire [15:0]             status_flow_used,  // FLOW_USED
    output wire                    stat_flow_table_hit, // pulse: a verdict at the previous edge came from the table

    output wire [QUEUE_ADDR_WIDTH:0] status_pending,  // parse results waiting
    output wire                    stat_flow_hit,     // pulse: a lookup at the previous edge hit
    output wire                    stat_flow_miss,    // pulse: ... missed

    // parser result
    input  wire                    s_valid,
    input  wire [15:0]             s_len,
    input  wire [15:0]             s_words,
    input  wire [31:0]             s_ts,
    input  wire [39:0]             s_info,          // completion info, passed through (F4)
    input  wire                    s_bad,
    input  wire                    s_oversize,
    input  wire                    s_malformed,
    input  wire                    s_is_ipv4,
    input  wire                    s_is_ipv6,
    input  wire [1:0]              s_vlan_tags,
    input  wire [15:0]             s_tci,
    input  wire [7:0]              s_proto,
    input  wire                    s_ports_valid,
    input  wire [15:0]             s_dport,
    input  wire [15:0]             s_sport,
    input  wire [15:0]             s_ethertype,
    input  wire                    s_frag,
    input  wire [31:0]             s_src_ip,
    input  wire [31:0]             s_dst_ip,

    output wire                    m_valid,
    output wire [3:0]              m_code,     // VERDICT_* (ACCEPT = towards m_queue)
    output wire [7:0]              m_queue,
    output wire [7:0]              m_rule,     // 0xFF: no rule (not classified or default)
    output wire [15:0]             m_len,
    // the m_len and m_words of the next edge's verdict, if there is one (F25): the
    // `lookahead` record of docs/regmap.toml (its candidates each from a flip-flop)
`include "prionic_records.vh"
    output wire [`PRIONIC_REC_LOOKAHEAD_W-1:0] m_lookahead,
    output wire [15:0]             m_words,
    output wire [31:0]             m_ts,
    output wire [39:0]             m_info
);

`include "prionic_regs.vh"

    localparam integer RPC = (RULES_PER_CYCLE < 1 || RULES_PER_CYCLE > NUM_RULES) ? NUM_RULES
                                                                                   : RULES_PER_CYCLE;
    localparam integer S   = (NUM_RULES + RPC - 1) / RPC;   // edges per table lookup
    localparam integer KW  = REC_FLOW_KEY_W;                // flow key bits (docs/regmap.toml)
    localparam integer REC = REC_PARSE_W;                   // parse record bits (docs/regmap.toml)

    initial begin
        if (NUM_RULES < 1 || NUM_RULES > 64) begin
            $error("Error: NUM_RULES must be 1..64 (instance %m)");
            $finish;
        end
        if (NUM_QUEUES < 1 || NUM_QUEUES > 16) begin
            $error("Error: NUM_QUEUES must be 1..16 (instance %m)");
            $finish;
        end
        if (FLOW_TS_SHIFT < 0 || FLOW_TS_SHIFT > 16) begin
            $error("Error: FLOW_TS_SHIFT must be 0..16 (instance %m)");
            $finish;
        end
        if (FLOW_TABLE_SETS != 0 && FLOW_ENTRIES != 0) begin
            $error("Error: a flow table (FLOW_TABLE_SETS > 0) needs FLOW_ENTRIES = 0 (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ head of line
    // parse results wait in a FIFO; when it is empty the one arriving now is the head
    // the `parse` record of docs/regmap.toml
    wire [REC-1:0] s_rec;
    assign s_rec[REC_PARSE_DST_IP_LSB +: REC_PARSE_DST_IP_W] = s_dst_ip;
    assign s_rec[REC_PARSE_SRC_IP_LSB +: REC_PARSE_SRC_IP_W] = s_src_ip;
    assign s_rec[REC_PARSE_FRAG_LSB +: REC_PARSE_FRAG_W] = s_frag;
    assign s_rec[REC_PARSE_ETHERTYPE_LSB +: REC_PARSE_ETHERTYPE_W] = s_ethertype;
    assign s_rec[REC_PARSE_SPORT_LSB +: REC_PARSE_SPORT_W] = s_sport;
    assign s_rec[REC_PARSE_DPORT_LSB +: REC_PARSE_DPORT_W] = s_dport;
    assign s_rec[REC_PARSE_PORTS_VALID_LSB +: REC_PARSE_PORTS_VALID_W] = s_ports_valid;
    assign s_rec[REC_PARSE_PROTO_LSB +: REC_PARSE_PROTO_W] = s_proto;
    assign s_rec[REC_PARSE_TCI_LSB +: REC_PARSE_TCI_W] = s_tci;
    assign s_rec[REC_PARSE_VLAN_TAGS_LSB +: REC_PARSE_VLAN_TAGS_W] = s_vlan_tags;
    assign s_rec[REC_PARSE_IS_IPV6_LSB +: REC_PARSE_IS_IPV6_W] = s_is_ipv6;
    assign s_rec[REC_PARSE_IS_IPV4_LSB +: REC_PARSE_IS_IPV4_W] = s_is_ipv4;
    assign s_rec[REC_PARSE_MALFORMED_LSB +: REC_PARSE_MALFORMED_W] = s_malformed;
    assign s_rec[REC_PARSE_OVERSIZE_LSB +: REC_PARSE_OVERSIZE_W] = s_oversize;
    assign s_rec[REC_PARSE_BAD_LSB +: REC_PARSE_BAD_W] = s_bad;
    assign s_rec[REC_PARSE_INFO_LSB +: REC_PARSE_INFO_W] = s_info;
    assign s_rec[REC_PARSE_TS_LSB +: REC_PARSE_TS_W] = s_ts;
    assign s_rec[REC_PARSE_WORDS_LSB +: REC_PARSE_WORDS_W] = s_words;
    assign s_rec[REC_PARSE_LEN_LSB +: REC_PARSE_LEN_W] = s_len;
    wire [REC-1:0] q_rec;
    wire           q_valid;
    wire           done_now;   // the head's verdict is registered at this edge
    wire           q_pop;      // done_now while the head is the FIFO's (q_valid)

    // the flow key of a parse record (frame-path.md s3.1, bit 0 first; fields that do not
    // apply are zero): the `flow_key` record of docs/regmap.toml
    function [KW-1:0] key_of(input [REC-1:0] r);
        reg        ip4, ip6, ports, tg;
        reg [2:0]  pcp;
        reg [11:0] vid;
        begin
            ip4    = r[REC_PARSE_IS_IPV4_LSB];
            ip6    = r[REC_PARSE_IS_IPV6_LSB];
            ports  = r[REC_PARSE_PORTS_VALID_LSB];
            tg     = r[REC_PARSE_VLAN_TAGS_LSB +: REC_PARSE_VLAN_TAGS_W] != 2'd0;
            pcp    = r[REC_PARSE_TCI_LSB + 13 +: 3];   // the DEI bit [12] is not a rule field
            vid    = r[REC_PARSE_TCI_LSB +: 12];
            key_of = {KW{1'b0}};
            key_of[REC_FLOW_KEY_IS_IPV4_LSB +: REC_FLOW_KEY_IS_IPV4_W] = ip4;
            key_of[REC_FLOW_KEY_IS_IPV6_LSB +: REC_FLOW_KEY_IS_IPV6_W] = ip6;
            key_of[REC_FLOW_KEY_PORTS_VALID_LSB +: REC_FLOW_KEY_PORTS_VALID_W] = ports;
            key_of[REC_FLOW_KEY_TAGGED_LSB +: REC_FLOW_KEY_TAGGED_W] = tg;
            key_of[REC_FLOW_KEY_PCP_LSB +: REC_FLOW_KEY_PCP_W] = tg ? pcp : 3'd0;
            key_of[REC_FLOW_KEY_VID_LSB +: REC_FLOW_KEY_VID_W] = tg ? vid : 12'd0;
            key_of[REC_FLOW_KEY_PROTO_LSB +: REC_FLOW_KEY_PROTO_W] =
                (ip4 || ip6) ? r[REC_PARSE_PROTO_LSB +: REC_PARSE_PROTO_W] : 8'd0;
            key_of[REC_FLOW_KEY_ETHERTYPE_LSB +: REC_FLOW_KEY_ETHERTYPE_W] =
                r[REC_PARSE_ETHERTYPE_LSB +: REC_PARSE_ETHERTYPE_W];
            key_of[REC_FLOW_KEY_DPORT_LSB +: REC_FLOW_KEY_DPORT_W] =
                ports ? r[REC_PARSE_DPORT_LSB +: REC_PARSE_DPORT_W] : 16'd0;
            key_of[REC_FLOW_KEY_SPORT_LSB +: REC_FLOW_KEY_SPORT_W] =
                ports ? r[REC_PARSE_SPORT_LSB +: REC_PARSE_SPORT_W] : 16'd0;
            key_of[REC_FLOW_KEY_DST_IP_LSB +: REC_FLOW_KEY_DST_IP_W] =
                ip4 ? r[REC_PARSE_DST_IP_LSB +: REC_PARSE_DST_IP_W] : 32'd0;
            key_of[REC_FLOW_KEY_SRC_IP_LSB +: REC_FLOW_KEY_SRC_IP_W] =
                ip4 ? r[REC_PARSE_SRC_IP_LSB +: REC_PARSE_SRC_IP_W] : 32'd0;
        end
    endfunction

    // the cache index is computed as a result arrives and waits with it (F25: the take
    // edge then registers a ready index)
    localparam integer IW = FLOW_ENTRIES > 1 ? $clog2(FLOW_ENTRIES) : 1;
    wire [IW-1:0] s_idx;
    wire [IW-1:0] q_idx;
    // so is whether it skips the rules (parser drop or fragment: no lookup)
    wire          s_skip = s_bad || s_oversize || s_malformed || s_frag;
    wire          q_skip;
    wire          take_s_skip;   // a skip result taken as it arrives: never queued
    prionic_flowhash #(
        .KEY_WIDTH(KW),
        .IW(IW)
    ) hash_inst (
        .l_key(key_of(s_rec)),
        .l_idx(s_idx)
    );
    // ... and so are its flow table sets (F31)
    localparam integer TW = FLOW_TABLE_SETS > 1 ? $clog2(FLOW_TABLE_SETS) : 1;
    wire [TW-1:0] s_tset0, s_tset1, q_tset0, q_tset1;
    generate
        if (FLOW_TABLE_SETS > 0) begin : g_tset
            prionic_flowtable_hash #(.KEY_WIDTH(KW), .IW(TW), .BANK(0)) tset0_inst (.l_key(key_of(s_rec)), .set(s_tset0));
            prionic_flowtable_hash #(.KEY_WIDTH(KW), .IW(TW), .BANK(1)) tset1_inst (.l_key(key_of(s_rec)), .set(s_tset1));
        end else begin : g_no_tset
            assign s_tset0 = {TW{1'b0}};
            assign s_tset1 = {TW{1'b0}};
        end
    endgenerate

    /* verilator lint_off PINCONNECTEMPTY */
    prionic_fifo #(
        .WIDTH(REC + IW + 2 * TW + 1),
        .ADDR_WIDTH(QUEUE_ADDR_WIDTH)
    ) queue_inst (
        .clk(clk),
        .rst(rst),
        .s_data({s_skip, s_tset1, s_tset0, s_idx, s_rec}),
        .s_valid(s_valid && !take_s_skip),
        .s_ready(),
        .m_data({q_skip, q_tset1, q_tset0, q_idx, q_rec}),
        .m_valid(q_valid),
        .m_ready(q_pop),
        .status_count(status_pending)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // The head's length and word count from flip-flops (timing, F25: admission compares
    // them with the buffer size and the free words in the edge they are read): a copy of the
    // queue's lengths and word counts beside the FIFO, read one entry ahead of its pop
    // pointer, into a register that holds the head's at every edge the FIFO has one. A
    // push and a pop here are exactly the FIFO's (it pushes s_valid unless full).
    localparam integer QD = 1 << QUEUE_ADDR_WIDTH;
    localparam [QUEUE_ADDR_WIDTH:0] QDEPTH = {1'b1, {QUEUE_ADDR_WIDTH{1'b0}}};
    reg  [31:0] lw_mem [0:QD-1];                   // {len, words} of each entry
    reg  [QUEUE_ADDR_WIDTH-1:0] lw_wr_reg;         // the FIFO's write pointer (low bits)
    reg  [QUEUE_ADDR_WIDTH-1:0] lw_rd1_reg;        // its pop pointer + 1 (low bits)
    reg  [31:0] lw_head_reg;                       // {len, words} of the FIFO's head
    wire [31:0] s_lw    = {s_len, s_words};
    wire        lw_push = s_valid && !take_s_skip && status_pending != QDEPTH;
    always @(posedge clk) begin
        if (lw_push) begin
            lw_mem[lw_wr_reg] <= s_lw;
            lw_wr_reg <= lw_wr_reg + 1'b1;
        end
        if (q_pop) begin
            lw_rd1_reg <= lw_rd1_reg + 1'b1;
            // the entry behind the head, or the one pushed now when the head was the last
            lw_head_reg <= {{QUEUE_ADDR_WIDTH{1'b0}}, 1'b1} < status_pending ? lw_mem[lw_rd1_reg] : s_lw;
        end else if (!q_valid) begin
            lw_head_reg <= s_lw;                   // pushed into an empty FIFO: the head
        end
        if (rst) begin
            lw_wr_reg  <= {QUEUE_ADDR_WIDTH{1'b0}};
            lw_rd1_reg <= {{(QUEUE_ADDR_WIDTH-1){1'b0}}, 1'b1};
        end
    end
`ifndef SYNTHESIS
    // the copy is a timing device, not a second truth: it must equal the FIFO's head
    always @(posedge clk) begin
        if (!rst && q_valid && lw_head_reg !== {q_rec[REC_PARSE_LEN_LSB +: REC_PARSE_LEN_W],
                                                q_rec[REC_PARSE_WORDS_LSB +: REC_PARSE_WORDS_W]}) begin
            $fatal(1, "%m: head length/words copy differs from the queue's head");
        end
    end
`endif

    wire           h_valid = q_valid || s_valid;
    wire [REC-1:0] h_rec   = q_valid ? q_rec : s_rec;
    wire [15:0] h_len, h_words;
    wire [31:0] h_ts;
    wire [39:0] h_info;
    wire        h_bad, h_oversize, h_malformed;
    assign h_malformed = h_rec[REC_PARSE_MALFORMED_LSB +: REC_PARSE_MALFORMED_W];
    assign h_oversize = h_rec[REC_PARSE_OVERSIZE_LSB +: REC_PARSE_OVERSIZE_W];
    assign h_bad = h_rec[REC_PARSE_BAD_LSB +: REC_PARSE_BAD_W];
    assign h_info = h_rec[REC_PARSE_INFO_LSB +: REC_PARSE_INFO_W];
    assign h_ts = h_rec[REC_PARSE_TS_LSB +: REC_PARSE_TS_W];
    assign h_words = q_valid ? lw_head_reg[15:0] : s_words;
    assign h_len = q_valid ? lw_head_reg[31:16] : s_len;

    wire h_skip   = q_valid ? q_skip : s_skip;                      // no rule lookup
    wire h_syn    = h_info[17];                                     // TCP flags = info[23:16]

    // ------------------------------------------------------------------ engine state
    reg       busy_reg;         // a lookup is in progress (from the edge after its take)
    reg [7:0] ph_reg;           // edges since the lookup's take or restart (1 at the next)
    reg       ph3_reg;          // ph_reg == 3, registered with it (F25)
    reg       phd_reg;          // ph_reg == S + 2 (a miss's verdict edge), registered with it
    reg [7:0] cmp_chunk_reg;    // chunk whose field compares are registered at this edge
    reg       acc_valid_reg;    // fm_reg holds a chunk to fold at this edge
    reg [7:0] acc_base_reg;     // index of fm_reg's first rule
    reg       probe_reg;        // the cache is probed (a hit is possible)
    reg       looked_reg;       // the frame was looked up in the cache (counts, installs)
    reg       found_reg;        // a rule matched in the chunks folded so far
    reg [7:0] found_idx_reg;
    reg [REC-1:0] e_rec_reg;    // the frame being looked up
    // the cache's phases as flags, so that its touch, evict and install are one gate from
    // flip-flops (F25): registered with the engine state they are made of, and checked
    // against it in simulation
    reg           a_t_reg;      // busy_reg && ph3_reg && probe_reg && !e_finrst (a hit touches)
    reg           a_e_reg;      // busy_reg && ph3_reg && probe_reg && e_finrst (a hit evicts)
    reg           inst_reg;     // busy_reg && phd_reg && looked_reg && !e_finrst

    wire take     = !busy_reg && h_valid;
    assign take_s_skip = !busy_reg && !q_valid && s_valid && s_skip;
    wire take_lk  = take && !h_skip;                 // a lookup starts
    wire restart  = busy_reg && cfg_table_clr;
    wire lookup   = take_lk && cfg_flow_enable && FLOW_ENTRIES > 0;
    wire probe    = lookup && !cfg_table_clr && !h_syn;

    // the frame being looked up
    wire [15:0] e_tci       = e_rec_reg[REC_PARSE_TCI_LSB +: REC_PARSE_TCI_W];
    wire [15:0] e_dport     = e_rec_reg[REC_PARSE_DPORT_LSB +: REC_PARSE_DPORT_W];
    wire [15:0] e_sport     = e_rec_reg[REC_PARSE_SPORT_LSB +: REC_PARSE_SPORT_W];
    wire [15:0] e_ethertype = e_rec_reg[REC_PARSE_ETHERTYPE_LSB +: REC_PARSE_ETHERTYPE_W];
    wire [31:0] e_src_ip    = e_rec_reg[REC_PARSE_SRC_IP_LSB +: REC_PARSE_SRC_IP_W];
    wire [31:0] e_dst_ip    = e_rec_reg[REC_PARSE_DST_IP_LSB +: REC_PARSE_DST_IP_W];
    wire [7:0]  e_proto     = e_rec_reg[REC_PARSE_PROTO_LSB +: REC_PARSE_PROTO_W];
    wire [39:0] e_info      = e_rec_reg[REC_PARSE_INFO_LSB +: REC_PARSE_INFO_W];
    wire        e_ports     = e_rec_reg[REC_PARSE_PORTS_VALID_LSB];
    wire        e_ipv4      = e_rec_reg[REC_PARSE_IS_IPV4_LSB];
    wire        e_ipv6      = e_rec_reg[REC_PARSE_IS_IPV6_LSB];
    wire        e_tagged    = e_rec_reg[REC_PARSE_VLAN_TAGS_LSB +: REC_PARSE_VLAN_TAGS_W] != 2'd0;
    wire        e_ip        = e_ipv4 || e_ipv6;
    wire        e_finrst    = e_info[16] || e_info[18];

    // the DEI bit of the TCI is not a rule field; the cache uses 16 bits of now_ts; rule
    // indices are 6 bits
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_dei = &{1'b0, e_tci[12], now_ts, l_val_next[7:6]};
    /* verilator lint_on UNUSEDSIGNAL */


    // ------------------------------------------------------------------ field compares (stage 1)
    // one bit per rule field: the field is not matched, or it matches
    localparam integer NF = 9;
    reg [RPC*NF-1:0] fm;
    reg [RPC-1:0]    fm_ok;      // the rule slot exists in this chunk and is enabled
    integer k, ri;
    always @* begin
        fm    = {(RPC*NF){1'b0}};
        fm_ok = {RPC{1'b0}};
        for (k = 0; k < RPC; k = k + 1) begin
            ri = cmp_chunk_reg * RPC + k;
            if (ri < NUM_RULES) begin
                fm_ok[k] = cfg_rule_ctrl[ri*32 + F_RULE_CTRL_ENABLE];
                fm[k*NF + 0] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_PROTO]
                    || (e_ip && e_proto == cfg_rule_ctrl[ri*32 + F_RULE_CTRL_PROTO_LSB +: 8]);
                fm[k*NF + 1] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_VID]
                    || (e_tagged && e_tci[11:0] == cfg_rule_vlan[ri*16 +: 12]);
                fm[k*NF + 2] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_PCP]
                    || (e_tagged && e_tci[15:13] == cfg_rule_vlan[ri*16 + F_RULE_VLAN_PCP_LSB +: 3]);
                fm[k*NF + 3] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_IPVER]
                    || (cfg_rule_ctrl[ri*32 + F_RULE_CTRL_IPVER] ? e_ipv6 : e_ipv4);
                fm[k*NF + 4] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_DPORT]
                    || (e_ports && e_dport >= cfg_rule_dport[ri*32 + HF_RULE_DPORT_LO_LSB +: HF_RULE_DPORT_LO_W]
                        && cfg_rule_dport[ri*32 + HF_RULE_DPORT_HI_LSB +: HF_RULE_DPORT_HI_W] >= e_dport);
                fm[k*NF + 5] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_SPORT]
                    || (e_ports && e_sport >= cfg_rule_sport[ri*32 + HF_RULE_SPORT_LO_LSB +: HF_RULE_SPORT_LO_W]
                        && cfg_rule_sport[ri*32 + HF_RULE_SPORT_HI_LSB +: HF_RULE_SPORT_HI_W] >= e_sport);
                fm[k*NF + 6] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_ETHERTYPE]
                    || e_ethertype == cfg_rule_ethertype[ri*16 +: 16];
                fm[k*NF + 7] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_SRC]
                    || (e_ipv4 && ((e_src_ip ^ cfg_rule_src_ip[ri*32 +: 32])
                                   & cfg_rule_src_mask[ri*32 +: 32]) == 32'd0);
                fm[k*NF + 8] = !cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_DST]
                    || (e_ipv4 && ((e_dst_ip ^ cfg_rule_dst_ip[ri*32 +: 32])
                                   & cfg_rule_dst_mask[ri*32 +: 32]) == 32'd0);
            end
        end
    end

    reg [RPC*NF-1:0] fm_reg;
    reg [RPC-1:0]    fm_ok_reg;

    // ------------------------------------------------------------------ first match (stage 2)
    reg       c_found;
    reg [7:0] c_idx;
    integer   j;
    always @* begin
        c_found = 1'b0;
        c_idx   = 8'd0;
        for (j = RPC - 1; j >= 0; j = j - 1) begin
            if (fm_ok_reg[j] && &fm_reg[j*NF +: NF]) begin
                c_found = 1'b1;
                c_idx   = acc_base_reg + j[7:0];
            end
        end
    end

    // ------------------------------------------------------------------ flow cache (F8)
    wire [KW-1:0] key   = key_of(h_rec);
    wire [IW-1:0] h_idx = q_valid ? q_idx : s_idx;

    // ph_reg at a miss's verdict edge; with a flow table at least 4 (its answer, F31)
    localparam integer S_DONE = (FLOW_TABLE_SETS > 0 && S + 2 < 4) ? 4 : S + 2;
    wire       l_hit;
    wire [7:0] l_val;
    wire [7:0] l_val_next;
    reg        c_rule_reg;      // l_val != 0xFF (a cached rule), registered as l_val is (F25)
    // c_hit_d: a hit unless a table write restarts the lookup at this edge. The verdict's
    // data use it (F25): a restart registers no verdict (done_lk is low), so the table
    // write only reaches the output registers' enable, never their data.
    wire       c_hit_d = busy_reg && ph3_reg && probe_reg && l_hit;
    wire       c_hit   = c_hit_d && !restart;
    wire       done_lk = busy_reg && !restart && (c_hit_d || phd_reg);
    assign     done_now = (take && h_skip) || done_lk;
    // the FIFO's pop, written for the queued head only (timing: F25): with q_valid, h_skip
    // is q_skip and take is !busy_reg, so the head's skip bit from the FIFO's read meets
    // the pop in one gate instead of passing the q_valid mux and the parser's skip terms
    assign     q_pop    = q_valid && ((!busy_reg && q_skip) || done_lk);

    // the lookup's result: the cached rule on a hit, else the scan's first match
    wire       hit     = c_hit_d ? c_rule_reg : found_reg;
    wire [7:0] hit_idx = c_hit_d ? l_val : found_idx_reg;
    // install = done_lk && looked_reg && !c_hit && cfg_flow_enable && !e_finrst, touch =
    // c_hit && !e_finrst, evict = c_hit && e_finrst, from the phase flags (F25). A table write
    // (cfg_table_clr) at the same edge clears the cache, and its clr wins over all three
    // there: they are not gated by it (F25: the clear is a reset of the valid bits)
    wire       c_touch = a_t_reg && l_hit;
    wire       c_evict = a_e_reg && l_hit;
    wire       install = inst_reg && cfg_flow_enable && !((a_t_reg || a_e_reg) && l_hit);
`ifndef SYNTHESIS
    reg        ph_seen;
    initial ph_seen = 1'b0;
    always @(posedge clk) begin
        if (rst) begin
            ph_seen <= 1'b1;
        end
        if (ph_seen && ({a_t_reg, a_e_reg, inst_reg} !== {busy_reg && ph3_reg && probe_reg && !e_finrst,
                                                          busy_reg && ph3_reg && probe_reg && e_finrst,
                                                          busy_reg && phd_reg && looked_reg && !e_finrst})) begin
            $fatal(1, "%m: the cache phase flags differ from the engine state they are made of");
        end
    end
`endif

    generate
        if (FLOW_ENTRIES > 0) begin : g_cache
            /* verilator lint_off PINCONNECTEMPTY */
            prionic_flowcache #(
                .ENTRIES(FLOW_ENTRIES),
                .KEY_WIDTH(KW),
                .VAL_WIDTH(8),
                .TS_WIDTH(16)
            ) cache_inst (
                .clk(clk),
                .rst(rst),
                .now(now_ts[FLOW_TS_SHIFT +: 16]),
                .cfg_idle(cfg_flow_idle),
                .clr(cfg_table_clr),
                .l_start(!busy_reg),   // the take edge's key is the one held
                .l_key(key),
                .l_idx(h_idx),
                .l_hit(l_hit),
                .l_val(l_val),
                .l_val_next(l_val_next),
                .touch(c_touch),
                .evict(c_evict),
                .install(install),
                .i_val(hit ? hit_idx : 8'hFF),
                .status_valid()
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end else begin : g_no_cache
            assign l_hit = 1'b0;
            assign l_val = 8'hFF;
            assign l_val_next = 8'hFF;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_cache = &{1'b0, cfg_flow_idle, key, h_idx, install, c_touch, c_evict, h_syn};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    // ------------------------------------------------------------------ flow table (F31)
    // the key's sets read at the take edge; the answer (t_hit, t_val) registered at s+3 and
    // held while the engine is busy, so every verdict edge s+S_DONE (>= s+4) reads it
    wire        t_hit;
    wire [15:0] t_val;
    wire [TW-1:0] h_tset0 = q_valid ? q_tset0 : s_tset0;
    wire [TW-1:0] h_tset1 = q_valid ? q_tset1 : s_tset1;
    generate
        if (FLOW_TABLE_SETS > 0) begin : g_table
            wire          ft_busy, ft_bank, ft_way, ft_overrun, ft_hit;
            wire [3:0]    ft_result;
            wire [TW-1:0] ft_set;
            wire [TW+2:0] ft_used;
            /* verilator lint_off PINCONNECTEMPTY */
            prionic_flowtable #(
                .SETS(FLOW_TABLE_SETS),
                .KEY_WIDTH(KW),
                .VAL_WIDTH(16)
            ) table_inst (
                .clk(clk),
                .rst(rst),
                .l_take(take_lk),
                .l_set0(h_tset0),
                .l_set1(h_tset1),
                .l_key(key),
                .l_hit(ft_hit),
                .l_val(t_val),
                .l_done(),
                .h_cmd_valid(cfg_flow_go),
                .h_cmd(cfg_flow_cmd),
                .h_key(cfg_flow_key),
                .h_val(cfg_flow_val),
                .busy(ft_busy),
                .result(ft_result),
                .res_bank(ft_bank),
                .res_way(ft_way),
                .res_set(ft_set),
                .rval(status_flow_rval),
                .used(ft_used),
                .overrun(ft_overrun)
            );
            /* verilator lint_on PINCONNECTEMPTY */
            assign t_hit = ft_hit;
            assign status_flow = {{(10 - TW){1'b0}}, ft_set, 6'd0, ft_bank, ft_way, ft_result, 2'd0,
                                  ft_overrun, ft_busy};
            assign status_flow_used = {{(13 - TW){1'b0}}, ft_used};
        end else begin : g_no_table
            assign t_hit = 1'b0;
            assign t_val = 16'd0;
            assign status_flow = 26'd0;
            assign status_flow_rval = 16'd0;
            assign status_flow_used = 16'd0;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_table = &{1'b0, cfg_flow_go, cfg_flow_cmd, cfg_flow_key, cfg_flow_val, h_tset0, h_tset1,
                                  q_tset0, q_tset1, s_tset0, s_tset1};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    always @(posedge clk) begin
        fm_reg    <= fm;
        fm_ok_reg <= fm_ok;
        if (take_lk || restart) begin             // chunk 0 compared at the next edge
            busy_reg      <= 1'b1;
            ph_reg        <= 8'd1;
            ph3_reg       <= 1'b0;
            phd_reg       <= S_DONE == 1;
            cmp_chunk_reg <= 8'd0;
            acc_valid_reg <= 1'b0;
            acc_base_reg  <= 8'd0;
            found_reg     <= 1'b0;
            found_idx_reg <= 8'd0;
        end else if (busy_reg) begin
            // (no restart here: probe_reg, looked_reg and e_rec_reg hold)
            ph_reg        <= ph_reg + 8'd1;
            ph3_reg       <= ph_reg == 8'd2;
            phd_reg       <= ph_reg + 8'd1 == S_DONE[7:0];
            cmp_chunk_reg <= cmp_chunk_reg + 8'd1;
            // the chunk compared at this edge is folded at the next one
            acc_valid_reg <= S[7:0] >= ph_reg;
            acc_base_reg  <= cmp_chunk_reg * RPC[7:0];
            if (acc_valid_reg && !found_reg) begin
                found_reg     <= c_found;
                found_idx_reg <= c_idx;
            end
            if (done_lk) begin
                busy_reg <= 1'b0;
            end
        end
        // the phase flags of the next edge: a take or a restart clears them (ph3_reg and
        // phd_reg become 0: S_DONE >= 3) and they are 0 while idle, so busy_reg &&
        // !cfg_table_clr is all they take of the branches above, not the take (F25)
        a_t_reg  <= busy_reg && !cfg_table_clr && !done_lk && ph_reg == 8'd2 && probe_reg && !e_finrst;
        a_e_reg  <= busy_reg && !cfg_table_clr && !done_lk && ph_reg == 8'd2 && probe_reg && e_finrst;
        inst_reg <= busy_reg && !cfg_table_clr && !done_lk && ph_reg + 8'd1 == S_DONE[7:0]
                    && looked_reg && !e_finrst;
        // loaded at every edge at which the engine is free (so that their enable is one
        // register, not the take decision): what counts is the take edge's value, held
        // while busy
        if (!busy_reg) begin
            e_rec_reg  <= h_rec;
            looked_reg <= lookup;
            probe_reg  <= probe;
        end else if (restart) begin
            probe_reg  <= 1'b0;
        end
        if (rst) begin
            busy_reg      <= 1'b0;
            ph_reg        <= 8'd0;
            ph3_reg       <= 1'b0;
            phd_reg       <= S_DONE == 0;
            a_t_reg       <= 1'b0;
            a_e_reg       <= 1'b0;
            inst_reg      <= 1'b0;
            cmp_chunk_reg <= 8'd0;
            acc_valid_reg <= 1'b0;
            acc_base_reg  <= 8'd0;
            found_reg     <= 1'b0;
            found_idx_reg <= 8'd0;
            looked_reg    <= 1'b0;
            probe_reg     <= 1'b0;
            e_rec_reg     <= {REC{1'b0}};
        end
    end

    // ------------------------------------------------------------------ verdict
    localparam integer NQ_I = NUM_QUEUES;
    wire [7:0]  nq         = NQ_I[7:0];
    // the entry's action: drop (DROP, or a queue beyond NUM_QUEUES), its queue, its rule
    wire        t_drop  = t_val[F_FLOW_VAL_DROP] || t_val[F_FLOW_VAL_QUEUE_LSB +: 8] >= nq;
    wire [7:0]  t_queue = t_val[F_FLOW_VAL_QUEUE_LSB +: 8];
    wire [7:0]  t_rule  = t_val[F_FLOW_VAL_RULE_VALID] ? {2'b00, t_val[F_FLOW_VAL_RULE_LSB +: 6]} : 8'hFF;
    // each rule's action, registered from RULE_CTRL (F25): whether it drops (DROP, or a
    // queue beyond NUM_QUEUES) and its queue. One edge late is exact: a RULE_CTRL write
    // seen at edge m restarts every lookup (clr), so no verdict reads a rule before m + 3.
    // 64 entries whatever NUM_RULES (the ones beyond are constants) so that any index works.
    reg [63:0]   rule_drop_reg;
    reg [64*8-1:0] rule_queue_reg;
    // (the next values are continuous assignments and the registers load them whole: an
    // event-driven simulator then evaluates them only when RULE_CTRL changes, not at every edge)
    wire [63:0]     rule_drop_d;
    wire [64*8-1:0] rule_queue_d;
    genvar ri_v;
    generate
        for (ri_v = 0; ri_v < 64; ri_v = ri_v + 1) begin : g_rule_act
            if (ri_v < NUM_RULES) begin : g_rule
                assign rule_drop_d[ri_v] = cfg_rule_ctrl[ri_v*32 + F_RULE_CTRL_DROP]
                    || cfg_rule_ctrl[ri_v*32 + F_RULE_CTRL_QUEUE_LSB +: 8] >= nq;
                assign rule_queue_d[ri_v*8 +: 8] = cfg_rule_ctrl[ri_v*32 + F_RULE_CTRL_QUEUE_LSB +: 8];
            end else begin : g_none
                assign rule_drop_d[ri_v] = 1'b1;
                assign rule_queue_d[ri_v*8 +: 8] = 8'd0;
            end
        end
    endgenerate
    always @(posedge clk) begin
        rule_drop_reg  <= rule_drop_d;
        rule_queue_reg <= rule_queue_d;
    end
    // the cached rule's action, registered as the cache's value is (from l_val_next, F25):
    // it reads the actions one edge earlier than the verdict, exact for the same reason (a
    // RULE_CTRL write seen at that edge restarts the lookup one edge later, no verdict)
    reg         c_drop_reg;
    reg  [7:0]  c_queue_reg;
    always @(posedge clk) begin
        c_rule_reg  <= l_val_next != 8'hFF;
        c_drop_reg  <= rule_drop_reg[l_val_next[5:0]];
        c_queue_reg <= rule_queue_reg[l_val_next[5:0]*8 +: 8];
    end
    // the cached rule's action and the scan's, in parallel; c_hit picks
    wire        hit_drop   = c_hit_d ? c_drop_reg : rule_drop_reg[found_idx_reg[5:0]];
    wire [7:0]  hit_queue  = c_hit_d ? c_queue_reg : rule_queue_reg[found_idx_reg[5:0]*8 +: 8];
    wire [7:0]  def_queue  = cfg_default_action[F_DEFAULT_ACTION_QUEUE_LSB +: 8];
    wire [7:0]  frag_queue = cfg_frag_action[F_FRAG_ACTION_QUEUE_LSB +: 8];

    // a frame that skips the rules, at its take edge
    reg [3:0] s_code;
    reg [7:0] s_queue;
    always @* begin
        s_queue = 8'd0;
        if (h_bad) begin
            s_code = VERDICT_BAD_FRAME;
        end else if (h_oversize) begin
            s_code = VERDICT_OVERSIZE;
        end else if (h_malformed) begin
            s_code = VERDICT_MALFORMED;
        end else if (!cfg_frag_action[F_FRAG_ACTION_ACCEPT]) begin
            // fragments cannot be demultiplexed by port: they skip the rules (F7)
            s_code = VERDICT_FRAGMENT;
        end else if (frag_queue >= nq) begin
            s_code = VERDICT_RULE_DROP;
        end else begin
            s_code  = VERDICT_ACCEPT;
            s_queue = frag_queue;
        end
    end

    // a looked-up frame, at its verdict edge
    reg [3:0] l_code;
    reg [7:0] l_queue;
    always @* begin
        l_queue = 8'd0;
        if (t_hit) begin
            if (t_drop) begin
                l_code = VERDICT_RULE_DROP;
            end else begin
                l_code  = VERDICT_ACCEPT;
                l_queue = t_queue;
            end
        end else if (hit) begin
            if (hit_drop) begin
                l_code = VERDICT_RULE_DROP;
            end else begin
                l_code  = VERDICT_ACCEPT;
                l_queue = hit_queue;
            end
        end else if (cfg_default_action[F_DEFAULT_ACTION_ACCEPT]) begin
            if (def_queue >= nq) begin
                l_code = VERDICT_RULE_DROP;
            end else begin
                l_code  = VERDICT_ACCEPT;
                l_queue = def_queue;
            end
        end else begin
            l_code = VERDICT_UNREGISTERED;
        end
    end

    // ------------------------------------------------------------------ register
    reg        out_valid_reg;
    reg [3:0]  out_code_reg;
    reg [7:0]  out_queue_reg;
    reg [7:0]  out_rule_reg;
    reg [15:0] out_len_reg;
    reg [15:0] out_words_reg;
    reg [31:0] out_ts_reg;
    reg [39:0] out_info_reg;
    reg        hit_reg, miss_reg, t_hit_reg;

    always @(posedge clk) begin
        out_valid_reg <= done_now;
        hit_reg       <= done_lk && looked_reg && c_hit;
        miss_reg      <= done_lk && looked_reg && !c_hit;
        t_hit_reg     <= done_lk && t_hit;
        // a verdict while busy is a lookup's (done_lk), one while free a skip's (take): the
        // data are loaded at every edge, picked by busy_reg, and read only with out_valid_reg
        // (F25: no enable made of the verdict decision on them)
        if (busy_reg) begin
            out_code_reg  <= l_code;
            out_queue_reg <= l_queue;
            out_rule_reg  <= t_hit ? t_rule : (hit ? hit_idx : 8'hFF);
            out_len_reg   <= e_rec_reg[REC_PARSE_LEN_LSB +: REC_PARSE_LEN_W];
            out_words_reg <= e_rec_reg[REC_PARSE_WORDS_LSB +: REC_PARSE_WORDS_W];
            out_ts_reg    <= e_rec_reg[REC_PARSE_TS_LSB +: REC_PARSE_TS_W];
            out_info_reg  <= e_info;
        end else begin
            out_code_reg  <= s_code;
            out_queue_reg <= s_queue;
            out_rule_reg  <= 8'hFF;
            out_len_reg   <= h_len;
            out_words_reg <= h_words;
            out_ts_reg    <= h_ts;
            out_info_reg  <= h_info;
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
            hit_reg       <= 1'b0;
            miss_reg      <= 1'b0;
            t_hit_reg     <= 1'b0;
        end
    end

    assign m_valid = out_valid_reg;
    assign m_code  = out_code_reg;
    assign m_queue = out_queue_reg;
    assign m_rule  = out_rule_reg;
    assign m_len   = out_len_reg;
    // the m_len of the verdict registered at the next edge, if there is one: a lookup's
    // (its frame's, held from its take edge on while the engine is busy), or a frame's that
    // skips the rules and is taken then (the engine is free). Admission and the limiter
    // take a frame's length this early (F25); only a lookup's verdict can name a rule, so
    // the limiter takes lookup_len alone, a flip-flop. The m_words of the same two: the
    // take's is its queued head's (head) or the arriving frame's
    wire [15:0] lookup_len   = e_rec_reg[REC_PARSE_LEN_LSB +: REC_PARSE_LEN_W];
    wire [15:0] lookup_words = e_rec_reg[REC_PARSE_WORDS_LSB +: REC_PARSE_WORDS_W];
    assign m_lookahead[REC_LOOKAHEAD_LOOKUP_LEN_LSB +: REC_LOOKAHEAD_LOOKUP_LEN_W]     = lookup_len;
    assign m_lookahead[REC_LOOKAHEAD_TAKE_LEN_LSB +: REC_LOOKAHEAD_TAKE_LEN_W]         = h_len;
    assign m_lookahead[REC_LOOKAHEAD_LOOKUP_WORDS_LSB +: REC_LOOKAHEAD_LOOKUP_WORDS_W] = lookup_words;
    assign m_lookahead[REC_LOOKAHEAD_HEAD_WORDS_LSB +: REC_LOOKAHEAD_HEAD_WORDS_W]     = lw_head_reg[15:0];
    assign m_lookahead[REC_LOOKAHEAD_IN_WORDS_LSB +: REC_LOOKAHEAD_IN_WORDS_W]         = s_words;
    assign m_lookahead[REC_LOOKAHEAD_HEAD_LSB +: REC_LOOKAHEAD_HEAD_W]                 = q_valid;
    assign m_lookahead[REC_LOOKAHEAD_TAKE_LSB +: REC_LOOKAHEAD_TAKE_W]                 = !busy_reg;   // engine free
    assign m_words = out_words_reg;
    assign m_ts    = out_ts_reg;
    assign m_info  = out_info_reg;
    assign stat_flow_hit  = hit_reg;
    assign stat_flow_miss = miss_reg;
    assign stat_flow_table_hit = t_hit_reg;

endmodule

`resetall
