/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/main.c: the full-system firmware (F28, docs/system.md). It programs prionic_rx
 * with the project's driver (sw/driver/), takes its interrupts and receives frames in the
 * host configuration the testbench chose in fw_mode before the CPU left reset:
 *
 *   FW_MODE_TEST          the short run of tests/test_sys.py: two flows, rings of 16, one
 *                         injected DMA fault;
 *   FW_MODE_PRIONIC       scenarios/paper.toml's registers: the control flow steered to its
 *                         own queue, best effort moderated, everything else dropped, RUN_PRIO
 *                         gating (F16);
 *   FW_MODE_CONVENTIONAL  one queue, every frame, the receive work above every task;
 *   FW_MODE_RTOS          one queue, e1000e moderation, one network task below the critical task;
 *   FW_MODE_MULTIQUEUE    an n-tuple rule for the control port, a receive task per queue;
 *   FW_MODE_NAPI          one queue, e1000e moderation, Linux NAPI: the ISR masks the queue,
 *                         a poll above every task takes 64 frames a round, ksoftirqd after 2 ms;
 *   FW_MODE_RATELIMIT     one queue, an interrupt per frame until 3 fall within 2 ms, then the
 *                         network task polls every 1 ms until a poll finds the ring empty;
 *   FW_MODE_SWDEMUX       one queue, an interrupt per frame; the driver's poll reads each
 *                         frame's port only, returns frames of no socket at once and hands the
 *                         others to their receiver, whose priority runs their work.
 *
 * Tasks (kernel.h), highest priority first: a softirq-like receive task (5, conventional),
 * the critical task (4: the control law for each control frame), a network task (3, rtos),
 * the best-effort receive task (2), the monitor (1: once the testbench sets CTRL.STOP and
 * the rings are empty, reads the NIC's registers back, prints the summary, writes EXIT)
 * and idle (0). Where the NIC steers the control flow to a queue of its own, that queue's
 * receive task is the critical task; otherwise the receive task finds control frames by
 * their UDP port and hands them to the critical task through a mailbox.
 *
 * The ISR only acknowledges and wakes: it posts the semaphore of each queue whose line it
 * saw, and on irq_err masks that line and marks the stopped queues, whose receive task
 * recovers them (F24). A receive task gives its buffers back after it has handled them.
 *
 * Each frame the host read is one record of FW_REC_WORDS words on the system's TRACE port
 * (a file the testbench reads): the write-back's fields as read, where the bytes were,
 * their checksum, the mtime of the ISR that woke the task and of the frame's end.
 */
#include <stdint.h>

#include "kernel.h"
#include "lib.h"
#include "prionic_drv.h"
#include "sysmap.h"

#define CLK_HZ         125000000u
#define TICK_CYCLES    12500u         /* 100 us */
#define NQ             2u
#define READBACK_MAX   256u
#define FW_REC_WORDS   11u
#define FW_REC_MARK    0xA5000000u    /* in a record's first word, above queue and slot */
#define FW_REC_HEADER  0xA6000000u    /* the same, for a frame whose bytes past its header the host
                                         did not read (swdemux: no socket), csum 0 */
#define FW_T_LOST      0xFFFFFFFFu    /* t_done of a control frame the host dropped (mailbox full) */

/* the host configurations (docs/paper.md section 5); fw_mode picks one */
#define FW_MODE_TEST         0u
#define FW_MODE_PRIONIC      1u
#define FW_MODE_CONVENTIONAL 2u
#define FW_MODE_RTOS         3u
#define FW_MODE_MULTIQUEUE   4u
#define FW_MODE_NAPI         5u
#define FW_MODE_RATELIMIT    6u
#define FW_MODE_SWDEMUX      7u

/* task priorities (distinct; larger runs first) */
#define PRIO_SOFTIRQ 5u   /* a conventional kernel's receive work: above every task */
#define PRIO_CRIT 4u
#define PRIO_NET  3u
#define PRIO_APP  2u
#define PRIO_MON  1u
#define PRIO_IDLE 0u

/* one frame the host read, as written to SYS_TRACE (tb/system.py TRACE_FIELDS) */
struct fw_rec {
    uint32_t qslot;     /* FW_REC_MARK | queue << 16 | slot */
    uint32_t len;
    uint32_t rule_q;    /* rule | write-back queue byte << 8 */
    uint32_t status;
    uint32_t ts;        /* the NIC's TIMESTAMP at the frame's tlast (cycles, like mtime) */
    uint32_t info;
    uint32_t buf;       /* where the bytes were read */
    uint32_t csum;      /* checksum() of the bytes, by the receive path */
    uint32_t t_isr;     /* mtime at the ISR that reaped it or woke its receive task */
    uint32_t t_done;    /* mtime when its work ended (a control frame: the control law's end) */
    uint32_t seq;       /* the order the host reaped it in, per queue */
};

/* task slots of fw_summary.task_cycles */
enum { T_CRIT, T_RX0, T_RX1, T_MON, T_IDLE, T_APP, T_NUM };

struct fw_summary {
    uint32_t init_rc;
    uint32_t frames[NQ];      /* records per queue */
    uint32_t crit_frames;     /* control frames the critical task finished */
    uint32_t crit_lost;       /* control frames the host dropped (the critical task's mailbox full) */
    uint32_t crit_resp_max;   /* t_done - ts of control frames, cycles */
    uint32_t crit_resp_sum;
    uint32_t isr_runs;
    uint32_t switches;
    uint32_t ticks;
    uint32_t mode;            /* fw_mode as the firmware took it */
    uint32_t readback_n;
    uint32_t refused;
    uint32_t isr_cycles;      /* mtime spent in board_external_irq */
    uint32_t recoveries;      /* queues recovered after a DMA error (F24) */
    uint32_t recover_rc;      /* the last failed prionic_queue_recover's code, 0 if none failed */
    uint32_t wcet_cycles;     /* mtime of one control-law run, measured at boot */
    uint32_t task_cycles[T_NUM];   /* per task (T_*): mtime it ran, traps excluded */
    uint32_t trap_cycles;     /* mtime in traps: ISR, tick, switches */
    uint32_t traps;           /* traps taken */
    uint32_t csum_cycles_2k;  /* mtime of checksum() over 2,048 bytes, measured at boot */
};

struct fw_summary fw_summary;
uint32_t fw_readback_val[READBACK_MAX];
/* written by the testbench while the CPU is in reset: the configuration, the register
 * offsets to read at the end */
uint32_t fw_mode __attribute__((section(".tbdata")));
uint32_t fw_readback_n __attribute__((section(".tbdata")));
uint32_t fw_readback_addr[READBACK_MAX] __attribute__((section(".tbdata")));

static struct prionic_dev dev;

/* ------------------------------------------------------------------ platform */

static uint32_t reg_read(void *ctx, uint32_t off) {
    (void)ctx;
    return mmio_rd(SYS_NIC_BASE + off);
}

static void reg_write(void *ctx, uint32_t off, uint32_t v) {
    (void)ctx;
    mmio_wr(SYS_NIC_BASE + off, v);
}

/* no D-cache on VexRiscv_Lite: the DMA's writes are seen as they land */
static void mem_read(void *ctx, uint64_t addr, void *dst, size_t n) {
    (void)ctx;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
}

static void mem_write(void *ctx, uint64_t addr, const void *src, size_t n) {
    (void)ctx;
    memcpy((void *)(uintptr_t)addr, src, n);
}

static const struct prionic_platform plat = {0, reg_read, reg_write, mem_read, mem_write};

/* ------------------------------------------------------------------ configurations */

#define RX_PLAIN     0u   /* the receive task reaps the whole ring at each wake */
#define RX_NAPI      1u   /* Linux NAPI (napi_loop) */
#define RX_RATELIMIT 2u   /* Behnke et al.'s rate-limited ISR, then polling (rl_loop) */
#define RX_SWDEMUX   3u   /* Behnke et al.'s early demultiplexing in the driver (demux) */

#define NAPI_BUDGET      64u                  /* frames per poll round */
#define NAPI_THREAD_CYC  (2000u * 125u)       /* 2 ms of polling, then ksoftirqd */
#define RL_LIMIT         3u                   /* ISRs ... */
#define RL_WINDOW_CYC    (2000u * 125u)       /* ... within 2 ms switch to polling */
#define RL_POLL_TICKS    10u                  /* every 1 ms */

struct fw_conf {
    struct prionic_config nic;
    unsigned rx_kind;      /* RX_* */
    unsigned critical_q;   /* the queue the NIC steers the control flow to, whose receive task is the
                              critical task; NQ: none, the receive path finds control frames by their
                              UDP port and hands them to a critical task of their own */
    uint8_t rx_prio[NQ];   /* the receive task's priority per queue (0: no task) */
    uint32_t wcet_iter;    /* iterations of the control law per control frame */
};

#define CTRL_PORT 5000u
#define NO_GATE   255u     /* QUEUE_PRIO above every task: RUN_PRIO never holds the interrupt */
#define IMMEDIATE {0, 0, 0, 0, 1}
#define E1000E    {0, 0, 0, 51, 1}   /* RADV 0, ITR 195 (20,000/s): an interrupt per frame, 51 us apart */
#define NO_QUEUE  {0, 0, 0, 0, 0, {0, 0, 0, 0, 0}}   /* ring_size 0: the queue stays disabled */

/* the paper's critical task costs 20 us a control frame: PAPER_WCET_ITER runs of the
 * control law's loop take 2,500 cycles on VexRiscv_Lite (9 a turn; fw_summary.wcet_cycles) */
#define TEST_WCET_ITER  100u
#define PAPER_WCET_ITER 276u

/* FW_MODE_TEST: UDP 5000 to queue 0 (critical, an interrupt per frame), UDP 6000 to queue 1
 * (moderated: 4 frames, 4 us after the last, 20 us after the first); rings of 16, so that
 * no buffer is written twice in the short run and the testbench reads what the CPU read */
static const struct prionic_rule_cfg test_rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 0},
    {PRIONIC_PROTO_UDP, 6000, 6000, 1},
};
static const struct prionic_queue_cfg test_queues[NQ] = {
    {RING_REGION, BUF_REGION, 16, 512, PRIO_CRIT + 1, IMMEDIATE},
    {RING_REGION + RING_STRIDE, BUF_REGION + BUF_STRIDE, 16, 512, PRIO_APP + 1, {4, 4, 20, 0, 0}},
};

