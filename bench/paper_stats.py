"""The statistics of `make paper` (F23, docs/paper.md section 2): every configuration and
workload on the fast model (F18, docs/sweep.md) over several seeds, with the spread.

A checked RTL run gives one seed of 50 ms: 100 control frames, whose p99 is their maximum.
Here each point is ``--stats-seconds`` (1 s) of traffic per seed, so the critical task has
at least 1,000 samples at 2 kHz; a p99 over fewer samples is not reported (``None``), the
worst response always is. Each figure is given per seed and as min / median / max.

Workloads (docs/paper.md section 2.3): the main one; the flood's offered load; concurrent
TCP users; the workloads where the NIC's own hardware matters, prionic against ``i210``:
interrupt gating off (F16), a 1 ms control period with a 200 us task, more registered flows
than either has rules (16, 64, 256); and the rate-limited ISR's polling period.
"""

from __future__ import annotations

import copy
import random
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bench.baselines import (
    CONFIGS,
    LINE_MBPS,
    LOADS,
    MESSAGES,
    USERS,
    WIRE_BITS_60B,
    derive,
    with_flood_load,
    with_users,
)
from bench.sweep import evaluate, load_dict
from model.fast import make_trace

MIN_P99_SAMPLES = 1000        # a p99 over fewer control frames is effectively their maximum
PRIONIC_RULES = 4             # prionic_rx's and prionic_eth_rx's NUM_RULES as built (docs/board.md)
FLOWS = (16, 64, 256)
RL_POLL_US = (250, 500, 1000, 2000)
STATS_USERS = (USERS[1], USERS[-1])   # 2 and 8 users: the users sweep's ends (every count: RTL, --sweeps users)
BABBLER = "sensor"           # the babbling flow: its own delivery is not best effort's figure
FIGURES = ("interrupts", "critical_p50_us", "critical_p99_us", "critical_max_us", "critical_lost", "best_effort",
           "cpu_busy")


# ---------------------------------------------------------------------------- workloads

def with_gate(d: dict, gate: bool) -> dict:
    d = copy.deepcopy(d)
    d["cpu"]["gate"] = gate
    return d


def with_period(raw: dict, period_us: float, critical_us: float) -> dict:
    """The control loop at ``period_us`` releasing a ``critical_us`` task (deadline: the period)."""
    d = copy.deepcopy(raw)
    for f in d["flow"]:
        if f["name"] == d["cpu"]["critical"]:
            f["period_us"] = period_us
    d["cpu"]["critical_us"] = critical_us
    return d


def with_flows(raw: dict, n: int, seed: int = 1) -> dict:
    """The telemetry flow split into ``n`` registered UDP flows on distinct ports drawn at
    random from 10000-59999 (the same total rate), each with its own rule: more registered
    flows than prionic's rules as built and than the i210's filters. The prionic side keeps
    the control rule and the first ``PRIONIC_RULES - 1`` flows' rules and accepts the rest into
    queue 0 (dropping them would lose registered flows), its driver checking the port early."""
    d = copy.deepcopy(raw)
    tel = next(f for f in raw["flow"] if f["name"] == "telemetry")
    crit = next(f for f in raw["flow"] if f["name"] == raw["cpu"]["critical"])
    taken = {f["dport"] for f in raw["flow"] if "dport" in f}
    ports = [p for p in random.Random(seed).sample(range(10000, 60000), n + len(taken)) if p not in taken][:n]
    flows = [{**tel, "name": f"telemetry{i}", "dport": p, "rate_pps": tel["rate_pps"] / n} for i, p in enumerate(ports)]
    d["flow"] = [f for f in d["flow"] if f["name"] != "telemetry"] + flows
    d["cpu"]["apps"] = [a for a in d["cpu"]["apps"] if a != "telemetry"] + [f["name"] for f in flows]
    others = [r for r in raw["rule"] if r.get("dport") not in (tel["dport"], crit["dport"])]
    ctrl = [r for r in raw["rule"] if r.get("dport") == crit["dport"]]
    d["rule"] = ctrl + [{"proto": "udp", "dport": p, "queue": 0} for p in ports] + others
    return d


def with_babbler(raw: dict) -> dict:
    """A babbling registered flow (F9): a sensor of the best-effort application on its own
    registered port (UDP 6100) sending 60-byte frames at line rate from 1 ms on, beside the
    main workload (scenarios/babbler.toml). prionic's rule for it has a limiter of 10 frames
    per millisecond (a sensor meant to send a few thousand a second); an i210 filter steers
    it to queue 0 but cannot budget it."""
    d = copy.deepcopy(raw)
    d["flow"].append({"name": BABBLER, "proto": "udp", "dport": 6100, "pattern": "periodic", "payload": [18, 18],
                      "period_us": round(WIRE_BITS_60B / LINE_MBPS, 4), "start_us": 1000})
    d["cpu"]["apps"] = [*d["cpu"]["apps"], BABBLER]
    d["rule"] = [*d["rule"], {"proto": "udp", "dport": 6100, "queue": 0, "limit_frames": 10,
                             "limit_period_us": 1000}]
    return d


