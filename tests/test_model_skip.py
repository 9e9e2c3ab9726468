"""The golden model's edge skipping against its edge-by-edge reference: random inputs, the
same outcomes, interrupts and state (model/nic.py; docs/timing.md s1). This is the one
model-vs-model comparison, which is what it is for.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment. Shared helpers: tests/model_helpers.py.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from model import regmap
from model.config import ModelConfig
from model.nic import PrionicModel
from tests.model_helpers import EN, MDPORT, A, V, dport_range, qsel, udp

# =============================================================================== skip vs reference


def _random_inputs(seed: int, nq: int, cycles: int) -> tuple[list[tuple[int, int, int]], list[tuple[int, bytes]]]:
    rnd = random.Random(seed)
    writes: list[tuple[int, int, int]] = []
    w = 0
    for q in range(nq):
        writes += [
            (w, A("RING_SIZE", q), 0xFFFF),
            (w + 1, A("RING_TAIL", q), 0xFFFE),
            (w + 2, A("RULE_CTRL", q), EN | MDPORT | qsel(q)),
            (w + 3, A("RULE_DPORT", q), dport_range(q, q)),
        ]
        w += 4
    used = {c for c, _, _ in writes}
    itr = ("ITR_FRAMES", "ITR_PKT", "ITR_ABS", "ITR_GAP")
    c = w
    while c < cycles:
        c += rnd.choice((1, 1, 2, 3, 7, 20, 60, 300, 1500))
        if c in used:
            continue
        used.add(c)
        kind = rnd.random()
        if kind < 0.55:
            q = rnd.randrange(nq)
            reg = rnd.choice(itr)
            val = rnd.choice((0, 0, 1, 2, 3, 5, 8, 17, 40))
            writes.append((c, A(reg, q), val))
        elif kind < 0.65:
            writes.append((c, A("ITR_CTRL", rnd.randrange(nq)), rnd.randrange(2)))
        elif kind < 0.75:
            writes.append((c, A("TICK_DIV"), rnd.choice((0, 1, 2, 3, 5, 8, 13, 125))))
        elif kind < 0.87:
            writes.append((c, A("IRQ_MASK"), rnd.randrange(1 << nq)))
        else:
            writes.append((c, A("IRQ_CAUSE"), rnd.randrange(1 << nq)))
    frames: list[tuple[int, bytes]] = []
    t = 10
    while t < cycles - 100:
        t += rnd.choice((1, 2, 3, 5, 9, 30, 120, 700))
        frames.append((t, udp(dport=rnd.randrange(nq + 1))))  # dport nq: unregistered
    return writes, frames


def _build(
    writes: list[tuple[int, int, int]],
    frames: list[tuple[int, bytes]],
    cpls: list[tuple[int, int]],
    nq: int,
    skip: bool,
) -> PrionicModel:
    m = PrionicModel(ModelConfig(num_queues=nq), skip=skip)
    for c, a, d in writes:
        m.reg_write(c, a, d)
    for t, data in frames:
        m.frame(t, data)
    for c, q in cpls:
        m.completion(c, q)
    return m


def _snapshot(m: PrionicModel) -> dict[str, object]:
    cfg = m.cfg
    regs = {}
    for name, reg in regmap.REGS.items():
        n = {"global": 1, "queue": cfg.num_queues, "rule": cfg.num_rules}[reg.block]
        for i in range(n):
            regs[(name, i)] = m.read_reg(A(name, i))
    return {
        "outcomes": [dataclasses.asdict(o) for o in m.outcomes],
        "irq_fires": m.irq_fires,
        "irq_edges": m.irq_edges,
        "irq_legacy_edges": m.irq_legacy_edges,
        "completions": m.completions,
        "regs": regs,
        "pcnt": m.prescaler.pcnt,
        "state": [dict(vars(mod)) for mod in m.moderation],
    }


@pytest.mark.parametrize("seed,nq", [(1, 2), (2, 3), (3, 4), (4, 8), (5, 1)])
def test_skip_matches_reference(seed: int, nq: int) -> None:
    """F14, F15, F17: skipping idle/non-tick edges gives exactly the per-edge reference results."""
    cycles = 30_000
    writes, frames = _random_inputs(seed, nq, cycles)
    probe = _build(writes, frames, [], nq, skip=True)
    probe.run(cycles)
    accepted = [o for o in probe.outcomes if o.verdict == V["ACCEPT"]]
    rnd = random.Random(seed * 7919)
    cpls: list[tuple[int, int]] = []
    last = 0
    for o in accepted:  # in admission order, one per cycle, after the admission
        last = max(last + 1, o.admit_cycle + 1 + rnd.choice((0, 0, 1, 4, 30, 200)))
        if last < cycles - 10:
            cpls.append((last, o.queue))
    ref = _build(writes, frames, cpls, nq, skip=False)
    fast = _build(writes, frames, cpls, nq, skip=True)
    ref.run(cycles)
    fast.run(cycles)
    assert ref.evaluated_edges == cycles + 1
    assert fast.evaluated_edges < ref.evaluated_edges
    assert len(ref.irq_fires) > 20  # the stream does exercise the moderation
    assert _snapshot(fast) == _snapshot(ref)
    # running in chunks gives the same as one run
    chunked = _build(writes, frames, cpls, nq, skip=True)
    for end in range(997, cycles, 4999):
        chunked.run(end)
    chunked.run(cycles)
    assert _snapshot(chunked) == _snapshot(ref)
