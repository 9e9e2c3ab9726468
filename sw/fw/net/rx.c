/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/rx.c: the NIC and the receive path every configuration shares (docs/system.md).
 *
 * The NIC: the driver's platform (registers at SYS_NIC_BASE, memory by memcpy), the
 * configuration net_init takes, the kernel's interrupt handler (net_irq) and switch hook
 * (net_switch: the running priority to RUN_PRIO, F16).
 *
 * The ISR only acknowledges and wakes: it posts the semaphore of each queue whose line it
 * saw, and on irq_err masks that line and marks the stopped queues, whose receive task
 * recovers them (F24). A receive task gives its buffers back after it has handled them.
 * Where the NIC steers the control flow to a queue of its own, that queue's receive task
 * is the critical task; otherwise the receive path finds control frames by their UDP port
 * and hands them to the critical task (net_crit_task) through a mailbox.
 *
 * Each frame the host read is one record of FW_REC_WORDS words on the system's TRACE port
 * (a file the testbench reads): the write-back's fields as read, where the bytes were,
 * their checksum, the mtime of the ISR that woke the task and of the frame's end.
 */
#include "net/rx.h"

#include <stdint.h>

#include "board/board.h"
#include "board/lib.h"
#include "board/sysmap.h"
#include "kernel/kernel.h"
#include "net/net.h"
#include "prionic_drv.h"

struct fw_summary fw_summary;
struct prionic_dev net_dev;
const struct fw_conf *net_conf;

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

static const struct fw_conf *const confs[FW_MODE_COUNT] = {
    [FW_MODE_TEST] = &net_conf_test,
    [FW_MODE_PRIONIC] = &net_conf_prionic,
    [FW_MODE_CONVENTIONAL] = &net_conf_conventional,
    [FW_MODE_RTOS] = &net_conf_rtos,
    [FW_MODE_MULTIQUEUE] = &net_conf_multiqueue,
    [FW_MODE_NAPI] = &net_conf_napi,
    [FW_MODE_RATELIMIT] = &net_conf_ratelimit,
    [FW_MODE_SWDEMUX] = &net_conf_swdemux,
    [FW_MODE_NAPI_THREADED] = &net_conf_napi_threaded,
    [FW_MODE_I210] = &net_conf_i210,
};

/* ------------------------------------------------------------------ receive path */

struct k_sem net_rx_sem[NQ];
static volatile uint32_t recover_pending;   /* queues stopped by a DMA error, for their task */
volatile uint32_t net_isr_time[NQ];
static uint32_t rx_seq[NQ];                 /* completions reaped per queue */
static volatile uint32_t irq_mask;          /* IRQ_MASK as last written (napi, ratelimit) */

void net_irq_mask_update(uint32_t set, uint32_t clear) {
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    irq_mask = (irq_mask | set) & ~clear;
    mmio_wr(SYS_NIC_BASE + PRIONIC_IRQ_MASK, irq_mask);
    if (mie) csr_set(mstatus, MSTATUS_MIE);
}

/* VexRiscv's external interrupt lines: the build's NUM_QUEUES irq lines, then irq_err */
static uint32_t irq_err_line(void) { return 1u << net_dev.hw_queues; }

static void irq_err_mask(int on) {
    if (on)
        board_irq_mask(irq_err_line());
    else
        board_irq_unmask(irq_err_line());
}

/* The checksum of a frame's bytes: two running sums over its little-endian 32-bit words
 * (Fletcher's, 32-bit, no modulus; the last word's bytes beyond the frame count as 0),
 * folded once at the end: tb/top/host.py fletcher32. Loads and adds only (VexRiscv_Lite
 * multiplies and shifts one bit a cycle); the buffer is word aligned. */
