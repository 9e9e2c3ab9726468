/* SPDX-License-Identifier: MIT */
/*
 * sw/driver/selftest.c: runs the C driver (prionic_drv.c, F27) against an in-memory
 * fake NIC, with no simulator: a register array (IRQ_CAUSE and DMA_STALL write-1-to-clear,
 * every write logged) and a byte array of host memory (every write logged during init). It checks
 * that init programs what docs/regmap.toml names, that post fills descriptors and rings
 * the doorbell, and that reap delivers a faked completion (DD set, F12) exactly once and
 * re-posts its slot. tests/test_c_driver.py builds and runs it, and compares the logged
 * init sequence ("W <offset> <value>", "M <address> <bytes>") with the one tb/top/host.py's
 * HostDriver.configure makes for the same setup.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -Irtl -Isw/driver \
 *      sw/driver/prionic_drv.c sw/driver/selftest.c -o selftest && ./selftest
 *
 * Exit 0 and "selftest: ok, N checks" when every check holds; else "FAIL ..." lines, exit 1.
 */
#include <stdio.h>
#include <string.h>

#include "prionic_drv.h"

/* host memory layout of tb/top/host.py (RING_REGION, BUF_REGION, QueueSetup) */
#define RING_REGION 0x00010000u
#define BUF_REGION 0x00100000u
#define MEM_SIZE 0x00200000u
#define NQ 2u
#define RING 8u
#define BUF 2048u

/* ------------------------------------------------------------------ the fake NIC */

struct wlog {
    uint32_t off, val;
};

static struct fake {
    uint32_t regs[1u << (PRIONIC_ADDR_WIDTH - 2)];
    uint8_t mem[MEM_SIZE];
    struct wlog log[4096];
    unsigned nlog, nreads;
    int print;   /* echo register and memory writes to stdout */
    unsigned bad_access;
    unsigned drain_after;   /* QUEUE_STATUS reads DRAINED from this many reads after QUEUE_CTRL = 0 */
    unsigned status_reads;
    int busy[NQ];           /* frames admitted to the queue still to write: its ring is not idle */
    /* F31: a flow table of FLOW_CAP entries, no hashing: FLOW_STATUS.BUSY for flow_busy reads
     * after a FLOW_CMD write */
    uint32_t flow[4][6];    /* FLOW_KEY0..4, FLOW_VAL */
    unsigned nflow, flow_busy;
} F;
#define FLOW_CAP 4u

static uint32_t f_reg_read(void *ctx, uint32_t off) {
    struct fake *f = ctx;
    f->nreads++;
    if (off % 4 || off >> PRIONIC_ADDR_WIDTH) {
        f->bad_access++;
        return 0;
    }
    if (off >= PRIONIC_QUEUE_STATUS(0) && (off - PRIONIC_QUEUE_STATUS(0)) % PRIONIC_QUEUE_STRIDE == 0) {
        uint32_t q = (off - PRIONIC_QUEUE_STATUS(0)) / PRIONIC_QUEUE_STRIDE;
        if (!(f->regs[PRIONIC_QUEUE_CTRL(q) / 4] & PRIONIC_QUEUE_CTRL_ENABLE_MASK) && ++f->status_reads >= f->drain_after)
            return f->regs[off / 4] | PRIONIC_QUEUE_STATUS_DRAINED_MASK;
    }
    if (off == PRIONIC_FLOW_STATUS && f->flow_busy) {
        f->flow_busy--;
        return f->regs[off / 4] | PRIONIC_FLOW_STATUS_BUSY_MASK;
    }
    return f->regs[off / 4];
}

/* F31: the fake table's answer to FLOW_CMD (docs/flowtable.md s3): FLOW_STATUS.RESULT, FLOW_RVAL */
static void f_flow_cmd(struct fake *f, uint32_t cmd) {
    unsigned i, at = FLOW_CAP;
    uint32_t result, rval = 0;
    for (i = 0; i < f->nflow; i++)
        if (!memcmp(f->flow[i], &f->regs[PRIONIC_FLOW_KEY0 / 4], 5 * sizeof(uint32_t))) at = i;
    if (at < FLOW_CAP) rval = f->flow[at][5];
    if (cmd == PRIONIC_FLOW_CMD_INSERT && at < FLOW_CAP) {
        f->flow[at][5] = f->regs[PRIONIC_FLOW_VAL / 4];
        result = PRIONIC_FLOW_RESULT_UPDATED;
    } else if (cmd == PRIONIC_FLOW_CMD_INSERT && f->nflow == FLOW_CAP) {
        result = PRIONIC_FLOW_RESULT_FULL;
    } else if (cmd == PRIONIC_FLOW_CMD_INSERT) {
        memcpy(f->flow[f->nflow], &f->regs[PRIONIC_FLOW_KEY0 / 4], 5 * sizeof(uint32_t));
        f->flow[f->nflow++][5] = f->regs[PRIONIC_FLOW_VAL / 4];
        result = PRIONIC_FLOW_RESULT_INSERTED;
    } else if (cmd == PRIONIC_FLOW_CMD_DELETE && at < FLOW_CAP) {
        memmove(f->flow[at], f->flow[at + 1], (f->nflow - at - 1) * sizeof f->flow[0]);
        f->nflow--;
        result = PRIONIC_FLOW_RESULT_DELETED;
    } else if (cmd == PRIONIC_FLOW_CMD_FIND && at < FLOW_CAP) {
        result = PRIONIC_FLOW_RESULT_FOUND;
    } else if (cmd == PRIONIC_FLOW_CMD_CLEAR) {
        f->nflow = 0;
        result = PRIONIC_FLOW_RESULT_CLEARED;
    } else {
        result = cmd <= PRIONIC_FLOW_CMD_CLEAR ? PRIONIC_FLOW_RESULT_NOT_FOUND : PRIONIC_FLOW_RESULT_BAD_CMD;
    }
    f->regs[PRIONIC_FLOW_STATUS / 4] = result << PRIONIC_FLOW_STATUS_RESULT_SHIFT;
    f->regs[PRIONIC_FLOW_RVAL / 4] = rval;
    f->regs[PRIONIC_FLOW_USED / 4] = f->nflow;
    f->flow_busy = 2;
}

/* F24, the NIC's refusals of ring register writes (docs/regmap.toml): 1 if the write to
 * offset `reg` (within queue q's block) of `val` is refused */
