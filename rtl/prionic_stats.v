// SPDX-License-Identifier: MIT
//
// prionic_stats: N counters of CNT_WIDTH bits in block RAM (F13, F25; docs/stats.md), the
// way Corundum's statistics collector keeps them: each counter has an increment port and a
// small accumulator in flip-flops; a scan adds one accumulator an edge into the RAM with a
// read-modify-write, and the host reads a counter through that scan. Flip-flops per counter:
// ACC bits, not CNT_WIDTH bits and a CNT_WIDTH-bit adder.
//
// The increments are registered first: an accumulator adds the increment of edge e at e+1.
// The scan runs at every edge; edge k (the first edge with rst low is edge 0) takes counter
// p = k mod N:
//   s        read RAM word p (the RAM's output register); take accumulator p (its value
//            before s goes down the pipeline: p's increments up to edge s-2; p's increment
//            of edge s-1, or 0, is its new value)
//   s+1      register the word again
//   s+2      the low 32 bits of word plus accumulator, with their carry (high bits without)
//   s+3      the high bits plus the carry: the sum (F25: the RAM's output and a 64-bit carry
//            chain each get a cycle)
//   s+4      write the sum to word p
// The takes at edges 0..N-1 (the first round after reset) add 0 in place of the word, so the
// RAM needs no clear. Word p is read again at s+N >= s+5, after the write; the read at s+4 is
// another word (N >= 5): one read port, one write port, never the same word at one edge.
// An accumulator is taken every N edges, so it holds at most N increments: ACC = INC_WIDTH +
// clog2(N) bits never wrap. Counters wrap at 2^CNT_WIDTH.
//
// Host read: a request taken at edge t (rd_req while !rd_busy, rd_addr < N; others are
// ignored) for counter a is answered by the scan with the counter's value at t (every
// increment of a at edges before t): s is the first edge after t that takes a (t+1..t+N);
// that take's sum less a's increments at edges t..s-2 (counted in d_reg) is loaded into
// rd_data at s+3, and rd_done is high after s+4. rd_busy is high after t up to edge s+4: the
// next request is taken at s+5 at the earliest.
//
// Reset (rst high at an edge): the accumulators and the pipeline empty, the increments and a
// request at that edge are dropped, a taken read is never answered (rd_busy, rd_done low).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_stats #(
    parameter N         = 16,   // counters, 5..1024
    parameter INC_WIDTH = 16,   // increment amount bits, 1..32
    parameter CNT_WIDTH = 64    // counter bits, 34..64 (the sum is split after bit 31)
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [N-1:0]             inc,       // counter i counts up by inc_amt[i] at this edge
    input  wire [N*INC_WIDTH-1:0]   inc_amt,

    input  wire                     rd_req,    // taken while !rd_busy (and rd_addr < N)
    input  wire [$clog2(N)-1:0]     rd_addr,   // counter index
    output wire                     rd_busy,
    output reg                      rd_done,   // high for one cycle: rd_data is the counter
    output reg  [CNT_WIDTH-1:0]     rd_data
);

    localparam integer AW  = $clog2(N);
    localparam integer ACC = INC_WIDTH + $clog2(N);
    localparam integer HW  = CNT_WIDTH - 32;
    localparam integer ACC_PAD = CNT_WIDTH > ACC ? CNT_WIDTH - ACC : 1;  // 1: the $fatal below
    localparam integer LAST_I = N - 1;
    localparam [AW-1:0] LAST = LAST_I[AW-1:0];

    // ------------------------------------------------------------------ scan
    reg [AW-1:0] sp_reg;                 // the counter this edge takes: k mod N
    reg          pass1_reg;              // ... in the first round after reset
    wire         sp_last = sp_reg == LAST;

    // ------------------------------------------------------------------ host requests
    reg          busy_reg;               // a read taken, not yet answered
    reg [AW-1:0] addr_reg;               // ... its counter
    wire         addr_ok;                // rd_addr names a counter
    wire         take = rd_req && !busy_reg && addr_ok;
    reg          wait_reg;               // ... its counter not yet taken (t < edge <= s)
    // this edge's take answers the read: the first take of its counter after t
    wire         hit = wait_reg && sp_reg == addr_reg;
    assign rd_busy = busy_reg;

    generate
        if (N == (1 << AW)) begin : g_addr_all
            assign addr_ok = 1'b1;
        end else begin : g_addr_lt
            localparam [AW-1:0] N_AW = N[AW-1:0];
            assign addr_ok = rd_addr < N_AW;
        end
    endgenerate

    // ------------------------------------------------------------------ accumulators
    reg  [ACC-1:0] acc_reg [0:N-1];
    wire [N*ACC-1:0] acc_flat;            // the accumulators side by side: the take is a mux
    genvar g;                              // tree on sp_reg's bits
    generate
        for (g = 0; g < N; g = g + 1) begin : g_acc_flat
            assign acc_flat[g*ACC +: ACC] = acc_reg[g];
        end
    endgenerate
    wire [ACC-1:0] acc_take = acc_flat[sp_reg*ACC +: ACC];

    // ------------------------------------------------------------------ RAM and pipeline
    // block RAM at every N: yosys would put a few dozen words in LUT RAM (DPR16X4), logic cells
    (* ram_style = "block" *)
    reg  [CNT_WIDTH-1:0] mem [0:N-1];
    reg  [CNT_WIDTH-1:0] rd_reg, rd2_reg;   // the RAM's read register; the word one edge on
    reg                  v1_reg, v2_reg, v3_reg, v4_reg;    // a take at each stage
    reg                  f1_reg, f2_reg;                    // ... in the first round: word 0
    reg                  h1_reg, h2_reg, h3_reg, h4_reg;    // ... that answers the host's read
    reg  [AW-1:0]        a1_reg, a2_reg, a3_reg, a4_reg;
    reg  [ACC-1:0]       acc1_reg, acc2_reg;
    reg  [32:0]          lo3_reg;                         // low half of the sum and its carry
    reg  [HW-1:0]        hi3_reg;
    reg  [CNT_WIDTH-1:0] sum4_reg;

    // the increments, registered: the accumulators add an edge's increments one edge later
    // (F25: the inputs come from all over the NIC and reach no mux or adder the edge they
    // change). The host's answer, the counter at t, is the take's sum less d_reg: the
    // registered increments the accumulator added at edges t+1..s-1 (those of edges t..s-2;
    // at most N of them: ACC bits)
    reg  [N-1:0]           inc_q_reg;
    reg  [N*INC_WIDTH-1:0] amt_q_reg;
    reg  [ACC-1:0]         d_reg;
    reg  [ACC-1:0]         acch2_reg;                       // accumulator less d_reg
    reg  [32:0]            lo3h_reg;
    reg  [HW-1:0]          hi3h_reg;
    wire [INC_WIDTH-1:0]   amtq_a = amt_q_reg[addr_reg*INC_WIDTH +: INC_WIDTH];
    wire [ACC-1:0]         incq_a = inc_q_reg[addr_reg] ? {{(ACC-INC_WIDTH){1'b0}}, amtq_a} : {ACC{1'b0}};
    wire [CNT_WIDTH-1:0]   acch2_wide = {{ACC_PAD{1'b0}}, acch2_reg};

    // the word plus the accumulator, split after bit 31 (ACC may be wider than 32 bits: its
    // part above bit 31 joins the high half)
    wire [CNT_WIDTH-1:0] acc2_wide = {{ACC_PAD{1'b0}}, acc2_reg};
    wire [CNT_WIDTH-1:0] word2 = f2_reg ? {CNT_WIDTH{1'b0}} : rd2_reg;

    // simple dual-port RAM: one write port, one registered read port (never the same word)
    always @(posedge clk) begin
        if (v4_reg) begin
            mem[a4_reg] <= sum4_reg;
        end
        rd_reg <= mem[sp_reg];
    end

    integer i;
    always @(posedge clk) begin
        rd2_reg  <= rd_reg;
        v2_reg   <= v1_reg;
        f2_reg   <= f1_reg;
        h2_reg   <= h1_reg;
        a2_reg   <= a1_reg;
        acc2_reg <= acc1_reg;
        v3_reg   <= v2_reg;
        h3_reg   <= h2_reg;
        a3_reg   <= a2_reg;
        lo3_reg  <= {1'b0, word2[31:0]} + {1'b0, acc2_wide[31:0]};
        hi3_reg  <= word2[CNT_WIDTH-1:32] + acc2_wide[CNT_WIDTH-1:32];
        // the host's answer beside the sum: word + (accumulator - d_reg), loaded at s+3
        inc_q_reg <= rst ? {N{1'b0}} : inc;   // a reset edge's increments are dropped
        amt_q_reg <= inc_amt;
        acch2_reg <= acc1_reg - d_reg;
        lo3h_reg  <= {1'b0, word2[31:0]} + {1'b0, acch2_wide[31:0]};
        hi3h_reg  <= word2[CNT_WIDTH-1:32] + acch2_wide[CNT_WIDTH-1:32];
        if (h3_reg) begin
            rd_data <= {hi3h_reg + {{(HW-1){1'b0}}, lo3h_reg[32]}, lo3h_reg[31:0]};
        end
        v4_reg   <= v3_reg;
        h4_reg   <= h3_reg;
        a4_reg   <= a3_reg;
        sum4_reg <= {hi3_reg + {{(HW-1){1'b0}}, lo3_reg[32]}, lo3_reg[31:0]};
        rd_done  <= h4_reg;

        if (rst) begin
            sp_reg    <= {AW{1'b0}};
            pass1_reg <= 1'b1;
            busy_reg  <= 1'b0;
            wait_reg  <= 1'b0;
            v1_reg    <= 1'b0;
            v2_reg    <= 1'b0;
            v3_reg    <= 1'b0;
            v4_reg    <= 1'b0;
            h1_reg    <= 1'b0;
            h2_reg    <= 1'b0;
            h3_reg    <= 1'b0;
            h4_reg    <= 1'b0;
            rd_done   <= 1'b0;
            for (i = 0; i < N; i = i + 1) begin
                acc_reg[i] <= {ACC{1'b0}};
            end
        end else begin
            // the take: accumulator sp_reg starts again from this edge's increment
            for (i = 0; i < N; i = i + 1) begin
                if (sp_reg == i[AW-1:0]) begin
                    acc_reg[i] <= inc_q_reg[i] ? {{(ACC-INC_WIDTH){1'b0}}, amt_q_reg[i*INC_WIDTH +: INC_WIDTH]}
                                         : {ACC{1'b0}};
                end else if (inc_q_reg[i]) begin
                    acc_reg[i] <= acc_reg[i] + {{(ACC-INC_WIDTH){1'b0}}, amt_q_reg[i*INC_WIDTH +: INC_WIDTH]};
                end
            end
            v1_reg   <= 1'b1;
            f1_reg   <= pass1_reg;
            h1_reg   <= hit;
            a1_reg   <= sp_reg;
            acc1_reg <= acc_take;
            sp_reg   <= sp_last ? {AW{1'b0}} : sp_reg + {{(AW-1){1'b0}}, 1'b1};
            if (sp_last) begin
                pass1_reg <= 1'b0;
            end
            // host: taken at t, its take at s (hit), answered at s+4
            if (take) begin
                d_reg <= {ACC{1'b0}};
            end else if (wait_reg && !hit) begin
                d_reg <= d_reg + incq_a;
            end
            if (hit) begin
                wait_reg <= 1'b0;
            end
            if (h4_reg) begin
                busy_reg <= 1'b0;
            end
            if (take) begin
                busy_reg <= 1'b1;
                wait_reg <= 1'b1;
                addr_reg <= rd_addr;
            end
        end
    end

    // parameter checks (elaboration)
    generate
        if (N < 5 || N > 1024) begin : g_bad_n
            initial $fatal(1, "prionic_stats: N must be 5..1024");
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
