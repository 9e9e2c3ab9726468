// SPDX-License-Identifier: MIT
//
// IDDRX1F: behavioural model of the ECP5 input DDR register (x1 gearing), for the test of
// the LiteX RGMII receiver (tests/test_soc.py, soc/core.py) only. From Lattice's description
// of the primitive (ECP5 and ECP5-5G High-Speed I/O Interface, generic DDR input): D is
// sampled at every rising and every falling edge of SCLK; at each rising edge Q0 takes the
// value sampled at the previous rising edge and Q1 the value sampled at the falling edge
// after it (a pair, one SCLK cycle after its first half). RST is not modelled (tied low by
// LiteX). The device's own model and its delays are not reproduced: simulation model, not
// for synthesis (synthesis maps IDDRX1F to the device's IOLOGIC).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module IDDRX1F (
    input  wire D,
    input  wire SCLK,
    input  wire RST,
    output reg  Q0,
    output reg  Q1
);
    reg rise;
    reg fall;
    initial begin  // the device's registers start at 0 after configuration
        rise = 1'b0;
        fall = 1'b0;
        Q0   = 1'b0;
        Q1   = 1'b0;
    end
    always @(posedge SCLK) begin
        rise <= D;
        Q0   <= rise;
        Q1   <= fall;
    end
    always @(negedge SCLK) fall <= D;

    wire unused = RST;
endmodule

`resetall
