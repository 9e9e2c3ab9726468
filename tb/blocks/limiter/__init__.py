"""Block tests of prionic_limiter (rtl/prionic_limiter*.v)."""
