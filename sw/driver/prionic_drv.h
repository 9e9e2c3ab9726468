/* SPDX-License-Identifier: MIT */
/*
 * sw/driver/prionic_drv.h: a small C99 host driver for one prionic NIC (F27; the
 * descriptor rings it runs are F12, docs/frame-path.md section 4).
 *
 * It is the C twin of tb/top/host.py's HostDriver and makes the same register writes in
 * the same order (configure, post, reap, return), a sequence known to work against
 * the RTL. Register offsets, fields and the descriptor layout come from the generated
 * rtl/prionic_regs.h (docs/regmap.toml); nothing is typed by hand.
 *
 * The platform is a set of callbacks (32-bit register access at a byte offset of the
 * AXI4-Lite slave; host memory access at a 64-bit bus address), so the same code runs
 * against the Verilator C++ harness (bench/bare/harness.cpp), an in-memory fake
 * (sw/driver/selftest.c) or real hardware. No allocation, no libc beyond <string.h>.
 *
 * Ownership of ring slots (frame-path.md s4): the NIC may use the slots from RING_HEAD
 * up to, not including, RING_TAIL; the host owns a slot again once it sees DD, and
 * clears DD before posting it again. The driver keeps its own head (the next slot it
 * reaps) and tail (the next slot it posts); it never reads RING_HEAD. Since RING_HEAD
 * moves at the write-back's B, after the DD may be seen, prionic_post keeps one reaped
 * slot back: at most RING_SIZE - 2 posted ahead of the driver's head once it has reaped.
 *
 * Refused ring writes (F24, docs/faults.md): the NIC refuses a RING_TAIL write that would
 * take back posted slots or post more than its free ones, an unaligned RING_BASE_LO and
 * any ring register write while the queue is not idle; it sets the sticky
 * QUEUE_STATUS.RING_REFUSED of the queue (cleared by a ring reset) and counts in
 * CNT_RING_REFUSED. Ring setup (init, recovery) reads RING_BASE_LO/HI, RING_SIZE and
 * RING_TAIL back and fails with PRIONIC_EREFUSED if they differ. The doorbell itself is
 * not read back (a register read per doorbell is a bus round trip on a small CPU):
 * the ISR reads QUEUE_STATUS of each queue it serves, once per interrupt, and records a
 * refusal in the bit mask prionic_ring_refused() returns.
 */
#ifndef PRIONIC_DRV_H
#define PRIONIC_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "prionic_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* IRQ_CAUSE / IRQ_STATUS have one bit per queue in a 32-bit register. */
#define PRIONIC_DRV_MAX_QUEUES 32u

/* IP protocol numbers for prionic_rule_l4_dport() */
#define PRIONIC_PROTO_TCP 6u
#define PRIONIC_PROTO_UDP 17u

enum prionic_err {
    PRIONIC_OK = 0,
    PRIONIC_EINVAL = -1,   /* a bad argument (queue, rule, ring size, alignment, range) */
    PRIONIC_ENODEV = -2,   /* ID does not read PRIONIC_MAP_ID */
    PRIONIC_ERANGE = -3,   /* more queues or rules than the build has (CONFIG) */
    PRIONIC_EBUSY = -4,    /* the queue did not drain (QUEUE_STATUS.DRAINED) within the polls allowed */
    PRIONIC_EREFUSED = -5, /* F24: the NIC refused a ring register write: the value read back differs
                              (QUEUE_STATUS.RING_REFUSED is set) */
    PRIONIC_EFULL = -6,    /* F31: both sets the flow's key hashes to are full (FLOW_STATUS.RESULT FULL) */
    PRIONIC_ENOENT = -7    /* F31: no entry holds the flow (NOT_FOUND) */
};

/* F31: a flow of the flow table (docs/flowtable.md): untagged IPv4 TCP or UDP, its 5-tuple.
 * Addresses as numbers (10.0.0.2 = 0x0A000002), ports in host order. */
struct prionic_flow {
    uint32_t src_ip, dst_ip;
    uint16_t sport, dport;
    uint8_t proto;            /* PRIONIC_PROTO_TCP or PRIONIC_PROTO_UDP */
};
/* rule id of an entry counted and limited as no rule (prionic_flow_add) */
#define PRIONIC_FLOW_NO_RULE 0xFFu

/* The platform: every access of the driver goes through these. */
struct prionic_platform {
    void *ctx;   /* passed back to every callback */
    uint32_t (*reg_read)(void *ctx, uint32_t offset);
    void (*reg_write)(void *ctx, uint32_t offset, uint32_t value);
    void (*mem_read)(void *ctx, uint64_t addr, void *dst, size_t n);
    void (*mem_write)(void *ctx, uint64_t addr, const void *src, size_t n);
};

