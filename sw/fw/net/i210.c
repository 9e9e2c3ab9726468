/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/i210.c: FW_MODE_I210, an i210 as its engineers configure it (docs/paper.md
 * section 1, bench/baselines.py i210). Its 2-tuple filters steer each registered port of
 * scenarios/paper.toml to its queue: UDP 5000 to queue 1 (an interrupt per frame), UDP 6000
 * and TCP 8080 (the bulk flow's port) to queue 0 (96 buffers, per-queue EITR as prionic's
 * moderation: 32 frames or 200 us, at most one interrupt per 100 us). Everything else goes
 * to a sink queue, the third: a ring of 2 descriptors (one buffer) that the driver never
 * refills and whose interrupt it never enables (SRRCTL.DROP_EN: once its buffer is used the
 * NIC drops the rest as RING_FULL). No RUN_PRIO gating (QUEUE_PRIO 255). A receive task
 * per queue at the queue's priority: queue 1's is the critical task; the driver checks the
 * port before any protocol work. Needs a build with three queues (bench/paper_sys.py).
 */
#include "net/rx.h"

#define SINK_BUFS (BUF_REGION + 2u * BUF_STRIDE)   /* above queue 0's region: 0xE0000 */

static const struct prionic_rule_cfg rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 1},
    {PRIONIC_PROTO_UDP, 6000, 6000, 0},
    {PRIONIC_PROTO_TCP, 8080, 8080, 0},
};
static const struct prionic_queue_cfg queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, NO_GATE, {32, 0, 200, 100, 0}},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, NO_GATE, IMMEDIATE},
    {RING_REGION + 2u * RING_STRIDE, SINK_BUFS, 2, 2048, NO_GATE, {0, 0, 0, 0, 0}},
};

const struct fw_conf net_conf_i210 = {{CLK_HZ, 125, 2, rules, 3, NQ, queues, 0},
                                      RX_PLAIN, 1, {PRIO_APP, PRIO_CRIT, 0}, PAPER_WCET_ITER, 1};
