"""Benchmarks and experiments, run as modules from the repository root (the Makefile's
``make bench``, ``make paper``, ``make sweep``, ``make synth``)::

    python -m bench.bench_sim     # simulation speed of every path
    python -m bench.paper         # prionic against eight baseline NICs and hosts (docs/paper.md)
    python -m bench.sweep         # the fast model over moderation x load (docs/sweep.md)
    python -m bench.bench_synth   # Fmax and size on an ECP5-85
"""
