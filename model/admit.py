"""Admission (``prionic_admit``) of the prionic golden model: final verdict, ring slot,
on-chip reservation and counters at edge ``a = v + 1`` (docs/timing.md s3; F9, F11-F13).
"""

from __future__ import annotations

from collections.abc import Callable

from model import regmap
from model.classifier import RULE_NONE, Classification
from model.config import ModelConfig
from model.parser import ParseResult
from model.regs import Registers

V = regmap.VERDICTS
_F = regmap.FIELDS


def _verdict_counters() -> dict[int | None, tuple[tuple[str, bool, str], ...]]:
    """verdict code (None: every verdict) -> ((counter, per queue, amount), ...), from the
    ``count`` attributes of docs/regmap.toml."""
    out: dict[int | None, list[tuple[str, bool, str]]] = {}
    for reg in regmap.REGS.values():
        kind, _, code = reg.count.partition(":")
        if kind == "verdict":
            out.setdefault(V[code] if code else None, []).append((reg.name, reg.block == "queue", reg.amount))
    return {k: tuple(v) for k, v in out.items()}


_VERDICT_COUNTERS = _verdict_counters()


class Admission:
    """``prionic_admit``: final verdict, ring slot and counters at admission edge ``a``.

    timing.md s3 (verdict order 1-11, QUEUE_DISABLED at 6a, F24; ``RESV``, ring reset) and frame-path.md s5
    (counters, F13), s6 (``stat_verdict_queue``/``_rule``); descriptor ring F12.
    Reads ``RING_SIZE`` from :class:`Registers` as seen at the admission edge, and
    ``RING_TAIL`` and ``BUF_SIZE`` as admission sees them there, one edge later (written
    at cycles ``< a - 1``, timing.md s3; F25): :meth:`wrote` keeps the value a write
    replaced; owns the internal reservation pointers ``resv[q]``.
    """

    def __init__(self, cfg: ModelConfig, regs: Registers) -> None:
        self.cfg = cfg
        self.regs = regs
        self.resv = [0] * cfg.num_queues
        # on-chip buffer reservations (F11): taken at admission, given back the edge after
        # the frame's completion (timing.md s3)
        self.used_words = [0] * cfg.num_queues
        self.used_frames = [0] * cfg.num_queues
        # F24: the DMA error that stopped each queue (0: running), set by PrionicModel
        self.qerr = [0] * cfg.num_queues
        # RING_TAIL / BUF_SIZE seen one edge late: (register, queue) -> (cycle of the last
        # write, the value before it)
        self._late: dict[tuple[str, int], tuple[int, int]] = {}

    def wrote(self, name: str, q: int, w: int, old: int) -> None:
        """A write at cycle ``w`` replaced ``old`` in ``RING_TAIL`` or ``BUF_SIZE`` of queue q."""
        self._late[(name, q)] = (w, old)

    def seen(self, name: str, q: int, a: int) -> int:
        """``RING_TAIL`` or ``BUF_SIZE`` of queue q as admission at edge ``a`` sees it:
        written at cycles ``< a - 1``."""
        late = self._late.get((name, q))
        if late is not None and late[0] >= a - 1:
            return late[1]
        return self.regs.val[name][q]

    def release(self, q: int, words: int) -> None:
        self.used_words[q] -= words
        self.used_frames[q] -= 1

    def admit(
        self, length: int, tuser: bool, parsed: ParseResult, cls: Classification | None, ring_reset_mask: int,
        limit: Callable[[int], bool] | None = None, a: int = 0,
    ) -> tuple[int, int, int, int | None]:
        """Decide one frame; return ``(verdict, queue, rule, slot)``.

        ``ring_reset_mask`` has bit q set when a ``RING_SIZE``/``RING_BASE_LO`` write of
        queue q happened at the previous cycle: such a queue sees ``free = 0`` here.
        ``limit(rule)``: the rule's rate limiter (F9), asked last, only for a frame that
        passed every other check; it spends when it passes (docs/limiter.md s8). ``a``:
        the admission edge.
        """
        regs = self.regs
        if tuser:
            verdict = V["BAD_FRAME"]
        elif length > self.cfg.max_frame_len:
            verdict = V["OVERSIZE"]
        elif parsed.malformed:
            verdict = V["MALFORMED"]
        else:
            assert cls is not None
            rule = cls.rule
            if rule != RULE_NONE:
                regs.bump("CNT_HITS", rule)
            q = cls.queue
            if cls.drop_verdict is not None:
                verdict = cls.drop_verdict
            elif q >= self.cfg.num_queues:
                verdict = V["RULE_DROP"]
            elif not regs.val["QUEUE_CTRL"][q] >> _F["QUEUE_CTRL_ENABLE"] & 1 or self.qerr[q]:
                verdict = V["QUEUE_DISABLED"]  # F24: disabled, or stopped by a DMA error
            elif length > self.seen("BUF_SIZE", q, a):
                verdict = V["BUF_OVERFLOW"]
            else:
                size = regs.val["RING_SIZE"][q]
                tail = self.seen("RING_TAIL", q, a)
                resv = self.resv[q]
                words = self.cfg.words(length)
                if size < 2 or ring_reset_mask >> q & 1 or (tail - resv) % size == 0:
                    verdict = V["RING_FULL"]
                elif (self.used_words[q] + words > self.cfg.qbuf_words
                      or self.used_frames[q] >= self.cfg.qbuf_frames):
                    verdict = V["QBUF_FULL"]
                elif limit is not None and not limit(rule):
                    verdict = V["RATE_LIMITED"]
                else:
                    self.used_words[q] += words
                    self.used_frames[q] += 1
                    self.resv[q] = (resv + 1) % size
                    self._count(verdict=V["ACCEPT"], queue=q, length=length)
                    return V["ACCEPT"], q, rule, resv
            if verdict in (V["BUF_OVERFLOW"], V["RING_FULL"], V["QBUF_FULL"], V["RATE_LIMITED"],
                           V["QUEUE_DISABLED"]):
                self._count(verdict, q, length)
                return verdict, q, rule, None
            self._count(verdict, 0, length)
            return verdict, 0, rule, None
        self._count(verdict, 0, length)
        return verdict, 0, RULE_NONE, None

    def _count(self, verdict: int, queue: int, length: int) -> None:
        """frame-path.md s5 (F13): every counter is 32-bit and wraps. Which counters a
        verdict moves comes from their ``count`` attributes in docs/regmap.toml, the source
        of the RTL's counters too (gen/regblock/)."""
        regs = self.regs
        for name, per_queue, amount in _VERDICT_COUNTERS.get(verdict, ()) + _VERDICT_COUNTERS.get(None, ()):
            regs.bump(name, queue if per_queue else 0, length if amount == "len" else 1)

    def reset_ring(self, q: int) -> None:
        """``RESV`` of queue q to 0 (edge ``w+1`` of a ring reprogramming, timing.md s3)."""
        self.resv[q] = 0
