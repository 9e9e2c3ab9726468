/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/main.c: the full-system firmware (F28, docs/system.md). It programs prionic_rx
 * with the project's driver (sw/driver/), takes its interrupts and runs four tasks on the
 * kernel (kernel.h), highest priority first:
 *
 *   ctrl (3)     the critical control task: woken by each frame of queue 0 (rule 0, UDP
 *                port CTRL_PORT), checks the frame's bytes and runs a fixed WCET loop;
 *   be (2)       the best-effort receiver: each frame of queue 1 (rule 1, UDP port
 *                BE_PORT, moderated interrupts), checked;
 *   monitor (1)  sleeps on the tick; once the testbench sets CTRL.STOP and every frame
 *                reaped has been handled, reads the NIC's registers back, prints the
 *                summary on the console and writes EXIT;
 *   idle (0).
 *
 * QUEUE_PRIO of queue 0 is 4 (above every task), of queue 1 is 3: queue 1's interrupt
 * waits while the control task runs (RUN_PRIO 3, F16).
 *
 * The ISR reaps both queues (prionic_isr) and logs each completion in fw_log with the
 * mtime of the ISR; the task that handles it adds the checksum of the bytes it read and
 * the mtime when it finished. The testbench reads fw_log, fw_summary and fw_readback_val
 * after EXIT (their addresses from the ELF's symbols) and checks them against the model.
 */
#include <stdint.h>

#include "kernel.h"
#include "lib.h"
#include "prionic_drv.h"
#include "sysmap.h"

#define CLK_HZ         125000000u
#define TICK_CYCLES    10000u         /* 80 us */
#define NQ             2u
#define RING_SIZE0     16u            /* more slots than frames per queue in the test: no buffer is */
#define RING_SIZE1     16u            /* written twice in a run, so the testbench reads what the CPU read */
#define BUF_SIZE       512u
#define CTRL_PORT      5000u
#define BE_PORT        6000u
#define CTRL_WCET_ITER 100u
#define FW_LOG_MAX     128u
#define READBACK_MAX   256u

struct fw_rec {
    uint32_t qslot;     /* queue << 16 | slot */
    uint32_t len;
    uint32_t rule_q;    /* rule | write-back queue byte << 8 */
    uint32_t status;
    uint32_t ts;        /* the NIC's TIMESTAMP at the frame's tlast */
    uint32_t info;
    uint32_t buf;       /* where the bytes were read */
    uint32_t csum;      /* checksum() of the bytes, by the task */
    uint32_t t_isr;     /* mtime at the ISR that reaped it */
    uint32_t t_done;    /* mtime when its task finished it */
};

struct fw_summary {
    uint32_t init_rc;
    uint32_t frames[NQ];
    uint32_t resp_max[NQ];    /* t_done - ts, cycles */
    uint32_t resp_sum[NQ];
    uint32_t isr_runs;
    uint32_t switches;
    uint32_t ticks;
    uint32_t dropped_log;     /* completions beyond FW_LOG_MAX (not logged) */
    uint32_t readback_n;
    uint32_t refused;
    uint32_t isr_cycles;      /* mtime spent in board_external_irq */
    uint32_t recoveries;      /* queues recovered after a DMA error (F24) */
    uint32_t recover_rc;      /* the last failed prionic_queue_recover's code, 0 if none failed */
};

/* .noinit: not cleared at boot (only the first fw_log_n entries are ever read) */
struct fw_rec fw_log[FW_LOG_MAX] __attribute__((section(".noinit")));
volatile uint32_t fw_log_n;
struct fw_summary fw_summary;
uint32_t fw_readback_val[READBACK_MAX];
/* written by the testbench while the CPU is in reset: the register offsets to read at the end */
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

static const struct prionic_rule_cfg rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 0},
    {PRIONIC_PROTO_UDP, BE_PORT, BE_PORT, 1},
};

static const struct prionic_queue_cfg queues[NQ] = {
    {RING_REGION, BUF_REGION, RING_SIZE0, BUF_SIZE, 4, {0, 0, 0, 0, 1}},
    /* moderated: 4 frames, 4 us after the last, 20 us after the first */
    {RING_REGION + RING_STRIDE, BUF_REGION + BUF_STRIDE, RING_SIZE1, BUF_SIZE, 3, {4, 4, 20, 0, 0}},
};

static const struct prionic_config cfg = {
    CLK_HZ, 125, -1, rules, 2, NQ, queues, 0,
};

/* ------------------------------------------------------------------ receive path */

static struct k_sem rx_sem[NQ];
static uint8_t mbox[NQ][FW_LOG_MAX];
static volatile uint32_t mbox_head[NQ], mbox_tail[NQ];
static uint32_t isr_time;

static void on_rx(void *arg, const struct prionic_completion *c) {
    uint32_t n = fw_log_n;
    struct fw_rec *r;
    (void)arg;
    if (n >= FW_LOG_MAX) {
        fw_summary.dropped_log++;
        return;
    }
    r = &fw_log[n];
    r->qslot = c->queue << 16 | c->slot;
    r->len = c->len;
    r->rule_q = c->rule | (uint32_t)c->desc_queue << 8;
    r->status = c->status;
    r->ts = c->ts;
    r->info = c->info;
    r->buf = (uint32_t)c->buf_addr;
    r->t_isr = isr_time;
    fw_log_n = n + 1;
    mbox[c->queue][mbox_tail[c->queue] % FW_LOG_MAX] = (uint8_t)n;
    mbox_tail[c->queue]++;
    k_sem_post(&rx_sem[c->queue]);
}