def with_spoofed_control(raw: dict) -> dict:
    """A flood on the control port from another source: 60-byte frames to UDP 5000 from
    10.0.0.99 at 10% of 1 Gb/s, beside the main workload; the control rule matches the
    controller's address (10.0.0.2) as well as the port, as prionic's rules and the 82576's
    5-tuple filters can (scenarios/spoofed_control.toml)."""
    d = copy.deepcopy(raw)
    crit = next(f for f in raw["flow"] if f["name"] == raw["cpu"]["critical"])
    d["flow"].append({"name": "spoof", "proto": "udp", "dport": crit["dport"], "src": "10.0.0.99",
                      "pattern": "periodic", "payload": [18, 18], "start_us": 1000,
                      "period_us": round(WIRE_BITS_60B / (0.1 * LINE_MBPS), 4)})
    d["rule"] = [{**r, "src": "10.0.0.2"} if r.get("dport") == crit["dport"] else r for r in d["rule"]]
    return d


def prionic_as_built(d: dict) -> dict:
    """A prionic workload with more rules than the build has: the first ``PRIONIC_RULES``,
    everything else accepted into queue 0 and filtered by the driver's early port check."""
    if len(d.get("rule", [])) <= PRIONIC_RULES:
        return d
    d = copy.deepcopy(d)
    d["rule"] = d["rule"][:PRIONIC_RULES]
    d["nic"]["default_action"] = 0
    d["cpu"]["early_filter"] = True
    return d


def points(raw: dict, quick: bool = False, profile: str | None = None) -> list[tuple[str, str, dict]]:
    """(workload, configuration, scenario dict) of every statistics point; ``profile`` names
    the host's cost profile (docs/host-cpu.md section 3)."""
    pts = _points(raw, quick)
    if profile is not None:
        for _w, _c, d in pts:
            d["cpu"]["profile"] = profile
    return pts


def _points(raw: dict, quick: bool) -> list[tuple[str, str, dict]]:
    pts: list[tuple[str, str, dict]] = []
    loads = (0.1,) if quick else LOADS
    for c in CONFIGS:
        pts.append(("main", c, derive(raw, c)))
    for load in loads:
        if with_flood_load(raw, load) == raw:
            continue    # the main workload itself (run_all gives it this load's name too)
        for c in CONFIGS:
            pts.append((f"load/{load:g}", c, derive(with_flood_load(raw, load), c)))
    for m in () if quick else MESSAGES:
        for n in STATS_USERS:
            for c in CONFIGS:
                pts.append((f"users/{m}/{n}", c, derive(with_users(raw, n, m), c)))
    pts.append(("gating", "prionic-nogate", with_gate(derive(raw, "prionic"), False)))
    per = with_period(raw, 1000, 200)
    for c in ("i210", "prionic"):
        pts.append(("period-1ms", c, derive(per, c)))
        pts.append(("babbler", c, derive(with_babbler(raw), c)))
        pts.append(("spoofed-control", c, derive(with_spoofed_control(raw), c)))
        for n in (16,) if quick else FLOWS:
            w = with_flows(raw, n)
            pts.append((f"flows/{n}", c, prionic_as_built(w) if c == "prionic" else derive(w, c)))
    for poll in (1000,) if quick else RL_POLL_US:
        d = derive(raw, "ratelimit")
        d["cpu"]["rl_poll_us"] = poll
        pts.append((f"rl-poll/{poll}", "ratelimit", d))
    return pts


RTL_SAMPLES = ("babbler", "spoofed-control", "flows/16", "period-1ms", "gating")


def rtl_samples(raw: dict, profile: str | None = None) -> list[tuple[str, str, dict]]:
    """The points of the workloads where the NIC's hardware matters that `make paper` also
    runs once on the RTL, checked against the golden model (one seed)."""
    return [p for p in points(raw, False, profile) if p[0] in RTL_SAMPLES]


# ---------------------------------------------------------------------------- runs