/* the registers whose accepted write resets the ring (RING_BASE_LO, RING_SIZE, the DMA window) */
static int f_ring_reset_reg(uint32_t reg) {
    return reg == PRIONIC_RING_BASE_LO_OFFSET || reg == PRIONIC_RING_SIZE_OFFSET || reg == PRIONIC_DMA_WIN_LO_OFFSET
        || reg == PRIONIC_DMA_WIN_HI_OFFSET || reg == PRIONIC_DMA_WIN_BITS_OFFSET;
}

static int f_refused(const struct fake *f, unsigned q, uint32_t reg, uint32_t val) {
    uint32_t size = f->regs[PRIONIC_RING_SIZE(q) / 4], head = f->regs[PRIONIC_RING_HEAD(q) / 4];
    uint32_t tail = f->regs[PRIONIC_RING_TAIL(q) / 4];
    int idle = !f->busy[q] && (!(f->regs[PRIONIC_QUEUE_CTRL(q) / 4] & PRIONIC_QUEUE_CTRL_ENABLE_MASK) || size < 2);
    if (reg == PRIONIC_RING_BASE_LO_OFFSET) return !idle || (val & (PRIONIC_DESC_SIZE - 1u));
    if (reg == PRIONIC_RING_BASE_HI_OFFSET || f_ring_reset_reg(reg)) return !idle;
    if (reg == PRIONIC_RING_TAIL_OFFSET)   /* only forward, by at most the free slots */
        return val >= size || (val + size - tail) % size > (head + 2u * size - 1u - tail) % size;
    return 0;
}

static void f_reg_write(void *ctx, uint32_t off, uint32_t val) {
    struct fake *f = ctx;
    if (off % 4 || off >> PRIONIC_ADDR_WIDTH || f->nlog == sizeof f->log / sizeof f->log[0]) {
        f->bad_access++;
        return;
    }
    f->log[f->nlog].off = off;
    f->log[f->nlog++].val = val;
    if (f->print) printf("W 0x%04x 0x%08x\n", (unsigned)off, (unsigned)val);
    if (off >= PRIONIC_QUEUE_BASE && off < PRIONIC_QUEUE_BASE + NQ * PRIONIC_QUEUE_STRIDE) {
        unsigned q = (off - PRIONIC_QUEUE_BASE) / PRIONIC_QUEUE_STRIDE;
        uint32_t reg = (off - PRIONIC_QUEUE_BASE) % PRIONIC_QUEUE_STRIDE;
        if (f_refused(f, q, reg, val)) {   /* nothing changes; flagged and counted */
            f->regs[PRIONIC_QUEUE_STATUS(q) / 4] |= PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK;
            f->regs[PRIONIC_CNT_RING_REFUSED(q) / 4]++;
            return;
        }
        if (f_ring_reset_reg(reg)) {   /* ring reset */
            f->regs[PRIONIC_RING_TAIL(q) / 4] = f->regs[PRIONIC_RING_HEAD(q) / 4] = 0;
            f->regs[PRIONIC_QUEUE_STATUS(q) / 4] &= ~PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK;
        }
    }
    if (off == PRIONIC_IRQ_CAUSE || off == PRIONIC_DMA_STALL)
        f->regs[off / 4] &= ~val;   /* W1C */
    else
        f->regs[off / 4] = val;
    if (off == PRIONIC_FLOW_CMD) f_flow_cmd(f, val);
}

static void f_mem_read(void *ctx, uint64_t addr, void *dst, size_t n) {
    struct fake *f = ctx;
    if (addr > MEM_SIZE || n > MEM_SIZE - addr) {
        f->bad_access++;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, f->mem + addr, n);
}

static void f_mem_write(void *ctx, uint64_t addr, const void *src, size_t n) {
    struct fake *f = ctx;
    size_t i;
    if (addr > MEM_SIZE || n > MEM_SIZE - addr) {
        f->bad_access++;
        return;
    }
    memcpy(f->mem + addr, src, n);
    if (f->print) {
        printf("M 0x%08lx ", (unsigned long)addr);
        for (i = 0; i < n; i++) printf("%02x", ((const uint8_t *)src)[i]);
        printf("\n");
    }
}

static const struct prionic_platform PLAT = {&F, f_reg_read, f_reg_write, f_mem_read, f_mem_write};

static void fake_reset(void) {
    memset(&F, 0, sizeof F);
    memset(F.mem, 0xA5, sizeof F.mem);   /* garbage: init must write what it relies on */
    F.regs[PRIONIC_ID / 4] = PRIONIC_MAP_ID;
    F.regs[PRIONIC_CONFIG / 4] = NQ << PRIONIC_CONFIG_NUM_QUEUES_SHIFT | 4u << PRIONIC_CONFIG_NUM_RULES_SHIFT |
                                 4u << PRIONIC_CONFIG_DATA_BYTES_SHIFT | 1u << PRIONIC_CONFIG_RULES_PER_CYCLE_SHIFT;
    F.regs[PRIONIC_FLOW_TABLE_SETS / 4] = 512u;
}

/* ------------------------------------------------------------------ checks */

static unsigned checks, failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                        \
    } while (0)
