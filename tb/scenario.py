"""Scenarios (F21, F22): a TOML file of traffic sources and NIC/host settings, run on the RTL
with the full testbench (so every run is also checked against the model), and turned
into a text and JSON report, an FST waveform and a GTKWave save file.

    python -m tb.scenario scenarios/default.toml [--sim icarus|verilator] [--out DIR]

``make sim`` runs the default scenario. The file format is documented in
scenarios/README.md; this module is its reference implementation.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import signal
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from model import regmap
from model.config import ModelConfig
from model.cpu import MODES, PROFILES, Costs, HostConfig
from tb.common import PERIOD_NS
from tb.frames import Flow, Frame, pad60
from tb.host import BUF_STRIDE, DESC, RING_STRIDE, QueueSetup

ROOT = Path(__file__).resolve().parent.parent
CYCLES_PER_US = 1000 // PERIOD_NS
PROTOS = {"udp": 17, "tcp": 6}
F = regmap.FIELDS
FLOW_TS_SHIFT = ModelConfig().flow_ts_shift  # the top's default build parameter (F8)


class ScenarioError(ValueError):
    """A scenario file that cannot be run; the message names the file and the key."""


@dataclass
class FlowSpec:
    name: str
    proto: str
    dport: int
    pattern: str            # periodic | poisson | burst
    payload: tuple[int, int]
    period_us: float = 0.0
    rate_pps: float = 0.0
    burst: int = 1
    start_us: float = 0.0
    sport: int = 40000
    pcap: str = ""          # pattern "pcap": the capture replayed (absolute path)
    rescale: float = 1.0    # pattern "pcap": capture time x rescale = scenario time
    users: int = 0          # pattern "users": concurrent users, each a TCP connection (sport + u)
    message: int = 0        # pattern "users": bytes of each message, sent as MSS-sized segments


@dataclass
class Scenario:
    name: str
    description: str
    simulator: str
    duration_us: float
    seed: int
    num_queues: int
    tick_div: int
    default_action: int
    queues: list[QueueSetup]
    rules: list[tuple[int, int]]
    flows: list[FlowSpec]
    isr_delay: tuple[int, int] = (20, 60)
    mem_stall_percent: int = 0        # host memory: cycles each AXI channel stalls at random (0..99)
    mem_aw_waits_for_w: bool = False  # host memory: AWREADY only after the burst's first W beat (F25)
    mem_b_latency: int = 2            # host memory, fast path: last W beat to B sampled, edges (1 or more)
    return_delay: tuple[int, int] = (50, 500)
    num_rules: int = 4
    path: str = ""
    rule_text: list[str] = field(default_factory=list)
    extra_writes: list[tuple[str, int, int]] = field(default_factory=list)  # rate limiters, budget, cache
    rules_per_cycle: int = 0  # build parameter RULES_PER_CYCLE (F8); 0 = all rules in one cycle
    cpu: HostConfig | None = None   # [cpu]: the host CPU model (docs/host-cpu.md), else random delays
    critical_flow: str = ""         # [cpu] critical: the flow whose frames release the critical task


def _get(d: dict, key: str, where: str, typ: type | tuple = (int, float), default=None):
    if key not in d:
        if default is None:
            raise ScenarioError(f"{where}: missing key '{key}'")
        return default
    value = d[key]
    types = typ if isinstance(typ, tuple) else (typ,)
    if not isinstance(value, typ) or (isinstance(value, bool) and bool not in types):
        raise ScenarioError(f"{where}: '{key}' must be {_type_words(types)}, got {value!r}")
    return value


_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string", list: "a list",
               dict: "a table"}


def _type_words(types: tuple) -> str:
    """What a TOML value of one of ``types`` is called in an error message."""
    if set(types) == {int, float}:
        return "a number"
    return " or ".join(_TYPE_WORDS.get(t, t.__name__) for t in types)


def _range(v, where: str, key: str) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) and v[0] <= v[1]:
        return v[0], v[1]
    raise ScenarioError(f"{where}: '{key}' must be a number or [lo, hi], got {v!r}")


TOP_KEYS = {"name", "description", "simulator", "duration_us", "seed", "nic", "queue", "rule", "flow", "host", "cpu"}
NIC_KEYS = {"num_queues", "tick_div", "default_action", "rules_per_cycle", "irq_budget", "irq_budget_period_us",
            "irq_budget_exempt", "flow_cache", "flow_idle_us"}
FLOW_KEYS = {"name", "proto", "dport", "sport", "pattern", "payload", "start_us", "period_us", "burst", "rate_pps",
             "file", "rescale", "users", "message"}
CPU_KEYS = {"mode", "profile", "critical", "apps", "deadline_us", "isr_us", "frame_us", "byte_ns", "critical_us",
            "app_us", "demux_us", "critical_prio", "app_prio", "net_prio", "gate", "queue_prio", "napi_budget",
            "napi_thread_us", "rl_limit", "rl_window_us", "rl_poll_us"}
MSS = 1460  # TCP payload per segment of a "users" flow's message
WIRE_EXTRA = 24  # preamble and SFD (8), FCS (4) and inter-frame gap (12): bytes on the wire besides the frame
HOST_KEYS = {"isr_delay_cycles", "return_delay_cycles", "memory_stall_percent", "memory_aw_waits_for_w",
             "memory_b_latency"}


def _known(d: object, known: set[str], where: str) -> dict:
    """``d`` must be a table whose keys are all in ``known``: a typo is an error, never a
    silently used default."""
    if not isinstance(d, dict):
        raise ScenarioError(f"{where}: must be a table, got {d!r}")
    for k in d:
        if k not in known:
            raise ScenarioError(f"{where}: unknown key '{k}' (known: {', '.join(sorted(known))})")
    return d


def _tables(raw: dict, key: str, where: str) -> list[dict]:
    v = raw.get(key, [])
    if not isinstance(v, list) or not all(isinstance(t, dict) for t in v):
        raise ScenarioError(f"{where}: '{key}' must be an array of tables ([[{key}]])")
    return v


def _at_least(value, low, where: str, key: str):
    if value < low:
        raise ScenarioError(f"{where}: '{key}' must be at least {low}, got {value!r}")
    return value


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario file; every error names the file and the key."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such scenario file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    w = str(path)
    _known(raw, TOP_KEYS, w)
    nic = _known(raw.get("nic", {}), NIC_KEYS, f"{w} [nic]")
    nq = _get(nic, "num_queues", f"{w} [nic]", int, 2)
    if not 1 <= nq <= 16:
        raise ScenarioError(f"{w} [nic]: num_queues must be 1..16")
    queues = []
    qraw = _tables(raw, "queue", w)
    if len(qraw) != nq:
        raise ScenarioError(f"{w}: {len(qraw)} [[queue]] tables for num_queues = {nq}")
    for i, q in enumerate(qraw):
        wq = f"{w} [[queue]] #{i}"
        known = {"ring_size", "buf_size", "itr_frames", "itr_pkt", "itr_abs", "itr_gap", "immediate"}
        for k in q:
            if k not in known:
                raise ScenarioError(f"{wq}: unknown key '{k}' (known: {sorted(known)})")
        setup = QueueSetup(
            ring_size=_get(q, "ring_size", wq, int, 16), buf_size=_get(q, "buf_size", wq, int, 2048),
            itr_frames=_get(q, "itr_frames", wq, int, 0), itr_pkt=_get(q, "itr_pkt", wq, int, 0),
            itr_abs=_get(q, "itr_abs", wq, int, 0), itr_gap=_get(q, "itr_gap", wq, int, 0),
            immediate=_get(q, "immediate", wq, bool, False))
        if not 2 <= setup.ring_size <= 0xFFFF:
            raise ScenarioError(f"{wq}: 'ring_size' must be 2..65535 (a ring holds ring_size - 1 buffers)")
        if not 1 <= setup.buf_size <= 0xFFFF:
            raise ScenarioError(f"{wq}: 'buf_size' must be 1..65535 bytes")
        if setup.ring_size * DESC["size"] > RING_STRIDE or setup.ring_size * setup.buf_size > BUF_STRIDE:
            raise ScenarioError(f"{wq}: the host model gives each queue {RING_STRIDE} bytes of ring and {BUF_STRIDE} "
                                f"bytes of buffers (tb/host.py): 'ring_size' at most {RING_STRIDE // DESC['size']} "
                                "and 'ring_size' x 'buf_size' at most that")
        for k in ("itr_frames", "itr_pkt", "itr_abs", "itr_gap"):
            if not 0 <= getattr(setup, k) <= 0xFFFF:
                raise ScenarioError(f"{wq}: '{k}' must be 0..65535")
        queues.append(setup)
    rules, rule_text = [], []
    extra: list[tuple[str, int, int]] = []
    for i, r in enumerate(_tables(raw, "rule", w)):
        wr = f"{w} [[rule]] #{i}"
        known_r = {"proto", "dport", "action", "queue", "limit_frames", "limit_bytes", "limit_period_us"}
        for k in r:
            if k not in known_r:
                raise ScenarioError(f"{wr}: unknown key '{k}' (known: {sorted(known_r)})")
        ctrl = 1 << F["RULE_CTRL_ENABLE"]
        desc = []
        if "proto" in r:
            if r["proto"] not in PROTOS:
                raise ScenarioError(f"{wr}: proto must be one of {sorted(PROTOS)}")
            ctrl |= 1 << F["RULE_CTRL_MATCH_PROTO"] | PROTOS[r["proto"]] << F["RULE_CTRL_PROTO_LSB"]
            desc.append(r["proto"])
        dport = 0
        if "dport" in r:
            lo, hi = _range(r["dport"], wr, "dport")
            ctrl |= 1 << F["RULE_CTRL_MATCH_DPORT"]
            dport = lo | hi << 16
            desc.append(f"dport {lo}" if lo == hi else f"dport {lo}-{hi}")
        action = r.get("action", "queue")
        if action == "drop":
            ctrl |= 1 << F["RULE_CTRL_DROP"]
            desc.append("-> drop")
        elif action == "queue":
            q = _get(r, "queue", wr, int)
            if not 0 <= q < nq:
                raise ScenarioError(f"{wr}: queue {q} does not exist (num_queues = {nq})")
            ctrl |= q << F["RULE_CTRL_QUEUE_LSB"]
            desc.append(f"-> queue {q}")
        else:
            raise ScenarioError(f"{wr}: action must be 'queue' or 'drop'")
        if "limit_frames" in r or "limit_bytes" in r:   # the rule's rate limiter (F9)
            if "limit_frames" in r and "limit_bytes" in r:
                raise ScenarioError(f"{wr}: give limit_frames or limit_bytes, not both")
            as_bytes = "limit_bytes" in r
            budget = _get(r, "limit_bytes" if as_bytes else "limit_frames", wr, int)
            period_us = _get(r, "limit_period_us", wr)
            if budget < 0 or period_us <= 0:
                raise ScenarioError(f"{wr}: the limit and limit_period_us must be positive")
            extra += [("RULE_LIM_CTRL", i, int(as_bytes)), ("RULE_LIM_PERIOD", i, round(period_us * CYCLES_PER_US)),
                      ("RULE_LIM_BUDGET", i, budget)]
            desc.append(f"(limit {budget} {'bytes' if as_bytes else 'frames'} per {period_us} us)")
        elif "limit_period_us" in r:
            raise ScenarioError(f"{wr}: limit_period_us without limit_frames or limit_bytes")
        rules.append((ctrl, dport))
        rule_text.append(" ".join(desc))
    if "irq_budget" in nic:   # the global interrupt budget (F10)
        wn = f"{w} [nic]"
        budget = _get(nic, "irq_budget", wn, int)
        period_us = _get(nic, "irq_budget_period_us", wn)
        exempt = nic.get("irq_budget_exempt", [])
        if not isinstance(exempt, list) or not all(isinstance(q, int) and 0 <= q < nq for q in exempt):
            raise ScenarioError(f"{wn}: irq_budget_exempt must be a list of queue numbers")
        if not 0 <= budget <= 0xFFFF or period_us <= 0:
            raise ScenarioError(f"{wn}: irq_budget must be 0..65535 and irq_budget_period_us positive")
        extra += [("IRQ_BUDGET_EXEMPT", 0, sum(1 << q for q in exempt)),
                  ("IRQ_BUDGET_PERIOD", 0, round(period_us * CYCLES_PER_US)), ("IRQ_BUDGET", 0, budget)]
    rules_per_cycle = _get(nic, "rules_per_cycle", f"{w} [nic]", int, 0)
    if not 0 <= rules_per_cycle <= 64:
        raise ScenarioError(f"{w} [nic]: rules_per_cycle must be 0 (all) .. 64")
    if "flow_cache" in nic or "flow_idle_us" in nic:   # the flow cache (F8, frame-path.md s3.1)
        wn = f"{w} [nic]"
        on = _get(nic, "flow_cache", wn, bool, False)
        idle_us = _get(nic, "flow_idle_us", wn, (int, float), 0)
        unit = 1 << FLOW_TS_SHIFT  # cycles per FLOW_IDLE unit (the top's default)
        idle = -(-round(idle_us * CYCLES_PER_US) // unit)
        if not 0 <= idle <= 0x7FFF:
            raise ScenarioError(f"{wn}: flow_idle_us must be 0 (never) .. {0x7FFF * unit / CYCLES_PER_US:.0f}")
        extra += [("FLOW_IDLE", 0, idle), ("FLOW_CTRL", 0, int(on))]
    default = nic.get("default_action", "drop")
    if default == "drop":
        default_action = 0
    elif isinstance(default, int) and 0 <= default < nq:
        default_action = 1 << F["DEFAULT_ACTION_ACCEPT"] | default << F["DEFAULT_ACTION_QUEUE_LSB"]
    else:
        raise ScenarioError(f"{w} [nic]: default_action must be \"drop\" or a queue number")
    flows = []
    for i, fl in enumerate(_tables(raw, "flow", w)):
        wf = f"{w} [[flow]] #{i}"
        _known(fl, FLOW_KEYS, wf)
        pattern = _get(fl, "pattern", wf, str)
        if pattern not in ("periodic", "poisson", "burst", "pcap", "users"):
            raise ScenarioError(f"{wf}: pattern must be periodic, poisson, burst, pcap or users")
        if pattern == "pcap":  # replay an Ethernet capture (F21)
            pcap = (path.parent / _get(fl, "file", wf, str)).resolve()
            if not pcap.is_file():
                raise ScenarioError(f"{wf}: 'file' {pcap} not found (relative to the scenario file)")
            extra_keys = set(fl) - {"name", "pattern", "file", "rescale", "start_us"}
            if extra_keys:
                raise ScenarioError(f"{wf}: a pcap flow takes name, file, rescale, start_us; not {sorted(extra_keys)}")
            spec = FlowSpec(name=_get(fl, "name", wf, str), proto="pcap", dport=0, pattern="pcap", payload=(0, 0),
                            start_us=_get(fl, "start_us", wf, (int, float), 0), pcap=str(pcap),
                            rescale=_get(fl, "rescale", wf, (int, float), 1.0))
            if spec.rescale <= 0:
                raise ScenarioError(f"{wf}: 'rescale' must be positive")
            _at_least(spec.start_us, 0, wf, "start_us")
            flows.append(spec)
            continue
        proto = _get(fl, "proto", wf, str)
        if proto not in PROTOS:
            raise ScenarioError(f"{wf}: proto must be one of {sorted(PROTOS)}")
        spec = FlowSpec(
            name=_get(fl, "name", wf, str), proto=proto, dport=_get(fl, "dport", wf, int),
            pattern=pattern, payload=_range(fl.get("payload", [18, 64]), wf, "payload"),
            start_us=_get(fl, "start_us", wf, (int, float), 0), sport=_get(fl, "sport", wf, int, 40000))
        if pattern == "users":
            if proto != "tcp":
                raise ScenarioError(f"{wf}: a users flow is TCP (proto = \"tcp\")")
            spec.users = _at_least(_get(fl, "users", wf, int), 1, wf, "users")
            spec.message = _at_least(_get(fl, "message", wf, int), 1, wf, "message")
            if spec.sport + spec.users - 1 > 0xFFFF:
                raise ScenarioError(f"{wf}: 'sport' + 'users' - 1 must be at most 65535")
        elif "users" in fl or "message" in fl:
            raise ScenarioError(f"{wf}: 'users' and 'message' belong to pattern = \"users\"")
        if pattern in ("periodic", "burst", "users"):
            spec.period_us = _get(fl, "period_us", wf)
            if spec.period_us <= 0:
                raise ScenarioError(f"{wf}: period_us must be > 0")
        if pattern == "burst":
            spec.burst = _at_least(_get(fl, "burst", wf, int), 1, wf, "burst")
        _at_least(spec.start_us, 0, wf, "start_us")
        if not 0 <= spec.dport <= 0xFFFF or not 0 <= spec.sport <= 0xFFFF:
            raise ScenarioError(f"{wf}: 'dport' and 'sport' must be 0..65535")
        if spec.payload[0] < 0:
            raise ScenarioError(f"{wf}: 'payload' must not be negative")
        if pattern == "poisson":
            spec.rate_pps = _get(fl, "rate_pps", wf)
            if spec.rate_pps <= 0:
                raise ScenarioError(f"{wf}: rate_pps must be > 0")
        flows.append(spec)
    if not flows:
        raise ScenarioError(f"{w}: no [[flow]]")
    host = _known(raw.get("host", {}), HOST_KEYS, f"{w} [host]")
    cpu, critical_flow = _cpu(raw, w, nq, flows, host, extra)
    sim = raw.get("simulator", "icarus")
    if _get(raw, "duration_us", w) <= 0:
        raise ScenarioError(f"{w}: 'duration_us' must be positive")
    tick_div = _get(nic, "tick_div", f"{w} [nic]", int, 125)
    if not 1 <= tick_div <= 0xFFFF:
        raise ScenarioError(f"{w} [nic]: 'tick_div' must be 1..65535")
    if sim not in ("icarus", "verilator"):
        raise ScenarioError(f"{w}: simulator must be icarus or verilator")
    return Scenario(
        name=_get(raw, "name", w, str, path.stem), description=raw.get("description", ""),
        simulator=sim, duration_us=_get(raw, "duration_us", w), seed=_get(raw, "seed", w, int, 1),
        num_queues=nq, tick_div=tick_div,
        default_action=default_action, queues=queues, rules=rules, flows=flows,
        isr_delay=_range(host.get("isr_delay_cycles", [20, 60]), f"{w} [host]", "isr_delay_cycles"),
        return_delay=_range(host.get("return_delay_cycles", [50, 500]), f"{w} [host]", "return_delay_cycles"),
        num_rules=max(4, len(rules)), path=str(path), rule_text=rule_text, extra_writes=extra,
        rules_per_cycle=rules_per_cycle,
        mem_stall_percent=_stall_percent(host.get("memory_stall_percent", 0), f"{w} [host]"),
        mem_aw_waits_for_w=_get(host, "memory_aw_waits_for_w", f"{w} [host]", bool, False),
        mem_b_latency=_b_latency(host.get("memory_b_latency", 2), f"{w} [host]"),
        cpu=cpu, critical_flow=critical_flow,
    )


def _cpu(raw: dict, w: str, nq: int, flows: list[FlowSpec], host: dict,
         extra: list[tuple[str, int, int]]) -> tuple[HostConfig | None, str]:
    """The ``[cpu]`` table: the host CPU model (docs/host-cpu.md section 6)."""
    if "cpu" not in raw:
        return None, ""
    wc = f"{w} [cpu]"
    c = _known(raw["cpu"], CPU_KEYS, wc)
    for k in ("isr_delay_cycles", "return_delay_cycles"):
        if k in host:
            raise ScenarioError(f"{w} [host]: '{k}' is the random host's; with a [cpu] table the CPU model times "
                                "the host (remove one of them)")
    by_name = {f.name: f for f in flows}
    crit = _get(c, "critical", wc, str)
    if crit not in by_name or by_name[crit].pattern == "pcap":
        raise ScenarioError(f"{wc}: 'critical' must name a [[flow]] that is not a pcap replay, not {crit!r}")
    apps = c.get("apps", [])
    if not isinstance(apps, list) or any(a not in by_name or by_name[a].pattern == "pcap" for a in apps):
        raise ScenarioError(f"{wc}: 'apps' must list [[flow]] names (not pcap replays)")
    sockets = {by_name[a].dport: "app" for a in apps}
    sockets[by_name[crit].dport] = "critical"
    mode = _get(c, "mode", wc, str, "prionic")
    if mode not in MODES:
        raise ScenarioError(f"{wc}: mode must be one of {', '.join(MODES)} (docs/host-cpu.md section 4), not {mode!r}")
    fc = by_name[crit]
    deadline_us = _get(c, "deadline_us", wc, (int, float), fc.period_us if fc.pattern == "periodic" else 0)
    if deadline_us <= 0:
        raise ScenarioError(f"{wc}: 'deadline_us' must be positive (it defaults to a periodic critical flow's period)")
    profile = _get(c, "profile", wc, str, "default")
    if profile not in PROFILES:
        raise ScenarioError(f"{wc}: 'profile' must be one of {', '.join(PROFILES)}, not {profile!r}")
    costs = {}
    for k, default in PROFILES[profile].items():
        costs[k] = _get(c, k, wc, (int, float), default)
        if costs[k] < 0:
            raise ScenarioError(f"{wc}: '{k}' must not be negative")
    qprio = c.get("queue_prio", list(range(1, nq + 1)))
    if not isinstance(qprio, list) or len(qprio) != nq or not all(isinstance(p, int) and 0 <= p <= 255 for p in qprio):
        raise ScenarioError(f"{wc}: 'queue_prio' must list {nq} priorities 0..255 (default: QUEUE_PRIO's reset, q + 1)")
    extra += [("QUEUE_PRIO", q, p) for q, p in enumerate(qprio) if p != q + 1]
    gate = _get(c, "gate", wc, bool, mode == "prionic")
    if gate and mode != "prionic":
        raise ScenarioError(f"{wc}: 'gate' (RUN_PRIO writes, F16) is prionic's; mode {mode!r} is a host of a NIC "
                            "without it")
    critical_prio = _get(c, "critical_prio", wc, int, max(qprio))
    timing = {}
    for k, default in (("napi_thread_us", 2000), ("rl_window_us", 2000), ("rl_poll_us", 1000)):
        v = _get(c, k, wc, (int, float), default)
        if v <= 0:
            raise ScenarioError(f"{wc}: '{k}' must be positive")
        timing[k] = max(1, round(v * CYCLES_PER_US))
    counts = {}
    for k, default in (("napi_budget", 64), ("rl_limit", 3)):
        counts[k] = _get(c, k, wc, int, default)
        if counts[k] < 1:
            raise ScenarioError(f"{wc}: '{k}' must be at least 1")
    cfg = HostConfig(
        mode=mode, queue_prio=tuple(qprio), sockets=sockets,
        critical_prio=critical_prio, app_prio=_get(c, "app_prio", wc, int, 1),
        net_prio=_get(c, "net_prio", wc, int, max(critical_prio - 1, 0)),
        deadline=round(deadline_us * CYCLES_PER_US), gate=gate,
        costs=Costs.from_us(CYCLES_PER_US, **costs),
        napi_budget=counts["napi_budget"], napi_thread=timing["napi_thread_us"], rl_limit=counts["rl_limit"],
        rl_window=timing["rl_window_us"], rl_poll=timing["rl_poll_us"])
    for k in ("critical_prio", "app_prio", "net_prio"):
        if not 0 <= getattr(cfg, k) <= 255:
            raise ScenarioError(f"{wc}: '{k}' must be 0..255")
    return cfg, crit


def _stall_percent(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise ScenarioError(f"{where}: memory_stall_percent must be an integer 0..99, not {value!r}")
    return value


def _b_latency(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 16:
        raise ScenarioError(f"{where}: memory_b_latency must be an integer 1..16, not {value!r}")
    return value


def host_rng(sc: Scenario) -> random.Random:
    """The host model's random stream (ISR and return delays) of a scenario run: from the
    scenario's seed, so that a scenario replays exactly, and both paths draw alike."""
    return random.Random(f"host-{sc.seed}")


