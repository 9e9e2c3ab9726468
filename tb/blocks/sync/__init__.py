"""Block tests of the clock-domain synchronisers (rtl/prionic_sync_bit.v, rtl/prionic_sync_count.v)."""