#define CHECK_EQ(a, b)                                                                                    \
    do {                                                                                                  \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                  \
        checks++;                                                                                         \
        if (a_ != b_) {                                                                                   \
            failures++;                                                                                   \
            printf("FAIL %s:%d: %s == 0x%llx, expected %s == 0x%llx\n", __FILE__, __LINE__, #a, a_, #b, b_); \
        }                                                                                                 \
    } while (0)

static uint64_t le(uint64_t addr, unsigned n) {
    uint64_t v = 0;
    while (n-- > 0) v = v << 8 | F.mem[addr + n];
    return v;
}

static void put(uint64_t addr, uint64_t v, unsigned n) {
    unsigned i;
    for (i = 0; i < n; i++) F.mem[addr + i] = (uint8_t)(v >> 8 * i);
}

/* index of the first logged write to off at or after entry `from`, or -1 */
static int written_at(uint32_t off, unsigned from) {
    unsigned i;
    for (i = from; i < F.nlog; i++)
        if (F.log[i].off == off) return (int)i;
    return -1;
}

static unsigned writes_to(uint32_t off) {
    unsigned i, n = 0;
    for (i = 0; i < F.nlog; i++) n += F.log[i].off == off;
    return n;
}

static uint64_t ring_base(unsigned q) { return RING_REGION + 0x1000u * q; }
static uint64_t desc(unsigned q, unsigned slot) { return ring_base(q) + (uint64_t)slot * PRIONIC_DESC_SIZE; }
static uint64_t buf(unsigned q, unsigned slot) { return BUF_REGION + 0x40000u * q + (uint64_t)slot * BUF; }

/* the NIC's side of a completion: write-back of frame-path.md s4, DD set */
static void fake_completion(unsigned q, unsigned slot, uint16_t len, uint8_t rule, uint32_t ts, uint32_t info,
                            uint32_t flags) {
    uint64_t d = desc(q, slot);
    put(d + PRIONIC_DESC_LEN_OFFSET, len, 2);
    put(d + PRIONIC_DESC_RULE_OFFSET, rule, 1);
    put(d + PRIONIC_DESC_QUEUE_OFFSET, q, 1);
    put(d + PRIONIC_DESC_TS_OFFSET, ts, 4);
    put(d + PRIONIC_DESC_INFO_OFFSET, info, 4);
    put(d + PRIONIC_DESC_STATUS_OFFSET, PRIONIC_DESC_STATUS_DD_MASK | flags, 4);
    F.regs[PRIONIC_RING_HEAD(q) / 4] = (slot + 1u) % RING;   /* the write-back's B: HEAD moves on */
}

#define MAXC 64
static struct prionic_completion got[MAXC];
static unsigned ngot;

static void on_rx(void *arg, const struct prionic_completion *c) {
    (void)arg;
    if (ngot < MAXC) got[ngot] = *c;
    ngot++;
}

/* ------------------------------------------------------------------ the setup */

/* the same setup as tests/test_c_driver.py gives tb/top/host.py: two rings of 8 with 2048-byte
 * buffers, queue 0 moderated (4 frames, 10 us packet, 20 us absolute, 5 us gap), queue 1
 * immediate; rule 0 UDP 5000 -> queue 1, rule 1 TCP 8000-8100 -> queue 0; TICK_DIV 125 at
 * 125 MHz (1 us ticks); unmatched frames dropped. */
static const struct prionic_rule_cfg RULES[] = {
    {PRIONIC_PROTO_UDP, 5000, 5000, 1},
    {PRIONIC_PROTO_TCP, 8000, 8100, 0},
};

static struct prionic_config setup(struct prionic_queue_cfg qc[NQ]) {
    struct prionic_config cfg;
    unsigned q;
    memset(qc, 0, NQ * sizeof qc[0]);
    for (q = 0; q < NQ; q++) {
        qc[q].ring_base = ring_base(q);
        qc[q].buf_base = buf(q, 0);
        qc[q].ring_size = RING;
        qc[q].buf_size = BUF;
    }
    qc[0].coalesce.rx_frames = 4;
    qc[0].coalesce.rx_usecs = 10;
    qc[0].coalesce.rx_usecs_abs = 20;
    qc[0].coalesce.rx_usecs_gap = 5;
    qc[1].coalesce.immediate = 1;
    memset(&cfg, 0, sizeof cfg);
    cfg.clk_hz = 125000000u;
    cfg.tick_div = 125;
    cfg.default_queue = -1;
    cfg.rules = RULES;
    cfg.num_rules = 2;
    cfg.num_queues = NQ;
    cfg.queues = qc;
    cfg.no_dma_window = 1;   /* as tb/top/host.py (its init writes are compared); test_dma_window sets 0 */
    return cfg;
}

static uint32_t reg(uint32_t off) { return F.regs[off / 4]; }

static void test_init(struct prionic_dev *dev) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    unsigned q, s;
    int rc;

    fake_reset();
    F.print = 1;
    printf("init-log-begin\n");
    rc = prionic_init(dev, &PLAT, &cfg);
    printf("init-log-end\n");
    F.print = 0;
    CHECK_EQ(rc, PRIONIC_OK);
    CHECK_EQ(dev->hw_queues, NQ);
    CHECK_EQ(dev->hw_rules, 4);

    CHECK_EQ(reg(PRIONIC_TICK_DIV), 125);
    CHECK_EQ(written_at(PRIONIC_TICK_DIV, 0), 0);   /* the first write, as tb/top/host.py */
    CHECK_EQ(reg(PRIONIC_DEFAULT_ACTION), 0);
    CHECK(written_at(PRIONIC_DEFAULT_ACTION, 0) >= 0);
    /* rules: RULE_DPORT before RULE_CTRL (ENABLE last) */
    CHECK_EQ(reg(PRIONIC_RULE_DPORT(0)), 5000u | 5000u << 16);
    CHECK_EQ(reg(PRIONIC_RULE_DPORT(1)), 8000u | 8100u << 16);
    CHECK_EQ(reg(PRIONIC_RULE_CTRL(0)), 1u << 0 | 1u << 2 | 1u << 3 | 1u << 8 | 17u << 16);
    CHECK_EQ(reg(PRIONIC_RULE_CTRL(1)), 1u << 0 | 1u << 2 | 1u << 3 | 0u << 8 | 6u << 16);
    CHECK(written_at(PRIONIC_RULE_DPORT(0), 0) < written_at(PRIONIC_RULE_CTRL(0), 0));
    CHECK(writes_to(PRIONIC_RULE_CTRL(2)) == 0 && writes_to(PRIONIC_RULE_CTRL(3)) == 0);

    for (q = 0; q < NQ; q++) {
        int size_at = written_at(PRIONIC_RING_SIZE(q), 0), tail_at = written_at(PRIONIC_RING_TAIL(q), 0);
        CHECK_EQ(reg(PRIONIC_RING_BASE_LO(q)), ring_base(q));
        CHECK_EQ(reg(PRIONIC_RING_BASE_HI(q)), 0);
        CHECK_EQ(reg(PRIONIC_RING_SIZE(q)), RING);
        CHECK_EQ(reg(PRIONIC_BUF_SIZE(q)), BUF);
        CHECK_EQ(reg(PRIONIC_RING_TAIL(q)), RING - 1);   /* every slot but one posted */
        CHECK_EQ(writes_to(PRIONIC_RING_TAIL(q)), 1);
        /* BASE_HI, BASE_LO, SIZE reset HEAD/TAIL: all before the doorbell */
        CHECK(written_at(PRIONIC_RING_BASE_HI(q), 0) < written_at(PRIONIC_RING_BASE_LO(q), 0));
        CHECK(written_at(PRIONIC_RING_BASE_LO(q), 0) < size_at);
        CHECK(size_at >= 0 && tail_at > size_at);
        CHECK_EQ(writes_to(PRIONIC_QUEUE_PRIO(q)), 0);   /* prio 0: reset value kept */
        CHECK_EQ(dev->q[q].head, 0);
        CHECK_EQ(dev->q[q].tail, RING - 1);
        CHECK_EQ(dev->q[q].free, 0);
        for (s = 0; s < RING; s++) {   /* every descriptor: its buffer, the rest 0 */
            unsigned b, zero = 1;
            CHECK_EQ(le(desc(q, s) + PRIONIC_DESC_ADDR_OFFSET, 8), buf(q, s));
            for (b = 8; b < PRIONIC_DESC_SIZE; b++) zero &= F.mem[desc(q, s) + b] == 0;
            CHECK(zero);
        }
        CHECK_EQ(F.mem[desc(q, RING)], 0xA5);   /* nothing past the ring */
    }
    CHECK_EQ(reg(PRIONIC_ITR_FRAMES(0)), 4);
    CHECK_EQ(reg(PRIONIC_ITR_PKT(0)), 10);   /* 1 us ticks: usecs == ticks */
    CHECK_EQ(reg(PRIONIC_ITR_ABS(0)), 20);
    CHECK_EQ(reg(PRIONIC_ITR_GAP(0)), 5);
    CHECK_EQ(reg(PRIONIC_ITR_CTRL(0)), 0);
    CHECK_EQ(reg(PRIONIC_ITR_CTRL(1)), PRIONIC_ITR_CTRL_IMMEDIATE_MASK);
    CHECK_EQ(writes_to(PRIONIC_ITR_PKT(1)), 1);
    CHECK_EQ(F.bad_access, 0);
}

