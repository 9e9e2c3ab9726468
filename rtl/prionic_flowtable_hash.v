// SPDX-License-Identifier: MIT
//
// prionic_flowtable_hash: a flow key's set in one bank of the flow table (F31,
// docs/flowtable.md s1): an H3 hash, the XOR over the key bits i that are 1 of row R(i), the
// top log2(SETS) bits of lowbias32(BANK * 256 + i + 1). Combinational; the rows are constants, so
// each index bit is an XOR of about half the key bits. The classifier computes the sets as a
// parse result arrives and keeps them with it, so that the take edge registers ready sets (F25).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_flowtable_hash #(
    parameter KEY_WIDTH = 139,   // 1..256
    parameter IW        = 9,     // set bits: log2(SETS), 1..10
    parameter BANK      = 0      // 0 or 1
) (
    input  wire [KEY_WIDTH-1:0] l_key,   // any bit vector: hashed bit by bit
    output wire [IW-1:0]        set
);

    initial begin
        if (KEY_WIDTH < 1 || KEY_WIDTH > 256 || IW < 1 || IW > 10 || BANK < 0 || BANK > 1) begin
            $error("Error: KEY_WIDTH must be 1..256, IW 1..10, BANK 0 or 1 (instance %m)");
            $finish;
        end
    end

    // R(i): the top IW bits of lowbias32(BANK * 256 + i + 1); every row, a constant
    function [KEY_WIDTH*IW-1:0] rows_of(input integer bank);
        reg [31:0] x;
        integer r;
        begin
            rows_of = {(KEY_WIDTH*IW){1'b0}};
            for (r = 0; r < KEY_WIDTH; r = r + 1) begin
                x = bank * 256 + r + 1;
                x = x ^ (x >> 16);
                x = x * 32'h7feb352d;
                x = x ^ (x >> 15);
                x = x * 32'h846ca68b;
                x = x ^ (x >> 16);
                rows_of[r*IW +: IW] = x[31 -: IW];
            end
        end
    endfunction
    localparam [KEY_WIDTH*IW-1:0] ROWS = rows_of(BANK);

    reg [IW-1:0] h;
    integer i;
    always @* begin
        h = {IW{1'b0}};
        for (i = 0; i < KEY_WIDTH; i = i + 1) begin
            h = h ^ (ROWS[i*IW +: IW] & {IW{l_key[i]}});
        end
    end
    assign set = h;

endmodule

`resetall
