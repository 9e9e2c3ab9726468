"""The host's side of the flow table (F31, docs/flowtable.md s3) in the top-level tests: a
command written through the register port as a driver does it (prionic_flow_add / _del in
sw/driver): wait while FLOW_STATUS.BUSY, write the key words and the value that differ from
the last ones written, write FLOW_CMD, wait while BUSY, return FLOW_STATUS.RESULT."""

from __future__ import annotations

import ipaddress

from model import regmap
from model.flowtable import udp_key

F = regmap.FIELDS
POLLS = 4000  # FLOW_STATUS reads before the table is declared stuck (a clear takes FLOW_TABLE_SETS cycles)


async def _idle(port) -> int:
    for _ in range(POLLS):
        status = await port.read(regmap.addr("FLOW_STATUS"))
        if not status >> F["FLOW_STATUS_BUSY"] & 1:
            return status
    raise AssertionError(f"FLOW_STATUS.BUSY still set after {POLLS} reads")


async def flow_command(port, code: int, key: int, val: int, written: dict[str, int]) -> int:
    """Run one command (FLOW_CMD ``code``) on ``key`` and ``val``; ``written`` keeps the
    registers' last values between calls, and that the table was idle after the last command
    (the caller being its only user, the first wait is then skipped). Returns FLOW_STATUS.RESULT."""
    if not written.pop("idle", 0):
        await _idle(port)
    regs = {f"FLOW_KEY{j}": key >> (32 * j) & 0xFFFF_FFFF for j in range(5)} | {"FLOW_VAL": val}
    for name, value in regs.items():
        if written.get(name) != value:
            await port.write(regmap.addr(name), value)
            written[name] = value
    await port.write(regmap.addr("FLOW_CMD"), code)
    status = await _idle(port)
    written["idle"] = 1
    return status >> F["FLOW_STATUS_RESULT_LSB"] & 0xF


def flow_key(f) -> int:
    """The flow key of the frames of ``f`` (tb/top/frames.py ``Flow``: untagged IPv4 UDP or TCP)."""
    return udp_key(int(ipaddress.IPv4Address(f.src)), int(ipaddress.IPv4Address(f.dst)), f.sport, f.dport,
                   17 if f.proto == "udp" else 6)
