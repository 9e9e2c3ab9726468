/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/app/main.c: the full-system firmware's boot (F28, docs/system.md). It takes the host
 * configuration the testbench wrote to fw_mode before the CPU left reset (net/net.h
 * FW_MODE_*), has the net layer program prionic_rx in it, measures the control law and the
 * checksum once, creates the tasks (app/tasks.c) and starts the kernel. The layers:
 * sw/fw/README.md.
 */
#include <stdint.h>

#include "app/tasks.h"
#include "board/lib.h"
#include "board/sysmap.h"
#include "kernel/kernel.h"
#include "net/net.h"

#define TICK_CYCLES    12500u         /* 100 us */

/* written by the testbench while the CPU is in reset: the configuration */
uint32_t fw_mode __attribute__((section(".tbdata")));

static volatile uint32_t csum_sink;

int main(void) {
    int rc;
    mmio_wr(SYS_FW_STATE, FW_STATE_BOOT);
    con_puts("prionic fw: boot\n");
    fw_summary.mode = fw_mode;
    if (fw_mode >= FW_MODE_COUNT) {
        con_puts("prionic fw: unknown fw_mode\n");
        mmio_wr(SYS_EXIT, 0x300u | (fw_mode & 0xFFu));
        for (;;) {
        }
    }
    rc = net_init(fw_mode);
    fw_summary.init_rc = (uint32_t)rc;
    if (rc != PRIONIC_OK) {
        con_puts("prionic fw: prionic_init failed\n");
        mmio_wr(SYS_EXIT, 0x200u | (uint32_t)-rc);
        for (;;) {
        }
    }
    net_control_law(0);   /* once to fill the instruction cache, then timed */
    fw_summary.wcet_cycles = k_now();
    net_control_law(0);
    fw_summary.wcet_cycles = k_now() - fw_summary.wcet_cycles;
    fw_summary.csum_cycles_2k = k_now();   /* the cost of a frame's bytes: the checksum over 2 KiB */
    csum_sink = net_checksum((const uint8_t *)(uintptr_t)BUF_REGION, 2048);
    fw_summary.csum_cycles_2k = k_now() - fw_summary.csum_cycles_2k;
    k_init(TICK_CYCLES);
    app_tasks_create();
    con_puts("prionic fw: NIC configured, kernel starting\n");
    mmio_wr(SYS_FW_STATE, FW_STATE_READY);
    k_start();
}
