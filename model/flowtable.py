"""Flow table (F31) of the prionic golden model: ``rtl/prionic_flowtable.v``.

Normative source: ``docs/flowtable.md`` (layout, H3 hash, lookup edges, host commands and
their edges, greedy two-choice placement, clear). :class:`FlowTable` is stepped edge by
edge (:meth:`FlowTable.step`, the block test), or driven by its user's events, which step
only the edges where it has work (:meth:`FlowTable.take`, :meth:`FlowTable.command`,
:meth:`FlowTable.result`, :meth:`FlowTable.advance`: the NIC model). :func:`fill` places keys
without timing (capacity studies: ``python -m bench.flowtable_capacity``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model import regmap

KEY_BITS = regmap.record_width("flow_key")  # docs/regmap.toml [records.flow_key]
INSERT, DELETE, FIND, CLEAR = 1, 2, 3, 4
NONE, INSERTED, UPDATED, DELETED, FOUND, NOT_FOUND, FULL, CLEARED, BAD_CMD = range(9)
RESULT_NAMES = ("NONE", "INSERTED", "UPDATED", "DELETED", "FOUND", "NOT_FOUND", "FULL", "CLEARED", "BAD_CMD")
WAIT = 4  # the finishing edge is at least r + WAIT (flowtable.md s3)
STATUS_REGS = ("FLOW_STATUS", "FLOW_RVAL", "FLOW_USED")  # the registers that read Status (regmap.toml)
_F = regmap.FIELDS


def lowbias32(x: int) -> int:
    """The 32-bit integer hash of flowtable.md s1."""
    x &= 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    return x ^ (x >> 16)


def check_sets(sets: int) -> None:
    """Raise ValueError unless ``sets`` is a legal SETS (flowtable.md s1)."""
    if sets < 2 or sets > 1024 or sets & (sets - 1):
        raise ValueError(f"flow table sets={sets}: must be a power of two in 2..1024")


class Hash:
    """h_0 and h_1 of flowtable.md s1 for ``sets`` sets and ``key_bits``-bit keys."""

    def __init__(self, sets: int, key_bits: int = KEY_BITS) -> None:
        check_sets(sets)
        iw = sets.bit_length() - 1
        self.rows = [[lowbias32(b * 256 + i + 1) >> (32 - iw) for i in range(key_bits)] for b in (0, 1)]

    def set_of(self, key: int, bank: int) -> int:
        rows, h, i = self.rows[bank], 0, 0
        while key:
            if key & 1:
                h ^= rows[i]
            key >>= 1
            i += 1
        return h

    def sets_of(self, key: int) -> tuple[int, int]:
        return self.set_of(key, 0), self.set_of(key, 1)


@dataclass
class Status:
    """What the status outputs show after an edge (flowtable.md s3)."""

    busy: bool = True        # the reset's clear runs
    result: int = NONE
    bank: int = 0
    way: int = 0
    set: int = 0
    rval: int = 0
    used: int = 0
    overrun: bool = False

    def read(self, name: str) -> int:
        """What register ``name`` of :data:`STATUS_REGS` reads (docs/regmap.toml)."""
        if name == "FLOW_RVAL":
            return self.rval
        if name == "FLOW_USED":
            return self.used
        assert name == "FLOW_STATUS", name
        return (int(self.busy) << _F["FLOW_STATUS_BUSY"] | int(self.overrun) << _F["FLOW_STATUS_OVERRUN"]
                | self.result << _F["FLOW_STATUS_RESULT_LSB"] | self.way << _F["FLOW_STATUS_WAY"]
                | self.bank << _F["FLOW_STATUS_BANK"] | self.set << _F["FLOW_STATUS_SET_LSB"])


def regs_command(val: dict[str, list[int]]) -> tuple[int, int, int]:
    """The command a FLOW_CMD write starts: (FLOW_CMD, the key in FLOW_KEY0..4, FLOW_VAL)."""
    key = sum(val[f"FLOW_KEY{j}"][0] << (32 * j) for j in range(5))
    return val["FLOW_CMD"][0], key, val["FLOW_VAL"][0]


@dataclass
class _Cmd:
    code: int
    key: int
    val: int
    sets: tuple[int, int]
    read: int | None = None                       # its read edge r
    seen: list = field(default_factory=list)     # the four entries at r: (valid, key, val), g = 2*bank + way


class FlowTable:
    """Edge-stepped flow table. Call :meth:`step` for every edge, in order, from edge 0 (the
    first with reset low; reset is taken at edge -1 by the constructor)."""

    def __init__(self, sets: int = 512, key_bits: int = KEY_BITS) -> None:
        self.sets = sets
        self.hash = Hash(sets, key_bits)
        # mem[g][set] = (valid, key, val), g = 2 * bank + way
        self.mem = [[(False, 0, 0)] * sets for _ in range(4)]
        self.status = Status()
        self._cmd: _Cmd | None = None
        self._clear: int | None = 0           # next set the clear writes; None: no clear
        self._clear_cmd = False               # the clear is a CLEAR command's
        self._lookups: dict[int, tuple[bool, int]] = {}   # result edge s+3 -> (hit, val)
        self.k = 0                                         # the next edge advance() steps
        self._in: dict[int, list] = {}                     # edge -> [take key, command] not stepped yet

    # -------------------------------------------------------------- queries
    @property
    def busy(self) -> bool:
        return self._cmd is not None or self._clear is not None

    def find(self, key: int) -> tuple[int, int, int] | None:
        """(bank, way, value) of the entry holding ``key`` now, or None."""
        s = self.hash.sets_of(key)
        for g in range(4):
            valid, k, v = self.mem[g][s[g // 2]]
            if valid and k == key:
                return g // 2, g % 2, v
        return None

    def lookup_result(self, edge: int) -> tuple[bool, int] | None:
        """(l_hit, l_val) registered at ``edge`` (a lookup's s+3), or None."""
        return self._lookups.pop(edge, None)

    # -------------------------------------------------------------- driven by events
    def advance(self, m: int) -> None:
        """Step every edge before ``m`` not stepped yet, with the inputs given for it; an edge
        with no input while the table is idle changes nothing and is skipped."""
        while self.k < m:
            if not self.busy:
                nxt = min((e for e in self._in if e >= self.k), default=m)
                if nxt >= m:
                    self.k = m
                    return
                self.k = nxt
            take, cmd = self._in.pop(self.k, (None, None))
            self.step(self.k, take, cmd)
            self.k += 1

    def _input(self, m: int, slot: int, value) -> None:
        if m < self.k:
            raise ValueError(f"flow table input at edge {m}: edges up to {self.k - 1} are already stepped")
        self.advance(m)
        self._in.setdefault(m, [None, None])[slot] = value

    def take(self, s: int, key: int) -> None:
        """A lookup of ``key`` taken at edge ``s`` (its answer: :meth:`result`)."""
        self._input(s, 0, key)

    def command(self, c: int, cmd: tuple[int, int, int]) -> None:
        """A command ``(code, key, value)`` seen at edge ``c``."""
        self._input(c, 1, cmd)

    def result(self, s: int) -> tuple[bool, int]:
        """(hit, value) of the lookup taken at ``s``, registered at s+3."""
        self.advance(s + 4)
        res = self.lookup_result(s + 3)
        assert res is not None, f"no lookup taken at edge {s}"
        return res

    def status_after(self, m: int) -> Status:
        """The status outputs after edge ``m``."""
        self.advance(m + 1)
        return self.status

    # -------------------------------------------------------------- one edge
    def step(self, m: int, take_key: int | None = None, cmd: tuple[int, int, int] | None = None) -> None:
        """Edge ``m``: a lookup taken with ``take_key`` (None: no take), a command
        ``(code, key, val)`` seen (None: none). Decisions use the state before the edge."""
        take = take_key is not None
        clearing, busy, st = self._clear is not None, self.busy, self.status
        if take_key is not None:
            hit = None if clearing else self.find(take_key)
            self._lookups[m + 3] = (hit is not None, hit[2] if hit else 0)
        c = self._cmd
        if c is not None and c.read is None and not take:
            c.read = m
            c.seen = [self.mem[g][c.sets[g // 2]] for g in range(4)]
        elif c is not None and c.read is not None and m >= c.read + WAIT and not take:
            self._finish(c)
            self._cmd = None
        if self._clear is not None:
            i = self._clear
            for g in range(4):
                self.mem[g][i] = (False, 0, 0)
            self._clear = None if i == self.sets - 1 else i + 1
            if self._clear is None and self._clear_cmd:
                st.result, st.used = CLEARED, 0
        if cmd is not None:
            st.overrun = busy
            if not busy:
                code, key, val = cmd
                if code in (INSERT, DELETE, FIND):
                    self._cmd = _Cmd(code, key, val, self.hash.sets_of(key))
                elif code == CLEAR:
                    self._clear, self._clear_cmd = 0, True
                else:
                    st.result = BAD_CMD
        st.busy = self.busy

    def _finish(self, c: _Cmd) -> None:
        st = self.status
        match = [g for g in range(4) if c.seen[g][0] and c.seen[g][1] == c.key]
        assert len(match) <= 1, "a key in two entries"
        st.bank = st.way = st.set = st.rval = 0
        g = match[0] if match else None
        if g is not None:
            st.rval = c.seen[g][2]
        elif c.code == INSERT:
            free = [sum(not c.seen[2 * b + w][0] for w in (0, 1)) for b in (0, 1)]
            if free == [0, 0]:
                st.result = FULL
                return
            bank = 0 if free[0] >= free[1] else 1
            g = 2 * bank + (0 if not c.seen[2 * bank][0] else 1)
            st.used += 1
        if g is None:
            st.result = NOT_FOUND
            return
        st.bank, st.way, st.set = g // 2, g % 2, c.sets[g // 2]
        if c.code == INSERT:
            st.result = UPDATED if match else INSERTED
            self.mem[g][c.sets[g // 2]] = (True, c.key, c.val)
        elif c.code == DELETE:
            st.result = DELETED
            st.used -= 1
            self.mem[g][c.sets[g // 2]] = (False, 0, 0)
        else:
            st.result = FOUND


def fill(keys, sets: int, key_bits: int = KEY_BITS) -> np.ndarray:
    """Insert ``keys`` in order into an empty table (no timing): a boolean array, True where
    the insert was FULL (flowtable.md s3 placement)."""
    h = Hash(sets, key_bits)
    occ = np.zeros((2, sets), dtype=np.int8)
    full = np.zeros(len(keys), dtype=bool)
    for n, key in enumerate(keys):
        s = h.sets_of(key)
        free = (2 - occ[0, s[0]], 2 - occ[1, s[1]])
        if free == (0, 0):
            full[n] = True
            continue
        b = 0 if free[0] >= free[1] else 1
        occ[b, s[b]] += 1
    return full


def udp_key(src: int, dst: int, sport: int, dport: int, proto: int = 17) -> int:
    """The flow key of an untagged IPv4 UDP (or ``proto``: TCP 6) frame (the ``flow_key`` record)."""
    return regmap.pack("flow_key", is_ipv4=1, ports_valid=1, proto=proto, ethertype=0x0800,
                       dport=dport, sport=sport, dst_ip=dst, src_ip=src)
