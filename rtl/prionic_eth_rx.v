// SPDX-License-Identifier: MIT
//
// prionic_eth_rx: the board-ready receive top (docs/board.md, F2, F29). A 1000 Mb/s GMII
// PHY's receive side on its own clock gmii_rx_clk (125 MHz) feeds prionic_gmii_rx (F2:
// preamble, SFD and FCS stripped, bad frames marked with tuser); prionic_axis_widen packs
// its bytes into DATA_WIDTH-bit words on gmii_rx_clk; prionic_async_fifo carries whole
// frames into the system clock domain clk, dropping whole the frames it has no room for;
// prionic_rx (the NIC, F1-F30) runs on clk. Its ports are prionic_rx's but s_axis (fed
// inside) and ext_drop: the FIFO's drops and the front end's bursts without a frame
// (no preamble+SFD, too short), each through prionic_sync_count, into CNT_DROP_FIFO,
// CNT_DROP_PREAMBLE and CNT_DROP_SHORT.
//
// Clocks: gmii_rx_clk and clk are unrelated. clk must carry the line: clk x DATA_WIDTH at
// least 1 Gb/s for minimum frames back to back (32 bits: 62.5 MHz, docs/board.md);
// a slower core drops whole frames at the FIFO, counted.
// Reset: rst and bus_rst are synchronous to clk as on prionic_rx. The gmii_rx_clk side is
// reset by their OR, registered and brought over by a synchronizer (release two to three
// gmii_rx_clk edges later); the FIFO's read side stays in reset until the gmii_rx_clk
// side's reset has come back through a synchronizer, so both sides of the FIFO restart
// together. Hold rst for at least 4 gmii_rx_clk cycles. Every signal between the two
// domains passes prionic_sync_bit (tests/test_cdc.py checks it), but the FIFO's memory.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_eth_rx #(
    parameter DATA_WIDTH       = 32,               // core stream width: 8, 16, 32, 64
    parameter KEEP_WIDTH       = DATA_WIDTH / 8,
    parameter AXI_DATA_WIDTH   = 2 * DATA_WIDTH,   // host memory (DMA) width: DATA_WIDTH * 1, 2 or 4 (F25)
    parameter AXI_STRB_WIDTH   = AXI_DATA_WIDTH / 8,
    parameter NUM_QUEUES       = 2,                // receive queues (1..16)
    parameter NUM_RULES        = 4,                // classification rules (1..64)
    parameter AXI_ADDR_WIDTH   = 32,               // host address bits
    parameter AXI_ID_WIDTH     = 4,                // DMA AXI ID bits (prionic_rx)
    parameter AXIL_ADDR_WIDTH  = 16,               // register address bits
    parameter MAX_FRAME_LEN    = 1518,             // longer frames are dropped (OVERSIZE)
    parameter FIFO_BYTES       = 4096,             // prionic_rx's ingress frame FIFO (power of 2)
    parameter QBUF_BYTES       = 4096,             // on-chip buffer per queue (power of 2, F11)
    parameter QBUF_FRAMES_LOG2 = 5,                // log2 frames each queue buffer tracks
    parameter META_ADDR_WIDTH  = 4,                // log2 of frame entries in flight
    parameter RULES_PER_CYCLE  = 0,                // rules compared per cycle, 0: all (F8)
    parameter FLOW_ENTRIES     = 16,               // flow cache entries: 0 or 2..256, power of 2 (F8)
    parameter FLOW_TS_SHIFT    = 14,               // flow cache time unit: 2^FLOW_TS_SHIFT cycles (F8)
    parameter FLOW_TABLE_SETS  = 0,                // flow table sets per bank, 0: none (needs FLOW_ENTRIES 0; F31)
    parameter RX_FIFO_BYTES    = 4096,             // clock-crossing frame FIFO (power of 2, F29)
    parameter SYNC_STAGES      = 2                 // synchronizer flip-flops (2 or more)
) (
    input  wire                       clk,      // system clock: prionic_rx and the FIFO's read side
    input  wire                       rst,      // reset of the NIC, synchronous to clk
    input  wire                       bus_rst,  // the bus and host memory are reset too (F24)

    // GMII receive from the PHY (F2), one byte per gmii_rx_clk
    input  wire                       gmii_rx_clk,
    input  wire [7:0]                 gmii_rxd,
    input  wire                       gmii_rx_dv,
    input  wire                       gmii_rx_er,

    // host memory (F12): AXI4 master (rtl/prionic_axi.vh)
    `PRIONIC_AXI_M_WRITE_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH, AXI_STRB_WIDTH),
    `PRIONIC_AXI_M_READ_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH),

    // registers (docs/registers.md): AXI4-Lite slave (rtl/prionic_axi.vh)
    `PRIONIC_AXIL_S_PORTS(AXIL_ADDR_WIDTH),

    // running task priority from an interrupt controller (F16); registered on entry
    input  wire [7:0]                 run_prio,

    // interrupts (F15)
    output wire [NUM_QUEUES-1:0]      irq,
    output wire                       irq_legacy,
    output wire [8:0]                 status_pend_prio,  // {valid, highest QUEUE_PRIO pending} (F16)

    // observability (docs/frame-path.md section 6)
    output wire                       stat_verdict_valid,
    output wire [3:0]                 stat_verdict_code,
    output wire [7:0]                 stat_verdict_queue,
    output wire [7:0]                 stat_verdict_rule,
    output wire [NUM_QUEUES-1:0]      stat_irq,
    // host-side faults (F24, docs/faults.md): DMA events at E+1, and a queue stopped
    output wire                       stat_dma_valid,
    output wire [3:0]                 stat_dma_code,
    output wire [7:0]                 stat_dma_queue,
    output wire                       irq_err,

    // prionic_gmii_rx's counters (docs/gmii.md), in the gmii_rx_clk domain: 32 bits, wrapping
    output wire [31:0]                gmii_status_frames,
    output wire [31:0]                gmii_status_fcs_errors,
    output wire [31:0]                gmii_status_rx_er_frames,
    output wire [31:0]                gmii_status_preamble_errors,
    output wire [31:0]                gmii_status_short_frames,
    output wire [31:0]                gmii_status_overflow_frames
);

    localparam integer FIFO_DEPTH = RX_FIFO_BYTES / KEEP_WIDTH;

    initial begin
        if (FIFO_DEPTH * KEEP_WIDTH != RX_FIFO_BYTES) begin
            $error("Error: RX_FIFO_BYTES must be a multiple of KEEP_WIDTH (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ resets
    reg  core_rst_reg;   // clk: the NIC is in reset (what the gmii_rx_clk side follows)
    wire rx_rst;         // gmii_rx_clk: reset of the GMII front end, packer, FIFO write side
    wire rx_rst_seen;    // clk: rx_rst, brought back
    always @(posedge clk) begin
        core_rst_reg <= rst || bus_rst;
    end

    prionic_sync_bit #(
        .STAGES(SYNC_STAGES),
        .RESET_VALUE(1'b1)
    ) rx_rst_sync_inst (
        .clk(gmii_rx_clk),
        .rst(1'b0),
        .d(core_rst_reg),
        .q(rx_rst)
    );

    prionic_sync_bit #(
        .STAGES(SYNC_STAGES),
        .RESET_VALUE(1'b1)
    ) rx_rst_back_inst (
        .clk(clk),
        .rst(1'b0),
        .d(rx_rst),
        .q(rx_rst_seen)
    );

    wire fifo_m_rst = rst || bus_rst || rx_rst_seen;

    // ------------------------------------------------------------------ gmii_rx_clk side
    wire [7:0] gmii_tdata;
    wire [0:0] gmii_tkeep;
    wire       gmii_tvalid, gmii_tlast, gmii_tuser;

    prionic_gmii_rx #(
        .DATA_WIDTH(8)
    ) gmii_rx_inst (
        .clk(gmii_rx_clk),
        .rst(rx_rst),
        .gmii_rxd(gmii_rxd),
        .gmii_rx_dv(gmii_rx_dv),
        .gmii_rx_er(gmii_rx_er),
        .m_axis_tdata(gmii_tdata),
        .m_axis_tkeep(gmii_tkeep),
        .m_axis_tvalid(gmii_tvalid),
        .m_axis_tready(1'b1),        // the packer takes every byte
        .m_axis_tlast(gmii_tlast),
        .m_axis_tuser(gmii_tuser),
        .status_frames(gmii_status_frames),
        .status_fcs_errors(gmii_status_fcs_errors),
        .status_rx_er_frames(gmii_status_rx_er_frames),
        .status_preamble_errors(gmii_status_preamble_errors),
        .status_short_frames(gmii_status_short_frames),
        .status_overflow_frames(gmii_status_overflow_frames)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_gmii = &{1'b0, gmii_tkeep};   // always 1 (one byte per beat)
    /* verilator lint_on UNUSEDSIGNAL */

    wire [DATA_WIDTH-1:0] wide_tdata;
    wire [KEEP_WIDTH-1:0] wide_tkeep;
    wire                  wide_tvalid, wide_tlast, wide_tuser;

    prionic_axis_widen #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH)
    ) widen_inst (
        .clk(gmii_rx_clk),
        .rst(rx_rst),
        .s_axis_tdata(gmii_tdata),
        .s_axis_tvalid(gmii_tvalid),
        .s_axis_tlast(gmii_tlast),
        .s_axis_tuser(gmii_tuser),
        .m_axis_tdata(wide_tdata),
        .m_axis_tkeep(wide_tkeep),
        .m_axis_tvalid(wide_tvalid),
        .m_axis_tlast(wide_tlast),
        .m_axis_tuser(wide_tuser)
    );

    // ------------------------------------------------------------------ the crossing
    // core_axis: prionic_rx's stream input (what the tests record and give the model)
    wire [DATA_WIDTH-1:0] core_axis_tdata;
    wire [KEEP_WIDTH-1:0] core_axis_tkeep;
    wire                  core_axis_tvalid, core_axis_tready, core_axis_tlast, core_axis_tuser;
    wire                  fifo_drop;          // gmii_rx_clk: a frame dropped whole
    wire                  core_drop_fifo;     // clk: one pulse per frame the FIFO dropped
    wire                  core_drop_preamble; // clk: one pulse per burst without preamble+SFD
    wire                  core_drop_short;    // clk: one pulse per burst of 0..4 bytes after the SFD

    prionic_async_fifo #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .DEPTH(FIFO_DEPTH),
        .STAGES(SYNC_STAGES)
    ) fifo_inst (
        .s_clk(gmii_rx_clk),
        .s_rst(rx_rst),
        .s_axis_tdata(wide_tdata),
        .s_axis_tkeep(wide_tkeep),
        .s_axis_tvalid(wide_tvalid),
        .s_axis_tlast(wide_tlast),
        .s_axis_tuser(wide_tuser),
        .s_drop(fifo_drop),
        .m_clk(clk),
        .m_rst(fifo_m_rst),
        .m_axis_tdata(core_axis_tdata),
        .m_axis_tkeep(core_axis_tkeep),
        .m_axis_tvalid(core_axis_tvalid),
        .m_axis_tready(core_axis_tready),
        .m_axis_tlast(core_axis_tlast),
        .m_axis_tuser(core_axis_tuser)
    );

    prionic_sync_count #(
        .STAGES(SYNC_STAGES)
    ) drop_sync_inst (
        .s_clk(gmii_rx_clk),
        .s_rst(rx_rst),
        .s_pulse(fifo_drop),
        .m_clk(clk),
        .m_rst(fifo_m_rst),
        .m_pulse(core_drop_fifo)
    );

    // the front end's verdicts that never become a frame, as pulses: each of its counters
    // steps by one per event, so its bit 0 toggles once per event
    reg  preamble_lsb_reg, short_lsb_reg;
    always @(posedge gmii_rx_clk) begin
        preamble_lsb_reg <= gmii_status_preamble_errors[0];
        short_lsb_reg    <= gmii_status_short_frames[0];
        if (rx_rst) begin
            preamble_lsb_reg <= 1'b0;
            short_lsb_reg    <= 1'b0;
        end
    end
    reg  preamble_pulse_reg, short_pulse_reg;   // registered: a synchronizer's input is a flop
    always @(posedge gmii_rx_clk) begin
        preamble_pulse_reg <= gmii_status_preamble_errors[0] ^ preamble_lsb_reg;
        short_pulse_reg    <= gmii_status_short_frames[0] ^ short_lsb_reg;
        if (rx_rst) begin
            preamble_pulse_reg <= 1'b0;
            short_pulse_reg    <= 1'b0;
        end
    end

    prionic_sync_count #(
        .STAGES(SYNC_STAGES)
    ) preamble_sync_inst (
        .s_clk(gmii_rx_clk),
        .s_rst(rx_rst),
        .s_pulse(preamble_pulse_reg),
        .m_clk(clk),
        .m_rst(fifo_m_rst),
        .m_pulse(core_drop_preamble)
    );

    prionic_sync_count #(
        .STAGES(SYNC_STAGES)
    ) short_sync_inst (
        .s_clk(gmii_rx_clk),
        .s_rst(rx_rst),
        .s_pulse(short_pulse_reg),
        .m_clk(clk),
        .m_rst(fifo_m_rst),
        .m_pulse(core_drop_short)
    );

    // ------------------------------------------------------------------ clk side: the NIC
    prionic_rx #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .AXI_STRB_WIDTH(AXI_STRB_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .NUM_RULES(NUM_RULES),
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXI_ID_WIDTH(AXI_ID_WIDTH),
        .AXIL_ADDR_WIDTH(AXIL_ADDR_WIDTH),
        .MAX_FRAME_LEN(MAX_FRAME_LEN),
        .FIFO_BYTES(FIFO_BYTES),
        .QBUF_BYTES(QBUF_BYTES),
        .QBUF_FRAMES_LOG2(QBUF_FRAMES_LOG2),
        .META_ADDR_WIDTH(META_ADDR_WIDTH),
        .RULES_PER_CYCLE(RULES_PER_CYCLE),
        .FLOW_ENTRIES(FLOW_ENTRIES),
        .FLOW_TS_SHIFT(FLOW_TS_SHIFT),
        .FLOW_TABLE_SETS(FLOW_TABLE_SETS)
    ) rx_inst (
        .clk(clk),
        .rst(rst),
        .bus_rst(bus_rst),
        .s_axis_tdata(core_axis_tdata),
        .s_axis_tkeep(core_axis_tkeep),
        .s_axis_tvalid(core_axis_tvalid),
        .s_axis_tready(core_axis_tready),
        .s_axis_tlast(core_axis_tlast),
        .s_axis_tuser(core_axis_tuser),
        .ext_drop({core_drop_short, core_drop_preamble, core_drop_fifo}),
        // host memory: each m_axi_* port to the port of its name (prionic_axi.vh)
        `PRIONIC_AXI_M_WRITE_CONN,
        `PRIONIC_AXI_M_READ_CONN,
        `PRIONIC_AXIL_S_CONN,
        .run_prio(run_prio),
        .irq(irq),
        .irq_legacy(irq_legacy),
        .status_pend_prio(status_pend_prio),
        .stat_verdict_valid(stat_verdict_valid),
        .stat_verdict_code(stat_verdict_code),
        .stat_verdict_queue(stat_verdict_queue),
        .stat_verdict_rule(stat_verdict_rule),
        .stat_irq(stat_irq),
        .stat_dma_valid(stat_dma_valid),
        .stat_dma_code(stat_dma_code),
        .stat_dma_queue(stat_dma_queue),
        .irq_err(irq_err)
    );

endmodule

`resetall
