"""F27: the C register header and the C driver example, without a simulator.

* rtl/prionic_regs.h is generated from docs/regmap.toml with the other generated files
  (``python -m gen.regmap``) and ``--check`` fails when it is stale;
* sw/driver/prionic_drv.c (the host side of one NIC: F12 rings, docs/frame-path.md
  section 4) compiles as strict C99 with its self-test sw/driver/selftest.c, which runs
  it against an in-memory fake NIC and checks init, post and reap;
* the register writes and descriptor writes of the driver's init are exactly those of
  tb/top/host.py's ``HostDriver.configure`` for the same setup (the sequence the cocotb tests
  run against the RTL).

Everything is built in pytest's tmp_path, never in the repository.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from gen import c_header
from gen import regmap as generated
from model import regmap

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "sw" / "driver"
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def _cc() -> str:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:  # Verilator needs one too: a missing compiler is a broken setup, not a skip
        pytest.fail("no C compiler (cc, gcc or clang) on PATH: apt-get install gcc")
    return cc


# ----------------------------------------------------------------------------- header

def test_generated_header_is_current():
    assert generated.main(["--check"]) == 0, "run `python -m gen.regmap` and commit the result"
    head = generated.H_PATH.read_text().splitlines()[:3]
    assert any("GENERATED from docs/regmap.toml by `python -m gen.regmap` -- do not edit" in line
               for line in head), head


def test_check_fails_on_a_stale_header(monkeypatch, capsys):
    """--check compares the C header too: a generator that would write something else
    makes it exit 1 and name the file (nothing is written in check mode)."""
    real = c_header.gen_c_header
    monkeypatch.setattr(c_header, "gen_c_header", lambda: real() + "/* changed */\n")
    assert generated.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "stale: rtl/prionic_regs.h" in err and "python -m gen.regmap" in err


def test_header_covers_the_regmap():
    """Every register, field, verdict and descriptor entry of the toml has its macro."""
    text = generated.H_PATH.read_text()
    for name, reg in regmap.REGS.items():
        want = f"#define PRIONIC_{name}(i) " if reg.stride else f"#define PRIONIC_{name} 0x{reg.addr():04X}u"
        assert want in text, f"{name}: no `{want}` in rtl/prionic_regs.h"
    for k, v in regmap.FIELDS.items():
        base = k.removesuffix("_LSB")
        assert f"#define PRIONIC_{base}_SHIFT {v}u" in text, k
    for k, v in regmap.VERDICTS.items():
        assert f"#define PRIONIC_VERDICT_{k} {v}u" in text, k
    for k, v in regmap.DESC.items():
        assert f"#define PRIONIC_DESC_{k.upper()} {v}u" in text, k


def test_header_compiles_as_c99_and_cxx(tmp_path):
    """The header alone, in a C99 program that checks a few values at run time, and as
    C++ (bench/bare/harness.cpp includes it)."""
    src = tmp_path / "hdr.c"
    src.write_text(
        '#include "prionic_regs.h"\n'
        "int main(void) {\n"
        f"    return !(PRIONIC_RING_TAIL(3) == 0x{regmap.addr('RING_TAIL', 3):X}u\n"
        f"             && PRIONIC_RULE_CTRL(5) == 0x{regmap.addr('RULE_CTRL', 5):X}u\n"
        f"             && PRIONIC_IRQ_CAUSE == 0x{regmap.addr('IRQ_CAUSE'):X}u\n"
        f"             && PRIONIC_QUEUE_PRIO_RESET(2) == 3u\n"
        f"             && PRIONIC_RULE_CTRL_QUEUE_MASK == 0xFF00u\n"
        f"             && PRIONIC_DESC_STATUS_DD_MASK == 1u << {regmap.DESC['status_dd']}\n"
        "             && sizeof(struct prionic_desc) == PRIONIC_DESC_SIZE);\n"
        "}\n")
    exe = tmp_path / "hdr"
    cc = _cc()
    subprocess.run([cc, *CFLAGS, f"-I{ROOT / 'rtl'}", str(src), "-o", str(exe)], check=True)
    assert subprocess.run([str(exe)]).returncode == 0
    cxx = shutil.which("c++") or shutil.which("g++")
    assert cxx, "no C++ compiler (c++ or g++) on PATH: apt-get install g++ (Verilator needs it too)"
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c++",
                    f"-I{ROOT / 'rtl'}", str(src)], check=True)


# ----------------------------------------------------------------------------- driver

@pytest.fixture(scope="module", params=["native", "bytewise"])
def selftest_run(request, tmp_path_factory) -> subprocess.CompletedProcess:
    """The selftest built as is (descriptor words as plain loads and stores on a
    little-endian host) and with PRIONIC_DRV_BYTEWISE (byte by byte, as on any other host)."""
    out = tmp_path_factory.mktemp("c_driver")
    exe = out / "selftest"
    defs = ["-DPRIONIC_DRV_BYTEWISE"] if request.param == "bytewise" else []
    build = subprocess.run([_cc(), *CFLAGS, *defs, f"-I{ROOT / 'rtl'}", f"-I{DRIVER}", str(DRIVER / "prionic_drv.c"),
                            str(DRIVER / "selftest.c"), "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, f"the C driver does not build:\n{build.stderr}"
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


def test_selftest_passes(selftest_run):
    out = selftest_run.stdout
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert selftest_run.returncode == 0 and not fails, "\n".join(fails) + selftest_run.stderr
    assert "selftest: ok, " in out
    checks = int(out.split("selftest: ok, ")[1].split()[0])
    assert checks > 100, f"only {checks} checks ran"


class _RecordingPort:
    """A host port for HostDriver.configure that records what it writes, in the
    selftest's format."""

    def __init__(self) -> None:
        self.log: list[str] = []

    async def write(self, addr: int, data: int) -> None:
        self.log.append(f"W 0x{addr:04x} 0x{data:08x}")

    def mem_write(self, addr: int, data: bytes) -> None:
        self.log.append(f"M 0x{addr:08x} {data.hex()}")


