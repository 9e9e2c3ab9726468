"""Block tests of prionic_gmii_rx (rtl/prionic_gmii_rx*.v)."""
