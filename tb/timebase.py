"""The testbench's clock period, free of cocotb (tb/common.py starts the clock with it;
the scenario tools convert microseconds to cycles with it)."""

PERIOD_NS = 8  # 125 MHz: TICK_DIV = 125 gives 1 us ticks