/* Interrupt moderation in the units of `ethtool -C` (docs/timing.md sections 5 and 6).
 * All of rx_frames, rx_usecs and rx_usecs_abs 0 means immediate mode, as Intel's RDTR = 0. */
struct prionic_coalesce {
    uint32_t rx_frames;      /* ITR_FRAMES: raise when this many completions are pending; 0 off */
    uint32_t rx_usecs;       /* ITR_PKT (Intel RDTR): packet timer, restarted by every completion; 0 off */
    uint32_t rx_usecs_abs;   /* ITR_ABS (Intel RADV): absolute timer from the first pending completion; 0 off */
    uint32_t rx_usecs_gap;   /* ITR_GAP (Intel ITR): minimum time between two interrupts; 0 off */
    int immediate;           /* ITR_CTRL.IMMEDIATE: every completion raises at once (ITR_GAP still holds) */
};

/* One receive queue: ring, buffers, priority, moderation. */
struct prionic_queue_cfg {
    uint64_t ring_base;   /* bus address of the ring, 32-byte aligned */
    uint64_t buf_base;    /* slot s uses the buffer at buf_base + s * buf_size; each buffer
                             aligned to AXI_DATA_WIDTH/8 bytes (else BUF_ERR, frame-path.md s4) */
    uint16_t ring_size;   /* descriptors; 0 or 1 leaves the queue disabled (nothing posted) */
    uint16_t buf_size;    /* bytes per buffer (BUF_SIZE) */
    uint8_t prio;         /* QUEUE_PRIO (F11, F16); 0 keeps the reset value (index + 1), not written */
    struct prionic_coalesce coalesce;
};

/* A destination-port rule: UDP or TCP, ports lo..hi, delivered to `queue` (F5). */
struct prionic_rule_cfg {
    unsigned proto;       /* PRIONIC_PROTO_UDP or PRIONIC_PROTO_TCP (any IP protocol number) */
    uint16_t dport_lo, dport_hi;
    unsigned queue;
};

struct prionic_config {
    uint32_t clk_hz;          /* NIC clock, for the moderation conversion (125000000 for 125 MHz) */
    uint16_t tick_div;        /* TICK_DIV: cycles per moderation tick (0 counts as 1) */
    int default_queue;        /* DEFAULT_ACTION: < 0 drops unmatched frames (UNREGISTERED), else delivers to this queue */
    const struct prionic_rule_cfg *rules;   /* programmed into rules 0..num_rules-1, in order */
    unsigned num_rules;
    unsigned num_queues;      /* queues 0..num_queues-1 are set up */
    const struct prionic_queue_cfg *queues;
    int no_dma_window;        /* F24: 0 (the default) programs each queue's DMA window, the smallest
                                 naturally aligned region holding its ring and buffers, so that a
                                 corrupted descriptor never steers a write out of it; 1 leaves the
                                 windows at their reset (none), as tb/top/host.py does */
};

/* Driver state of one queue. */
struct prionic_queue {
    struct prionic_queue_cfg cfg;
    uint16_t head;    /* next slot to reap (the driver's own head) */
    uint16_t tail;    /* next slot to post = the value of the last RING_TAIL write */
    uint16_t free;    /* slots reaped and not posted again: what prionic_post can post (the ring
                         always keeps one more slot empty: HEAD == TAIL means nothing posted) */
};

struct prionic_dev {
    struct prionic_platform plat;
    uint32_t clk_hz;
    uint16_t tick_div;
    unsigned num_queues;          /* queues set up by prionic_init */
    uint32_t config;              /* CONFIG as read by prionic_init (build parameters) */
    unsigned hw_queues, hw_rules; /* its NUM_QUEUES and NUM_RULES fields */
    uint32_t flow_sets;           /* FLOW_TABLE_SETS as read by prionic_init: 0, no flow table (F31) */
    uint32_t flow_key[5];         /* FLOW_KEY0..4 and FLOW_VAL as last written (F31: unchanged words */
    uint32_t flow_val;            /*   are not written again); flow_written says they are known */
    int flow_written;
    struct prionic_queue q[PRIONIC_DRV_MAX_QUEUES];
    uint32_t refused;             /* F24: queues whose RING_REFUSED the ISR saw set (bit q) */
    int no_dma_window;            /* prionic_config.no_dma_window */
};

