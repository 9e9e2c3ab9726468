// SPDX-License-Identifier: MIT
//
// prionic_tb_axil_master: register access of the fast co-simulation path (F26,
// docs/fastpath.md). Python queues writes in `wq` (one 64-bit word {addr, data} each)
// and reads in `rq` (the address) through VPI, then moves the counters `wq_count` /
// `rq_count`; this module drives them onto AXI4-Lite with no Python per cycle. The AW
// and W channels each behave like a cocotbext-axi source: a command counted before edge
// k is driven after edge k, so it is first sampled at edge k+1, and the next one follows
// on the edge of a handshake. A read is issued only after the previous read's R
// handshake (the bus path's host awaits each read). BREADY and RREADY are high after the
// first edge out of reset. `status_b` and `status_r` count the responses; `status_rdata`
// holds the last read's data. Simulation model: not for synthesis.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none
// A simulation model: file I/O and bookkeeping are plain sequential code in the clocked
// block (blocking temporaries); what other modules sample is assigned non-blocking.
/* verilator lint_off BLKSEQ */

module prionic_tb_axil_master #(
    parameter ADDR_WIDTH = 16,
    parameter QUEUE_LOG2 = 10                 // commands the queues hold
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [31:0]           wq_count,    // writes queued so far (Python)
    input  wire [31:0]           rq_count,    // reads queued so far (Python)

    output wire [ADDR_WIDTH-1:0] m_axil_awaddr,
    output wire                  m_axil_awvalid,
    input  wire                  m_axil_awready,
    output wire [31:0]           m_axil_wdata,
    output wire [3:0]            m_axil_wstrb,
    output wire                  m_axil_wvalid,
    input  wire                  m_axil_wready,
    input  wire                  m_axil_bvalid,
    output wire                  m_axil_bready,
    output wire [ADDR_WIDTH-1:0] m_axil_araddr,
    output wire                  m_axil_arvalid,
    input  wire                  m_axil_arready,
    input  wire [31:0]           m_axil_rdata,
    input  wire                  m_axil_rvalid,
    output wire                  m_axil_rready,

    output wire [31:0]           status_b,
    output wire [31:0]           status_r,
    output wire [31:0]           status_rdata
);

    localparam integer QD = 1 << QUEUE_LOG2;

    reg [63:0]           wq [0:QD-1] /* verilator public_flat_rw */;  // {addr, data}, from Python
    reg [31:0]           rq [0:QD-1] /* verilator public_flat_rw */;  // addr, from Python

    reg [31:0]           aw_ptr, w_ptr, ar_ptr, b_cnt, r_cnt;
    reg                  awvalid_reg, wvalid_reg, arvalid_reg, bready_reg, rready_reg;
    reg                  r_wait;               // a read is on the bus or awaits its R
    reg [ADDR_WIDTH-1:0] awaddr_reg, araddr_reg;
    reg [31:0]           wdata_reg, rdata_reg;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [63:0]           cmd;                  // {16'b0, addr, data} (only ADDR_WIDTH address bits)
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        if (rst) begin
            aw_ptr <= 0; w_ptr <= 0; ar_ptr <= 0; b_cnt <= 0; r_cnt <= 0;
            awvalid_reg <= 1'b0; wvalid_reg <= 1'b0; arvalid_reg <= 1'b0;
            bready_reg <= 1'b0; rready_reg <= 1'b0; r_wait <= 1'b0;
            awaddr_reg <= 0; araddr_reg <= 0; wdata_reg <= 0; rdata_reg <= 0;
        end else begin
            bready_reg <= 1'b1;
            rready_reg <= 1'b1;
            // AW source
            if (!awvalid_reg || m_axil_awready) begin
                if (aw_ptr != wq_count) begin
                    cmd = wq[aw_ptr[QUEUE_LOG2-1:0]];
                    awaddr_reg <= cmd[32 +: ADDR_WIDTH];
                    awvalid_reg <= 1'b1;
                    aw_ptr <= aw_ptr + 1;
                end else begin
                    awvalid_reg <= 1'b0;
                end
            end
            // W source
            if (!wvalid_reg || m_axil_wready) begin
                if (w_ptr != wq_count) begin
                    cmd = wq[w_ptr[QUEUE_LOG2-1:0]];
                    wdata_reg <= cmd[31:0];
                    wvalid_reg <= 1'b1;
                    w_ptr <= w_ptr + 1;
                end else begin
                    wvalid_reg <= 1'b0;
                end
            end
            if (m_axil_bvalid && bready_reg) begin
                b_cnt <= b_cnt + 1;
            end
            // AR source: one read at a time
            if (arvalid_reg && m_axil_arready) begin
                arvalid_reg <= 1'b0;
            end else if (!r_wait && ar_ptr != rq_count) begin
                araddr_reg <= rq[ar_ptr[QUEUE_LOG2-1:0]][ADDR_WIDTH-1:0];
                arvalid_reg <= 1'b1;
                ar_ptr <= ar_ptr + 1;
                r_wait <= 1'b1;
            end
            if (m_axil_rvalid && rready_reg) begin
                r_cnt <= r_cnt + 1;
                rdata_reg <= m_axil_rdata;
                r_wait <= 1'b0;
            end
        end
    end

    assign m_axil_awaddr  = awaddr_reg;
    assign m_axil_awvalid = awvalid_reg;
    assign m_axil_wdata   = wdata_reg;
    assign m_axil_wstrb   = 4'hF;
    assign m_axil_wvalid  = wvalid_reg;
    assign m_axil_bready  = bready_reg;
    assign m_axil_araddr  = araddr_reg;
    assign m_axil_arvalid = arvalid_reg;
    assign m_axil_rready  = rready_reg;
    assign status_b       = b_cnt;
    assign status_r       = r_cnt;
    assign status_rdata   = rdata_reg;

endmodule

/* verilator lint_on BLKSEQ */
`resetall
