"""Functional coverage of the prionic top (F30), with cocotb-coverage's coverage module.

Sampled in bulk from a run the scoreboard has checked (tb/top/scoreboard.py ``Run`` and the
golden model built from it), never per cycle: a test that checks against the model calls
``sample_run`` after its check, and with ``PRIONIC_COVERAGE=1`` (`make coverage`) each
call writes its bins to ``out/coverage/func/<test>-<id>.yml``. ``merge`` adds the files of
a whole regression up (cocotb-coverage's ``merge_coverage``) and ``report`` lists every
bin no run hit.

Cover points (every bin is a string, the same in every file whatever the build's
NUM_QUEUES: queues 0..MAX_QUEUES-1, which the 8-queue builds of the regression all have).
Each bin is a combination that can occur; what is not crossed is left out on purpose, for
the reason given where the bins are built (docs/verification.md lists them too):

* ``verdict_queue_class``: the frame's verdict x its queue x what the frame was
  (``frame_class``), crossed where it matters (``_verdict_bins``);
* ``irq_cause``: queue x why moderation fired (timing.md section 5: frame count, packet
  timer, absolute timer, immediate; ``model.moderation.Moderation.why``);
* ``dma_event_state``: every ``[enums.dma_event]`` x the DMA state that decided it
  (the DMA write engine's ``state_reg``, in ``prionic_dma_write``, before the event's edge, read
  by tb/top/monitor.py through
  the instance's handle: only on the bus path, and on Verilator only in `make coverage`'s
  builds, which make that one register public, tb/coverage/coverage.vlt), for the states in which
  the RTL can decide the event (``EVENT_STATES``);
* ``gating``: queue x gated on / off (F16: RUN_PRIO or the run_prio port against QUEUE_PRIO);
* ``flow_cache``: hit, the miss reasons (empty, other, SYN), expiry, invalidation by a
  table write, eviction by TCP FIN/RST (F8).

cocotb-coverage's ``coverage`` module does not import cocotb (its ``crv`` module does not
either): it works with cocotb 2 as it is.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from cocotb_coverage.coverage import CoverPoint, coverage_db, merge_coverage

from model import regmap
from model.moderation import WHY_NAMES
from model.parser import Parser

if TYPE_CHECKING:
    from model.nic import PrionicModel
    from tb.top.frames import Frame
    from tb.top.scoreboard import Run

ROOT = Path(__file__).resolve().parents[2]
FUNC_DIR = ROOT / "out" / "coverage" / "func"
TOP = "prionic"
MAX_QUEUES = 8  # the most queues any build of the regression has (tests/test_top.py)

# verdicts that name a queue (frame-path.md section 6: stat_verdict_queue); the others carry 0
# verdicts that name a queue (frame-path.md section 6: stat_verdict_queue); the others carry 0
QUEUE_VERDICTS = ("ACCEPT", "RING_FULL", "BUF_OVERFLOW", "QBUF_FULL", "RATE_LIMITED", "QUEUE_DISABLED")
REFUSALS = QUEUE_VERDICTS[1:]
GLOBAL_VERDICTS = tuple(v for v in regmap.VERDICTS if v not in QUEUE_VERDICTS)
# what a frame was, in the order the admission decides (tuser, length, parser: model/admit.py)
BAD_CLASSES = {"bad_fcs": "BAD_FRAME", "oversize": "OVERSIZE", "runt": "MALFORMED", "malformed": "MALFORMED"}
GOOD_CLASSES = ("fragment", "vlan", "ipv6", "tcp", "udp", "icmp", "arp", "other")
LOOKED_UP = GOOD_CLASSES[1:]  # fragments skip the rule table (FRAG_ACTION decides them, F7)
FLOW_BINS = ("hit", "miss_empty", "miss_other", "miss_syn", "expired", "invalidated", "evicted")
STATES = {v: k for k, v in regmap.ENUMS["dma_state"].items()}
EVENTS = {v: k for k, v in regmap.ENUMS["dma_event"].items()}
# S_DATA_AW and S_CPL_AW last one edge and always go on to S_DATA_W / S_CPL_W: an event
# at that edge is binned with the burst it starts
FOLD = {"DATA_AW": "DATA_W", "CPL_AW": "CPL_W"}
# where the frame FSM rests while a response or a handshake is awaited beside it: idle, a
# frame waiting in S_DESC, skipping a frame (of a stopped queue, or with a bad buffer or
# ring: prionic_qbuf never hands the DMA a dropped frame), writing a frame, waiting for its Bs
RESTING = ("IDLE", "DESC_AR", "SKIP", "DATA_W", "DATA_B")
# ... and those of them a write-back can be owed in: S_SKIP is entered from S_DESC only once
# none is owed, and no write-back is sent before it ends
OWED = ("IDLE", "DESC_AR", "DATA_W", "DATA_B")
# F24: per DMA event, the states of prionic_dma_write's state_reg (before the event's edge E, read
# by tb/top/monitor.py, folded by FOLD) crossed with it. What the RTL allows, and why:
EVENT_STATES: dict[str, tuple[str, ...]] = {
    # checked in S_DESC only, once no write-back is owed
    "RING_ERR": ("DESC_AR",),
    "BUF_ERR": ("DESC_AR",),
    # a data burst's B comes while that frame is written (its later bursts) or its Bs are
    # waited for: the next frame cannot start before them
    "DATA_ERR": ("DATA_W", "DATA_B"),
    # the write-back's B is owed while the next frame goes on (S_DESC then waits for it)
    "WB_ERR": OWED,
    # the write watchdog (S_DATA_B, or a write-back owed) and the read watchdog (a
    # descriptor read out, beside the frame FSM)
    "TIMEOUT": RESTING,
    # the descriptor prefetch's error beat and withheld AR, beside the frame FSM
    "DESC_ERR": RESTING,
    "STALL_R": RESTING,
    # S_DROP ends a frame of a stopped queue unwritten; a lost write-back's frame is flushed
    # the edge after its TIMEOUT, wherever the frame FSM is while one is owed
    "FLUSH": ("DROP",) + OWED,
    # AW or W offered and not taken for DMA_TIMEOUT edges: the states that offer them and
    # stay while they wait (a burst of a frame, a write-back, a burst a reset cut)
    "STALL_W": ("DATA_W", "CPL_W", "OWE"),
}
# Not crossed: the events decided beside the frame FSM (B path, prefetch, watchdogs) with
# the states it passes through in one or two edges (S_CPL_W without a stall, S_DROP) or
# only after a reset (S_OWE): which of those edges an asynchronous response lands on
# changes nothing in how it is handled (the event logic does not read state_reg there).

_PARSER = Parser()
log = logging.getLogger("prionic.funccov")


def frame_class(fr: Frame, max_frame_len: int = 1518) -> str:
    """What ``fr`` was, from its own bytes and flags (the model's parser)."""
    if fr.tuser:
        return "bad_fcs"
    p = _PARSER.parse(fr.data, fr.tkeep_ok)
    if p.length > max_frame_len:
        return "oversize"
    if p.malformed:
        return "runt" if p.length < 60 else "malformed"
    if p.frag:
        return "fragment"
    if p.vlan_tags:
        return "vlan"
    if p.is_ipv6:
        return "ipv6"
    if p.is_ipv4 or p.is_ipv6:
        return {6: "tcp", 17: "udp", 1: "icmp"}.get(p.proto, "other")
    return "arp" if p.ethertype == 0x0806 else "other"


def _verdict_bins() -> list[str]:
    """verdict x queue x frame class, crossed where it matters (docs/verification.md):

    * ``ACCEPT/q<n>/<class>``: every class reaches every queue, by a rule or, for a
      fragment, by FRAG_ACTION.QUEUE;
    * ``<refusal>/q<n>``: the queue's refusals (admission steps after classification,
      timing.md s3) read the queue's registers and state and the frame's length, never its
      class: not crossed with the class;
    * ``<verdict>/-/<class>``: verdicts that carry no queue, with the classes that can get
      them: a bad, oversize or malformed frame only its own verdict; a fragment never
      UNREGISTERED (it never reaches the rule table) and only FRAGMENT or RULE_DROP
      (FRAG_ACTION.QUEUE >= NUM_QUEUES) of the rest.
    """
    queues = [f"q{q}" for q in range(MAX_QUEUES)]
    bins = [f"ACCEPT/{q}/{c}" for q in queues for c in GOOD_CLASSES]
    bins += [f"{v}/{q}" for v in REFUSALS for q in queues]
    bins += [f"{v}/-/{c}" for c, v in BAD_CLASSES.items()]
    bins += ["FRAGMENT/-/fragment"]
    bins += [f"UNREGISTERED/-/{c}" for c in LOOKED_UP]
    bins += [f"RULE_DROP/-/{c}" for c in GOOD_CLASSES]
    return bins


def bins() -> dict[str, list[str]]:
    """Every cover point's bins."""
    queues = [f"q{q}" for q in range(MAX_QUEUES)]
    return {
        "verdict_queue_class": _verdict_bins(),
        "irq_cause": [f"{q}/{why}" for q in queues for why in WHY_NAMES.values()],
        "dma_event_state": [f"{e}/{s}" for e, states in EVENT_STATES.items() for s in states],
        "gating": [f"{q}/{edge}" for q in queues for edge in ("on", "off")],
        "flow_cache": list(FLOW_BINS),
    }


def _fresh_db() -> dict[str, Callable[[str], None]]:
    """An empty coverage database with every cover point; returns a sampler per point."""
    coverage_db.clear()
    samplers = {}
    for name, point_bins in bins().items():
        @CoverPoint(f"{TOP}.{name}", bins=point_bins)
        def sample(value: str) -> None:
            pass

        samplers[name] = sample
    return samplers


def run_values(run: Run, model: PrionicModel) -> dict[str, list[str]]:
    """The bin of every sampled event of a checked run (the same for DUT and model)."""
    frames = run.frames
    out: dict[str, list[str]] = {k: [] for k in bins()}
    names = regmap.VERDICT_NAMES
    for o in model.outcomes:
        v = names[o.verdict]
        c = frame_class(frames[o.index], run.cfg.max_frame_len)
        if v == "ACCEPT":
            out["verdict_queue_class"].append(f"{v}/q{o.queue}/{c}")
        elif v in REFUSALS:
            out["verdict_queue_class"].append(f"{v}/q{o.queue}")
        else:
            out["verdict_queue_class"].append(f"{v}/-/{c}")
        if o.flow:
            look = {"hit": "hit", "expired": "expired", "cleared": "invalidated"}.get(o.flow_why, f"miss_{o.flow_why}")
            out["flow_cache"].append(look)
            if o.flow_evict:
                out["flow_cache"].append("evicted")
    for _c, q, why in model.irq_why:
        out["irq_cause"] += [f"q{q}/{name}" for bit, name in WHY_NAMES.items() if why & bit]
    states = getattr(run.observed, "dma_states", [])
    if len(states) == len(run.observed.dma_events):  # the bus path's monitor read the state (tb/top/monitor.py)
        for (_e, _q, code), st in zip(run.observed.dma_events, states, strict=True):
            name = STATES.get(st, str(st))
            out["dma_event_state"].append(f"{EVENTS.get(code, code)}/{FOLD.get(name, name)}")
    for _m, q, gated in model.gate_edges:
        out["gating"].append(f"q{q}/{'on' if gated else 'off'}")
    return out


def sample_values(values: dict[str, list[str]]) -> list[str]:
    """A fresh database sampled with ``values``; returns the values no bin has."""
    samplers = _fresh_db()
    known = {k: set(v) for k, v in bins().items()}
    outside = []
    for name, vals in values.items():
        for v in vals:
            if v in known[name]:
                samplers[name](v)
            else:
                outside.append(f"{name}: {v}")
    return outside


def enabled() -> bool:
    return os.environ.get("PRIONIC_COVERAGE", "0") == "1"


def sample_run(run: Run, model: PrionicModel | None, label: str, out_dir: Path | None = None) -> Path | None:
    """With PRIONIC_COVERAGE=1 (or ``out_dir`` given): sample a checked run and write its bins
    to ``<out_dir>/<label>-<id>.yml``; returns the file (None when off or without a model)."""
    if model is None or (out_dir is None and not enabled()):
        return None
    outside = sample_values(run_values(run, model))
    out_dir = out_dir or FUNC_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{label}-{uuid.uuid4().hex[:8]}.yml"
    coverage_db.export_to_yaml(str(path))
    if outside:  # values the bins do not foresee: reported by tb/coverage/covreport.py, never a test failure
        log.warning("functional coverage: no bin for %s", ", ".join(outside))
        path.with_suffix(".outside").write_text("".join(f"{v}\n" for v in outside))
    return path


def merge(files: Iterable[Path], merged: Path) -> Path:
    """Add the bins of ``files`` up into ``merged`` (cocotb-coverage's YAML merge)."""
    names = [str(f) for f in sorted(files)]
    if not names:
        raise ValueError("no functional coverage files to merge (did the tests run with PRIONIC_COVERAGE=1?)")
    merge_coverage(log.debug, str(merged), *names)
    return merged


def report(merged: Path) -> tuple[int, int, list[str]]:
    """(bins hit, bins in all, every bin no run hit as ``point: bin``) of a merged file."""
    db = yaml.safe_load(merged.read_text())
    hit = total = 0
    missing = []
    for name in sorted(db):
        item = db[name]
        if "bins:_hits" not in item:
            continue
        for b, n in item["bins:_hits"].items():
            total += 1
            if n >= item["at_least"]:
                hit += 1
            else:
                missing.append(f"{name.removeprefix(TOP + '.')}: {b}")
    return hit, total, missing


def grouped(missing: list[str]) -> list[str]:
    """``report``'s bins not hit, one line per cover point and bin prefix, each bin still
    named: ``irq_cause: q3/{abs_timer, frames}``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for m in missing:
        point, b = m.split(": ", 1)
        head, _, last = b.rpartition("/")
        groups.setdefault((point, head), []).append(last)
    out = []
    for (point, head), lasts in groups.items():
        if not head:
            out.append(f"{point}: {', '.join(lasts)}")
        elif len(lasts) == 1:
            out.append(f"{point}: {head}/{lasts[0]}")
        else:
            out.append(f"{point}: {head}/{{{', '.join(lasts)}}}")
    return out
