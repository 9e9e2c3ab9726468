// SPDX-License-Identifier: MIT
//
// prionic_axis_widen: packs an 8-bit AXI4-Stream (one byte per beat, from
// prionic_gmii_rx) into DATA_WIDTH-bit words with the tkeep of docs/frame-path.md
// section 1 (F1): all ones on every word but the last, ones from bit 0 up on the last
// (docs/board.md, F29). Byte 0 of the frame goes to lane 0. There is no back-pressure
// on either side: the input beat is always taken and a word is valid for one cycle
// (the next stage, prionic_async_fifo, always takes it). A word is presented one edge
// after its last byte; lanes of a last word that tkeep leaves out hold old bytes.
// DATA_WIDTH = 8 passes every beat through one register.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_axis_widen #(
    parameter DATA_WIDTH = 32,               // output width: 8, 16, 32, 64
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [7:0]            s_axis_tdata,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser
);

    localparam integer LW = KEEP_WIDTH > 1 ? $clog2(KEEP_WIDTH) : 1;
    localparam [KEEP_WIDTH-1:0] LANE0 = 1;

    initial begin
        if (DATA_WIDTH != 8 * KEEP_WIDTH || (KEEP_WIDTH & (KEEP_WIDTH - 1)) != 0) begin
            $error("Error: DATA_WIDTH must be 8 times a power of 2 (instance %m)");
            $finish;
        end
    end

    reg [DATA_WIDTH-1:0] data_reg;
    reg [KEEP_WIDTH-1:0] keep_reg;
    reg                  valid_reg;
    reg                  last_reg;
    reg                  user_reg;
    reg [LW-1:0]         lane_reg;     // the lane the next byte goes to
    reg [KEEP_WIDTH-1:0] fill_reg;     // lanes written of the word being packed, ones from lane 0 up to the next byte's

    wire word_end = s_axis_tlast || fill_reg[KEEP_WIDTH-1];

    integer i;
    always @(posedge clk) begin
        valid_reg <= 1'b0;
        if (s_axis_tvalid) begin
            for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
                if (lane_reg == i[LW-1:0]) begin
                    data_reg[i*8 +: 8] <= s_axis_tdata;
                end
            end
            if (word_end) begin
                valid_reg <= 1'b1;
                keep_reg  <= fill_reg;
                last_reg  <= s_axis_tlast;
                user_reg  <= s_axis_tuser && s_axis_tlast;
                lane_reg  <= {LW{1'b0}};
                fill_reg  <= LANE0;
            end else begin
                lane_reg  <= lane_reg + 1'b1;
                fill_reg  <= (fill_reg << 1) | LANE0;
            end
        end
        if (rst) begin
            valid_reg <= 1'b0;
            lane_reg  <= {LW{1'b0}};
            fill_reg  <= LANE0;
        end
    end

    assign m_axis_tdata  = data_reg;
    assign m_axis_tkeep  = keep_reg;
    assign m_axis_tvalid = valid_reg;
    assign m_axis_tlast  = last_reg;
    assign m_axis_tuser  = user_reg;

endmodule

`resetall
