// SPDX-License-Identifier: MIT
//
// prionic_flowhash: the flow cache index of a flow key (F8, docs/frame-path.md s3.1): the
// key XOR-folded into log2(ENTRIES) bits, key bit b landing on index bit b mod log2(ENTRIES).
// Combinational. The classifier computes it as a parse result arrives and keeps it with the
// result, so that the lookup's take edge registers a ready index (F25).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_flowhash #(
    parameter KEY_WIDTH = 139,
    parameter IW        = 4      // index bits: log2 of the cache entries (1..8)
) (
    input  wire [KEY_WIDTH-1:0] l_key,   // the flow key (any bit vector: folded bit by bit)
    output wire [IW-1:0]        l_idx
);

    initial begin
        if (IW < 1 || IW > 8) begin
            $error("Error: IW must be 1..8 (instance %m)");
            $finish;
        end
    end

    reg [IW-1:0] fold;
    integer b;
    always @* begin
        fold = {IW{1'b0}};
        for (b = 0; b < KEY_WIDTH; b = b + 1) begin
            fold[b % IW] = fold[b % IW] ^ l_key[b];
        end
    end
    assign l_idx = fold;

endmodule

`resetall