/* the paper's configurations (docs/paper.md section 1) on scenarios/paper.toml's traffic */

/* prionic: telemetry (UDP 6000) and bulk (TCP 8000-8100) to queue 0, 96 buffers of 2 KiB, 32
 * frames or 200 us after the first, at most one interrupt per 100 us; the control loop to
 * queue 1, an interrupt per frame; every other frame dropped in the NIC. QUEUE_PRIO is the
 * queue's receive task's priority, as in the CPU model (model/cpu.py queue_prio): a queue's
 * interrupt waits while its own task or a higher one runs, which reaps it anyway (F16) */
static const struct prionic_rule_cfg prionic_rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 1},
    {PRIONIC_PROTO_UDP, 6000, 6000, 0},
    {PRIONIC_PROTO_TCP, 8000, 8100, 0},
};
static const struct prionic_queue_cfg prionic_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, PRIO_APP, {32, 0, 200, 100, 0}},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, PRIO_CRIT, IMMEDIATE},
};

/* conventional and rtos: one queue of 128 buffers (those of both prionic rings), no rule,
 * every frame delivered (DEFAULT_ACTION queue 0) */
static const struct prionic_queue_cfg conventional_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 128, 2048, NO_GATE, IMMEDIATE},
    NO_QUEUE,
};
static const struct prionic_queue_cfg rtos_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 128, 2048, NO_GATE, E1000E},
    NO_QUEUE,
};

