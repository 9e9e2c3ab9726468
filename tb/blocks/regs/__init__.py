"""Block tests of prionic_regs (rtl/prionic_regs*.v)."""
