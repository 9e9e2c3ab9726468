"""Block tests of prionic_async_fifo (rtl/prionic_async_fifo*.v)."""
