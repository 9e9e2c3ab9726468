/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/board/sysmap.h: the memory map of the full-system top tb/hdl/sys/prionic_tb_sys.v
 * (docs/system.md), the RAM layout of the firmware's rings and buffers, and MMIO and CSR
 * access.
 */
#ifndef PRIONIC_SYSMAP_H
#define PRIONIC_SYSMAP_H

#include <stdint.h>

#define SYS_NIC_BASE     0x80000000u   /* prionic_rx registers (AXI4-Lite) */
#define SYS_REG_BASE     0xF0000000u   /* system registers */
#define SYS_CONSOLE      (SYS_REG_BASE + 0x00u)
#define SYS_EXIT         (SYS_REG_BASE + 0x04u)
#define SYS_FW_STATE     (SYS_REG_BASE + 0x08u)
#define SYS_CTRL         (SYS_REG_BASE + 0x0Cu)
#define SYS_CTRL_STOP    1u            /* the testbench asks the firmware to finish */
#define SYS_MTIME        (SYS_REG_BASE + 0x10u)
#define SYS_MTIMEH       (SYS_REG_BASE + 0x14u)
#define SYS_MTIMECMP     (SYS_REG_BASE + 0x18u)
#define SYS_MTIMECMPH    (SYS_REG_BASE + 0x1Cu)
#define SYS_TRACE        (SYS_REG_BASE + 0x20u)   /* each word to the trace file (+prionic_trace=) */

/* FW_STATE values the testbench waits for */
#define FW_STATE_BOOT    1u            /* main() reached */
#define FW_STATE_READY   2u            /* the NIC is configured and the kernel runs: send frames */

/* above the firmware's 64 KiB: rings RING_STRIDE apart, buffers in BUF_STRIDE regions
 * (a queue's buffers, and as many again for a recovery's fresh ones: net/rx.c recover) */
#define RING_REGION      0x00010000u
#define RING_STRIDE      0x00001000u
#define BUF_REGION       0x00020000u
#define BUF_STRIDE       0x00060000u
#define SYS_MEM_BYTES    0x00100000u   /* the RAM: 1 MiB (prionic_tb_sys.v MEM_BYTES) */

static inline uint32_t mmio_rd(uint32_t addr) { return *(volatile uint32_t *)addr; }
static inline void mmio_wr(uint32_t addr, uint32_t v) { *(volatile uint32_t *)addr = v; }

#define MSTATUS_MIE      (1u << 3)     /* mstatus: machine interrupts enabled */

#define csr_read(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_set(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_clear(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(v)))

#endif