/* multiqueue (an i210-style NIC): an n-tuple rule steers the control port to queue 1, an
 * interrupt per frame; everything else to queue 0 with e1000e moderation; no RUN_PRIO gating */
static const struct prionic_rule_cfg multiqueue_rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 1},
};
static const struct prionic_queue_cfg multiqueue_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, NO_GATE, E1000E},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, NO_GATE, IMMEDIATE},
};

static const struct fw_conf confs[] = {
    [FW_MODE_TEST] = {{CLK_HZ, 125, -1, test_rules, 2, NQ, test_queues, 0},
                      RX_PLAIN, 0, {PRIO_CRIT, PRIO_APP}, TEST_WCET_ITER},
    [FW_MODE_PRIONIC] = {{CLK_HZ, 125, -1, prionic_rules, 3, NQ, prionic_queues, 0},
                         RX_PLAIN, 1, {PRIO_APP, PRIO_CRIT}, PAPER_WCET_ITER},
    /* the receive work above every task (a softirq: the ISR wakes it, interrupts stay on) */
    [FW_MODE_CONVENTIONAL] = {{CLK_HZ, 125, 0, 0, 0, NQ, conventional_queues, 0},
                              RX_PLAIN, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER},
    /* one network task below the critical task, above the application */
    [FW_MODE_RTOS] = {{CLK_HZ, 125, 0, 0, 0, NQ, rtos_queues, 0},
                      RX_PLAIN, NQ, {PRIO_NET, 0}, PAPER_WCET_ITER},
    /* a receive task per queue at the queue's priority */
    [FW_MODE_MULTIQUEUE] = {{CLK_HZ, 125, 0, multiqueue_rules, 1, NQ, multiqueue_queues, 0},
                            RX_PLAIN, 1, {PRIO_APP, PRIO_CRIT}, PAPER_WCET_ITER},
    /* the poll above every task, ksoftirqd below the critical task */
    [FW_MODE_NAPI] = {{CLK_HZ, 125, 0, 0, 0, NQ, rtos_queues, 0},
                      RX_NAPI, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER},
    /* one network task below the critical task */
    [FW_MODE_RATELIMIT] = {{CLK_HZ, 125, 0, 0, 0, NQ, conventional_queues, 0},
                           RX_RATELIMIT, NQ, {PRIO_NET, 0}, PAPER_WCET_ITER},
    /* the driver's poll above every task; the work at the receiver's priority */
    [FW_MODE_SWDEMUX] = {{CLK_HZ, 125, 0, 0, 0, NQ, conventional_queues, 0},
                         RX_SWDEMUX, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER},
};

