"""Block tests of the DMA engine and its parts (rtl/prionic_dma*.v)."""
