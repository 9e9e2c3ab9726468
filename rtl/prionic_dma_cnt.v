// SPDX-License-Identifier: MIT
//
// prionic_dma_cnt: a down counter of prionic_dma with its zero and one flags kept beside it
// in flip-flops (F25: the DMA's handshake decisions read a flag, never a compare behind
// the count). prionic_dma_write counts with it the AXI words a frame still has to pop,
// the W beats left in a data burst and those left in the write-back.
//
// Ports: ld loads ld_val with its flags ld_nz (ld_val != 0) and ld_one (ld_val == 1), which
// the caller computes beside the value (it knows them from registers a step earlier);
// dec counts down by one. ld wins over dec. Neither: the count holds.
//
// Cycles: q, nz and one change at the edge that samples ld or dec; after a decrement
// nz = !one and one = (q == 2) of the cycle before, so nz == (q != 0) and one == (q == 1)
// hold whenever every load gave consistent flags. No reset: a caller loads before use.
// Implements the counters of docs/frame-path.md section 4.1 (burst lengths, words).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_dma_cnt #(
    parameter W = 16               // count bits, 2..32
) (
    input  wire         clk,
    input  wire         ld,        // load ld_val (and its flags)
    input  wire [W-1:0] ld_val,
    input  wire         ld_nz,     // ld_val != 0
    input  wire         ld_one,    // ld_val == 1
    input  wire         dec,       // count down by one (when not ld)
    output reg  [W-1:0] q,
    output reg          nz,        // q != 0
    output reg          one        // q == 1
);

    localparam [W-1:0] ONE = {{(W-1){1'b0}}, 1'b1};
    localparam [W-1:0] TWO = {{(W-2){1'b0}}, 2'd2};

    always @(posedge clk) begin
        if (ld) begin
            q   <= ld_val;
            nz  <= ld_nz;
            one <= ld_one;
        end else if (dec) begin
            q   <= q - ONE;
            nz  <= !one;
            one <= q == TWO;
        end
    end

endmodule

`resetall
