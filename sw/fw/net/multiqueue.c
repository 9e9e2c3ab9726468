/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/multiqueue.c: FW_MODE_MULTIQUEUE (an i210-style NIC). An n-tuple rule steers
 * the control port to queue 1, an interrupt per frame; everything else to queue 0 with
 * e1000e moderation; no RUN_PRIO gating. A receive task per queue at the queue's priority:
 * queue 1's is the critical task.
 */
#include "net/rx.h"

static const struct prionic_rule_cfg rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 1},
};
static const struct prionic_queue_cfg queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, NO_GATE, E1000E},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, NO_GATE, IMMEDIATE},
};

const struct fw_conf net_conf_multiqueue = {{CLK_HZ, 125, 0, rules, 1, NQ_PAPER, queues, 0},
                                            RX_PLAIN, 1, {PRIO_APP, PRIO_CRIT}, PAPER_WCET_ITER, 0};
