/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/prionic.c: FW_MODE_PRIONIC, scenarios/paper.toml's registers (docs/paper.md
 * section 1): telemetry (UDP 6000) and bulk (TCP 8000-8100) to queue 0, 96 buffers of
 * 2 KiB, 32 frames or 200 us after the first, at most one interrupt per 100 us; the control
 * loop to queue 1, an interrupt per frame; every other frame dropped in the NIC. QUEUE_PRIO
 * is the queue's receive task's priority, as in the CPU model (model/cpu.py queue_prio): a
 * queue's interrupt waits while its own task or a higher one runs, which reaps it anyway
 * (RUN_PRIO gating, F16). A receive task per queue at its priority: queue 1's is the
 * critical task.
 */
#include "net/rx.h"

static const struct prionic_rule_cfg rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 1},
    {PRIONIC_PROTO_UDP, 6000, 6000, 0},
    {PRIONIC_PROTO_TCP, 8000, 8100, 0},
};
static const struct prionic_queue_cfg queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 96, 2048, PRIO_APP, {32, 0, 200, 100, 0}},
    {RING_REGION + RING_STRIDE, BUF_REGION, 32, 512, PRIO_CRIT, IMMEDIATE},
};

const struct fw_conf net_conf_prionic = {{CLK_HZ, 125, -1, rules, 3, NQ_PAPER, queues, 0},
                                         RX_PLAIN, 1, {PRIO_APP, PRIO_CRIT}, PAPER_WCET_ITER, 0};
