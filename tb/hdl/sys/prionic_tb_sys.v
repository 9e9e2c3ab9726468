// SPDX-License-Identifier: MIT
//
// prionic_tb_sys: the full-system simulation top (F28, docs/system.md). A VexRiscv CPU
// (the shipped VexRiscv_Lite variant of pythondata-cpu-vexriscv: RV32IM, I-cache, no
// D-cache) runs firmware from a RAM it shares with prionic_rx's DMA; it reaches the NIC's
// registers through a Wishbone to AXI4-Lite bridge and takes the NIC's interrupt lines as
// external interrupts. The NIC side (prionic_rx, its memory, the fast path's frame player
// and event recorder) is prionic_tb_nic, shared with the fast path's top (docs/fastpath.md),
// so the run is checked against the golden model as every fast-path run is. Beside them: a
// machine timer and a console. The CPU clock is the NIC clock.
//
// Memory map of the CPU (byte addresses):
//   0x0000_0000 .. MEM_BYTES-1   RAM (code, data, stacks, rings, buffers), shared with the DMA
//   0x8000_0000 .. +0xFFFF       prionic_rx registers (AXI4-Lite, 32-bit accesses)
//   0xF000_0000                  system registers:
//     +0x00 CONSOLE   W   bits 7:0: one byte to the console (file +prionic_console=, and Python)
//     +0x04 EXIT      W   the firmware's exit code; raises status_exit
//     +0x08 FW_STATE  W   a value Python waits on (status_fw_state)
//     +0x0C CTRL      R   bit 0: Python asks the firmware to finish (stop); bit 1: the player is done
//     +0x10 MTIME     R   low word of mtime (edge number: mtime == k inside edge k)
//     +0x14 MTIMEH    R   high word
//     +0x18 MTIMECMP  RW  low word; the timer interrupt is mtime >= mtimecmp
//     +0x1C MTIMECMPH RW  high word (reset: all ones)
//     +0x20 TRACE     W   one word to the trace file (+prionic_trace=, a hex word a line;
//                         flushed at finish): the firmware's record of each frame it handled
//   anything else: ACK with 0xBADACCE5 read, counted in status_bad_access.
// Interrupts: externalInterruptArray[NUM_QUEUES-1:0] = irq, [NUM_QUEUES] = irq_err.
// Simulation only (the console's and the trace's $fwrite).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_tb_sys #(
    parameter DATA_WIDTH       = 32,
    parameter AXI_DATA_WIDTH   = 2 * DATA_WIDTH,
    parameter NUM_QUEUES       = 3,   // the i210 configuration's sink is the third (sw/fw/net/i210.c)
    parameter NUM_RULES        = 4,
    parameter MIN_IDLE         = 1,
    parameter MEM_BYTES        = 1024 * 1024,   // sw/fw/board/sysmap.h SYS_MEM_BYTES
    parameter RING_LO          = 32'h0001_0000, // the firmware's rings (the recorder's write-back test)
    parameter RING_SPAN        = 32'h0001_0000,
    parameter CLK_PERIOD_NS    = 8
) (
    output reg         clk,
    input  wire        rst,
    input  wire        go,                     // start playing frames
    input  wire        stop,                   // CTRL bit 0, read by the firmware
    input  wire        finish,                 // close the event record
    input  wire        err_arm,                // F24: the memory answers SLVERR to the first write burst
    input  wire [31:0] err_addr,               // ... to this address while err_arm is high

    output wire [63:0] cycle,                  // edge number + 1
    output wire [NUM_QUEUES-1:0] irq,
    output reg  [31:0] status_fw_state,        // FW_STATE as the firmware last wrote it
    output reg         status_exit,            // the firmware wrote EXIT
    output reg  [31:0] status_exit_code,
    output reg  [31:0] status_console,         // bytes written to CONSOLE
    output reg  [31:0] status_trace,           // words written to TRACE
    output reg  [31:0] status_bad_access,      // accesses outside the memory map
    output wire [31:0] status_played,
    output wire        status_done,
    output wire [31:0] status_verdicts,
    output wire [31:0] status_accepted,
    output wire [31:0] status_completions
);

    localparam integer AXIL_ADDR_WIDTH = 16;

    initial clk = 1'b0;
    always #(CLK_PERIOD_NS / 2) clk = !clk;

    reg [63:0] cyc;
    always @(posedge clk) begin
        if (rst) begin
            cyc <= 64'd0;
        end else begin
            cyc <= cyc + 64'd1;
        end
    end
    assign cycle = cyc;

    // ------------------------------------------------------------------ the CPU
    wire        i_cyc, i_stb, i_we, d_cyc, d_stb, d_we;
    wire [29:0] i_adr, d_adr;
    wire [31:0] i_dat_w, d_dat_w;
    wire [3:0]  i_sel, d_sel;
    wire [2:0]  i_cti, d_cti;
    wire [1:0]  i_bte, d_bte;
    wire        i_ack;
    wire        d_ack, d_err;
    wire [31:0] i_dat_r;
    reg  [31:0] d_dat_r;
    wire        irq_err;
    reg  [63:0] mtimecmp;
    wire        timer_irq = cyc >= mtimecmp;

    VexRiscv cpu (
        .externalResetVector(32'h0000_0000),
        .timerInterrupt(timer_irq),
        .softwareInterrupt(1'b0),
        .externalInterruptArray({{(31 - NUM_QUEUES){1'b0}}, irq_err, irq}),
        .iBusWishbone_CYC(i_cyc), .iBusWishbone_STB(i_stb), .iBusWishbone_ACK(i_ack),
        .iBusWishbone_WE(i_we), .iBusWishbone_ADR(i_adr), .iBusWishbone_DAT_MISO(i_dat_r),
        .iBusWishbone_DAT_MOSI(i_dat_w), .iBusWishbone_SEL(i_sel), .iBusWishbone_ERR(1'b0),
        .iBusWishbone_CTI(i_cti), .iBusWishbone_BTE(i_bte),
        .dBusWishbone_CYC(d_cyc), .dBusWishbone_STB(d_stb), .dBusWishbone_ACK(d_ack),
        .dBusWishbone_WE(d_we), .dBusWishbone_ADR(d_adr), .dBusWishbone_DAT_MISO(d_dat_r),
        .dBusWishbone_DAT_MOSI(d_dat_w), .dBusWishbone_SEL(d_sel), .dBusWishbone_ERR(d_err),
        .dBusWishbone_CTI(d_cti), .dBusWishbone_BTE(d_bte),
        .clk(clk), .reset(rst)
    );

    // ------------------------------------------------------------------ bus decode
    // RAM: one access per edge on the memory's CPU port, the data bus first, with no wait
    // state (the port reads combinationally: ACK in the cycle of the strobe); the other
    // targets ACK from a register, so the master's strobe is a new one whenever no ACK is out
    wire [31:0] d_addr = {d_adr, 2'b00};
    wire        d_req = d_cyc && d_stb;
    wire        d_is_ram = d_addr < MEM_BYTES;
    wire        d_is_nic = d_addr[31:16] == 16'h8000;
    wire        d_is_sys = d_addr[31:8] == 24'hF0_0000;
    reg         d_sys_ack;
    wire        d_nic_ack, d_nic_err;
    wire [31:0] d_nic_dat, ram_rdata;
    reg  [31:0] d_sys_dat;
    wire        d_ack_reg = d_sys_ack || d_nic_ack || d_nic_err;   // an ACK of a registered target is out

    wire d_use_ram = d_req && d_is_ram;
    wire i_use_ram = i_cyc && i_stb && !d_use_ram;
    wire d_ram_ack = d_use_ram;
    assign i_ack = i_use_ram;
    assign i_dat_r = ram_rdata;

    // the system registers and accesses outside the map
    integer con_fd, trace_fd;
    reg [8*1024-1:0] con_path, trace_path;
    initial begin
        con_fd = 0;
        trace_fd = 0;
        if ($value$plusargs("prionic_console=%s", con_path)) begin
            con_fd = $fopen(con_path, "w");
        end
        if ($value$plusargs("prionic_trace=%s", trace_path)) begin
            trace_fd = $fopen(trace_path, "w");
        end
    end

    always @(posedge clk) begin
        if (finish && trace_fd != 0) begin
            $fflush(trace_fd);
        end
    end

    wire d_use_sys = d_req && !d_is_ram && !d_is_nic && !d_ack_reg;
    always @(posedge clk) begin
        if (rst) begin
            d_sys_ack <= 1'b0;
            d_sys_dat <= 32'd0;
            mtimecmp <= {64{1'b1}};
            status_fw_state <= 32'd0;
            status_exit <= 1'b0;
            status_exit_code <= 32'd0;
            status_console <= 32'd0;
            status_trace <= 32'd0;
            status_bad_access <= 32'd0;
        end else begin
            d_sys_ack <= d_use_sys;
            if (d_use_sys) begin
                d_sys_dat <= 32'hBADA_CCE5;
                if (!d_is_sys) begin
                    status_bad_access <= status_bad_access + 32'd1;
                    $display("prionic_tb_sys: access outside the memory map at 0x%08x (edge %0d)", d_addr, cyc);
                end else if (d_we) begin
                    case (d_addr[7:0])
                        8'h00: begin
                            if (con_fd != 0) begin
                                $fwrite(con_fd, "%c", d_dat_w[7:0]);
                                $fflush(con_fd);
                            end
                            status_console <= status_console + 32'd1;
                        end
                        8'h04: begin
                            status_exit <= 1'b1;
                            status_exit_code <= d_dat_w;
                        end
                        8'h08: status_fw_state <= d_dat_w;
                        8'h18: mtimecmp[31:0] <= d_dat_w;
                        8'h1C: mtimecmp[63:32] <= d_dat_w;
                        8'h20: begin
                            if (trace_fd != 0) begin
                                $fwrite(trace_fd, "%08x\n", d_dat_w);
                            end
                            status_trace <= status_trace + 32'd1;
                        end
                        default: status_bad_access <= status_bad_access + 32'd1;
                    endcase
                end else begin
                    case (d_addr[7:0])
                        8'h0C: d_sys_dat <= {30'd0, status_done, stop};
                        8'h10: d_sys_dat <= cyc[31:0];
                        8'h14: d_sys_dat <= cyc[63:32];
                        8'h18: d_sys_dat <= mtimecmp[31:0];
                        8'h1C: d_sys_dat <= mtimecmp[63:32];
                        default: status_bad_access <= status_bad_access + 32'd1;
                    endcase
                end
            end
        end
    end

    always @(*) begin
        if (d_ram_ack) begin
            d_dat_r = ram_rdata;
        end else if (d_sys_ack) begin
            d_dat_r = d_sys_dat;
        end else begin
            d_dat_r = d_nic_dat;
        end
    end
    assign d_ack = d_ram_ack || d_sys_ack || d_nic_ack;
    assign d_err = d_nic_err;

    // ------------------------------------------------------------------ the NIC
    // the register bus, named as the NIC's ports (rtl/prionic_axi.vh)
    `PRIONIC_AXIL_WIRES(AXIL_ADDR_WIDTH)
    assign s_axil_awprot = 3'd0;
    assign s_axil_arprot = 3'd0;

    // not used by this bench: the instruction port's write side, burst hints, the byte
    // lanes of a word address
    wire unused = &{1'b0, i_we, i_dat_w, i_sel, i_cti, i_bte, d_cti, d_bte, d_addr[1:0]};

    prionic_tb_nic #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .NUM_RULES(NUM_RULES),
        .MIN_IDLE(MIN_IDLE),
        .MEM_BYTES(MEM_BYTES),
        .RING_LO(RING_LO),
        .RING_SPAN(RING_SPAN),
        .AXIL_ADDR_WIDTH(AXIL_ADDR_WIDTH)
    ) nic_inst (
        .clk(clk), .rst(rst), .cyc(cyc), .go(go), .finish(finish),
        .run_prio(8'd0),   // the kernel writes the RUN_PRIO register instead
        .err_arm(err_arm), .err_addr(err_addr),
        `PRIONIC_AXIL_S_CONN,
        .cpu_en(d_use_ram || i_use_ram), .cpu_we(d_use_ram && d_we), .cpu_sel(d_sel),
        .cpu_addr(d_use_ram ? d_addr : {i_adr, 2'b00}), .cpu_wdata(d_dat_w), .cpu_rdata(ram_rdata),
        .irq(irq), .irq_err(irq_err),
        .status_played(status_played), .status_done(status_done), .status_verdicts(status_verdicts),
        .status_accepted(status_accepted), .status_completions(status_completions)
    );

    prionic_tb_wb_axil #(
        .ADDR_WIDTH(AXIL_ADDR_WIDTH)
    ) bridge_inst (
        .clk(clk), .rst(rst),
        .wb_cyc(d_cyc), .wb_stb(d_stb && d_is_nic && !d_ack_reg), .wb_we(d_we), .wb_adr(d_adr),
        .wb_sel(d_sel), .wb_dat_w(d_dat_w), .wb_dat_r(d_nic_dat), .wb_ack(d_nic_ack), .wb_err(d_nic_err),
        .m_axil_awaddr(s_axil_awaddr), .m_axil_awvalid(s_axil_awvalid), .m_axil_awready(s_axil_awready),
        .m_axil_wdata(s_axil_wdata), .m_axil_wstrb(s_axil_wstrb), .m_axil_wvalid(s_axil_wvalid), .m_axil_wready(s_axil_wready),
        .m_axil_bresp(s_axil_bresp), .m_axil_bvalid(s_axil_bvalid), .m_axil_bready(s_axil_bready),
        .m_axil_araddr(s_axil_araddr), .m_axil_arvalid(s_axil_arvalid), .m_axil_arready(s_axil_arready),
        .m_axil_rdata(s_axil_rdata), .m_axil_rresp(s_axil_rresp), .m_axil_rvalid(s_axil_rvalid), .m_axil_rready(s_axil_rready)
    );

endmodule

`resetall
