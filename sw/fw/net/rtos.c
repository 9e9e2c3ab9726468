/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/rtos.c: FW_MODE_RTOS. One queue of 128 buffers, no rule, every frame delivered,
 * e1000e moderation (net_rtos_queues, which napi and swdemux share). One network task below
 * the critical task, above the application; the driver's early filter (FreeRTOS+TCP's
 * ipconfigETHERNET_DRIVER_FILTERS_PACKETS) returns a frame of no socket after its port check,
 * before any protocol work; control frames found by their port go to the critical task.
 */
#include "net/rx.h"

const struct prionic_queue_cfg net_rtos_queues[NQ] = {
    {RING_REGION, BUF_REGION + BUF_STRIDE, 128, 2048, NO_GATE, E1000E},
    NO_QUEUE,
};

const struct fw_conf net_conf_rtos = {{CLK_HZ, 125, 0, 0, 0, NQ_PAPER, net_rtos_queues, 0},
                                      RX_PLAIN, NQ, {PRIO_NET, 0}, PAPER_WCET_ITER, 1};
