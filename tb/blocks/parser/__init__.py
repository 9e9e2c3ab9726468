"""Block tests of prionic_parser (rtl/prionic_parser*.v)."""