def pcap_frames(fs: FlowSpec, end_us: float) -> list[tuple[float, Frame]]:
    """The frames of a pcap flow with their arrival (us): capture time from the first
    packet, times ``rescale``, after ``start_us``; short frames padded to 60 bytes."""
    from scapy.utils import PcapReader

    out: list[tuple[float, Frame]] = []
    t0 = None
    with PcapReader(fs.pcap) as reader:
        for pkt in reader:
            ts = float(pkt.time)
            t0 = ts if t0 is None else t0
            t = fs.start_us + (ts - t0) * 1e6 * fs.rescale
            if t >= end_us:
                break
            out.append((t, Frame(pad60(bytes(pkt)), kind="pcap", flow=fs.name)))
    return out


def write_pcaps(out: Path, run, clock_mhz: float = CYCLES_PER_US) -> list[Path]:
    """``delivered_q<q>.pcap`` per queue: the frames the host read from its ring, each
    stamped with its completion (the write-back's B handshake) in simulated time, for
    Wireshark (F22)."""
    from scapy.layers.l2 import Ether
    from scapy.utils import PcapWriter

    cpl: dict[int, list[int]] = {}
    for c, q, _slot in run.observed.completions:
        cpl.setdefault(q, []).append(c)
    paths = []
    for q, frames in enumerate(run.delivered):
        path = out / f"delivered_q{q}.pcap"
        with PcapWriter(str(path), linktype=1, sync=False) as w:  # DLT_EN10MB
            for d, c in zip(frames, cpl.get(q, []), strict=False):
                pkt = Ether(bytes(d.data))
                pkt.time = c / (clock_mhz * 1e6)
                w.write(pkt)
        paths.append(path)
    return paths


