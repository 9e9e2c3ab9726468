/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/ratelimit.c: FW_MODE_RATELIMIT, Behnke et al.'s rate-limited ISR. As
 * conventional on the NIC (one queue of 128 buffers, every frame, an interrupt per frame);
 * one network task below the critical task, woken by each ISR until RL_LIMIT ISRs fall
 * within RL_WINDOW_CYC; then every queue is masked and the task polls the ring every
 * RL_POLL_TICKS until a poll finds it empty (clear the cause, look once more, unmask).
 * Control frames found by their port go to the critical task.
 */
#include "net/rx.h"

#define RL_LIMIT         3u                   /* ISRs ... */
#define RL_WINDOW_CYC    (2000u * 125u)       /* ... within 2 ms switch to polling */
#define RL_POLL_TICKS    10u                  /* every 1 ms */

const struct fw_conf net_conf_ratelimit = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_conventional_queues, 0},
                                           RX_RATELIMIT, NQ, {PRIO_NET, 0}, PAPER_WCET_ITER, 0};

static volatile uint32_t rl_polling;        /* interrupts off, the ring polled */
static uint32_t rl_hist[RL_LIMIT], rl_n;    /* the last ISRs' mtime */

void rl_irq(uint32_t t) {
    rl_hist[rl_n++ % RL_LIMIT] = t;   /* rl_hist[rl_n % RL_LIMIT]: the oldest of the last RL_LIMIT */
    if (rl_n >= RL_LIMIT && t - rl_hist[rl_n % RL_LIMIT] < RL_WINDOW_CYC) {
        rl_polling = 1;               /* too many: interrupts off, the network task polls */
        rl_n = 0;
        net_irq_mask_update((1u << net_dev.num_queues) - 1u, 0);
    }
}

/* woken by each ISR while interrupts are on; while the ISR has switched to polling, the
 * whole ring every RL_POLL_TICKS, until a poll finds it empty */
void rl_loop(unsigned q) {
    for (;;) {
        uint32_t n;
        if (!rl_polling) k_sem_wait(&net_rx_sem[q]);
        n = prionic_reap(&net_dev, q, net_receive, 0, 0);
        if (n) prionic_post(&net_dev, q, n);
        if (!rl_polling) continue;
        if (!n) {
            prionic_irq_ack(&net_dev, 1u << q);
            if (!prionic_rx_pending(&net_dev, q)) {
                rl_polling = 0;
                net_irq_mask_update(0, (1u << net_dev.num_queues) - 1u);
                continue;
            }
        }
        k_sleep(RL_POLL_TICKS);
    }
}
