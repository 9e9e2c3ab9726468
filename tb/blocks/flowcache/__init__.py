"""Block tests of prionic_flowcache (rtl/prionic_flowcache*.v)."""
