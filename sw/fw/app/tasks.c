/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/app/tasks.c: the firmware's tasks (kernel/kernel.h), highest priority first: a
 * softirq-like receive task (5, conventional, napi, swdemux), the critical task (4: the
 * control law for each control frame), a network task (3, rtos, ratelimit), the
 * best-effort receive task (2), the monitor (1: once the testbench sets CTRL.STOP and the
 * rings are empty, reads the NIC's registers back, prints the summary, writes EXIT) and
 * idle (0). The receive work they run is the net layer's (net/net.h); which of them exist
 * and at which priority follows the configuration, net_conf.
 */
#include "app/tasks.h"

#include <stdint.h>

#include "board/lib.h"
#include "board/sysmap.h"
#include "kernel/kernel.h"
#include "net/net.h"

#define READBACK_MAX   256u
#define STACK_WORDS    256u

uint32_t fw_readback_val[READBACK_MAX];
/* written by the testbench while the CPU is in reset: the register offsets to read at the end */
uint32_t fw_readback_n __attribute__((section(".tbdata")));
uint32_t fw_readback_addr[READBACK_MAX] __attribute__((section(".tbdata")));

static struct k_task tasks[T_NUM];
static uint32_t stacks[T_NUM][STACK_WORDS] __attribute__((section(".noinit")));

static void rx0_task(void) { net_rx_loop(0); }
static void rx1_task(void) { net_rx_loop(1); }

static void summary(void) {
    unsigned q;
    con_puts("prionic fw: summary\n  critical frames ");
    con_dec(fw_summary.crit_frames);
    con_puts(" response max ");
    con_dec(fw_summary.crit_resp_max);
    con_puts(" mean ");
    con_dec(fw_summary.crit_frames ? fw_summary.crit_resp_sum / fw_summary.crit_frames : 0);
    con_puts(" cycles, lost ");
    con_dec(fw_summary.crit_lost);
    con_puts("\n ");
    for (q = 0; q < NQ; q++) {
        con_puts(" queue ");
        con_dec(q);
        con_puts(" frames ");
        con_dec(fw_summary.frames[q]);
        con_puts(q + 1 < NQ ? "," : "\n");
    }
    con_puts("  isr runs ");
    con_dec(fw_summary.isr_runs);
    con_puts(", switches ");
    con_dec(fw_summary.switches);
    con_puts(", ticks ");
    con_dec(fw_summary.ticks);
    con_puts(", isr cycles ");
    con_dec(fw_summary.isr_cycles);
    con_puts(", recoveries ");
    con_dec(fw_summary.recoveries);
    con_puts(", registers read back ");
    con_dec(fw_summary.readback_n);
    con_puts("\n");
}

static void monitor_task(void) {
    uint32_t i, n;
    for (;;) {
        k_sleep(1);
        if (!(mmio_rd(SYS_CTRL) & SYS_CTRL_STOP)) continue;
        if (!net_drained()) continue;
        csr_clear(mstatus, MSTATUS_MIE);   /* the end: nothing runs after this */
        n = fw_readback_n < READBACK_MAX ? fw_readback_n : READBACK_MAX;
        for (i = 0; i < n; i++) fw_readback_val[i] = net_reg_read(fw_readback_addr[i]);
        fw_summary.readback_n = n;
        fw_summary.switches = k_switches();
        fw_summary.ticks = k_ticks();
        fw_summary.refused = net_refused();
        for (i = 0; i < T_NUM; i++) fw_summary.task_cycles[i] = k_task_cycles(&tasks[i]);
        fw_summary.trap_cycles = k_trap_cycles();
        fw_summary.traps = k_traps();
        summary();
        mmio_wr(SYS_EXIT, 0);
        for (;;) {
        }
    }
}

static void idle_task(void) {
    for (;;) {
    }
}

void app_tasks_create(void) {
    const struct fw_conf *conf = net_conf;
    if (conf->critical_q == NQ)
        k_task_create(&tasks[T_CRIT], "critical", PRIO_CRIT, net_crit_task, stacks[T_CRIT], STACK_WORDS);
    if (conf->rx_prio[0]) k_task_create(&tasks[T_RX0], "rx0", conf->rx_prio[0], rx0_task, stacks[T_RX0], STACK_WORDS);
    if (conf->rx_prio[1]) k_task_create(&tasks[T_RX1], "rx1", conf->rx_prio[1], rx1_task, stacks[T_RX1], STACK_WORDS);
    k_task_create(&tasks[T_MON], "monitor", PRIO_MON, monitor_task, stacks[T_MON], STACK_WORDS);
    k_task_create(&tasks[T_IDLE], "idle", PRIO_IDLE, idle_task, stacks[T_IDLE], STACK_WORDS);
    if (conf->rx_kind == RX_SWDEMUX)
        k_task_create(&tasks[T_APP], "app", PRIO_APP, swd_app_task, stacks[T_APP], STACK_WORDS);
}
