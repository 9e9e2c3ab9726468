// SPDX-License-Identifier: MIT
//
// prionic_tb_recorder: the fast co-simulation path's monitor (F26, docs/fastpath.md).
// Writes every event the scoreboard needs, with the edge k that sampled it, as one text
// line into the file named by +prionic_rec=<path>, so Python reads them in bulk after
// the run instead of sampling every cycle (tb/fast/fastpath.py parses them into the same
// `Observed` record the bus path's CycleMonitor fills):
//
//   T k                   tlast handshake on s_axis
//   W k addr data strb    AXI4-Lite write (AW and W handshake on the same edge)
//   R k addr              AXI4-Lite AR handshake
//   D k data              AXI4-Lite R handshake (the data read)
//   V k code queue rule   stat_verdict pulse
//   A k addr beats bytes  m_axi AW handshake (beats = AWLEN + 1, bytes per beat)
//   B k                   m_axi B handshake
//   F k mask              stat_irq pulses
//   I k lines             the irq lines changed to `lines`
//   P k value             the run_prio port changed to `value`
//   M k queue code        stat_dma pulse of DMA event E = k (high at E+1; F24)
//   J k level             the irq_err line changed to `level`
//   Z k b|r               a B or R handshake with an error response (SLVERR, DECERR)
//   X k what              a protocol error seen (the scoreboard fails on it)
//   E k stalls            the end: last edge recorded, cycles tvalid waited for tready
//
// Running counters (status_*) let Python see progress and decide when the DUT is idle
// by reading a few signals at coarse intervals. When `finish` is first sampled high at
// edge k+1 the recorder writes `E k ...`, closes the file and records nothing more.
// Simulation only ($fwrite).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none
// A simulation model: file I/O and bookkeeping are plain sequential code in the clocked
// block (blocking temporaries); what other modules sample is assigned non-blocking.
/* verilator lint_off BLKSEQ */

