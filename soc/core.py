"""prionic_eth_rx as a LiteX module: RGMII receive pins in, AXI-Lite registers and an AXI4 DMA
master on the SoC bus, one interrupt per queue plus the error line into LiteX's interrupt
controller (docs/soc.md, F29, F32).

The Verilog comes from ``rtl/`` as it is; this module only instantiates it and wires it:

* ``PrionicRGMIIRX``: an RGMII receiver (DELAYG + IDDRX1F, as LiteEth's ECP5 PHY) that
  gives GMII on the PHY's receive clock, with ``gmii_rx_er`` decoded (RGMII sends
  RX_DV XOR RX_ER on the falling edge; LiteEth's own receiver drops it).
* ``Prionic``: the ``prionic_eth_rx`` instance, its register port behind a register slice.
  Every parameter is passed as a 32-bit
  constant: Migen writes an ``int`` as a sized literal (``NUM_QUEUES(2'd2)``), and
  ``NUM_QUEUES*NUM_QUEUES`` of two 2-bit constants is 0 in Verilog.
* ``attach_prionic``: puts it on a SoC behind any GMII source: the register window as a bus
  slave, the DMA into main RAM, the interrupt lines; ``add_prionic`` does so behind a
  ``PrionicRGMIIRX`` on a board's PHY pins.
"""

from __future__ import annotations

from litex.build.io import DDRInput
from litex.gen import LiteXModule
from litex.soc.integration.soc import SoCRegion
from litex.soc.interconnect import stream
from litex.soc.interconnect.axi import AXIInterface, AXILiteInterface
from litex.soc.interconnect.csr import CSRStatus, CSRStorage
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourceLevel
from migen import ClockDomain, ClockSignal, Constant, Instance, ResetSignal, Signal

from tb.runner import ROOT, RTL, SOC_RGMII_TOP, default_parameters, rtl_sources

__all__ = ["DEFAULTS", "ROOT", "Prionic", "PrionicRGMIIRX", "add_prionic", "attach_prionic", "rgmii_rx_verilog"]

# prionic_eth_rx's parameters in a SoC (docs/soc.md): 32-bit stream (line rate from 62.5 MHz),
# host memory as wide as LiteX's 32-bit main bus, the register window of 64 KiB
DEFAULTS = {
    "DATA_WIDTH": 32,
    "AXI_DATA_WIDTH": 32,
    "NUM_QUEUES": 2,
    "NUM_RULES": 4,
    "AXI_ADDR_WIDTH": 32,
    "AXI_ID_WIDTH": 4,
    "AXIL_ADDR_WIDTH": 16,
}

# the receive side's input delay, as LiteEth's RGMII PHY (a PHY without its own RX delay)
RX_DELAY_S = 2e-9
DELAY_TAP_S = 25e-12


class PrionicRGMIIRX(LiteXModule):
    """RGMII receive pins (``rx_ctl``, ``rx_data``) to GMII on the ``prionic_rx`` clock domain.

    ``clock_pad`` is the PHY's receive clock (125 MHz at 1000 Mb/s). The outputs are
    registered once on that clock: ``rxd``, ``rx_dv``, ``rx_er``.
    """

    def __init__(self, clock_pad, pads, rx_delay: float = RX_DELAY_S):
        self.cd_prionic_rx = ClockDomain(reset_less=True)
        self.comb += self.cd_prionic_rx.clk.eq(clock_pad)
        self.rxd = Signal(8)
        self.rx_dv = Signal()
        self.rx_er = Signal()

        taps = int(rx_delay / DELAY_TAP_S)
        assert 0 <= taps < 128, "DELAYG takes 0..127 taps of 25 ps"
        ctl = Signal(2, name="rx_ddr_ctl")  # RX_DV on the rising edge, RX_DV ^ RX_ER on the falling
        data = Signal(8, name="rx_ddr_data")  # [3:0] on the rising edge, [7:4] on the falling
        wires = [(pads.rx_ctl, ctl[0], ctl[1])]
        wires += [(pads.rx_data[i], data[i], data[i + 4]) for i in range(4)]
        for pin, rise, fall in wires:
            delayed = Signal()
            self.specials += Instance("DELAYG", p_DEL_MODE="SCLK_ALIGNED", p_DEL_VALUE=taps, i_A=pin, o_Z=delayed)
            self.specials += DDRInput(clk=ClockSignal("prionic_rx"), i=delayed, o1=rise, o2=fall)
        self.sync.prionic_rx += [
            self.rxd.eq(data),
            self.rx_dv.eq(ctl[0]),
            self.rx_er.eq(ctl[0] ^ ctl[1]),
        ]


