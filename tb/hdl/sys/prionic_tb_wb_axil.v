// SPDX-License-Identifier: MIT
//
// prionic_tb_wb_axil: a Wishbone (classic, 32-bit) slave that carries each access on to an
// AXI4-Lite master port, one at a time (the full-system top, docs/system.md: the CPU's data
// bus to prionic_rx's registers). A write drives AW and W together from the edge after the
// Wishbone strobe is sampled (each held until its own handshake), then waits for B; a read
// drives AR, then waits for R. The Wishbone ACK is high for the one cycle after the B or R
// handshake, with the read data; a B or R error response sets ERR instead of ACK.
// ADDR_WIDTH low bits of the byte address reach the AXI4-Lite side.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_tb_wb_axil #(
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  wb_cyc,
    input  wire                  wb_stb,
    input  wire                  wb_we,
    input  wire [29:0]           wb_adr,      // word address
    input  wire [3:0]            wb_sel,
    input  wire [31:0]           wb_dat_w,
    output reg  [31:0]           wb_dat_r,
    output reg                   wb_ack,
    output reg                   wb_err,

    output reg  [ADDR_WIDTH-1:0] m_axil_awaddr,
    output reg                   m_axil_awvalid,
    input  wire                  m_axil_awready,
    output reg  [31:0]           m_axil_wdata,
    output reg  [3:0]            m_axil_wstrb,
    output reg                   m_axil_wvalid,
    input  wire                  m_axil_wready,
    input  wire [1:0]            m_axil_bresp,
    input  wire                  m_axil_bvalid,
    output wire                  m_axil_bready,
    output reg  [ADDR_WIDTH-1:0] m_axil_araddr,
    output reg                   m_axil_arvalid,
    input  wire                  m_axil_arready,
    input  wire [31:0]           m_axil_rdata,
    input  wire [1:0]            m_axil_rresp,
    input  wire                  m_axil_rvalid,
    output wire                  m_axil_rready
);

    localparam [1:0] S_IDLE = 2'd0, S_WRITE = 2'd1, S_READ = 2'd2, S_DONE = 2'd3;
    reg [1:0] state;

    wire [31:0] byte_addr = {wb_adr, 2'b00};

    assign m_axil_bready = state == S_WRITE && !m_axil_awvalid && !m_axil_wvalid;
    assign m_axil_rready = state == S_READ && !m_axil_arvalid;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            m_axil_awvalid <= 1'b0;
            m_axil_wvalid <= 1'b0;
            m_axil_arvalid <= 1'b0;
            m_axil_awaddr <= {ADDR_WIDTH{1'b0}};
            m_axil_araddr <= {ADDR_WIDTH{1'b0}};
            m_axil_wdata <= 32'd0;
            m_axil_wstrb <= 4'd0;
            wb_dat_r <= 32'd0;
            wb_ack <= 1'b0;
            wb_err <= 1'b0;
        end else begin
            wb_ack <= 1'b0;
            wb_err <= 1'b0;
            case (state)
                S_IDLE: begin
                    if (wb_cyc && wb_stb) begin
                        if (wb_we) begin
                            m_axil_awaddr <= byte_addr[ADDR_WIDTH-1:0];
                            m_axil_wdata <= wb_dat_w;
                            m_axil_wstrb <= wb_sel;
                            m_axil_awvalid <= 1'b1;
                            m_axil_wvalid <= 1'b1;
                            state <= S_WRITE;
                        end else begin
                            m_axil_araddr <= byte_addr[ADDR_WIDTH-1:0];
                            m_axil_arvalid <= 1'b1;
                            state <= S_READ;
                        end
                    end
                end
                S_WRITE: begin
                    if (m_axil_awready) begin
                        m_axil_awvalid <= 1'b0;
                    end
                    if (m_axil_wready) begin
                        m_axil_wvalid <= 1'b0;
                    end
                    if (m_axil_bready && m_axil_bvalid) begin
                        wb_ack <= m_axil_bresp == 2'b00;
                        wb_err <= m_axil_bresp != 2'b00;
                        state <= S_DONE;
                    end
                end
                S_READ: begin
                    if (m_axil_arready) begin
                        m_axil_arvalid <= 1'b0;
                    end
                    if (m_axil_rready && m_axil_rvalid) begin
                        wb_dat_r <= m_axil_rdata;
                        wb_ack <= m_axil_rresp == 2'b00;
                        wb_err <= m_axil_rresp != 2'b00;
                        state <= S_DONE;
                    end
                end
                default: begin
                    // the master saw ACK at this edge and drops (or changes) its strobe
                    state <= S_IDLE;
                end
            endcase
        end
    end

    wire unused = &{1'b0, byte_addr[31:ADDR_WIDTH]};

endmodule

`resetall
