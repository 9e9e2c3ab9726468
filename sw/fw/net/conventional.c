/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/conventional.c: FW_MODE_CONVENTIONAL. One queue of 128 buffers (those of both
 * prionic rings), no rule, every frame delivered (DEFAULT_ACTION queue 0), an interrupt per
 * frame (net_conventional_queues, which ratelimit and swdemux share). The receive work
 * above every task (a softirq: the ISR wakes it, interrupts stay on); control frames found
 * by their port go to the critical task.
 */
#include "net/rx.h"

const struct prionic_queue_cfg net_conventional_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 128, 2048, NO_GATE, IMMEDIATE},
    NO_QUEUE,
};

const struct fw_conf net_conf_conventional = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_conventional_queues, 0},
                                              RX_PLAIN, NQ, {PRIO_SOFTIRQ, 0}, PAPER_WCET_ITER, 0};
