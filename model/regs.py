"""Register file (``prionic_regs``) of the prionic golden model: storage and address
decode (docs/registers.md, docs/regmap.toml; F13, F15). What a write does beyond storing
its value (side effects, W1C, refused values) is :meth:`model.nic.PrionicModel._write`,
dispatching on the registers' attributes; the sticky bits the block keeps itself
(``QUEUE_STATUS.RING_REFUSED``) and the refusal counters are here (F24).
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
        # sticky bits the register block keeps itself (regmap.toml ``sticky``, F24):
        # (register, field) -> one bit per instance
        self.sticky: dict[tuple[str, str], list[int]] = {
            (name, field): [0] * len(self.val[name])
            for name, reg in regmap.REGS.items() for field, _s, _c in reg.sticky}

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

    def refused(self, block: str, index: int) -> None:
        """A refused write (``accept``, F24) of a register of ``block`` instance ``index`` at its
        edge w: the instance's sticky bits ``set = "refused"`` rise, its ``count = "refused"``
        counters count."""
        for (name, field), bits in self.sticky.items():
            if regmap.REGS[name].block == block and any(f == field and s == "refused"
                                                        for f, s, _c in regmap.REGS[name].sticky):
                bits[index] = 1
        for name, reg in regmap.REGS.items():
            if reg.block == block and reg.count == "refused":
                self.bump(name, index)

    def pulsed(self, pulse: str, index: int) -> None:
        """An accepted write raising [pulses] ``pulse`` of instance ``index``: the sticky bits
        whose ``clear`` it is fall at the write's edge (F24)."""
        for (name, field), bits in self.sticky.items():
            if any(f == field and c == pulse for f, _s, c in regmap.REGS[name].sticky):
                bits[index] = 0

    def sticky_bits(self, name: str, index: int) -> int:
        """The sticky bits of register ``name`` instance ``index``, at their [fields] positions."""
        return sum(bits[index] << regmap.FIELDS[f"{n}_{field}"]
                   for (n, field), bits in self.sticky.items() if n == name)
