"""The reference and the harness of prionic_regs' block tests (tb/blocks/regs/cocotb_regs.py): ``RegModel``, a
Python register file built from the regmap; ``WriteMonitor``, which applies each AXI4-Lite
write to it at its handshake cycle and checks the ``cfg_*`` outputs every cycle; and
``RegsBench``, which holds the DUT, the master and both.
"""

from __future__ import annotations

import logging

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from model import regmap
from tb.common import Clocked, make_rng, param

OP_TIMEOUT_NS = 2000  # one AXI4-Lite access takes a handful of cycles
M32 = 0xFFFFFFFF

RW_REGS = [n for n, r in regmap.REGS.items() if r.access == "RW"]
# F8: writes that clear the flow cache (docs/frame-path.md s3.1)
TABLE_REGS = frozenset({"RULE_CTRL", "RULE_DPORT", "RULE_SPORT", "RULE_ETHERTYPE", "RULE_VLAN", "RULE_SRC_IP",
                        "RULE_SRC_MASK", "RULE_DST_IP", "RULE_DST_MASK", "FLOW_CTRL", "FLOW_IDLE"})
V = regmap.VERDICTS
# 16-bit per-queue cfg outputs, named after their register
# ring registers: written only while the queue is idle (docs/faults.md section 1); those
# whose accepted write resets the ring (HEAD and TAIL to 0, a ring_rst pulse)
RING_RESET = ("RING_SIZE", "RING_BASE_LO", "DMA_WIN_LO", "DMA_WIN_HI", "DMA_WIN_BITS")
RING_REGS = RING_RESET + ("RING_BASE_HI",)
CFG16 = {"RING_SIZE": "cfg_ring_size", "RING_TAIL": "cfg_ring_tail", "BUF_SIZE": "cfg_buf_size",
         "ITR_FRAMES": "cfg_itr_frames", "ITR_PKT": "cfg_itr_pkt", "ITR_ABS": "cfg_itr_abs",
         "ITR_GAP": "cfg_itr_gap"}


def merge(old: int, data: int, strb: int) -> int:
    """Byte-strobe merge of a 32-bit write."""
    out = old
    for b in range(4):
        if strb >> b & 1:
            out = (out & ~(0xFF << 8 * b)) | (data & (0xFF << 8 * b))
    return out & M32


def pack(values: list[int], width: int) -> int:
    return sum((v & ((1 << width) - 1)) << (i * width) for i, v in enumerate(values))


def drive_status(d, m) -> None:
    """Drive the block's status inputs from the reference model's ``status_*`` values."""
    d.status_head.value = pack(m.status_head, 16)
    d.status_pending.value = pack(m.status_pending, 16)
    d.status_cause.value = m.status_cause
    d.status_irq.value = m.status_irq
    d.status_dma_stopped.value = m.status_dma_stopped
    d.status_ts.value = m.status_ts
    d.status_pending_prio.value = m.status_pending_prio
    d.status_budget_left.value = m.status_budget_left
    d.status_qstatus.value = pack(m.status_qstatus, 9)
    d.status_dma_stall.value = m.status_dma_stall
    d.status_flow_status.value = m.status_flow_status
    d.status_flow_rval.value = m.status_flow_rval
    d.status_flow_used.value = m.status_flow_used