static const struct fw_conf *conf;

/* ------------------------------------------------------------------ receive path */

static struct k_sem rx_sem[NQ];
static volatile uint32_t recover_pending;   /* queues stopped by a DMA error, for their task */
static volatile uint32_t isr_time[NQ];      /* mtime of the ISR that last reaped or woke each queue */
static uint32_t rx_seq[NQ];                 /* completions reaped per queue */
static volatile uint32_t irq_mask;          /* IRQ_MASK as last written (napi, ratelimit) */
static volatile uint32_t rl_polling;        /* ratelimit: interrupts off, the ring polled */
static uint32_t rl_hist[RL_LIMIT], rl_n;    /* ratelimit: the last ISRs' mtime */

/* IRQ_MASK |= set, &= ~clear, with interrupts off (the ISR writes it too) */
static void irq_mask_update(uint32_t set, uint32_t clear) {
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    irq_mask = (irq_mask | set) & ~clear;
    mmio_wr(SYS_NIC_BASE + PRIONIC_IRQ_MASK, irq_mask);
    if (mie) csr_set(mstatus, MSTATUS_MIE);
}

static void irq_err_mask(int on) {
    if (on)
        csr_clear(0xBC0, 1u << NQ);   /* VexRiscv's external interrupt mask: bit NQ is irq_err */
    else
        csr_set(0xBC0, 1u << NQ);
}

/* The checksum of a frame's bytes: two running sums over its little-endian 32-bit words
 * (Fletcher's, 32-bit, no modulus; the last word's bytes beyond the frame count as 0),
 * folded once at the end: tb/host.py fletcher32. Loads and adds only (VexRiscv_Lite
 * multiplies and shifts one bit a cycle); the buffer is word aligned. */
static uint32_t checksum(const uint8_t *p, uint32_t n) {
    const uint32_t *w = (const uint32_t *)p;
    uint32_t s1 = 0, s2 = 0, i;
    for (i = n >> 2; i; i--) {
        s1 += *w++;
        s2 += s1;
    }
    if (n & 3u) {
        s1 += *w & (0xFFFFFFFFu >> (32u - 8u * (n & 3u)));
        s2 += s1;
    }
    return s2 ^ s1 << 16;
}

static volatile uint32_t wcet_sink;
static uint64_t buf_moved[NQ];   /* how far a recovery moved the queue's buffers (below) */

/* the critical task's fixed cost per control frame: the control law */
static void control_law(uint32_t seed) {
    uint32_t i, acc = seed;
    for (i = 0; i < conf->wcet_iter; i++) acc = (acc ^ i) + 0x9E3779B9u;
    wcet_sink = acc;
}

/* a frame the host has read, with what it made of it */
struct rx_frame {
    struct prionic_completion c;
    uint32_t buf, csum, t_isr, seq;
};

/* its record to the trace port, whole: a task that preempts this one writes its own after it;
 * control: 1 a control frame, 0 another, -1 one whose bytes the host did not read */
