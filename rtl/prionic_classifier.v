// SPDX-License-Identifier: MIT
//
// prionic_classifier: the classification engine -- rule table (F5), default action (F6),
// fragment action (F7) and flow cache (F8). Presents, per frame and in arrival order, the
// pre-admission verdict: a parser drop (BAD_FRAME, OVERSIZE, MALFORMED in that order),
// FRAGMENT (fragments skip the rules, F7), RULE_DROP, UNREGISTERED, or ACCEPT towards a
// queue (admission may still turn it into another drop). A target queue >= NUM_QUEUES is
// a configuration error and drops as RULE_DROP.
//
// The engine takes one frame at a time. The rule table is compared RULES_PER_CYCLE rules
// per edge, so one table lookup takes S = ceil(NUM_RULES / RULES_PER_CYCLE) edges; with
// RULES_PER_CYCLE = NUM_RULES (the default) every frame is classified at the edge it is
// taken. A flow cache hit (FLOW_ENTRIES > 0, FLOW_CTRL.ENABLE) also classifies at the
// take edge, whatever S. A table write seen during a scan (cfg_table_clr) restarts it and
// clears the cache. Parse results that arrive while the engine is busy wait in a FIFO of
// 2^QUEUE_ADDR_WIDTH entries; status_pending lets the top hold the input before it fills.
// Rules: docs/frame-path.md section 3; edges: docs/timing.md sections 3 and 3.1.
//
// Latency: a parse result sampled at edge P is taken at P when the engine is free, and
// its verdict is registered at the take edge (skip, hit, S = 1) or S - 1 edges later.
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

    generate
        if (S > 1) begin : g_queue
            /* verilator lint_off PINCONNECTEMPTY */
            prionic_fifo #(
                .WIDTH(REC),
                .ADDR_WIDTH(QUEUE_ADDR_WIDTH)
            ) queue_inst (
                .clk(clk),
                .rst(rst),
                .s_data(s_rec),
                .s_valid(s_valid && !(!q_valid && done_now)),
                .s_ready(),
                .m_data(q_rec),
                .m_valid(q_valid),
                .m_ready(done_now),
                .status_count(status_pending)
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end else begin : g_no_queue
            // S = 1: the engine takes every frame at the edge it arrives, nothing waits
            assign q_valid        = 1'b0;
            assign q_rec          = {REC{1'b0}};
            assign status_pending = {(QUEUE_ADDR_WIDTH+1){1'b0}};
        end
    endgenerate

    wire           h_valid = q_valid || s_valid;
    wire [REC-1:0] h_rec   = q_valid ? q_rec : s_rec;
    wire [15:0] h_len, h_words, h_tci, h_dport, h_sport, h_ethertype;
    wire [31:0] h_ts, h_src_ip, h_dst_ip;
    wire [39:0] h_info;
    wire        h_bad, h_oversize, h_malformed, h_is_ipv4, h_is_ipv6, h_ports_valid, h_frag;
    wire [1:0]  h_vlan_tags;
    wire [7:0]  h_proto;
    assign h_dst_ip = h_rec[REC_PARSE_DST_IP_LSB +: REC_PARSE_DST_IP_W];
    assign h_src_ip = h_rec[REC_PARSE_SRC_IP_LSB +: REC_PARSE_SRC_IP_W];
    assign h_frag = h_rec[REC_PARSE_FRAG_LSB +: REC_PARSE_FRAG_W];
    assign h_ethertype = h_rec[REC_PARSE_ETHERTYPE_LSB +: REC_PARSE_ETHERTYPE_W];
    assign h_sport = h_rec[REC_PARSE_SPORT_LSB +: REC_PARSE_SPORT_W];
    assign h_dport = h_rec[REC_PARSE_DPORT_LSB +: REC_PARSE_DPORT_W];
    assign h_ports_valid = h_rec[REC_PARSE_PORTS_VALID_LSB +: REC_PARSE_PORTS_VALID_W];
    assign h_proto = h_rec[REC_PARSE_PROTO_LSB +: REC_PARSE_PROTO_W];
    assign h_tci = h_rec[REC_PARSE_TCI_LSB +: REC_PARSE_TCI_W];
    assign h_vlan_tags = h_rec[REC_PARSE_VLAN_TAGS_LSB +: REC_PARSE_VLAN_TAGS_W];
    assign h_is_ipv6 = h_rec[REC_PARSE_IS_IPV6_LSB +: REC_PARSE_IS_IPV6_W];
    assign h_is_ipv4 = h_rec[REC_PARSE_IS_IPV4_LSB +: REC_PARSE_IS_IPV4_W];
    assign h_malformed = h_rec[REC_PARSE_MALFORMED_LSB +: REC_PARSE_MALFORMED_W];
    assign h_oversize = h_rec[REC_PARSE_OVERSIZE_LSB +: REC_PARSE_OVERSIZE_W];
    assign h_bad = h_rec[REC_PARSE_BAD_LSB +: REC_PARSE_BAD_W];
    assign h_info = h_rec[REC_PARSE_INFO_LSB +: REC_PARSE_INFO_W];
    assign h_ts = h_rec[REC_PARSE_TS_LSB +: REC_PARSE_TS_W];
    assign h_words = h_rec[REC_PARSE_WORDS_LSB +: REC_PARSE_WORDS_W];
    assign h_len = h_rec[REC_PARSE_LEN_LSB +: REC_PARSE_LEN_W];

    // the DEI bit of the TCI is not a rule field; the cache uses 16 bits of now_ts
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_dei = &{1'b0, h_tci[12], now_ts};
    /* verilator lint_on UNUSEDSIGNAL */

    wire h_ip     = h_is_ipv4 || h_is_ipv6;
    wire h_tagged = h_vlan_tags != 2'd0;
    wire h_skip   = h_bad || h_oversize || h_malformed || h_frag;   // no rule lookup
    wire h_syn    = h_info[17];                                     // TCP flags = info[23:16]
    wire h_finrst = h_info[16] || h_info[18];

    // ------------------------------------------------------------------ engine state
    reg       busy_reg;         // a scan is in progress (S > 1 only)
    reg [7:0] chunk_reg;        // next chunk of the scan
    reg       found_reg;        // a rule matched in the chunks so far
    reg [7:0] found_idx_reg;
    reg       looked_reg;       // the scanned frame missed in the cache

    wire take    = !busy_reg && h_valid;
    wire restart = busy_reg && cfg_table_clr;
    wire [7:0] cur_chunk = (busy_reg && !restart) ? chunk_reg : 8'd0;

    // ------------------------------------------------------------------ chunk match (comb)
    reg       c_found;
    reg [7:0] c_idx;
    reg       m;
    integer   k, ri;
    always @* begin
        c_found = 1'b0;
        c_idx   = 8'd0;
        m       = 1'b0;
        for (k = RPC - 1; k >= 0; k = k - 1) begin
            ri = cur_chunk * RPC + k;
            if (ri < NUM_RULES) begin
                m = cfg_rule_ctrl[ri*32 + F_RULE_CTRL_ENABLE]
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_PROTO]
                        || (h_ip && h_proto == cfg_rule_ctrl[ri*32 + F_RULE_CTRL_PROTO_LSB +: 8]))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_VID]
                        || (h_tagged && h_tci[11:0] == cfg_rule_vlan[ri*16 +: 12]))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_PCP]
                        || (h_tagged && h_tci[15:13] == cfg_rule_vlan[ri*16 + F_RULE_VLAN_PCP_LSB +: 3]))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_IPVER]
                        || (cfg_rule_ctrl[ri*32 + F_RULE_CTRL_IPVER] ? h_is_ipv6 : h_is_ipv4))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_DPORT]
                        || (h_ports_valid && h_dport >= cfg_rule_dport[ri*32 + HF_RULE_DPORT_LO_LSB +: HF_RULE_DPORT_LO_W]
                            && h_dport <= cfg_rule_dport[ri*32 + HF_RULE_DPORT_HI_LSB +: HF_RULE_DPORT_HI_W]))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_SPORT]
                        || (h_ports_valid && h_sport >= cfg_rule_sport[ri*32 + HF_RULE_SPORT_LO_LSB +: HF_RULE_SPORT_LO_W]
                            && h_sport <= cfg_rule_sport[ri*32 + HF_RULE_SPORT_HI_LSB +: HF_RULE_SPORT_HI_W]))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_ETHERTYPE]
                        || h_ethertype == cfg_rule_ethertype[ri*16 +: 16])
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_SRC]
                        || (h_is_ipv4 && ((h_src_ip ^ cfg_rule_src_ip[ri*32 +: 32])
                                          & cfg_rule_src_mask[ri*32 +: 32]) == 32'd0))
                    && (!cfg_rule_ctrl[ri*32 + F_RULE_CTRL_MATCH_DST]
                        || (h_is_ipv4 && ((h_dst_ip ^ cfg_rule_dst_ip[ri*32 +: 32])
                                          & cfg_rule_dst_mask[ri*32 +: 32]) == 32'd0));
                if (m) begin
                    c_found = 1'b1;
                    c_idx   = ri[7:0];
                end
            end
        end
    end

    localparam integer S_LAST = S - 1;
    wire last_chunk = cur_chunk == S_LAST[7:0];

    // ------------------------------------------------------------------ flow cache (F8)
    // key: frame-path.md s3.1, bit 0 first; fields that do not apply are zero
    wire [KW-1:0] key;   // the `flow_key` record of docs/regmap.toml
    assign key[REC_FLOW_KEY_IS_IPV4_LSB +: REC_FLOW_KEY_IS_IPV4_W] = h_is_ipv4;
    assign key[REC_FLOW_KEY_IS_IPV6_LSB +: REC_FLOW_KEY_IS_IPV6_W] = h_is_ipv6;
    assign key[REC_FLOW_KEY_PORTS_VALID_LSB +: REC_FLOW_KEY_PORTS_VALID_W] = h_ports_valid;
    assign key[REC_FLOW_KEY_TAGGED_LSB +: REC_FLOW_KEY_TAGGED_W] = h_tagged;
    assign key[REC_FLOW_KEY_PCP_LSB +: REC_FLOW_KEY_PCP_W] = h_tagged ? h_tci[15:13] : 3'd0;
    assign key[REC_FLOW_KEY_VID_LSB +: REC_FLOW_KEY_VID_W] = h_tagged ? h_tci[11:0] : 12'd0;
    assign key[REC_FLOW_KEY_PROTO_LSB +: REC_FLOW_KEY_PROTO_W] = h_ip ? h_proto : 8'd0;
    assign key[REC_FLOW_KEY_ETHERTYPE_LSB +: REC_FLOW_KEY_ETHERTYPE_W] = h_ethertype;
    assign key[REC_FLOW_KEY_DPORT_LSB +: REC_FLOW_KEY_DPORT_W] = h_ports_valid ? h_dport : 16'd0;
    assign key[REC_FLOW_KEY_SPORT_LSB +: REC_FLOW_KEY_SPORT_W] = h_ports_valid ? h_sport : 16'd0;
    assign key[REC_FLOW_KEY_DST_IP_LSB +: REC_FLOW_KEY_DST_IP_W] = h_is_ipv4 ? h_dst_ip : 32'd0;
    assign key[REC_FLOW_KEY_SRC_IP_LSB +: REC_FLOW_KEY_SRC_IP_W] = h_is_ipv4 ? h_src_ip : 32'd0;
    wire       l_hit;
    wire [7:0] l_val;
    wire       lookup, c_hit;
    wire       install;

    // result of this edge: the cached rule on a hit, else the scan's first match
    wire       prev_found = busy_reg && !restart && found_reg;
    wire       hit        = c_hit ? (l_val != 8'hFF) : (prev_found || c_found);
    wire [7:0] hit_idx    = c_hit ? l_val : (prev_found ? found_idx_reg : c_idx);
    wire [7:0] match_rule = hit ? hit_idx : 8'hFF;   // what the cache stores


    generate
        if (FLOW_ENTRIES > 0) begin : g_cache
            assign lookup = take && !h_skip && cfg_flow_enable;
            assign c_hit  = lookup && !cfg_table_clr && !h_syn && l_hit;
            assign install = done_now && !h_skip && cfg_flow_enable && !h_finrst
                             && ((take && lookup && !c_hit) || (busy_reg && looked_reg));
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
                .l_key(key),
                .l_hit(l_hit),
                .l_val(l_val),
                .touch(c_hit && !h_finrst),
                .evict(c_hit && h_finrst),
                .install(install),
                .i_val(match_rule),
                .status_valid()
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end else begin : g_no_cache
            assign lookup  = 1'b0;
            assign c_hit   = 1'b0;
            assign install = 1'b0;
            assign l_hit   = 1'b0;
            assign l_val   = 8'hFF;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_cache = &{1'b0, cfg_flow_enable, cfg_flow_idle, key, looked_reg,
                                  h_syn, h_finrst, l_hit, match_rule, install};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    assign done_now = (take && (h_skip || c_hit || S == 1)) || (busy_reg && !restart && last_chunk);

    always @(posedge clk) begin
        if (S > 1) begin
            if (take && !done_now) begin          // a scan starts: chunk 0 evaluated now
                busy_reg      <= 1'b1;
                chunk_reg     <= 8'd1;
                found_reg     <= c_found;
                found_idx_reg <= c_idx;
                looked_reg    <= lookup;
            end else if (busy_reg && done_now) begin
                busy_reg      <= 1'b0;
            end else if (busy_reg) begin          // next chunk (chunk 0 again after a restart)
                chunk_reg     <= cur_chunk + 8'd1;
                found_reg     <= prev_found || c_found;
                found_idx_reg <= prev_found ? found_idx_reg : c_idx;
            end
        end
        if (rst) begin
            // the scan registers are reset too, so that a one-cycle table (S == 1), which
            // never loads them, has no undriven register (yosys `check`)
            busy_reg      <= 1'b0;
            chunk_reg     <= 8'd0;
            found_reg     <= 1'b0;
            found_idx_reg <= 8'd0;
            looked_reg    <= 1'b0;
        end
    end

    wire [31:0] hit_ctrl   = cfg_rule_ctrl[hit_idx[5:0]*32 +: 32];
    wire [7:0]  hit_queue  = hit_ctrl[F_RULE_CTRL_QUEUE_LSB +: 8];
    wire [7:0]  def_queue  = cfg_default_action[F_DEFAULT_ACTION_QUEUE_LSB +: 8];
    wire [7:0]  frag_queue = cfg_frag_action[F_FRAG_ACTION_QUEUE_LSB +: 8];
    localparam integer NQ_I = NUM_QUEUES;
    wire [7:0]  nq         = NQ_I[7:0];

    reg [3:0] code;
    reg [7:0] queue;
    reg [7:0] rule;
    always @* begin
        queue = 8'd0;
        rule  = 8'hFF;
        if (h_bad) begin
            code = VERDICT_BAD_FRAME;
        end else if (h_oversize) begin
            code = VERDICT_OVERSIZE;
        end else if (h_malformed) begin
            code = VERDICT_MALFORMED;
        end else if (h_frag) begin
            // fragments cannot be demultiplexed by port: they skip the rules (F7)
            if (!cfg_frag_action[F_FRAG_ACTION_ACCEPT]) begin
                code = VERDICT_FRAGMENT;
            end else if (frag_queue >= nq) begin
                code = VERDICT_RULE_DROP;
            end else begin
                code  = VERDICT_ACCEPT;
                queue = frag_queue;
            end
        end else if (hit) begin
            rule = hit_idx;
            if (hit_ctrl[F_RULE_CTRL_DROP] || hit_queue >= nq) begin
                code = VERDICT_RULE_DROP;
            end else begin
                code  = VERDICT_ACCEPT;
                queue = hit_queue;
            end
        end else if (cfg_default_action[F_DEFAULT_ACTION_ACCEPT]) begin
            if (def_queue >= nq) begin
                code = VERDICT_RULE_DROP;
            end else begin
                code  = VERDICT_ACCEPT;
                queue = def_queue;
            end
        end else begin
            code = VERDICT_UNREGISTERED;
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
    reg        hit_reg, miss_reg;

    always @(posedge clk) begin
        out_valid_reg <= done_now;
        hit_reg       <= c_hit;
        miss_reg      <= lookup && !c_hit;
        if (done_now) begin
            out_code_reg  <= code;
            out_queue_reg <= queue;
            out_rule_reg  <= rule;
            out_len_reg   <= h_len;
            out_words_reg <= h_words;
            out_ts_reg    <= h_ts;
            out_info_reg  <= h_info;
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
            hit_reg       <= 1'b0;
            miss_reg      <= 1'b0;
        end
    end

    assign m_valid = out_valid_reg;
    assign m_code  = out_code_reg;
    assign m_queue = out_queue_reg;
    assign m_rule  = out_rule_reg;
    assign m_len   = out_len_reg;
    assign m_words = out_words_reg;
    assign m_ts    = out_ts_reg;
    assign m_info  = out_info_reg;
    assign stat_flow_hit  = hit_reg;
    assign stat_flow_miss = miss_reg;

endmodule

`resetall
