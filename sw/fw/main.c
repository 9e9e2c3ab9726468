/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/main.c: the full-system firmware (F28, docs/system.md). It programs prionic_rx
 * with the project's driver (sw/driver/), takes its interrupts and runs four tasks on the
 * kernel (kernel.h), highest priority first:
 *
 *   critical (3) the receive task of the control flow's queue: reaps its ring, checks each
 *                frame's bytes and runs the control law's fixed cost (a WCET loop);
 *   app (2)      the receive task of the best-effort queue: reaps its ring, checks each
 *                frame's bytes;
 *   monitor (1)  sleeps on the tick; once the testbench sets CTRL.STOP and the rings are
 *                empty, reads the NIC's registers back, prints the summary on the console
 *                and writes EXIT;
 *   idle (0).
 *
 * The ISR only acknowledges and wakes: it posts the semaphore of each queue whose line
 * it saw, and on irq_err masks that line and marks the stopped queues, whose task
 * recovers them (F24). Each receive task gives its buffers back after it has handled
 * them. QUEUE_PRIO of the critical queue is 4 (above every task), of the best-effort
 * queue 3: its interrupt waits while the critical task runs (RUN_PRIO 3, F16).
 *
 * Two configurations, chosen by the testbench in fw_mode before the CPU leaves reset:
 * FW_MODE_TEST (tests/test_sys.py: two flows, small rings, one injected fault) and
 * FW_MODE_PAPER (scenarios/paper.toml's prionic configuration, docs/paper.md).
 *
 * Each handled frame is one record of FW_REC_WORDS words written to the system's TRACE
 * port (a file the testbench reads): the write-back's fields as read, where the bytes
 * were, their checksum, the mtime of the ISR that woke the task and of the frame's end.
 */
#include <stdint.h>

#include "kernel.h"
#include "lib.h"
#include "prionic_drv.h"
#include "sysmap.h"

#define CLK_HZ         125000000u
#define TICK_CYCLES    10000u         /* 80 us */
#define NQ             2u
#define READBACK_MAX   256u
#define FW_REC_WORDS   10u
#define FW_REC_MARK    0xA5000000u    /* in a record's first word, above queue and slot */

#define FW_MODE_TEST   0u
#define FW_MODE_PAPER  1u

/* one handled frame, as written to SYS_TRACE (tb/system.py TRACE_FIELDS) */
struct fw_rec {
    uint32_t qslot;     /* FW_REC_MARK | queue << 16 | slot */
    uint32_t len;
    uint32_t rule_q;    /* rule | write-back queue byte << 8 */
    uint32_t status;
    uint32_t ts;        /* the NIC's TIMESTAMP at the frame's tlast (cycles, like mtime) */
    uint32_t info;
    uint32_t buf;       /* where the bytes were read */
    uint32_t csum;      /* checksum() of the bytes, by the task */
    uint32_t t_isr;     /* mtime at the ISR that woke the task */
    uint32_t t_done;    /* mtime when the task finished the frame */
};

struct fw_summary {
    uint32_t init_rc;
    uint32_t frames[NQ];
    uint32_t resp_max[NQ];    /* t_done - ts, cycles */
    uint32_t resp_sum[NQ];
    uint32_t isr_runs;
    uint32_t switches;
    uint32_t ticks;
    uint32_t mode;            /* fw_mode as the firmware took it */
    uint32_t readback_n;
    uint32_t refused;
    uint32_t isr_cycles;      /* mtime spent in board_external_irq */
    uint32_t recoveries;      /* queues recovered after a DMA error (F24) */
    uint32_t recover_rc;      /* the last failed prionic_queue_recover's code, 0 if none failed */
    uint32_t rx_cycles[NQ];   /* mtime spent by each receive task handling frames */
    uint32_t wcet_cycles;     /* mtime of one control-law loop, measured at boot */
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

struct fw_conf {
    struct prionic_config nic;
    unsigned critical_q;          /* the queue of the control flow: its task runs the WCET loop */
    uint32_t wcet_iter;           /* iterations of the control law's loop per control frame */
};

/* FW_MODE_TEST: UDP 5000 to queue 0 (critical, an interrupt per frame), UDP 6000 to queue 1
 * (moderated: 4 frames, 4 us after the last, 20 us after the first); rings of 16, so that
 * no buffer is written twice in the short run and the testbench reads what the CPU read */
static const struct prionic_rule_cfg test_rules[] = {
    {PRIONIC_PROTO_UDP, 5000, 5000, 0},
    {PRIONIC_PROTO_UDP, 6000, 6000, 1},
};
static const struct prionic_queue_cfg test_queues[NQ] = {
    {RING_REGION, BUF_REGION, 16, 512, 4, {0, 0, 0, 0, 1}},
    {RING_REGION + RING_STRIDE, BUF_REGION + BUF_STRIDE, 16, 512, 3, {4, 4, 20, 0, 0}},
};

/* FW_MODE_PAPER: scenarios/paper.toml's prionic configuration. Queue 0: telemetry (UDP 6000)
 * and bulk (TCP 8000-8100), 96 buffers of 2 KiB, 32 frames or 200 us after the first, at
 * most one interrupt per 100 us; queue 1: the control loop (UDP 5000), an interrupt per
 * frame; every other frame dropped in the NIC */
static const struct prionic_rule_cfg paper_rules[] = {
    {PRIONIC_PROTO_UDP, 5000, 5000, 1},
    {PRIONIC_PROTO_UDP, 6000, 6000, 0},
    {PRIONIC_PROTO_TCP, 8000, 8100, 0},
};
static const struct prionic_queue_cfg paper_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, 3, {32, 0, 200, 100, 0}},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, 4, {0, 0, 0, 0, 1}},
};

