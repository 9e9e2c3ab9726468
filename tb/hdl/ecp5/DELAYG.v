// SPDX-License-Identifier: MIT
//
// DELAYG: model of the ECP5 static input delay, for the test of the LiteX RGMII receiver
// (tests/test_soc.py) only. The device delays A by DEL_VALUE taps of about 25 ps; in a
// zero-delay simulation the test bench places the data half a clock away from the edge
// that samples it (as an RGMII PHY with its clock delayed does), so Z is A. Simulation
// model, not for synthesis.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

// the delay's parameters matter on the device only
/* verilator lint_off UNUSEDPARAM */
module DELAYG #(
    parameter DEL_MODE  = "SCLK_ALIGNED",
    parameter DEL_VALUE = 0
) (
    input  wire A,
    output wire Z
);
    assign Z = A;
endmodule
/* verilator lint_on UNUSEDPARAM */

`resetall
