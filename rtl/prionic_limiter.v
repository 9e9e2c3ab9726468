// SPDX-License-Identifier: MIT
//
// prionic_limiter: NUM_LIMITERS per-rule rate limiters, each a deferrable server (F9).
// Time is cut into epochs of PERIOD edges; at the first edge of every epoch the remaining
// budget is set to BUDGET (unused budget is lost). A query (q_id, its cost) passes while
// the remaining budget of the limiter that q_id asks covers its cost (1 per frame, or the
// cost in bytes in bytes mode); a passing valid query with q_consume spends it. PERIOD 0
// turns a limiter off: every query passes. R (cfg_restart) starts a new epoch. The exact
// semantics are the pseudo-code of docs/limiter.md section 4, which this file follows.
//
// Inputs one edge ahead (timing: F25, docs/limiter.md s3): the configuration (cfg_budget,
// cfg_period, cfg_mode, cfg_restart, cfg_lim_id) and the query's cost (p_cost) are taken
// one edge before the edge that uses them: "BUDGET at edge e" is cfg_budget sampled at
// e-1, and a query at edge e costs the p_cost sampled at e-1 (the top knows a looked-up
// frame's length edges before its rule). q_valid, q_id and q_consume are those of edge e.
// With its inputs a cycle early, the block computes each limiter's verdict for the next
// edge beside the state update, for both "this edge spends" and "it does not" (the spend
// only picks), and registers it: q_pass is a select of flip-flops by q_id.
//
// Contract: cfg_period is taken with cfg_restart. A change of limiter i's PERIOD from one
// value other than 0 to another must be sampled together with cfg_restart[i] (the top
// always does this: every RULE_LIM_PERIOD write pulses the restart at w+1, when the new
// value is seen). Changes from or to 0, and BUDGET and MODE changes, need no restart. The
// epoch check is registered one edge ahead with the PERIOD of that edge; without the
// restart the edge of such a change would still be checked against the old PERIOD
// (docs/limiter.md s5).
//
// Contract 2: one query per limiter every third edge. A query at edge e for a limiter
// that passed a valid query at e-1, or spent at e-2, is refused (q_pass 0 for it, nothing
// spent) unless the limiter is off at e: the verdict is registered before the query at
// e-1 is decided, and a spend is taken off one edge late (at e-1 for a query at e-2), so
// that q_consume only reaches flip-flops. Refusing can never spend more than the budget.
// The top asks at most every fourth edge (the classification engine looks up one frame at
// a time, docs/timing.md s3.1).
//
// Latency: q_pass shows, in the cycle before edge e, the verdict at e for q_id and the
// cost sampled at e-1, from the state left by e-1; the edge that samples the query also
// spends its cost. The verdict of a query at edge e therefore reflects every query at
// edges < e (contract 2 aside).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_limiter #(
    parameter NUM_LIMITERS = 4   // rate limiters and query ids (1..64; the top has one per rule)
) (
    input  wire                       clk,
    input  wire                       rst,

    // configuration, taken one edge late (a value sampled at edge e is used at e+1)
    input  wire [NUM_LIMITERS*32-1:0] cfg_budget,   // BUDGET per limiter (frames or bytes)
    input  wire [NUM_LIMITERS*32-1:0] cfg_period,   // PERIOD per limiter in edges, 0 = off
    input  wire [NUM_LIMITERS-1:0]    cfg_mode,     // 0 = frames (cost 1), 1 = bytes (cost = the query's cost)
    input  wire [NUM_LIMITERS-1:0]    cfg_restart,  // one-cycle pulses: an epoch starts one edge later
    input  wire [NUM_LIMITERS*8-1:0]  cfg_lim_id,   // per query id r: the limiter it asks (>= NUM_LIMITERS: none)

    input  wire [15:0]                p_cost,       // the cost of the query at the next edge
    input  wire                       q_valid,      // a query this cycle
    input  wire [7:0]                 q_id,         // query id; >= NUM_LIMITERS: none (passes)
    input  wire                       q_consume,    // a passing valid query spends its cost
    output wire                       q_pass        // verdict for q_id (from flip-flops, a select)
);

    initial begin
        if (NUM_LIMITERS < 1 || NUM_LIMITERS > 64) begin
            $error("Error: NUM_LIMITERS must be 1..64 (instance %m)");
            $finish;
        end
    end

    localparam integer N = NUM_LIMITERS;

    // ------------------------------------------------------------------ the delayed inputs
    // Everything the pseudo-code reads "at edge e" is a flip-flop here, loaded at e-1 from
    // the inputs; so the state's next values (and the next query's verdict) can be computed
    // from the inputs one edge ahead (docs/limiter.md s3, s4).
    reg  [N*32-1:0] budget_d;
    reg  [N-1:0]    mode_d;
    reg  [N-1:0]    off_d;          // PERIOD == 0
    reg  [15:0]     cost_d;         // the query's cost (p_cost of the cycle before)
    reg  [N*N-1:0]  map_d;          // map_d[r*N + i]: query id r asks limiter i
    // (the compares as continuous assignments, registered whole: an event-driven simulator
    // evaluates them only when the configuration changes, not at every edge)
    wire [N-1:0]    off_n;
    wire [N*N-1:0]  map_n;
    genvar r_i, l_i;
    generate
        for (l_i = 0; l_i < N; l_i = l_i + 1) begin : g_off
            assign off_n[l_i] = cfg_period[l_i*32 +: 32] == 32'd0;
        end
        for (r_i = 0; r_i < N; r_i = r_i + 1) begin : g_map_r
            for (l_i = 0; l_i < N; l_i = l_i + 1) begin : g_map_l
                localparam [7:0] LID = l_i;
                assign map_n[r_i*N + l_i] = cfg_lim_id[r_i*8 +: 8] == LID;
            end
        end
    endgenerate
    always @(posedge clk) begin
        budget_d <= cfg_budget;
        mode_d   <= cfg_mode;
        cost_d   <= p_cost;
        off_d    <= off_n;
        map_d    <= map_n;
    end

    // ------------------------------------------------------------------ the query
    // q_pass is a select by q_id of per-query-id flags registered the edge before (timing:
    // F25; the limiter's verdict is admission's last input): for each id r, from the map of
    // the next edge (map_n) and each limiter's state and flags for the next edge:
    //   lim_reg[r]  r asks a limiter
    //   fail_reg[r] r's limiter has no budget for the next query (pass_next, below)
    //   ref_reg[r]  r's limiter is refused by contract 2 (it passed a valid query at this
    //               edge, or spent at the one before) ...
    //   off_reg[r]  ... unless it is off at the next edge
    // which is the per-limiter verdict of the pseudo-code picked by the id's row of the map.
    localparam integer IDW = N > 1 ? $clog2(N) : 1;
    localparam [31:0]  N_32 = N;
    localparam [IDW:0] N_W = N_32[IDW:0];
    // q_id < N without a carry chain: the bits above the index are 0 and the index is < N
    // (a constant 1 when N is a power of two)
    /* verilator lint_off UNSIGNED */
    wire         id_ok = ~|(q_id >> IDW) && {1'b0, q_id[IDW-1:0]} < N_W;
    /* verilator lint_on UNSIGNED */
    wire [5:0]   id6 = q_id[5:0];
    // q_id's row of the map, as a one-hot over the limiters (none for an id >= N): which
    // limiter this edge's query asks (its spend), not its verdict
    wire [N-1:0] hit = id_ok ? map_d[id6*N +: N] : {N{1'b0}};
    wire [N-1:0] pass_next;   // per limiter: its verdict at the next edge (g_lim)
    wire [N-1:0] asked_now;   // per limiter: it passed a valid query at this edge
    wire [N-1:0] sp_now;      // per limiter: it spent at the previous edge (sp_reg)
    wire [N-1:0] lim_n, fail_n, ref_n, offr_n;   // the flags below, for the next edge
    reg  [N-1:0] lim_reg, fail_reg, ref_reg, off_reg;
    wire [N-1:0] ok_id;       // per id: passes at this edge
    genvar r_q;
    generate
        for (r_q = 0; r_q < N; r_q = r_q + 1) begin : g_id
            wire [N-1:0] row = map_n[r_q*N +: N];
            assign lim_n[r_q]  = |row;
            assign fail_n[r_q] = |(row & ~pass_next);
            assign ref_n[r_q]  = |(row & (asked_now | sp_now));
            assign offr_n[r_q] = |(row & off_n);
            assign ok_id[r_q]  = !lim_reg[r_q] || (!fail_reg[r_q] && (off_reg[r_q] || !ref_reg[r_q]));
        end
    endgenerate
    always @(posedge clk) begin
        lim_reg  <= lim_n;
        fail_reg <= fail_n;
        ref_reg  <= rst ? {N{1'b0}} : ref_n;   // asked_reg and sp2_reg are cleared too
        off_reg  <= offr_n;
    end
    wire [IDW-1:0] idx = q_id[IDW-1:0];
    assign q_pass = !id_ok || ok_id[idx];

    // ------------------------------------------------------------------ per limiter
    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_lim
            wire [31:0] budget  = budget_d[i*32 +: 32];   // BUDGET at this edge
            wire [31:0] budget1 = cfg_budget[i*32 +: 32]; // ... at the next edge
            wire [31:0] period1 = cfg_period[i*32 +: 32];
            wire        mode1   = cfg_mode[i];

            reg        first_reg;   // this edge is the first of an epoch (R, fresh or ph >= PERIOD)
            // ph (edges since the current epoch's first edge) is never needed itself: the
            // epoch check of the next edge compares ph + 1 there, so ph + 2 is kept here
            reg [31:0] phn1_reg;    // ph + 2
            reg        ge_reg;      // ph + 1 >= PERIOD, registered one edge ahead (timing: F25)
            reg        le1_reg;     // PERIOD <= 1
            reg [31:0] rem_reg;     // remaining budget of the current epoch
            reg        pass_reg;    // this edge's verdict for a query of cost cost_d

            // this edge, per the pseudo-code (with first registered)
            wire [31:0] avail   = first_reg ? budget : rem_reg;
            wire [15:0] my_cost = mode_d[i] ? cost_d : 16'd1;
            // a valid query for it that passes (pass_reg is avail >= my_cost while on; an off
            // limiter spends nothing), and spends if it consumes. The spend is taken off at
            // the next edge (sp_reg), so that q_consume, admission's last decision, only
            // reaches a flip-flop (timing: F25): the remaining budget after edge e is that
            // of the pseudo-code from e+1 on, which is when the next query can use it
            wire        asked   = q_valid && hit[i] && pass_eff && !off_d[i];
            wire        spend   = asked && q_consume;
            reg         sp_reg;        // the query at the previous edge spent ...
            reg  [15:0] sp_cost_reg;   // ... this much (1 in frames mode)
            reg         sp2_reg;       // ... the one before it spent
            reg         asked_reg;     // the query at the previous edge passed
            // contract 2, applied at the output so that the registered verdict needs no term
            // for it (timing: F25): refused after a passing query at the previous edge (its
            // spend was not known in time) or a spend at the one before (taken off only at
            // the previous edge), unless off (pass_reg is 1 then)
            wire        pass_eff = pass_reg && (off_d[i] || !(asked_reg || sp2_reg));
            wire [31:0] rem_next = first_reg ? budget
                                 : sp_reg ? rem_reg - {16'd0, sp_cost_reg} : rem_reg;

            // the next edge: first' = R' or fresh' or ph' >= PERIOD', with fresh' = off now
            // and ph' = ph + 1; the compare ph' >= PERIOD is registered one edge ahead with
            // the PERIOD of that edge, which is PERIOD' as long as PERIOD does not change
            // between values other than 0 without R (the contract above, s5)
            wire        end_next   = first_reg ? le1_reg : ge_reg;
            wire        first_next = rst || cfg_restart[i] || off_d[i] || end_next;
            // the next edge's verdict for the next query (cost c1: p_cost, or 1), for each
            // case, beside the compares; first_next only picks (timing: F25):
            //   a new epoch:        BUDGET' >= c1
            //   the epoch goes on:  avail >= c1 (what is left after this edge)
            wire        off1    = period1 == 32'd0;
            // x >= c1 for each mode beside the other, MODE' picking last (timing: F25, p_cost
            // comes from the classifier): cost 1 is x != 0; p_cost (16 bits) is x[31:16] != 0
            // or x[15:0] >= p_cost, a 16-bit subtraction whose borrow is a carry chain beside
            // the OR of the high bits; only the borrow is used
            /* verilator lint_off UNUSEDSIGNAL */
            wire [16:0] d_b1    = {1'b0, budget1[15:0]} - {1'b0, p_cost};
            wire [16:0] d_r1    = {1'b0, avail[15:0]} - {1'b0, p_cost};
            wire [32:0] d_ph    = {1'b0, phn1_reg} - {1'b0, period1};   // ph + 2 >= PERIOD
            /* verilator lint_on UNUSEDSIGNAL */
            wire        cov_b1  = mode1 ? |budget1[31:16] || !d_b1[16] : |budget1;
            wire        cov_r1  = mode1 ? |avail[31:16] || !d_r1[16] : |avail;

            assign pass_next[i] = off1 || (first_next ? cov_b1 : cov_r1);
            assign asked_now[i] = asked;
            assign sp_now[i]    = sp_reg;
            always @(posedge clk) begin
                pass_reg    <= pass_next[i];
                asked_reg   <= asked;
                sp_reg      <= spend;
                sp2_reg     <= sp_reg;
                sp_cost_reg <= my_cost;
                // the epoch check of the next edge: its ph + 1 (1 + 1 after a first edge)
                // against its PERIOD (a ph held while off is never compared: fresh makes a
                // first edge)
                ge_reg   <= first_reg ? ~|period1[31:2] && ~&period1[1:0] : !d_ph[32];
                le1_reg  <= ~|period1[31:1];
                if (off_d[i]) begin
                    first_reg <= 1'b1;   // fresh: the next edge with PERIOD != 0 opens an epoch
                end else begin
                    first_reg <= first_next;
                    phn1_reg  <= first_reg ? 32'd3 : phn1_reg + 32'd1;
                    rem_reg   <= rem_next;
                end
                if (rst) begin
                    asked_reg <= 1'b0;
                    sp_reg    <= 1'b0;
                    sp2_reg   <= 1'b0;
                    first_reg <= 1'b1;
                    phn1_reg  <= 32'd2;
                    rem_reg   <= 32'd0;
                end
            end
        end
    endgenerate

endmodule

`resetall
