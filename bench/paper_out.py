"""The output of `make paper` (F23, docs/paper.md): the tables and plots of the checked RTL
runs (bench/paper.py, bench/paper_sys.py) and of the statistics over seeds
(bench/paper_stats.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.baselines import CONFIGS


def best_effort(s: dict, critical: str = "control") -> dict[str, float]:
    return {n: r for n, r in s["delivered_ratio"].items() if n != critical}


def _fmt_pct(v: float | None) -> str:
    return "-" if v is None else f"{v:g}%"


def table(res: dict) -> str:
    st = res.get("strongest", {})
    st = st.get("rtl", st)     # make paper: the RTL run's strongest beside the statistics'; paper_sys: the one
    head = [f"prionic paper experiment ({res['workload']}, {res['simulator']}, cost profile "
            f"{res.get('profile', 'default')}{', QUICK: not the figures' if res['quick'] else ''})"]
    if st:
        b = st["main"]
        v = st["main_vs"]
        head.append(f"checked RTL run (one seed), against its strongest baseline ({b}): interrupts saved "
                    f"{_fmt_pct(v['interrupts_saved_pct'])}, "
                    f"critical p99 (every control frame) cut {_fmt_pct(v['critical_p99_cut_pct'])}, CPU busy "
                    f"{100 * v['cpu_busy'][0]:.0f}% -> {100 * v['cpu_busy'][1]:.0f}%")
    head.append(f"against the conventional NIC: interrupts saved {res['interrupts_saved_pct']}%, critical p99 "
                f"reduced {res['critical_delay_reduction_pct']}%")
    lines = [*head, "",
             f"{'config':<13} {'irqs':>6} {'preempt':>7} {'crit p50/p99/max us':>24} {'p99 all':>8} {'miss':>5} "
             f"{'lost':>5} {'busy':>5}  delivered"]
    for c, s in res["configs"].items():
        r = s["critical_response_us"]
        rs = "-" if r["p50"] is None else f"{r['p50']:.1f}/{r['p99']:.1f}/{r['max']:.1f}"
        pa = s["critical_response_all_us"]["p99"]
        pa_s = "lost" if pa is None else f"{pa:.1f}"
        dl = ", ".join(f"{k} {v:.3f}" for k, v in s["delivered_ratio"].items())
        busy = s.get("cpu_busy", sum(s["cpu_share"].values()))
        lines.append(f"{c:<13} {s['interrupts']:>6} {s['interrupts_preempting_critical']:>7} {rs:>24} {pa_s:>8} "
                     f"{s['deadline_misses']:>5} {s['critical_lost']:>5} {100 * busy:>4.0f}%  {dl}")
    if st.get("load"):
        lines += ["", "strongest baseline per flood load (lowest critical p99 over every control frame):"]
        for p in st["load"]:
            v = p["vs"]
            lines.append(f"  {100 * p['load']:>5g}%  {p['config']:<12} "
                         f"irqs {v['interrupts'][0]:>5} vs {v['interrupts'][1]:>4}"
                         f"   p99 all {_us(v['critical_p99_all_us'][0])} vs {_us(v['critical_p99_all_us'][1])}"
                         f"   lost {v['control_lost'][0]} vs {v['control_lost'][1]}"
                         f"   busy {100 * v['cpu_busy'][0]:.0f}% vs {100 * v['cpu_busy'][1]:.0f}%")
    return "\n".join(lines) + "\n"


def _us(v: float | None) -> str:
    return "lost" if v is None else f"{v:.1f} us"


LOST_US = 100_000.0   # where a plot puts a p99 that fell on a control frame never processed


def _p99(s: dict) -> float:
    """p99 of the critical task over every control frame sent (a lost one never finishes)."""
    v = s["critical_response_all_us"]["p99"]
    return LOST_US if v is None else v


STYLE = {c: (f"C{i}", m) for i, (c, m) in enumerate(zip(CONFIGS, "osvpP^Dx*", strict=True))}


def plot(res: dict, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = list(res["configs"])
    paths = []
    fig, ax = plt.subplots(figsize=(8, 4.8), constrained_layout=True)
    for c in configs:
        v = np.sort(np.array(res["critical_response_cycles"][c], dtype=float)) / 125.0
        if v.size:
            ax.step(v, np.arange(1, v.size + 1) / v.size, where="post", label=c, color=STYLE[c][0],
                    linewidth=2.5 if c == "prionic" else 1.3)
    ax.set_xscale("log")
    ax.set_xlabel("critical task response time: frame arrival to task end (us)")
    ax.set_ylabel("fraction of control frames processed")
    ax.set_title("Critical task response time, main workload")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    paths.append(out / "critical_cdf.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    if res["load_sweep"]:
        paths.append(_plot_loads(plt, res, configs, out))
    if res["users_sweep"]:
        paths.append(_plot_users(plt, res, configs, out))
    return paths


def _plot_loads(plt, res: dict, configs: list[str], out: Path) -> Path:
    loads = [p["load"] * 100 for p in res["load_sweep"]]
    fig, axs = plt.subplots(4, 1, figsize=(8, 12), sharex=True, constrained_layout=True)
    a1, a2, a3, a4 = axs
    for c in configs:
        col, mk = STYLE[c]
        lw = 2.5 if c == "prionic" else 1.2
        pts = res["load_sweep"]
        a1.plot(loads, [p[c]["interrupts"] for p in pts], marker=mk, color=col, lw=lw, label=c)
        a2.plot(loads, [_p99(p[c]) for p in pts], marker=mk, color=col, lw=lw, label=c)
        a3.plot(loads, [min(best_effort(p[c]).values(), default=0.0) for p in pts], marker=mk, color=col, lw=lw,
                label=c)
        a4.plot(loads, [100 * p[c].get("cpu_busy", sum(p[c]["cpu_share"].values())) for p in pts], marker=mk,
                color=col, lw=lw, label=c)
    a1.set_ylabel("interrupts (ISR runs)")
    a1.set_yscale("symlog", linthresh=10)
    a2.set_ylabel(f"critical task p99 (us)\n(lost: at {LOST_US / 1000:g} ms)")
    a2.set_yscale("log")
    a3.set_ylabel("best-effort flow delivered\n(the lower of telemetry, bulk)")
    a4.set_ylabel("CPU busy (%)")
    a4.set_xlabel("unregistered flood, % of 1 Gb/s (60-byte frames)")
    a4.set_xscale("symlog", linthresh=2)
    a4.set_xlim(-0.3, max(loads) * 1.1 if loads else 1)
    a4.set_xticks(loads, [f"{v:g}" for v in loads])
    for a in axs:
        a.grid(True, alpha=0.3)
    a1.legend(fontsize="small", ncol=2)
    a1.set_title("Against offered flood load")
    path = out / "load_sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_users(plt, res: dict, configs: list[str], out: Path) -> Path:
    fig, ax = plt.subplots(figsize=(11, 4.8), constrained_layout=True)
    for k, m in enumerate(sorted({p["message"] for p in res["users_sweep"]})):
        pts = [p for p in res["users_sweep"] if p["message"] == m]
        for c in configs:
            col, mk = STYLE[c]
            ax.plot([p["users"] for p in pts], [_p99(p[c]) for p in pts], marker=mk, ls="-" if k == 0 else "--",
                    color=col, label=f"{c}, {m // 1024} KB messages")
    ax.set_xlabel("concurrent TCP users (one message per ms each)")
    ax.set_ylabel(f"critical task p99 (us; lost: at {LOST_US / 1000:g} ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title("Against concurrent users")
    path = out / "users_sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ---------------------------------------------------------------------------- statistics over seeds

def _sp(s: dict | None, fmt: str = "{:.1f}") -> str:
    """A figure's median and [min, max] over the seeds."""
    if s is None:
        return "-"
    if s["min"] == s["max"]:
        return fmt.format(s["median"])
    return f"{fmt.format(s['median'])} [{fmt.format(s['min'])}, {fmt.format(s['max'])}]"


