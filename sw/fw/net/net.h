/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/net/net.h: the net layer's interface to the application (docs/system.md). The net
 * layer owns prionic_rx: it programs it with the driver of sw/driver/ in the host
 * configuration fw_mode names (one file each: net/test.c, prionic.c, conventional.c,
 * rtos.c, multiqueue.c, napi.c, ratelimit.c, swdemux.c, i210.c), takes its interrupt, writes
 * RUN_PRIO at every change of the running priority (F16), and runs the receive work of
 * the tasks the application creates. It also holds what the testbench reads
 * (tb/system/system.py): FW_MODE_*, the TRACE record (struct fw_rec) and fw_summary.
 */
#ifndef PRIONIC_NET_H
#define PRIONIC_NET_H

#include <stdint.h>

#include "prionic_drv.h"

#define NQ             3u       /* queues the firmware drives at most (i210's sink is the third) */
#define NQ_PAPER       2u       /* the queues of every other configuration (the test build has two) */
#define FW_REC_WORDS   11u
#define FW_REC_MARK    0xA5000000u    /* in a record's first word, above queue and slot */
#define FW_REC_HEADER  0xA6000000u    /* the same, for a frame whose bytes past its header the host
                                         did not read (swdemux: no socket), csum 0 */
#define FW_T_LOST      0xFFFFFFFFu    /* t_done of a control frame the host dropped (mailbox full) */

/* the host configurations (docs/paper.md section 5); fw_mode picks one */
#define FW_MODE_TEST         0u
#define FW_MODE_PRIONIC      1u
#define FW_MODE_CONVENTIONAL 2u
#define FW_MODE_RTOS         3u
#define FW_MODE_MULTIQUEUE   4u
#define FW_MODE_NAPI         5u
#define FW_MODE_RATELIMIT    6u
#define FW_MODE_SWDEMUX      7u
#define FW_MODE_NAPI_THREADED 8u
#define FW_MODE_I210         9u
#define FW_MODE_COUNT        10u

/* task priorities (distinct; larger runs first) */
#define PRIO_SOFTIRQ 5u   /* a conventional kernel's receive work: above every task */
#define PRIO_CRIT 4u
#define PRIO_NET  3u
#define PRIO_APP  2u
#define PRIO_MON  1u
#define PRIO_IDLE 0u

/* one frame the host read, as written to SYS_TRACE (tb/system/system.py TRACE_FIELDS) */
struct fw_rec {
    uint32_t qslot;     /* FW_REC_MARK | queue << 16 | slot */
    uint32_t len;
    uint32_t rule_q;    /* rule | write-back queue byte << 8 */
    uint32_t status;
    uint32_t ts;        /* the NIC's TIMESTAMP at the frame's tlast (cycles, like mtime) */
    uint32_t info;
    uint32_t buf;       /* where the bytes were read */
    uint32_t csum;      /* net_checksum() of the bytes, by the receive path */
    uint32_t t_isr;     /* mtime at the ISR that reaped it or woke its receive task */
    uint32_t t_done;    /* mtime when its work ended (a control frame: the control law's end) */
    uint32_t seq;       /* the order the host reaped it in, per queue */
};

/* task slots of fw_summary.task_cycles */
enum { T_CRIT, T_RX0, T_RX1, T_MON, T_IDLE, T_APP, T_NUM };

struct fw_summary {
    uint32_t init_rc;
    uint32_t frames[NQ];      /* records per queue */
    uint32_t crit_frames;     /* control frames the critical task finished */
    uint32_t crit_lost;       /* control frames the host dropped (the critical task's mailbox full) */
    uint32_t crit_resp_max;   /* t_done - ts of control frames, cycles */
    uint32_t crit_resp_sum;
    uint32_t isr_runs;
    uint32_t switches;
    uint32_t ticks;
    uint32_t mode;            /* fw_mode as the firmware took it */
    uint32_t readback_n;
    uint32_t refused;
    uint32_t isr_cycles;      /* mtime spent in the NIC's interrupt handler (net_irq) */
    uint32_t recoveries;      /* queues recovered after a DMA error (F24) */
    uint32_t recover_rc;      /* the last failed prionic_queue_recover's code, 0 if none failed */
    uint32_t wcet_cycles;     /* mtime of one control-law run, measured at boot */
    uint32_t task_cycles[T_NUM];   /* per task (T_*): mtime it ran, traps excluded */
    uint32_t trap_cycles;     /* mtime in traps: ISR, tick, switches */
    uint32_t traps;           /* traps taken */
    uint32_t csum_cycles_2k;  /* mtime of net_checksum() over 2,048 bytes, measured at boot */
    uint32_t unreaped;        /* bit q: queue q is set up with no receive task (i210's sink): the
                                 host never reaps it, its interrupt stays masked */
    uint32_t early_drops;     /* frames of no socket returned by the early port check, unread */
};

extern struct fw_summary fw_summary;

/* how a configuration's receive tasks work */
#define RX_PLAIN     0u   /* the receive task reaps the whole ring at each wake */
#define RX_NAPI      1u   /* Linux NAPI (net/napi.c) */
#define RX_RATELIMIT 2u   /* Behnke et al.'s rate-limited ISR, then polling (net/ratelimit.c) */
#define RX_SWDEMUX   3u   /* Behnke et al.'s early demultiplexing in the driver (net/swdemux.c) */

struct fw_conf {
    struct prionic_config nic;
    unsigned rx_kind;      /* RX_* */
    unsigned critical_q;   /* the queue the NIC steers the control flow to, whose receive task is the
                              critical task; NQ: none, the receive path finds control frames by their
                              UDP port and hands them to a critical task of their own */
    uint8_t rx_prio[NQ];   /* the receive task's priority per queue (0: no task) */
    uint32_t wcet_iter;    /* iterations of the control law per control frame */
    unsigned early_filter; /* 1: the driver reads a frame's port first and returns a frame of no
                              socket before any protocol work (FreeRTOS+TCP's driver filter) */
};

/* the configuration net_init took */
extern const struct fw_conf *net_conf;

/* fw_mode's configuration: the NIC programmed, the kernel's interrupt handler and switch
 * hook registered; PRIONIC_OK or the driver's prionic_err (PRIONIC_EINVAL: no such mode) */
int net_init(uint32_t mode);

/* the bodies of the tasks the application creates (none returns) */
void net_rx_loop(unsigned q);   /* queue q's receive task, at net_conf->rx_prio[q] */
void net_crit_task(void);       /* the critical task of a software demux (net_conf->critical_q == NQ) */
void swd_app_task(void);        /* swdemux's best-effort receiver (RX_SWDEMUX) */

/* the critical task's fixed cost per control frame: the control law */
void net_control_law(uint32_t seed);
/* the checksum of a frame's bytes (word aligned): tb/top/host.py fletcher32 */
uint32_t net_checksum(const uint8_t *p, uint32_t n);

int net_drained(void);                 /* no frame left for any receive task */
uint32_t net_reg_read(uint32_t off);   /* a NIC register */
uint32_t net_refused(void);            /* bit q: queue q's RING_REFUSED seen */

#endif
