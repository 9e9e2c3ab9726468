// SPDX-License-Identifier: MIT
//
// prionic_fifo: synchronous first-word-fall-through FIFO, 2**ADDR_WIDTH entries of
// WIDTH bits. m_data shows the oldest entry while m_valid is high; it is popped on the
// m_valid && m_ready edge. s_ready is low only when full. Write-to-read latency: one
// cycle (an entry written at edge k is visible at m_data after edge k). Pointers carry
// an extra MSB to tell full from empty. status_count is the occupancy.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_fifo #(
    parameter WIDTH      = 32,  // entry width in bits
    parameter ADDR_WIDTH = 4    // log2 of the depth
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [WIDTH-1:0]      s_data,
    input  wire                  s_valid,
    output wire                  s_ready,

    output wire [WIDTH-1:0]      m_data,
    output wire                  m_valid,
    input  wire                  m_ready,

    output wire [ADDR_WIDTH:0]   status_count
);

    initial begin
        if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16) begin
            $error("Error: ADDR_WIDTH must be 1..16 (instance %m)");
            $finish;
        end
    end

    reg [WIDTH-1:0] mem [0:(1 << ADDR_WIDTH)-1];

    reg [ADDR_WIDTH:0] wr_ptr_reg;
    reg [ADDR_WIDTH:0] rd_ptr_reg;

    wire full  = (wr_ptr_reg[ADDR_WIDTH] != rd_ptr_reg[ADDR_WIDTH]) &&
                 (wr_ptr_reg[ADDR_WIDTH-1:0] == rd_ptr_reg[ADDR_WIDTH-1:0]);
    wire empty = wr_ptr_reg == rd_ptr_reg;

    assign s_ready      = !full;
    assign m_valid      = !empty;
    assign m_data       = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
    assign status_count = wr_ptr_reg - rd_ptr_reg;

    always @(posedge clk) begin
        if (s_valid && !full) begin
            mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= s_data;
            wr_ptr_reg <= wr_ptr_reg + 1'b1;
        end
        if (m_ready && !empty) begin
            rd_ptr_reg <= rd_ptr_reg + 1'b1;
        end
        if (rst) begin
            wr_ptr_reg <= 0;
            rd_ptr_reg <= 0;
        end
    end

endmodule

`resetall
