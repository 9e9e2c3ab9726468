/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/board/board.h: the machine timer (the system registers MTIME and MTIMECMP) and
 * VexRiscv's external interrupt controller (CSR 0xBC0 the mask, 0xFC0 the pending lines),
 * as inline accessors: a caller's code is the same as with the accesses written in place.
 */
#ifndef PRIONIC_FW_BOARD_H
#define PRIONIC_FW_BOARD_H

#include <stdint.h>

#include "board/sysmap.h"

#define MIE_MTIE         (1u << 7)    /* mie: the machine timer interrupt */
#define MIE_MEIE         (1u << 11)   /* mie: the external interrupt */

/* mtime, low word: cycles */
static inline uint32_t board_mtime(void) { return mmio_rd(SYS_MTIME); }

/* mtime, both words, read consistently */
static inline uint64_t board_mtime64(void) {
    uint32_t hi, lo;
    do {
        hi = mmio_rd(SYS_MTIMEH);
        lo = mmio_rd(SYS_MTIME);
    } while (hi != mmio_rd(SYS_MTIMEH));
    return (uint64_t)hi << 32 | lo;
}

/* the timer interrupt at mtime `at` */
static inline void board_timer_set(uint64_t at) {
    mmio_wr(SYS_MTIMECMPH, 0xFFFFFFFFu);   /* no spurious compare between the two halves */
    mmio_wr(SYS_MTIMECMP, (uint32_t)at);
    mmio_wr(SYS_MTIMECMPH, (uint32_t)(at >> 32));
}

/* the external interrupt lines: enable, mask, unmask, pending */
static inline void board_irq_enable_all(void) { csr_write(0xBC0, 0xFFFFFFFFu); }
static inline void board_irq_mask(uint32_t lines) { csr_clear(0xBC0, lines); }
static inline void board_irq_unmask(uint32_t lines) { csr_set(0xBC0, lines); }
static inline uint32_t board_irq_pending(void) { return csr_read(0xFC0); }

#endif
