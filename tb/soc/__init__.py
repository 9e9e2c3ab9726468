"""Tests of the LiteX SoC pieces (soc/): the RGMII receiver in front of prionic_eth_rx."""
