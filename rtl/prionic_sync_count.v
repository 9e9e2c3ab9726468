// SPDX-License-Identifier: MIT
//
// prionic_sync_count: carries event pulses from one clock domain to another without
// losing any (docs/board.md, F29). The source side counts its pulses (s_pulse, at most
// one per s_clk cycle) in a WIDTH-bit Gray code; the code crosses through
// prionic_sync_bit; the destination side emits one m_pulse per m_clk cycle until it has
// emitted as many as were counted. Pulses are never lost as long as fewer than
// 2^(WIDTH-1) are outstanding (counted but not yet emitted); the default WIDTH of 4
// covers 7, more than a frame-rate event can pile up between two samples.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_sync_count #(
    parameter WIDTH  = 4,    // Gray counter bits (2 or more)
    parameter STAGES = 2     // synchronizer flip-flops
) (
    input  wire s_clk,
    input  wire s_rst,       // synchronous to s_clk
    input  wire s_pulse,     // one event per cycle high
    input  wire m_clk,
    input  wire m_rst,       // synchronous to m_clk; assert with s_rst (both sides restart at 0)
    output wire m_pulse      // one per event, in m_clk cycles
);

    function [WIDTH-1:0] bin2gray;
        input [WIDTH-1:0] b;
        begin
            bin2gray = b ^ (b >> 1);
        end
    endfunction

    // bit i is the XOR of the Gray bits from i up: a balanced tree per bit, not a chain
    function [WIDTH-1:0] gray2bin;
        input [WIDTH-1:0] g;
        integer i;
        begin
            for (i = 0; i < WIDTH; i = i + 1) begin
                gray2bin[i] = ^(g >> i);
            end
        end
    endfunction

    // source: binary count and its Gray code, both registers
    reg [WIDTH-1:0] s_count_reg;
    reg [WIDTH-1:0] s_gray_reg;
    always @(posedge s_clk) begin
        if (s_pulse) begin
            s_count_reg <= s_count_reg + 1'b1;
            s_gray_reg  <= bin2gray(s_count_reg + 1'b1);
        end
        if (s_rst) begin
            s_count_reg <= {WIDTH{1'b0}};
            s_gray_reg  <= {WIDTH{1'b0}};
        end
    end

    wire [WIDTH-1:0] m_gray;
    prionic_sync_bit #(
        .WIDTH(WIDTH),
        .STAGES(STAGES)
    ) sync_inst (
        .clk(m_clk),
        .rst(m_rst),
        .d(s_gray_reg),
        .q(m_gray)
    );

    // destination: the synchronized count (registered after the Gray decode) against the
    // count emitted so far
    reg [WIDTH-1:0] m_seen_reg;
    reg [WIDTH-1:0] m_done_reg;
    reg             m_pulse_reg;
    always @(posedge m_clk) begin
        m_seen_reg  <= gray2bin(m_gray);
        m_pulse_reg <= 1'b0;
        if (m_seen_reg != m_done_reg) begin
            m_done_reg  <= m_done_reg + 1'b1;
            m_pulse_reg <= 1'b1;
        end
        if (m_rst) begin
            m_seen_reg  <= {WIDTH{1'b0}};
            m_done_reg  <= {WIDTH{1'b0}};
            m_pulse_reg <= 1'b0;
        end
    end

    assign m_pulse = m_pulse_reg;

endmodule

`resetall