static void test_post_and_reap(struct prionic_dev *dev) {
    unsigned n0 = F.nlog, s, n;
    uint8_t frame[60];

    /* nothing is free right after init: post does nothing, writes nothing */
    CHECK_EQ(prionic_post(dev, 0, 5), 0);
    CHECK_EQ(F.nlog, n0);
    /* no DD anywhere: reap finds nothing, writes nothing */
    CHECK_EQ(prionic_poll(dev, on_rx, NULL), 0);
    CHECK_EQ(F.nlog, n0);

    /* the NIC completes slot 0 of queue 0 and raises irq[0] */
    for (s = 0; s < sizeof frame; s++) frame[s] = (uint8_t)s;
    memcpy(F.mem + buf(0, 0), frame, sizeof frame);
    fake_completion(0, 0, 60, 1, 0x1234, 0x00120000u,
                    PRIONIC_DESC_STATUS_IPV4_MASK | PRIONIC_DESC_STATUS_TCP_MASK | PRIONIC_DESC_STATUS_L4CS_MASK);
    F.regs[PRIONIC_IRQ_CAUSE / 4] = 1;
    F.regs[PRIONIC_IRQ_STATUS / 4] = 1;
    ngot = 0;
    n = prionic_isr(dev, on_rx, NULL);
    CHECK_EQ(n, 1);
    CHECK_EQ(ngot, 1);
    CHECK_EQ(got[0].queue, 0);
    CHECK_EQ(got[0].slot, 0);
    CHECK_EQ(got[0].len, 60);
    CHECK_EQ(got[0].rule, 1);
    CHECK_EQ(got[0].desc_queue, 0);
    CHECK_EQ(got[0].ts, 0x1234);
    CHECK_EQ(got[0].info >> PRIONIC_DESC_INFO_TCP_FLAGS_SHIFT & 0xFF, 0x12);
    CHECK_EQ(got[0].flags, PRIONIC_DESC_STATUS_IPV4_MASK | PRIONIC_DESC_STATUS_TCP_MASK | PRIONIC_DESC_STATUS_L4CS_MASK);
    CHECK_EQ(got[0].err, 0);
    CHECK_EQ(got[0].buf_addr, buf(0, 0));
    CHECK(memcmp(F.mem + got[0].buf_addr, frame, sizeof frame) == 0);
    /* the ISR acknowledged IRQ_CAUSE before reaping, and queue 1 was not touched */
    CHECK_EQ(written_at(PRIONIC_IRQ_CAUSE, n0), (int)n0);
    CHECK_EQ(F.log[n0].val, 1);
    CHECK_EQ(reg(PRIONIC_IRQ_CAUSE), 0);
    /* DD cleared; the reaped slot is kept back, not re-posted (RING_HEAD may still be at
     * slot 0 until its write-back's B: at most RING_SIZE - 2 posted ahead of the head) */
    CHECK_EQ(le(desc(0, 0) + PRIONIC_DESC_STATUS_OFFSET, 4), 0);
    CHECK_EQ(le(desc(0, 0) + PRIONIC_DESC_LEN_OFFSET, 2), 0);
    CHECK_EQ(le(desc(0, 0) + PRIONIC_DESC_ADDR_OFFSET, 8), buf(0, 0));
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(0)), 1);
    CHECK_EQ(reg(PRIONIC_RING_TAIL(0)), 7);
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(1)), 1);
    CHECK_EQ(dev->q[0].head, 1);
    CHECK_EQ(dev->q[0].tail, 7);
    CHECK_EQ(dev->q[0].free, 1);

    /* exactly once: the same interrupt again, and a poll, deliver nothing more */
    n0 = F.nlog;
    F.regs[PRIONIC_IRQ_STATUS / 4] = 1;
    CHECK_EQ(prionic_isr(dev, on_rx, NULL), 0);
    CHECK_EQ(prionic_poll(dev, on_rx, NULL), 0);
    CHECK_EQ(ngot, 1);
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(0)), 1);
    F.regs[PRIONIC_IRQ_STATUS / 4] = 0;
    CHECK_EQ(prionic_isr(dev, on_rx, NULL), 0);   /* no line up: no register write */
    CHECK_EQ(F.nlog, n0 + 1);                     /* only the acknowledge of the first call */

    /* the other six posted slots complete (1..6): reaped in ring order; slot 7 is not
     * posted (tail 7), so a DD there must not be read */
    for (s = 1; s < RING - 1; s++) fake_completion(0, s, (uint16_t)(100 + s), 0, s, 0, PRIONIC_DESC_STATUS_UDP_MASK);
    fake_completion(0, 7, 99, 0, 0, 0, 0);
    F.regs[PRIONIC_RING_HEAD(0) / 4] = 7;   /* a stale DD, no completion: HEAD stays at slot 7 */
    ngot = 0;
    n = prionic_poll(dev, on_rx, NULL);
    CHECK_EQ(n, 6);
    CHECK_EQ(ngot, 6);
    for (s = 0; s < 6 && s < ngot; s++) {
        CHECK_EQ(got[s].slot, s + 1);
        CHECK_EQ(got[s].len, 101 + s);
        CHECK_EQ(got[s].flags, PRIONIC_DESC_STATUS_UDP_MASK);
    }
    /* re-posted from the tail on, one slot kept back: slots 7, 0..4, one doorbell; slot
     * 7's stale DD cleared */
    CHECK_EQ(dev->q[0].head, 7);
    CHECK_EQ(dev->q[0].tail, 5);
    CHECK_EQ(dev->q[0].free, 1);
    CHECK_EQ(reg(PRIONIC_RING_TAIL(0)), 5);
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(0)), 2);
    CHECK_EQ(le(desc(0, 7) + PRIONIC_DESC_STATUS_OFFSET, 4), 0);
    CHECK_EQ(prionic_poll(dev, on_rx, NULL), 0);
    CHECK_EQ(ngot, 6);

    /* reap without re-posting, then post explicitly; prionic_rx_pending sees the next
     * slot's DD, reads memory only, and nothing once it is reaped */
    n0 = F.nlog;
    CHECK_EQ(prionic_rx_pending(dev, 0), 0);
    fake_completion(0, 7, 64, 0, 0, 0, 0);
    CHECK_EQ(prionic_rx_pending(dev, 0), 1);
    CHECK_EQ(prionic_rx_pending(dev, 1), 0);
    CHECK_EQ(prionic_rx_pending(dev, 9), 0);
    CHECK_EQ(F.nlog, n0);
    fake_completion(0, 0, 64, 0, 0, 0, 0);
    CHECK_EQ(prionic_reap_max(dev, 0, on_rx, NULL, 1, 0), 1);   /* a budget of one: slot 7 only */
    CHECK_EQ(dev->q[0].head, 0);
    CHECK_EQ(prionic_rx_pending(dev, 0), 1);
    CHECK_EQ(prionic_reap_max(dev, 0, on_rx, NULL, 0, 0), 0);
    CHECK_EQ(prionic_reap(dev, 0, on_rx, NULL, 0), 1);
    CHECK_EQ(prionic_rx_pending(dev, 0), 0);
    CHECK_EQ(dev->q[0].free, 3);
    CHECK_EQ(dev->q[0].head, 1);
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(0)), 2);
    CHECK_EQ(le(desc(0, 7) + PRIONIC_DESC_STATUS_OFFSET, 4), 0);   /* DD cleared by the reap */
    put(desc(0, 5), 0xDEADBEEF, 8);   /* the host's own slot: post must rewrite it */
    put(desc(0, 5) + PRIONIC_DESC_STATUS_OFFSET, PRIONIC_DESC_STATUS_DD_MASK, 4);
    CHECK_EQ(prionic_post(dev, 0, 5), 2);   /* what was reaped but one: slots 5 and 6 */
    CHECK_EQ(reg(PRIONIC_RING_TAIL(0)), 7);
    CHECK_EQ(writes_to(PRIONIC_RING_TAIL(0)), 3);
    CHECK_EQ(le(desc(0, 5), 8), buf(0, 5));
    CHECK_EQ(le(desc(0, 5) + PRIONIC_DESC_STATUS_OFFSET, 4), 0);
    CHECK_EQ(dev->q[0].free, 1);
    CHECK_EQ(prionic_post(dev, 0, 1), 0);
    CHECK_EQ(F.bad_access, 0);
}

