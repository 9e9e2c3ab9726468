// SPDX-License-Identifier: MIT
//
// prionic_admit: queue admission (F12). Turns the classifier's verdict into the final
// per-frame verdict: a frame for queue q is dropped as BUF_OVERFLOW when longer than
// BUF_SIZE[q], as RING_FULL when the ring is disabled (RING_SIZE < 2), being reset, or
// has no free posted descriptor (TAIL == RESV), as QBUF_FULL when its queue's on-chip
// buffer space (reserved here, given back at each completion) cannot take it; otherwise
// it is dropped as RATE_LIMITED when its rule's rate limiter (F9) has no budget left for it
// (the limiter is asked last, and spent only by frames that are delivered); otherwise
// it is given ring slot RESV[q] and RESV[q] advances. A frame for a queue that is disabled
// or stopped by a DMA error is dropped first of all these as QUEUE_DISABLED (F24). Every
// frame, dropped or not, leaves one entry for the DMA (dropped frames are skipped there)
// and one stat_verdict pulse for the counters.
// Never waits: one frame per cycle. Rules: docs/timing.md section 3. Contracts: RING_SIZE
// changes only at a reset or with cfg_ring_rst for the edge that first sees the new value
// (the register block pulses it with every RING_SIZE write); no frame (s_valid) at the
// first edge after a reset edge (prionic_rx keeps it: the classifier's output valid is
// reset; a simulation check stops on a frame there).
//
// Latency: classifier result at edge K -> verdict, slot and DMA entry at K+1.
//
// RING_TAIL and BUF_SIZE one edge ahead (timing: F25, docs/timing.md s3): admission at
// edge a uses cfg_ring_tail and cfg_buf_size as sampled at a-1 (a register written at w is
// seen from w+2), and the classifier's look-ahead p_lookahead (the `lookahead` record of
// docs/regmap.toml), sampled at a-1, gives the length of the frame admitted at a,
// take ? take_len : lookup_len (two lengths, so that each is compared before the pick), and
// its word count, take ? (head ? head_words : in_words) : lookup_words (three, each compared
// before the pick: no mux in front of the carry chains). The compares of the tail with the
// reservation pointer, of the length with BUF_SIZE and of the word count with the free
// on-chip buffer words are then registered flags, and the take only ANDs flags.
//
// The limiter's pass (F9) is the last input of the take. A taken frame's reservation (its
// words, one frame, its ring slot) is therefore written into the queue's state at the edge
// after its verdict, from flip-flops: per queue the take and the advance without the pass
// (cand_q, advc_q), the pass (pass_q), and the frame's words; the flags for the frame at
// the next edge are registered twice, as if this edge takes a frame for the queue and as
// if not, and those flip-flops pick. The verdicts, slots and status_busy are those of a
// state written at the take's own edge (the block test checks them against its reference
// at every edge, frames back to back included; F25).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_admit #(
    parameter NUM_QUEUES = 2,                            // receive queues (1..16)
    parameter QBUF_WORDS = 1024,                         // on-chip buffer words per queue
    parameter QBUF_FRAMES = 32,                          // frames per queue buffer
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1   // queue index width
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [NUM_QUEUES*16-1:0] cfg_ring_size,
    input  wire [NUM_QUEUES*16-1:0] cfg_ring_tail,
    input  wire [NUM_QUEUES*16-1:0] cfg_buf_size,
    input  wire [NUM_QUEUES-1:0]    cfg_ring_rst,     // one-cycle pulse: ring reprogrammed
    input  wire [NUM_QUEUES-1:0]    cfg_queue_off,    // disabled (QUEUE_CTRL.ENABLE 0) or stopped (F24)
    output wire [NUM_QUEUES-1:0]    status_busy,      // frames admitted and not yet completed or dropped

    // completions give their on-chip reservation back (pulse the cycle after the B);
    // s_cpl_q_valid is one-hot (at most one queue per cycle), and s_cpl_q_words per queue the
    // completion's words where s_cpl_q_valid is set, else 0, both registered by the DMA (F25)
    input  wire [NUM_QUEUES-1:0]    s_cpl_q_valid,
    input  wire [NUM_QUEUES*16-1:0] s_cpl_q_words,

    // classifier result, and the length and word count of the next one (sampled the edge
    // before it): the `lookahead` record of docs/regmap.toml (REC_LOOKAHEAD_* slice it)
