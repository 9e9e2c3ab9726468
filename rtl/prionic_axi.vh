// SPDX-License-Identifier: MIT
//
// prionic_axi.vh: the DMA's AXI4 master port list (F12), written once for the modules that
// carry it (prionic_dma_write: write channels, prionic_dma_prefetch: read channels,
// prionic_dma, prionic_rx, prionic_eth_rx: both), and below it the register bus's AXI4-Lite
// slave port list (prionic_rx, prionic_eth_rx, the testbench tops). `include it before the module; in the
// port list write
//
//     `PRIONIC_AXI_M_WRITE_PORTS(ID_W, ADDR_W, DATA_W, STRB_W)   AW, W and B: m_axi_awid .. m_axi_bready
//     `PRIONIC_AXI_M_READ_PORTS(ID_W, ADDR_W, DATA_W)            AR and R:    m_axi_arid .. m_axi_rready
//
// (ID, address, data and strobe widths: the module's parameters; no comma after the last
// port, so a comma follows the macro unless it ends the list), and in an instance of such a
// module, each of its m_axi_* ports to the signal of the same name:
//
//     `PRIONIC_AXI_M_WRITE_CONN    `PRIONIC_AXI_M_READ_CONN
//
// The prefix is fixed (m_axi_): Verilog-2005 has no token pasting. Burst length, size,
// type, lock, cache, protection and response widths are AXI4's own (A2.2, A2.3, A2.4).
`ifndef PRIONIC_AXI_VH
`define PRIONIC_AXI_VH

`define PRIONIC_AXI_M_WRITE_PORTS(ID_W, ADDR_W, DATA_W, STRB_W) \
    output wire [ID_W-1:0]           m_axi_awid, \
    output wire [ADDR_W-1:0]         m_axi_awaddr, \
    output wire [7:0]                m_axi_awlen, \
    output wire [2:0]                m_axi_awsize, \
    output wire [1:0]                m_axi_awburst, \
    output wire                      m_axi_awlock, \
    output wire [3:0]                m_axi_awcache, \
    output wire [2:0]                m_axi_awprot, \
    output wire                      m_axi_awvalid, \
    input  wire                      m_axi_awready, \
    output wire [DATA_W-1:0]         m_axi_wdata, \
    output wire [STRB_W-1:0]         m_axi_wstrb, \
    output wire                      m_axi_wlast, \
    output wire                      m_axi_wvalid, \
    input  wire                      m_axi_wready, \
    input  wire [ID_W-1:0]           m_axi_bid, \
    input  wire [1:0]                m_axi_bresp, \
    input  wire                      m_axi_bvalid, \
    output wire                      m_axi_bready

`define PRIONIC_AXI_M_READ_PORTS(ID_W, ADDR_W, DATA_W) \
    output wire [ID_W-1:0]           m_axi_arid, \
    output wire [ADDR_W-1:0]         m_axi_araddr, \
    output wire [7:0]                m_axi_arlen, \
    output wire [2:0]                m_axi_arsize, \
    output wire [1:0]                m_axi_arburst, \
    output wire                      m_axi_arlock, \
    output wire [3:0]                m_axi_arcache, \
    output wire [2:0]                m_axi_arprot, \
    output wire                      m_axi_arvalid, \
    input  wire                      m_axi_arready, \
    input  wire [ID_W-1:0]           m_axi_rid, \
    input  wire [DATA_W-1:0]         m_axi_rdata, \
    input  wire [1:0]                m_axi_rresp, \
    input  wire                      m_axi_rlast, \
    input  wire                      m_axi_rvalid, \
    output wire                      m_axi_rready

`define PRIONIC_AXI_M_WRITE_CONN \
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), \
    .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), \
    .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot), \
    .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), \
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), \
    .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready), \
    .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid), \
    .m_axi_bready(m_axi_bready)

`define PRIONIC_AXI_M_READ_CONN \
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), \
    .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), \
    .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot), \
    .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), \
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), \
    .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)

// The register bus (docs/registers.md): prionic_rx's AXI4-Lite slave port list, 32-bit data
// (`PRIONIC_AXIL_S_PORTS(ADDR_W), no comma after the last port), an instance's same-name
// connections (`PRIONIC_AXIL_S_CONN), and, in a module that instantiates such a slave, the
// wires of those names (`PRIONIC_AXIL_WIRES(ADDR_W)).
`define PRIONIC_AXIL_S_PORTS(ADDR_W) \
    input  wire [ADDR_W-1:0] s_axil_awaddr, \
    input  wire [2:0]        s_axil_awprot, \
    input  wire              s_axil_awvalid, \
    output wire              s_axil_awready, \
    input  wire [31:0]       s_axil_wdata, \
    input  wire [3:0]        s_axil_wstrb, \
    input  wire              s_axil_wvalid, \
    output wire              s_axil_wready, \
    output wire [1:0]        s_axil_bresp, \
    output wire              s_axil_bvalid, \
    input  wire              s_axil_bready, \
    input  wire [ADDR_W-1:0] s_axil_araddr, \
    input  wire [2:0]        s_axil_arprot, \
    input  wire              s_axil_arvalid, \
    output wire              s_axil_arready, \
    output wire [31:0]       s_axil_rdata, \
    output wire [1:0]        s_axil_rresp, \
    output wire              s_axil_rvalid, \
    input  wire              s_axil_rready

`define PRIONIC_AXIL_S_CONN \
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid), \
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), \
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp), \
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr), \
    .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready), \
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid), \
    .s_axil_rready(s_axil_rready)

`define PRIONIC_AXIL_WIRES(ADDR_W) \
    wire [ADDR_W-1:0] s_axil_awaddr, s_axil_araddr; \
    wire [2:0]        s_axil_awprot, s_axil_arprot; \
    wire              s_axil_awvalid, s_axil_awready, s_axil_wvalid, s_axil_wready; \
    wire              s_axil_bvalid, s_axil_bready, s_axil_arvalid, s_axil_arready; \
    wire              s_axil_rvalid, s_axil_rready; \
    wire [31:0]       s_axil_wdata, s_axil_rdata; \
    wire [3:0]        s_axil_wstrb; \
    wire [1:0]        s_axil_bresp, s_axil_rresp;

`endif