def stats_table(st: dict) -> str:
    """The statistics as text: per workload and configuration, median [min, max] over the seeds."""
    lines = ["", f"statistics: fast model, {len(st['seeds'])} seeds x {st['seconds_per_seed']:g} s a point; "
             f"median [min, max]; p99 only over >= {st['min_p99_samples']} control frames; strongest baseline "
             f"(lowest median p99 of the main workload, no control frame lost): {st['strongest']}"]
    head = (f"{'workload':<14} {'config':<15} {'irqs':>22} {'crit p99 us':>20} {'crit max us':>20} {'lost':>8} "
            f"{'best effort':>19} {'CPU busy':>17}")
    lines += ["", head]
    for w, cs in st["workloads"].items():
        for c, s in cs.items():
            lines.append(f"{w:<14} {c:<15} {_sp(s['interrupts'], '{:.0f}'):>22} {_sp(s['critical_p99_us']):>20} "
                         f"{_sp(s['critical_max_us']):>20} {_sp(s['critical_lost'], '{:.0f}'):>8} "
                         f"{_sp(s['best_effort'], '{:.3f}'):>19} {_sp(s['cpu_busy'], '{:.3f}'):>17}")
    vs = st["vs"]["main"].get("i210")
    if vs:
        lines += ["", "prionic against i210, main workload, seed by seed: interrupts saved "
                  f"{_sp(vs['interrupts_saved_pct'])}%, critical p99 {_sp(vs['critical_p99_us_diff'], '{:+.2f}')} us, "
                  f"worst {_sp(vs['critical_max_us_diff'], '{:+.2f}')} us"]
    return "\n".join(lines) + "\n"