static void test_rules_and_coalesce(struct prionic_dev *dev) {
    struct prionic_coalesce c;
    unsigned n0 = F.nlog;
    CHECK_EQ(prionic_rule_l4_dport(dev, 3, PRIONIC_PROTO_UDP, 53, 53, 1), PRIONIC_OK);
    CHECK_EQ(reg(PRIONIC_RULE_DPORT(3)), 53u | 53u << PRIONIC_RULE_DPORT_HI_SHIFT);
    CHECK_EQ(reg(PRIONIC_RULE_CTRL(3)) & PRIONIC_RULE_CTRL_QUEUE_MASK, 1u << PRIONIC_RULE_CTRL_QUEUE_SHIFT);
    CHECK_EQ(reg(PRIONIC_RULE_CTRL(3)) & PRIONIC_RULE_CTRL_PROTO_MASK, 17u << PRIONIC_RULE_CTRL_PROTO_SHIFT);
    CHECK_EQ(prionic_rule_l4_dport(dev, 4, PRIONIC_PROTO_UDP, 1, 1, 0), PRIONIC_EINVAL);   /* NUM_RULES 4 */
    CHECK_EQ(prionic_rule_l4_dport(dev, 0, PRIONIC_PROTO_UDP, 1, 1, NQ), PRIONIC_EINVAL);
    CHECK_EQ(prionic_rule_l4_dport(dev, 0, PRIONIC_PROTO_UDP, 9, 8, 0), PRIONIC_EINVAL);
    CHECK_EQ(F.nlog, n0 + 2);
    CHECK_EQ(prionic_rule_disable(dev, 3), PRIONIC_OK);
    CHECK_EQ(reg(PRIONIC_RULE_CTRL(3)), 0);

    /* microseconds -> ticks (rounded up, clamped to 16 bits) */
    CHECK_EQ(prionic_usecs_to_ticks(dev, 0), 0);
    CHECK_EQ(prionic_usecs_to_ticks(dev, 1), 1);
    CHECK_EQ(prionic_usecs_to_ticks(dev, 65535), 65535);
    CHECK_EQ(prionic_usecs_to_ticks(dev, 100000), 0xFFFF);
    dev->tick_div = 250;   /* 2 us ticks */
    CHECK_EQ(prionic_usecs_to_ticks(dev, 3), 2);
    CHECK_EQ(prionic_usecs_to_ticks(dev, 4), 2);
    CHECK_EQ(prionic_usecs_to_ticks(dev, 1), 1);
    dev->tick_div = 0;     /* counts as 1: 8 ns ticks */
    CHECK_EQ(prionic_usecs_to_ticks(dev, 3), 375);
    dev->tick_div = 125;
    memset(&c, 0, sizeof c);
    c.rx_usecs = 50;
    c.rx_frames = 70000;   /* clamped */
    CHECK_EQ(prionic_set_coalesce(dev, 1, &c), PRIONIC_OK);
    CHECK_EQ(reg(PRIONIC_ITR_PKT(1)), 50);
    CHECK_EQ(reg(PRIONIC_ITR_FRAMES(1)), 0xFFFF);
    CHECK_EQ(reg(PRIONIC_ITR_CTRL(1)), 0);
    CHECK_EQ(prionic_set_coalesce(dev, NQ, &c), PRIONIC_EINVAL);
}

