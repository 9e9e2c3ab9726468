// SPDX-License-Identifier: MIT
//
// prionic_tb_fast: the testbench top of the fast co-simulation path (F26,
// docs/fastpath.md). prionic_rx with an HDL frame player, host memory and event recorder
// (prionic_tb_nic, shared with the full-system top) and an HDL AXI4-Lite master fed by
// Python (prionic_tb_axil_master): nothing wakes Python per cycle. The clock is generated
// here (no simulator-to-Python callback per edge; Verilator builds this top with --timing). Python drives `rst`, `go`,
// `finish`, the command counters and `run_prio`, and is woken only by the irq lines,
// by response counters and by coarse timers (tb/fast/fastpath.py).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_tb_fast #(
    parameter DATA_WIDTH       = 32,
    parameter AXI_DATA_WIDTH   = 2 * DATA_WIDTH, // the DUT's DMA bus, as prionic_rx's default (F25)
    parameter NUM_QUEUES       = 2,
    parameter NUM_RULES        = 4,
    parameter RULES_PER_CYCLE  = 0,
    parameter FLOW_ENTRIES     = 16,
    parameter FLOW_TS_SHIFT    = 14,
    parameter FLOW_TABLE_SETS  = 0,              // flow table (F31): needs FLOW_ENTRIES 0
    parameter MIN_IDLE         = 1,            // player: idle cycles between frames
    parameter B_LATENCY        = 2,            // host memory: last W to B
    parameter R_LATENCY        = 2,            // host memory: AR to first R
    parameter STALL_PERCENT    = 0,            // host memory: random stalls
    parameter AW_WAITS_FOR_W   = 0,            // host memory: AWREADY only after the burst's first W beat
    parameter MEM_BYTES        = 8 * 1024 * 1024,
    parameter CLK_PERIOD_NS    = 8             // tb.common.PERIOD_NS (125 MHz)
) (
    output reg         clk,                    // low from time 0, first rising edge at half a period
    input  wire        rst,
    input  wire        go,                     // start playing frames
    input  wire        finish,                 // close the event record
    input  wire [31:0] wq_count,               // register writes queued by Python
    input  wire [31:0] rq_count,               // register reads queued by Python
    input  wire [7:0]  run_prio,               // the run_prio port of the DUT (F16)
    input  wire [63:0] alarm,                  // Python's next edge to act after

    output reg         wake,                   // toggles at the falling edge after edge `alarm`
                                               // and after every edge that changes irq
    output wire [63:0] cycle,                  // edge number + 1 (cyc) for Python

    output wire [NUM_QUEUES-1:0] irq,          // the DUT's interrupt lines (Python waits on them)
    output wire [31:0] status_played,          // frames the player has sent
    output wire        status_done,            // the player has sent every frame
    output wire [31:0] status_b,               // register write responses
    output wire [31:0] status_r,               // register read responses
    output wire [31:0] status_rdata,           // data of the last register read
    output wire [31:0] status_verdicts,        // stat_verdict pulses
    output wire [31:0] status_accepted,        // ... of accepted frames
    output wire [31:0] status_completions      // write-back B responses
);

    localparam integer AXIL_ADDR_WIDTH = 16;

    // the clock, as cocotb's Clock(start_high=False) would drive it
    initial clk = 1'b0;
    always #(CLK_PERIOD_NS / 2) clk = !clk;

    // edge number: inside the block of edge k, cyc == k (edge 0: the first with rst low)
    reg [63:0] cyc;
    always @(posedge clk) begin
        if (rst) begin
            cyc <= 64'd0;
        end else begin
            cyc <= cyc + 64'd1;
        end
    end

    // Python sleeps on `wake` alone (one trigger per wake-up, no timer): at the falling
    // edge after edge m, cyc == m + 1, and irq_seen holds irq as it was after edge m - 1
    reg [NUM_QUEUES-1:0] irq_seen;
    always @(negedge clk) begin
        if (rst) begin
            wake <= 1'b0;
            irq_seen <= {NUM_QUEUES{1'b0}};
        end else begin
            irq_seen <= irq;
            if (irq != irq_seen || cyc == alarm + 64'd1) begin
                wake <= !wake;
            end
        end
    end
    assign cycle = cyc;

    // the register bus, named as the NIC's ports (rtl/prionic_axi.vh)
    `PRIONIC_AXIL_WIRES(AXIL_ADDR_WIDTH)
    assign s_axil_awprot = 3'd0;
    assign s_axil_arprot = 3'd0;
    wire                       irq_err;            // F24: recorded; no fault is injected on the fast path
    wire [31:0]                cpu_rdata_unused;   // the memory's CPU port (the full-system top's)

    // responses are always OKAY here (the memory injects no error on the fast path)
    wire unused = &{1'b0, s_axil_bresp, s_axil_rresp, irq_err, cpu_rdata_unused};

    prionic_tb_nic #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .NUM_RULES(NUM_RULES),
        .RULES_PER_CYCLE(RULES_PER_CYCLE),
        .FLOW_ENTRIES(FLOW_ENTRIES),
        .FLOW_TS_SHIFT(FLOW_TS_SHIFT),
        .FLOW_TABLE_SETS(FLOW_TABLE_SETS),
        .MIN_IDLE(MIN_IDLE),
        .B_LATENCY(B_LATENCY),
        .R_LATENCY(R_LATENCY),
        .STALL_PERCENT(STALL_PERCENT),
        .AW_WAITS_FOR_W(AW_WAITS_FOR_W),
        .MEM_BYTES(MEM_BYTES),
        .RING_SPAN(32'h1000 * NUM_QUEUES),
        .AXIL_ADDR_WIDTH(AXIL_ADDR_WIDTH)
    ) nic_inst (
        .clk(clk), .rst(rst), .cyc(cyc), .go(go), .finish(finish), .run_prio(run_prio),
        .err_arm(1'b0), .err_addr(32'd0),
        `PRIONIC_AXIL_S_CONN,
        .cpu_en(1'b0), .cpu_we(1'b0), .cpu_sel(4'd0), .cpu_addr(32'd0), .cpu_wdata(32'd0),
        .cpu_rdata(cpu_rdata_unused),
        .irq(irq), .irq_err(irq_err),
        .status_played(status_played), .status_done(status_done), .status_verdicts(status_verdicts),
        .status_accepted(status_accepted), .status_completions(status_completions)
    );

    prionic_tb_axil_master #(
        .ADDR_WIDTH(AXIL_ADDR_WIDTH)
    ) axil_inst (
        .clk(clk), .rst(rst), .wq_count(wq_count), .rq_count(rq_count),
        .m_axil_awaddr(s_axil_awaddr), .m_axil_awvalid(s_axil_awvalid), .m_axil_awready(s_axil_awready),
        .m_axil_wdata(s_axil_wdata), .m_axil_wstrb(s_axil_wstrb), .m_axil_wvalid(s_axil_wvalid),
        .m_axil_wready(s_axil_wready), .m_axil_bvalid(s_axil_bvalid), .m_axil_bready(s_axil_bready),
        .m_axil_araddr(s_axil_araddr), .m_axil_arvalid(s_axil_arvalid), .m_axil_arready(s_axil_arready),
        .m_axil_rdata(s_axil_rdata), .m_axil_rvalid(s_axil_rvalid), .m_axil_rready(s_axil_rready),
        .status_b(status_b), .status_r(status_r), .status_rdata(status_rdata)
    );

endmodule

`resetall
