"""The LiteX SoCs with prionic on a board's RGMII PHY (docs/soc.md, F29, F32).

Each target is litex-boards' own SoC for the board (VexRiscv, its SDRAM as main RAM, SPI
flash, UART) with prionic added by ``soc.core.add_prionic`` on one PHY's receive pins:

* ``colorlight_i9``: Colorlight i9 v7.2 (LFE5U-45F-6BG381C) on its extension board, two
  RGMII PHYs: LiteEth on PHY 0 (the BIOS's netboot), prionic on PHY 1. The two PHYs share
  MDIO, MDC and reset pins; prionic takes only PHY 1's receive clock and receive pins.
* ``ecpix5``: LambdaConcept ECPIX-5 (LFE5UM5G-85F-8BG554I, DDR3), one RGMII PHY, prionic
  on it (its reset pin held released).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from litex.build.generic_platform import Subsignal

RECEIVE = ("rx_ctl", "rx_data")

# what litex-boards' command line gives a target by default (VexRiscv, the BIOS in a 128 KiB ROM),
# but no L2 cache in front of main RAM: prionic's DMA writes the DRAM past it (soc.core.add_prionic)
SOC_DEFAULTS = {"cpu_type": "vexriscv", "integrated_rom_size": 0x20000, "l2_size": 0}


def receive_pins(platform, name: str, number: int, keep: tuple[str, ...]):
    """Request only the ``keep`` subsignals of resource ``name``/``number`` (as ``prionic_<name>``),
    so that pins another resource shares (MDIO, the PHY reset) stay free for it."""
    for resource in platform.constraint_manager.available:
        if resource[0] == name and resource[1] == number:
            break
    else:
        raise ValueError(f"{type(platform).__module__} has no resource {name}:{number}")
    subsignals = [item for item in resource[2:] if isinstance(item, Subsignal) and item.name in keep]
    missing = set(keep) - {s.name for s in subsignals}
    if missing:
        raise ValueError(f"{name}:{number} has no {', '.join(sorted(missing))}")
    others = [item for item in resource[2:] if not isinstance(item, Subsignal)]
    platform.add_extension([(f"prionic_{name}", number, *subsignals, *others)])
    return platform.request(f"prionic_{name}", number)


@dataclass(frozen=True)
class Board:
    name: str
    device: str
    sys_clk_freq: float
    build: Callable[..., object]
    summary: str


def _colorlight_i9(sys_clk_freq: float, **soc_args):
    from litex_boards.targets.colorlight_i5 import BaseSoC

    from soc.core import add_prionic

    soc = BaseSoC(board="i9", revision="7.2", sys_clk_freq=sys_clk_freq, with_ethernet=True, eth_phy=0, **soc_args)
    clocks = receive_pins(soc.platform, "eth_clocks", 1, ("rx",))
    pads = receive_pins(soc.platform, "eth", 1, RECEIVE)
    add_prionic(soc, clocks.rx, pads)
    return soc


def _ecpix5(sys_clk_freq: float, **soc_args):
    from litex_boards.targets.lambdaconcept_ecpix5 import BaseSoC

    from soc.core import add_prionic

    soc = BaseSoC(device="85F", sys_clk_freq=sys_clk_freq, **soc_args)
    clocks = receive_pins(soc.platform, "eth_clocks", 0, ("rx",))
    pads = receive_pins(soc.platform, "eth", 0, (*RECEIVE, "rst_n"))
    soc.comb += pads.rst_n.eq(1)
    add_prionic(soc, clocks.rx, pads)
    return soc


BOARDS = {
    b.name: b
    for b in (
        Board("colorlight_i9", "LFE5U-45F-6BG381C", 62.5e6, _colorlight_i9,
              "Colorlight i9 v7.2: LiteEth on PHY 0, prionic on PHY 1, SDR SDRAM"),
        Board("ecpix5", "LFE5UM5G-85F-8BG554I", 75e6, _ecpix5,
              "LambdaConcept ECPIX-5 85F: prionic on the RGMII PHY, DDR3"),
    )
}


def make_soc(board: str, sys_clk_freq: float | None = None, **soc_args):
    """The SoC of ``board`` (a key of ``BOARDS``) at ``sys_clk_freq`` (default: the board's)."""
    if board not in BOARDS:
        raise ValueError(f"unknown board {board!r}: one of {', '.join(BOARDS)}")
    spec = BOARDS[board]
    return spec.build(sys_clk_freq or spec.sys_clk_freq, **{**SOC_DEFAULTS, **soc_args})
