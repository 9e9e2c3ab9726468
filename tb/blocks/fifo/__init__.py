"""Block tests of prionic_fifo (rtl/prionic_fifo*.v)."""
