"""Scenario files (F21): strict parsing, and every file in scenarios/ runs.

``test_scenario_mistakes_are_rejected``: a typo in any table or at the top level, an
unknown table, a non-positive duration, a negative start, a ring too small, an empty
burst or an impossible setting is an error that names the file and the key, never a
default silently used (no simulator).

``test_every_scenario_runs``: each scenarios/*.toml, shortened to at most 500 us of
traffic (100 us on Icarus), runs on the fast path on both simulators; the scoreboard checks every frame,
byte and interrupt cycle against the model, and the report and its numpy trace agree.
Four files already run elsewhere and are not run twice: default.toml at full length
(tests/test_readme.py, the README's `make sim`), mixed.toml (tests/test_fastpath.py,
both paths), paper.toml (tests/test_fast_model.py: 2 ms with its flood, 0.45 ms on Icarus,
with these same checks of its report and trace) and soc.toml (tests/test_soc.py: through the
simulated LiteX SoC, against the model's verdicts); ``test_every_scenario_is_run`` makes sure
every file is covered by one of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tb.common import amount
from tb.runner import ROOT, SIMULATORS
from tb.scenario import ScenarioError, load, run_scenario
from tests.scenario_checks import check_scenario_run

SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
DEFAULT = ROOT / "scenarios" / "default.toml"
# scenario files another test runs at full length (file name -> the test that runs it)
RUN_ELSEWHERE = {"default.toml": "tests/test_readme.py", "mixed.toml": "tests/test_fastpath.py",
                 "paper.toml": "tests/test_fast_model.py", "soc.toml": "tests/test_soc.py"}
RUN_HERE = [p for p in SCENARIOS if p.name not in RUN_ELSEWHERE]

# (what is wrong, how to break scenarios/default.toml, a word the error must contain)
MISTAKES = [
    ("top-level typo", lambda t: "durations_us = 5\n" + t, "durations_us"),
    ("unknown table", lambda t: t + "\n[nics]\nnum_queues = 2\n", "nics"),
    ("[nic] typo", lambda t: t.replace("[nic]\n", "[nic]\nnum_queue = 2\n", 1), "num_queue"),
    ("[[queue]] typo", lambda t: t.replace("[[queue]]\n", "[[queue]]\nring = 8\n", 1), "ring"),
    ("[[rule]] typo", lambda t: t.replace("[[rule]]\n", "[[rule]]\ndports = 1\n", 1), "dports"),
    ("[[flow]] typo", lambda t: t.replace("[[flow]]\n", "[[flow]]\nperod_us = 3\n", 1), "perod_us"),
    ("[host] typo", lambda t: t.replace("[host]\n", "[host]\nisr_delay = [1, 2]\n", 1), "isr_delay"),
    ("zero duration", lambda t: re.sub(r"(?m)^duration_us\s*=.*$", "duration_us = 0", t), "duration_us"),
    ("negative duration", lambda t: re.sub(r"(?m)^duration_us\s*=.*$", "duration_us = -10", t), "duration_us"),
    ("negative start", lambda t: re.sub(r"(?m)^start_us\s*=.*$", "start_us = -5", t, count=1), "start_us"),
    ("ring of one slot", lambda t: re.sub(r"(?m)^ring_size\s*=.*$", "ring_size = 1", t, count=1), "ring_size"),
    ("negative ring", lambda t: re.sub(r"(?m)^ring_size\s*=.*$", "ring_size = -4", t, count=1), "ring_size"),
    ("empty burst", lambda t: re.sub(r"(?m)^burst\s*=.*$", "burst = 0", t, count=1), "burst"),
    ("stall percent", lambda t: t.replace("[host]\n", "[host]\nmemory_stall_percent = 100\n", 1),
     "memory_stall_percent"),
    ("tick_div 0", lambda t: t.replace("[nic]\n", "[nic]\ntick_div = 0\n", 1).replace("tick_div = 125\n", "", 1),
     "tick_div"),
    ("flow not a table", lambda t: "flow = 3\n" + t.replace("[[flow]]", "[[flows]]"), "flow"),
]


PAPER = ROOT / "scenarios" / "paper.toml"
# mistakes in the tables only paper.toml has: [cpu] (docs/host-cpu.md) and a "users" flow
CPU_MISTAKES = [
    ("[cpu] typo", lambda t: t.replace("[cpu]\n", "[cpu]\nisr_usec = 2\n", 1), "isr_usec"),
    ("[cpu] unknown critical flow", lambda t: t.replace('critical = "control"', 'critical = "ctrl"', 1), "critical"),
    ("[cpu] unknown app", lambda t: t.replace('apps = ["telemetry", "bulk"]', 'apps = ["telemetry", "bluk"]', 1),
     "apps"),
    ("[cpu] mode", lambda t: t.replace('mode = "prionic"', 'mode = "linux"', 1), "mode"),
    ("[cpu] negative cost", lambda t: t.replace("[cpu]\n", "[cpu]\nframe_us = -1\n", 1), "frame_us"),
    ("[cpu] and random host delays", lambda t: t + "\n[host]\nisr_delay_cycles = [2, 4]\n", "isr_delay_cycles"),
    ("[cpu] queue_prio count", lambda t: t.replace("[cpu]\n", "[cpu]\nqueue_prio = [1]\n", 1), "queue_prio"),
    ("users flow without users", lambda t: t.replace('pattern = "poisson"\nrate_pps = 20000',
                                                      'pattern = "users"\nmessage = 1024\nperiod_us = 1000', 1),
     "users"),
    ("ring larger than the host lays out", lambda t: t.replace("ring_size = 96", "ring_size = 129", 1), "ring_size"),
    # errors in words, not Python's type names
    ("[cpu] gate not a boolean", lambda t: t.replace("[cpu]\n", "[cpu]\ngate = 1\n", 1), "must be true or false"),
    ("[cpu] cost not a number", lambda t: t.replace("[cpu]\n", '[cpu]\nisr_us = "fast"\n', 1), "must be a number"),
    ("[cpu] priority a boolean", lambda t: t.replace("[cpu]\n", "[cpu]\ncritical_prio = true\n", 1),
     "must be an integer"),
    ("[cpu] gate on a baseline host", lambda t: t.replace('mode = "prionic"', 'mode = "napi"\ngate = true', 1),
     "gate"),
    ("[cpu] unknown profile", lambda t: t.replace("[cpu]\n", '[cpu]\nprofile = "m0"\n', 1), "profile"),
    ("[cpu] napi budget", lambda t: t.replace("[cpu]\n", "[cpu]\nnapi_budget = 0\n", 1), "napi_budget"),
    ("[cpu] threaded NAPI on another host", lambda t: t.replace("[cpu]\n", "[cpu]\nnapi_threaded = true\n", 1),
     "napi_threaded"),
    ("[cpu] irq_mask beyond the queues", lambda t: t.replace("[cpu]\n", "[cpu]\nirq_mask = 4\n", 1), "irq_mask"),
    ("[[flow]] source not an address", lambda t: t.replace("[[flow]]\n", '[[flow]]\nsrc = "10.0.0"\n', 1), "src"),
    ("[[flow]] source a prefix", lambda t: t.replace("[[flow]]\n", '[[flow]]\nsrc = "10.0.0.0/24"\n', 1), "src"),
    ("[[rule]] source not a prefix", lambda t: t.replace("[[rule]]\n", '[[rule]]\nsrc = "10.0.0.1/33"\n', 1), "src"),
]


@pytest.mark.parametrize("what,mutate,word", CPU_MISTAKES, ids=[m[0] for m in CPU_MISTAKES])
def test_cpu_scenario_mistakes_are_rejected(tmp_path: Path, what: str, mutate, word: str) -> None:
    """F21: the [cpu] table and the "users" pattern are read as strictly as the rest."""
    text = PAPER.read_text()
    broken = mutate(text)
    assert broken != text, f"{what}: the mutation changed nothing (paper.toml changed?)"
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    with pytest.raises(ScenarioError) as err:
        load(path)
    msg = str(err.value)
    assert str(path) in msg and word in msg, f"{what}: the error does not name the file and '{word}': {msg}"


@pytest.mark.parametrize("what,mutate,word", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_scenario_mistakes_are_rejected(tmp_path: Path, what: str, mutate, word: str) -> None:
    text = DEFAULT.read_text()
    broken = mutate(text)
    assert broken != text, f"{what}: the mutation changed nothing (default.toml changed?)"
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    with pytest.raises(ScenarioError) as err:
        load(path)
    msg = str(err.value)
    assert str(path) in msg and word in msg, f"{what}: the error does not name the file and '{word}': {msg}"


def test_every_scenario_file_loads() -> None:
    assert SCENARIOS, "no scenarios/*.toml"
    for path in SCENARIOS:
        sc = load(path)
        assert sc.flows and sc.duration_us > 0, path


def test_every_scenario_is_run() -> None:
    for name, test in RUN_ELSEWHERE.items():
        assert (ROOT / "scenarios" / name).exists(), f"scenarios/{name} is gone: update RUN_ELSEWHERE"
        assert name in (ROOT / test).read_text(), f"{test} no longer runs scenarios/{name}"
    assert {p.name for p in RUN_HERE} | set(RUN_ELSEWHERE) == {p.name for p in SCENARIOS}


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("path", RUN_HERE, ids=lambda p: p.stem)
def test_every_scenario_runs(sim: str, path: Path, tmp_path: Path) -> None:
    sc0 = load(path)
    short = min(sc0.duration_us, 100 if sim == "icarus" else 500)   # Icarus: the slower simulator
    text = re.sub(r"(?m)^duration_us\s*=.*$", f"duration_us = {short}", path.read_text(), count=1)
    text = re.sub(r"(?m)^simulator\s*=.*$", "", text, count=1)
    spath = tmp_path / path.name
    spath.write_text(text)
    sc = load(spath)
    out = tmp_path / "out"
    rep = run_scenario(sc, sim, out, path="fast", optimize=False)
    check_scenario_run(sc, rep, out)


def _without_flows(text: str) -> str:
    """A scenario's text with its [[flow]] tables removed (what follows them is kept)."""
    return re.sub(r"(?ms)^\[\[flow\]\]\n.*?(?=^\[(?!\[flow\]\])|\Z)", "", text)