def plot_stats(st: dict, out: Path) -> list[Path]:
    """The flood-load sweep over seeds: median with the min-max range of every configuration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ws = sorted((w for w in st["workloads"] if w.startswith("load/")), key=lambda w: float(w.split("/")[1]))
    if not ws:
        return []
    loads = [100 * float(w.split("/")[1]) for w in ws]
    fig, axs = plt.subplots(4, 1, figsize=(8, 12), sharex=True, constrained_layout=True)
    keys = (("interrupts", "interrupts (ISR runs)"), ("critical_p99_us", "critical task p99 (us)"),
            ("best_effort", "best-effort flows delivered\n(the lowest)"), ("cpu_busy", "CPU busy (share)"))
    for c in st["workloads"][ws[0]]:
        col, mk = STYLE[c]
        for a, (k, _label) in zip(axs, keys, strict=True):
            sp = [st["workloads"][w][c][k] for w in ws]
            ok = [i for i, s in enumerate(sp) if s is not None]
            if not ok:
                continue
            med = np.array([sp[i]["median"] for i in ok])
            err = np.array([[sp[i]["median"] - sp[i]["min"] for i in ok], [sp[i]["max"] - sp[i]["median"] for i in ok]])
            a.errorbar([loads[i] for i in ok], med, yerr=err, marker=mk, color=col, capsize=3,
                       lw=2.5 if c == "prionic" else 1.2, label=c)
    for a, (_k, label) in zip(axs, keys, strict=True):
        a.set_ylabel(label)
        a.grid(True, alpha=0.3)
    axs[0].set_yscale("symlog", linthresh=10)
    axs[1].set_yscale("log")
    axs[3].set_xlabel("unregistered flood, % of 1 Gb/s (60-byte frames)")
    axs[3].set_xscale("symlog", linthresh=2)
    axs[3].set_xlim(-0.3, max(loads) * 1.1)
    axs[3].set_xticks(loads, [f"{v:g}" for v in loads])
    axs[0].legend(fontsize="small", ncol=3)
    axs[0].set_title(f"Against offered flood load: fast model, median and range over {len(st['seeds'])} seeds\n"
                     "(i210 lies under prionic in every panel but the p99)")
    path = out / "stats_load_sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [path]
