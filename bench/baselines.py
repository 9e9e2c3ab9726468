"""The configurations of `make paper` (F23, docs/paper.md section 1): from one workload file
(the prionic configuration, default scenarios/paper.toml) the baselines a reviewer would
name, each the same RTL programmed as a NIC without prionic's features would be, with the
host configuration that goes with it (docs/host-cpu.md section 4); and the workload's
variations the sweeps run (the flood's offered load, concurrent TCP users)."""

from __future__ import annotations

import copy

from model.moderation import intel_ticks

# The host configurations of docs/host-cpu.md section 4 as the paper runs them, weakest first;
# every one but the last is a NIC that the same RTL build can be programmed to be, without any
# of prionic's own features (no drop of unregistered flows, no per-priority moderation, no gating).
CONFIGS = ("conventional", "rtos", "napi", "napi-threaded", "ratelimit", "swdemux", "multiqueue", "i210", "prionic")
BASELINES = CONFIGS[:-1]
LABELS = {
    "conventional": "conventional: one queue, an irq per frame, softirq above every task",
    "rtos": "RTOS network task: one queue, e1000e ITR, the driver's early port filter, one network task below the "
            "critical task",
    "napi": "Linux NAPI: one queue, e1000e ITR, masked budgeted polling, then ksoftirqd",
    "napi-threaded": "threaded NAPI (PREEMPT_RT style): one queue, e1000e ITR, every poll in a thread below the "
                     "critical task",
    "ratelimit": "rate-limited ISR: an irq per frame up to 3 per 2 ms, then polling every 1 ms",
    "swdemux": "software demux: e1000e ITR, early demultiplexing in the driver, protocol work at the receiver's "
               "priority",
    "multiqueue": "naive multiqueue: n-tuple steering of the control port to its own queue, a task per queue",
    "i210": "i210 as its engineers configure it: 2-tuple filters (up to 8), the rest to a sink queue with DROP_EN, "
            "per-queue EITR as prionic's moderation, a task per queue, the driver's early port check",
    "prionic": "prionic: classification, drop, per-priority queues and moderation, RUN_PRIO gating",
}
I210_FILTERS = 8    # the i210's 2-tuple filters (the 82576's 5-tuple filters: 8 too)
# e1000e with its fixed-rate settings: RxIntDelay (RDTR) 0, RxAbsIntDelay (RADV) 8 (x 1.024 us,
# ignored while RDTR is 0), InterruptThrottleRate 20000/s, i.e. ITR = 1e9 / (20000 * 256) = 195
INTEL = {"rdtr": 0, "radv": 8, "itr": 195}
WIRE_BITS_60B = 84 * 8          # a 60-byte frame with preamble, SFD, FCS... and gap on the wire: 84 bytes
LINE_MBPS = 1000.0              # the device's port: 1 GbE
LOADS = (0.0, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
USERS = (1, 2, 4, 8)
MESSAGES = (1024, 10240)
SEEDS = (1, 2, 3, 4, 5)         # the statistics' seeds (bench/paper_stats.py)
# task priorities of the configurations with a network task (rtos, ratelimit; ksoftirqd of napi)
APP_PRIO, NET_PRIO, CRITICAL_PRIO = 1, 2, 3


# ---------------------------------------------------------------------------- configs

def _intel_moderation(q: dict, tick_div: int) -> None:
    """Queue ``q`` programmed as an e1000e with :data:`INTEL` (timing.md section 6)."""
    rdtr, radv, itr = intel_ticks(**INTEL, tick_div=tick_div)
    if rdtr == 0:   # Intel ignores RADV while RDTR is 0: an interrupt per frame, throttled by ITR
        q.update(immediate=True, itr_gap=itr)
    else:
        q.update(itr_pkt=rdtr, itr_abs=radv, itr_gap=itr)


def derive(raw: dict, config: str, profile: str | None = None) -> dict:
    """The scenario dict of ``config`` from the prionic workload ``raw`` (docs/paper.md
    section 1 has the table); ``profile`` names a cost profile (docs/host-cpu.md section 3)."""
    if config not in CONFIGS:
        raise ValueError(f"config must be one of {CONFIGS}")
    d = copy.deepcopy(raw)
    cpu = d.setdefault("cpu", {})
    if profile is not None:
        cpu["profile"] = profile
    if config == "prionic":
        return d
    queues = d["queue"]
    tick_div = d.get("nic", {}).get("tick_div", 125)
    cpu["mode"] = {"conventional": "kernel", "napi-threaded": "napi", "i210": "multiqueue"}.get(config, config)
    cpu["gate"] = False
    d["name"] = f"{raw.get('name', 'paper')}-{config}"
    d.setdefault("nic", {})["default_action"] = 0       # no hardware drop: everything is received
    if config == "i210":
        return _i210(raw, d)
    if config == "multiqueue":
        # the control flow's port steered to its own immediate queue (its rule as written),
        # everything else to queue 0 with e1000e moderation; a receive task per queue
        crit_port = next(f["dport"] for f in raw["flow"] if f["name"] == cpu["critical"])
        d["rule"] = [r for r in raw.get("rule", []) if r.get("dport") == crit_port]
        q0 = {k: v for k, v in queues[0].items() if k in ("ring_size", "buf_size")}
        _intel_moderation(q0, tick_div)
        d["queue"] = [q0] + [{**queues[1], "immediate": True}] + list(queues[2:])
        return d
    # one queue: the same number of buffers in one ring (at most the 128 the host model lays
    # out per ring); the other queues of the same build stay configured but receive nothing
    q0 = {"ring_size": min(128, sum(q.get("ring_size", 16) for q in queues)),
          "buf_size": max(q.get("buf_size", 2048) for q in queues)}
    if config in ("rtos", "napi", "napi-threaded", "swdemux"):
        _intel_moderation(q0, tick_div)
    else:
        q0["immediate"] = True
    d["queue"] = [q0] + [{"ring_size": 2, "buf_size": 64} for _ in queues[1:]]
    d.pop("rule", None)
    cpu.pop("queue_prio", None)
    if config in ("rtos", "napi", "napi-threaded", "ratelimit"):
        cpu.update(app_prio=APP_PRIO, net_prio=NET_PRIO, critical_prio=CRITICAL_PRIO)
    if config == "rtos":
        cpu["early_filter"] = True
    if config == "napi-threaded":
        cpu["napi_threaded"] = True
    return d


def i210_filters(raw: dict) -> list[dict]:
    """The workload's rules as i210 2-tuple filters (protocol and one destination port, to a
    queue; with the rule's source address, as the 82576's 5-tuple filters): a rule with a
    port range becomes one filter per port of the workload's flows in it; drop rules have no
    filter (the sink takes their frames), nor does a rate limiter (an i210 has none)."""
    out = []
    for r in raw.get("rule", []):
        if r.get("action", "queue") != "queue":
            continue
        lo, hi = (r["dport"], r["dport"]) if isinstance(r["dport"], int) else r["dport"]
        ports = [lo] if lo == hi else sorted({f["dport"] for f in raw["flow"] if f.get("proto") == r.get("proto")
                                              and "dport" in f and lo <= f["dport"] <= hi})
        src = {"src": r["src"]} if "src" in r else {}    # the 82576's 5-tuple filters match the source too
        out += [{"proto": r["proto"], "dport": p, "queue": r.get("queue", 0), **src} for p in ports]
    return out


def _i210(raw: dict, d: dict) -> dict:
    """The i210 as its engineers configure it (docs/paper.md section 1): the workload's queues
    and moderation as written (per-queue EITR), its registered ports as 2-tuple filters, and
    all other traffic to a sink queue beyond the workload's whose ring the driver never
    refills and whose interrupt it never enables (SRRCTL.DROP_EN: the NIC drops the rest);
    with more registered ports than filters, the rest to queue 0 instead (the sink would
    lose registered flows), where the driver's early port check drops what has no socket."""
    cpu = d["cpu"]
    filters = i210_filters(raw)
    nq = len(raw["queue"])
    d["rule"] = filters[:I210_FILTERS]
    cpu["early_filter"] = True
    prio = list(cpu.get("queue_prio", range(1, nq + 1)))
    if len(filters) <= I210_FILTERS:
        d["nic"].update(num_queues=nq + 1, default_action=nq)
        d["queue"] = list(raw["queue"]) + [{"ring_size": 2, "buf_size": 2048}]
        cpu.update(queue_prio=prio + [1], irq_mask=1 << nq)
    return d


def with_flood_load(raw: dict, load: float) -> dict:
    """The workload with its flood flow at ``load`` x 1 Gb/s of 60-byte frames (0: no flood)."""
    d = copy.deepcopy(raw)
    flows = [f for f in d["flow"] if f["name"] != "flood"]
    if load > 0:
        flood = next(f for f in raw["flow"] if f["name"] == "flood")
        flows.append({**flood, "pattern": "periodic", "period_us": round(WIRE_BITS_60B / (load * LINE_MBPS), 4),
                      "payload": [18, 18]})
    d["flow"] = flows
    return d


def with_users(raw: dict, users: int, message: int) -> dict:
    """The workload with its bulk flow replaced by ``users`` TCP connections, each sending a
    ``message``-byte message per millisecond."""
    d = copy.deepcopy(raw)
    bulk = next(f for f in raw["flow"] if f["name"] == "bulk")
    d["flow"] = [f for f in d["flow"] if f["name"] != "bulk"] + [
        {"name": "bulk", "proto": "tcp", "dport": bulk["dport"], "pattern": "users", "users": users,
         "message": message, "period_us": 1000}]
    return d