static void record(const struct prionic_completion *c, uint32_t buf, uint32_t csum, uint32_t t_isr, uint32_t seq,
                   uint32_t t_done, int control) {
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    mmio_wr(SYS_TRACE, (control < 0 ? FW_REC_HEADER : FW_REC_MARK) | (uint32_t)c->queue << 16 | c->slot);
    mmio_wr(SYS_TRACE, c->len);
    mmio_wr(SYS_TRACE, c->rule | (uint32_t)c->desc_queue << 8);
    mmio_wr(SYS_TRACE, c->status);
    mmio_wr(SYS_TRACE, c->ts);
    mmio_wr(SYS_TRACE, c->info);
    mmio_wr(SYS_TRACE, buf);
    mmio_wr(SYS_TRACE, csum);
    mmio_wr(SYS_TRACE, t_isr);
    mmio_wr(SYS_TRACE, t_done);
    mmio_wr(SYS_TRACE, seq);
    fw_summary.frames[c->queue]++;
    if (control > 0 && t_done == FW_T_LOST) {
        fw_summary.crit_lost++;
    } else if (control > 0) {
        uint32_t resp = t_done - c->ts;
        fw_summary.crit_frames++;
        fw_summary.crit_resp_sum += resp;
        if (resp > fw_summary.crit_resp_max) fw_summary.crit_resp_max = resp;
    }
    if (mie) csr_set(mstatus, MSTATUS_MIE);
}

/* the control flow's frames, found in software (critical_q == NQ): IPv4 without options,
 * UDP, destination port CTRL_PORT */
static int is_control(const uint8_t *p, uint32_t len) {
    return len >= 38 && p[12] == 0x08 && p[13] == 0x00 && p[14] == 0x45 && p[23] == 17 &&
           p[36] == (CTRL_PORT >> 8) && p[37] == (CTRL_PORT & 0xFFu);
}

/* the critical task of a software demux: a mailbox of control frames */
#define CRIT_BOX 16u
static struct rx_frame crit_box[CRIT_BOX];
static volatile uint32_t crit_head, crit_tail;
static struct k_sem crit_sem;

/* one frame, in its queue's receive task: checked; a control frame gets
 * the control law here when this is the critical task, else goes to it; then its record */
/* swdemux: each receiver's mailbox (its frames in reap order) and the buffers' return in
 * ring order once every receiver is done with them */
#define APP_BOX 128u
static struct rx_frame app_box[APP_BOX];
static volatile uint32_t app_head, app_tail;
static struct k_sem app_sem;
static uint8_t swd_done[128];           /* slot -> its frame is done (queue 0's ring, 128 slots) */
static uint32_t swd_next, swd_ready;    /* the oldest slot not given back; done slots before it */

static void swd_give_back(unsigned slot) {
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    swd_done[slot] = 1;
    while (swd_done[swd_next]) {
        swd_done[swd_next] = 0;
        swd_next = swd_next + 1 == dev.q[0].cfg.ring_size ? 0 : swd_next + 1;
        swd_ready++;
    }
    swd_ready -= prionic_post(&dev, 0, swd_ready);
    if (mie) csr_set(mstatus, MSTATUS_MIE);
}

static int has_socket(const uint8_t *p, uint32_t len) {   /* paper.toml's telemetry and bulk */
    uint32_t port;
    if (len < 38 || p[12] != 0x08 || p[13] != 0x00 || p[14] != 0x45) return 0;
    port = (uint32_t)p[36] << 8 | p[37];
    return (p[23] == 17 && port == 6000u) || (p[23] == 6 && port >= 8000u && port <= 8100u);
}

static void mailbox(struct rx_frame *f, const struct prionic_completion *c, uint32_t buf, uint32_t seq) {
    f->c = *c;
    f->buf = buf;
    f->csum = 0;
    f->t_isr = isr_time[c->queue];
    f->seq = seq;
}

/* the driver's poll of swdemux: the port decides, nothing else is read here */
static void demux(const struct prionic_completion *c, uint32_t buf, uint32_t seq) {
    const uint8_t *p = (const uint8_t *)(uintptr_t)buf;
    if (is_control(p, c->len) && crit_tail - crit_head < CRIT_BOX) {
        mailbox(&crit_box[crit_tail % CRIT_BOX], c, buf, seq);
        crit_tail++;
        k_sem_post(&crit_sem);
    } else if (is_control(p, c->len)) {
        record(c, buf, checksum(p, c->len), isr_time[c->queue], seq, FW_T_LOST, 1);
        swd_give_back(c->slot);
    } else if (has_socket(p, c->len)) {
        mailbox(&app_box[app_tail % APP_BOX], c, buf, seq);
        app_tail++;
        k_sem_post(&app_sem);
    } else {
        record(c, buf, 0, isr_time[c->queue], seq, k_now(), -1);   /* no socket: returned at once */
        swd_give_back(c->slot);
    }
}

