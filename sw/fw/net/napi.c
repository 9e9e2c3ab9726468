/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/napi.c: FW_MODE_NAPI. As rtos on the NIC (one queue of 128 buffers, every
 * frame, e1000e moderation); the receive work is Linux NAPI: the ISR masks the queue
 * (IRQ_MASK, net/rx.c net_irq) and wakes the poll, which runs above every task and takes at
 * most NAPI_BUDGET frames a round; after NAPI_THREAD_CYC of polling the rest runs in
 * ksoftirqd, at PRIO_NET below the critical task. FW_MODE_NAPI_THREADED (threaded NAPI, as
 * PREEMPT_RT runs it) polls in a thread at PRIO_NET from the start. Control frames found by
 * their port go to the critical task.
 */
#include "net/rx.h"

#define NAPI_BUDGET      64u                  /* frames per poll round */
#define NAPI_THREAD_CYC  (2000u * 125u)       /* 2 ms of polling, then ksoftirqd */

const struct fw_conf net_conf_napi = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_rtos_queues, 0},
                                      RX_NAPI, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER, 0};
/* FW_MODE_NAPI_THREADED (PREEMPT_RT style): every round in the poll's thread at PRIO_NET */
const struct fw_conf net_conf_napi_threaded = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_rtos_queues, 0},
                                               RX_NAPI, NQ, {PRIO_NET, 0}, PAPER_WCET_ITER, 0};

/* woken by the ISR, which masked the queue; rounds of at most NAPI_BUDGET frames until the
 * ring is empty, then clear the cause, look once more and unmask */
void napi_loop(unsigned q) {
    uint8_t prio = net_conf->rx_prio[q];
    for (;;) {
        uint32_t n, start;
        k_sem_wait(&net_rx_sem[q]);
        start = k_now();
        for (;;) {
            n = prionic_reap_max(&net_dev, q, net_receive, 0, NAPI_BUDGET, 0);
            if (n) prionic_post(&net_dev, q, n);
            if (n < NAPI_BUDGET) {
                prionic_irq_ack(&net_dev, 1u << q);
                if (prionic_rx_pending(&net_dev, q)) continue;
                net_irq_mask_update(0, 1u << q);
                break;
            }
            if (k_now() - start >= NAPI_THREAD_CYC && prio != PRIO_NET) {
                prio = PRIO_NET;
                k_set_prio(prio);   /* ksoftirqd */
            }
        }
        if (prio != net_conf->rx_prio[q]) {
            prio = net_conf->rx_prio[q];
            k_set_prio(prio);
        }
    }
}
