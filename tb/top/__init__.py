"""The prionic_rx / prionic_eth_rx environment (frames, host memory and driver model,
monitor, scoreboard, the run procedure) and the top-level tests (directed, corners, faults)."""
