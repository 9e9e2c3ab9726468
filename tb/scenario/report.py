"""A scenario run's report (F22): latencies, percentiles, per-queue and CPU figures, the
text and JSON reports, the trace and the plots.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from model import regmap
from tb.scenario.spec import CYCLES_PER_US, Scenario
from tb.timebase import PERIOD_NS


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
        # F31: the table's entries (FLOW_USED) and verdicts (CNT_FLOW_TABLE_HIT) as read at the end
        "flow_table": {"entries": 4 * sc.flow_table_sets, "inserts": len(sc.table_cmds),
                       "used": run.registers.get(regmap.addr("FLOW_USED"), 0),
                       "verdicts": run.registers.get(regmap.addr("CNT_FLOW_TABLE_HIT"), 0)}
        if sc.flow_table_sets else None,
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
        "early_drops": st.early_drops,
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
    lines.append("rules: " + ("; ".join(f"#{i} {t}" for i, t in enumerate(rep["rules"])) or "none"))
    if rep.get("flow_table"):
        t = rep["flow_table"]
        lines.append(f"flow table: {t['used']} of {t['entries']} entries used after {t['inserts']} inserts; "
                     f"{t['verdicts']} frames classified by it")
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
                  + f"; {cpu['stack_drops']} frames processed and dropped by the stack (no socket)"
                  + (f", {cpu['early_drops']} dropped by the driver's port check" if cpu.get("early_drops") else ""),
                  "delivered to their task: " + ", ".join(f"{n} {d['consumed']}/{d['sent']}"
                                                          for n, d in cpu["delivered"].items()
                                                          if d["ratio"] is not None)]
    return "\n".join(lines) + "\n"
