// SPDX-License-Identifier: MIT
//
// prionic_moderation: per-queue interrupt moderation (F14) and interrupt vectors (F15).
// One prescaler makes the moderation tick every TICK_DIV cycles. Each queue counts its
// pending completions and runs a packet timer (restarted by every completion, Intel
// RDTR), an absolute timer (started by the first pending completion, Intel RADV), a
// frame-count threshold, immediate mode, and a minimum gap between interrupts (Intel
// ITR) during which a due interrupt is held. An interrupt sets the queue's cause bit
// (write 1 to clear via cfg_cause_clr) and pulses stat_irq; the irq line is cause &
// ~mask; irq_legacy ORs the lines. A queue whose QUEUE_PRIO is not above the running
// priority holds its interrupt, timers running, until it is (F16); status_pend_prio
// reports the highest priority with unsignalled completions. A global interrupt budget
// (F10, a deferrable server) allows cfg_budget interrupts per epoch of cfg_budget_period
// cycles (0 = off): once spent, due interrupts of non-exempt queues are withheld like the
// gap holds them, until the budget is refilled at the next epoch start; when more queues
// are due at one edge than the budget allows, the highest QUEUE_PRIO go first (ties: the
// higher queue index). The exact semantics are the pseudo-code of docs/timing.md
// sections 4, 5 and 7, which this file follows line by line.
//
// Configuration one edge late (F25, docs/timing.md s4): every cfg_* input but the cause
// clears is used as sampled at the edge before (a write at w acts from w+2), so that what
// derives from configuration alone (the tick, the zero tests, priority gating, the budget
// order) and the FRAMES compare are registers when the interrupt decision reads them.
//
// Latency: completion pulse sampled at edge m -> stat_irq / irq high at m+1 (immediate).
// s_cpl is one-hot (at most one queue completes per cycle), registered by the DMA.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_moderation #(
    parameter NUM_QUEUES = 2    // receive queues (1..16)
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [15:0]              cfg_tick_div,
    input  wire [NUM_QUEUES-1:0]    cfg_immediate,
    input  wire [NUM_QUEUES*16-1:0] cfg_frames,
    input  wire [NUM_QUEUES*16-1:0] cfg_pkt,
    input  wire [NUM_QUEUES*16-1:0] cfg_abs,
    input  wire [NUM_QUEUES*16-1:0] cfg_gap,
    input  wire [NUM_QUEUES-1:0]    cfg_mask,
    input  wire [NUM_QUEUES-1:0]    cfg_cause_clr,   // one-cycle W1C pulses
    input  wire [NUM_QUEUES*8-1:0]  cfg_queue_prio,  // QUEUE_PRIO per queue
    input  wire [7:0]               cfg_run_prio,    // running priority: the larger of the two
    input  wire [7:0]               cfg_run_prio_b,  // (RUN_PRIO and the port, F16)
    input  wire [15:0]              cfg_budget,        // F10: interrupts per epoch
    input  wire [31:0]              cfg_budget_period, // F10: epoch length in cycles, 0 = off
    input  wire [NUM_QUEUES-1:0]    cfg_exempt,        // F10: outside the budget
    input  wire                     cfg_budget_restart, // F10: one-cycle pulse, new epoch

    input  wire [NUM_QUEUES-1:0]    s_cpl,           // one-hot: the queue with a completion this
                                                     // cycle (at most one bit; the DMA registers it)

    output wire [NUM_QUEUES-1:0]    irq,
    output wire                     irq_legacy,
    output wire [NUM_QUEUES-1:0]    stat_irq,        // one pulse per interrupt raised
    output wire [NUM_QUEUES-1:0]    status_cause,
    output wire [NUM_QUEUES*16-1:0] status_pending,
    output wire [8:0]               status_pend_prio,  // {valid, highest prio with pending}
    output wire [15:0]              status_budget_left // F10: budget left after the last edge
);

    initial begin
        if (NUM_QUEUES < 1 || NUM_QUEUES > 16) begin
            $error("Error: NUM_QUEUES must be 1..16 (instance %m)");
            $finish;
        end
    end

    // Timing (F25): every compare that sits between a state register and a fire is a
    // registered flag computed from the next state at the previous edge (pending != 0 and
    // immediate or pending >= FRAMES, the same with a completion, a timer due at a tick,
    // pending == 0xFFFF, timer == 1, gap != 0, gap == 1, ecnt == 0 and 1, avail <= k, avail is
    // the budget; per queue budget on && !exempt && avail <= k), or one compare of a
    // register with a configuration input (pcnt + 1 >= TICK_DIV) registered as the tick.
    // The completion is a register too (the DMA's one-hot). Cycle behaviour is
    // docs/timing.md's, unchanged.

    // ------------------------------------------------------------------ prescaler
    // pc1 = pcnt + 1 (pcnt <= 0xFFFE, so 16 bits); tick = pcnt >= max(div, 1) - 1 is
    // pc1 >= TICK_DIV (pc1 >= 1 covers TICK_DIV 0 and 1)
    // ------------------------------------------------------------------ configuration at m - 1
    // values used as data, one edge late
    reg [NUM_QUEUES*16-1:0] pkt_d, abs_d, gap_d;
    reg [NUM_QUEUES-1:0]    mask_d, exempt_d;
    reg [15:0]              budget_d;
    reg [31:0]              period_d;
    reg                     restart_d;
    // what derives from configuration alone, registered
    reg [NUM_QUEUES-1:0]    pkt_zero_d, abs_zero_d, gated_d;
    // pkt_d / abs_d == 1 and == 2 (timing: F25): a timer loaded from them knows at once
    // whether it is at 1 or 2, with no compare of the loaded value
    reg [NUM_QUEUES-1:0]    pkt_is1_d, pkt_is2_d, abs_is1_d, abs_is2_d;
    reg [NUM_QUEUES-1:0]    gated_ex_d;                // gated_d || exempt_d
    wire [NUM_QUEUES-1:0]   immediate_in;              // IMMEDIATE, or every threshold 0 (as seen at m)
    reg                     budget_on_d;
    reg                     period_one_d;              // period_d == 1
    reg [2*NUM_QUEUES:0]    bud_le_d;                  // [k]: budget_d <= k
    reg [NUM_QUEUES*NUM_QUEUES-1:0] ranked_d;         // [i*NQ + j]: queue j comes before queue i
    integer c, cj;
    always @(posedge clk) begin
        pkt_d        <= cfg_pkt;
        abs_d        <= cfg_abs;
        gap_d        <= cfg_gap;
        mask_d       <= cfg_mask;
        exempt_d     <= cfg_exempt;
        budget_d     <= cfg_budget;
        period_d     <= cfg_budget_period;
        restart_d    <= cfg_budget_restart;
        budget_on_d  <= cfg_budget_period != 32'd0;
        period_one_d <= cfg_budget_period == 32'd1;
        for (c = 0; c <= 2 * NUM_QUEUES; c = c + 1) begin
            bud_le_d[c] <= c[15:0] >= cfg_budget;
        end
        for (c = 0; c < NUM_QUEUES; c = c + 1) begin
            // prio <= max(a, b) as (prio <= a) || (prio <= b) (timing: F25): two compares
            // side by side, no compare and mux in front of them
            gated_ex_d[c]  <= cfg_run_prio >= cfg_queue_prio[c*8 +: 8]
                              || cfg_run_prio_b >= cfg_queue_prio[c*8 +: 8] || cfg_exempt[c];
            pkt_zero_d[c]  <= cfg_pkt[c*16 +: 16] == 16'd0;
            abs_zero_d[c]  <= cfg_abs[c*16 +: 16] == 16'd0;
            pkt_is1_d[c]   <= cfg_pkt[c*16 +: 16] == 16'd1;
            pkt_is2_d[c]   <= cfg_pkt[c*16 +: 16] == 16'd2;
            abs_is1_d[c]   <= cfg_abs[c*16 +: 16] == 16'd1;
            abs_is2_d[c]   <= cfg_abs[c*16 +: 16] == 16'd2;
            gated_d[c]     <= cfg_run_prio >= cfg_queue_prio[c*8 +: 8]
                              || cfg_run_prio_b >= cfg_queue_prio[c*8 +: 8];
            for (cj = 0; cj < NUM_QUEUES; cj = cj + 1) begin
                ranked_d[c*NUM_QUEUES + cj] <= cfg_queue_prio[c*8 +: 8] < cfg_queue_prio[cj*8 +: 8]
                        || (cfg_queue_prio[cj*8 +: 8] == cfg_queue_prio[c*8 +: 8] && cj > c);
            end
        end
    end

    genvar ci;
    generate
        for (ci = 0; ci < NUM_QUEUES; ci = ci + 1) begin : g_imm
            assign immediate_in[ci] = cfg_immediate[ci] || (cfg_frames[ci*16 +: 16] == 16'd0
                                      && cfg_pkt[ci*16 +: 16] == 16'd0 && cfg_abs[ci*16 +: 16] == 16'd0);
        end
    endgenerate

    // ------------------------------------------------------------------ tick (section 4)
    // pc1 = pcnt + 1; tick(m) = pc1(m) >= TICK_DIV as seen at m - 1: decided at edge m - 1
    // pc1 itself is not kept: pc2 = pc1 + 1 is (timing: F25, no add before the compare)
    reg  [16:0] pc2_reg;    // pc1 + 1 (pc1 <= 0xFFFF)
    reg         tick_reg;
    wire        tick    = tick_reg;
    // the tick of the next edge (edge 0 after a reset: pcnt 0, TICK_DIV's reset value)
    wire        tick_n  = (rst || tick_reg) ? 16'd1 >= cfg_tick_div : pc2_reg >= {1'b0, cfg_tick_div};

    always @(posedge clk) begin
        pc2_reg  <= tick_reg ? 17'd2 : pc2_reg + 17'd1;
        tick_reg <= tick_n;
        if (rst) begin
            pc2_reg  <= 17'd2;
        end
    end

    // ------------------------------------------------------------------ interrupt budget (F10)
    // docs/timing.md section 7. want[q]: queue q is due, neither in a gap nor gated, and
    // not exempt. withhold[q]: at least `avail` wanting queues come before q in budget
    // order (QUEUE_PRIO descending, ties to the higher index).
    // Timing (F25): each queue's want and due are known from registered flags for both
    // cases of its completion; the completion, a register (the DMA's one-hot), picks one
    // per queue; the count ahead is a thermometer code against avail's registered
    // thresholds (no adders, no ripple over the queues).
    localparam integer NW = NUM_QUEUES;   // wanting queues: 0..NUM_QUEUES

    wire [NUM_QUEUES-1:0] want0, want1;   // per queue: wanting without / with its completion
    wire [NUM_QUEUES-1:0] due0, due1;     // ... and due
    wire [NUM_QUEUES-1:0] nhold;          // neither in a gap nor gated
    reg  [NUM_QUEUES-1:0] fire;

    reg  [31:0] ecnt_reg;
    reg         ecnt_zero_reg;            // ecnt_reg == 0
    reg         ecnt_one_reg;             // ecnt_reg == 1 (set beside it, F25: no 32-bit compare
                                          // in front of the budget's thresholds)
    reg  [15:0] left_reg, left_next;

    wire        budget_on    = budget_on_d;
    wire        budget_start = budget_on && (restart_d || ecnt_zero_reg);
    wire [31:0] ecnt_next    = !budget_on ? 32'd0 : budget_start ? period_d - 32'd1 : ecnt_reg - 32'd1;
    wire        ecnt_zero_next = !budget_on || (budget_start ? period_one_d : ecnt_one_reg);

    // avail = the budget at an epoch start (or while off), else what is left. Timing (F25):
    // whether avail is the budget is a register (decided from next state at the edge
    // before), and so are the thresholds le[k] = avail <= k of both sources (k = 0..NQ);
    // minus[k] = avail - k is computed for both and then picked
    reg         avail_full_reg;           // !budget_on || budget_start
    reg  [NW:0] left_le_reg;              // [k]: left_reg <= k
    wire        avail_full = avail_full_reg;
    wire [15:0] avail      = avail_full ? budget_d : left_reg;
    reg  [NW:0]       avail_le;
    reg  [2*NW:0]     avail_le_x;         // avail <= k for k = 0..2 NQ: what is left next
    reg  [16*NW+15:0] avail_minus;
    integer k;
    always @* begin
        for (k = 0; k <= 2 * NW; k = k + 1) begin
            avail_le_x[k] = avail_full ? bud_le_d[k]
                          : (k <= NW) ? left_le_reg[k <= NW ? k : 0] : k[15:0] >= left_reg;
        end
        for (k = 0; k <= NW; k = k + 1) begin
            avail_le[k] = avail_full ? bud_le_d[k] : left_le_reg[k];
            avail_minus[k*16 +: 16] = avail_full ? budget_d - k[15:0] : left_reg - k[15:0];
        end
    end

    // ranked[i*NUM_QUEUES + j]: queue j comes before queue i in budget order (configuration only)
    wire [NUM_QUEUES*NUM_QUEUES-1:0] ranked = ranked_d;

    // at least avail of the wanting queues w come before the queue whose ranked row is rk:
    // counts as thermometer codes (th[t]: at least t), no adders; ahead >= avail is then OR
    // over t of (at least t ahead and avail <= t), avail_le being monotonic in t
    function over;
        input [NUM_QUEUES-1:0] w;
        input [NUM_QUEUES-1:0] rk;
        input [NW:0]           le;
        reg   [NW:0]           th;
        integer jj, tt;
        begin
            th = {{NW{1'b0}}, 1'b1};
            for (jj = 0; jj < NUM_QUEUES; jj = jj + 1) begin
                if (w[jj] && rk[jj]) begin
                    th = {th[NW-1:0], 1'b1};
                end
            end
            over = 1'b0;
            for (tt = 0; tt <= NW; tt = tt + 1) begin
                over = over || (th[tt] && le[tt]);
            end
        end
    endfunction

    // what is left when the wanting queues number th (a thermometer code): each granted
    // non-exempt fire takes one, min(wanting, avail); off: nothing taken
    function [15:0] left_of;
        input [NW:0]        th;
        input [NW:0]        le;
        input [16*NW+15:0]  minus;
        input [15:0]        av;
        input               on;
        integer tt;
        begin
            left_of = av;
            if (on) begin
                for (tt = 0; tt <= NW; tt = tt + 1) begin
                    if (th[tt]) begin
                        left_of = le[tt] ? 16'd0 : minus[tt*16 +: 16];
                    end
                end
            end
        end
    endfunction

    // left_of's thresholds: [k] = left_of(th) <= k, given avail <= j for j = 0..2 NQ
    function [NW:0] le_of;
        input [NW:0]   th;
        input [2*NW:0] lex;
        input          on;
        integer tt, kq;
        begin
            le_of = lex[NW:0];
            if (on) begin
                for (tt = 0; tt <= NW; tt = tt + 1) begin
                    if (th[tt]) begin
                        for (kq = 0; kq <= NW; kq = kq + 1) begin
                            le_of[kq] = lex[tt + kq];
                        end
                    end
                end
            end
        end
    endfunction

    // the completion is a register (the DMA's one-hot): it picks each queue's want first
    wire [NUM_QUEUES-1:0] want = (s_cpl & want1) | (~s_cpl & want0);
    reg  [NUM_QUEUES-1:0] withhold;
    reg  [NW:0]           th_want;
    // per queue, budget_on && !exempt_d[i] && avail_le[k] (over is an OR of th[t] && le[t],
    // so withhold && !exempt is over with these thresholds), registered from the next values
    // of the three (F25: the completion meets one register per threshold, not a mux of
    // avail's sources and the on and exempt flags)
    reg  [NUM_QUEUES*(NW+1)-1:0] wle_reg;
    integer i;
    always @* begin
        th_want = {{NW{1'b0}}, 1'b1};
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            // withheld and not exempt: wle_reg folds budget_on and !exempt_d[i] in
            withhold[i] = over(want, ranked[i*NUM_QUEUES +: NUM_QUEUES], wle_reg[i*(NW+1) +: NW+1]);
            fire[i]     = (s_cpl[i] ? due1[i] : due0[i]) && nhold[i] && !withhold[i];
            if (want[i]) begin
                th_want = {th_want[NW-1:0], 1'b1};
            end
        end
        left_next = left_of(th_want, avail_le, avail_minus, avail, budget_on);
    end
    // left_next <= k: avail <= t + k with t taken (t = 0 while off), from avail's thresholds
    wire [NW:0] left_le_next = le_of(th_want, avail_le_x, budget_on);
    // avail is the budget at the next edge: off, restarted, or the epoch ends
    wire        avail_full_next = cfg_budget_period == 32'd0 || cfg_budget_restart || ecnt_zero_next;

    // wle_reg's next value: avail_le after this edge is the budget's thresholds after a reset
    // or when avail is full next, else left_le_next; budget_on_d and exempt_d follow the inputs.
    // (Where the budget is on next, avail_full_next is restart || ecnt_zero_next: the period's
    // zero test only ANDs, beside the pick)
    reg  [NUM_QUEUES*(NW+1)-1:0] wle_next;
    integer wi, wk;
    always @* begin
        for (wi = 0; wi < NUM_QUEUES; wi = wi + 1) begin
            for (wk = 0; wk <= NW; wk = wk + 1) begin
                wle_next[wi*(NW+1) + wk] = cfg_budget_period != 32'd0 && !cfg_exempt[wi]
                    && ((rst || cfg_budget_restart || ecnt_zero_next) ? wk[15:0] >= cfg_budget : left_le_next[wk]);
            end
        end
    end
    always @(posedge clk) begin
        wle_reg <= wle_next;
    end
`ifndef SYNTHESIS
    // the copies are timing devices, not a second truth: from the first reset on they equal
    // ecnt_reg == 1 and budget_on && !exempt_d[i] && avail_le[k]
    reg wle_seen;
    initial wle_seen = 1'b0;
    integer ci2, ck2;
    always @(posedge clk) begin
        if (rst) begin
            wle_seen <= 1'b1;
        end
        if (wle_seen && ecnt_one_reg !== (ecnt_reg == 32'd1)) begin
            $fatal(1, "%m: ecnt_one_reg differs from ecnt_reg == 1");
        end
        if (wle_seen) begin
            for (ci2 = 0; ci2 < NUM_QUEUES; ci2 = ci2 + 1) begin
                for (ck2 = 0; ck2 <= NW; ck2 = ck2 + 1) begin
                    if (wle_reg[ci2*(NW+1) + ck2] !== (budget_on && !exempt_d[ci2] && avail_le[ck2])) begin
                        $fatal(1, "%m: wle_reg differs from budget_on && !exempt_d && avail_le");
                    end
                end
            end
        end
    end
`endif

    always @(posedge clk) begin
        ecnt_reg      <= ecnt_next;
        ecnt_zero_reg <= ecnt_zero_next;
        ecnt_one_reg  <= ecnt_next == 32'd1;
        left_reg      <= left_next;
        left_le_reg   <= left_le_next;
        avail_full_reg <= avail_full_next;
        if (rst) begin
            ecnt_reg      <= 32'd0;
            ecnt_zero_reg <= 1'b1;
            ecnt_one_reg  <= 1'b0;
            left_reg      <= 16'd0;
            left_le_reg   <= {(NW+1){1'b1}};
            avail_full_reg <= 1'b1;
        end
    end

    assign status_budget_left = left_reg;

    // ------------------------------------------------------------------ per queue
    reg irq_legacy_reg;
    wire [NUM_QUEUES-1:0] pend_nz;

    genvar q;
    generate
        for (q = 0; q < NUM_QUEUES; q = q + 1) begin : g_queue
            wire [15:0] frames = cfg_frames[q*16 +: 16];   // as seen at m: for edge m + 1's flags
            wire [15:0] pkt    = pkt_d[q*16 +: 16];
            wire [15:0] absv   = abs_d[q*16 +: 16];
            wire [15:0] gap    = gap_d[q*16 +: 16];
            wire        cpl    = s_cpl[q];
            wire        clr    = cfg_cause_clr[q];
            // priority gating (F16): a queue not above the running priority holds
            wire        gated  = gated_d[q];

            reg [15:0] pending_reg;
            reg [16:0] pend_p1_reg;     // pending_reg + 1
            reg [16:0] pend_p2_reg;     // pending_reg + 2
            reg        pend_nz_reg;     // pending_reg != 0
            reg        pend_ff_reg;     // pending_reg == 0xFFFF
            reg        pkt_run_reg, pkt_run_t;
            reg [15:0] pkt_cnt_reg, pkt_cnt_next;
            reg        pkt_one_reg, pkt_one_next;   // pkt_cnt_reg == 1
            reg        pkt_two_reg, pkt_two_next;   // pkt_cnt_reg == 2 (timing: F25, so pkt_one_next is a mux of flags)
            reg        abs_run_reg, abs_run_t;
            reg [15:0] abs_cnt_reg, abs_cnt_next;
            reg        abs_one_reg, abs_one_next;   // abs_cnt_reg == 1
            reg        abs_two_reg, abs_two_next;   // abs_cnt_reg == 2 (likewise)
            reg [15:0] gap_cnt_reg;
            reg        gap_nz_reg;      // gap_cnt_reg != 0
            reg        gap_one_reg;     // gap_cnt_reg == 1
            // what the fire decision reads, registered whole from the flags' next values and
            // the next tick (timing: F25, the tick's fanout out of the path): due without and
            // with a completion, and the gap's hold
            reg        due0_reg, due1_reg, ghold_reg;
            // Timing (F25): the interrupt conditions are computed as next-state flags at the
            // edge before (configuration as seen at m - 1, like the flags they combine):
            //   x0:   pending != 0 and (immediate or pending >= FRAMES != 0)
            //   t0:   pending != 0 and a timer expires at a tick (pkt or abs)
            //   x1:   immediate or (FRAMES != 0 and pending + 1 >= FRAMES, saturating)
            //   aexp: the absolute timer expires at a tick
            //   held: due and not fired (a withheld interrupt stays due)
            // and registered only as what the fire decision reads (due0, due1, ghold)
            reg        cause_reg;
            reg        irq_reg;
            reg        fire_reg;

            // the interrupt decision for both cases of this queue's completion, from
            // registers alone; the completion (and the budget's pick) only selects
            // pkt_exp0: the packet timer expires (unless a completion restarts it)
            // pending' > 0 and pending' >= FRAMES; with a completion pending' = pending + 1
            // unless saturated (x0, x1); a timer expires (t0; a completion restarts the
            // packet timer: only the absolute one for cond1)
            //   cond0 = x0 || (tick && t0), cond1 = x1 || (tick && aexp), due = held || cond
            // minimum gap between interrupts; priority gating holds like the gap
            wire gap_hold = ghold_reg;   // gap_nz && !(gap_one && tick)
            assign due0[q]  = due0_reg;
            assign due1[q]  = due1_reg;
            assign nhold[q] = !gap_hold && !gated;
            assign want0[q] = due0[q] && !gap_hold && !gated_ex_d[q];
            assign want1[q] = due1[q] && !gap_hold && !gated_ex_d[q];
            wire due    = cpl ? due1[q] : due0[q];
            wire fire_q = fire[q];   // the interrupt budget (F10) withholds like the gap and the gate

            wire add = cpl && !pend_ff_reg;   // the completion counts (pending not saturated)
            // pend_ff_reg at m + 1 unless this edge fires
            wire pend_ff_n = pend_ff_reg || (cpl && pending_reg == 16'hFFFE);

            always @* begin
                pkt_run_t    = pkt_run_reg;
                pkt_cnt_next = pkt_cnt_reg;
                pkt_one_next = pkt_one_reg;
                pkt_two_next = pkt_two_reg;
                abs_run_t    = abs_run_reg;
                abs_cnt_next = abs_cnt_reg;
                abs_one_next = abs_one_reg;
                abs_two_next = abs_two_reg;

                // packet timer: restarted by every completion
                if (pkt_zero_d[q]) begin
                    pkt_run_t = 1'b0;
                end else if (cpl) begin
                    pkt_run_t    = 1'b1;
                    pkt_cnt_next = pkt;
                    pkt_one_next = pkt_is1_d[q];
                    pkt_two_next = pkt_is2_d[q];
                end else if (pkt_run_reg && tick) begin
                    pkt_cnt_next = pkt_cnt_reg - 16'd1;
                    pkt_one_next = pkt_two_reg;
                    pkt_two_next = pkt_cnt_reg == 16'd3;
                    pkt_run_t    = !pkt_one_reg;
                end

                // absolute timer: started by a completion while not running
                if (abs_zero_d[q]) begin
                    abs_run_t = 1'b0;
                end else if (abs_run_reg && tick) begin
                    abs_cnt_next = abs_cnt_reg - 16'd1;
                    abs_one_next = abs_two_reg;
                    abs_two_next = abs_cnt_reg == 16'd3;
                    abs_run_t    = !abs_one_reg;
                end else if (!abs_run_reg && cpl) begin
                    abs_run_t    = 1'b1;
                    abs_cnt_next = absv;
                    abs_one_next = abs_is1_d[q];
                    abs_two_next = abs_is2_d[q];
                end
            end

            // the flags as their parts will be at m + 1 (none survive a fire: pending 0,
            // timers stopped), configuration as seen at m; each written for the edge without
            // a fire (_k) and with one (_f), so that the fire, the end of the budget's
            // decision across the queues, only picks (F25)
            wire x0_k   = (pend_nz_reg || cpl) && (immediate_in[q] || (frames != 16'd0
                          && (add ? pend_p1_reg >= {1'b0, frames} : pending_reg >= frames)));
            wire t0_k   = (pend_nz_reg || cpl)
                          && ((pkt_run_t && pkt_one_next && cfg_pkt[q*16 +: 16] != 16'd0)
                              || (abs_run_t && abs_one_next && cfg_abs[q*16 +: 16] != 16'd0));
            wire x1_k   = immediate_in[q] || (frames != 16'd0
                          && (pend_ff_n ? (add ? pend_p1_reg >= {1'b0, frames} : pending_reg >= frames)
                                        : (add ? pend_p2_reg >= {1'b0, frames} : pend_p1_reg >= {1'b0, frames})));
            wire x1_f   = immediate_in[q] || frames == 16'd1;
            wire aexp_k = abs_run_t && abs_one_next && cfg_abs[q*16 +: 16] != 16'd0;
            // the gap after this edge: reloaded by a fire, counted down at a tick
            wire gap_nz_k  = gap_nz_reg && !(tick && gap_one_reg);
            wire gap_one_k = (gap_nz_reg && tick) ? gap_cnt_reg == 16'd2 : gap_one_reg;
            wire gap_nz_f  = gap != 16'd0;
            wire gap_one_f = gap == 16'd1;

            always @(posedge clk) begin
                if (fire_q) begin
                    pending_reg <= 16'd0;
                    pend_p1_reg <= 17'd1;
                    pend_p2_reg <= 17'd2;
                    pend_nz_reg <= 1'b0;
                    pend_ff_reg <= 1'b0;
                    pkt_run_reg <= 1'b0;
                    abs_run_reg <= 1'b0;
                    gap_cnt_reg <= gap;
                    gap_nz_reg  <= gap_nz_f;
                    gap_one_reg <= gap_one_f;
                end else begin
                    pending_reg <= pending_reg + {15'd0, add};
                    pend_p1_reg <= pend_p1_reg + {16'd0, add};
                    pend_p2_reg <= pend_p2_reg + {16'd0, add};
                    pend_nz_reg <= pend_nz_reg || cpl;
                    pend_ff_reg <= pend_ff_n;
                    pkt_run_reg <= pkt_run_t;
                    abs_run_reg <= abs_run_t;
                    if (gap_nz_reg && tick) begin
                        gap_cnt_reg <= gap_cnt_reg - 16'd1;
                    end
                    gap_nz_reg  <= gap_nz_k;
                    gap_one_reg <= gap_one_k;
                end
                due0_reg  <= !fire_q && (due || x0_k || (tick_n && t0_k));
                due1_reg  <= fire_q ? x1_f : due || x1_k || (tick_n && aexp_k);
                ghold_reg <= fire_q ? gap_nz_f && !(gap_one_f && tick_n) : gap_nz_k && !(gap_one_k && tick_n);
                pkt_cnt_reg <= pkt_cnt_next;
                pkt_one_reg <= pkt_one_next;
                pkt_two_reg <= pkt_two_next;
                abs_cnt_reg <= abs_cnt_next;
                abs_one_reg <= abs_one_next;
                abs_two_reg <= abs_two_next;
                cause_reg   <= (cause_reg && !clr) || fire_q;
                irq_reg     <= ((cause_reg && !clr) || fire_q) && !mask_d[q];
                fire_reg    <= fire_q;
                if (rst) begin
                    pending_reg <= 16'd0;
                    pend_p1_reg <= 17'd1;
                    pend_p2_reg <= 17'd2;
                    pend_nz_reg <= 1'b0;
                    pend_ff_reg <= 1'b0;
                    pkt_run_reg <= 1'b0;
                    pkt_cnt_reg <= 16'd0;
                    pkt_one_reg <= 1'b0;
                    pkt_two_reg <= 1'b0;
                    abs_run_reg <= 1'b0;
                    abs_cnt_reg <= 16'd0;
                    abs_one_reg <= 1'b0;
                    abs_two_reg <= 1'b0;
                    gap_cnt_reg <= 16'd0;
                    gap_nz_reg  <= 1'b0;
                    gap_one_reg <= 1'b0;
                    due0_reg    <= 1'b0;
                    due1_reg    <= immediate_in[q] || frames == 16'd1;
                    ghold_reg   <= 1'b0;
                    cause_reg   <= 1'b0;
                    irq_reg     <= 1'b0;
                    fire_reg    <= 1'b0;
                end
            end

            assign irq[q]                   = irq_reg;
            assign stat_irq[q]              = fire_reg;
            assign status_cause[q]          = cause_reg;
            assign status_pending[q*16 +: 16] = pending_reg;
            assign pend_nz[q]               = pend_nz_reg;
        end
    endgenerate

    // highest priority among queues with completions not yet signalled (F16): a pending
    // queue with no pending queue of a higher QUEUE_PRIO is on top, and the queues on top
    // share one priority, ORed. Timing (F25): the compares are of configuration only, each
    // beside the others, where a chain of compare-and-pick over the queues sat in front of
    // the register readback.
    reg [NUM_QUEUES-1:0] on_top;
    reg [7:0]            pend_max;
    integer p, pr;
    always @* begin
        pend_max = 8'd0;
        for (p = 0; p < NUM_QUEUES; p = p + 1) begin
            on_top[p] = pend_nz[p];
            for (pr = 0; pr < NUM_QUEUES; pr = pr + 1) begin
                if (pr != p && pend_nz[pr] && cfg_queue_prio[p*8 +: 8] < cfg_queue_prio[pr*8 +: 8]) begin
                    on_top[p] = 1'b0;
                end
            end
            pend_max = pend_max | ({8{on_top[p]}} & cfg_queue_prio[p*8 +: 8]);
        end
    end
    assign status_pend_prio = {|pend_nz, pend_max};

    always @(posedge clk) begin
        irq_legacy_reg <= |irq;
        if (rst) begin
            irq_legacy_reg <= 1'b0;
        end
    end

    assign irq_legacy = irq_legacy_reg;

endmodule

`resetall