class RegModel:
    """The register file as the docs describe it, plus the tied-off status inputs."""

    def __init__(self, nq: int, nr: int, data_width: int):
        self.nq, self.nr = nq, nr
        # RULES_PER_CYCLE and FLOW_ENTRIES: the block's own parameters (F8), reported as built
        self.config = nq | nr << 8 | (data_width // 8) << 16 | (param("RULES_PER_CYCLE", 4) & 0xFF) << 24
        self.flow_entries = param("FLOW_ENTRIES", 16)
        self.flow_table_sets = param("FLOW_TABLE_SETS", 0)   # F31, reported as built
        self.vals: dict[tuple[str, int], int] = {}
        for name in RW_REGS:
            for i in range(self.count(name)):
                self.vals[(name, i)] = regmap.REGS[name].reset_value(i)
        # status inputs (driven by the test, reflected by RO registers)
        self.status_ts = 0
        self.status_head = [0] * nq
        self.status_pending = [0] * nq
        self.status_cause = 0
        self.status_irq = 0
        self.status_pending_prio = 0
        self.status_budget_left = 0
        self.status_qstatus = [0] * nq       # F24: QUEUE_STATUS
        self.status_dma_stopped = 0          # F24: DMA_ERR_STATUS
        self.status_dma_stall = 0            # F24: DMA_STALL (its clear pulse is checked at the top)
        self.status_flow_status = 0          # F31: FLOW_STATUS, FLOW_RVAL, FLOW_USED
        self.status_flow_rval = 0
        self.status_flow_used = 0
        self.flow_go = False                 # F31: the last write raises cfg_flow_go at w+1 (a FLOW_CMD write)
        self.status_ring_idle = (1 << nq) - 1  # F24: ring registers take writes (tied high unless a test says)
        self.ring_refused = [0] * nq         # F24: QUEUE_STATUS.RING_REFUSED, kept by the block
        # counters (F13), tallied by the test from the stat_* pulses it drives
        self.counts: dict[tuple[str, int], int] = {}
        self._cfg_cache: dict[str, int] | None = None

    def count(self, name: str) -> int:
        return {"global": 1, "queue": self.nq, "rule": self.nr}[regmap.REGS[name].block]

    def mapped(self) -> list[tuple[str, int, int]]:
        """(name, index, address) of every mapped register."""
        return [(n, i, regmap.addr(n, i)) for n in regmap.REGS for i in range(self.count(n))]

    def decode(self, addr: int) -> tuple[str, int] | None:
        return regmap.decode(addr & ~3, self.nq, self.nr)

    def write(self, addr: int, data: int, strb: int) -> tuple[int, int, int, int, int]:
        """Apply one write; returns the (ring_rst, cause_clr, lim_restart, budget_restart,
        table_clr) pulse bits it causes (F9, F10: any write to a limiter's or the budget's
        registers restarts it at w+1; F8: any write to a rule-table register or to
        FLOW_CTRL/FLOW_IDLE clears the flow cache at w+1, frame-path.md s3.1)."""
        d = self.decode(addr)
        if d is None:
            return 0, 0, 0, 0, 0
        self._cfg_cache = None
        name, i = d
        reg = regmap.REGS[name]
        if reg.access == "RO":
            return 0, 0, 0, 0, 0
        if reg.access == "W1C" and name != "IRQ_CAUSE":
            return 0, 0, 0, 0, 0  # DMA_STALL: cfg_dma_stall_clr (tests/test_faults.py)
        if reg.access == "W1C":  # IRQ_CAUSE: bit q lives in byte q // 8
            clr = 0
            for q in range(self.nq):
                if data >> q & 1 and strb >> (q // 8) & 1:
                    clr |= 1 << q
            return 0, clr, 0, 0, 0
        table = int(name in TABLE_REGS)
        width = reg.width(self.nq)
        touched = strb & ((1 << min(4, -(-width // 8))) - 1)
        merged = merge(self.vals[(name, i)], data, strb)
        new = merged & ((1 << width) - 1)
        # F24: refused writes change nothing (no side effect); one that selects a byte of the
        # register sets QUEUE_STATUS.RING_REFUSED and counts in CNT_RING_REFUSED
        refused = False
        if name in RING_REGS and not self.status_ring_idle >> i & 1:
            refused = True  # a ring register of a queue that is not idle
        if name == "RING_BASE_LO" and merged & 0x1F:
            refused = True  # not 32-byte aligned (registers.md)
        if name == "RING_TAIL":
            size, old, head = self.vals[("RING_SIZE", i)], self.vals[("RING_TAIL", i)], self.status_head[i]
            # beyond the ring, or more than the free slots (taking back posted ones)
            refused = new >= size or (new - old) % size > (head - 1 - old) % size
        if refused:
            if touched:
                self.ring_refused[i] = 1
                self.counts[("CNT_RING_REFUSED", i)] = self.counts.get(("CNT_RING_REFUSED", i), 0) + 1
            return 0, 0, 0, 0, 0
        self.vals[(name, i)] = new
        if not touched:
            return 0, 0, 0, 0, 0  # no byte of the register selected: no side effect (F24)
        self.flow_go = name == "FLOW_CMD"   # F31: the flow table takes the command at w+1
        if name in RING_RESET:   # a ring reset: RING_SIZE, RING_BASE_LO, the DMA window (F24)
            self.vals[("RING_TAIL", i)] = 0
            self.ring_refused[i] = 0  # an accepted ring reset clears the flag (F24)
            return 1 << i, 0, 0, 0, 0
        if name in ("RULE_LIM_BUDGET", "RULE_LIM_PERIOD", "RULE_LIM_CTRL"):
            return 0, 0, 1 << i, 0, 0
        if name in ("IRQ_BUDGET", "IRQ_BUDGET_PERIOD", "IRQ_BUDGET_EXEMPT"):
            return 0, 0, 0, 1, 0
        return 0, 0, 0, 0, table

    def read(self, name: str, i: int) -> int:
        reg = regmap.REGS[name]
        if reg.access == "RW":
            return self.vals[(name, i)]
        special = {
            "CONFIG": self.config,
            "FLOW_ENTRIES": self.flow_entries,
            "FLOW_TABLE_SETS": self.flow_table_sets,
            "FLOW_STATUS": self.status_flow_status,
            "FLOW_RVAL": self.status_flow_rval,
            "FLOW_USED": self.status_flow_used,
            "TIMESTAMP": self.status_ts,
            "IRQ_CAUSE": self.status_cause,
            "IRQ_STATUS": self.status_irq,
            "PENDING_PRIO": self.status_pending_prio,
            "IRQ_BUDGET_LEFT": self.status_budget_left,
        }
        if name in special:
            return special[name]
        if name == "RING_HEAD":
            return self.status_head[i]
        if name == "ITR_PENDING":
            return self.status_pending[i]
        if name == "QUEUE_STATUS":
            return self.status_qstatus[i] | self.ring_refused[i] << regmap.FIELDS["QUEUE_STATUS_RING_REFUSED"]
        if name == "DMA_ERR_STATUS":
            return self.status_dma_stopped
        if name == "DMA_STALL":
            return self.status_dma_stall
        if name.startswith("CNT_"):
            return self.counts.get((name, i), 0) & M32
        assert isinstance(reg.reset, int), name
        return reg.reset  # ID, VERSION

    def cfg_expected(self) -> dict[str, int]:
        if self._cfg_cache is None:
            self._cfg_cache = self._cfg_expected()
        return self._cfg_cache

    def _cfg_expected(self) -> dict[str, int]:
        v, nq, nr = self.vals, self.nq, self.nr
        exp = {
            "cfg_tick_div": v[("TICK_DIV", 0)],
            "cfg_default_action": v[("DEFAULT_ACTION", 0)],
            "cfg_irq_mask": v[("IRQ_MASK", 0)] & ((1 << nq) - 1),
            "cfg_run_prio": v[("RUN_PRIO", 0)],
            "cfg_queue_prio": pack([v[("QUEUE_PRIO", q)] for q in range(nq)], 8),
            "cfg_ring_base_lo": pack([v[("RING_BASE_LO", q)] for q in range(nq)], 32),
            "cfg_ring_base_hi": pack([v[("RING_BASE_HI", q)] for q in range(nq)], 32),
            "cfg_dma_win_lo": pack([v[("DMA_WIN_LO", q)] for q in range(nq)], 32),
            "cfg_dma_win_hi": pack([v[("DMA_WIN_HI", q)] for q in range(nq)], 32),
            "cfg_dma_win_bits": pack([v[("DMA_WIN_BITS", q)] for q in range(nq)], 8),
            "cfg_itr_ctrl": pack([v[("ITR_CTRL", q)] for q in range(nq)], 32),
            "cfg_rule_ctrl": pack([v[("RULE_CTRL", r)] for r in range(nr)], 32),
            "cfg_rule_dport": pack([v[("RULE_DPORT", r)] for r in range(nr)], 32),
            "cfg_rule_sport": pack([v[("RULE_SPORT", r)] for r in range(nr)], 32),
            "cfg_rule_ethertype": pack([v[("RULE_ETHERTYPE", r)] for r in range(nr)], 16),
            "cfg_rule_vlan": pack([v[("RULE_VLAN", r)] for r in range(nr)], 15),
            "cfg_rule_src_ip": pack([v[("RULE_SRC_IP", r)] for r in range(nr)], 32),
            "cfg_rule_src_mask": pack([v[("RULE_SRC_MASK", r)] for r in range(nr)], 32),
            "cfg_rule_dst_ip": pack([v[("RULE_DST_IP", r)] for r in range(nr)], 32),
            "cfg_rule_dst_mask": pack([v[("RULE_DST_MASK", r)] for r in range(nr)], 32),
            "cfg_frag_action": v[("FRAG_ACTION", 0)],
            "cfg_rule_lim_budget": pack([v[("RULE_LIM_BUDGET", r)] for r in range(nr)], 32),
            "cfg_rule_lim_period": pack([v[("RULE_LIM_PERIOD", r)] for r in range(nr)], 32),
            "cfg_rule_lim_ctrl": pack([v[("RULE_LIM_CTRL", r)] for r in range(nr)], 16),
            "cfg_irq_budget": v[("IRQ_BUDGET", 0)],
            "cfg_irq_budget_period": v[("IRQ_BUDGET_PERIOD", 0)],
            "cfg_irq_budget_exempt": v[("IRQ_BUDGET_EXEMPT", 0)],
            "cfg_flow_ctrl": v[("FLOW_CTRL", 0)],
            "cfg_flow_idle": v[("FLOW_IDLE", 0)],
            "cfg_flow_val": v[("FLOW_VAL", 0)],
            "cfg_flow_cmd": v[("FLOW_CMD", 0)],
            **{f"cfg_flow_key{j}": v[(f"FLOW_KEY{j}", 0)] for j in range(5)},
            "cfg_queue_ctrl": pack([v[("QUEUE_CTRL", q)] for q in range(nq)], 1),
            "cfg_dma_timeout": v[("DMA_TIMEOUT", 0)],
        }
        for name, port in CFG16.items():
            exp[port] = pack([v[(name, q)] for q in range(nq)], 16)
        return exp


class WriteMonitor:
    """Applies every AXI4-Lite write to the model at its cycle; checks cfg_* and pulses."""

    def __init__(self, dut, clocked: Clocked, model: RegModel):
        self.dut, self.clocked, self.model = dut, clocked, model
        self.pulses: dict[int, tuple[int, int, int, int]] = {}  # cycle -> expected pulses (see write)
        self.writes: list[tuple[int, int, int, int]] = []  # (w, addr, data, strb)
        self.errors: list[str] = []
        self.seen_pulses = [0, 0]  # cycles with cfg_ring_rst / cfg_irq_cause_clr high
        self.seen_table_clr = 0   # cycles with cfg_table_clr high (F8)
        self.flow_go: set[int] = set()  # cycles at which cfg_flow_go must be high (F31)
        self.seen_flow_go = 0

    def error(self, msg: str) -> None:
        if len(self.errors) < 50:
            self.errors.append(msg)
        self.dut._log.error(msg)

    def check_cfg(self, k: int) -> None:
        for port, exp in self.model.cfg_expected().items():
            got = int(getattr(self.dut, port).value)
            if got != exp:
                self.error(f"cycle {k}: {port} = {got:#x}, expected {exp:#x}")

    async def run(self) -> None:
        d = self.dut
        last_write = -10
        while True:
            await FallingEdge(d.clk)
            k = self.clocked.cycle_at_falling()
            # outputs sampled at edge k: state after every write at cycles < k
            if k - last_write <= 1 or k % 8 == 0:
                self.check_cfg(k)
            exp_rst, exp_clr, exp_lim, exp_bud, exp_tab = self.pulses.pop(k, (0, 0, 0, 0, 0))
            rst, clr = int(d.cfg_ring_rst.value), int(d.cfg_irq_cause_clr.value)
            lim, bud = int(d.cfg_lim_restart.value), int(d.cfg_budget_restart.value)
            tab = int(d.cfg_table_clr.value)
            self.seen_table_clr += tab
            go = int(d.cfg_flow_go.value)
            self.seen_flow_go += go
            if go != (k in self.flow_go):
                self.error(f"cycle {k}: cfg_flow_go = {go}, expected {int(k in self.flow_go)}")
            self.flow_go.discard(k)
            if (lim, bud, tab) != (exp_lim, exp_bud, exp_tab):
                self.error(f"cycle {k}: cfg_lim_restart/cfg_budget_restart/cfg_table_clr = {lim:#x}/{bud}/{tab}, "
                           f"expected {exp_lim:#x}/{exp_bud}/{exp_tab}")
            self.seen_pulses[0] += rst != 0
            self.seen_pulses[1] += clr != 0
            if rst != exp_rst:
                self.error(f"cycle {k}: cfg_ring_rst = {rst:#x}, expected {exp_rst:#x}")
            if clr != exp_clr:
                self.error(f"cycle {k}: cfg_irq_cause_clr = {clr:#x}, expected {exp_clr:#x}")
            aw = d.s_axil_awvalid.value == 1 and d.s_axil_awready.value == 1
            w = d.s_axil_wvalid.value == 1 and d.s_axil_wready.value == 1
            if aw != w:
                self.error(f"cycle {k}: AW and W handshakes not together (aw {aw}, w {w})")
            if aw and w:
                if k - last_write > 1:
                    self.check_cfg(k)  # old value still visible at w
                addr, data, strb = int(d.s_axil_awaddr.value), int(d.s_axil_wdata.value), int(d.s_axil_wstrb.value)
                self.writes.append((k, addr, data, strb))
                self.model.flow_go = False
                self.pulses[k + 1] = self.model.write(addr, data, strb)
                if self.model.flow_go:
                    self.flow_go.add(k + 1)
                last_write = k


class RegsBench:
    def __init__(self, dut):
        self.dut = dut
        self.nq = param("NUM_QUEUES", 2)
        self.nr = param("NUM_RULES", 4)
        self.dw = param("DATA_WIDTH", 32)
        self.model = RegModel(self.nq, self.nr, self.dw)
        self.clocked = Clocked(dut)
        self.rng = make_rng(dut)
        self.mon = WriteMonitor(dut, self.clocked, self.model)
        self.mismatches: list[str] = []

    async def start(self) -> None:
        d = self.dut
        # every non-AXI input tied to 0
        for sig in ("status_ts", "status_head", "status_pending", "status_cause", "status_irq", "status_pending_prio",
                    "status_budget_left", "stat_flow_hit", "stat_flow_miss", "status_qstatus",
                    "status_flow_status", "status_flow_rval", "status_flow_used", "stat_flow_table_hit",
                    "stat_ext_drop_fifo", "stat_ext_drop_preamble", "stat_ext_drop_short",
                    "status_dma_stopped", "status_dma_stall", "stat_dma_err_any", "stat_dma_err", "stat_dma_flush",
                    "stat_verdict_valid", "stat_verdict_code", "stat_verdict_queue", "stat_verdict_rule",
                    "stat_verdict_len", "stat_irq"):
            getattr(d, sig).value = 0
        d.status_ring_idle.value = self.model.status_ring_idle
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(d, "s_axil"), d.clk, d.rst)
        for ch in (self.axil.write_if, self.axil.read_if):
            ch.log.setLevel(logging.WARNING)
        await self.clocked.start()
        cocotb.start_soon(self.mon.run())
        await ClockCycles(d.clk, 2)

    # ---------------------------------------------------------------- bus access
    async def write(self, addr: int, data: int) -> None:
        await self.write_bytes(addr, data.to_bytes(4, "little"))

    async def write_bytes(self, addr: int, data: bytes) -> None:
        resp = await with_timeout(self.axil.write(addr, data), OP_TIMEOUT_NS, "ns")
        assert resp.resp == AxiResp.OKAY, f"write {addr:#06x}: response {resp.resp}"

    async def read(self, addr: int) -> int:
        resp = await with_timeout(self.axil.read(addr, 4), OP_TIMEOUT_NS, "ns")
        assert resp.resp == AxiResp.OKAY, f"read {addr:#06x}: response {resp.resp}"
        return int.from_bytes(resp.data, "little")

    async def write_reg(self, name: str, i: int, data: int) -> None:
        await self.write(regmap.addr(name, i), data)

    async def read_reg(self, name: str, i: int = 0) -> int:
        return await self.read(regmap.addr(name, i))

    async def check_reg(self, name: str, i: int, what: str = "") -> None:
        got = await self.read_reg(name, i)
        exp = self.model.read(name, i)
        if got != exp:
            msg = f"{what}: {name}[{i}] read {got:#x}, expected {exp:#x}"
            self.mismatches.append(msg)
            self.dut._log.error(msg)

    async def check_all(self, what: str, names: list[str] | None = None) -> None:
        for name, i, _ in self.model.mapped():
            if names is None or name in names:
                await self.check_reg(name, i, what)

    def rand_value(self, name: str) -> int:
        """A random write value; IRQ_MASK gets bits of existing queues only (its upper bits
        are checked on their own in test_irq_mask_all_bits)."""
        if name == "IRQ_MASK":
            return self.rng.getrandbits(self.nq)
        return self.rng.getrandbits(32)

    def unmapped_addresses(self) -> list[int]:
        nq, nr = self.nq, self.nr
        cands = set(range(0, 0x100, 4))
        cands |= set(range(0x100, 0x100 + 0x80 * (nq + 1), 4))
        cands |= set(range(0x1000, 0x1000 + 0x20 * (nr + 1), 4))
        cands |= {self.rng.randrange(0, 0x10000, 4) for _ in range(32)}
        cands |= {0xFFFC, 0x0FFC, 0x8000, 0x1000 + 0x20 * 64}
        return sorted(a for a in cands if self.model.decode(a) is None)

    async def finish(self) -> None:
        await ClockCycles(self.dut.clk, 3)
        problems = self.mismatches + self.mon.errors
        assert not problems, f"{len(problems)} mismatch(es), first: " + "; ".join(problems[:12])
