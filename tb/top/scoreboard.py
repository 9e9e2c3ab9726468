"""Scoreboard: holds the DUT's observed behaviour against the golden model, exactly (F17).

The model gets only the environment's inputs, each with the cycle the monitor saw it:
frame ends (T), register writes (w) and completion write-backs (C, a DUT output the
model takes as a timing input, docs/timing.md section 2). The scoreboard then compares:

1. every frame's verdict, queue, rule id and verdict cycle (stat_verdict, T+12 for a looked-up frame);
2. every completion: ring slot, order per queue, and that C follows the verdict;
3. what the host read back: length, rule, queue, status, timestamp and every data byte;
4. every interrupt: the cycle of each stat_irq pulse and each irq line edge;
5. every counter and status register, read over AXI4-Lite at the end;
6. the out-of-bounds write checker's findings (must be none);
7. F24: the irq_err line, DMA events against the bus's error responses, and which
   completions carry ERR (the model takes the DMA events as timing inputs).

``compare`` returns a list of mismatch descriptions (empty = pass) so that a test can
also show the scoreboard bites by feeding it a deliberately wrong model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model import regmap
from model.config import ModelConfig
from model.nic import PrionicModel
from tb.top.frames import Frame
from tb.top.host import Delivered, fletcher32
from tb.top.monitor import Observed

MAX_REPORT = 12  # mismatches listed per category


@dataclass
class Run:
    """Everything one test run produced, for the scoreboard."""

    cfg: ModelConfig
    frames: list[Frame]
    observed: Observed
    delivered: list[list[Delivered]]
    registers: dict[int, int]           # address -> value read at the end (monitor: reg_reads)
    violations: list[str] = field(default_factory=list)


def build_model(run: Run, model_cls: type[PrionicModel] = PrionicModel) -> tuple[PrionicModel, dict[int, int]]:
    """The model fed with the run's inputs and run to its last cycle, and what each
    register read of the run returns according to it (address -> value)."""
    model = model_cls(run.cfg)
    obs = run.observed
    for w, addr, data, strb in obs.reg_writes:
        model.reg_write(w, addr, data, strb)
    for t, fr in zip(obs.frames_t, run.frames, strict=True):
        model.frame(t, fr.data, tuser=fr.tuser, tkeep_ok=fr.tkeep_ok)
    for c, q, _slot in obs.completions:
        model.completion(c, q, obs.cpl_sent.get(c))
    for e, q, code in obs.dma_events:  # F24: DMA errors and flushes, timing inputs like C
        model.dma_event(e, q, code)
    for p, value in obs.run_prio:
        model.run_prio_input(p, value)
    for k, counter in obs.ext_drops:  # F2, F29: frames lost before the stream input, timing inputs
        model.ext_drop(k, counter)
    # a read accepted at edge r returns the state after edge r - 1: the model is run up to
    # there for each read in turn (live registers such as IRQ_BUDGET_LEFT change on their own)
    reads: dict[int, int] = {}
    for r, addr in obs.reg_reads:
        model.run(r - 1)
        reads[addr] = model.read_reg(addr)
    model.run(obs.last_cycle)
    return model, reads


def _diff(name: str, got: list, exp: list, out: list[str]) -> None:
    if got == exp:
        return
    n = 0
    for i in range(max(len(got), len(exp))):
        g = got[i] if i < len(got) else "<none>"
        e = exp[i] if i < len(exp) else "<none>"
        if g != e:
            out.append(f"{name}[{i}]: DUT {g} != model {e}")
            n += 1
            if n >= MAX_REPORT:
                out.append(f"{name}: ... more mismatches (DUT {len(got)} items, model {len(exp)})")
                return


def compare(run: Run, model_cls: type[PrionicModel] = PrionicModel) -> list[str]:
    """The mismatches between the run and a model of class ``model_cls`` (empty = pass)."""
    return check(run, model_cls)[1]


def check(run: Run, model_cls: type[PrionicModel] = PrionicModel) -> tuple[PrionicModel | None, list[str]]:
    """Build the model from the run's inputs and compare; returns the model (None if it
    refused the inputs) so that callers can report from it without building it again."""
    out: list[str] = list(run.violations)
    obs = run.observed
    if len(obs.frames_t) != len(run.frames):
        out.append(f"frames: driver sent {len(run.frames)}, monitor saw {len(obs.frames_t)} tlast")
        return None, out
    try:
        model, reads = build_model(run, model_cls)
    except Exception as exc:  # the model refuses an input: itself a mismatch
        import traceback

        out.append(f"model rejected the observed inputs: {exc!r}\n{traceback.format_exc()}")
        return None, out

    # 1. per-frame verdicts
    exp_v = [(o.verdict_cycle, o.verdict, o.queue, o.rule) for o in model.outcomes]
    _diff("verdict (cycle, code, queue, rule)", obs.verdicts, exp_v, out)

    # 2. completions: slot order per queue, after the verdict
    for q in range(run.cfg.num_queues):
        exp = model.expected_completions(q)
        got = [(c, s) for c, qq, s in obs.completions if qq == q]
        _diff(f"completion slots q{q}", [s for _, s in got], [o.slot for o in exp], out)
        for (c, _s), o in zip(got, exp, strict=False):
            if c <= o.verdict_cycle:
                out.append(f"q{q} frame {o.index}: completion at {c} not after its verdict at {o.verdict_cycle}")

        # 3. what the host read back (F24: an ERR write-back says length 0; one whose write
        # got an error response is not in memory)
        dl = run.delivered[q]
        seen = [o for o in exp if o.dma != "wb_err"]
        _diff(f"delivered q{q} (len, rule, queue, status, ts, info)",
              [(d.length, d.rule, d.qfield, d.status, d.ts, d.info) for d in dl],
              [(0 if o.dma == "err" else o.length, o.rule, q,
                1 << regmap.DESC["status_dd"] | (1 << regmap.DESC["status_err"] if o.dma == "err" else 0) | o.flags,
                o.timestamp, o.info)
               for o in seen[: len(dl)]],
              out)
        if len(dl) != len(seen):
            out.append(f"q{q}: host read {len(dl)} completions, model expects {len(seen)}")
        for d, o in zip(dl, seen, strict=False):
            want = b"" if o.dma == "err" else run.frames[o.index].data
            if d.data is None and d.csum is None:
                continue   # the host read the fields, not the bytes (a full-system swdemux drop)
            if d.data is None and d.csum != fletcher32(want):
                out.append(f"q{q} slot {d.slot}: the checksum of the bytes the host read ({d.csum:#x}) is not "
                           f"frame {o.index}'s ({fletcher32(want):#x})")
            elif d.data is not None and d.data != want:
                out.append(f"q{q} slot {d.slot}: buffer bytes differ from frame {o.index}")

    # 4. interrupts, to the cycle
    end = obs.last_cycle
    _diff("stat_irq pulses (cycle, q)", obs.fires, [f for f in model.irq_fires if f[0] <= end], out)
    _diff("irq line edges (cycle, q, level)", obs.irq_edges,
          [e for e in model.irq_edges if e[0] <= end], out)

    # F24: the irq_err line, and every error event but TIMEOUT, RING_ERR and BUF_ERR answers
    # an error response on the bus at its edge
    _diff("irq_err edges (cycle, level)", obs.irq_err_edges, [e for e in model.irq_err_edges if e[0] <= end], out)
    ev = regmap.ENUMS["dma_event"]
    resp = {c: kind for c, kind in obs.resp_errors}
    for e, q, code in obs.dma_events:
        want = {ev["DESC_ERR"]: "r", ev["DATA_ERR"]: "b", ev["WB_ERR"]: "b"}.get(code)
        if want is not None and resp.get(e) != want:
            out.append(f"DMA event {code} of q{q} at {e}: no {want.upper()} error response at that edge")

    # F24: each STRAY_B follows a B handshake since the previous STRAY_B, up to its edge
    b_edges = sorted(set(obs.stray_b) | {b.b_cycle for b in obs.bursts if b.b_cycle is not None})
    prev = -1
    for e, q, code in obs.dma_events:
        if code == ev["STRAY_B"]:
            if not any(prev < b <= e for b in b_edges):
                out.append(f"STRAY_B of q{q} at {e}: no B handshake after {prev} up to that edge")
            prev = e

    # F24: each STALL_W or STALL_R follows a real stall of its direction: VALID without READY
    # (and, on the write side, neither AW nor W taken) for DMA_TIMEOUT edges in a row up to E
    # (the DMA_TIMEOUT last written before E; a rewrite in the middle of a stall is not covered)
    runs = {e: (wr, rr) for e, wr, rr in obs.stall_runs}
    treg = regmap.REGS["DMA_TIMEOUT"]
    for e, q, code in obs.dma_events:
        if code not in (ev["STALL_W"], ev["STALL_R"]):
            continue
        timeout = treg.reset_value()  # the value out of reset (docs/regmap.toml), then the writes
        for w, addr, data, strb in obs.reg_writes:
            if w < e and addr & ~3 == treg.addr():
                timeout = treg.write_value(timeout, data, strb, run.cfg.num_queues)
        got = runs.get(e, (0, 0))[0 if code == ev["STALL_W"] else 1]
        if timeout == 0 or got < timeout:
            out.append(f"DMA event {code} of q{q} at {e}: stalled {got} edges in a row, DMA_TIMEOUT {timeout}")

    # 5. registers read at the end
    for addr, value in sorted(run.registers.items()):
        exp_val = reads.get(addr)
        if exp_val is None:
            out.append(f"register @0x{addr:04x}: the monitor saw no read of it")
            continue
        if value != exp_val:
            name = regmap.decode(addr, run.cfg.num_queues, run.cfg.num_rules)
            out.append(f"register {name} @0x{addr:04x}: DUT {value} != model {exp_val}")
    return model, out


def readback_addresses(num_queues: int, num_rules: int) -> list[int]:
    """Every register but TIMESTAMP: the scoreboard reads them all at the end of a run."""
    addrs = []
    for reg in regmap.REGS.values():
        if reg.name == "TIMESTAMP":  # depends on the cycle of the read itself
            continue
        count = {"global": 1, "queue": num_queues, "rule": num_rules}[reg.block]
        addrs += [reg.addr(i) for i in range(count)]
    return addrs
