"""The full system: VexRiscv running the firmware of sw/fw/ beside prionic_rx."""
