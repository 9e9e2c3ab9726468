// SPDX-License-Identifier: MIT
//
// prionic_limiter: NUM_LIMITERS per-rule rate limiters, each a deferrable server (F9).
// Time is cut into epochs of cfg_period edges; at the first edge of every epoch the
// remaining budget is set to cfg_budget (unused budget is lost). A query (q_id, q_cost)
// passes while the remaining budget covers its cost (1 per frame, or q_cost bytes in
// bytes mode); a passing valid query with q_consume spends it. cfg_period == 0 turns a
// limiter off: every query passes. cfg_restart[i] starts a new epoch at the edge that
// samples it (the top pulses it at w+1 after a write at w); the first epoch after reset
// starts at edge 0. The exact semantics are the pseudo-code of docs/limiter.md section 4,
// which this file follows line by line.
//
// Contract: cfg_period is taken with cfg_restart. A change of limiter i's PERIOD from one
// value other than 0 to another must be sampled together with cfg_restart[i] (the top
// always does this: every RULE_LIM_PERIOD write pulses the restart at w+1, when the new
// value is seen). Changes from or to 0, and BUDGET and MODE changes, need no restart. The
// epoch check is registered one edge ahead with the PERIOD of that edge; without the
// restart the edge of such a change would still be checked against the old PERIOD
// (docs/limiter.md s5).
//
// Latency: q_pass is combinational from the query inputs of this cycle and the state
// left by the previous edge; the edge that samples the query also spends its cost. The
// verdict of a query at edge e therefore reflects every query at edges < e.
// Each limiter compares and subtracts the query's cost against both its candidate budgets
// (a new epoch's BUDGET and what is left) beside the epoch check, so the query only picks
// (timing: F25); one query per cycle.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_limiter #(
    parameter NUM_LIMITERS = 4   // rate limiters (1..64; the top has one per rule)
) (
    input  wire                       clk,
    input  wire                       rst,

    input  wire [NUM_LIMITERS*32-1:0] cfg_budget,   // BUDGET per limiter (frames or bytes)
    input  wire [NUM_LIMITERS*32-1:0] cfg_period,   // PERIOD per limiter in edges, 0 = off
    input  wire [NUM_LIMITERS-1:0]    cfg_mode,     // 0 = frames (cost 1), 1 = bytes (cost q_cost)
    input  wire [NUM_LIMITERS-1:0]    cfg_restart,  // one-cycle pulses: an epoch starts here

    input  wire                       q_valid,      // a query this cycle
    input  wire [7:0]                 q_id,         // limiter; >= NUM_LIMITERS: none (passes)
    input  wire [15:0]                q_cost,       // frame length in bytes
    input  wire                       q_consume,    // a passing valid query spends its cost
    output wire                       q_pass        // verdict of limiter q_id (combinational)
);

    initial begin
        if (NUM_LIMITERS < 1 || NUM_LIMITERS > 64) begin
            $error("Error: NUM_LIMITERS must be 1..64 (instance %m)");
            $finish;
        end
    end

    // per limiter: the values the pseudo-code derives at this edge
    wire [NUM_LIMITERS-1:0]    hit;     // q_id == i
    wire [NUM_LIMITERS-1:0]    off;     // PERIOD == 0
    // hit & (off | cov), cov = avail >= the query's cost, split in two (timing: F25): the
    // part without a carry chain (frames mode: avail != 0; bytes mode: avail's high half
    // != 0), and bytes mode's compare of avail's low half with q_cost (both candidates
    // compared beside the epoch check, which picks right after the chains)
    wire [NUM_LIMITERS-1:0]    pass_early;
    wire [NUM_LIMITERS-1:0]    pass_late;

    // ------------------------------------------------------------------ the query
    // select the asked limiter (each compared its own budget with the cost already) with a
    // one-hot AND-OR (timing: F25); a q_id >= NUM_LIMITERS selects nothing and looks like
    // an off limiter: it passes
    wire        pass     = ~|hit || |pass_early || |pass_late;   // off (or no limiter), or enough left

    assign q_pass = pass;

    // ------------------------------------------------------------------ per limiter
    // Timing (F25): a limiter spends only on its own hit, so each decides its spend from
    // its own compares (no select over the limiters on the way to rem), and both of its
    // candidates (a new epoch's BUDGET, what is left) are compared with the cost and have
    // the cost taken off beside the epoch check `ph >= PERIOD`, which only picks.
    genvar i;
    generate
        for (i = 0; i < NUM_LIMITERS; i = i + 1) begin : g_lim
            wire [31:0] budget = cfg_budget[i*32 +: 32];
            wire [31:0] period = cfg_period[i*32 +: 32];

            reg        fresh_reg;   // reset or off: the next edge with PERIOD != 0 opens an epoch
            reg [31:0] phn_reg;     // ph + 1: ph is the edges since the current epoch's first
                                    // edge (docs/limiter.md s4); ph itself is never needed
            reg        end_reg;     // ph >= PERIOD, computed one edge ahead (see below)
            reg [31:0] rem_reg;     // remaining budget of the current epoch

            // The epoch check `ph >= PERIOD` is a flag registered at the edge before from the
            // next-state phase (ph' = 1 on a first edge, else ph + 1) and the PERIOD of that
            // edge (timing: F25, no carry chain between ph and the picks). That is the
            // pseudo-code's compare as long as PERIOD is unchanged from one edge to the next,
            // and a change comes with R (first regardless) or is from 0 (fresh: first
            // regardless) or to 0 (off, combinational): cfg_period is taken with cfg_restart.
            wire        first = cfg_restart[i] || fresh_reg || end_reg;
            wire        end_next = first ? ~|period[31:1]      // ph' = 1 >= PERIOD
                                         : phn_reg >= period;  // ph' = ph + 1 >= PERIOD

            assign hit[i]             = q_id == i;
            assign off[i]             = period == 32'd0;
            // the cost as this limiter's mode counts it, compared with both candidates; the
            // mode picks after the compares (timing: F25): bytes mode compares the 16-bit
            // cost with the low half (a high half other than 0 covers any cost), frames
            // mode (cost 1) needs a candidate other than 0
            wire [31:0] my_cost       = cfg_mode[i] ? {16'd0, q_cost} : 32'd1;
            // without a chain: frames mode avail != 0, bytes mode avail[31:16] != 0
            wire        nz_budget     = cfg_mode[i] ? |budget[31:16] : |budget;
            wire        nz_rem        = cfg_mode[i] ? |rem_reg[31:16] : |rem_reg;
            // bytes mode: the low half covers the cost
            wire        ge_budget     = budget[15:0] >= q_cost;
            wire        ge_rem        = rem_reg[15:0] >= q_cost;
            wire        cov_budget    = nz_budget || (cfg_mode[i] && ge_budget);
            wire        cov_rem       = nz_rem || (cfg_mode[i] && ge_rem);
            // hit & (off | (first ? cov_budget : cov_rem)), the chains' part apart
            assign pass_early[i]      = hit[i] && (off[i] || (first ? nz_budget : nz_rem));
            assign pass_late[i]       = hit[i] && cfg_mode[i] && (first ? ge_budget : ge_rem);
            // this limiter spends: a valid consuming query for it that its candidate covers
            wire        spend         = q_valid && q_consume && hit[i];
            // the next rem for either candidate, spent or not; the epoch check picks one,
            // the spend (late: the query's id and consume) picks last
            wire [31:0] rem_kept      = first ? budget : rem_reg;
            wire [31:0] rem_spent     = first ? (cov_budget ? budget - my_cost : budget)
                                              : (cov_rem ? rem_reg - my_cost : rem_reg);

            always @(posedge clk) begin
                if (off[i]) begin
                    fresh_reg <= 1'b1;
                end else begin
                    fresh_reg <= 1'b0;
                    // ph' = 1 on a first edge, else ph + 1 (phase < PERIOD: never wraps where
                    // it is used; a first edge does not use phn_reg)
                    phn_reg   <= first ? 32'd2 : phn_reg + 32'd1;
                    end_reg   <= end_next;
                    rem_reg   <= spend ? rem_spent : rem_kept;
                end
                if (rst) begin
                    fresh_reg <= 1'b1;
                    phn_reg   <= 32'd1;   // ph = 0
                    end_reg   <= 1'b0;
                    rem_reg   <= 32'd0;
                end
            end
        end
    endgenerate

endmodule

`resetall