`include "prionic_records.vh"
    input  wire [`PRIONIC_REC_LOOKAHEAD_W-1:0] p_lookahead,
    input  wire                     s_valid,
    input  wire [3:0]               s_code,
    input  wire [7:0]               s_queue,
    input  wire [7:0]               s_rule,
    input  wire [15:0]              s_len,
    input  wire [15:0]              s_words,
    input  wire [31:0]              s_ts,
    input  wire [39:0]              s_info,        // completion info, passed through (F4)

    // the rule's rate limiter (F9): asked for every frame that would be delivered
    output wire                     lim_q_valid,
    output wire [7:0]               lim_q_id,      // the rule id (0xFF: none, passes)
    output wire [15:0]              lim_q_cost,    // frame length
    output wire                     lim_q_consume, // every check but the limiter's passed
    input  wire                     lim_q_pass,

    // entry for the DMA: the `meta` record of docs/regmap.toml, one bus (REC_META_* slice it)
    output wire                     m_valid,
    output wire [`PRIONIC_REC_META_W-1:0] m_meta,

    // final verdict, one pulse per frame (counters, observability)
    output wire                     stat_verdict_valid,
    output wire [3:0]               stat_verdict_code,
    output wire [7:0]               stat_verdict_queue,
    output wire [7:0]               stat_verdict_rule,
    output wire [15:0]              stat_verdict_len
);

`include "prionic_regs.vh"

    localparam integer QBUF_WORDS_I = QBUF_WORDS;
    localparam integer QBUF_FRAMES_I = QBUF_FRAMES;
    localparam [16:0] QB_WORDS  = QBUF_WORDS_I[16:0];
    localparam [7:0]  QB_FRAMES = QBUF_FRAMES_I[7:0];

    // the next frame's words (less a give, dw_*, two's complement) > free words `base`:
    // the three word counts each compared before the pick (take ? (head ? hd : in) : lk)
    function words_gt(input [16:0] base, input [17:0] hd, input [17:0] in, input [17:0] lk,
                      input take, input head);
        begin
            words_gt = take ? (head ? $signed({1'b0, base}) < $signed(hd)
                                    : $signed({1'b0, base}) < $signed(in))
                            : $signed({1'b0, base}) < $signed(lk);
        end
    endfunction

    // the next verdict, from p_lookahead: its length is take ? take_len : lookup_len, its word
    // count take ? (head ? head_words : in_words) : lookup_words (take: the classifier's engine
    // is free, the frame skips the rules; head: the take's frame is its queued head, else the
    // arriving one; lookup: the frame the rule table is looking up)
    wire [15:0] next_lookup_len   = p_lookahead[REC_LOOKAHEAD_LOOKUP_LEN_LSB +: REC_LOOKAHEAD_LOOKUP_LEN_W];
    wire [15:0] next_take_len     = p_lookahead[REC_LOOKAHEAD_TAKE_LEN_LSB +: REC_LOOKAHEAD_TAKE_LEN_W];
    wire [15:0] next_lookup_words = p_lookahead[REC_LOOKAHEAD_LOOKUP_WORDS_LSB +: REC_LOOKAHEAD_LOOKUP_WORDS_W];
    wire [15:0] next_head_words   = p_lookahead[REC_LOOKAHEAD_HEAD_WORDS_LSB +: REC_LOOKAHEAD_HEAD_WORDS_W];
    wire [15:0] next_in_words     = p_lookahead[REC_LOOKAHEAD_IN_WORDS_LSB +: REC_LOOKAHEAD_IN_WORDS_W];
    wire        next_head         = p_lookahead[REC_LOOKAHEAD_HEAD_LSB +: REC_LOOKAHEAD_HEAD_W];
    wire        next_take         = p_lookahead[REC_LOOKAHEAD_TAKE_LSB +: REC_LOOKAHEAD_TAKE_W];

    // Timing (F25): every queue compares the frame with its own state (ring room, buffer
    // room, frames) beside the others, so the queue's own reservation and buffer update
    // need no select by s_queue; the verdict code picks the asked queue's results. Each
    // queue keeps its next ring slot beside its current one.
    wire [QW-1:0] q = s_queue[QW-1:0];
    wire [15:0]   words_n = next_take ? (next_head ? next_head_words : next_in_words)
                                      : next_lookup_words;   // the next frame's words
    wire [NUM_QUEUES-1:0] q_ring_full;   // ring reset, disabled or no free descriptor
    wire [NUM_QUEUES-1:0] q_qbuf_full;   // on-chip buffer cannot take the frame
    wire [NUM_QUEUES*16-1:0] q_resv;     // RESV per queue
    wire [15:0]   resv   = q_resv[q*16 +: 16];

    // Timing (F25): the limiter's verdict comes last (and late: it compares the cost with
    // the budget in the same cycle), so everything is decided without it first and
    // lim_q_pass only picks at the end: the code, and each queue's take. Each queue decides
    // the verdict as if the frame were its own (its off, BUF_SIZE, ring and buffer checks
    // beside the others); the frame's queue index picks.
    wire [NUM_QUEUES*4-1:0] q_code_nl;   // per queue: the verdict if the limiter passes
    wire [NUM_QUEUES*4-1:0] q_code_rl;   // ... and if it does not
    wire [NUM_QUEUES-1:0]   q_ok_nl;     // per queue: delivered if the limiter passes
    wire [NUM_QUEUES-1:0] q_len_gt;      // s_len > BUF_SIZE (registered, see g_used)
    genvar gc;
    generate
        for (gc = 0; gc < NUM_QUEUES; gc = gc + 1) begin : g_code
            reg  [3:0]  code_g;
            always @* begin
                code_g = s_code;
                if (s_code == VERDICT_ACCEPT) begin
                    if (cfg_queue_off[gc]) begin
                        code_g = VERDICT_QUEUE_DISABLED;
                    end else if (q_len_gt[gc]) begin
                        code_g = VERDICT_BUF_OVERFLOW;
                    end else if (q_ring_full[gc]) begin
                        code_g = VERDICT_RING_FULL;
                    end else if (q_qbuf_full[gc]) begin   // reserved + words > QBUF_WORDS, or frames
                        code_g = VERDICT_QBUF_FULL;
                    end
                end
            end
            // the frame would be delivered if the limiter passes
            assign q_ok_nl[gc] = s_code == VERDICT_ACCEPT && !cfg_queue_off[gc] && !q_len_gt[gc]
                              && !q_ring_full[gc] && !q_qbuf_full[gc];
            assign q_code_nl[gc*4 +: 4] = code_g;
            assign q_code_rl[gc*4 +: 4] = q_ok_nl[gc] ? VERDICT_RATE_LIMITED : code_g;
        end
    endgenerate

    // the limiter is asked to spend with this (it spends only when it passes, docs/limiter.md)
    wire ok_nl  = s_valid && q_ok_nl[q];
    wire [3:0] code = lim_q_pass ? q_code_nl[q*4 +: 4] : q_code_rl[q*4 +: 4];

    reg        out_valid_reg;
    reg [3:0]  out_code_reg;
    reg [7:0]  out_queue_reg;
    reg [7:0]  out_rule_reg;
    reg [15:0] out_len_reg;
    reg [15:0] out_words_reg;
    reg [15:0] out_slot_reg;
    reg [31:0] out_ts_reg;
    reg [39:0] out_info_reg;

    // a copy of s_words beside the queues' compares: the next frame's words as sampled at
    // the last edge, which is s_words whenever s_valid (the header)
    reg [15:0] wn_reg;
    always @(posedge clk) begin
        wn_reg  <= words_n;
    end
`ifndef SYNTHESIS
    // the words of the frame of the last edge (reserved at this edge if taken), for the
    // checks of g_used's fw_reg
    reg [15:0] words_q;
    reg        rst_q;   // the last edge was a reset edge
    always @(posedge clk) begin
        words_q <= s_words;
        rst_q   <= rst;
        if (!rst && s_valid && wn_reg != s_words) begin
            $fatal(1, "%m: wn_reg (the word count sampled at the last edge) differs from s_words");
        end
        if (!rst && rst_q && s_valid) begin
            $fatal(1, "%m: a frame at the first edge after reset (the block's contract: none there)");
        end
    end
`endif

    always @(posedge clk) begin
        out_valid_reg <= s_valid;
        if (s_valid) begin
            out_code_reg  <= code;
            out_queue_reg <= s_queue;
            out_rule_reg  <= s_rule;
            out_len_reg   <= s_len;
            out_words_reg <= s_words;
            out_slot_reg  <= resv;
            out_ts_reg    <= s_ts;
            out_info_reg  <= s_info;
        end
        if (rst) begin
            out_valid_reg <= 1'b0;
        end
    end

    // per queue: ring slot, and the on-chip reservation (reserve at admission, give back
    // at the completion pulse: either, both or none)
    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_used
            localparam [7:0] QI = g;
            wire [15:0] tail = cfg_ring_tail[g*16 +: 16];
            // RING_SIZE and RING_SIZE < 2 as flip-flops one edge behind the register (timing,
            // F25: the register block is far away). Exact: RING_SIZE changes only at a write's
            // edge w, which also raises cfg_ring_rst for edge w+1 (the ring is full at w+1
            // and RESV restarts, whatever the size), or at a reset edge, after which small_reg
            // says small (RING_SIZE resets to 0) and no frame is admitted to read size_reg
            reg  [15:0] size_reg;
            reg         small_reg;
            always @(posedge clk) begin
                size_reg  <= cfg_ring_size[g*16 +: 16];
                small_reg <= rst || cfg_ring_size[g*16 +: 16] < 16'd2;
            end
            localparam [QW-1:0] QL = g;
            wire mine = s_queue == QI;
            // this queue takes the frame: the accept conditions with its own checks
            wire ok_g = s_valid && q_ok_nl[g];
            // the limiter's pass picks last (F25): cand is the take if it passes
            wire cand = ok_g && mine;
            wire take = cand && lim_q_pass;   // this queue reserves the frame (the ring slot
                                              // follows the queue index as read: adv_q)
            wire give = s_cpl_q_valid[g];

            // a frame taken at edge e is reserved at e+1 (the header): the state below lags
            // by that pending frame, and each check of the next frame is registered without
            // and with a take at e, for take_q / adv_q to pick. take_q and adv_q are the take
            // and the advance of the last edge, each registered without the limiter's pass
            // and ANDed with pass_q after the flip-flops (timing, F25: the pass is a select
            // in the limiter, the candidates are this queue's checks; neither waits for the
            // other). pass_q is the pass while the frame's queue index is this queue's, which
            // both candidates require: a flip-flop of this queue's own, near its state
            reg         cand_q, advc_q, pass_q;
            always @(posedge clk) begin
                cand_q <= cand && !rst;
                advc_q <= ok_g && q == QL && !rst;
                pass_q <= lim_q_pass && q == QL;
            end
            wire        take_q = cand_q && pass_q;
            wire        adv_q  = advc_q && pass_q;

            // ring: RESV with its next two slots (0 after the last), as of the pending advance
            reg  [15:0] resv_reg;     // RESV without the pending advance
            reg  [15:0] nx1_reg;      // the slot after resv_reg
            reg  [15:0] nx2_reg;      // the slot after nx1_reg
            wire [16:0] nx2_p1  = {1'b0, nx2_reg} + 17'd1;
            wire [15:0] nx3     = nx2_p1 >= {1'b0, size_reg} ? 16'd0 : nx2_p1[15:0];
            wire [15:0] rsz     = cfg_ring_size[g*16 +: 16];   // the size at a ring reset (new)
            // TAIL as seen at the next edge against RESV after this edge, without and with an
            // advance at this edge (the frame at the next edge picks by adv_q)
            reg         tail_eq_n_reg, tail_eq_t_reg;
            wire        eq_zero = tail == 16'd0;
            wire        eq_0    = tail == resv_reg;
            wire        eq_1    = tail == nx1_reg;
            wire        eq_2    = tail == nx2_reg;
            always @(posedge clk) begin
                if (cfg_ring_rst[g] || rst) begin
                    tail_eq_n_reg <= eq_zero;
                    tail_eq_t_reg <= eq_zero;
                end else begin
                    tail_eq_n_reg <= adv_q ? eq_1 : eq_0;
                    tail_eq_t_reg <= adv_q ? eq_2 : eq_1;
                end
                if (adv_q) begin
                    resv_reg <= nx1_reg;
                    nx1_reg  <= nx2_reg;
                    nx2_reg  <= nx3;
                end
                if (cfg_ring_rst[g] || rst) begin
                    resv_reg <= 16'd0;
                    nx1_reg  <= rsz >= 16'd2 ? 16'd1 : 16'd0;
                    nx2_reg  <= rsz >= 16'd3 ? 16'd2 : 16'd0;
                end
            end
            assign q_ring_full[g] = cfg_ring_rst[g] || small_reg || (adv_q ? tail_eq_t_reg : tail_eq_n_reg);
            assign q_resv[g*16 +: 16] = adv_q ? nx1_reg : resv_reg;

            // on-chip buffer: the words still free (QBUF_WORDS - reserved) and the frames
            // held, without the pending reservation; fw_reg is free_reg less the pending
            // frame's words (read only with take_q, when that frame was taken and so fit)
            reg  [16:0] free_reg;
            reg  [16:0] fw_reg;
            reg  [7:0]  frames_reg;
            reg         busy_reg;       // STATUS busy: frames admitted, not completed (a register, F25)
            // the next frame's words > the free words; no reset value (F25: no reset mux in
            // front of them): made at the reset edge from the state before it, they are
            // right from the second edge after reset on, and no frame comes at the first
            // (the contract in the header, checked below)
            reg         gt_n_reg, gt_t_reg;
            reg         full_n_reg, full_t_reg;   // the frames fill the buffer
            wire [16:0] base    = take_q ? fw_reg : free_reg;   // free with the pending frame
            wire [7:0]  frames_n = frames_reg + {7'd0, take_q} - {7'd0, give};
            // the free words after this edge less this edge's frame (read only when the frame is
            // taken, so it fit and this is not below 0), for each case of take_q
            wire [16:0] bt_n    = free_reg - {1'b0, wn_reg};
            wire [16:0] bt_t    = fw_reg - {1'b0, wn_reg};
            wire [16:0] bt      = take_q ? bt_t : bt_n;
            wire [15:0] give_words = s_cpl_q_words[g*16 +: 16];   // the words this edge gives back (0 if none)
            // the next frame's words against the free words after this edge, without and with
            // a take at this edge (F25): the give's words are taken off the classifier's three
            // word counts (dw_*, two's complement) instead of added to the free words, and each
            // flag is made for both cases of take_q from this queue's own flip-flops (the free
            // words, or a subtracter of them), so that it is one compare behind a word count;
            // take_q, next_head and next_take pick last (the three word counts: the take's from
            // the classifier's queued head or the arriving frame, and the lookup's)
            wire [17:0] dw_hd   = {2'b0, next_head_words} - {2'b0, give_words};
            wire [17:0] dw_in   = {2'b0, next_in_words} - {2'b0, give_words};
            wire [17:0] dw_lk   = {2'b0, next_lookup_words} - {2'b0, give_words};
            // per free-word base (free_reg, fw_reg, bt_n, bt_t): its three flags picked
            wire gt_nn = words_gt(free_reg, dw_hd, dw_in, dw_lk, next_take, next_head);
            wire gt_nt = words_gt(fw_reg, dw_hd, dw_in, dw_lk, next_take, next_head);
            wire gt_tn = words_gt(bt_n, dw_hd, dw_in, dw_lk, next_take, next_head);
            wire gt_tt = words_gt(bt_t, dw_hd, dw_in, dw_lk, next_take, next_head);
            always @(posedge clk) begin
                free_reg   <= base + {1'b0, give_words};   // after this edge (<= QBUF_WORDS)
                fw_reg     <= bt + {1'b0, give_words};
                frames_reg <= frames_n;
                gt_n_reg   <= take_q ? gt_nt : gt_nn;
                gt_t_reg   <= take_q ? gt_tt : gt_tn;
                full_n_reg <= {1'b0, frames_n} >= {1'b0, QB_FRAMES};
                full_t_reg <= {1'b0, frames_n} + 9'd1 >= {1'b0, QB_FRAMES};
                // frames after this edge with the take of this edge
                busy_reg   <= take || frames_n != 8'd0;
                if (rst) begin
                    free_reg   <= QB_WORDS;
                    frames_reg <= 8'd0;
                    full_n_reg <= QB_FRAMES == 8'd0;
                    full_t_reg <= QB_FRAMES == 8'd0;
                    busy_reg   <= 1'b0;
                end
            end
            assign q_qbuf_full[g] = take_q ? gt_t_reg || full_t_reg : gt_n_reg || full_n_reg;
`ifndef SYNTHESIS
            // fw_reg is a timing device, not a second truth: when read it is free_reg less the
            // pending frame's words; and a frame taken here fit, so bt does not wrap
            always @(posedge clk) begin
                if (!rst && take && {1'b0, base} < {2'b0, wn_reg}) begin
                    $fatal(1, "%m: a frame taken with fewer free words than its own");
                end
                if (!rst && take_q && {1'b0, fw_reg} != {1'b0, free_reg} - {1'b0, words_q}) begin
                    $fatal(1, "%m: fw_reg differs from free_reg - words_q");
                end
            end
`endif

            // BUF_SIZE as seen at the next edge against the next frame's length (F25)
            reg         len_gt_reg;    // s_len > BUF_SIZE
            always @(posedge clk) begin
                len_gt_reg  <= next_take ? cfg_buf_size[g*16 +: 16] < next_take_len
                                         : cfg_buf_size[g*16 +: 16] < next_lookup_len;
            end
            assign q_len_gt[g]    = len_gt_reg;
            assign status_busy[g]     = busy_reg;
        end
    endgenerate

    wire accept_q = out_code_reg == VERDICT_ACCEPT || out_code_reg == VERDICT_BUF_OVERFLOW
                 || out_code_reg == VERDICT_RING_FULL || out_code_reg == VERDICT_QBUF_FULL
                 || out_code_reg == VERDICT_RATE_LIMITED || out_code_reg == VERDICT_QUEUE_DISABLED;

    // the limiter is asked with every valid frame; it is told to spend when every other
    // check passed (the verdict is ACCEPT or RATE_LIMITED) and spends only if it passes,
    // i.e. exactly when the verdict is ACCEPT
    assign lim_q_valid   = s_valid;
    assign lim_q_id      = s_rule;
    assign lim_q_cost    = s_len;
    assign lim_q_consume = ok_nl;

    assign m_valid = out_valid_reg;
    assign m_meta[REC_META_DROP_LSB +: REC_META_DROP_W]   = out_code_reg != VERDICT_ACCEPT;
    assign m_meta[REC_META_QUEUE_LSB +: REC_META_QUEUE_W] = out_queue_reg;
    assign m_meta[REC_META_RULE_LSB +: REC_META_RULE_W]   = out_rule_reg;
    assign m_meta[REC_META_LEN_LSB +: REC_META_LEN_W]     = out_len_reg;
    assign m_meta[REC_META_WORDS_LSB +: REC_META_WORDS_W] = out_words_reg;
    assign m_meta[REC_META_SLOT_LSB +: REC_META_SLOT_W]   = out_slot_reg;
    assign m_meta[REC_META_TS_LSB +: REC_META_TS_W]       = out_ts_reg;
    assign m_meta[REC_META_INFO_LSB +: REC_META_INFO_W]   = out_info_reg;

    assign stat_verdict_valid = out_valid_reg;
    assign stat_verdict_code  = out_code_reg;
    assign stat_verdict_queue = accept_q ? out_queue_reg : 8'd0;
    assign stat_verdict_rule  = out_rule_reg;
    assign stat_verdict_len   = out_len_reg;

endmodule

`resetall
