"""Block tests of prionic_classifier (rtl/prionic_classifier*.v)."""