static void receive(void *arg, const struct prionic_completion *c) {
    unsigned q = c->queue;
    uint32_t buf = (uint32_t)(c->buf_addr - buf_moved[q]), seq = rx_seq[q]++, csum;
    struct rx_frame *f;
    (void)arg;
    if (conf->rx_kind == RX_SWDEMUX) {
        demux(c, buf, seq);
        return;
    }
    csum = checksum((const uint8_t *)(uintptr_t)buf, c->len);
    if (conf->critical_q < NQ) {
        if (q == conf->critical_q) control_law(c->ts);
        record(c, buf, csum, isr_time[q], seq, k_now(), q == conf->critical_q);
    } else if (!is_control((const uint8_t *)(uintptr_t)buf, c->len)) {
        record(c, buf, csum, isr_time[q], seq, k_now(), 0);
    } else if (crit_tail - crit_head >= CRIT_BOX) {
        record(c, buf, csum, isr_time[q], seq, FW_T_LOST, 1);   /* the critical task is behind: dropped */
    } else {
        f = &crit_box[crit_tail % CRIT_BOX];
        f->c = *c;
        f->buf = buf;
        f->csum = csum;
        f->t_isr = isr_time[q];
        f->seq = seq;
        crit_tail++;
        k_sem_post(&crit_sem);
    }
}

/* F24: a queue stopped by a DMA error (docs/faults.md section 3), recovered by its receive
 * task with interrupts on. Its ring restarts at slot 0 with fresh
 * buffers (the old ones plus RING_SIZE x BUF_SIZE), so that in the short run every buffer is
 * written at most once and the testbench reads each frame's bytes as the CPU read them; the
 * completions the recovery reaps are in the buffers of before the move. */
static void recover(unsigned q) {
    int rc;
    uint64_t move = (uint64_t)dev.q[q].cfg.ring_size * dev.q[q].cfg.buf_size;
    dev.q[q].cfg.buf_base += move;
    buf_moved[q] = move;
    rc = prionic_queue_recover(&dev, q, receive, 0, 1000);
    buf_moved[q] = 0;
    fw_summary.recoveries++;
    if (rc != PRIONIC_OK) fw_summary.recover_rc = (uint32_t)rc;
}

void board_external_irq(void) {
    uint32_t t = k_now(), lines, q;
    fw_summary.isr_runs++;
    lines = mmio_rd(SYS_NIC_BASE + PRIONIC_IRQ_STATUS);
    if (lines) prionic_irq_ack(&dev, lines);   /* first: a completion after it raises the line again */
    if (csr_read(0xFC0) >> NQ & 1u) {          /* VexRiscv's pending external interrupts: irq_err */
        uint32_t stopped = prionic_dma_errors(&dev);
        irq_err_mask(1);                       /* a level until the recovery, which unmasks it */
        recover_pending |= stopped;
        lines |= stopped;
    }
    if (conf->rx_kind == RX_NAPI && lines) irq_mask_update(lines, 0);   /* the poll owns the queue now */
    if (conf->rx_kind == RX_RATELIMIT && lines) {
        rl_hist[rl_n++ % RL_LIMIT] = t;   /* rl_hist[rl_n % RL_LIMIT]: the oldest of the last RL_LIMIT */
        if (rl_n >= RL_LIMIT && t - rl_hist[rl_n % RL_LIMIT] < RL_WINDOW_CYC) {
            rl_polling = 1;               /* too many: interrupts off, the network task polls */
            rl_n = 0;
            irq_mask_update((1u << NQ) - 1u, 0);
        }
    }
    for (q = 0; q < NQ; q++) {
        if (!(lines >> q & 1u)) continue;
        isr_time[q] = t;
        k_sem_post(&rx_sem[q]);
    }
    fw_summary.isr_cycles += k_now() - t;
}

/* NAPI: woken by the ISR, which masked the queue; rounds of at most NAPI_BUDGET frames until
 * the ring is empty, then clear the cause, look once more and unmask; after NAPI_THREAD_CYC
 * of polling the rest runs in ksoftirqd, at PRIO_NET below the critical task */
static void napi_loop(unsigned q) {
    uint8_t prio = conf->rx_prio[q];
    for (;;) {
        uint32_t n, start;
        k_sem_wait(&rx_sem[q]);
        start = k_now();
        for (;;) {
            n = prionic_reap_max(&dev, q, receive, 0, NAPI_BUDGET, 0);
            if (n) prionic_post(&dev, q, n);
            if (n < NAPI_BUDGET) {
                prionic_irq_ack(&dev, 1u << q);
                if (prionic_rx_pending(&dev, q)) continue;
                irq_mask_update(0, 1u << q);
                break;
            }
            if (k_now() - start >= NAPI_THREAD_CYC && prio != PRIO_NET) {
                prio = PRIO_NET;
                k_set_prio(prio);   /* ksoftirqd */
            }
        }
        if (prio != conf->rx_prio[q]) {
            prio = conf->rx_prio[q];
            k_set_prio(prio);
        }
    }
}