module prionic_tb_recorder #(
    parameter NUM_QUEUES      = 2,
    parameter AXI_ADDR_WIDTH  = 32,
    parameter AXIL_ADDR_WIDTH = 16,
    parameter ACCEPT_CODE     = 0,            // verdict code of an accepted frame
    parameter RING_LO         = 32'h0001_0000, // write-back bursts lie in [RING_LO, RING_LO + RING_SPAN)
    parameter RING_SPAN       = 32'h0000_2000, // at byte 16 of a 32-byte descriptor
    parameter WB_OFFSET       = 16
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire [63:0]                cyc,
    input  wire                       finish,

    input  wire                       s_axis_tvalid,
    input  wire                       s_axis_tready,
    input  wire                       s_axis_tlast,
    input  wire [AXIL_ADDR_WIDTH-1:0] s_axil_awaddr,
    input  wire                       s_axil_awvalid,
    input  wire                       s_axil_awready,
    input  wire [31:0]                s_axil_wdata,
    input  wire [3:0]                 s_axil_wstrb,
    input  wire                       s_axil_wvalid,
    input  wire                       s_axil_wready,
    input  wire [AXIL_ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire                       s_axil_arvalid,
    input  wire                       s_axil_arready,
    input  wire [31:0]                s_axil_rdata,
    input  wire                       s_axil_rvalid,
    input  wire                       s_axil_rready,
    input  wire [AXI_ADDR_WIDTH-1:0]  m_axi_awaddr,
    input  wire [7:0]                 m_axi_awlen,
    input  wire [2:0]                 m_axi_awsize,
    input  wire                       m_axi_awvalid,
    input  wire                       m_axi_awready,
    input  wire                       m_axi_bvalid,
    input  wire                       m_axi_bready,
    input  wire [1:0]                 m_axi_bresp,
    input  wire                       m_axi_rvalid,
    input  wire                       m_axi_rready,
    input  wire [1:0]                 m_axi_rresp,
    input  wire                       stat_dma_valid,
    input  wire [3:0]                 stat_dma_code,
    input  wire [7:0]                 stat_dma_queue,
    input  wire                       irq_err,
    input  wire                       stat_verdict_valid,
    input  wire [3:0]                 stat_verdict_code,
    input  wire [7:0]                 stat_verdict_queue,
    input  wire [7:0]                 stat_verdict_rule,
    input  wire [NUM_QUEUES-1:0]      stat_irq,
    input  wire [NUM_QUEUES-1:0]      irq,
    input  wire [7:0]                 run_prio,

    output wire [31:0]                status_frames,      // tlast handshakes
    output wire [31:0]                status_verdicts,    // stat_verdict pulses
    output wire [31:0]                status_accepted,    // ... with ACCEPT_CODE
    output wire [31:0]                status_completions  // B of write-back bursts
);

    integer fd;
    reg [8*1024-1:0] path;
    reg              open_reg;
    reg [NUM_QUEUES-1:0] irq_prev;
    reg              err_prev;
    reg [7:0]        prio_prev;
    reg [63:0]       stalls;
    reg [31:0]       n_frames, n_verdicts, n_accepted, n_completions;
    reg [15:0]       wbq;             // is-write-back bit of each burst awaiting its B
    reg [4:0]        wbq_n;
    reg              wb_head;

    initial begin
        fd = 0;
        if ($value$plusargs("prionic_rec=%s", path)) begin
            fd = $fopen(path, "w");
            if (fd == 0) begin
                $display("prionic_tb_recorder: cannot open the file named by +prionic_rec");
                $finish;
            end
        end
    end

    wire aw_is_wb = (m_axi_awaddr - RING_LO) < RING_SPAN && m_axi_awaddr[4:0] == WB_OFFSET;

    always @(posedge clk) begin
        if (rst) begin
            open_reg <= fd != 0;
            irq_prev <= {NUM_QUEUES{1'b0}};
            err_prev <= 1'b0;
            prio_prev <= 8'd0;
            stalls <= 64'd0;
            n_frames <= 0; n_verdicts <= 0; n_accepted <= 0; n_completions <= 0;
            wbq <= 16'd0;
            wbq_n <= 5'd0;
        end else if (open_reg) begin
            if (finish) begin
                $fwrite(fd, "E %0d %0d\n", cyc - 64'd1, stalls);
                $fclose(fd);
                open_reg <= 1'b0;
            end else begin
                if (s_axis_tvalid && !s_axis_tready) begin
                    stalls <= stalls + 64'd1;
                end
                if (s_axis_tvalid && s_axis_tready && s_axis_tlast) begin
                    $fwrite(fd, "T %0d\n", cyc);
                    n_frames <= n_frames + 1;
                end
                if (s_axil_awvalid && s_axil_awready) begin
                    if (!(s_axil_wvalid && s_axil_wready)) begin
                        $fwrite(fd, "X %0d AW-without-W\n", cyc);
                    end
                    $fwrite(fd, "W %0d %0d %0d %0d\n", cyc, s_axil_awaddr, s_axil_wdata, s_axil_wstrb);
                end
                if (s_axil_arvalid && s_axil_arready) begin
                    $fwrite(fd, "R %0d %0d\n", cyc, s_axil_araddr);
                end
                if (s_axil_rvalid && s_axil_rready) begin
                    $fwrite(fd, "D %0d %0d\n", cyc, s_axil_rdata);
                end
                if (stat_verdict_valid) begin
                    $fwrite(fd, "V %0d %0d %0d %0d\n", cyc, stat_verdict_code, stat_verdict_queue,
                            stat_verdict_rule);
                    n_verdicts <= n_verdicts + 1;
                    if (stat_verdict_code == ACCEPT_CODE) begin
                        n_accepted <= n_accepted + 1;
                    end
                end
                // write-back bits of the bursts awaiting B, oldest in bit 0
                wb_head = wbq[0];
                if (m_axi_bvalid && m_axi_bready) begin
                    $fwrite(fd, "B %0d\n", cyc);
                    if (m_axi_bresp[1]) begin
                        $fwrite(fd, "Z %0d b\n", cyc);
                    end
                    if (wbq_n == 5'd0) begin
                        $fwrite(fd, "X %0d B-without-AW\n", cyc);
                    end
                    if (wb_head) begin
                        n_completions <= n_completions + 1;
                    end
                end
                if (m_axi_awvalid && m_axi_awready) begin
                    $fwrite(fd, "A %0d %0d %0d %0d\n", cyc, m_axi_awaddr, {1'b0, m_axi_awlen} + 9'd1,
                            5'd1 << m_axi_awsize);
                end
                case ({m_axi_awvalid && m_axi_awready, m_axi_bvalid && m_axi_bready})
                    2'b10: begin
                        wbq[wbq_n[3:0]] <= aw_is_wb;
                        wbq_n <= wbq_n + 5'd1;
                    end
                    2'b01: begin
                        wbq <= wbq >> 1;
                        wbq_n <= wbq_n - 5'd1;
                    end
                    2'b11: begin
                        wbq <= (wbq >> 1) | ({15'd0, aw_is_wb} << (wbq_n - 5'd1));
                    end
                    default: begin
                    end
                endcase
                if (m_axi_rvalid && m_axi_rready && m_axi_rresp[1]) begin
                    $fwrite(fd, "Z %0d r\n", cyc);
                end
                if (stat_dma_valid) begin
                    $fwrite(fd, "M %0d %0d %0d\n", cyc - 64'd1, stat_dma_queue, stat_dma_code);
                end
                if (irq_err != err_prev) begin
                    $fwrite(fd, "J %0d %0d\n", cyc, irq_err);
                end
                err_prev <= irq_err;
                if (stat_irq != {NUM_QUEUES{1'b0}}) begin
                    $fwrite(fd, "F %0d %0d\n", cyc, stat_irq);
                end
                if (irq != irq_prev) begin
                    $fwrite(fd, "I %0d %0d\n", cyc, irq);
                end
                irq_prev <= irq;
                if (run_prio != prio_prev) begin
                    $fwrite(fd, "P %0d %0d\n", cyc, run_prio);
                end
                prio_prev <= run_prio;
            end
        end
    end

    // SLVERR and DECERR both have bit 1 set; bit 0 tells them apart, which no check needs
    wire unused_resp = &{1'b0, m_axi_bresp[0], m_axi_rresp[0]};

    assign status_frames      = n_frames;
    assign status_verdicts    = n_verdicts;
    assign status_accepted    = n_accepted;
    assign status_completions = n_completions;

endmodule

/* verilator lint_on BLKSEQ */
`resetall
