/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/swdemux.c: FW_MODE_SWDEMUX, Behnke et al.'s early demultiplexing in the
 * driver. As rtos on the NIC (one queue of 128 buffers, every frame, e1000e moderation:
 * net_rtos_queues). The driver's poll (above every task) reads each frame's port only, returns a
 * frame of no socket at once (its record says its bytes were not read) and hands the
 * others to their receiver: the critical task (net_crit_task) or the application task
 * (swd_app_task), which do the frame's work (the checksum) at their priority. Each
 * receiver has a mailbox (its frames in reap order); buffers go back in ring order once
 * every receiver is done with them.
 */
#include "net/rx.h"

const struct fw_conf net_conf_swdemux = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_rtos_queues, 0},
                                         RX_SWDEMUX, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER, 0};

#define APP_BOX 128u
static struct rx_frame app_box[APP_BOX];
static volatile uint32_t app_head, app_tail;
static struct k_sem app_sem;
static uint8_t swd_done[128];           /* slot -> its frame is done (queue 0's ring, 128 slots) */
static uint32_t swd_next, swd_ready;    /* the oldest slot not given back; done slots before it */

void swd_give_back(unsigned slot) {
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    csr_clear(mstatus, MSTATUS_MIE);
    swd_done[slot] = 1;
    while (swd_done[swd_next]) {
        swd_done[swd_next] = 0;
        swd_next = swd_next + 1 == net_dev.q[0].cfg.ring_size ? 0 : swd_next + 1;
        swd_ready++;
    }
    swd_ready -= prionic_post(&net_dev, 0, swd_ready);
    if (mie) csr_set(mstatus, MSTATUS_MIE);
}

static void mailbox(struct rx_frame *f, const struct prionic_completion *c, uint32_t buf, uint32_t seq) {
    f->c = *c;
    f->buf = buf;
    f->csum = 0;
    f->t_isr = net_isr_time[c->queue];
    f->seq = seq;
}

/* the driver's poll: the port decides, nothing else is read here */
void swd_demux(const struct prionic_completion *c, uint32_t buf, uint32_t seq) {
    const uint8_t *p = (const uint8_t *)(uintptr_t)buf;
    if (net_is_control(p, c->len) && net_crit_tail - net_crit_head < CRIT_BOX) {
        mailbox(&net_crit_box[net_crit_tail % CRIT_BOX], c, buf, seq);
        net_crit_tail++;
        k_sem_post(&net_crit_sem);
    } else if (net_is_control(p, c->len)) {
        net_record(c, buf, net_checksum(p, c->len), net_isr_time[c->queue], seq, FW_T_LOST, 1);
        swd_give_back(c->slot);
    } else if (net_has_socket(p, c->len)) {
        mailbox(&app_box[app_tail % APP_BOX], c, buf, seq);
        app_tail++;
        k_sem_post(&app_sem);
    } else {
        net_record(c, buf, 0, net_isr_time[c->queue], seq, k_now(), -1);   /* no socket: returned at once */
        swd_give_back(c->slot);
    }
}

/* the best-effort receiver: the frame's work (its checksum) at the application's priority */
void swd_app_task(void) {
    for (;;) {
        struct rx_frame *f;
        k_sem_wait(&app_sem);
        f = &app_box[app_head % APP_BOX];
        f->csum = net_checksum((const uint8_t *)(uintptr_t)f->buf, f->c.len);
        net_record(&f->c, f->buf, f->csum, f->t_isr, f->seq, k_now(), 0);
        swd_give_back(f->c.slot);
        app_head++;
    }
}

int swd_drained(void) { return app_head == app_tail; }
