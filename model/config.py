"""Build parameters (:class:`ModelConfig`) and the per-frame outcome (:class:`FrameOutcome`)
of the prionic golden model (frame-path.md s1, s4-6; timing.md s3).

A leaf of the model: :mod:`model.regs`, :mod:`model.admit` and :mod:`model.nic` import it,
it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.classifier import EngineConfig


@dataclass(frozen=True)
class ModelConfig:
    """Build parameters of the NIC (frame-path.md s1; registers.md ``CONFIG``)."""

    num_queues: int = 2
    num_rules: int = 4
    data_width: int = 32  # stream width in bits; KEEP_WIDTH = data_width // 8
    max_frame_len: int = 1518
    qbuf_bytes: int = 4096   # on-chip buffer per queue (F11): QBUF_BYTES
    qbuf_frames: int = 32    # frames each queue buffer tracks: 2**QMETA_ADDR_WIDTH
    rules_per_cycle: int = 0  # RULES_PER_CYCLE: rules compared per cycle, 0 = all (F8)
    flow_entries: int = 16    # FLOW_ENTRIES: flow cache entries, 0 = no cache (F8)
    flow_ts_shift: int = 14   # FLOW_TS_SHIFT: a flow-cache time unit is 2**shift cycles
    flow_table_sets: int = 0  # FLOW_TABLE_SETS: flow table sets per bank, 0 = no table (F31)

    def __post_init__(self) -> None:
        # 30 queue blocks of 0x80 bytes fit between 0x100 and the rule blocks at 0x1000
        if not 1 <= self.num_queues <= 30:
            raise ValueError(f"num_queues={self.num_queues}: must be 1..30")
        if not 0 <= self.num_rules <= 255:  # rule id 0xFF means "no rule"
            raise ValueError(f"num_rules={self.num_rules}: must be 0..255")
        if self.data_width not in (8, 16, 32, 64):
            raise ValueError(f"data_width={self.data_width}: must be 8, 16, 32 or 64")
        if not 1 <= self.max_frame_len <= 0xFFFF:
            raise ValueError(f"max_frame_len={self.max_frame_len}: must be 1..0xFFFF")
        if not 0 <= self.rules_per_cycle <= max(self.num_rules, 1):
            raise ValueError(f"rules_per_cycle={self.rules_per_cycle}: must be 0..num_rules")
        self.engine_config()  # EngineConfig validates the flow cache parameters

    def engine_config(self) -> EngineConfig:
        return EngineConfig(self.num_rules, self.rules_per_cycle, self.flow_entries, self.flow_ts_shift,
                            self.flow_table_sets)

    @property
    def keep_width(self) -> int:
        return self.data_width // 8

    @property
    def qbuf_words(self) -> int:
        return self.qbuf_bytes // self.keep_width

    def words(self, length: int) -> int:
        """Bus words a frame of ``length`` bytes occupies."""
        return -(-length // self.keep_width)


@dataclass
class FrameOutcome:
    """What the NIC does with one frame (timing.md s3; frame-path.md s4-6; F12, F13).

    ``queue`` and ``rule`` are ``stat_verdict_queue`` / ``stat_verdict_rule``
    (frame-path.md s6); for ``ACCEPT`` they are also descriptor bytes 19 and 18, ``length``
    bytes 16-17 and ``timestamp`` bytes 24-27 of the write-back (frame-path.md s4).
    """

    index: int  # 0-based frame number
    t_last: int  # T (cycle of tlast handshake)
    length: int  # frame length in bytes (saturated at 0xFFFF)
    verdict: int  # regmap.VERDICTS code
    queue: int  # as stat_verdict_queue
    rule: int  # as stat_verdict_rule (0xFF if none)
    slot: int | None  # ring slot for ACCEPT, else None
    timestamp: int  # T mod 2**32
    verdict_cycle: int  # cycle at which stat_verdict_valid is high = a + 1 (T + 12: looked up, no wait)
    flags: int = 0  # write-back status bits [7:0]: packet type and checksum flags (F4)
    info: int = 0  # write-back bytes 24-27: TCI, TCP flags, VLAN tag count (frame-path.md s4)
    flow: str = ""  # flow cache lookup: "hit", "miss" or "" (none; F8)
    flow_why: str = ""  # "hit" or the miss's reason (model.classifier.EngineFrame.why)
    flow_evict: bool = False  # a TCP FIN/RST hit evicted the flow's entry
    # F24, for ACCEPT: what the DMA made of it (docs/faults.md): "" not yet, "done" a
    # completion, "err" a completion whose write-back says ERR (length 0), "wb_err" a
    # completion whose write-back got an error response, "flush" dropped unwritten
    dma: str = ""

    @property
    def admit_cycle(self) -> int:
        """Edge ``a`` of the admission decision: ``T + 11`` for a looked-up frame unless it waited for
        the classification engine (timing.md s3, s3.1)."""
        return self.verdict_cycle - 1
