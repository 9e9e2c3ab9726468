"""Helpers shared by the golden model's unit tests (tests/test_model_*.py): register
addresses, rule-control bits, frames built with scapy, and a NIC model with a ring set up."""

from __future__ import annotations

from scapy.all import IP, UDP, Ether, Raw  # type: ignore[attr-defined]

from model import regmap
from model.config import ModelConfig
from model.nic import PrionicModel
from model.parser import Parser, ParseResult

A = regmap.addr
V = regmap.VERDICTS

# RULE_CTRL bits (regmap.toml [fields]): [0] ENABLE, [1] DROP, [2] MATCH_PROTO, [3] MATCH_DPORT,
# [15:8] QUEUE, [23:16] PROTO
EN, DROP, MPROTO, MDPORT = 0x1, 0x2, 0x4, 0x8


def qsel(q: int) -> int:
    return q << 8


def psel(proto: int) -> int:
    return proto << 16


def dport_range(lo: int, hi: int) -> int:
    return lo | hi << 16


def pad(b: bytes, n: int = 60) -> bytes:
    return b + bytes(n - len(b)) if len(b) < n else b


def udp(dport: int = 5000, payload: int = 18, **ip: object) -> bytes:
    """Ether(14) + IP(20) + UDP(8) + payload; the default is 14+20+8+18 = 60 bytes."""
    return bytes(Ether() / IP(**ip) / UDP(sport=1234, dport=dport) / Raw(bytes(payload)))


UDP60 = udp()  # 60 bytes, dport 5000


def parse(b: bytes, tkeep_ok: bool = True) -> ParseResult:
    return Parser().parse(b, tkeep_ok)



def nic(nq: int = 2, *, strict_order: bool = False) -> PrionicModel:
    return PrionicModel(ModelConfig(num_queues=nq), strict_order=strict_order)


def ring(m: PrionicModel, q: int, size: int, tail: int, w: int) -> int:
    """RING_SIZE at w, RING_TAIL at w+1; returns the next free write cycle."""
    m.reg_write(w, A("RING_SIZE", q), size)
    m.reg_write(w + 1, A("RING_TAIL", q), tail)
    return w + 2


def accept_default(m: PrionicModel, q: int, w: int) -> int:
    m.reg_write(w, A("DEFAULT_ACTION"), 1 | q << 8)
    return w + 1


def verdicts(m: PrionicModel) -> list[int]:
    return [o.verdict for o in m.outcomes]
