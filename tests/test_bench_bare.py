"""The bare C++ harness of bench/bare/ (the speed reference of `make bench`, F26, F27) delivers
what it plays: a quick build (its C++ at -O0) plays 2,000 frames of its three flows and every frame of a
flow with a rule is reaped through the C driver with its bytes, every admitted frame is
delivered, and the harness drained. A harness whose memory model broke the DMA (for example
B responses without the burst's AXI ID) stalls after a few frames; it would idle fast and
make every speed ratio against it meaningless, so this is checked here, not only by the
benchmark."""

from __future__ import annotations

from bench.bare.bench_bare import run_bare


def test_bare_harness_delivers_every_frame() -> None:
    res = run_bare(frames=2000, quick=True)
    assert res["check"] == "ok", res["check"]
    assert res["frames_delivered"] == res["frames_expected"] == res["dut_admitted"] > 1000, res
    assert res["data_errors"] == res["desc_errors"] == res["mem_errors"] == 0, res
