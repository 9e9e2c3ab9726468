"""prionic testbench: cocotb + pyuvm environment, bus models, host driver, scoreboard (F19)."""
