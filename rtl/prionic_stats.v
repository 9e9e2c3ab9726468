// SPDX-License-Identifier: MIT
//
// prionic_stats: N counters of CNT_WIDTH bits in block RAM (F13, F25; docs/stats.md), the
// way Corundum's statistics collector keeps them: each counter has an increment port and a
// small accumulator in flip-flops; a scan adds one accumulator a slot into the RAM with a
// read-modify-write, and the host reads a counter from the RAM. Flip-flops per counter:
// ACC bits, not CNT_WIDTH bits and a CNT_WIDTH-bit adder.
//
// Slots: the edges alternate, starting with a scan slot at the first edge after reset.
//   scan slot s        read RAM word p (p = 0, 1, .., N-1, 0, ..); take accumulator p (its
//                      value before s; p's increment at s starts the next round)
//   s+1, s+2, s+3      register the word; add the accumulator's low half with its carry;
//                      the high half (F25: the RAM's output and a 64-bit carry chain each
//                      get a cycle)
//   s+4 (a scan slot)  write the sum to word p
//   host slot h        read the RAM word of the host's request (the other edges)
//   h+2                rd_data registered, rd_done high the cycle after h+2
// A request taken at edge t (rd_req while !rd_busy) is read at h = t on a host slot, else
// at h = t + 1; rd_busy is high from t to h+2. A write never meets a read of its word: writes
// fall on scan slots, whose read is two words on (N >= 3), and host reads on the others.
// A counter's accumulator is taken every 2N edges, so it holds at most 2N increments:
// ACC = INC_WIDTH + clog2(2N) bits never wrap. Counters wrap at 2^CNT_WIDTH.
//
// Reset (rst high at an edge): the accumulators and the pipeline empty, the increments of
// that edge are dropped; the first scan round writes each word as 0 plus its accumulator
// (the RAM needs no clear of its own). Until its last write lands (ready high), host reads
// answer 0. A counter read returns the RAM's word: every increment up to its last take,
// at most 2N + 4 edges old.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_stats #(
    parameter N         = 16,   // counters, 3..1024
    parameter INC_WIDTH = 16,   // increment amount bits, 1..32
    parameter CNT_WIDTH = 64    // counter bits, 34..64 (the sum is split after bit 31)
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [N-1:0]             inc,       // counter i counts up by inc_amt[i] at this edge
    input  wire [N*INC_WIDTH-1:0]   inc_amt,

    input  wire                     rd_req,    // taken while !rd_busy
    input  wire [$clog2(N)-1:0]     rd_addr,   // counter index, < N
    output wire                     rd_busy,
    output reg                      rd_done,   // high for one cycle: rd_data is the counter
    output reg  [CNT_WIDTH-1:0]     rd_data,
    output reg                      ready      // the first scan round after reset has landed
);

    localparam integer AW  = $clog2(N);
    localparam integer ACC = INC_WIDTH + $clog2(2 * N);
    localparam integer HW  = CNT_WIDTH - 32;
    localparam integer LAST_I = N - 1;
    localparam [AW-1:0] LAST = LAST_I[AW-1:0];

    // ------------------------------------------------------------------ slots
    reg          ph_reg;                 // 1: a host slot
    reg [AW-1:0] sp_reg;                 // the next scan's word
    reg          pass1_reg;              // the first round after reset
    wire         scan = !ph_reg;
    wire         sp_last = sp_reg == LAST;

    // ------------------------------------------------------------------ host requests
    reg          pend_reg;               // taken on a scan slot, read at the next edge
    reg [AW-1:0] pend_addr_reg;
    reg          h1_reg, h2_reg;         // the host's word read one / two edges ago
    reg          hz1_reg, hz2_reg;       // ... before ready: answered 0
    wire         take = rd_req && !rd_busy;
    wire         h_read = ph_reg && (pend_reg || take);
    wire [AW-1:0] h_addr = pend_reg ? pend_addr_reg : rd_addr;
    assign rd_busy = pend_reg || h1_reg || h2_reg;

    // ------------------------------------------------------------------ accumulators
    reg  [ACC-1:0] acc_reg [0:N-1];
    wire [ACC-1:0] acc_take = acc_reg[sp_reg];

    // ------------------------------------------------------------------ RAM and pipeline
    reg  [CNT_WIDTH-1:0] mem [0:N-1];
    reg  [CNT_WIDTH-1:0] rd_reg, rd2_reg;   // the RAM's read register; the word one edge on
    reg                  v1_reg, v2_reg, v3_reg, v4_reg;    // a scan's word at each stage
    reg                  f1_reg, f2_reg, f3_reg, f4_reg;    // ... read in the first round
    reg  [AW-1:0]        a1_reg, a2_reg, a3_reg, a4_reg;
    reg  [ACC-1:0]       acc1_reg, acc2_reg;
    reg  [32:0]          lo3_reg;                         // low half of the sum and its carry
    reg  [HW-1:0]        hi3_reg;
    reg  [CNT_WIDTH-1:0] sum4_reg;

    // the word plus the accumulator, split after bit 31 (ACC may be wider than 32 bits: its
    // part above bit 31 joins the high half)
    wire [CNT_WIDTH-1:0] acc2_wide = {{(CNT_WIDTH-ACC){1'b0}}, acc2_reg};
    wire [CNT_WIDTH-1:0] word2 = f2_reg ? {CNT_WIDTH{1'b0}} : rd2_reg;

    always @(posedge clk) begin
        if (v4_reg) begin
            mem[a4_reg] <= sum4_reg;
        end
        rd_reg <= mem[scan ? sp_reg : h_addr];
    end

    integer i;
    always @(posedge clk) begin
        rd2_reg  <= rd_reg;
        // scan pipeline
        v2_reg   <= v1_reg;
        f2_reg   <= f1_reg;
        a2_reg   <= a1_reg;
        acc2_reg <= acc1_reg;
        v3_reg   <= v2_reg;
        f3_reg   <= f2_reg;
        a3_reg   <= a2_reg;
        lo3_reg  <= {1'b0, word2[31:0]} + {1'b0, acc2_wide[31:0]};
        hi3_reg  <= word2[CNT_WIDTH-1:32] + acc2_wide[CNT_WIDTH-1:32];
        v4_reg   <= v3_reg;
        f4_reg   <= f3_reg;
        a4_reg   <= a3_reg;
        sum4_reg <= {hi3_reg + {{(HW-1){1'b0}}, lo3_reg[32]}, lo3_reg[31:0]};
        // host pipeline
        h2_reg   <= h1_reg;
        hz2_reg  <= hz1_reg;
        rd_done  <= h2_reg;
        if (h2_reg && !rst) begin
            rd_data <= hz2_reg ? {CNT_WIDTH{1'b0}} : rd2_reg;
        end

        if (rst) begin
            ph_reg    <= 1'b0;
            sp_reg    <= {AW{1'b0}};
            pass1_reg <= 1'b1;
            ready     <= 1'b0;
            pend_reg  <= 1'b0;
            h1_reg    <= 1'b0;
            h2_reg    <= 1'b0;
            rd_done   <= 1'b0;
            v1_reg    <= 1'b0;
            v2_reg    <= 1'b0;
            v3_reg    <= 1'b0;
            v4_reg    <= 1'b0;
            for (i = 0; i < N; i = i + 1) begin
                acc_reg[i] <= {ACC{1'b0}};
            end
        end else begin
            ph_reg <= !ph_reg;
            for (i = 0; i < N; i = i + 1) begin
                if (scan && sp_reg == i[AW-1:0]) begin
                    acc_reg[i] <= inc[i] ? {{(ACC-INC_WIDTH){1'b0}}, inc_amt[i*INC_WIDTH +: INC_WIDTH]}
                                         : {ACC{1'b0}};
                end else if (inc[i]) begin
                    acc_reg[i] <= acc_reg[i] + {{(ACC-INC_WIDTH){1'b0}}, inc_amt[i*INC_WIDTH +: INC_WIDTH]};
                end
            end
            v1_reg   <= scan;
            f1_reg   <= pass1_reg;
            a1_reg   <= sp_reg;
            acc1_reg <= acc_take;
            if (scan) begin
                sp_reg <= sp_last ? {AW{1'b0}} : sp_reg + {{(AW-1){1'b0}}, 1'b1};
                if (sp_last) begin
                    pass1_reg <= 1'b0;
                end
            end
            if (v4_reg && f4_reg && a4_reg == LAST) begin
                ready <= 1'b1;
            end
            // host: a request on a scan slot waits one edge
            pend_reg <= !ph_reg && take;
            if (take) begin
                pend_addr_reg <= rd_addr;
            end
            h1_reg  <= h_read;
            hz1_reg <= !ready;
        end
    end

    // parameter checks (elaboration)
    generate
        if (N < 3 || N > 1024) begin : g_bad_n
            initial $fatal(1, "prionic_stats: N must be 3..1024");
        end
        if (INC_WIDTH < 1 || INC_WIDTH > 32) begin : g_bad_inc
            initial $fatal(1, "prionic_stats: INC_WIDTH must be 1..32");
        end
        if (CNT_WIDTH < 34 || CNT_WIDTH > 64 || ACC >= CNT_WIDTH) begin : g_bad_cnt
            initial $fatal(1, "prionic_stats: CNT_WIDTH must be 34..64 and wider than an accumulator");
        end
    endgenerate

endmodule

`resetall