def run_point(d: dict, seed: int, duration_us: float, workdir: str) -> dict:
    """One configuration, one seed, on the fast model: its figures (a pure function)."""
    d = copy.deepcopy(d)
    d["duration_us"] = duration_us
    d["seed"] = seed
    sc = load_dict(d, Path(workdir) / f"{d['name']}-{seed}-{zlib.crc32(repr(d).encode()):08x}.toml")
    tr = make_trace(sc.flows, duration_us, seed)
    r = evaluate(sc, tr, {}, 0.0)
    if r["critical_samples"] < MIN_P99_SAMPLES:
        r["critical_p99_us"] = None
    apps = [a for a in d["cpu"].get("apps", []) if a != BABBLER]
    r["best_effort"] = min((r["delivered_ratio"][a] for a in apps if a in r["delivered_ratio"]), default=None)
    r["seed"] = seed
    return r


def spread(vals: list) -> dict | None:
    """min / median / max of a figure over the seeds (None when a seed has none)."""
    if not vals or any(v is None for v in vals):
        return None
    a = np.array(vals, dtype=float)
    return {"min": round(float(a.min()), 4), "median": round(float(np.median(a)), 4), "max": round(float(a.max()), 4)}


def summarise(runs: list[dict]) -> dict:
    return {"seeds": [r["seed"] for r in runs], "per_seed": {k: [r[k] for r in runs] for k in FIGURES},
            **{k: spread([r[k] for r in runs]) for k in FIGURES}}


def versus(base: dict, prio: dict) -> dict:
    """prionic against one baseline, seed by seed (the same traffic on both): the spread of
    each difference."""
    b, p = base["per_seed"], prio["per_seed"]

    def diff(k: str) -> dict | None:
        return spread([None if x is None or y is None else y - x for x, y in zip(b[k], p[k], strict=True)])

    return {"interrupts_saved_pct": spread([100.0 * (1 - y / x) if x else 0.0
                                            for x, y in zip(b["interrupts"], p["interrupts"], strict=True)]),
            "critical_p99_us_diff": diff("critical_p99_us"), "critical_max_us_diff": diff("critical_max_us"),
            "critical_lost": [b["critical_lost"], p["critical_lost"]],
            "best_effort": [base["best_effort"], prio["best_effort"]],
            "cpu_busy": [base["cpu_busy"], prio["cpu_busy"]]}


def strongest(stats: dict, workload: str = "main") -> str:
    """The baseline with the lowest median critical p99 on ``workload`` (ties: fewer control
    frames lost, then fewer interrupts); a configuration that loses control frames ranks last."""
    def key(c: str) -> tuple:
        s = stats[workload][c]
        p99 = s["critical_p99_us"]["median"] if s["critical_p99_us"] else float("inf")
        lost = s["critical_lost"]["median"]
        return (lost > 0, p99, lost, s["interrupts"]["median"])
    return min((c for c in stats[workload] if c not in ("prionic", "prionic-nogate")), key=key)


def run_all(raw: dict, work: Path, jobs: int, seconds: float, seeds: tuple[int, ...], quick: bool,
            profile: str | None = None, say=print) -> dict:
    """Every point over every seed: ``{"workloads": {workload: {config: summary}}, "vs": ...}``."""
    pts = points(raw, quick, profile)
    work.mkdir(parents=True, exist_ok=True)
    tasks = [(w, c, d, s) for w, c, d in pts for s in seeds]
    say(f"paper: {len(tasks)} fast-model runs ({len(pts)} points x {len(seeds)} seeds, {seconds:g} s of traffic "
        f"each, {jobs} at a time)")
    dur = {w: seconds * 1e6 * (1.1 if w == "period-1ms" else 1.0) for w, _c, _d in pts}
    args = [(d, s, dur[w], str(work)) for w, c, d, s in tasks]
    if jobs <= 1:
        res = [run_point(*a) for a in args]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            res = list(ex.map(run_point, *zip(*args, strict=True), chunksize=2))
    out: dict[str, dict[str, list[dict]]] = {}
    for (w, c, _d, _s), r in zip(tasks, res, strict=True):
        out.setdefault(w, {}).setdefault(c, []).append(r)
    stats = {w: {c: summarise(rs) for c, rs in cs.items()} for w, cs in out.items()}
    for load in LOADS:
        if with_flood_load(raw, load) == raw:
            stats[f"load/{load:g}"] = stats["main"]
    vs = {w: {c: versus(cs[c], cs["prionic"]) for c in cs if c != "prionic"}
          for w, cs in stats.items() if "prionic" in cs}
    vs["gating"] = {"prionic-nogate": versus(stats["gating"]["prionic-nogate"], stats["main"]["prionic"])}
    return {"seconds_per_seed": seconds, "seeds": list(seeds), "min_p99_samples": MIN_P99_SAMPLES,
            "prionic_rules": PRIONIC_RULES, "workloads": stats, "vs": vs, "strongest": strongest(stats),
            "cpu_s": round(sum(r["cpu_s"] for r in res), 1)}
