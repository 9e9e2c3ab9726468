"""Register file (``prionic_regs``) of the prionic golden model: storage, address decode
and what a write does in the block (docs/registers.md, docs/regmap.toml; F13, F15, F24).

:meth:`Registers.write` dispatches on the registers' attributes in docs/regmap.toml, the
source the RTL block is generated from (gen/regblock/): access (RO, W1C), byte strobes,
``accept`` rules (a refused write changes nothing, sets the sticky ``RING_REFUSED`` bit
and counts), ``effects`` (``clear`` of another register at the write's edge, ``pulse``
to the rest of the NIC at the next). It returns the pulses and W1C bits as a
:class:`Written`; what they do outside the block is :meth:`model.nic.PrionicModel._write`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from model import regmap
from model.classifier import Rule, TableView
from model.config import ModelConfig
from model.moderation import ModerationConfig

MASK32 = 0xFFFFFFFF
_F = regmap.FIELDS


@dataclass
class Written:
    """What a register write at cycle w did in the block, for the rest of the NIC.

    ``w1c``: the W1C bits written (with their strobes), cleared at w+1; otherwise the write
    was kept: ``old`` is the value it replaced, ``selected`` whether its strobes selected a
    byte of the register (if not: no side effect, F24) and ``pulses`` the [pulses] it
    raises at w+1, in order."""

    name: str
    index: int
    w1c: int = 0
    old: int = 0
    selected: bool = False
    pulses: list[str] = dataclasses.field(default_factory=list)


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
        self.val["FLOW_TABLE_SETS"][0] = cfg.flow_table_sets
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

    def ring_idle(self, q: int, busy: bool) -> bool:
        """A ring register write is kept (F24): no frame admitted to queue q is left
        (``busy`` False) and the queue is disabled or its ring is below 2 slots, so that
        nothing can be admitted to it either."""
        enabled = self.val["QUEUE_CTRL"][q] >> _F["QUEUE_CTRL_ENABLE"] & 1
        return not busy and (not enabled or self.val["RING_SIZE"][q] < 2)

    def write(self, addr: int, data: int, strb: int, busy: list[bool], head: list[int]) -> Written | None:
        """A register write (registers.md access rules; timing.md s2-3, s5): None when it
        changes nothing (unmapped, read-only, W1C of no bit, refused by an ``accept`` rule).
        ``busy`` and ``head``: per queue, whether admitted frames are left and RING_HEAD, as
        before the write's edge w (the DMA's head register: a completion at w is not yet
        seen), for the ``when:ring_idle`` and ``tail`` rules."""
        d = self.decode(addr & ~3)  # the slave ignores the two low address bits
        if d is None:
            return None  # unmapped: ignored
        name, i = d
        reg = regmap.REGS[name]
        if reg.access == "RO":
            return None
        nq = self.cfg.num_queues
        if reg.access == "W1C":  # clr at edge w+1; bit q needs the strobe of byte q/8
            width = nq if name == "IRQ_CAUSE" else reg.width(nq)
            bits = data & ((1 << width) - 1) & sum(1 << q for q in range(width) if strb >> (q // 8) & 1)
            return Written(name, i, w1c=bits) if bits else None
        vals = self.val
        value = reg.write_value(vals[name][i], data, strb, nq)
        if not all(self._accepts(rule, name, i, data, strb, value, busy, head) for rule in reg.accept):
            # refused: nothing changes; a write selecting a byte of the register is flagged (F24)
            if strb & reg.byte_mask(nq):
                self.refused(reg.block, i)
            return None
        out = Written(name, i, old=vals[name][i], selected=bool(strb & reg.byte_mask(nq)))
        vals[name][i] = value
        if not out.selected:
            return out  # the write selects no byte of the register: no side effect (F24)
        for effect in reg.effects:
            kind, _, arg = effect.partition(":")
            if kind == "clear":  # at edge w
                vals[arg][i] = 0
            else:  # "pulse": at edge w+1; the sticky bits it clears, at edge w (F24)
                self.pulsed(arg, i)
                out.pulses.append(arg)
        return out

    def _accepts(self, rule: str, name: str, i: int, data: int, strb: int, value: int,
                 busy: list[bool], head: list[int]) -> bool:
        """Whether ``rule`` of register ``name`` (docs/regmap.toml ``accept``, F24) keeps a write
        of ``data`` with strobes ``strb`` (stored value ``value``) to instance ``i``, at its edge."""
        vals = self.val
        kind, _, arg = rule.partition(":")
        if kind == "when":  # "when:ring_idle": ring registers of an idle queue only
            if arg != "ring_idle":
                raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}) has no meaning in the model")
            return self.ring_idle(i, busy[i])
        if kind == "below":  # the new value is below another register
            return value < vals[arg][i]
        if kind == "aligned":  # none of the zero_lsbs bits written (after the strobes)
            reg = regmap.REGS[name]
            return not reg.strobed(vals[name][i], data, strb) & ((1 << reg.zero_lsbs) - 1)
        if kind == "tail":  # a doorbell may only post free slots: HEAD as the block sees it at w
            head_reg, _, size_reg = arg.partition("/")
            if head_reg != "RING_HEAD":
                raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}): the model knows RING_HEAD only")
            size = vals[size_reg][i]
            old = vals[name][i]
            if value >= size:
                return False
            return (value - old) % size <= (head[i] - 1 - old) % size
        raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}) has no meaning in the model")

    def table_view(self, m: int) -> TableView:
        """Rule table, default and fragment actions, flow cache setup as seen at edge m."""
        v = self.val
        rules = [Rule(v["RULE_CTRL"][r], v["RULE_DPORT"][r], v["RULE_SPORT"][r], v["RULE_ETHERTYPE"][r],
                      v["RULE_SRC_IP"][r], v["RULE_SRC_MASK"][r], v["RULE_DST_IP"][r], v["RULE_DST_MASK"][r],
                      v["RULE_VLAN"][r])
                 for r in range(self.cfg.num_rules)]
        return TableView(rules, v["DEFAULT_ACTION"][0], v["FRAG_ACTION"][0],
                         bool(v["FLOW_CTRL"][0] >> _F["FLOW_CTRL_ENABLE"] & 1), v["FLOW_IDLE"][0])

    def moderation_configs(self, run_port: int) -> list[ModerationConfig]:
        """Each queue's moderation settings as the registers hold them, with the ``run_prio``
        port at ``run_port`` (a queue is gated at or below the running priority, F16)."""
        v = self.val
        return [ModerationConfig(
            frames=v["ITR_FRAMES"][q],
            pkt=v["ITR_PKT"][q],
            abs=v["ITR_ABS"][q],
            gap=v["ITR_GAP"][q],
            immediate=bool(v["ITR_CTRL"][q] >> _F["ITR_CTRL_IMMEDIATE"] & 1),
            mask=bool(v["IRQ_MASK"][0] >> q & 1),
            gated=v["QUEUE_PRIO"][q] <= max(v["RUN_PRIO"][0], run_port),
            exempt=bool(v["IRQ_BUDGET_EXEMPT"][0] >> q & 1),
            prio=v["QUEUE_PRIO"][q],
        ) for q in range(self.cfg.num_queues)]