/* F24: a queue stopped by a DMA error (docs/faults.md section 3). Its ring restarts at slot 0:
 * it gets fresh buffers, so that every buffer is written at most once in a run and the
 * testbench reads each frame's bytes as the CPU read them. */
static uint64_t old_buffers;   /* how far the recovering queue's buffers moved */

/* a completion the recovery reaps is in the buffers of before the move */
static void on_rx_recovered(void *arg, const struct prionic_completion *c) {
    struct prionic_completion old = *c;
    old.buf_addr -= old_buffers;
    on_rx(arg, &old);
}

static void recover(unsigned q) {
    int rc;
    old_buffers = (uint64_t)dev.q[q].cfg.ring_size * dev.q[q].cfg.buf_size;
    dev.q[q].cfg.buf_base += old_buffers;
    rc = prionic_queue_recover(&dev, q, on_rx_recovered, 0, 1000);
    fw_summary.recoveries++;
    if (rc != PRIONIC_OK) fw_summary.recover_rc = (uint32_t)rc;
}

void board_external_irq(void) {
    unsigned q;
    isr_time = k_now();
    fw_summary.isr_runs++;
    prionic_isr(&dev, on_rx, 0);
    if (csr_read(0xFC0) >> NQ & 1u) {   /* VexRiscv's pending external interrupts: irq_err */
        uint32_t stopped = prionic_dma_errors(&dev);
        for (q = 0; q < NQ; q++)
            if (stopped >> q & 1u) recover(q);
    }
    fw_summary.isr_cycles += k_now() - isr_time;
}

/* The checksum of a frame's bytes: two running sums (Fletcher's, 32-bit, no modulus), folded
 * once at the end. Adds only: VexRiscv_Lite multiplies one bit a cycle and shifts one
 * position a cycle (its light shifter), so FNV's multiply or its shift form costs ~40
 * cycles a byte, this ~4. */
static uint32_t checksum(const uint8_t *p, uint32_t n) {
    uint32_t s1 = 0, s2 = 0;
    while (n--) {
        s1 += *p++;
        s2 += s1;
    }
    return s2 ^ s1 << 16;
}

static volatile uint32_t wcet_sink;

static void handle(unsigned q, uint32_t wcet_iter) {
    uint32_t idx = mbox[q][mbox_head[q] % FW_LOG_MAX];
    struct fw_rec *r = &fw_log[idx];
    uint32_t i, acc = r->ts, t, resp;
    mbox_head[q]++;
    r->csum = checksum((const uint8_t *)(uintptr_t)r->buf, r->len);
    for (i = 0; i < wcet_iter; i++) acc = (acc ^ i) + 0x9E3779B9u;   /* the control law's fixed cost */
    wcet_sink = acc;
    t = k_now();
    r->t_done = t;
    resp = t - r->ts;
    fw_summary.frames[q]++;
    fw_summary.resp_sum[q] += resp;
    if (resp > fw_summary.resp_max[q]) fw_summary.resp_max[q] = resp;
}

/* ------------------------------------------------------------------ tasks */

static struct k_task t_ctrl, t_be, t_mon, t_idle;
static uint32_t stk_ctrl[256] __attribute__((section(".noinit")));
static uint32_t stk_be[256] __attribute__((section(".noinit")));
static uint32_t stk_mon[256] __attribute__((section(".noinit")));
static uint32_t stk_idle[128] __attribute__((section(".noinit")));

static void ctrl_task(void) {
    for (;;) {
        k_sem_wait(&rx_sem[0]);
        handle(0, CTRL_WCET_ITER);
    }
}

static void be_task(void) {
    for (;;) {
        k_sem_wait(&rx_sem[1]);
        handle(1, 0);
    }
}

static void summary(void) {
    unsigned q;
    con_puts("prionic fw: summary\n");
    for (q = 0; q < NQ; q++) {
        con_puts(q ? "  be   " : "  ctrl ");
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

static void monitor_task(void) {
    uint32_t i, n;
    for (;;) {
        k_sleep(1);
        if (!(mmio_rd(SYS_CTRL) & SYS_CTRL_STOP)) continue;
        if (mbox_head[0] != mbox_tail[0] || mbox_head[1] != mbox_tail[1]) continue;
        csr_clear(mstatus, 1u << 3);   /* the end: nothing runs after this */
        n = fw_readback_n < READBACK_MAX ? fw_readback_n : READBACK_MAX;
        for (i = 0; i < n; i++) fw_readback_val[i] = reg_read(0, fw_readback_addr[i]);
        fw_summary.readback_n = n;
        fw_summary.switches = k_switches();
        fw_summary.ticks = k_ticks();
        fw_summary.refused = prionic_ring_refused(&dev, NQ);
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
    rc = prionic_init(&dev, &plat, &cfg);
    fw_summary.init_rc = (uint32_t)rc;
    if (rc != PRIONIC_OK) {
        con_puts("prionic fw: prionic_init failed\n");
        mmio_wr(SYS_EXIT, 0x200u | (uint32_t)-rc);
        for (;;) {
        }
    }
    k_init(TICK_CYCLES);
    k_task_create(&t_ctrl, "ctrl", 3, ctrl_task, stk_ctrl, 256);
    k_task_create(&t_be, "be", 2, be_task, stk_be, 256);
    k_task_create(&t_mon, "monitor", 1, monitor_task, stk_mon, 256);
    k_task_create(&t_idle, "idle", 0, idle_task, stk_idle, 128);
    con_puts("prionic fw: NIC configured, kernel starting\n");
    mmio_wr(SYS_FW_STATE, FW_STATE_READY);
    k_start();
}
