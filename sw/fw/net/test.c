/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/test.c: FW_MODE_TEST, the short run of tests/test_sys.py. UDP 5000 to queue 0
 * (critical, an interrupt per frame), UDP 6000 to queue 1 (moderated: 4 frames, 4 us after
 * the last, 20 us after the first); rings of 16, so that no buffer is written twice in the
 * short run and the testbench reads what the CPU read. A task per queue: queue 0's is the
 * critical task, queue 1's the application; one DMA fault is injected by the testbench.
 */
#include "net/rx.h"

static const struct prionic_rule_cfg rules[] = {
    {PRIONIC_PROTO_UDP, CTRL_PORT, CTRL_PORT, 0},
    {PRIONIC_PROTO_UDP, 6000, 6000, 1},
};
static const struct prionic_queue_cfg queues[NQ] = {
    {RING_REGION, BUF_REGION, 16, 512, PRIO_CRIT + 1, IMMEDIATE},
    {RING_REGION + RING_STRIDE, BUF_REGION + BUF_STRIDE, 16, 512, PRIO_APP + 1, {4, 4, 20, 0, 0}},
};

const struct fw_conf net_conf_test = {{CLK_HZ, 125, -1, rules, 2, NQ_PAPER, queues, 0},
                                      RX_PLAIN, 0, {PRIO_CRIT, PRIO_APP}, TEST_WCET_ITER, 0};
