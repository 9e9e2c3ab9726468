"""Scenarios (F21, F22): a TOML file of traffic sources and NIC/host settings, run on the RTL
with the full testbench (so every run is also checked against the model), and turned into
a text and JSON report, an FST waveform and a GTKWave save file. ``python -m tb.scenario``
runs one (``make sim``); the file format is documented in scenarios/README.md.

* :mod:`tb.scenario.spec`: the data types and :func:`load` (reading and validating a file);
* :mod:`tb.scenario.traffic`: the frames of each flow and the merged arrival schedule;
* :mod:`tb.scenario.run`: :func:`run_scenario` on a simulator (fast path or bus path);
* :mod:`tb.scenario.report`: reports, trace and plots;
* :mod:`tb.scenario.gtkwave`: the GTKWave save file;
* :mod:`tb.scenario.cli`: the command line.

Loading and validating a scenario, its traffic and its report import no cocotb (the
runner, which does, is imported when a run starts), so the fast model's tools
(bench/sweep.py) use them without a simulator.
"""

from tb.scenario.report import build_report, cpu_report, report_text, write_trace
from tb.scenario.run import build_params, run_scenario
from tb.scenario.spec import FlowSpec, Scenario, ScenarioError, load
from tb.scenario.traffic import host_rng, pcap_time_base, schedule, write_pcaps

__all__ = ["FlowSpec", "Scenario", "ScenarioError", "build_params", "build_report", "cpu_report", "host_rng", "load",
           "pcap_time_base", "report_text", "run_scenario", "schedule", "write_pcaps", "write_trace"]
