"""The fast path: a scenario's traffic played by a Verilog player beside prionic_rx and
checked against the model from a recording, with no Python per cycle."""
