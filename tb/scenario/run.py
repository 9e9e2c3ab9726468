"""Running a scenario on a simulator: the build parameters, and :func:`run_scenario` through
the fast path (tb/fast/fastpath.py) or the bus path (tb/top/env.py); the runner (and with it
cocotb) is imported only when a run starts.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tb.scenario.gtkwave import FAST_DUT_PATH, gtkw_filters, gtkw_text
from tb.scenario.spec import Scenario, ScenarioError


def build_params(sc: Scenario) -> dict[str, int]:
    """The RTL parameters a scenario runs with."""
    table = {"FLOW_TABLE_SETS": sc.flow_table_sets, "FLOW_ENTRIES": 0} if sc.flow_table_sets else {}
    return {"DATA_WIDTH": 32, "NUM_QUEUES": sc.num_queues, "NUM_RULES": sc.num_rules,
            "RULES_PER_CYCLE": sc.rules_per_cycle, **table}


def run_scenario(sc: Scenario, sim: str, out: Path, *, path: str = "fast", waves: bool = False,
                 record: Path | None = None, progress: int = 0, optimize: bool = True,
                 seed: int | None = None) -> dict:
    """Run ``sc`` on ``sim`` through the fast path (HDL player, memory and recorder,
    tb/fast/fastpath.py) or the bus path (cocotbext-axi models, tb/top/env.py), checked against the
    model either way; writes report.txt/report.json (and the waveform) into ``out`` and
    returns the report. ``record`` also writes the event records as JSON. ``optimize``
    builds the top on Verilator for run speed (-O2) rather than the tests' build time (-O1).
    ``seed`` is the simulation's seed (the host's random delays of a scenario with no
    ``[cpu]`` table, the bus path's stalls); ``make sim`` gives the scenario's own ``seed``
    so that a run repeats, a test gives none (the runner's: random, or ``SEED=n``)."""
    from tb.runner import run_sim

    out.mkdir(parents=True, exist_ok=True)
    env = {"PRIONIC_SCENARIO": str(Path(sc.path).resolve()), "PRIONIC_OUT": str(out), "PRIONIC_SIM": sim}
    seeding = {} if seed is None else {"seed": seed, "seed_note": f"the seed of {sc.path}"}
    if record is not None:
        env["PRIONIC_RECORD"] = str(record)
    plusargs = []
    if waves and sim == "icarus":
        plusargs.append(f"+dumpfile_path={out / 'waves.fst'}")
    if path == "fast":
        env["PRIONIC_FAST_DIR"] = str(out)
        env["PRIONIC_PROGRESS"] = str(progress)
        plusargs += [f"+prionic_stim={out / 'frames.bin'}", f"+prionic_rec={out / 'events.txt'}"]
        # the memory's behaviour at run time (tb/hdl/prionic_tb_axi_ram.v): one build for all
        plusargs += [f"+prionic_mem_stall_percent={sc.mem_stall_percent}",
                     f"+prionic_mem_aw_waits_for_w={int(sc.mem_aw_waits_for_w)}",
                     f"+prionic_mem_b_latency={sc.mem_b_latency}"]
        run_dir = run_sim(sim, "prionic_tb_fast", "tb.fast.cocotb_fast", build_params(sc),
                          testcase="FastScenarioTest",
                          extra_env=env, waves=waves, plusargs=plusargs, fast=optimize, test_dir=out / "sim",
                          **seeding)
        top = f"prionic_tb_fast.{FAST_DUT_PATH}"
    elif path == "bus":
        if sc.mem_b_latency != 2:  # cocotbext-axi's AxiRam answers B at its own pace
            raise ScenarioError(f"{sc.path}: [host] memory_b_latency is a fast-path setting (the bus path's "
                                f"AxiRam has its own B timing); leave it at 2 or run with path='fast'")
        run_dir = run_sim(sim, "prionic_rx", "tb.scenario.cocotb_scenario", build_params(sc), testcase="ScenarioTest",
                          extra_env=env, waves=waves, plusargs=plusargs, fast=optimize, test_dir=out / "sim",
                          **seeding)
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
