// SPDX-License-Identifier: MIT
//
// prionic_tb_nic: the NIC side both HDL testbench tops share (F26, F28; docs/fastpath.md,
// docs/system.md): the frame player (prionic_tb_player) feeding prionic_rx (instance `dut`),
// its host memory on the DMA's AXI4 bus (prionic_tb_axi_ram, with a 32-bit CPU port), and
// the event recorder (prionic_tb_recorder) watching the stream, the register bus, the DMA
// bus and the NIC's status ports. What differs between the tops stays with them: who drives
// the register bus (an AXI4-Lite master fed by Python on the fast path, a CPU's Wishbone
// bridge on the full system), the CPU port of the memory, the clock and the wake-ups.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_tb_nic #(
    parameter DATA_WIDTH       = 32,
    parameter AXI_DATA_WIDTH   = 2 * DATA_WIDTH,
    parameter NUM_QUEUES       = 2,
    parameter NUM_RULES        = 4,
    parameter RULES_PER_CYCLE  = 0,               // prionic_rx's defaults from here on
    parameter FLOW_ENTRIES     = 16,
    parameter FLOW_TS_SHIFT    = 14,
    parameter FLOW_TABLE_SETS  = 0,              // flow table (F31): needs FLOW_ENTRIES 0
    parameter MIN_IDLE         = 1,               // player: idle cycles between frames
    parameter B_LATENCY        = 2,               // host memory: last W to B
    parameter R_LATENCY        = 2,               // host memory: AR to first R
    parameter STALL_PERCENT    = 0,               // host memory: random stalls
    parameter AW_WAITS_FOR_W   = 0,               // host memory: AWREADY only after the burst's first W beat
    parameter MEM_BYTES        = 8 * 1024 * 1024,
    parameter RING_LO          = 32'h0001_0000,   // recorder: write-back bursts lie in [RING_LO, RING_LO + RING_SPAN)
    parameter RING_SPAN        = 32'h0000_2000,
    parameter AXIL_ADDR_WIDTH  = 16
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire [63:0]                cyc,        // edge number, from the top
    input  wire                       go,         // start playing frames
    input  wire                       finish,     // close the event record
    input  wire [7:0]                 run_prio,   // the DUT's run_prio port (F16)
    input  wire                       err_arm,    // F24: the memory answers SLVERR to a write burst ...
    input  wire [31:0]                err_addr,   // ... to this address while err_arm is high

    // the NIC's register bus (AXI4-Lite slave side, driven by the top's master)
    `PRIONIC_AXIL_S_PORTS(AXIL_ADDR_WIDTH),

    // the memory's CPU port (tied off on the fast path)
    input  wire                       cpu_en,
    input  wire                       cpu_we,
    input  wire [3:0]                 cpu_sel,
    input  wire [31:0]                cpu_addr,
    input  wire [31:0]                cpu_wdata,
    output wire [31:0]                cpu_rdata,

    output wire [NUM_QUEUES-1:0]      irq,
    output wire                       irq_err,
    output wire [31:0]                status_played,      // frames the player has sent
    output wire                       status_done,        // the player has sent every frame
    output wire [31:0]                status_verdicts,    // stat_verdict pulses
    output wire [31:0]                status_accepted,    // ... of accepted frames
    output wire [31:0]                status_completions  // write-back B responses
);

    localparam integer KEEP_WIDTH = DATA_WIDTH / 8;
    localparam integer AXI_STRB_WIDTH = AXI_DATA_WIDTH / 8;
    localparam integer AXI_ADDR_WIDTH = 32;

    wire [DATA_WIDTH-1:0] s_axis_tdata;
    wire [KEEP_WIDTH-1:0] s_axis_tkeep;
    wire                  s_axis_tvalid, s_axis_tready, s_axis_tlast, s_axis_tuser;

    // the DMA bus, named as prionic_rx's ports (`PRIONIC_AXI_M_*_CONN)
    wire [3:0]                m_axi_awid, m_axi_arid, m_axi_bid;  // {write-back, epoch}; reads: epoch 0 here
    wire [AXI_ADDR_WIDTH-1:0] m_axi_awaddr, m_axi_araddr;
    wire [7:0]                m_axi_awlen, m_axi_arlen;
    wire [2:0]                m_axi_awsize, m_axi_arsize, m_axi_awprot, m_axi_arprot;
    wire [1:0]                m_axi_awburst, m_axi_arburst, m_axi_bresp, m_axi_rresp;
    wire                      m_axi_awlock, m_axi_arlock;
    wire [3:0]                m_axi_awcache, m_axi_arcache;
    wire                      m_axi_awvalid, m_axi_awready, m_axi_wlast, m_axi_wvalid, m_axi_wready;
    wire                      m_axi_bvalid, m_axi_bready;
    wire                      m_axi_arvalid, m_axi_arready, m_axi_rlast, m_axi_rvalid, m_axi_rready;
    wire [AXI_DATA_WIDTH-1:0] m_axi_wdata, m_axi_rdata;
    wire [AXI_STRB_WIDTH-1:0] m_axi_wstrb;
    wire [3:0]                m_axi_rid = 4'd0;   // the memory answers reads in order, without an ID

    wire                  dma_valid;
    wire [3:0]            dma_code;
    wire [7:0]            dma_queue;
    wire [NUM_QUEUES-1:0] stat_irq;
    wire                  irq_legacy;
    wire [8:0]            status_pend_prio;
    wire                  stat_verdict_valid;
    wire [3:0]            stat_verdict_code;
    wire [7:0]            stat_verdict_queue, stat_verdict_rule;
    wire [31:0]           status_frames;      // tlast handshakes (Python counts them from the record)

    // read IDs, cache/prot/lock attributes and the combined interrupt are not modelled
    // (prionic_tb_axi_ram answers in order; a B carries its AWID)
    wire unused = &{1'b0, m_axi_arid, m_axi_awprot, m_axi_arprot, m_axi_awburst, m_axi_arburst,
                    m_axi_awlock, m_axi_arlock, m_axi_awcache, m_axi_arcache, irq_legacy,
                    status_pend_prio, status_frames};

    prionic_tb_player #(
        .DATA_WIDTH(DATA_WIDTH),
        .MIN_IDLE(MIN_IDLE)
    ) player_inst (
        .clk(clk), .rst(rst), .cyc(cyc), .go(go),
        .m_axis_tdata(s_axis_tdata), .m_axis_tkeep(s_axis_tkeep), .m_axis_tvalid(s_axis_tvalid),
        .m_axis_tready(s_axis_tready), .m_axis_tlast(s_axis_tlast), .m_axis_tuser(s_axis_tuser),
        .status_frames(status_played), .status_done(status_done)
    );

    prionic_rx #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .NUM_RULES(NUM_RULES),
        .RULES_PER_CYCLE(RULES_PER_CYCLE),
        .FLOW_ENTRIES(FLOW_ENTRIES),
        .FLOW_TS_SHIFT(FLOW_TS_SHIFT),
        .FLOW_TABLE_SETS(FLOW_TABLE_SETS)
    ) dut (
        .clk(clk), .rst(rst), .bus_rst(rst),   // its memory (ram_inst) is reset with it
        .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
        `PRIONIC_AXI_M_WRITE_CONN,
        `PRIONIC_AXI_M_READ_CONN,
        `PRIONIC_AXIL_S_CONN,
        .run_prio(run_prio),
        .ext_drop(3'd0),   // no frame is dropped in front of s_axis here
        .irq(irq), .irq_legacy(irq_legacy), .status_pend_prio(status_pend_prio),
        .stat_verdict_valid(stat_verdict_valid), .stat_verdict_code(stat_verdict_code),
        .stat_verdict_queue(stat_verdict_queue), .stat_verdict_rule(stat_verdict_rule),
        .stat_irq(stat_irq),
        .stat_dma_valid(dma_valid), .stat_dma_code(dma_code), .stat_dma_queue(dma_queue),
        .irq_err(irq_err)
    );

    prionic_tb_axi_ram #(
        .DATA_WIDTH(AXI_DATA_WIDTH),
        .ADDR_WIDTH(AXI_ADDR_WIDTH),
        .MEM_BYTES(MEM_BYTES),
        .B_LATENCY(B_LATENCY),
        .R_LATENCY(R_LATENCY),
        .STALL_PERCENT(STALL_PERCENT),
        .AW_WAITS_FOR_W(AW_WAITS_FOR_W)
    ) ram_inst (
        .clk(clk), .rst(rst), .cyc(cyc),
        .s_axi_awid(m_axi_awid), .s_axi_awaddr(m_axi_awaddr), .s_axi_awlen(m_axi_awlen),
        .s_axi_awsize(m_axi_awsize), .s_axi_awvalid(m_axi_awvalid), .s_axi_awready(m_axi_awready),
        .s_axi_wdata(m_axi_wdata), .s_axi_wstrb(m_axi_wstrb), .s_axi_wlast(m_axi_wlast),
        .s_axi_wvalid(m_axi_wvalid), .s_axi_wready(m_axi_wready),
        .s_axi_bid(m_axi_bid), .s_axi_bresp(m_axi_bresp), .s_axi_bvalid(m_axi_bvalid), .s_axi_bready(m_axi_bready),
        .s_axi_araddr(m_axi_araddr), .s_axi_arlen(m_axi_arlen), .s_axi_arsize(m_axi_arsize),
        .s_axi_arvalid(m_axi_arvalid), .s_axi_arready(m_axi_arready), .s_axi_rdata(m_axi_rdata),
        .s_axi_rresp(m_axi_rresp), .s_axi_rlast(m_axi_rlast), .s_axi_rvalid(m_axi_rvalid),
        .s_axi_rready(m_axi_rready),
        .err_arm(err_arm), .err_addr(err_addr),
        .cpu_en(cpu_en), .cpu_we(cpu_we), .cpu_sel(cpu_sel), .cpu_addr(cpu_addr), .cpu_wdata(cpu_wdata),
        .cpu_rdata(cpu_rdata)
    );

    prionic_tb_recorder #(
        .NUM_QUEUES(NUM_QUEUES),
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXIL_ADDR_WIDTH(AXIL_ADDR_WIDTH),
        .RING_LO(RING_LO),
        .RING_SPAN(RING_SPAN)
    ) rec_inst (
        .clk(clk), .rst(rst), .cyc(cyc), .finish(finish),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid),
        .s_axil_wready(s_axil_wready), .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid),
        .s_axil_arready(s_axil_arready), .s_axil_rdata(s_axil_rdata), .s_axil_rvalid(s_axil_rvalid),
        .s_axil_rready(s_axil_rready),
        .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_bvalid(m_axi_bvalid),
        .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rresp(m_axi_rresp),
        .stat_dma_valid(dma_valid), .stat_dma_code(dma_code), .stat_dma_queue(dma_queue),
        .irq_err(irq_err),
        .stat_verdict_valid(stat_verdict_valid), .stat_verdict_code(stat_verdict_code),
        .stat_verdict_queue(stat_verdict_queue), .stat_verdict_rule(stat_verdict_rule),
        .stat_irq(stat_irq), .irq(irq), .run_prio(run_prio),
        .status_frames(status_frames), .status_verdicts(status_verdicts), .status_completions(status_completions),
        .status_accepted(status_accepted)
    );

endmodule

`resetall
