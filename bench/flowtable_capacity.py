"""Capacity of the flow table (F31, docs/flowtable.md section 4): how many of n flows of
several shapes get a FULL answer, over seeds, on the model's hash and fill (no timing).

    .venv/bin/python -m bench.flowtable_capacity                 # 1,024 flows in 512 sets (2,048 entries)
    .venv/bin/python -m bench.flowtable_capacity --sets 256 --flows 900
"""

from __future__ import annotations

import argparse
import random

from model.flowtable import fill, udp_key


def main(argv: list[str] | None = None) -> None:
    """Capacity of the table: FULL answers for n flows of several shapes, over seeds."""
    ap = argparse.ArgumentParser(prog="python -m bench.flowtable_capacity", description=main.__doc__)
    ap.add_argument("--sets", type=int, default=512)
    ap.add_argument("--flows", type=int, default=1024)
    ap.add_argument("--seeds", type=int, default=5)
    a = ap.parse_args(argv)
    n = a.flows
    shapes = {
        "random 5-tuples": lambda r: [udp_key(r.getrandbits(32), r.getrandbits(32), r.getrandbits(16),
                                              r.getrandbits(16)) for _ in range(n)],
        "one source port each": lambda r: [udp_key(0x0A000002, 0x0A000001, 1024 + i, 5000) for i in range(n)],
        "one destination port each": lambda r: [udp_key(0x0A000002, 0x0A000001, 4000, 1 + i) for i in range(n)],
        "one source address each": lambda r: [udp_key(0x0A000000 + i, 0x0A000001, 4000, 5000) for i in range(n)],
    }
    print(f"flow table: {a.sets} sets x 2 banks x 2 ways = {4 * a.sets} entries, {n} flows inserted")
    for name, gen in shapes.items():
        lost = [int(fill(gen(random.Random(seed)), a.sets).sum()) for seed in range(1, a.seeds + 1)]
        print(f"  {name:28s} FULL answers over seeds 1-{a.seeds}: {lost}")


if __name__ == "__main__":
    main()
