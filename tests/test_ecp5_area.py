"""bench/ecp5_area.py's reading of yosys' hierarchical statistics (F25, F29): instances come from
the top's submodule counts, cells per instance include submodules, one row per module."""

from bench.ecp5_area import breakdown, plain


def cells(**kinds):
    return {k: {"count": str(v), "local_count": "0"} for k, v in kinds.items()}


def test_breakdown_counts_instances_and_merges_parameter_sets():
    stat = {"modules": {
        "\\top": {"num_cells_by_type": cells(LUT4=100, TRELLIS_FF=40),
                  "num_submodules_by_type": {"$paramod$aa\\sync": {"count": "2"}, "$paramod$bb\\sync": {"count": "1"},
                                             "\\fifo": {"count": "1"}}},
        "$paramod$aa\\sync": {"num_cells_by_type": cells(TRELLIS_FF=2)},
        "$paramod$bb\\sync": {"num_cells_by_type": cells(TRELLIS_FF=2)},
        "\\fifo": {"num_cells_by_type": cells(LUT4=60, TRELLIS_FF=30, DP16KD=2),
                   "num_submodules_by_type": {"$paramod\\cnt\\W=s32'1": {"count": "2"}}},
        "$paramod\\cnt\\W=s32'1": {"num_cells_by_type": cells(LUT4=5)},
    }}
    rows = breakdown(stat, "top")
    assert [r["module"] for r in rows] == ["top", "fifo", "cnt", "sync"]
    assert rows[0] == {"module": "top", "instances": 1, "LUT4": 100, "TRELLIS_FF": 40, "CCU2C": 0, "DP16KD": 0}
    assert rows[1]["DP16KD"] == 2 and rows[1]["instances"] == 1
    assert rows[2]["instances"] == 2 and rows[2]["LUT4"] == 5         # inside fifo, twice
    assert rows[3]["instances"] == 3 and rows[3]["TRELLIS_FF"] == 2   # two parameter sets, same cells
    assert plain("$paramod$0123\\prionic_fifo") == "prionic_fifo" and plain("\\prionic_rx") == "prionic_rx"