/* A completion as reaped from a ring (the write-back of frame-path.md s4). */
struct prionic_completion {
    unsigned queue;       /* the ring it was reaped from */
    unsigned slot;
    uint64_t buf_addr;    /* where the frame's data is */
    uint16_t len;         /* frame length in bytes */
    uint8_t rule;         /* matching rule (0xFF: default action) */
    uint8_t desc_queue;   /* queue byte of the write-back (equals queue) */
    uint32_t ts;          /* TIMESTAMP at the frame's tlast */
    uint32_t info;        /* PRIONIC_DESC_INFO_* fields */
    uint32_t status;      /* the whole status word (DD set) */
    uint8_t flags;        /* status & PRIONIC_DESC_STATUS_FLAGS_MASK: IPV4, ..., L4E (F4) */
    int err;              /* status ERR, len 0, data not to be trusted (frame-path.md s4): a bad
                             buffer address (BUF_ERR, nothing written: not aligned to
                             AXI_DATA_WIDTH/8 bytes, beyond AXI_ADDR_WIDTH, outside the queue's
                             DMA window, or a frame running past its end), or the queue stopped
                             by a DMA error before the write-back (DATA_ERR, docs/faults.md) */
};

typedef void (*prionic_rx_fn)(void *arg, const struct prionic_completion *c);

/* Check ID and CONFIG, then program the NIC as tb/top/host.py HostDriver.configure does:
 * TICK_DIV, DEFAULT_ACTION, every rule (RULE_DPORT, RULE_CTRL), then per queue: every
 * descriptor in memory (buffer address, rest 0), RING_BASE_HI, RING_BASE_LO, RING_SIZE,
 * BUF_SIZE, the moderation registers, QUEUE_PRIO (only if cfg prio != 0) and the
 * RING_TAIL doorbell posting every slot but one; the ring registers are read back
 * (PRIONIC_EREFUSED if they differ, F24). Returns PRIONIC_OK or a prionic_err. */
int prionic_init(struct prionic_dev *dev, const struct prionic_platform *plat, const struct prionic_config *cfg);

/* Rule `rule` delivers IP protocol `proto` frames with destination port lo..hi to
 * `queue`: writes RULE_DPORT, then RULE_CTRL (ENABLE last, as tb/top/host.py). */
int prionic_rule_l4_dport(struct prionic_dev *dev, unsigned rule, unsigned proto, uint16_t lo, uint16_t hi,
                          unsigned queue);
/* RULE_CTRL = 0: the rule matches nothing. */
int prionic_rule_disable(struct prionic_dev *dev, unsigned rule);

/* Program ITR_FRAMES, ITR_PKT, ITR_ABS, ITR_GAP, ITR_CTRL of queue q (that order, as
 * tb/top/host.py) from microseconds; see prionic_usecs_to_ticks for the rounding. */
int prionic_set_coalesce(struct prionic_dev *dev, unsigned q, const struct prionic_coalesce *c);
/* Microseconds -> moderation ticks of TICK_DIV cycles at clk_hz, rounded up, clamped. */
uint16_t prionic_usecs_to_ticks(const struct prionic_dev *dev, uint32_t usecs);

/* Post up to n of the host's free slots of queue q (from the driver's tail on): fill
 * each descriptor (buffer address, DD and the rest of the write-back cleared), then one
 * RING_TAIL write. Returns how many were posted. */
unsigned prionic_post(struct prionic_dev *dev, unsigned q, unsigned n);

/* Walk queue q's ring from the driver's head while DD is set: hand each completion to
 * cb, clear its write-back (DD), then re-post every reaped slot with one RING_TAIL
 * write (repost != 0; else the slots stay free for a later prionic_post). Returns the
 * number of completions. */
unsigned prionic_reap(struct prionic_dev *dev, unsigned q, prionic_rx_fn cb, void *arg, int repost);
/* prionic_reap, at most `max` completions (a NAPI-style poll's budget) */
unsigned prionic_reap_max(struct prionic_dev *dev, unsigned q, prionic_rx_fn cb, void *arg, unsigned max,
                          int repost);
/* 1 when the next slot of queue q to reap holds a completion (its DD is set): a poll or a
 * receive task that stops on an empty ring checks it before it sleeps; no register access */
int prionic_rx_pending(struct prionic_dev *dev, unsigned q);

/* The ISR, as tb/top/host.py HostDriver._isr: read IRQ_STATUS (the irq lines), acknowledge
 * those bits in IRQ_CAUSE (W1C) first, then reap (and re-post) those queues, each after
 * one QUEUE_STATUS read that records a refused doorbell (prionic_ring_refused, F24).
 * Returns the number of completions. */
