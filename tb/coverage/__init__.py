"""Functional coverage (``funccov``) and the coverage report (``covreport``);
``coverage.vlt`` holds Verilator's coverage waivers."""
