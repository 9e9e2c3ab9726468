// SPDX-License-Identifier: MIT
//
// prionic_sync_bit: a chain of STAGES flip-flops on clk that brings WIDTH independent
// bits from another clock domain into this one (docs/board.md, F29). Each bit is taken
// on its own: a multi-bit value may only cross here when at most one of its bits changes
// between two samples (a Gray-coded count) or when it is a level held for several
// cycles (a reset). The flops carry ASYNC_REG (vendor tools place the chain close
// together and time it as a synchronizer) and keep; the CDC check of make test
// (tests/test_cdc.py) accepts a crossing only into the first flop of an instance of
// this module (or of prionic_sync_count, which crosses through it).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_sync_bit #(
    parameter WIDTH  = 1,                 // bits, each synchronized on its own
    parameter STAGES = 2,                 // flip-flops in the chain: 2 or more
    parameter [WIDTH-1:0] RESET_VALUE = {WIDTH{1'b0}}
) (
    input  wire             clk,          // the destination clock
    input  wire             rst,          // synchronous to clk; tie to 0 for a reset synchronizer
    input  wire [WIDTH-1:0] d,            // from a flip-flop of the other domain
    output wire [WIDTH-1:0] q
);

    initial begin
        if (STAGES < 2) begin
            $error("Error: STAGES must be at least 2 (instance %m)");
            $finish;
        end
    end

    (* ASYNC_REG = "TRUE", keep = "true" *) reg [WIDTH*STAGES-1:0] chain_reg;

    always @(posedge clk) begin
        chain_reg <= {chain_reg[WIDTH*(STAGES-1)-1:0], d};
        if (rst) begin
            chain_reg <= {STAGES{RESET_VALUE}};
        end
    end

    assign q = chain_reg[WIDTH*STAGES-1 -: WIDTH];

endmodule

`resetall