static void test_init_errors(void) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    struct prionic_dev dev;

    fake_reset();
    F.regs[PRIONIC_ID / 4] = 0;
    CHECK_EQ(prionic_init(&dev, &PLAT, &cfg), PRIONIC_ENODEV);
    CHECK_EQ(F.nlog, 0);

    fake_reset();
    cfg.num_queues = NQ + 1;   /* more than CONFIG says */
    CHECK_EQ(prionic_init(&dev, &PLAT, &cfg), PRIONIC_ERANGE);
    cfg.num_queues = NQ;
    qc[1].ring_base += 8;      /* not 32-byte aligned */
    CHECK_EQ(prionic_init(&dev, &PLAT, &cfg), PRIONIC_EINVAL);
    CHECK_EQ(F.nlog, 0);       /* checked before any write */

    fake_reset();
    cfg = setup(qc);
    qc[1].prio = 9;
    CHECK_EQ(prionic_init(&dev, &PLAT, &cfg), PRIONIC_OK);
    CHECK_EQ(reg(PRIONIC_QUEUE_PRIO(1)), 9);
    CHECK_EQ(writes_to(PRIONIC_QUEUE_PRIO(0)), 0);
    CHECK(written_at(PRIONIC_QUEUE_PRIO(1), 0) < written_at(PRIONIC_RING_TAIL(1), 0));
}

/* F24 recovery (docs/faults.md section 3): queue 1 stopped by a DATA_ERR with three
 * write-backs in memory but RING_HEAD at 2 (the third landed, its B was lost). */
static void test_recover(struct prionic_dev *dev) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    unsigned start, i;
    fake_reset();
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    for (i = 0; i < NQ; i++) F.regs[PRIONIC_QUEUE_CTRL(i) / 4] = PRIONIC_QUEUE_CTRL_ENABLE_MASK;   /* reset value */
    fake_completion(1, 0, 60, 0, 10, 0, 0);
    fake_completion(1, 1, 0, 0, 20, 0, PRIONIC_DESC_STATUS_ERR_MASK);   /* the DATA_ERR write-back */
    fake_completion(1, 2, 60, 0, 30, 0, 0);                              /* landed, not completed */
    F.regs[PRIONIC_RING_HEAD(1) / 4] = 2;
    F.regs[PRIONIC_QUEUE_STATUS(1) / 4] = 2;          /* ERR = DATA_ERR */
    F.regs[PRIONIC_DMA_ERR_STATUS / 4] = 1u << 1;
    CHECK_EQ(prionic_dma_errors(dev), 2);
    CHECK_EQ(prionic_queue_error(dev, 1), 2);
    CHECK_EQ(prionic_queue_error(dev, 0), 0);

    F.drain_after = 5;
    F.status_reads = 0;
    CHECK_EQ(prionic_queue_recover(dev, 1, on_rx, NULL, 3), PRIONIC_EBUSY);   /* not drained in 3 reads */
    CHECK_EQ(reg(PRIONIC_QUEUE_CTRL(1)), 0);                                    /* left disabled */

    start = F.nlog;
    ngot = 0;
    F.status_reads = 0;
    CHECK_EQ(prionic_queue_recover(dev, 1, on_rx, NULL, 100), PRIONIC_OK);
    CHECK_EQ(F.status_reads, 5);
    CHECK_EQ(ngot, 2);                                 /* up to RING_HEAD, not the third */
    CHECK_EQ(got[0].slot, 0);
    CHECK_EQ(got[1].slot, 1);
    CHECK(got[1].err && got[1].len == 0);
    /* the order of docs/faults.md: disable first, ring registers, doorbell, enable last */
    CHECK(written_at(PRIONIC_QUEUE_CTRL(1), start) == (int)start);
    CHECK(written_at(PRIONIC_RING_BASE_HI(1), start) < written_at(PRIONIC_RING_BASE_LO(1), start));
    CHECK(written_at(PRIONIC_RING_BASE_LO(1), start) < written_at(PRIONIC_RING_SIZE(1), start));
    CHECK(written_at(PRIONIC_RING_SIZE(1), start) < written_at(PRIONIC_RING_TAIL(1), start));
    CHECK(written_at(PRIONIC_RING_TAIL(1), start) < written_at(PRIONIC_QUEUE_CTRL(1), start + 1));
    CHECK_EQ(F.log[F.nlog - 1].off, PRIONIC_QUEUE_CTRL(1));
    CHECK_EQ(F.log[F.nlog - 1].val, PRIONIC_QUEUE_CTRL_ENABLE_MASK);
    CHECK_EQ(reg(PRIONIC_RING_TAIL(1)), RING - 1);
    CHECK_EQ(writes_to(PRIONIC_QUEUE_CTRL(0)), 0);     /* the other queue is not touched */
    for (i = 0; i < RING; i++) {                       /* every descriptor rewritten, DD clear */
        CHECK_EQ(le(desc(1, i), 8), buf(1, i));
        CHECK_EQ(le(desc(1, i) + PRIONIC_DESC_STATUS_OFFSET, 4), 0);
    }
    CHECK_EQ(dev->q[1].head, 0);
    CHECK_EQ(dev->q[1].tail, RING - 1);
    CHECK_EQ(dev->q[1].free, 0);
    CHECK_EQ(prionic_queue_recover(dev, NQ, on_rx, NULL, 100), PRIONIC_EINVAL);

    /* WB_ERR with the next frame already on the bus: slot 1's write-back got DECERR (not in
     * memory), slot 2 completed after it with DD|ERR; HEAD is 3. Reaping skips the lost
     * slot 1 and still reads slot 2 (docs/faults.md section 3, step 3). */
    fake_completion(1, 0, 60, 0, 10, 0, 0);
    fake_completion(1, 2, 0, 0, 30, 0, PRIONIC_DESC_STATUS_ERR_MASK);
    fake_completion(1, 3, 60, 0, 40, 0, 0);                              /* landed, not completed */
    F.regs[PRIONIC_RING_HEAD(1) / 4] = 3;
    F.regs[PRIONIC_QUEUE_STATUS(1) / 4] = 3;          /* ERR = WB_ERR */
    ngot = 0;
    F.status_reads = 0;
    CHECK_EQ(prionic_queue_recover(dev, 1, on_rx, NULL, 100), PRIONIC_OK);
    CHECK_EQ(ngot, 2);
    CHECK_EQ(got[0].slot, 0);
    CHECK_EQ(got[1].slot, 2);
    CHECK(got[1].err && got[1].len == 0);
    CHECK_EQ(dev->q[1].head, 0);
    CHECK_EQ(dev->q[1].free, 0);
}