class Prionic(LiteXModule):
    """``prionic_eth_rx`` with LiteX interfaces: ``bus`` (AXI-Lite slave), ``dma`` (AXI4 master),
    ``ev`` (one level interrupt per queue and ``err``), CSRs ``run_prio``, ``pend_prio``, ``reset``.

    ``gmii``: a ``PrionicRGMIIRX`` (or anything with ``rxd``, ``rx_dv``, ``rx_er`` on the
    ``prionic_rx`` clock domain). ``parameters`` override ``DEFAULTS``.
    """

    def __init__(self, platform, gmii, **parameters):
        params = {**DEFAULTS, **parameters}
        unknown = set(parameters) - set(default_parameters("prionic_eth_rx"))  # its header's parameters
        if unknown:
            raise ValueError(f"prionic_eth_rx has no parameter {', '.join(sorted(unknown))}")
        self.parameters = params
        queues = params["NUM_QUEUES"]
        self.bus = AXILiteInterface(data_width=32, address_width=32)
        lite = AXILiteInterface(data_width=32, address_width=32)
        self._register_slice(self.bus, lite, pipe_ready=False)
        self.dma = AXIInterface(
            data_width=params["AXI_DATA_WIDTH"], address_width=params["AXI_ADDR_WIDTH"],
            id_width=params["AXI_ID_WIDTH"], bursting=True,
        )
        # prionic's side of the DMA's slice (Migen names a signal after the variable it is made
        # into, so each interface is made where it is named: the SoC's netlist keeps its names)
        dma = AXIInterface(
            data_width=params["AXI_DATA_WIDTH"], address_width=params["AXI_ADDR_WIDTH"],
            id_width=params["AXI_ID_WIDTH"], bursting=True,
        )
        self._register_slice(dma, self.dma, pipe_ready=True)

        self.reset = CSRStorage(1, description="1: hold prionic in reset (its registers too); the bus stays up.")
        self.run_prio = CSRStorage(8, description="Running task's priority into prionic's run_prio port (F16).")
        self.pend_prio = CSRStatus(9, description="{valid, highest QUEUE_PRIO pending} (F16).")

        self.ev = EventManager()
        irq = Signal(queues)
        irq_err = Signal()
        for q in range(queues):
            source = EventSourceLevel(name=f"queue{q}", description=f"Queue {q}'s interrupt line (F15).")
            setattr(self.ev, f"queue{q}", source)
            self.comb += source.trigger.eq(irq[q])
        self.ev.err = EventSourceLevel(name="err", description="A queue stopped by a DMA error (F24).")
        self.comb += self.ev.err.trigger.eq(irq_err)
        self.ev.finalize()

        rst = Signal()
        self.comb += rst.eq(ResetSignal("sys") | self.reset.storage)
        aw, w, b, ar, r = dma.aw, dma.w, dma.b, dma.ar, dma.r
        addr_bits = params["AXIL_ADDR_WIDTH"]
        self.specials += Instance(
            "prionic_eth_rx",
            **{f"p_{k}": Constant(v, 32) for k, v in params.items()},
            i_clk=ClockSignal("sys"), i_rst=rst, i_bus_rst=ResetSignal("sys"),
            i_gmii_rx_clk=ClockSignal("prionic_rx"),
            i_gmii_rxd=gmii.rxd, i_gmii_rx_dv=gmii.rx_dv, i_gmii_rx_er=gmii.rx_er,
            # DMA: AXI4 master
            o_m_axi_awid=aw.id, o_m_axi_awaddr=aw.addr, o_m_axi_awlen=aw.len, o_m_axi_awsize=aw.size,
            o_m_axi_awburst=aw.burst, o_m_axi_awlock=aw.lock, o_m_axi_awcache=aw.cache,
            o_m_axi_awprot=aw.prot, o_m_axi_awvalid=aw.valid, i_m_axi_awready=aw.ready,
            o_m_axi_wdata=w.data, o_m_axi_wstrb=w.strb, o_m_axi_wlast=w.last,
            o_m_axi_wvalid=w.valid, i_m_axi_wready=w.ready,
            i_m_axi_bid=b.id, i_m_axi_bresp=b.resp, i_m_axi_bvalid=b.valid, o_m_axi_bready=b.ready,
            o_m_axi_arid=ar.id, o_m_axi_araddr=ar.addr, o_m_axi_arlen=ar.len, o_m_axi_arsize=ar.size,
            o_m_axi_arburst=ar.burst, o_m_axi_arlock=ar.lock, o_m_axi_arcache=ar.cache,
            o_m_axi_arprot=ar.prot, o_m_axi_arvalid=ar.valid, i_m_axi_arready=ar.ready,
            i_m_axi_rid=r.id, i_m_axi_rdata=r.data, i_m_axi_rresp=r.resp, i_m_axi_rlast=r.last,
            i_m_axi_rvalid=r.valid, o_m_axi_rready=r.ready,
            # registers: AXI4-Lite slave (the window's offset: the address's low bits)
            i_s_axil_awaddr=lite.aw.addr[:addr_bits], i_s_axil_awprot=lite.aw.prot,
            i_s_axil_awvalid=lite.aw.valid, o_s_axil_awready=lite.aw.ready,
            i_s_axil_wdata=lite.w.data, i_s_axil_wstrb=lite.w.strb, i_s_axil_wvalid=lite.w.valid,
            o_s_axil_wready=lite.w.ready, o_s_axil_bresp=lite.b.resp, o_s_axil_bvalid=lite.b.valid,
            i_s_axil_bready=lite.b.ready,
            i_s_axil_araddr=lite.ar.addr[:addr_bits], i_s_axil_arprot=lite.ar.prot,
            i_s_axil_arvalid=lite.ar.valid, o_s_axil_arready=lite.ar.ready,
            o_s_axil_rdata=lite.r.data, o_s_axil_rresp=lite.r.resp, o_s_axil_rvalid=lite.r.valid,
            i_s_axil_rready=lite.r.ready,
            # interrupts and the running priority (F15, F16)
            i_run_prio=self.run_prio.storage, o_irq=irq, o_irq_err=irq_err,
            o_status_pend_prio=self.pend_prio.status,
        )
        self.comb += [aw.qos.eq(0), aw.region.eq(0), ar.qos.eq(0), ar.region.eq(0)]
        for path in rtl_sources():
            platform.add_source(str(path))
        platform.add_verilog_include_path(str(RTL))

    def _register_slice(self, master, slave, *, pipe_ready: bool) -> None:
        """Every channel between the AXI (or AXI-Lite) ``master`` and ``slave`` through a
        register slice (LiteX's ``stream.Buffer``): valid and payload registered (one cycle
        more per transfer), and with ``pipe_ready`` ready too (a skid register, no cycle more),
        so that no path runs between the SoC's interconnect and prionic in one cycle. Each
        channel keeps its order and its handshake rules: a slice is a legal slave to the master
        and a legal master to the slave.

        Registers (AXI-Lite slave): valid and payload, so that no path runs from the SoC's bus
        arbiter and bridge into prionic's address decode. DMA (AXI4 master): ready as well, so
        that no path runs from LiteDRAM's AXI frontend (its write buffer's level and the native
        command's ready) into the DMA engine's handshakes (docs/soc.md)."""
        for name, forward in (("aw", True), ("w", True), ("ar", True), ("b", False), ("r", False)):
            src, dst = (master, slave) if forward else (slave, master)
            pipe = stream.Buffer(getattr(src, name).description, pipe_valid=True, pipe_ready=pipe_ready)
            self.submodules += pipe
            self.comb += [getattr(src, name).connect(pipe.sink), pipe.source.connect(getattr(dst, name))]


