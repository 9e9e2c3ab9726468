"""Register file (``prionic_regs``) of the prionic golden model: storage and address
decode (docs/registers.md, docs/regmap.toml; F13, F15). What a write does beyond storing
its value (side effects, W1C, ignored values) is :meth:`model.nic.PrionicModel._write`,
dispatching on the registers' attributes.
"""

from __future__ import annotations

from model import regmap
from model.config import ModelConfig

MASK32 = 0xFFFFFFFF


class Registers:
    """``prionic_regs``: register storage and address decode (registers.md; F13, F15).

    ``val[name][i]`` holds the stored value of instance ``i`` (global registers have one
    instance). Live values (``ITR_PENDING``, ``IRQ_CAUSE``, ``IRQ_STATUS``, ``TIMESTAMP``)
    are read from their blocks by :meth:`PrionicModel.read_reg`.
    """

    def __init__(self, cfg: ModelConfig) -> None:
        self.cfg = cfg
        counts = {"NUM_QUEUES": cfg.num_queues, "NUM_RULES": cfg.num_rules}
        self.val: dict[str, list[int]] = {}
        for name, reg in regmap.REGS.items():
            count = regmap.BLOCKS[reg.block]["count"]
            n = counts[count] if isinstance(count, str) else int(count)
            self.val[name] = [0 if reg.reset == "param" else reg.reset_value(i) for i in range(n)]
        rpc = cfg.rules_per_cycle or cfg.num_rules
        self.val["CONFIG"][0] = regmap.pack_host_fields(
            "CONFIG", NUM_QUEUES=cfg.num_queues, NUM_RULES=cfg.num_rules, DATA_BYTES=cfg.keep_width,
            RULES_PER_CYCLE=rpc)
        self.val["FLOW_ENTRIES"][0] = cfg.flow_entries
        self._decoded: dict[int, tuple[str, int] | None] = {}

    def decode(self, addr: int) -> tuple[str, int] | None:
        """(register name, instance) of a byte address, None when unmapped."""
        try:
            return self._decoded[addr]
        except KeyError:
            d = regmap.decode(addr, self.cfg.num_queues, self.cfg.num_rules)
            self._decoded[addr] = d
            return d

    def bump(self, name: str, index: int = 0, amount: int = 1) -> None:
        """Add to a 32-bit wrapping counter (frame-path.md s5, timing.md s5 "Wrap")."""
        vals = self.val[name]
        vals[index] = (vals[index] + amount) & MASK32
