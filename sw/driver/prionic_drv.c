/* SPDX-License-Identifier: MIT */
/*
 * sw/driver/prionic_drv.c: a small C99 host driver for one prionic NIC (F27; rings:
 * F12, docs/frame-path.md section 4; moderation: docs/timing.md sections 4-6).
 * See prionic_drv.h. Only prionic_regs.h (generated from docs/regmap.toml) and libc.
 *
 * The register sequence is tb/top/host.py's (HostDriver.configure, reap, _isr, _return),
 * the one the cocotb tests run against the RTL; the descriptor walk is HostDriver.reap.
 */
#include "prionic_drv.h"

#include <string.h>

/* ------------------------------------------------------------------ platform access */

static uint32_t rd32(struct prionic_dev *dev, uint32_t off) { return dev->plat.reg_read(dev->plat.ctx, off); }

static void wr32(struct prionic_dev *dev, uint32_t off, uint32_t v) { dev->plat.reg_write(dev->plat.ctx, off, v); }

/* Little-endian 32-bit words of descriptors, in 32-bit arithmetic (on a 32-bit core a
 * 64-bit shift is a libgcc call): a plain load or store on a little-endian host (a small
 * core's shifter may take a cycle per bit position; the reap loop runs these for every
 * frame), the bytes one by one elsewhere (or with PRIONIC_DRV_BYTEWISE defined). */
#if !defined(PRIONIC_DRV_BYTEWISE) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PRIONIC_DRV_LE 1
#else
#define PRIONIC_DRV_LE 0
#endif

/* the write-back's words are read as words: its 32-bit fields, and LEN, start on a word */
typedef char prionic_drv_wb_words[((PRIONIC_DESC_WRITEBACK_OFFSET | PRIONIC_DESC_LEN_OFFSET | PRIONIC_DESC_TS_OFFSET |
                                    PRIONIC_DESC_INFO_OFFSET | PRIONIC_DESC_STATUS_OFFSET) % 4u == 0) ? 1 : -1];

