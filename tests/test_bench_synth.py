"""bench/bench_synth.py's reading of yosys' ``stat`` text (F25): a flat design has one
section; a design with a module kept as its own hierarchy has a section per module and the
totals in "design hierarchy", which alone must be read (the sum of every section counts the
kept module twice)."""

from bench.bench_synth import stat_cells

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