def user_frames(fs: FlowSpec, end_us: float, rng: random.Random) -> list[tuple[float, Frame]]:
    """A "users" flow: ``users`` TCP connections (source ports ``sport``..), each sending a
    ``message``-byte message every ``period_us`` from a random phase in its first period;
    a message is MSS-sized segments, each one 1 GbE frame time after the previous one (its
    length plus preamble, FCS and gap: ``WIRE_EXTRA`` bytes, at 8 ns per byte)."""
    out: list[tuple[float, Frame]] = []
    for u in range(fs.users):
        t = fs.start_us + rng.uniform(0, fs.period_us)
        while t < end_us:
            left, ts = fs.message, t
            while left > 0:
                n = min(left, MSS)
                fr = Flow(fs.name, "tcp", fs.dport, sport=fs.sport + u, payload=(n, n)).make(rng)
                out.append((ts, fr))
                ts += (len(fr) + WIRE_EXTRA) * 8 / 1000   # the next segment one 1 GbE frame time later
                left -= n
            t += fs.period_us
    return out


def schedule(sc: Scenario) -> list[tuple[int, Frame]]:
    """Arrival cycle and frame of every frame of every flow, sorted by arrival."""
    rng = random.Random(sc.seed)
    end = sc.duration_us
    out: list[tuple[float, int, Frame]] = []
    for fi, fs in enumerate(sc.flows):
        if fs.pattern == "pcap":
            out += [(t, fi, fr) for t, fr in pcap_frames(fs, end)]
            continue
        if fs.pattern == "users":
            out += [(t, fi, fr) for t, fr in user_frames(fs, end, rng)]
            continue
        flow = Flow(fs.name, fs.proto, fs.dport, sport=fs.sport, payload=fs.payload)
        t = fs.start_us
        while t < end:
            if fs.pattern == "burst":
                for _ in range(fs.burst):
                    out.append((t, fi, flow.make(rng)))
            else:
                out.append((t, fi, flow.make(rng)))
            t += rng.expovariate(fs.rate_pps / 1e6) if fs.pattern == "poisson" else fs.period_us
    out.sort(key=lambda x: (x[0], x[1]))
    return [(int(t * CYCLES_PER_US) + 50, fr) for t, _, fr in out]


