// SPDX-License-Identifier: MIT
//
// prionic_classifier: the rule table (F5) and default action (F6). Takes the parser's
// result and, one cycle later, presents the pre-admission verdict: a parser drop
// (BAD_FRAME, OVERSIZE, MALFORMED in that order), FRAGMENT (IPv4 fragments skip the
// rules, F7), RULE_DROP, UNREGISTERED, or ACCEPT
// towards a queue (admission may still turn it into BUF_OVERFLOW or RING_FULL). All
// NUM_RULES rules are compared in parallel; the lowest enabled matching index wins.
// A target queue >= NUM_QUEUES is a configuration error and drops as RULE_DROP.
// Rules: docs/frame-path.md section 3, docs/timing.md section 3.
//
// Latency: parser result at edge P -> m_valid and verdict registered at P+1.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_classifier #(
    parameter NUM_RULES  = 4,   // rules in the table (1..64)
    parameter NUM_QUEUES = 2    // receive queues (1..16)
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

    initial begin
        if (NUM_RULES < 1 || NUM_RULES > 64) begin
            $error("Error: NUM_RULES must be 1..64 (instance %m)");
            $finish;
        end
        if (NUM_QUEUES < 1 || NUM_QUEUES > 16) begin
            $error("Error: NUM_QUEUES must be 1..16 (instance %m)");
            $finish;
        end
    end

    // the DEI bit of the TCI is not a rule field
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_dei = s_tci[12];
    /* verilator lint_on UNUSEDSIGNAL */

    // ------------------------------------------------------------------ match (comb)
    reg [NUM_RULES-1:0] match;
    integer i;
    always @* begin
        for (i = 0; i < NUM_RULES; i = i + 1) begin
            match[i] = cfg_rule_ctrl[i*32 + F_RULE_CTRL_ENABLE]
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_PROTO]
                    || ((s_is_ipv4 || s_is_ipv6) && s_proto == cfg_rule_ctrl[i*32 + F_RULE_CTRL_PROTO_LSB +: 8]))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_VID]
                    || (s_vlan_tags != 2'd0 && s_tci[11:0] == cfg_rule_vlan[i*16 +: 12]))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_PCP]
                    || (s_vlan_tags != 2'd0 && s_tci[15:13] == cfg_rule_vlan[i*16 + F_RULE_VLAN_PCP_LSB +: 3]))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_IPVER]
                    || (cfg_rule_ctrl[i*32 + F_RULE_CTRL_IPVER] ? s_is_ipv6 : s_is_ipv4))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_DPORT]
                    || (s_ports_valid && s_dport >= cfg_rule_dport[i*32 +: 16]
                        && s_dport <= cfg_rule_dport[i*32 + 16 +: 16]))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_SPORT]
                    || (s_ports_valid && s_sport >= cfg_rule_sport[i*32 +: 16]
                        && s_sport <= cfg_rule_sport[i*32 + 16 +: 16]))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_ETHERTYPE]
                    || s_ethertype == cfg_rule_ethertype[i*16 +: 16])
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_SRC]
                    || (s_is_ipv4 && ((s_src_ip ^ cfg_rule_src_ip[i*32 +: 32])
                                      & cfg_rule_src_mask[i*32 +: 32]) == 32'd0))
                && (!cfg_rule_ctrl[i*32 + F_RULE_CTRL_MATCH_DST]
                    || (s_is_ipv4 && ((s_dst_ip ^ cfg_rule_dst_ip[i*32 +: 32])
                                      & cfg_rule_dst_mask[i*32 +: 32]) == 32'd0));
        end
    end

    reg       hit;
    reg [7:0] hit_idx;
    always @* begin
        hit = 1'b0;
        hit_idx = 8'd0;
        for (i = NUM_RULES - 1; i >= 0; i = i - 1) begin
            if (match[i]) begin
                hit = 1'b1;
                hit_idx = i[7:0];
            end
        end
    end

    wire [31:0] hit_ctrl  = cfg_rule_ctrl[hit_idx[5:0]*32 +: 32];
    wire [7:0]  hit_queue = hit_ctrl[F_RULE_CTRL_QUEUE_LSB +: 8];
    wire [7:0]  def_queue = cfg_default_action[F_DEFAULT_ACTION_QUEUE_LSB +: 8];
    wire [7:0]  frag_queue = cfg_frag_action[F_FRAG_ACTION_QUEUE_LSB +: 8];
    localparam integer NQ_I = NUM_QUEUES;
    wire [7:0]  nq        = NQ_I[7:0];

    reg [3:0] code;
    reg [7:0] queue;
    reg [7:0] rule;
    always @* begin
        queue = 8'd0;
        rule  = 8'hFF;
        if (s_bad) begin
            code = VERDICT_BAD_FRAME;
        end else if (s_oversize) begin
            code = VERDICT_OVERSIZE;
        end else if (s_malformed) begin
            code = VERDICT_MALFORMED;
        end else if (s_frag) begin
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

    always @(posedge clk) begin
        out_valid_reg <= s_valid;
        if (s_valid) begin
            out_code_reg  <= code;
            out_queue_reg <= queue;
            out_rule_reg  <= rule;
            out_len_reg   <= s_len;
            out_words_reg <= s_words;
            out_ts_reg    <= s_ts;
            out_info_reg  <= s_info;
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
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

endmodule

`resetall
