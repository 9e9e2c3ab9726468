"""LiteX SoCs with prionic on a board (docs/soc.md): ``python -m soc --board colorlight_i9``."""