/* ratelimit: woken by each ISR while interrupts are on; while the ISR has switched to polling,
 * the whole ring every RL_POLL_TICKS, until a poll finds it empty: clear the cause, look once
 * more, unmask */
static void rl_loop(unsigned q) {
    for (;;) {
        uint32_t n;
        if (!rl_polling) k_sem_wait(&rx_sem[q]);
        n = prionic_reap(&dev, q, receive, 0, 0);
        if (n) prionic_post(&dev, q, n);
        if (!rl_polling) continue;
        if (!n) {
            prionic_irq_ack(&dev, 1u << q);
            if (!prionic_rx_pending(&dev, q)) {
                rl_polling = 0;
                irq_mask_update(0, (1u << NQ) - 1u);
                continue;
            }
        }
        k_sleep(RL_POLL_TICKS);
    }
}

/* a queue's receive task: woken by the ISR, reaps every completion in its ring, handles
 * each, then gives the buffers back with one doorbell */
static void rx_loop(unsigned q) {
    if (conf->rx_kind == RX_NAPI) napi_loop(q);
    if (conf->rx_kind == RX_RATELIMIT) rl_loop(q);
    for (;;) {
        uint32_t n;
        k_sem_wait(&rx_sem[q]);
        if (recover_pending >> q & 1u) {
            recover(q);
            csr_clear(mstatus, MSTATUS_MIE);
            recover_pending &= ~(1u << q);
            if (!recover_pending) irq_err_mask(0);
            csr_set(mstatus, MSTATUS_MIE);
        }
        n = prionic_reap(&dev, q, receive, 0, 0);
        if (n && conf->rx_kind != RX_SWDEMUX) prionic_post(&dev, q, n);   /* swdemux: swd_give_back */
    }
}

/* ------------------------------------------------------------------ tasks */

static struct k_task tasks[T_NUM];
static uint32_t stacks[T_NUM][256] __attribute__((section(".noinit")));

static void rx0_task(void) { rx_loop(0); }
static void rx1_task(void) { rx_loop(1); }

/* the critical task of a software demux: the control law for each frame of its mailbox */
static void crit_task(void) {
    for (;;) {
        struct rx_frame *f;
        k_sem_wait(&crit_sem);
        f = &crit_box[crit_head % CRIT_BOX];
        if (conf->rx_kind == RX_SWDEMUX) f->csum = checksum((const uint8_t *)(uintptr_t)f->buf, f->c.len);
        control_law(f->c.ts);
        record(&f->c, f->buf, f->csum, f->t_isr, f->seq, k_now(), 1);
        if (conf->rx_kind == RX_SWDEMUX) swd_give_back(f->c.slot);
        crit_head++;
    }
}

/* swdemux's best-effort receiver: the frame's work (its checksum) at the application's priority */
static void app_task(void) {
    for (;;) {
        struct rx_frame *f;
        k_sem_wait(&app_sem);
        f = &app_box[app_head % APP_BOX];
        f->csum = checksum((const uint8_t *)(uintptr_t)f->buf, f->c.len);
        record(&f->c, f->buf, f->csum, f->t_isr, f->seq, k_now(), 0);
        swd_give_back(f->c.slot);
        app_head++;
    }
}

static void summary(void) {
    unsigned q;
    con_puts("prionic fw: summary\n  critical frames ");
    con_dec(fw_summary.crit_frames);
    con_puts(" response max ");
    con_dec(fw_summary.crit_resp_max);
    con_puts(" mean ");
    con_dec(fw_summary.crit_frames ? fw_summary.crit_resp_sum / fw_summary.crit_frames : 0);
    con_puts(" cycles, lost ");
    con_dec(fw_summary.crit_lost);
    con_puts("\n ");
    for (q = 0; q < NQ; q++) {
        con_puts(" queue ");
        con_dec(q);
        con_puts(" frames ");
        con_dec(fw_summary.frames[q]);
        con_puts(q + 1 < NQ ? "," : "\n");
    }
    con_puts("  isr runs ");
    con_dec(fw_summary.isr_runs);
    con_puts(", switches ");
    con_dec(fw_summary.switches);
    con_puts(", ticks ");
    con_dec(fw_summary.ticks);
    con_puts(", isr cycles ");
    con_dec(fw_summary.isr_cycles);
    con_puts(", recoveries ");
    con_dec(fw_summary.recoveries);
    con_puts(", registers read back ");
    con_dec(fw_summary.readback_n);
    con_puts("\n");
}

