"""Golden-model speed: how many frames and cycles per second the cycle-accurate model
(F17) evaluates on a synthetic trace of a control flow, bulk traffic and a flood.

    .venv/bin/python -m bench.bench_model [--frames N]

Prints one line per configuration; README.md quotes the figures.
"""

from __future__ import annotations

import argparse
import random
import time

from scapy.all import IP, UDP, Ether, Raw

from model import regmap
from model.config import ModelConfig
from model.nic import PrionicModel

F = regmap.FIELDS


def frame(dport: int, n: int) -> bytes:
    b = bytes(Ether() / IP(src="10.0.0.2", dst="10.0.0.1") / UDP(sport=4000, dport=dport) / Raw(bytes(n)))
    return b.ljust(60, b"\0")


def run(n_frames: int, itr: dict[str, int], skip: bool, seed: int = 1) -> tuple[float, int, int]:
    rng = random.Random(seed)
    cfg = ModelConfig(num_queues=2, num_rules=4)
    m = PrionicModel(cfg, skip=skip)
    w = 0
    writes = [("TICK_DIV", None, 125),
              ("RULE_DPORT", 0, 5000 | 5000 << 16), ("RULE_CTRL", 0, 0b1101 | 1 << 8 | 17 << 16),
              ("RULE_DPORT", 1, 8080 | 8080 << 16), ("RULE_CTRL", 1, 0b1101 | 0 << 8 | 17 << 16)]
    for q in range(2):
        writes += [("RING_SIZE", q, 0xFFFF), ("RING_TAIL", q, 0xFFFE)]
        writes += [(k, q, v) for k, v in itr.items()]
    for name, idx, val in writes:
        m.reg_write(w, regmap.addr(name, idx or 0), val)
        w += 1
    templates = {p: frame(p, 64) for p in (5000, 8080, 7000)}
    t = 100
    last_cpl = 0
    for _ in range(n_frames):
        port = rng.choices([5000, 8080, 7000], [1, 3, 6])[0]
        t += rng.randint(20, 60)
        m.frame(t, templates[port])
        if port != 7000:  # accepted: its write-back completes some cycles later, in order
            last_cpl = max(last_cpl + 1, t + rng.randint(20, 40))
            m.completion(last_cpl, 1 if port == 5000 else 0)
    end = max(t, last_cpl) + 100_000
    t0 = time.perf_counter()
    m.run(end)
    return time.perf_counter() - t0, end, len(m.irq_fires)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=100_000)
    args = ap.parse_args()
    configs = {
        "immediate": {},
        "moderated (frames 8, abs 50, gap 20)": {"ITR_FRAMES": 8, "ITR_ABS": 50, "ITR_GAP": 20},
    }
    print(f"model speed, {args.frames} frames (60% unregistered flood), 2 queues, TICK_DIV 125")
    for name, itr in configs.items():
        for skip in (True, False):
            dt, cycles, irqs = run(args.frames, itr, skip)
            print(f"  {name:<40} skip={'on ' if skip else 'off'}  {dt:6.2f} s  "
                  f"{args.frames / dt / 1e3:7.1f} kframes/s  {cycles / dt / 1e6:6.2f} Mcycles/s  ({irqs} irqs)")


if __name__ == "__main__":
    main()
