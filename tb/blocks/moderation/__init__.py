"""Block tests of prionic_moderation (rtl/prionic_moderation*.v)."""
