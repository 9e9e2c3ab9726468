"""Block tests of prionic_admit (rtl/prionic_admit*.v)."""