def attach_prionic(soc, gmii, name: str = "prionic", **parameters) -> Prionic:
    """Put prionic on ``soc`` behind ``gmii`` (see ``Prionic``): the register window (64 KiB,
    uncached) as a bus slave, the DMA into main RAM, its interrupts into the CPU's controller.
    Returns the ``Prionic`` module.

    With LiteDRAM (``soc.sdram``) the DMA takes a port of the DRAM crossbar of its own width
    (LiteDRAM's AXI frontend: bursts stay bursts, and the CPU's bus is not in the way); the SoC
    must then have no L2 cache in front of main RAM (``l2_size=0``), which would hide the DMA's
    writes from the CPU. Without LiteDRAM the DMA is a master of the SoC bus."""
    setattr(soc, name, Prionic(soc.platform, gmii, **parameters))  # the module's signals take its name
    core = getattr(soc, name)
    size = 1 << core.parameters["AXIL_ADDR_WIDTH"]
    soc.bus.add_slave(name, core.bus, region=SoCRegion(size=size, cached=False))
    if hasattr(soc, "sdram"):
        from litedram.frontend.axi import LiteDRAMAXI2Native

        if getattr(soc, "l2_cache", None) is not None:
            raise ValueError("prionic's DMA writes main RAM past the L2 cache: build the SoC with l2_size=0")
        port = soc.sdram.crossbar.get_port(data_width=core.parameters["AXI_DATA_WIDTH"])
        origin = soc.bus.regions["main_ram"].origin
        soc.add_module(f"{name}_dma", LiteDRAMAXI2Native(core.dma, port, base_address=origin))
    else:
        soc.bus.add_master(f"{name}_dma", master=core.dma)
    if soc.irq.enabled:
        soc.irq.add(name, use_loc_if_exists=True)
    return core