# ---------------------------------------------------------------------------- reports

def percentiles(values: list[int]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p90": None, "p99": None, "max": None}
    v = sorted(values)

    def pct(p: float) -> float:
        return float(v[min(len(v) - 1, int(p / 100 * len(v)))])

    return {"p50": pct(50), "p90": pct(90), "p99": pct(99), "max": float(v[-1])}


def latencies(sc: Scenario, obs, outcomes) -> dict[int, list[int]]:
    """Per queue, for each delivered frame in order: cycles from its tlast to the first
    interrupt of its queue after its completion (frames with no such interrupt are left out)."""
    fires_by_q: dict[int, list[int]] = {}
    for c, q in obs.fires:
        fires_by_q.setdefault(q, []).append(c)
    per_q_cpl: dict[int, list[int]] = {}
    for c, q, _s in obs.completions:
        per_q_cpl.setdefault(q, []).append(c)
    out: dict[int, list[int]] = {}
    for q in range(sc.num_queues):
        accepted = [o for o in outcomes if o.verdict == 0 and o.queue == q]
        fires, fi, lat = fires_by_q.get(q, []), 0, []
        for o, c in zip(accepted, per_q_cpl.get(q, []), strict=False):
            while fi < len(fires) and fires[fi] <= c:
                fi += 1
            if fi < len(fires):
                lat.append(fires[fi] - o.t_last)
        out[q] = lat
    return out


def write_trace(path: Path, sc: Scenario, run, outcomes, host=None) -> None:
    """The run as numpy arrays (``trace.npz``) for plots and analysis: every frame's tlast
    cycle, verdict, queue, length and flow (index of its [[flow]]); every interrupt pulse and completion with its queue;
    each queue's tlast-to-interrupt latencies in cycles (``latency_q<q>``); with the host CPU
    model (``host`` a CpuHostDriver), each processed control frame's arrival and critical task
    response in cycles (``critical_arrival``, ``critical_response``)."""
    obs = run.observed
    names = {f.name: i for i, f in enumerate(sc.flows)}
    arrays = {
        "t_last": np.array([o.t_last for o in outcomes], dtype=np.int64),
        "verdict": np.array([o.verdict for o in outcomes], dtype=np.int16),
        "queue": np.array([o.queue for o in outcomes], dtype=np.int16),
        "length": np.array([o.length for o in outcomes], dtype=np.int32),
        "flow": np.array([names.get(fr.flow, -1) for fr in run.frames], dtype=np.int16),
        "irq_cycle": np.array([c for c, _q in obs.fires], dtype=np.int64),
        "irq_queue": np.array([q for _c, q in obs.fires], dtype=np.int16),
        "cpl_cycle": np.array([c for c, _q, _s in obs.completions], dtype=np.int64),
        "cpl_queue": np.array([q for _c, q, _s in obs.completions], dtype=np.int16),
        "clock_mhz": np.array(CYCLES_PER_US),
    }
    for q, lat in latencies(sc, obs, outcomes).items():
        arrays[f"latency_q{q}"] = np.array(lat, dtype=np.int64)
    if sc.cpu is not None and host is not None:
        arrays["critical_arrival"] = np.array(host.os.stats.critical_arrival, dtype=np.int64)
        arrays["critical_response"] = np.array(host.os.stats.critical_response, dtype=np.int64)
    np.savez_compressed(path, **arrays)


def plot_report(out: Path) -> Path:
    """``report.png`` from ``report.json`` and ``trace.npz`` in ``out`` (F22): each queue's
    tlast-to-interrupt latency as a distribution, its interrupts per 100 us over time, and
    with the host CPU model the critical task's response time as a distribution."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rep = json.loads((out / "report.json").read_text())
    tr = np.load(out / "trace.npz")
    mhz = float(tr["clock_mhz"])
    crit = tr["critical_response"] if "critical_response" in tr else None
    rows = 3 if crit is not None else 2
    fig, axes = plt.subplots(rows, 1, figsize=(9, 3.5 * rows), constrained_layout=True)
    ax1, ax2 = axes[0], axes[1]
    for qrep in rep["queues"]:
        q = qrep["queue"]
        lat = np.sort(tr[f"latency_q{q}"]) / mhz
        if lat.size:
            ax1.step(lat, np.arange(1, lat.size + 1) / lat.size, where="post",
                     label=f"queue {q}: {qrep['frames']} frames, {qrep['interrupts']} irqs")
    ax1.set_xscale("log")
    ax1.set_xlabel("tlast to interrupt (us)")
    ax1.set_ylabel("fraction of frames")
    ax1.set_title(f"prionic scenario '{rep['scenario']}' ({rep['simulator']}, {rep.get('path', 'bus')} path)")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(loc="lower right", fontsize="small")
    span_us = max(rep["cycles"] / mhz, 100.0)
    bins = np.arange(0.0, span_us + 100.0, 100.0)
    for qrep in rep["queues"]:
        q = qrep["queue"]
        counts, edges = np.histogram(tr["irq_cycle"][tr["irq_queue"] == q] / mhz, bins=bins)
        ax2.step(edges[:-1], counts, where="post", label=f"queue {q}")
    ax2.set_xlabel("time (us)")
    ax2.set_ylabel("interrupts per 100 us")
    ax2.grid(True, alpha=0.3)
    ax2.legend(loc="upper right", fontsize="small")
    if crit is not None:   # the host CPU model's critical task (docs/host-cpu.md)
        ax3 = axes[2]
        cpu = rep.get("cpu") or {}
        v = np.sort(crit) / mhz
        if v.size:
            ax3.step(v, np.arange(1, v.size + 1) / v.size, where="post",
                     label=f"{v.size} control frames processed, {cpu.get('critical_lost', 0)} lost")
        if cpu.get("deadline_us"):
            ax3.axvline(cpu["deadline_us"], color="red", linestyle="--", label=f"deadline {cpu['deadline_us']:g} us")
        ax3.set_xscale("log")
        ax3.set_xlabel("critical task response time: control frame arrival to task end (us)")
        ax3.set_ylabel("fraction of frames")
        ax3.grid(True, which="both", alpha=0.3)
        ax3.legend(loc="lower right", fontsize="small")
    path = out / "report.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def build_report(sc: Scenario, run, outcomes) -> dict:
    """Per queue and per flow figures from what the DUT did (the scoreboard has already
    held it equal to the model). Latency: tlast of a frame to the interrupt of its queue
    that follows its completion, in cycles and microseconds."""
    obs = run.observed
    V = regmap.VERDICT_NAMES
    fires_by_q: dict[int, list[int]] = {}
    for c, q in obs.fires:
        fires_by_q.setdefault(q, []).append(c)
    queues = []
    lat_by_q = latencies(sc, obs, outcomes)
    for q in range(sc.num_queues):
        lat = lat_by_q[q]
        fires = fires_by_q.get(q, [])
        drops: dict[str, int] = {}
        for o in outcomes:
            if o.queue == q and V[o.verdict] in ("RING_FULL", "BUF_OVERFLOW", "QBUF_FULL", "RATE_LIMITED"):
                drops[V[o.verdict]] = drops.get(V[o.verdict], 0) + 1
        delivered = [o for o in outcomes if o.verdict == 0 and o.queue == q]
        queues.append({
            "queue": q,
            "frames": len(delivered),
            "bytes": sum(o.length for o in delivered),
            "drops": drops,
            "interrupts": len(fires),
            "latency_cycles": percentiles(lat),
            "latency_us": {k: (None if v is None else v / CYCLES_PER_US) for k, v in percentiles(lat).items()},
        })
    flows = {}
    for fr, o in zip(run.frames, outcomes, strict=True):
        f = flows.setdefault(fr.flow, {"sent": 0, "verdicts": {}})
        f["sent"] += 1
        f["verdicts"][V[o.verdict]] = f["verdicts"].get(V[o.verdict], 0) + 1
    global_drops: dict[str, int] = {}
    for o in outcomes:
        if V[o.verdict] in ("BAD_FRAME", "MALFORMED", "OVERSIZE", "UNREGISTERED", "RULE_DROP", "FRAGMENT"):
            global_drops[V[o.verdict]] = global_drops.get(V[o.verdict], 0) + 1
    return {
        "scenario": sc.name, "description": sc.description,
        "simulator": os.environ.get("PRIONIC_SIM", sc.simulator),
        "cycles": obs.last_cycle, "clock_mhz": CYCLES_PER_US, "frames": len(outcomes),
        "rules": sc.rule_text, "queues": queues, "flows": flows, "global_drops": global_drops,
        "flow_cache": {w: n for w in ("hit", "syn", "empty", "other", "expired", "cleared")
                       if (n := sum(1 for o in outcomes if o.flow_why == w))},
        "checked_against_model": True,
        "waveform_focus_ns": _focus_ns(sc, obs),
    }


def cpu_report(sc: Scenario, host, frames) -> dict | None:
    """The host CPU model's figures of a run (docs/host-cpu.md section 7), None without [cpu].
    ``host`` is the run's ``CpuHostDriver``; ``frames`` the frames sent."""
    if sc.cpu is None:
        return None
    st = host.os.stats
    busy = host.os.cpu.busy
    span = max(host.os.cpu.now, 1)
    sent: dict[str, int] = {}
    for fr in frames:
        sent[fr.flow] = sent.get(fr.flow, 0) + 1
    ports = {f.name: f.dport for f in sc.flows}
    delivered = {}
    for name, n in sent.items():
        port = ports.get(name)
        if port is not None and port in sc.cpu.sockets:
            delivered[name] = {"sent": n, "consumed": st.consumed.get(port, 0),
                               "ratio": round(st.consumed.get(port, 0) / n, 4)}
        else:
            delivered[name] = {"sent": n, "consumed": 0, "ratio": None}   # no socket: the stack drops it
    crit = delivered.get(sc.critical_flow, {"sent": 0, "consumed": 0})
    resp = percentiles(st.critical_response)
    # every control frame sent, a lost one (dropped, or not processed by the end) as never done
    lost = crit["sent"] - crit["consumed"]
    every = percentiles(list(st.critical_response) + [math.inf] * lost)
    return {
        "mode": sc.cpu.mode, "gate": sc.cpu.gate,
        "interrupts": st.isr_runs,
        "interrupts_preempting_critical": st.isr_preempting_critical,
        "critical_flow": sc.critical_flow,
        "critical_response_us": {k: (None if v is None else round(v / CYCLES_PER_US, 3)) for k, v in resp.items()},
        "critical_response_all_us": {k: (None if v is None or v == math.inf else round(v / CYCLES_PER_US, 3))
                                     for k, v in every.items()},
        "deadline_us": sc.cpu.deadline / CYCLES_PER_US,
        "deadline_misses": st.deadline_misses,
        "critical_lost": lost,
        "delivered": delivered,
        "stack_drops": st.stack_drops,
        "cpu_us": {k: round(v / CYCLES_PER_US, 3) for k, v in busy.items()},
        "cpu_share": {k: round(v / span, 4) for k, v in busy.items()},
        "run_prio_writes": st.run_prio_writes,
    }


def _focus_ns(sc: Scenario, obs) -> int:
    """Where the waveform opens: the highest queue's first interrupt after the last flow
    has started (the interesting moment of a control-plus-flood scenario)."""
    start = max(f.start_us for f in sc.flows) * CYCLES_PER_US
    top = sc.num_queues - 1
    cycles = [c for c, q in obs.fires if q == top and c >= start] or [c for c, _ in obs.fires] or [0]
    return obs.t0_ns + cycles[0] * PERIOD_NS


def report_text(rep: dict) -> str:
    stopped = " (stopped early by Ctrl-C: what ran until then)" if rep.get("stopped_early") else ""
    lines = [f"prionic scenario '{rep['scenario']}' on {rep['simulator']}, {rep.get('path', 'bus')} path: "
             f"{rep['description']}{stopped}",
             f"{rep['frames']} frames in {rep['cycles']} cycles "
             f"({rep['cycles'] / rep['clock_mhz']:.0f} us at {rep['clock_mhz']} MHz); "
             "every verdict, byte and interrupt cycle matched the golden model", ""]
    lines.append("rules: " + "; ".join(f"#{i} {t}" for i, t in enumerate(rep["rules"])))
    lines.append("")
    lines.append(f"{'queue':>5} {'frames':>7} {'bytes':>9} {'irqs':>6} {'drops':<28} "
                 f"{'latency tlast->irq us p50/p90/p99/max':<40}")
    for q in rep["queues"]:
        lat = q["latency_us"]
        lat_s = "-" if lat["p50"] is None else "/".join(f"{lat[k]:.2f}" for k in ("p50", "p90", "p99", "max"))
        drops = ", ".join(f"{k} {v}" for k, v in q["drops"].items()) or "-"
        lines.append(f"{q['queue']:>5} {q['frames']:>7} {q['bytes']:>9} {q['interrupts']:>6} {drops:<28} {lat_s:<40}")
    lines.append("")
    lines.append("global drops: " + (", ".join(f"{k} {v}" for k, v in rep["global_drops"].items()) or "none"))
    if rep.get("flow_cache"):
        lines.append("flow cache lookups: " + ", ".join(f"{k} {v}" for k, v in rep["flow_cache"].items()))
    lines.append("")
    lines.append(f"{'flow':<12} {'sent':>6}  verdicts")
    for name, f in rep["flows"].items():
        lines.append(f"{name:<12} {f['sent']:>6}  " + ", ".join(f"{k} {v}" for k, v in f["verdicts"].items()))
    cpu = rep.get("cpu")
    if cpu:
        r = cpu["critical_response_us"]
        r_s = "-" if r["p50"] is None else "/".join(f"{r[k]:.1f}" for k in ("p50", "p90", "p99", "max"))
        lines += ["", f"host CPU ({cpu['mode']} receive path, RUN_PRIO gating {'on' if cpu['gate'] else 'off'}): "
                  f"{cpu['interrupts']} interrupts, {cpu['interrupts_preempting_critical']} of them preempting "
                  "the critical task",
                  f"critical task ('{cpu['critical_flow']}'): response us p50/p90/p99/max {r_s}; "
                  f"{cpu['deadline_misses']} past the {cpu['deadline_us']:g} us deadline, {cpu['critical_lost']} "
                  "frames never processed",
                  "CPU time: " + ", ".join(f"{k} {v:.1f} us ({100 * cpu['cpu_share'][k]:.1f}%)"
                                           for k, v in cpu["cpu_us"].items())
                  + f"; {cpu['stack_drops']} frames processed and dropped by the stack (no socket)",
                  "delivered to their task: " + ", ".join(f"{n} {d['consumed']}/{d['sent']}"
                                                          for n, d in cpu["delivered"].items()
                                                          if d["ratio"] is not None)]
    return "\n".join(lines) + "\n"


GTKW_GROUPS = [
    ("clock and reset", [("clk", 28), ("rst", 28)]),
    ("stream input (F1)", [("s_axis_tvalid", 28), ("s_axis_tready", 28), ("s_axis_tlast", 28),
                           ("s_axis_tuser", 28)]),
    ("verdicts (F3, F5, F12)", [("stat_verdict_valid", 28), ("stat_verdict_code[3:0]", "verdict"),
                                ("stat_verdict_queue[7:0]", 24), ("stat_verdict_rule[7:0]", 24)]),
    ("DMA (F12)", [("dma_inst.state_reg[3:0]", "dma_state"),
                   ("m_axi_awvalid", 28), ("m_axi_awready", 28), ("m_axi_awaddr[31:0]", 22),
                   ("m_axi_wvalid", 28), ("m_axi_bvalid", 28)]),
    ("interrupts (F14, F15)", [("stat_irq[{nq1}:0]", 22), ("irq[{nq1}:0]", 22), ("irq_legacy", 28)]),
]


TR_DEC_RJUSTIFY = 0x24       # GTKWave trace flags: decimal, right-justified
TR_FTRANSLATED = 0x2000      # ... shown through a translate filter file


def gtkw_filters(out: Path) -> dict[str, Path]:
    """GTKWave translate filter files (decimal value -> name) for the enumerations of
    docs/regmap.toml, written into ``out``: a waveform shows ``UNREGISTERED``, not ``4``."""
    enums = {"verdict": regmap.VERDICTS, **regmap.ENUMS}
    paths = {}
    for name, values in enums.items():
        path = out / f"filter_{name}.txt"
        path.write_text(f"# GTKWave translate filter: {name} codes of docs/regmap.toml (written by tb/scenario.py)\n"
                        + "".join(f"{v} {k}\n" for k, v in sorted(values.items(), key=lambda kv: kv[1])))
        paths[name] = path.resolve()
    return paths


def gtkw_text(fst: Path, nq: int, focus_ns: int = 0, top: str = "prionic_rx",
              filters: dict[str, Path] | None = None) -> str:
    """A GTKWave save file that opens on the stream, verdicts, DMA, per-queue moderation
    state and interrupt lines, about 2 us before ``focus_ns``. A signal whose format is an
    enumeration's name is shown through that enumeration's filter file (``filters``)."""
    filters = filters or {}
    ids = {name: i + 1 for i, name in enumerate(filters)}
    start_ps = max(0, focus_ns - 2000) * 1000
    out = ["[*] prionic: GTKWave save file written by `make sim`",
           f'[dumpfile] "{fst.resolve()}"', f"[timestart] {start_ps}", "[size] 1600 900",
           "[pos] -1 -1", f"*-20.000000 {focus_ns * 1000}", f"[treeopen] {top}.",
           "[sst_width] 260", "[signals_width] 300",
           "[sst_expanded] 1", "[sst_vpaned_height] 300"]
    for title, sigs in GTKW_GROUPS:
        out += ["@200", f"-{title}"]
        for name, fmt in sigs:
            if isinstance(fmt, str):  # an enumeration
                if fmt in filters:
                    out += [f"^{ids[fmt]} {filters[fmt]}", f"@{TR_FTRANSLATED | TR_DEC_RJUSTIFY:x}"]
                else:
                    out += [f"@{TR_DEC_RJUSTIFY:x}"]
            else:
                out += [f"@{fmt}"]
            out += [f"{top}.{name.format(nq1=nq - 1)}"]
    for q in range(nq):
        out += ["@200", f"-queue {q} moderation"]
        base = f"{top}.moderation_inst.g_queue[{q}]"
        out += ["@24", f"{base}.pending_reg[15:0]", "@28", f"{base}.pkt_run_reg", "@24",
                f"{base}.pkt_cnt_reg[15:0]", "@28", f"{base}.abs_run_reg", "@24",
                f"{base}.abs_cnt_reg[15:0]", f"{base}.gap_cnt_reg[15:0]", "@28", f"{base}.cause_reg"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------- CLI

def build_params(sc: Scenario) -> dict[str, int]:
    """The RTL parameters a scenario runs with."""
    return {"DATA_WIDTH": 32, "NUM_QUEUES": sc.num_queues, "NUM_RULES": sc.num_rules,
            "RULES_PER_CYCLE": sc.rules_per_cycle}


def run_scenario(sc: Scenario, sim: str, out: Path, *, path: str = "fast", waves: bool = False,
                 record: Path | None = None, progress: int = 0, optimize: bool = True) -> dict:
    """Run ``sc`` on ``sim`` through the fast path (HDL player, memory and recorder,
    tb/fastpath.py) or the bus path (cocotbext-axi models, tb/env.py), checked against the
    model either way; writes report.txt/report.json (and the waveform) into ``out`` and
    returns the report. ``record`` also writes the event records as JSON. ``optimize``
    builds the top on Verilator for run speed (-O2) rather than build time (-O0)."""
    from tb.runner import run_sim

    out.mkdir(parents=True, exist_ok=True)
    env = {"PRIONIC_SCENARIO": str(Path(sc.path).resolve()), "PRIONIC_OUT": str(out), "PRIONIC_SIM": sim}
    if record is not None:
        env["PRIONIC_RECORD"] = str(record)
    plusargs = []
    if waves and sim == "icarus":
        plusargs.append(f"+dumpfile_path={out / 'waves.fst'}")
    if path == "fast":
        env["PRIONIC_FAST_DIR"] = str(out)
        env["PRIONIC_PROGRESS"] = str(progress)
        plusargs += [f"+prionic_stim={out / 'frames.bin'}", f"+prionic_rec={out / 'events.txt'}"]
        mem = {"STALL_PERCENT": sc.mem_stall_percent, "AW_WAITS_FOR_W": int(sc.mem_aw_waits_for_w),
               "B_LATENCY": sc.mem_b_latency}
        run_dir = run_sim(sim, "prionic_tb_fast", "tb.cocotb_fast", {**build_params(sc), **mem},
                          testcase="FastScenarioTest",
                          extra_env=env, waves=waves, plusargs=plusargs, fast=optimize, test_dir=out / "sim")
        top = "prionic_tb_fast.dut"
    elif path == "bus":
        if sc.mem_b_latency != 2:  # cocotbext-axi's AxiRam answers B at its own pace
            raise ScenarioError(f"{sc.path}: [host] memory_b_latency is a fast-path setting (the bus path's "
                                f"AxiRam has its own B timing); leave it at 2 or run with path='fast'")
        run_dir = run_sim(sim, "prionic_rx", "tb.cocotb_scenario", build_params(sc), testcase="ScenarioTest",
                          extra_env=env, waves=waves, plusargs=plusargs, fast=optimize, test_dir=out / "sim")
        top = "prionic_rx"
    else:
        raise ValueError(f"path must be fast or bus, not {path!r}")
    rep = json.loads((out / "report.json").read_text())
    if waves:
        wave = out / f"waves.{wave_format(sim)}"
        if sim == "verilator":
            for cand in run_dir.glob(f"*.{wave_format(sim)}"):
                shutil.copy(cand, wave)
        (out / "waves.gtkw").write_text(gtkw_text(wave, sc.num_queues, rep["waveform_focus_ns"], top,
                                                  gtkw_filters(out)))
    return rep


def wave_format(sim: str) -> str:
    """The waveform's file type: FST, or VCD on Verilator without lz4.h (tb/runner.py)."""
    if sim != "verilator":
        return "fst"
    from tb.runner import verilator_wave_format

    return verilator_wave_format()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tb.scenario", description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "default.toml"))
    ap.add_argument("--sim", choices=("icarus", "verilator"), help="override the scenario's simulator")
    ap.add_argument("--path", choices=("fast", "bus"), default="fast",
                    help="fast: HDL player, memory and recorder, Python woken by interrupts (default); "
                         "bus: cocotbext-axi models, Python every cycle")
    ap.add_argument("--out", help="output directory (default out/<scenario name>)")
    ap.add_argument("--no-waves", action="store_true", help="skip the waveform (faster)")
    ap.add_argument("--progress", type=int, default=2_000_000, metavar="CYCLES",
                    help="fast path: print progress every CYCLES simulated cycles (0: never)")
    ap.add_argument("--build", choices=("speed", "quick"), default="speed",
                    help="Verilator: build for run speed (-O2, default; pays off after a few ms of "
                         "traffic) or quickly (-O1, as the tests build; for short runs)")
    args = ap.parse_args(argv)
    try:
        sc = load(args.scenario)
    except ScenarioError as exc:
        print(f"prionic: {exc}", file=sys.stderr)
        return 2
    sim = args.sim or sc.simulator
    out = Path(args.out or ROOT / "out" / sc.name).resolve()
    if out.exists():
        shutil.rmtree(out)
    waves = not args.no_waves
    print(f"prionic: running scenario '{sc.name}' ({sc.path}) on {sim}, {args.path} path, "
          f"{sc.duration_us} us of traffic (Ctrl-C stops it and reports what ran)")
    # Ctrl-C goes to the simulator, whose test stops the traffic, drains and reports
    old = signal.signal(signal.SIGINT, signal.SIG_IGN if args.path == "fast" else signal.default_int_handler)
    try:
        run_scenario(sc, sim, out, path=args.path, waves=waves, progress=args.progress,
                     optimize=args.build == "speed")
    finally:
        signal.signal(signal.SIGINT, old)
    plot_report(out)
    files = ["report.txt", "report.json", "report.png"] + ([f"waves.{wave_format(sim)}", "waves.gtkw"] if waves else [])
    print()
    print((out / "report.txt").read_text())
    rel = os.path.relpath(out, Path.cwd())
    for f in files:
        status = "" if (out / f).exists() else "  (MISSING)"
        print(f"  {rel}/{f}{status}")
    if waves:
        print(f"\nopen the waveform: gtkwave {rel}/waves.gtkw   (or: make waves)")
    return 1 if any(not (out / f).exists() for f in files) else 0


if __name__ == "__main__":
    sys.exit(main())