static uint32_t load_le32(const uint32_t *w) {
#if PRIONIC_DRV_LE
    return *w;
#else
    const uint8_t *p = (const uint8_t *)w;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static void store_le32(uint32_t *w, uint32_t v) {
#if PRIONIC_DRV_LE
    *w = v;
#else
    uint8_t *p = (uint8_t *)w;
    unsigned i;
    for (i = 0; i < 4; i++, v >>= 8) p[i] = (uint8_t)v;
#endif
}

static uint32_t field(uint32_t v, uint32_t mask, unsigned shift) { return (v & mask) >> shift; }

/* slot < 2^16 and buf_size < 2^16: the offsets fit 32 bits (a 64-bit multiply is a libgcc
 * call or three multiplies on a 32-bit core) */
static uint64_t desc_addr(const struct prionic_queue *q, unsigned slot) {
    return q->cfg.ring_base + (uint32_t)slot * PRIONIC_DESC_SIZE;
}

static uint64_t buf_addr(const struct prionic_queue *q, unsigned slot) {
    return q->cfg.buf_base + (uint32_t)slot * q->cfg.buf_size;
}

/* the slot after `slot` (a compare, not a divide: a small core divides a bit a cycle) */
static uint16_t next_slot(const struct prionic_queue *q, unsigned slot) {
    return (uint16_t)(slot + 1u >= q->cfg.ring_size ? 0u : slot + 1u);
}

/* Host part of a descriptor: the buffer address, reserved bytes and the whole write-back
 * 0 (DD clear), as tb/top/host.py writes it: struct.pack("<QQ", buf, 0) + bytes(16). */
static void desc_fill(struct prionic_dev *dev, struct prionic_queue *q, unsigned slot) {
    uint32_t words[PRIONIC_DESC_SIZE / 4];   /* word-aligned: a platform copies it word by word */
    uint64_t buf = buf_addr(q, slot);
    unsigned i;
    for (i = 0; i < PRIONIC_DESC_SIZE / 4; i++) words[i] = 0;
    store_le32(&words[PRIONIC_DESC_ADDR_OFFSET / 4], (uint32_t)buf);
    store_le32(&words[PRIONIC_DESC_ADDR_OFFSET / 4 + 1], (uint32_t)(buf >> 32));
    dev->plat.mem_write(dev->plat.ctx, desc_addr(q, slot), words, sizeof words);
}

/* ------------------------------------------------------------------ moderation */

/* Microseconds -> ticks. A tick is max(TICK_DIV, 1) cycles of clk_hz (timing.md s4).
 * Rounding: up, N = ceil(usecs * clk_hz / (1e6 * TICK_DIV)), so a non-zero time never
 * becomes 0 (which would disable the timer), and clamped to 0xFFFF (16-bit registers).
 * A timer loaded with N expires at the N-th tick strictly after the completion
 * (timing.md s5, "Timer lengths"): between (N-1)*TICK_DIV + 1 and N*TICK_DIV cycles
 * later, depending on where the prescaler stands. So the longest delay is at least the
 * asked time and the shortest at most one tick less. With TICK_DIV = cycles per
 * microsecond (125 at 125 MHz, the reset value) N equals usecs: ethtool's units. */
uint16_t prionic_usecs_to_ticks(const struct prionic_dev *dev, uint32_t usecs) {
    uint64_t num = (uint64_t)usecs * dev->clk_hz;   /* < 2^64: both factors < 2^32 */
    uint64_t den = 1000000u * (uint64_t)(dev->tick_div ? dev->tick_div : 1u);
    uint64_t ticks = num / den + (num % den != 0);
    return (uint16_t)(ticks > 0xFFFFu ? 0xFFFFu : ticks);
}

int prionic_set_coalesce(struct prionic_dev *dev, unsigned q, const struct prionic_coalesce *c) {
    if (q >= dev->num_queues) return PRIONIC_EINVAL;
    dev->q[q].cfg.coalesce = *c;
    /* tb/top/host.py order: FRAMES, PKT, ABS, GAP, then CTRL */
    wr32(dev, PRIONIC_ITR_FRAMES(q), c->rx_frames > 0xFFFFu ? 0xFFFFu : c->rx_frames);
    wr32(dev, PRIONIC_ITR_PKT(q), prionic_usecs_to_ticks(dev, c->rx_usecs));
    wr32(dev, PRIONIC_ITR_ABS(q), prionic_usecs_to_ticks(dev, c->rx_usecs_abs));
    wr32(dev, PRIONIC_ITR_GAP(q), prionic_usecs_to_ticks(dev, c->rx_usecs_gap));
    wr32(dev, PRIONIC_ITR_CTRL(q), c->immediate ? PRIONIC_ITR_CTRL_IMMEDIATE_MASK : 0u);
    return PRIONIC_OK;
}

/* ------------------------------------------------------------------ rules (F5) */

int prionic_rule_l4_dport(struct prionic_dev *dev, unsigned rule, unsigned proto, uint16_t lo, uint16_t hi,
                          unsigned queue) {
    uint32_t ctrl;
    if (rule >= dev->hw_rules || queue >= dev->hw_queues || lo > hi ||
        proto > (PRIONIC_RULE_CTRL_PROTO_MASK >> PRIONIC_RULE_CTRL_PROTO_SHIFT))
        return PRIONIC_EINVAL;
    /* as tb/top/env.py rule_ctrl(queue, proto, dport=True) */
    ctrl = PRIONIC_RULE_CTRL_ENABLE_MASK | PRIONIC_RULE_CTRL_MATCH_PROTO_MASK | PRIONIC_RULE_CTRL_MATCH_DPORT_MASK |
           ((uint32_t)queue << PRIONIC_RULE_CTRL_QUEUE_SHIFT & PRIONIC_RULE_CTRL_QUEUE_MASK) |
           ((uint32_t)proto << PRIONIC_RULE_CTRL_PROTO_SHIFT & PRIONIC_RULE_CTRL_PROTO_MASK);
    wr32(dev, PRIONIC_RULE_DPORT(rule),
         (uint32_t)lo << PRIONIC_RULE_DPORT_LO_SHIFT | (uint32_t)hi << PRIONIC_RULE_DPORT_HI_SHIFT);
    wr32(dev, PRIONIC_RULE_CTRL(rule), ctrl);   /* ENABLE last: never a half-written rule */
    return PRIONIC_OK;
}

int prionic_rule_disable(struct prionic_dev *dev, unsigned rule) {
    if (rule >= dev->hw_rules) return PRIONIC_EINVAL;
    wr32(dev, PRIONIC_RULE_CTRL(rule), 0);
    return PRIONIC_OK;
}

/* ------------------------------------------------------------------ rings (F12) */

unsigned prionic_post(struct prionic_dev *dev, unsigned qi, unsigned n) {
    struct prionic_queue *q;
    unsigned i;
    if (qi >= dev->num_queues) return 0;
    q = &dev->q[qi];
    /* one reaped slot stays back: RING_HEAD moves at the write-back's B, which can come
     * after the DD this driver reaps by, so HEAD may be one slot behind the driver's head
     * (at most one write-back is owed at a time); at most RING_SIZE - 2 slots posted ahead
     * of the driver's head are never more than RING_SIZE - 1 from HEAD (docs/faults.md s1) */
    if (n + 1u > q->free) n = q->free ? q->free - 1u : 0u;
    if (n == 0) return 0;
    for (i = 0; i < n; i++) {
        desc_fill(dev, q, q->tail);
        q->tail = next_slot(q, q->tail);
    }
    q->free = (uint16_t)(q->free - n);
    wr32(dev, PRIONIC_RING_TAIL(qi), q->tail);   /* the doorbell, after the descriptors */
    return n;
}

/* walk queue qi from the driver's head while DD is set, stopping at slot `stop` (-1: never).
 * With a `stop` (RING_HEAD, recovery) every slot before it is completed: one without DD is
 * a write-back lost to a WB_ERR (the slot that B answered; with the next frame already
 * being written it need not be HEAD - 1, docs/faults.md): it is skipped, not reported. */
static unsigned reap_until(struct prionic_dev *dev, unsigned qi, prionic_rx_fn cb, void *arg, long stop,
                           unsigned max) {
    static const uint32_t zero[PRIONIC_DESC_WRITEBACK_SIZE / 4] = {0};
    struct prionic_queue *q = &dev->q[qi];
    unsigned n = 0;
    while (q->cfg.ring_size >= 2 && q->free < q->cfg.ring_size - 1u && (long)q->head != stop && n < max) {
        unsigned slot = q->head;
        uint64_t d = desc_addr(q, slot);
        uint32_t wb_words[PRIONIC_DESC_WRITEBACK_SIZE / 4];   /* word-aligned, as in desc_fill */
        uint8_t *wb = (uint8_t *)wb_words;
        struct prionic_completion c;
        uint32_t status;
        /* DD first: it is in the last byte the NIC writes, so once it is set the whole
         * write-back is (frame-path.md s4); a real platform's mem_read orders the reads */
        dev->plat.mem_read(dev->plat.ctx, d + PRIONIC_DESC_STATUS_OFFSET, wb, 4);
        status = load_le32(wb_words);
        if (!(status & PRIONIC_DESC_STATUS_DD_MASK)) {
            if (stop < 0) break;
            q->head = next_slot(q, slot);   /* lost write-back */
            q->free++;
            continue;
        }
        dev->plat.mem_read(dev->plat.ctx, d + PRIONIC_DESC_WRITEBACK_OFFSET, wb, sizeof wb_words);
#define WB(key) (wb + (PRIONIC_DESC_##key##_OFFSET - PRIONIC_DESC_WRITEBACK_OFFSET))
#define WBW(key) (&wb_words[(PRIONIC_DESC_##key##_OFFSET - PRIONIC_DESC_WRITEBACK_OFFSET) / 4])
        c.queue = qi;
        c.slot = slot;
        c.buf_addr = buf_addr(q, slot);
        c.len = (uint16_t)load_le32(WBW(LEN));   /* the low half of its word (LEN_OFFSET % 4 == 0) */
        c.rule = *WB(RULE);
        c.desc_queue = *WB(QUEUE);
        c.ts = load_le32(WBW(TS));
        c.info = load_le32(WBW(INFO));
        c.status = status;
        c.flags = (uint8_t)(status & PRIONIC_DESC_STATUS_FLAGS_MASK);
        c.err = (status & PRIONIC_DESC_STATUS_ERR_MASK) != 0;
#undef WB
#undef WBW
        if (cb) cb(arg, &c);
        /* the host owns the slot again: clear its write-back (DD), as tb/top/host.py */
        dev->plat.mem_write(dev->plat.ctx, d + PRIONIC_DESC_WRITEBACK_OFFSET, zero, sizeof zero);
        q->head = next_slot(q, slot);
        q->free++;
        n++;
    }
    return n;
}

unsigned prionic_reap_max(struct prionic_dev *dev, unsigned qi, prionic_rx_fn cb, void *arg, unsigned max,
                          int repost) {
    unsigned n;
    if (qi >= dev->num_queues) return 0;
    n = reap_until(dev, qi, cb, arg, -1, max);
    if (repost && n) prionic_post(dev, qi, n);   /* one RING_TAIL write for all of them */
    return n;
}

unsigned prionic_reap(struct prionic_dev *dev, unsigned qi, prionic_rx_fn cb, void *arg, int repost) {
    return prionic_reap_max(dev, qi, cb, arg, ~0u, repost);
}

int prionic_rx_pending(struct prionic_dev *dev, unsigned qi) {
    struct prionic_queue *q;
    uint32_t w;
    if (qi >= dev->num_queues) return 0;
    q = &dev->q[qi];
    if (q->cfg.ring_size < 2 || q->free >= q->cfg.ring_size - 1u) return 0;   /* nothing posted */
    dev->plat.mem_read(dev->plat.ctx, desc_addr(q, q->head) + PRIONIC_DESC_STATUS_OFFSET, &w, 4);
    return (load_le32(&w) & PRIONIC_DESC_STATUS_DD_MASK) != 0;
}

void prionic_irq_ack(struct prionic_dev *dev, uint32_t bits) { wr32(dev, PRIONIC_IRQ_CAUSE, bits); }

unsigned prionic_isr(struct prionic_dev *dev, prionic_rx_fn cb, void *arg) {
    uint32_t lines = rd32(dev, PRIONIC_IRQ_STATUS);
    unsigned qi, n = 0;
    if (!lines) return 0;
    /* acknowledge first: a completion after this write raises the cause again */
    prionic_irq_ack(dev, lines);
    for (qi = 0; qi < dev->num_queues; qi++) {
        if (!(lines >> qi & 1u)) continue;
        /* F24: a refused doorbell is flagged, sticky; one read per interrupt, not per doorbell */
        if (rd32(dev, PRIONIC_QUEUE_STATUS(qi)) & PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK) dev->refused |= 1u << qi;
        n += prionic_reap(dev, qi, cb, arg, 1);
    }
    return n;
}

unsigned prionic_poll(struct prionic_dev *dev, prionic_rx_fn cb, void *arg) {
    unsigned qi, n = 0;
    for (qi = 0; qi < dev->num_queues; qi++) n += prionic_reap(dev, qi, cb, arg, 1);
    return n;
}

/* ------------------------------------------------------------------ faults (F24) */

uint32_t prionic_dma_errors(struct prionic_dev *dev) { return rd32(dev, PRIONIC_DMA_ERR_STATUS); }

uint32_t prionic_dma_stall(struct prionic_dev *dev, int clear) {
    uint32_t bits = rd32(dev, PRIONIC_DMA_STALL);
    if (clear && bits) wr32(dev, PRIONIC_DMA_STALL, bits);   /* W1C: only what was read */
    return bits;
}

unsigned prionic_queue_error(struct prionic_dev *dev, unsigned qi) {
    if (qi >= dev->num_queues) return 0;
    return field(rd32(dev, PRIONIC_QUEUE_STATUS(qi)), PRIONIC_QUEUE_STATUS_ERR_MASK, PRIONIC_QUEUE_STATUS_ERR_SHIFT);
}

uint32_t prionic_ring_refused(struct prionic_dev *dev, unsigned qi) {
    if (qi < dev->num_queues)
        return (rd32(dev, PRIONIC_QUEUE_STATUS(qi)) & PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK) != 0;
    return dev->refused;
}

/* program queue qi's ring from scratch (init and recovery); the NIC refuses a ring write of
 * a queue that is not idle or an unaligned base (F24): read every value back */
static int ring_setup(struct prionic_dev *dev, unsigned qi) {
    struct prionic_queue *q = &dev->q[qi];
    unsigned i;
    /* every descriptor holds its buffer's address, DD clear */
    for (i = 0; i < q->cfg.ring_size; i++) desc_fill(dev, q, i);
    if (!dev->no_dma_window && q->cfg.ring_size >= 2) {
        /* F24: the DMA window, the smallest naturally aligned 2^bits region holding the ring
         * and the buffers (docs/faults.md section 4); a ring register, written first */
        uint64_t ring_end = q->cfg.ring_base + (uint64_t)q->cfg.ring_size * PRIONIC_DESC_SIZE - 1u;
        uint64_t buf_end = q->cfg.buf_base + (uint64_t)q->cfg.ring_size * q->cfg.buf_size - 1u;
        uint64_t lo = q->cfg.ring_base < q->cfg.buf_base ? q->cfg.ring_base : q->cfg.buf_base;
        uint64_t hi = ring_end > buf_end ? ring_end : buf_end;
        unsigned bits = 0;
        while (bits < 64u && (lo >> bits) != (hi >> bits)) bits++;
        wr32(dev, PRIONIC_DMA_WIN_HI(qi), (uint32_t)(lo >> 32));
        wr32(dev, PRIONIC_DMA_WIN_LO(qi), (uint32_t)lo);
        wr32(dev, PRIONIC_DMA_WIN_BITS(qi), bits);
        if (rd32(dev, PRIONIC_DMA_WIN_BITS(qi)) != bits || rd32(dev, PRIONIC_DMA_WIN_LO(qi)) != (uint32_t)lo)
            return PRIONIC_EREFUSED;
    }
    /* RING_BASE_LO and RING_SIZE writes reset the NIC's HEAD and TAIL to 0 */
    wr32(dev, PRIONIC_RING_BASE_HI(qi), (uint32_t)(q->cfg.ring_base >> 32));
    wr32(dev, PRIONIC_RING_BASE_LO(qi), (uint32_t)q->cfg.ring_base);
    wr32(dev, PRIONIC_RING_SIZE(qi), q->cfg.ring_size);
    if (rd32(dev, PRIONIC_RING_BASE_LO(qi)) != (uint32_t)q->cfg.ring_base ||
        rd32(dev, PRIONIC_RING_BASE_HI(qi)) != (uint32_t)(q->cfg.ring_base >> 32) ||
        rd32(dev, PRIONIC_RING_SIZE(qi)) != q->cfg.ring_size)
        return PRIONIC_EREFUSED;
    dev->refused &= ~(1u << qi);   /* the accepted ring reset cleared RING_REFUSED */
    return PRIONIC_OK;
}

/* post every slot but one (HEAD == TAIL means empty): the descriptors are filled already,
 * so only the doorbell is left; read back, as the rest of the ring setup */
static int ring_post_all(struct prionic_dev *dev, unsigned qi) {
    struct prionic_queue *q = &dev->q[qi];
    q->head = q->tail = 0;
    q->free = 0;
    if (q->cfg.ring_size >= 2) {
        q->tail = (uint16_t)(q->cfg.ring_size - 1u);
        wr32(dev, PRIONIC_RING_TAIL(qi), q->tail);
        if (rd32(dev, PRIONIC_RING_TAIL(qi)) != q->tail) return PRIONIC_EREFUSED;
    }
    return PRIONIC_OK;
}

int prionic_queue_recover(struct prionic_dev *dev, unsigned qi, prionic_rx_fn cb, void *arg, unsigned max_polls) {
    unsigned i;
    uint32_t head;
    int rc;
    if (qi >= dev->num_queues) return PRIONIC_EINVAL;
    wr32(dev, PRIONIC_QUEUE_CTRL(qi), 0);   /* disable: no frame is admitted any more */
    for (i = 0;; i++) {
        if (i == max_polls) return PRIONIC_EBUSY;
        if (rd32(dev, PRIONIC_QUEUE_STATUS(qi)) & PRIONIC_QUEUE_STATUS_DRAINED_MASK) break;
    }
    /* what the NIC completed, and no further: a slot at or after HEAD is not completed
     * even if a write-back whose B was lost landed there; one before HEAD without DD is a
     * write-back lost to WB_ERR (docs/faults.md) */
    head = rd32(dev, PRIONIC_RING_HEAD(qi));
    reap_until(dev, qi, cb, arg, (long)head, ~0u);
    rc = ring_setup(dev, qi);   /* accepted now: the queue is idle; clears its error */
    if (rc == PRIONIC_OK) rc = ring_post_all(dev, qi);
    if (rc != PRIONIC_OK) return rc;   /* left disabled */
    wr32(dev, PRIONIC_QUEUE_CTRL(qi), PRIONIC_QUEUE_CTRL_ENABLE_MASK);
    return PRIONIC_OK;
}

/* ------------------------------------------------------------------ init */

static int check_config(const struct prionic_dev *dev, const struct prionic_config *cfg) {
    unsigned i;
    if (cfg->num_queues > dev->hw_queues || cfg->num_rules > dev->hw_rules) return PRIONIC_ERANGE;
    if (cfg->num_queues > PRIONIC_DRV_MAX_QUEUES || (cfg->num_queues && !cfg->queues) ||
        (cfg->num_rules && !cfg->rules) || cfg->clk_hz == 0)
        return PRIONIC_EINVAL;
    if (cfg->default_queue >= 0 && (unsigned)cfg->default_queue >= dev->hw_queues) return PRIONIC_EINVAL;
    for (i = 0; i < cfg->num_rules; i++) {
        const struct prionic_rule_cfg *r = &cfg->rules[i];
        if (r->queue >= dev->hw_queues || r->dport_lo > r->dport_hi) return PRIONIC_EINVAL;
    }
    for (i = 0; i < cfg->num_queues; i++) {
        const struct prionic_queue_cfg *q = &cfg->queues[i];
        if (q->ring_base % PRIONIC_DESC_SIZE || (q->ring_size >= 2 && q->buf_size == 0)) return PRIONIC_EINVAL;
    }
    return PRIONIC_OK;
}

int prionic_init(struct prionic_dev *dev, const struct prionic_platform *plat, const struct prionic_config *cfg) {
    uint32_t config;
    unsigned i, qi;
    int rc;

    memset(dev, 0, sizeof *dev);
    dev->plat = *plat;
    if (rd32(dev, PRIONIC_ID) != PRIONIC_MAP_ID) return PRIONIC_ENODEV;
    config = dev->config = rd32(dev, PRIONIC_CONFIG);
    dev->hw_queues = field(config, PRIONIC_CONFIG_NUM_QUEUES_MASK, PRIONIC_CONFIG_NUM_QUEUES_SHIFT);
    dev->hw_rules = field(config, PRIONIC_CONFIG_NUM_RULES_MASK, PRIONIC_CONFIG_NUM_RULES_SHIFT);
    dev->flow_sets = rd32(dev, PRIONIC_FLOW_TABLE_SETS);
    rc = check_config(dev, cfg);
    if (rc != PRIONIC_OK) return rc;
    dev->clk_hz = cfg->clk_hz;
    dev->no_dma_window = cfg->no_dma_window;
    dev->tick_div = cfg->tick_div;
    dev->num_queues = cfg->num_queues;

    /* tb/top/host.py HostDriver.configure: time base, default action, rules, then every ring */
    wr32(dev, PRIONIC_TICK_DIV, cfg->tick_div);
    wr32(dev, PRIONIC_DEFAULT_ACTION,
         cfg->default_queue < 0 ? 0u
                                : PRIONIC_DEFAULT_ACTION_ACCEPT_MASK |
                                      ((uint32_t)cfg->default_queue << PRIONIC_DEFAULT_ACTION_QUEUE_SHIFT &
                                       PRIONIC_DEFAULT_ACTION_QUEUE_MASK));
    for (i = 0; i < cfg->num_rules; i++) {
        const struct prionic_rule_cfg *r = &cfg->rules[i];
        rc = prionic_rule_l4_dport(dev, i, r->proto, r->dport_lo, r->dport_hi, r->queue);
        if (rc != PRIONIC_OK) return rc;
    }
    for (qi = 0; qi < cfg->num_queues; qi++) {
        struct prionic_queue *q = &dev->q[qi];
        q->cfg = cfg->queues[qi];
        rc = ring_setup(dev, qi);
        if (rc != PRIONIC_OK) return rc;
        wr32(dev, PRIONIC_BUF_SIZE(qi), q->cfg.buf_size);
        rc = prionic_set_coalesce(dev, qi, &q->cfg.coalesce);
        if (rc != PRIONIC_OK) return rc;
        if (q->cfg.prio) wr32(dev, PRIONIC_QUEUE_PRIO(qi), q->cfg.prio);
        rc = ring_post_all(dev, qi);
        if (rc != PRIONIC_OK) return rc;
    }
    return PRIONIC_OK;
}

/* ------------------------------------------------------------------ flow table (F31) */

/* `width` bits of v into the key at bit `shift` (a field may span two words) */
static void key_put(uint32_t key[5], unsigned shift, unsigned width, uint32_t v) {
    unsigned i;
    for (i = 0; i < width; i++)
        if (v >> i & 1u) key[(shift + i) / 32u] |= 1u << ((shift + i) % 32u);
}

void prionic_flow_key(const struct prionic_flow *f, uint32_t key[5]) {
    memset(key, 0, 5 * sizeof key[0]);
    key_put(key, PRIONIC_FLOW_KEY_IS_IPV4_SHIFT, PRIONIC_FLOW_KEY_IS_IPV4_WIDTH, 1u);
    key_put(key, PRIONIC_FLOW_KEY_PORTS_VALID_SHIFT, PRIONIC_FLOW_KEY_PORTS_VALID_WIDTH, 1u);
    key_put(key, PRIONIC_FLOW_KEY_PROTO_SHIFT, PRIONIC_FLOW_KEY_PROTO_WIDTH, f->proto);
    key_put(key, PRIONIC_FLOW_KEY_ETHERTYPE_SHIFT, PRIONIC_FLOW_KEY_ETHERTYPE_WIDTH, 0x0800u);
    key_put(key, PRIONIC_FLOW_KEY_DPORT_SHIFT, PRIONIC_FLOW_KEY_DPORT_WIDTH, f->dport);
    key_put(key, PRIONIC_FLOW_KEY_SPORT_SHIFT, PRIONIC_FLOW_KEY_SPORT_WIDTH, f->sport);
    key_put(key, PRIONIC_FLOW_KEY_DST_IP_SHIFT, PRIONIC_FLOW_KEY_DST_IP_WIDTH, f->dst_ip);
    key_put(key, PRIONIC_FLOW_KEY_SRC_IP_SHIFT, PRIONIC_FLOW_KEY_SRC_IP_WIDTH, f->src_ip);
}

/* FLOW_STATUS once BUSY is low, or -1 after max_polls reads */
static int64_t flow_idle(struct prionic_dev *dev, unsigned max_polls) {
    unsigned i;
    for (i = 0; i < max_polls; i++) {
        uint32_t st = rd32(dev, PRIONIC_FLOW_STATUS);
        if (!(st & PRIONIC_FLOW_STATUS_BUSY_MASK)) return st;
    }
    return -1;
}

/* one command on `key`/`val`: its FLOW_STATUS.RESULT, or a prionic_err */
static int flow_cmd(struct prionic_dev *dev, unsigned cmd, const uint32_t key[5], uint32_t val, unsigned max_polls) {
    static const uint32_t key_reg[5] = {PRIONIC_FLOW_KEY0, PRIONIC_FLOW_KEY1, PRIONIC_FLOW_KEY2, PRIONIC_FLOW_KEY3,
                                        PRIONIC_FLOW_KEY4};
    int64_t st;
    unsigned i;
    if (dev->flow_sets == 0) return PRIONIC_ERANGE;
    if (flow_idle(dev, max_polls) < 0) return PRIONIC_EBUSY;
    for (i = 0; i < 5; i++) {
        if (!dev->flow_written || dev->flow_key[i] != key[i]) wr32(dev, key_reg[i], key[i]);
        dev->flow_key[i] = key[i];
    }
    if (!dev->flow_written || dev->flow_val != val) wr32(dev, PRIONIC_FLOW_VAL, val);
    dev->flow_val = val;
    dev->flow_written = 1;
    wr32(dev, PRIONIC_FLOW_CMD, cmd);
    st = flow_idle(dev, max_polls);
    if (st < 0) return PRIONIC_EBUSY;
    return (int)field((uint32_t)st, PRIONIC_FLOW_STATUS_RESULT_MASK, PRIONIC_FLOW_STATUS_RESULT_SHIFT);
}

int prionic_flow_add(struct prionic_dev *dev, const struct prionic_flow *f, unsigned queue, int drop, unsigned rule,
                     unsigned max_polls) {
    uint32_t key[5], val;
    int r;
    if (queue > 0xFFu || (rule != PRIONIC_FLOW_NO_RULE && rule >= dev->hw_rules)) return PRIONIC_EINVAL;
    val = (uint32_t)queue << PRIONIC_FLOW_VAL_QUEUE_SHIFT | (drop ? PRIONIC_FLOW_VAL_DROP_MASK : 0u);
    if (rule != PRIONIC_FLOW_NO_RULE)
        val |= PRIONIC_FLOW_VAL_RULE_VALID_MASK | ((uint32_t)rule << PRIONIC_FLOW_VAL_RULE_SHIFT & PRIONIC_FLOW_VAL_RULE_MASK);
    prionic_flow_key(f, key);
    r = flow_cmd(dev, PRIONIC_FLOW_CMD_INSERT, key, val, max_polls);
    if (r < 0) return r;
    if (r == (int)PRIONIC_FLOW_RESULT_FULL) return PRIONIC_EFULL;
    return r == (int)PRIONIC_FLOW_RESULT_INSERTED || r == (int)PRIONIC_FLOW_RESULT_UPDATED ? PRIONIC_OK : PRIONIC_EINVAL;
}

int prionic_flow_del(struct prionic_dev *dev, const struct prionic_flow *f, unsigned max_polls) {
    uint32_t key[5];
    int r;
    prionic_flow_key(f, key);
    r = flow_cmd(dev, PRIONIC_FLOW_CMD_DELETE, key, dev->flow_val, max_polls);
    if (r < 0) return r;
    return r == (int)PRIONIC_FLOW_RESULT_DELETED ? PRIONIC_OK : PRIONIC_ENOENT;
}

int prionic_flow_find(struct prionic_dev *dev, const struct prionic_flow *f, uint16_t *val, unsigned max_polls) {
    uint32_t key[5];
    int r;
    prionic_flow_key(f, key);
    r = flow_cmd(dev, PRIONIC_FLOW_CMD_FIND, key, dev->flow_val, max_polls);
    if (r < 0) return r;
    if (r != (int)PRIONIC_FLOW_RESULT_FOUND) return PRIONIC_ENOENT;
    *val = (uint16_t)rd32(dev, PRIONIC_FLOW_RVAL);
    return PRIONIC_OK;
}

int prionic_flow_clear(struct prionic_dev *dev, unsigned max_polls) {
    int r = flow_cmd(dev, PRIONIC_FLOW_CMD_CLEAR, dev->flow_key, dev->flow_val, max_polls);
    return r < 0 ? r : PRIONIC_OK;
}

