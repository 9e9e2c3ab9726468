"""The DMA side of the prionic golden model: which admitted frame each completion and each
DMA event belongs to, the ring head, the stopped queues and the DMA counters (timing.md
s2-3; frame-path.md s4; F12, F24, docs/faults.md).

The DMA is not modelled cycle by cycle: its completions (B handshakes of write-backs) and
its events (``stat_dma``) are DUT outputs the model takes as timing inputs. :class:`Dma`
matches them to the admitted frames and keeps what follows from them; the edge loop
(:class:`model.nic.PrionicModel`) schedules when the rest of the NIC sees it.
"""

from __future__ import annotations

from collections import deque

from model import regmap
from model.admit import Admission
from model.config import FrameOutcome, ModelConfig
from model.regs import Registers

_F = regmap.FIELDS
_EV = regmap.ENUMS["dma_event"]


class CompletionError(RuntimeError):
    """A completion that cannot belong to any admitted frame (timing.md s2, s3)."""


class Dma:
    """Completion and DMA event bookkeeping of the NIC (F12, F24).

    ``completions``: ``(C, queue, frame index)`` of every processed completion;
    ``dma_events``: ``(E, queue, code)`` as taken; ``irq_err_edges``: ``(cycle, level)`` of
    the irq_err line; ``stall``: DMA_STALL ([0] WRITE, [1] READ, sticky).
    """

    def __init__(self, cfg: ModelConfig, regs: Registers, admission: Admission, strict_order: bool) -> None:
        nq = cfg.num_queues
        self.cfg = cfg
        self.regs = regs
        self.admission = admission
        self.strict_order = strict_order
        self.outstanding: list[deque[FrameOutcome]] = [deque() for _ in range(nq)]
        self.inflight: deque[FrameOutcome] = deque()
        self.accepted: list[list[FrameOutcome]] = [[] for _ in range(nq)]
        self.buf_err = [0] * nq
        self.stopped_at: list[int | None] = [None] * nq  # edge E of the event that stopped the queue
        self.stall = 0
        self.completions: list[tuple[int, int, int]] = []
        self.dma_events: list[tuple[int, int, int]] = []
        self.irq_err_edges: list[tuple[int, int]] = []

    def check_event(self, cycle: int, queue: int, code: int) -> None:
        """Raise ``ValueError`` for a DMA event the NIC cannot report: no such queue (but a
        write stall of no queue and a stray B, 0xFF) or no such code; a stray B has no queue."""
        if code in (_EV["STALL_W"], _EV["STRAY_B"]) and queue == 0xFF:
            pass
        elif code == _EV["STRAY_B"]:
            raise ValueError(f"STRAY_B at cycle {cycle} for queue {queue}: a stray B belongs to no queue (0xFF)")
        elif not 0 <= queue < self.cfg.num_queues:
            raise ValueError(f"DMA event at cycle {cycle} for queue {queue}: no such queue")
        if code not in regmap.ENUMS["dma_event"].values():
            raise ValueError(f"DMA event at cycle {cycle}: unknown code {code}")

    def accept(self, o: FrameOutcome) -> None:
        """An admitted frame (verdict ACCEPT), now the DMA's to write."""
        self.outstanding[o.queue].append(o)
        self.inflight.append(o)
        self.accepted[o.queue].append(o)

    def take(self, c: int, q: int, what: str) -> FrameOutcome:
        """The oldest admitted frame of queue q that the DMA has not finished, for a
        completion or a FLUSH at cycle c."""
        pending = self.outstanding[q]
        if not pending:
            raise CompletionError(
                f"{what} at cycle {c} for queue {q}: no admitted frame of queue {q} is outstanding"
            )
        o = pending[0]
        if o.admit_cycle >= c:
            raise CompletionError(
                f"{what} at cycle {c} for queue {q}: its frame {o.index} is admitted only at {o.admit_cycle}"
            )
        if self.inflight[0] is not o:
            first = self.inflight[0]
            if self.strict_order:
                raise CompletionError(
                    f"{what} at cycle {c} for queue {q} (frame {o.index}) out of admission order: "
                    f"frame {first.index} of queue {first.queue} (admitted at {first.admit_cycle}) is older"
                )
            self.inflight.remove(o)
        else:
            self.inflight.popleft()
        pending.popleft()
        return o

    def complete(self, c: int, q: int, sent: int | None = None) -> FrameOutcome:
        """Completion B handshake at cycle C: RING_HEAD moves at edge C (timing.md s3). The
        write-back says ERR after a BUF_ERR, or if its queue was stopped by an event at an
        edge before ``sent``, the edge its AW was taken (its content is fixed by then; F24,
        faults.md s5), or before C when ``sent`` is not given. Returns the completed frame."""
        o = self.take(c, q, "completion")
        if self.buf_err[q]:
            self.buf_err[q] -= 1
            o.dma = "err"
        else:
            at = self.stopped_at[q]
            o.dma = "err" if at is not None and at < (c if sent is None else sent) else "done"
        self.completions.append((c, q, o.index))
        size = self.regs.val["RING_SIZE"][q]
        assert o.slot is not None
        self.regs.val["RING_HEAD"][q] = (o.slot + 1) % size if size else 0
        return o

    def event(self, e: int, q: int, code: int) -> FrameOutcome | None:
        """DMA event at edge E (F24, docs/faults.md; :meth:`model.nic.PrionicModel.dma_event`).
        Returns the frame a FLUSH dropped (its space is given back at E+1), else None."""
        self.dma_events.append((e, q, code))
        adm = self.admission
        if code == _EV["FLUSH"]:
            if not adm.qerr[q]:
                raise CompletionError(f"FLUSH at cycle {e} for queue {q}, which is not stopped")
            o = self.take(e, q, "FLUSH")
            o.dma = "flush"
            return o
        if code == _EV["BUF_ERR"]:
            self.buf_err[q] += 1
        elif code in (_EV["STALL_W"], _EV["STALL_R"]):
            pass  # nothing stops, nothing is abandoned: the DMA keeps offering the handshake
        elif code == _EV["STRAY_B"]:
            pass  # a B that answers nothing owed completes nothing and stops nothing
        elif code == _EV["WB_ERR"]:
            done = [o for o in self.accepted[q] if o.dma]
            if not done or self.completions[-1][0] != e or done[-1].dma not in ("done", "err"):
                raise CompletionError(f"WB_ERR at cycle {e} for queue {q}: no write-back of it completed then")
            done[-1].dma = "wb_err"  # its write-back may not be in memory
            self.stop(e, q, code)
        else:
            self.stop(e, q, code)
        return None

    def stop(self, e: int, q: int, code: int) -> None:
        """An error stops a running queue; a stopped one keeps its first cause (faults.md s2)."""
        adm = self.admission
        if adm.qerr[q]:
            if code == _EV["RING_ERR"]:
                raise CompletionError(f"RING_ERR at cycle {e} for queue {q}, which is already stopped")
            return
        if not any(adm.qerr):
            self.irq_err_edges.append((e + 1, 1))
        adm.qerr[q] = code
        self.stopped_at[q] = e

    def count(self, q: int, code: int) -> None:
        """``stat_dma_valid`` high at E+1: the DMA counters and DMA_STALL (F24)."""
        if code == _EV["FLUSH"]:
            self.regs.bump("CNT_DMA_FLUSH", q)
            return
        if q < self.cfg.num_queues:  # (a stall or a stray B of no queue: 0xFF)
            self.regs.bump("CNT_DMA_ERR", q)
        self.regs.bump("CNT_DMA_ERR_ALL")
        if code == _EV["STALL_W"]:
            self.stall |= 1 << _F["DMA_STALL_WRITE"]
        elif code == _EV["STALL_R"]:
            self.stall |= 1 << _F["DMA_STALL_READ"]

    def reset_rings(self, m: int, queues: int) -> None:
        """Ring resets at edge m (bitmask ``queues``): RESV and HEAD restart, and a stopped
        queue runs again (F24); irq_err falls when no queue is left stopped."""
        stopped = any(self.admission.qerr)
        for q in range(self.cfg.num_queues):
            if queues >> q & 1:
                self.admission.reset_ring(q)
                self.regs.val["RING_HEAD"][q] = 0
                self.admission.qerr[q] = 0
                self.stopped_at[q] = None
        if stopped and not any(self.admission.qerr):
            self.irq_err_edges.append((m + 1, 0))

    def expected_completions(self, queue: int) -> list[FrameOutcome]:
        """The ``ACCEPT`` outcomes of ``queue`` in admission order (completion order), but
        those the DMA dropped unwritten (FLUSH, F24)."""
        return [o for o in self.accepted[queue] if o.dma != "flush"]

    def drained(self, q: int) -> bool:
        """``QUEUE_STATUS.DRAINED`` (F24): the queue is disabled and every frame admitted to
        it is completed or flushed (its on-chip reservation given back)."""
        enabled = self.regs.val["QUEUE_CTRL"][q] >> _F["QUEUE_CTRL_ENABLE"] & 1
        return not enabled and self.admission.used_frames[q] == 0

    def read(self, name: str, q: int) -> int | None:
        """A register read of the DMA's live state (F24): QUEUE_STATUS (ERR, DRAINED and the
        register block's sticky RING_REFUSED), DMA_ERR_STATUS, DMA_STALL; None for others."""
        if name == "QUEUE_STATUS":
            return (self.admission.qerr[q] | int(self.drained(q)) << _F["QUEUE_STATUS_DRAINED"]
                    | self.regs.sticky_bits(name, q))
        if name == "DMA_ERR_STATUS":
            return sum(1 << i for i, e in enumerate(self.admission.qerr) if e)
        if name == "DMA_STALL":
            return self.stall
        return None