unsigned prionic_isr(struct prionic_dev *dev, prionic_rx_fn cb, void *arg);
/* Write `bits` to IRQ_CAUSE (W1C): the ISR's acknowledge when the lines are known. */
void prionic_irq_ack(struct prionic_dev *dev, uint32_t bits);
/* The poller (masked queues, or no interrupts at all): reap and re-post every queue. */
unsigned prionic_poll(struct prionic_dev *dev, prionic_rx_fn cb, void *arg);

/* F24: DMA_ERR_STATUS, one bit per queue stopped by a DMA error (the irq_err line is their OR). */
uint32_t prionic_dma_errors(struct prionic_dev *dev);
/* F24: DMA_STALL, the sticky stall status: PRIONIC_DMA_STALL_WRITE_MASK (AWREADY or WREADY
 * withheld for DMA_TIMEOUT cycles), PRIONIC_DMA_STALL_READ_MASK (ARREADY withheld). A stall
 * stops nothing and raises no interrupt: a driver polls this when it sees no progress. With
 * `clear`, the bits read are written back (W1C): a stall reported after the read stays set. */
uint32_t prionic_dma_stall(struct prionic_dev *dev, int clear);
/* F24: queue q's QUEUE_STATUS.ERR (0, or the DMA event code that stopped it). */
unsigned prionic_queue_error(struct prionic_dev *dev, unsigned q);
/* F24: the queues whose QUEUE_STATUS.RING_REFUSED the ISR has seen set since init (bit q),
 * or, with `q` < the queue count, queue q's flag read now (0 or 1). A recovery clears both. */
uint32_t prionic_ring_refused(struct prionic_dev *dev, unsigned q);
/* F24 recovery of queue q (docs/faults.md section 3), after a DMA error or to reprogram
 * its ring: QUEUE_CTRL = 0; poll QUEUE_STATUS until DRAINED (at most max_polls reads,
 * else PRIONIC_EBUSY with the queue left disabled); read RING_HEAD and reap up to it, not
 * beyond, handing each completion to cb; rewrite every descriptor; RING_BASE_HI,
 * RING_BASE_LO, RING_SIZE (HEAD and TAIL restart at 0, the error is cleared); post every
 * slot but one; QUEUE_CTRL = 1. The driver's own head, tail and free count restart too.
 * PRIONIC_EREFUSED if a ring register does not read back what was written (F24). */
int prionic_queue_recover(struct prionic_dev *dev, unsigned q, prionic_rx_fn cb, void *arg, unsigned max_polls);

/* F31, the flow table (docs/flowtable.md; FLOW_TABLE_SETS > 0 in the build, else PRIONIC_ERANGE).
 * Each call waits while FLOW_STATUS.BUSY (at most max_polls reads, else PRIONIC_EBUSY; after
 * reset the table clears itself for FLOW_TABLE_SETS cycles), writes the key words and FLOW_VAL
 * that differ from the last ones written, writes FLOW_CMD, waits again and answers from
 * FLOW_STATUS.RESULT. The flow key's bits: PRIONIC_FLOW_KEY_<FIELD>_SHIFT of rtl/prionic_regs.h. */
/* Add `f` (or replace its value): its frames go to `queue` (`drop`: dropped as RULE_DROP), counted
 * and rate-limited as rule `rule` (PRIONIC_FLOW_NO_RULE: none). PRIONIC_OK (INSERTED or UPDATED),
 * PRIONIC_EFULL (both sets full: the flow stays out; a wildcard rule can take it) or an error. */
int prionic_flow_add(struct prionic_dev *dev, const struct prionic_flow *f, unsigned queue, int drop, unsigned rule,
                     unsigned max_polls);
/* Remove `f`: PRIONIC_OK (DELETED), PRIONIC_ENOENT (NOT_FOUND) or an error. */
int prionic_flow_del(struct prionic_dev *dev, const struct prionic_flow *f, unsigned max_polls);
/* Look `f` up: PRIONIC_OK with its FLOW_VAL in *val (FOUND), PRIONIC_ENOENT or an error. */
int prionic_flow_find(struct prionic_dev *dev, const struct prionic_flow *f, uint16_t *val, unsigned max_polls);
/* Empty the table (CLEAR: FLOW_TABLE_SETS cycles). PRIONIC_OK or an error. */
int prionic_flow_clear(struct prionic_dev *dev, unsigned max_polls);
/* The FLOW_KEY0..4 words of `f` (the flow_key record of docs/regmap.toml). */
void prionic_flow_key(const struct prionic_flow *f, uint32_t key[5]);

#ifdef __cplusplus
}
#endif

#endif /* PRIONIC_DRV_H */