def _python_host_init_log() -> list[str]:
    """tb/top/host.py's configure for the selftest's setup (sw/driver/selftest.c setup())."""
    from tb.top.env import port_range, rule_ctrl
    from tb.top.host import HostDriver
    from tb.top.hostmem import QueueSetup

    setups = [QueueSetup(ring_size=8, buf_size=2048, itr_frames=4, itr_pkt=10, itr_abs=20, itr_gap=5),
              QueueSetup(ring_size=8, buf_size=2048, immediate=True)]
    rules = [(rule_ctrl(1, 17, dport=True), port_range(5000)), (rule_ctrl(0, 6, dport=True), port_range(8000, 8100))]
    port = _RecordingPort()
    drv = HostDriver(None, port, setups, random.Random(0), clocked=None, irq=0)
    asyncio.run(drv.configure(tick_div=125, default_action=0, rules=rules))
    return port.log


def test_init_writes_what_the_python_host_writes(selftest_run):
    lines = selftest_run.stdout.splitlines()
    assert "init-log-begin" in lines and "init-log-end" in lines, selftest_run.stdout[:2000]
    c_log = lines[lines.index("init-log-begin") + 1: lines.index("init-log-end")]
    py_log = _python_host_init_log()
    assert sum(e.startswith("W ") for e in py_log) == 2 + 2 * 2 + 2 * 10   # globals, rules, queues
    if c_log != py_log:
        for i, (c, p) in enumerate(zip(c_log, py_log, strict=False)):
            assert c == p, f"write {i}: C driver `{c}`, tb/top/host.py `{p}`"
        assert len(c_log) == len(py_log), f"C driver {len(c_log)} writes, tb/top/host.py {len(py_log)}"


def test_flow_key_is_the_models(selftest_run):
    """F31: the C driver's FLOW_KEY0..4 words of a UDP flow (sw/driver/selftest.c prints them)
    are the model's flow key of that flow (model/flowtable.py, the flow_key record)."""
    from model.flowtable import udp_key

    line = next(x for x in selftest_run.stdout.splitlines() if x.startswith("flow-key "))
    words = [int(w, 16) for w in line.split()[1:]]
    key = udp_key(0x0A000002, 0xC0A80101, 40000, 5000)
    assert words == [key >> (32 * j) & 0xFFFF_FFFF for j in range(5)], (line, hex(key))