/* the paper's critical task costs 20 us a control frame: PAPER_WCET_ITER iterations of
 * control_law() take 2,500 cycles on VexRiscv_Lite (9 a turn; fw_summary.wcet_cycles) */
#define TEST_WCET_ITER  100u
#define PAPER_WCET_ITER 276u

static const struct fw_conf confs[] = {
    {{CLK_HZ, 125, -1, test_rules, 2, NQ, test_queues, 0}, 0, TEST_WCET_ITER},
    {{CLK_HZ, 125, -1, paper_rules, 3, NQ, paper_queues, 0}, 1, PAPER_WCET_ITER},
};

static const struct fw_conf *conf;

/* ------------------------------------------------------------------ receive path */

static struct k_sem rx_sem[NQ];
static volatile uint32_t recover_pending;   /* queues stopped by a DMA error, for their task */
static volatile uint32_t isr_time[NQ];      /* mtime of the ISR that last woke each queue's task */

static void irq_err_mask(int on) {
    if (on)
        csr_clear(0xBC0, 1u << NQ);   /* VexRiscv's external interrupt mask: bit NQ is irq_err */
    else
        csr_set(0xBC0, 1u << NQ);
}

void board_external_irq(void) {
    uint32_t t = k_now(), lines, q;
    fw_summary.isr_runs++;
    lines = mmio_rd(SYS_NIC_BASE + PRIONIC_IRQ_STATUS);
    if (lines) prionic_irq_ack(&dev, lines);   /* first: a completion after it raises the line again */
    if (csr_read(0xFC0) >> NQ & 1u) {          /* VexRiscv's pending external interrupts: irq_err */
        uint32_t stopped = prionic_dma_errors(&dev);
        irq_err_mask(1);                       /* a level until the recovery: the task unmasks it */
        recover_pending |= stopped;
        lines |= stopped;
    }
    for (q = 0; q < NQ; q++) {
        if (!(lines >> q & 1u)) continue;
        isr_time[q] = t;
        k_sem_post(&rx_sem[q]);
    }
    fw_summary.isr_cycles += k_now() - t;
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

/* one frame, handled by its queue's task: checked, the control law's cost if it is the
 * critical queue's, then its record to the trace port */
static void handle(void *arg, const struct prionic_completion *c) {
    unsigned q = c->queue;
    uint32_t t, resp, mie, buf = (uint32_t)(c->buf_addr - buf_moved[q]);
    uint32_t csum = checksum((const uint8_t *)(uintptr_t)buf, c->len);
    (void)arg;
    if (q == conf->critical_q) control_law(c->ts);
    t = k_now();
    /* one record, whole: a task that preempts this one writes its own after it */
    mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    mmio_wr(SYS_TRACE, FW_REC_MARK | (uint32_t)q << 16 | c->slot);
    mmio_wr(SYS_TRACE, c->len);
    mmio_wr(SYS_TRACE, c->rule | (uint32_t)c->desc_queue << 8);
    mmio_wr(SYS_TRACE, c->status);
    mmio_wr(SYS_TRACE, c->ts);
    mmio_wr(SYS_TRACE, c->info);
    mmio_wr(SYS_TRACE, buf);
    mmio_wr(SYS_TRACE, csum);
    mmio_wr(SYS_TRACE, isr_time[q]);
    mmio_wr(SYS_TRACE, t);
    if (mie) csr_set(mstatus, MSTATUS_MIE);
    resp = t - c->ts;
    fw_summary.frames[q]++;
    fw_summary.resp_sum[q] += resp;
    if (resp > fw_summary.resp_max[q]) fw_summary.resp_max[q] = resp;
}

/* F24: a queue stopped by a DMA error (docs/faults.md section 3), recovered by its task with
 * interrupts on. Its ring restarts at slot 0 with fresh buffers (the old ones plus RING_SIZE
 * x BUF_SIZE), so that in the short run every buffer is written at most once and the
 * testbench reads each frame's bytes as the CPU read them; the completions the recovery
 * reaps are in the buffers of before the move. */
static void recover(unsigned q) {
    int rc;
    uint64_t move = (uint64_t)dev.q[q].cfg.ring_size * dev.q[q].cfg.buf_size;
    dev.q[q].cfg.buf_base += move;
    buf_moved[q] = move;
    rc = prionic_queue_recover(&dev, q, handle, 0, 1000);
    buf_moved[q] = 0;
    fw_summary.recoveries++;
    if (rc != PRIONIC_OK) fw_summary.recover_rc = (uint32_t)rc;
}

/* a queue's receive task: woken by the ISR, reaps every completion in its ring, handles
 * each, then gives the buffers back with one doorbell */
static void rx_loop(unsigned q) {
    for (;;) {
        uint32_t t0, n;
        k_sem_wait(&rx_sem[q]);
        t0 = k_now();
        if (recover_pending >> q & 1u) {
            recover(q);
            csr_clear(mstatus, MSTATUS_MIE);
            recover_pending &= ~(1u << q);
            if (!recover_pending) irq_err_mask(0);
            csr_set(mstatus, MSTATUS_MIE);
        }
        n = prionic_reap(&dev, q, handle, 0, 0);
        if (n) prionic_post(&dev, q, n);
        fw_summary.rx_cycles[q] += k_now() - t0;
    }
}

/* ------------------------------------------------------------------ tasks */

static struct k_task t_rx[NQ], t_mon, t_idle;
static uint32_t stk_rx[NQ][256] __attribute__((section(".noinit")));
static uint32_t stk_mon[256] __attribute__((section(".noinit")));
static uint32_t stk_idle[128] __attribute__((section(".noinit")));

static void rx0_task(void) { rx_loop(0); }
static void rx1_task(void) { rx_loop(1); }

static void summary(void) {
    unsigned q;
    con_puts("prionic fw: summary\n");
    for (q = 0; q < NQ; q++) {
        con_puts(q == conf->critical_q ? "  critical " : "  app      ");
        con_puts("frames ");
        con_dec(fw_summary.frames[q]);
        con_puts(" response max ");
        con_dec(fw_summary.resp_max[q]);
        con_puts(" mean ");
        con_dec(fw_summary.frames[q] ? fw_summary.resp_sum[q] / fw_summary.frames[q] : 0);
        con_puts(" cycles\n");
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

/* a ring is empty when its next slot to reap has no DD: nothing is left for its task */
static int rings_empty(void) {
    unsigned q;
    for (q = 0; q < NQ; q++)
        if (rx_sem[q].count || recover_pending || prionic_rx_pending(&dev, q)) return 0;
    return 1;
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
    unsigned crit;
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
    crit = conf->critical_q;
    control_law(0);   /* once to fill the instruction cache, then timed */
    fw_summary.wcet_cycles = k_now();
    control_law(0);
    fw_summary.wcet_cycles = k_now() - fw_summary.wcet_cycles;
    k_init(TICK_CYCLES);
    k_task_create(&t_rx[crit], "critical", 3, crit ? rx1_task : rx0_task, stk_rx[crit], 256);
    k_task_create(&t_rx[!crit], "app", 2, crit ? rx0_task : rx1_task, stk_rx[!crit], 256);
    k_task_create(&t_mon, "monitor", 1, monitor_task, stk_mon, 256);
    k_task_create(&t_idle, "idle", 0, idle_task, stk_idle, 128);
    con_puts("prionic fw: NIC configured, kernel starting\n");
    mmio_wr(SYS_FW_STATE, FW_STATE_READY);
    k_start();
}
