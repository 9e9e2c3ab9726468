/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/rx.h: what the files of the net layer share (not the application's): the
 * NIC's driver state, the receive path of net/rx.c, the constants of the configurations,
 * and the entry points of the configurations that have code of their own (napi,
 * ratelimit, swdemux), which net/rx.c calls where net_conf->rx_kind selects them.
 */
#ifndef PRIONIC_NET_RX_H
#define PRIONIC_NET_RX_H

#include <stdint.h>

#include "board/sysmap.h"
#include "kernel/kernel.h"
#include "net/net.h"
#include "prionic_drv.h"

#define CLK_HZ    125000000u
#define CTRL_PORT 5000u
#define NO_GATE   255u     /* QUEUE_PRIO above every task: RUN_PRIO never holds the interrupt */
#define IMMEDIATE {0, 0, 0, 0, 1}
#define E1000E    {0, 0, 0, 51, 1}   /* RADV 0, ITR 195 (20,000/s): an interrupt per frame, 51 us apart */
#define NO_QUEUE  {0, 0, 0, 0, 0, {0, 0, 0, 0, 0}}   /* ring_size 0: the queue stays disabled */

/* the paper's critical task costs 20 us a control frame: PAPER_WCET_ITER runs of the
 * control law's loop take 2,500 cycles on VexRiscv_Lite (9 a turn; fw_summary.wcet_cycles) */
#define TEST_WCET_ITER  100u
#define PAPER_WCET_ITER 276u

/* the configurations, one file each */
extern const struct fw_conf net_conf_test, net_conf_prionic, net_conf_conventional, net_conf_rtos,
    net_conf_multiqueue, net_conf_napi, net_conf_ratelimit, net_conf_swdemux, net_conf_napi_threaded,
    net_conf_i210;
/* the one-queue layouts several configurations share */
extern const struct prionic_queue_cfg net_conventional_queues[NQ];   /* net/conventional.c */
extern const struct prionic_queue_cfg net_rtos_queues[NQ];           /* net/rtos.c */

/* net/rx.c: the NIC and the receive path */
extern struct prionic_dev net_dev;
extern struct k_sem net_rx_sem[NQ];             /* posted by the ISR per queue */
extern volatile uint32_t net_isr_time[NQ];      /* mtime of the ISR that last reaped or woke each queue */

/* a frame the host has read, with what it made of it */
struct rx_frame {
    struct prionic_completion c;
    uint32_t buf, csum, t_isr, seq;
};

/* the critical task of a software demux: a mailbox of control frames */
#define CRIT_BOX 16u
extern struct rx_frame net_crit_box[CRIT_BOX];
extern volatile uint32_t net_crit_head, net_crit_tail;
extern struct k_sem net_crit_sem;

/* IRQ_MASK |= set, &= ~clear, with interrupts off (the ISR writes it too) */
void net_irq_mask_update(uint32_t set, uint32_t clear);
/* the driver's callback for each completion reaped */
void net_receive(void *arg, const struct prionic_completion *c);
/* a frame's record to the trace port; control: 1 a control frame, 0 another, -1 one whose
 * bytes the host did not read */
void net_record(const struct prionic_completion *c, uint32_t buf, uint32_t csum, uint32_t t_isr, uint32_t seq,
                uint32_t t_done, int control);
/* IPv4 without options, UDP, destination port CTRL_PORT */
int net_is_control(const uint8_t *p, uint32_t len);
/* a socket of the best-effort application: scenarios/paper.toml's telemetry (UDP 6000) and
 * bulk (TCP 8000-8100) */
int net_has_socket(const uint8_t *p, uint32_t len);

/* net/napi.c */
void napi_loop(unsigned q);                 /* queue q's receive task */

/* net/ratelimit.c */
void rl_loop(unsigned q);                   /* queue q's receive task */
void rl_irq(uint32_t t);                    /* the ISR's count, at mtime t, of an interrupt with lines set */

/* net/swdemux.c */
void swd_demux(const struct prionic_completion *c, uint32_t buf, uint32_t seq);   /* net_receive's work */
void swd_give_back(unsigned slot);          /* the frame in slot is done: buffers back in ring order */
int swd_drained(void);                      /* no frame left for the application task */

#endif
