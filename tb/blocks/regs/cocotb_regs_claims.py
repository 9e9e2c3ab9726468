"""Block test of prionic_regs against its docs' claims that bits read 0 or ignore writes (F13,
F24, F27): every claim tb/blocks/regs/claims.py collects from docs/regmap.toml (``bits``, access
type, ``source_bits``, ``zero_lsbs``, and the prose of the doc strings) is checked on the
generated register block through AXI4-Lite, beside tb/blocks/regs/ref.py's ``RegModel``, which
predicts the side effects (ring resets, refused ring writes, W1C clears, restarts).

Run through tests/test_regs.py, in the simulator process and on the build of
tb/blocks/regs/cocotb_regs.py (both simulators, both parameter sets).
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from model import regmap
from tb.blocks.regs import claims as regs_claims
from tb.blocks.regs.ref import M32, RegsBench, drive_status

W1C = [n for n, r in regmap.REGS.items() if r.access == "W1C"]


def status_all_ones(b: RegsBench) -> None:
    """Every status input of the block all ones, in the model too: a read-0 bit that took a
    neighbour's slice of a packed input, or a bit beyond it, would read 1."""
    m, d, nq = b.model, b.dut, b.nq
    m.status_head = [0xFFFF] * nq
    m.status_pending = [0xFFFF] * nq
    m.status_cause = m.status_irq = m.status_dma_stopped = (1 << nq) - 1
    m.status_ts = M32
    m.status_pending_prio = 0x1FF
    m.status_budget_left = 0xFFFF
    m.status_qstatus = [0x1FF] * nq
    m.status_dma_stall = 3
    m.status_flow_status = (1 << 26) - 1
    m.status_flow_rval = m.status_flow_used = 0xFFFF
    drive_status(d, m)


async def count_clears(dut, seen: dict[str, int]) -> None:
    """Cycles each W1C register's clear output (cfg_<name>_clr) is non-zero."""
    ports = {n: getattr(dut, f"cfg_{n.lower()}_clr") for n in W1C}
    while True:
        await FallingEdge(dut.clk)
        for n, port in ports.items():
            seen[n] += int(port.value) != 0


@cocotb.test()
async def test_doc_claims(dut):
    """F13, F24, F27: with every status input all ones, each register of the global block and
    of the first and the last queue and rule is written 0xFFFFFFFF, then a random value, then
    its read value with exactly the bits some claim says ignore writes flipped, and read back
    after each write: every bit claimed to read 0 reads 0 (regs_claims.zero_violations); a
    write that flips claimed-ignored bits only (every write to an RO register) changes
    nothing, and for a W1C register pulses no clear (regs_claims.ignore_violations); every
    read equals RegModel. tests/test_regs.py shows the checks fail on planted claims."""
    b = RegsBench(dut)
    await b.start()
    nq, nr = b.nq, b.nr
    cls = regs_claims.claims(nq, nr)
    assert not regs_claims.unparsed_prose({n: r.doc for n, r in regmap.REGS.items()})
    await FallingEdge(dut.clk)
    status_all_ones(b)
    clears = dict.fromkeys(W1C, 0)
    cocotb.start_soon(count_clears(dut, clears))
    count = {"global": 1, "queue": nq, "rule": nr}
    targets = [(n, i) for n, r in regmap.REGS.items() for i in sorted({0, count[r.block] - 1})]
    problems: list[str] = []
    checked = {"zero": 0, "ignored": 0}
    for name, i in targets:
        if name == "RING_TAIL" and b.model.status_head != [0] * nq:
            # a doorbell is judged against HEAD: a HEAD inside every ring from here on
            await FallingEdge(dut.clk)
            b.model.status_head = [0] * nq
            dut.status_head.value = 0
        ignored = regs_claims.ignored_bits(cls[name])
        w1c = regmap.REGS[name].access == "W1C"
        before = b.model.read(name, i)
        for step in ("ones", "random", "flip"):
            if step == "flip" and not ignored:
                break
            # W1C: writing 1 is what changes something; "flip" writes the ignored bits alone
            data = {"ones": M32, "random": b.rng.getrandbits(32),
                    "flip": ignored if w1c else before ^ ignored}[step]
            flipped = data if w1c else data ^ before
            n_clr = clears.get(name, 0)
            await b.write_reg(name, i, data)
            if w1c:
                await ClockCycles(dut.clk, 2)  # a clear pulses at w+1
            after = await b.read_reg(name, i)
            exp = b.model.read(name, i)
            if after != exp:
                problems.append(f"{step}: {name}[{i}] read {after:#x} after a write of {data:#x}, RegModel {exp:#x}")
            problems += regs_claims.zero_violations(cls[name], i, after)
            judged = regs_claims.judged(cls[name], flipped)
            if judged and w1c and clears[name] != n_clr:
                problems.append(f"{name}[{i}]: a write of {data:#x} to claimed-ignored bits only pulsed "
                                f"cfg_{name.lower()}_clr")
            problems += regs_claims.ignore_violations(cls[name], i, flipped, before, after)
            checked["zero"] += any(c.zero for c in cls[name])
            checked["ignored"] += judged
            before = after
    dut._log.info("%d registers, %d reads against read-0 claims, %d writes judged against ignore claims",
                  len(targets), checked["zero"], checked["ignored"])
    assert checked["zero"] and checked["ignored"]
    assert not problems, f"{len(problems)} problem(s), first: " + "; ".join(problems[:12])
    await b.finish()