@pytest.mark.parametrize("sim", SIMULATORS)
def test_pcap_out_and_back_in(sim: str, tmp_path: Path) -> None:
    """F21, F22: a run writes each queue's delivered frames as pcap, stamped with their
    completion; a scenario whose only flow replays that capture (pattern = "pcap") gets
    the same frames delivered to the same queue, byte for byte, checked against the model.
    300 us of scenarios/default.toml (three frames of the control loop), 150 on Icarus (two)."""
    from scapy.utils import rdpcap

    us = amount(300, sim, icarus=0.5)
    text = re.sub(r"(?m)^duration_us\s*=.*$", f"duration_us = {us}", DEFAULT.read_text(), count=1)
    first = tmp_path / "first.toml"
    first.write_text(text)
    rep1 = run_scenario(load(first), sim, tmp_path / "out1", path="fast", optimize=False)
    assert rep1["checked_against_model"]
    ctrl_q = max(q["queue"] for q in rep1["queues"] if q["frames"])
    pk1 = rdpcap(str(tmp_path / "out1" / f"delivered_q{ctrl_q}.pcap"))
    assert len(pk1) == rep1["queues"][ctrl_q]["frames"] > 0
    assert all(float(b.time) > float(a.time) for a, b in zip(pk1, pk1[1:], strict=False)), "completion stamps"

    replay = _without_flows(text) + (f'\n[[flow]]\nname = "replay"\npattern = "pcap"\n'
                                     f'file = "out1/delivered_q{ctrl_q}.pcap"\nstart_us = 10\n')
    second = tmp_path / "second.toml"
    second.write_text(replay)
    sc2 = load(second)
    assert [f.pattern for f in sc2.flows] == ["pcap"]
    rep2 = run_scenario(sc2, sim, tmp_path / "out2", path="fast", optimize=False)
    assert rep2["checked_against_model"]
    assert rep2["flows"]["replay"]["sent"] == len(pk1)
    pk2 = rdpcap(str(tmp_path / "out2" / f"delivered_q{ctrl_q}.pcap"))
    assert [bytes(p) for p in pk2] == [bytes(p) for p in pk1]