def add_prionic(soc, clock_pad, pads, name: str = "prionic", **parameters) -> Prionic:
    """``attach_prionic`` behind a ``PrionicRGMIIRX`` on a PHY's receive clock ``clock_pad`` and
    receive pins ``pads``, with that clock constrained to 125 MHz."""
    soc.submodules += (gmii := PrionicRGMIIRX(clock_pad, pads))
    soc.platform.add_period_constraint(clock_pad, 1e9 / 125e6)
    return attach_prionic(soc, gmii, name, **parameters)


def rgmii_rx_verilog() -> str:
    """``PrionicRGMIIRX`` alone, for its test (tests/test_soc.py), as the Verilog module
    ``prionic_soc_rgmii_rx`` (tb.runner's ``SOC_RGMII_TOP``) with ECP5 primitives
    (DELAYG, IDDRX1F) as LiteX's trellis toolchain lowers them. Ports: ``rgmii_rx_clk``,
    ``rgmii_rx_ctl``, ``rgmii_rxd[3:0]`` in; ``gmii_rxd[7:0]``, ``gmii_rx_dv``, ``gmii_rx_er`` out."""
    from litex.build.lattice.common import lattice_ecp5_trellis_special_overrides
    from migen import Record
    from migen.fhdl.verilog import convert

    clock = Signal(name_override="rgmii_rx_clk")
    pads = Record([("rx_ctl", 1), ("rx_data", 4)])
    pads.rx_ctl.name_override = "rgmii_rx_ctl"
    pads.rx_data.name_override = "rgmii_rxd"
    rx = PrionicRGMIIRX(clock, pads)
    rx.rxd.name_override, rx.rx_dv.name_override, rx.rx_er.name_override = "gmii_rxd", "gmii_rx_dv", "gmii_rx_er"
    ios = {clock, pads.rx_ctl, pads.rx_data, rx.rxd, rx.rx_dv, rx.rx_er}
    return str(convert(rx, ios, name=SOC_RGMII_TOP, special_overrides=lattice_ecp5_trellis_special_overrides))