/* a ring is empty when its next slot to reap has no DD: nothing is left for its task;
 * the critical task's mailbox is empty */
static int rings_empty(void) {
    unsigned q;
    for (q = 0; q < NQ; q++)
        if (rx_sem[q].count || recover_pending || prionic_rx_pending(&dev, q)) return 0;
    return crit_head == crit_tail && app_head == app_tail;
}

static void monitor_task(void) {
    uint32_t i, n;
    for (;;) {
        k_sleep(1);
        if (!(mmio_rd(SYS_CTRL) & SYS_CTRL_STOP)) continue;
        if (!rings_empty()) continue;
        csr_clear(mstatus, MSTATUS_MIE);   /* the end: nothing runs after this */
        n = fw_readback_n < READBACK_MAX ? fw_readback_n : READBACK_MAX;
        for (i = 0; i < n; i++) fw_readback_val[i] = reg_read(0, fw_readback_addr[i]);
        fw_summary.readback_n = n;
        fw_summary.switches = k_switches();
        fw_summary.ticks = k_ticks();
        fw_summary.refused = prionic_ring_refused(&dev, 0) | prionic_ring_refused(&dev, 1) << 1;
        for (i = 0; i < T_NUM; i++) fw_summary.task_cycles[i] = k_task_cycles(&tasks[i]);
        fw_summary.trap_cycles = k_trap_cycles();
        fw_summary.traps = k_traps();
        summary();
        mmio_wr(SYS_EXIT, 0);
        for (;;) {
        }
    }
}

static void idle_task(void) {
    for (;;) {
    }
}

int main(void) {
    int rc;
    mmio_wr(SYS_FW_STATE, FW_STATE_BOOT);
    con_puts("prionic fw: boot\n");
    fw_summary.mode = fw_mode;
    if (fw_mode >= sizeof confs / sizeof confs[0]) {
        con_puts("prionic fw: unknown fw_mode\n");
        mmio_wr(SYS_EXIT, 0x300u | (fw_mode & 0xFFu));
        for (;;) {
        }
    }
    conf = &confs[fw_mode];
    rc = prionic_init(&dev, &plat, &conf->nic);
    fw_summary.init_rc = (uint32_t)rc;
    if (rc != PRIONIC_OK) {
        con_puts("prionic fw: prionic_init failed\n");
        mmio_wr(SYS_EXIT, 0x200u | (uint32_t)-rc);
        for (;;) {
        }
    }
    control_law(0);   /* once to fill the instruction cache, then timed */
    fw_summary.wcet_cycles = k_now();
    control_law(0);
    fw_summary.wcet_cycles = k_now() - fw_summary.wcet_cycles;
    fw_summary.csum_cycles_2k = k_now();   /* the cost of a frame's bytes: the checksum over 2 KiB */
    wcet_sink = checksum((const uint8_t *)(uintptr_t)BUF_REGION, 2048);
    fw_summary.csum_cycles_2k = k_now() - fw_summary.csum_cycles_2k;
    k_init(TICK_CYCLES);
    if (conf->critical_q == NQ) k_task_create(&tasks[T_CRIT], "critical", PRIO_CRIT, crit_task, stacks[T_CRIT], 256);
    if (conf->rx_prio[0]) k_task_create(&tasks[T_RX0], "rx0", conf->rx_prio[0], rx0_task, stacks[T_RX0], 256);
    if (conf->rx_prio[1])
        k_task_create(&tasks[T_RX1], "rx1", conf->rx_prio[1], rx1_task, stacks[T_RX1], 256);
    k_task_create(&tasks[T_MON], "monitor", PRIO_MON, monitor_task, stacks[T_MON], 256);
    k_task_create(&tasks[T_IDLE], "idle", PRIO_IDLE, idle_task, stacks[T_IDLE], 256);
    if (conf->rx_kind == RX_SWDEMUX) k_task_create(&tasks[T_APP], "app", PRIO_APP, app_task, stacks[T_APP], 256);
    con_puts("prionic fw: NIC configured, kernel starting\n");
    mmio_wr(SYS_FW_STATE, FW_STATE_READY);
    k_start();
}
