"""pytest entry: prionic_eth_rx, the board-ready top, on both simulators (F2, F29).

GMII frames on a 125 MHz gmii_rx_clk into prionic_rx on the system clock through the
clock-crossing frame FIFO, every run checked against the golden model cycle for cycle
(tb/top/cocotb_eth_rx.py). Two builds per simulator: 32 bits (cores at 62.5, 100, 125 MHz and
at 71.4 MHz against a PHY 250 ppm fast; bad input) and 8 bits with a 256-byte FIFO (a core
too slow for the line: whole frames dropped at the FIFO and counted).
"""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_eth_rx_32(sim):
    """F2, F29: line rate of minimum frames delivered whole at four core clocks; bad FCS,
    rx_er, runts, oversize and a burst without SFD get their verdicts through the top."""
    run_sim(sim, "prionic_eth_rx", "tb.top.cocotb_eth_rx", {"DATA_WIDTH": 32},
            testcase=["LineRate62", "LineRate100", "LineRate125", "LineRateUnrelated", "BadInput"])


@pytest.mark.parametrize("sim", SIMULATORS)
def test_eth_rx_slow_core(sim):
    """F29: 8 bits at 62.5 MHz cannot carry the line: only whole frames are dropped, at the
    FIFO, counted in CNT_DROP_FIFO; every frame that arrives is unchanged and delivered."""
    run_sim(sim, "prionic_eth_rx", "tb.top.cocotb_eth_rx", {"DATA_WIDTH": 8, "RX_FIFO_BYTES": 256},
            testcase="SlowCore")