/* F24: the fake refuses what the NIC refuses, and the driver sees it: a doorbell taking back
 * posted slots and an unaligned RING_BASE_LO change nothing and set RING_REFUSED; ring setup
 * reads the ring registers back (PRIONIC_EREFUSED); the ISR records a refused doorbell. */
static void test_ring_refused(struct prionic_dev *dev) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    uint32_t refused = PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK;
    fake_reset();
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    CHECK_EQ(prionic_ring_refused(dev, NQ), 0);
    CHECK_EQ(prionic_ring_refused(dev, 0), 0);
    /* (a) TAIL 7, HEAD 0: a doorbell back to 2 would un-post slots 2..6 */
    f_reg_write(&F, PRIONIC_RING_TAIL(0), 2);
    CHECK_EQ(reg(PRIONIC_RING_TAIL(0)), RING - 1);
    CHECK(reg(PRIONIC_QUEUE_STATUS(0)) & refused);
    CHECK_EQ(reg(PRIONIC_CNT_RING_REFUSED(0)), 1);
    CHECK_EQ(prionic_ring_refused(dev, 0), 1);
    CHECK_EQ(prionic_ring_refused(dev, 1), 0);
    /* (b) an unaligned base, queue idle: refused, no ring reset */
    f_reg_write(&F, PRIONIC_QUEUE_CTRL(1), 0);
    f_reg_write(&F, PRIONIC_RING_BASE_LO(1), (uint32_t)ring_base(1) + 0x13u);
    CHECK_EQ(reg(PRIONIC_RING_BASE_LO(1)), ring_base(1));
    CHECK_EQ(reg(PRIONIC_RING_TAIL(1)), RING - 1);
    CHECK(reg(PRIONIC_QUEUE_STATUS(1)) & refused);
    /* the recovery's ring reset clears the flag */
    F.drain_after = 0;
    CHECK_EQ(prionic_queue_recover(dev, 1, on_rx, NULL, 100), PRIONIC_OK);
    CHECK_EQ(reg(PRIONIC_QUEUE_STATUS(1)) & refused, 0);
    CHECK_EQ(reg(PRIONIC_CNT_RING_REFUSED(1)), 1);
    /* ring setup reads back: a queue the NIC does not see idle keeps its old ring */
    F.busy[1] = 1;
    qc[1].ring_base = ring_base(1) + 0x800u;
    dev->q[1].cfg.ring_base = qc[1].ring_base;
    CHECK_EQ(prionic_queue_recover(dev, 1, on_rx, NULL, 100), PRIONIC_EREFUSED);
    CHECK_EQ(reg(PRIONIC_RING_BASE_LO(1)), ring_base(1));
    CHECK_EQ(reg(PRIONIC_QUEUE_CTRL(1)) & PRIONIC_QUEUE_CTRL_ENABLE_MASK, 0);   /* left disabled */
    fake_reset();
    F.busy[0] = 1;
    cfg = setup(qc);
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_EREFUSED);
    /* the ISR path: slot 0's write-back landed (DD) but HEAD has not moved on yet: the
     * driver keeps the reaped slot back, so no doorbell is refused (docs/faults.md s1) */
    fake_reset();
    cfg = setup(qc);
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    fake_completion(0, 0, 60, 0, 10, 0, 0);
    F.regs[PRIONIC_RING_HEAD(0) / 4] = 0;
    F.regs[PRIONIC_IRQ_STATUS / 4] = 1;
    ngot = 0;
    CHECK_EQ(prionic_isr(dev, on_rx, NULL), 1);
    CHECK_EQ(reg(PRIONIC_RING_TAIL(0)), RING - 1);
    CHECK_EQ(prionic_isr(dev, on_rx, NULL), 0);
    CHECK_EQ(prionic_ring_refused(dev, NQ), 0);
    /* a doorbell refused all the same (a driver bug elsewhere): the next interrupt's
     * QUEUE_STATUS read records it */
    F.regs[PRIONIC_QUEUE_STATUS(0) / 4] |= PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK;
    F.regs[PRIONIC_IRQ_STATUS / 4] = 1;
    CHECK_EQ(prionic_isr(dev, on_rx, NULL), 0);
    CHECK_EQ(prionic_ring_refused(dev, NQ), 1);
}

/* F24: the stall status is read, and cleared by writing back only the bits read (W1C). */
static void test_stall(struct prionic_dev *dev) {
    unsigned n0;
    F.regs[PRIONIC_DMA_STALL / 4] = 0;
    n0 = F.nlog;
    CHECK_EQ(prionic_dma_stall(dev, 1), 0);
    CHECK_EQ(F.nlog, n0);                               /* nothing set: no write */
    F.regs[PRIONIC_DMA_STALL / 4] = PRIONIC_DMA_STALL_READ_MASK;
    CHECK_EQ(prionic_dma_stall(dev, 0), PRIONIC_DMA_STALL_READ_MASK);
    CHECK_EQ(F.nlog, n0);                               /* read only */
    CHECK_EQ(prionic_dma_stall(dev, 1), PRIONIC_DMA_STALL_READ_MASK);
    CHECK_EQ(F.nlog, n0 + 1);
    CHECK_EQ(F.log[n0].off, PRIONIC_DMA_STALL);
    CHECK_EQ(F.log[n0].val, PRIONIC_DMA_STALL_READ_MASK);
    CHECK_EQ(reg(PRIONIC_DMA_STALL), 0);
    F.regs[PRIONIC_DMA_STALL / 4] = PRIONIC_DMA_STALL_WRITE_MASK | PRIONIC_DMA_STALL_READ_MASK;
    CHECK_EQ(prionic_dma_stall(dev, 1), PRIONIC_DMA_STALL_WRITE_MASK | PRIONIC_DMA_STALL_READ_MASK);
    CHECK_EQ(reg(PRIONIC_DMA_STALL), 0);
}