uint32_t net_checksum(const uint8_t *p, uint32_t n) {
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

void net_control_law(uint32_t seed) {
    uint32_t i, acc = seed;
    for (i = 0; i < net_conf->wcet_iter; i++) acc = (acc ^ i) + 0x9E3779B9u;
    wcet_sink = acc;
}

/* the record is written whole: a task that preempts this one writes its own after it */
void net_record(const struct prionic_completion *c, uint32_t buf, uint32_t csum, uint32_t t_isr, uint32_t seq,
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

/* the control flow's frames, found in software (critical_q == NQ) */
int net_is_control(const uint8_t *p, uint32_t len) {
    return len >= 38 && p[12] == 0x08 && p[13] == 0x00 && p[14] == 0x45 && p[23] == 17 &&
           p[36] == (CTRL_PORT >> 8) && p[37] == (CTRL_PORT & 0xFFu);
}

int net_has_socket(const uint8_t *p, uint32_t len) {
    uint32_t port;
    if (len < 38 || p[12] != 0x08 || p[13] != 0x00 || p[14] != 0x45) return 0;
    port = (uint32_t)p[36] << 8 | p[37];
    return (p[23] == 17 && port == 6000u) || (p[23] == 6 && port >= 8000u && port <= 8100u);
}

struct rx_frame net_crit_box[CRIT_BOX];
volatile uint32_t net_crit_head, net_crit_tail;
struct k_sem net_crit_sem;

/* one frame, in its queue's receive task: checked; a control frame gets the control law
 * here when this is the critical task, else goes to it; then its record */
void net_receive(void *arg, const struct prionic_completion *c) {
    unsigned q = c->queue;
    uint32_t buf = (uint32_t)(c->buf_addr - buf_moved[q]), seq = rx_seq[q]++, csum;
    struct rx_frame *f;
    (void)arg;
    if (net_conf->rx_kind == RX_SWDEMUX) {
        swd_demux(c, buf, seq);
        return;
    }
    if (net_conf->early_filter && !net_is_control((const uint8_t *)(uintptr_t)buf, c->len) &&
        !net_has_socket((const uint8_t *)(uintptr_t)buf, c->len)) {
        fw_summary.early_drops++;   /* the port check only: no socket, returned unread */
        net_record(c, buf, 0, net_isr_time[q], seq, k_now(), -1);
        return;
    }
    csum = net_checksum((const uint8_t *)(uintptr_t)buf, c->len);
    if (net_conf->critical_q < NQ) {
        if (q == net_conf->critical_q) net_control_law(c->ts);
        net_record(c, buf, csum, net_isr_time[q], seq, k_now(), q == net_conf->critical_q);
    } else if (!net_is_control((const uint8_t *)(uintptr_t)buf, c->len)) {
        net_record(c, buf, csum, net_isr_time[q], seq, k_now(), 0);
    } else if (net_crit_tail - net_crit_head >= CRIT_BOX) {
        net_record(c, buf, csum, net_isr_time[q], seq, FW_T_LOST, 1);   /* the critical task is behind: dropped */
    } else {
        f = &net_crit_box[net_crit_tail % CRIT_BOX];
        f->c = *c;
        f->buf = buf;
        f->csum = csum;
        f->t_isr = net_isr_time[q];
        f->seq = seq;
        net_crit_tail++;
        k_sem_post(&net_crit_sem);
    }
}

/* F24: a queue stopped by a DMA error (docs/faults.md section 3), recovered by its receive
 * task with interrupts on. Its ring restarts at slot 0 with fresh
 * buffers (the old ones plus RING_SIZE x BUF_SIZE), so that in the short run every buffer is
 * written at most once and the testbench reads each frame's bytes as the CPU read them; the
 * completions the recovery reaps are in the buffers of before the move. */
static void recover(unsigned q) {
    int rc;
    uint64_t move = (uint64_t)net_dev.q[q].cfg.ring_size * net_dev.q[q].cfg.buf_size;
    net_dev.q[q].cfg.buf_base += move;
    buf_moved[q] = move;
    rc = prionic_queue_recover(&net_dev, q, net_receive, 0, 1000);
    buf_moved[q] = 0;
    fw_summary.recoveries++;
    if (rc != PRIONIC_OK) fw_summary.recover_rc = (uint32_t)rc;
}

/* the kernel's external interrupt handler */
static void net_irq(void) {
    uint32_t t = k_now(), lines, q;
    fw_summary.isr_runs++;
    lines = mmio_rd(SYS_NIC_BASE + PRIONIC_IRQ_STATUS) & ~fw_summary.unreaped;   /* a sink's cause: never taken */
    if (lines) prionic_irq_ack(&net_dev, lines);   /* first: a completion after it raises the line again */
    if (board_irq_pending() & irq_err_line()) {    /* VexRiscv's pending external interrupts: irq_err */
        uint32_t stopped = prionic_dma_errors(&net_dev);
        irq_err_mask(1);                           /* a level until the recovery, which unmasks it */
        recover_pending |= stopped;
        lines |= stopped;
    }
    if (net_conf->rx_kind == RX_NAPI && lines) net_irq_mask_update(lines, 0);   /* the poll owns the queue now */
    if (net_conf->rx_kind == RX_RATELIMIT && lines) rl_irq(t);
    for (q = 0; q < NQ; q++) {
        if (!(lines >> q & 1u)) continue;
        net_isr_time[q] = t;
        k_sem_post(&net_rx_sem[q]);
    }
    fw_summary.isr_cycles += k_now() - t;
}

/* the kernel's switch hook: the NIC gates each queue's interrupt by the running priority (F16) */
static void net_switch(uint32_t prio) { mmio_wr(SYS_NIC_BASE + PRIONIC_RUN_PRIO, prio); }

/* a queue's receive task: woken by the ISR, reaps every completion in its ring, handles
 * each, then gives the buffers back with one doorbell */
void net_rx_loop(unsigned q) {
    if (net_conf->rx_kind == RX_NAPI) napi_loop(q);
    if (net_conf->rx_kind == RX_RATELIMIT) rl_loop(q);
    for (;;) {
        uint32_t n;
        k_sem_wait(&net_rx_sem[q]);
        if (recover_pending >> q & 1u) {
            recover(q);
            csr_clear(mstatus, MSTATUS_MIE);
            recover_pending &= ~(1u << q);
            if (!recover_pending) irq_err_mask(0);
            csr_set(mstatus, MSTATUS_MIE);
        }
        n = prionic_reap(&net_dev, q, net_receive, 0, 0);
        if (n && net_conf->rx_kind != RX_SWDEMUX) prionic_post(&net_dev, q, n);   /* swdemux: swd_give_back */
    }
}

/* the critical task of a software demux: the control law for each frame of its mailbox */
void net_crit_task(void) {
    for (;;) {
        struct rx_frame *f;
        k_sem_wait(&net_crit_sem);
        f = &net_crit_box[net_crit_head % CRIT_BOX];
        if (net_conf->rx_kind == RX_SWDEMUX) f->csum = net_checksum((const uint8_t *)(uintptr_t)f->buf, f->c.len);
        net_control_law(f->c.ts);
        net_record(&f->c, f->buf, f->csum, f->t_isr, f->seq, k_now(), 1);
        if (net_conf->rx_kind == RX_SWDEMUX) swd_give_back(f->c.slot);
        net_crit_head++;
    }
}

/* a ring is empty when its next slot to reap has no DD: nothing is left for its task (a
 * queue of no task, i210's sink, is never reaped); the critical task's mailbox is empty */
int net_drained(void) {
    unsigned q;
    if (recover_pending) return 0;
    for (q = 0; q < NQ; q++)
        if (net_conf->rx_prio[q] && (net_rx_sem[q].count || prionic_rx_pending(&net_dev, q))) return 0;
    return net_crit_head == net_crit_tail && swd_drained();
}

uint32_t net_reg_read(uint32_t off) { return reg_read(0, off); }

uint32_t net_refused(void) {
    uint32_t bits = 0, q;
    for (q = 0; q < net_dev.num_queues; q++) bits |= (uint32_t)prionic_ring_refused(&net_dev, q) << q;
    return bits;
}

/* the NIC programmed; a queue set up with no receive task (i210's sink) has its interrupt
 * masked from the start: the driver never takes it (the testbench reads that ring itself) */
int net_init(uint32_t mode) {
    int rc;
    uint32_t q;
    if (mode >= FW_MODE_COUNT) return PRIONIC_EINVAL;
    net_conf = confs[mode];
    k_set_irq_handler(net_irq);
    k_set_switch_hook(net_switch);
    rc = prionic_init(&net_dev, &plat, &net_conf->nic);
    if (rc != PRIONIC_OK) return rc;
    for (q = 0; q < net_conf->nic.num_queues; q++)
        if (!net_conf->rx_prio[q] && net_conf->nic.queues[q].ring_size) fw_summary.unreaped |= 1u << q;
    if (fw_summary.unreaped) net_irq_mask_update(fw_summary.unreaped, 0);
    return PRIONIC_OK;
}
