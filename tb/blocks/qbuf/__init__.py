"""Block tests of prionic_qbuf (rtl/prionic_qbuf*.v)."""