/* F24: with no_dma_window 0 the driver programs each queue's DMA window: the smallest
 * naturally aligned region holding its ring and buffers, read back; before the ring. */
static void test_dma_window(struct prionic_dev *dev) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    unsigned q;
    cfg.no_dma_window = 0;
    fake_reset();
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    for (q = 0; q < NQ; q++) {
        uint64_t lo = ring_base(q) < buf(q, 0) ? ring_base(q) : buf(q, 0);
        uint64_t hi = ring_base(q) + RING * 32u > buf(q, RING) ? ring_base(q) + RING * 32u : buf(q, RING);
        uint32_t bits = reg(PRIONIC_DMA_WIN_BITS(q));
        uint64_t base = (uint64_t)reg(PRIONIC_DMA_WIN_HI(q)) << 32 | reg(PRIONIC_DMA_WIN_LO(q));
        CHECK(bits < 64);
        CHECK_EQ(lo >> bits, base >> bits);                 /* the ring and the buffers inside */
        CHECK_EQ((hi - 1u) >> bits, base >> bits);
        CHECK((lo >> (bits - 1u)) != ((hi - 1u) >> (bits - 1u)));   /* and no smaller one */
        CHECK(written_at(PRIONIC_DMA_WIN_BITS(q), 0) < written_at(PRIONIC_RING_BASE_LO(q), 0));
    }
    /* a window the NIC refuses (queue not idle): init fails */
    fake_reset();
    F.busy[1] = 1;
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_EREFUSED);
}

/* F31: the flow table calls: the key words (printed for tests/test_c_driver.py to compare with
 * the model's flow key), the value, each answer, words not written twice, polling, no table */
static void test_flow_table(struct prionic_dev *dev) {
    struct prionic_queue_cfg qc[NQ];
    struct prionic_config cfg = setup(qc);
    struct prionic_flow f = {0x0A000002u, 0xC0A80101u, 40000u, 5000u, PRIONIC_PROTO_UDP};
    uint32_t key[5];
    uint16_t val = 0;
    unsigned i, n0;
    fake_reset();
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    prionic_flow_key(&f, key);
    printf("flow-key 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x\n", (unsigned)key[0], (unsigned)key[1], (unsigned)key[2],
           (unsigned)key[3], (unsigned)key[4]);
    CHECK_EQ(prionic_flow_add(dev, &f, 1, 0, 2, 10), PRIONIC_OK);
    for (i = 0; i < 5; i++) CHECK_EQ(reg(PRIONIC_FLOW_KEY0 + 4u * i), key[i]);
    CHECK_EQ(reg(PRIONIC_FLOW_VAL), 1u << PRIONIC_FLOW_VAL_QUEUE_SHIFT | PRIONIC_FLOW_VAL_RULE_VALID_MASK |
                                        2u << PRIONIC_FLOW_VAL_RULE_SHIFT);
    CHECK_EQ(reg(PRIONIC_FLOW_CMD), PRIONIC_FLOW_CMD_INSERT);
    n0 = F.nlog;
    CHECK_EQ(prionic_flow_find(dev, &f, &val, 10), PRIONIC_OK);   /* FIND: only FLOW_CMD is written */
    CHECK_EQ(F.nlog, n0 + 1);
    CHECK_EQ(val, reg(PRIONIC_FLOW_VAL));
    CHECK_EQ(prionic_flow_add(dev, &f, 0, 1, PRIONIC_FLOW_NO_RULE, 10), PRIONIC_OK);   /* UPDATED */
    CHECK_EQ(reg(PRIONIC_FLOW_VAL), PRIONIC_FLOW_VAL_DROP_MASK);
    CHECK_EQ(prionic_flow_add(dev, &f, 0, 0, 4, 10), PRIONIC_EINVAL);                 /* rule beyond the build */
    for (i = 1; i < FLOW_CAP; i++) {
        f.sport = (uint16_t)(40000u + i);
        CHECK_EQ(prionic_flow_add(dev, &f, 0, 0, PRIONIC_FLOW_NO_RULE, 10), PRIONIC_OK);
    }
    f.sport = 1;
    CHECK_EQ(prionic_flow_add(dev, &f, 0, 0, PRIONIC_FLOW_NO_RULE, 10), PRIONIC_EFULL);
    CHECK_EQ(prionic_flow_del(dev, &f, 10), PRIONIC_ENOENT);
    f.sport = 40001;
    CHECK_EQ(prionic_flow_del(dev, &f, 10), PRIONIC_OK);
    CHECK_EQ(prionic_flow_find(dev, &f, &val, 10), PRIONIC_ENOENT);
    CHECK_EQ(reg(PRIONIC_FLOW_USED), FLOW_CAP - 1);
    F.flow_busy = 5;                                            /* still busy after 3 reads: gives up */
    CHECK_EQ(prionic_flow_del(dev, &f, 3), PRIONIC_EBUSY);
    F.flow_busy = 0;
    CHECK_EQ(prionic_flow_clear(dev, 10), PRIONIC_OK);
    CHECK_EQ(F.nflow, 0);
    F.regs[PRIONIC_FLOW_TABLE_SETS / 4] = 0;                    /* a build without the table */
    CHECK_EQ(prionic_init(dev, &PLAT, &cfg), PRIONIC_OK);
    n0 = F.nlog;
    CHECK_EQ(prionic_flow_add(dev, &f, 0, 0, PRIONIC_FLOW_NO_RULE, 10), PRIONIC_ERANGE);
    CHECK_EQ(F.nlog, n0);
}

int main(void) {
    static struct prionic_dev dev;
    test_init(&dev);
    test_post_and_reap(&dev);
    test_rules_and_coalesce(&dev);
    test_init_errors();
    test_recover(&dev);
    test_ring_refused(&dev);
    test_stall(&dev);
    test_dma_window(&dev);
    test_flow_table(&dev);
    if (failures) {
        printf("selftest: %u of %u checks FAILED\n", failures, checks);
        return 1;
    }
    printf("selftest: ok, %u checks\n", checks);
    return 0;
}
