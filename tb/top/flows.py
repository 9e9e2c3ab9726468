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


class FlowHost:
    """One user of the table's registers (the only one: a command it ran left the table idle,
    so its next command does not wait first). Keeps the key and value words last written, and
    writes only those that differ."""

    def __init__(self, port) -> None:
        self.port = port
        self.written: dict[str, int] = {}
        self.idle = False   # FLOW_STATUS read idle after this host's last command

    async def command(self, code: int, key: int, val: int) -> int:
        """Run one command (FLOW_CMD ``code``) on ``key`` and ``val``; returns FLOW_STATUS.RESULT."""
        if not self.idle:
            await _idle(self.port)
        regs = {f"FLOW_KEY{j}": key >> (32 * j) & 0xFFFF_FFFF for j in range(5)} | {"FLOW_VAL": val}
        for name, value in regs.items():
            if self.written.get(name) != value:
                await self.port.write(regmap.addr(name), value)
                self.written[name] = value
        self.idle = False
        await self.port.write(regmap.addr("FLOW_CMD"), code)
        status = await _idle(self.port)
        self.idle = True
        return status >> F["FLOW_STATUS_RESULT_LSB"] & 0xF


def flow_key(f) -> int:
    """The flow key of the frames of ``f`` (tb/top/frames.py ``Flow``: untagged IPv4 UDP or TCP)."""
    return udp_key(int(ipaddress.IPv4Address(f.src)), int(ipaddress.IPv4Address(f.dst)), f.sport, f.dport,
                   17 if f.proto == "udp" else 6)
