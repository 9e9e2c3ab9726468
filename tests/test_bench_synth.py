"""bench/bench_synth.py's reading of yosys' ``stat`` text (F25): a flat design has one
section; a design with a module kept as its own hierarchy has a section per module and the
totals in "design hierarchy", which alone must be read (the sum of every section counts the
kept module twice)."""

from bench.bench_synth import slow_endpoints, stat_cells

FLAT = """
=== prionic_rx ===

       12 wires
     4150   CCU2C
        6   DP16KD
    19271   LUT4
"""

KEPT = """
=== top ===

        +----------Local Count, excluding submodules.
       16 cells
        8   LUT4
        8   TRELLIS_FF
        1 submodules
        1   sub

=== sub ===

        +----------Local Count, excluding submodules.
       13 cells
        4   CCU2C
        1   LUT4
        2   DP16KD

=== design hierarchy ===

        +----------Count including submodules.
       29 top
       13 sub

        +----------Count including submodules.
       29 cells
        4   CCU2C
        9   LUT4
        2   DP16KD
       16   TRELLIS_FF
"""


def test_flat_design_counts_its_one_section():
    assert stat_cells(FLAT, "LUT4") == 19271 and stat_cells(FLAT, "DP16KD") == 6


def test_kept_module_is_counted_once():
    assert stat_cells(KEPT, "LUT4") == 9
    assert stat_cells(KEPT, "DP16KD") == 2
    assert stat_cells(KEPT, "CCU2C") == 4


# nextpnr's --detailed-timing-report: every net's worst arrival ([min, max] ns) at each sink
REPORT = {"detailed_net_timings": [
    {"net": "a", "driver": "x", "port": "F", "endpoints": [
        {"cell": "cnt_reg_TRELLIS_FF_Q_1", "port": "CE", "event": "posedge clk", "delay": [2.0, 8.4]},
        {"cell": "cnt_reg_TRELLIS_FF_Q_2", "port": "CE", "event": "posedge clk", "delay": [2.0, 8.1]},
        {"cell": "flag_reg_TRELLIS_FF_Q", "port": "DI", "event": "posedge clk", "delay": [1.0, 7.0]}]},
    {"net": "b", "driver": "y", "port": "F", "endpoints": [
        {"cell": "sync_reg_TRELLIS_FF_Q", "port": "DI", "event": "posedge rx_clk", "delay": [0.5, 7.5]},
        {"cell": "other_reg$x", "port": "LSR", "event": "posedge clk", "delay": [0.5, 7.9]}]},
]}


def test_endpoints_one_row_per_register_pin_worst_slack_first():
    """F25: every register input close to its clock's period, not only nextpnr's one path;
    a register's bits share a row (its worst arrival), each clock against its own target."""
    rows = slow_endpoints(REPORT, {"clk": 125.0, "rx_clk": 250.0})
    assert [(r["register"], r["pin"], r["bits"]) for r in rows] == [
        ("sync_reg", "DI", 1), ("cnt_reg", "CE", 2), ("other_reg", "LSR", 1), ("flag_reg", "DI", 1)]
    assert rows[0]["slack_ns"] == -3.5 and rows[1]["slack_ns"] == -0.4 and rows[1]["arrival_ns"] == 8.4
    # one target for a one-clock design; the count keeps the worst
    assert [r["register"] for r in slow_endpoints(REPORT, 125.0, count=2)] == ["cnt_reg", "other_reg"]


def _cell(kind: str, conns: dict[str, int], outputs: tuple[str, ...]) -> dict:
    return {"type": kind, "connections": {p: [b] for p, b in conns.items()},
            "port_directions": {p: "output" if p in outputs else "input" for p in conns}}


def test_depth_follows_a_carry_chain_between_flip_flops():
    """F25: bench/depth.py (``bench_synth --depth``) walks a path register -> LUT -> two carry
    cells chained through CIN -> register, and estimates it from its cells: the LUT level, both
    carries and the flat delays of its nets, with the start register named."""
    from bench import depth

    cells = {
        "a_reg_TRELLIS_FF_Q": _cell("TRELLIS_FF", {"CLK": 1, "DI": 2, "Q": 10}, ("Q",)),
        "lut": _cell("LUT4", {"A": 10, "Z": 11}, ("Z",)),
        "cc0": _cell("CCU2C", {"A0": 11, "COUT": 12, "S0": 13}, ("COUT", "S0")),
        "cc1": _cell("CCU2C", {"CIN": 12, "S0": 14, "COUT": 15}, ("S0", "COUT")),
        "b_reg_TRELLIS_FF_Q": _cell("TRELLIS_FF", {"CLK": 1, "DI": 14, "Q": 16}, ("Q",)),
    }
    netlist = {"modules": {"top": {"cells": cells, "netnames": {}}}}
    ends = {e[4]: e for e in depth.analyse(netlist, "top")[0]}
    est, luts, carries, start = ends["b_reg"][:4]
    assert start == "a_reg" and luts == 2 and carries == 2, ends["b_reg"]
    want = (depth.CLK_Q + depth.ROUTE + depth.LUT + depth.ROUTE + depth.CARRY_IN + depth.CARRY_OUT
            + depth.ROUTE + depth.SETUP)
    assert abs(est - want) < 1e-9, (est, want)
