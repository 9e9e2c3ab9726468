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
// or stopped by a DMA error is dropped first of all these as QUEUE_DISABLED (F24). Every frame, dropped or not, leaves one entry for the DMA
// (dropped frames are skipped there) and one stat_verdict pulse for the counters.
// Never waits: one frame per cycle. Rules: docs/timing.md section 3.
//
// Latency: classifier result at edge K -> verdict, slot and DMA entry at K+1.
//
// RING_TAIL and BUF_SIZE one edge ahead (timing: F25, docs/timing.md s3): admission at
// edge a uses cfg_ring_tail and cfg_buf_size as sampled at a-1 (a register written at w is
// seen from w+2), and p_take ? p_len_take : p_len_lk, sampled at a-1, is the length of the
// frame admitted at a (two lengths, so that each is compared before the pick), and
// p_take ? p_words_take : p_words_lk its word count. The compares of the tail with the
// reservation pointer, of the length with BUF_SIZE and of the word count with the free
// on-chip buffer words are then registered flags, and the take only ANDs flags.
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
    // s_cpl_hot is one-hot (at most one queue per cycle), registered by the DMA (F25)
    input  wire [NUM_QUEUES-1:0]    s_cpl_hot,
    input  wire [15:0]              s_cpl_words,

    // classifier result, and the length of the next one (sampled the edge before it):
    // p_take ? p_len_take : p_len_lk (the classifier's take or its lookup)
    input  wire [15:0]              p_len_lk,
    input  wire [15:0]              p_len_take,
    input  wire [15:0]              p_words_lk,    // ... and its word count, the same way
    input  wire [15:0]              p_words_take,
    input  wire                     p_take,
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
`include "prionic_records.vh"
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

    // Timing (F25): every queue compares the frame with its own state (ring room, buffer
    // room, frames) beside the others, so the queue's own reservation and buffer update
    // need no select by s_queue; the verdict code picks the asked queue's results. Each
    // queue keeps its next ring slot beside its current one.
    wire [QW-1:0] q = s_queue[QW-1:0];
    wire [15:0]   words_n = p_take ? p_words_take : p_words_lk;   // the next frame's words
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
            wire [15:0] size = size_reg;
            reg  [15:0] resv_reg;     // RESV: the next slot to give
            reg  [16:0] resv_p1_reg;  // resv_reg + 1
            // kept as the words still free (QBUF_WORDS - reserved): the admission check is
            // then one compare, and the give-back is added before the take is known (timing)
            reg [16:0] free_reg;
            reg [7:0]  frames_reg;
            reg        frames_full_reg;   // frames_reg >= QBUF_FRAMES
            reg        busy_reg;          // frames_reg != 0 (STATUS busy: a register, timing F25)
            localparam [QW-1:0] QL = g;
            wire mine = s_queue == QI;
            // this frame's words against free_reg, registered at the edge before (below)
            reg         words_gt_reg;   // s_words > free_reg
            assign q_qbuf_full[g] = words_gt_reg || frames_full_reg;
            // this queue takes the frame: the accept conditions with its own checks
            wire ok_g = s_valid && q_ok_nl[g];
            // the limiter's pass picks last (F25): cand is the take if it passes
            wire cand = ok_g && mine;
            // (kept as nets: the limiter's late pass meets one LUT here, whose output then
            // picks each next value, F25; left to itself the mapper folds it into deeper
            // trees, three levels and long hops on every seed)
            (* keep *) wire take = cand && lim_q_pass;   // this queue reserves the frame
            (* keep *) wire adv  = ok_g && q == QL && lim_q_pass;   // the ring slot follows the queue index as read
            wire give = s_cpl_hot[g];
            // the free words after this edge for each pick of take and give, sums of
            // flip-flops that take and give only pick (free_t, free_tg do not wrap when
            // take: s_words <= free_reg)
            wire [16:0] free_g     = free_reg + {1'b0, s_cpl_words};
            wire [16:0] free_t     = free_reg - {1'b0, s_words};
            wire [16:0] free_tg    = free_g - {1'b0, s_words};
            wire [16:0] free_given = give ? free_g : free_reg;
            wire [16:0] free_take  = give ? free_tg : free_t;
            // frames after this edge, and whether they fill the buffer, for each of take
            // and give, from frames_reg alone; take and give only pick
            wire [7:0]  frames_up = frames_reg + 8'd1;
            wire [7:0]  frames_dn = frames_reg - 8'd1;
            wire [7:0]  frames_take = give ? frames_reg : frames_up;
            wire [7:0]  frames_keep = give ? frames_dn : frames_reg;
            wire        full_take   = give ? frames_reg >= QB_FRAMES : frames_up >= QB_FRAMES;
            wire        full_keep   = give ? frames_dn >= QB_FRAMES : frames_reg >= QB_FRAMES;
            // the next frame's words against the free words after this edge: one compare
            // per pick of take and give, none behind more than two carry chains (timing,
            // F25: the next frame's words, the late take and the give only meet the
            // compares' results). words_n > free_tg as words_n + s_words > free_g, and
            // words_n > free_t as words_n + s_words > free_reg (no wrap in 18 bits)
            wire [17:0] words_t = {2'b0, words_n} + {2'b0, s_words};
            wire        gt_keep = give ? {1'b0, words_n} > free_g : {1'b0, words_n} > free_reg;
            wire        gt_take = give ? words_t > {1'b0, free_g} : words_t > {1'b0, free_reg};
            // the slot after resv: resv + 1, or 0 at the end of the ring
            wire        wrap = resv_p1_reg >= {1'b0, size};
            // RING_TAIL and BUF_SIZE as seen at the next edge are this edge's inputs: compare
            // them now, with the RESV and the length of the next edge (timing: F25). RESV
            // after this edge: 0 on a ring reset, the next slot on an advance, else kept
            reg         tail_eq_reg;   // TAIL == RESV
            reg         len_gt_reg;    // s_len > BUF_SIZE
            wire        eq_now    = tail == resv_reg;
            wire        eq_zero   = tail == 16'd0;
            wire        eq_p1     = tail == resv_p1_reg[15:0];
            wire        eq_next   = wrap ? eq_zero : eq_p1;   // the wrap picks after the compares
            always @(posedge clk) begin
                tail_eq_reg <= (cfg_ring_rst[g] || rst) ? eq_zero : adv ? eq_next : eq_now;
                len_gt_reg  <= p_take ? p_len_take > cfg_buf_size[g*16 +: 16]
                                      : p_len_lk > cfg_buf_size[g*16 +: 16];
            end
            assign q_len_gt[g]    = len_gt_reg;
            assign q_ring_full[g] = cfg_ring_rst[g] || small_reg || tail_eq_reg;
            always @(posedge clk) begin
                if (adv) begin
                    resv_reg    <= wrap ? 16'd0 : resv_p1_reg[15:0];
                    resv_p1_reg <= wrap ? 17'd1 : resv_p1_reg + 17'd1;
                end
                free_reg        <= take ? free_take : free_given;
                frames_reg      <= take ? frames_take : frames_keep;
                frames_full_reg <= take ? full_take : full_keep;
                words_gt_reg    <= take ? gt_take : gt_keep;   // words_n > free_reg after the edge
                // frames_reg != 0 after this edge, from frames_reg alone; take and give pick
                busy_reg        <= take ? (give ? busy_reg : frames_reg != 8'hFF)
                                        : (give ? frames_reg != 8'd1 : busy_reg);
                if (cfg_ring_rst[g] || rst) begin
                    resv_reg    <= 16'd0;
                    resv_p1_reg <= 17'd1;
                end
                if (rst) begin
                    free_reg        <= QB_WORDS;
                    frames_reg      <= 8'd0;
                    frames_full_reg <= QB_FRAMES == 8'd0;
                    words_gt_reg    <= {1'b0, words_n} > QB_WORDS;
                    busy_reg        <= 1'b0;
                end
            end
            assign q_resv[g*16 +: 16] = resv_reg;
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
