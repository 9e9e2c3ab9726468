/* SPDX-License-Identifier: MIT */
/*
 * sw/soc/main.c: the firmware of the simulated LiteX SoC (docs/soc.md, F32). It brings
 * prionic up with the project's C driver (sw/driver/) from the settings of a scenario
 * (soc_cfg.h, written by soc/sim.py), then waits on prionic's interrupt lines as LiteX's
 * interrupt controller latches them (the EventManager's pending bits) and runs the
 * driver's ISR, which reaps and re-posts. One console line per event, on LiteX's UART:
 *
 *   boot                         main() reached
 *   ready <id> <config>          prionic_init returned 0; the scenario's registers are written
 *   fail <where> <code>          something went wrong (and the firmware stops)
 *   rx <q> <len> <rule> <flags> <hash>  a completion: queue, length, rule, F4 flags, and a
 *                                hash of the frame's bytes in host memory (frame_hash)
 *   stats <irqs q0> <irqs q1> .. | <CNT_RX_FRAMES> <CNT_DROP_*> ...   on an 's' from the UART
 *
 * Numbers are hexadecimal. No interrupt is taken (mstatus.MIE stays 0): the pending bits
 * are what the CPU's interrupt line is made of.
 */
#include <stdint.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>

#include "prionic_drv.h"
#include "soc_cfg.h"

static void put_char(char c) {
    while (uart_txfull_read()) {
    }
    uart_rxtx_write((uint8_t)c);
}

static void put_str(const char *s) {
    while (*s) put_char(*s++);
}

static void put_hex(uint32_t v) {
    int shift = 28;
    put_char(' ');
    while (shift > 0 && (v >> shift) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) put_char("0123456789abcdef"[(v >> shift) & 15u]);
}

static void fail(const char *where, int code) {
    put_str("fail ");
    put_str(where);
    put_hex((uint32_t)code);
    put_char('\n');
    for (;;) {
    }
}

static uint32_t reg_read(void *ctx, uint32_t off) {
    (void)ctx;
    return *(volatile uint32_t *)(PRIONIC_BASE + off);
}

static void reg_write(void *ctx, uint32_t off, uint32_t v) {
    (void)ctx;
    *(volatile uint32_t *)(PRIONIC_BASE + off) = v;
}

/* main_ram is the DMA's target and the CPU's, with no data cache between (VexRiscv lite) */
static void mem_read(void *ctx, uint64_t addr, void *dst, size_t n) {
    (void)ctx;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
}

static void mem_write(void *ctx, uint64_t addr, const void *src, size_t n) {
    (void)ctx;
    memcpy((void *)(uintptr_t)addr, src, n);
}

/* A hash of the frame's bytes as 32-bit little-endian words w (the last one zero-padded),
 * read from RAM a word at a time: h = 2h ^ w and s = s + w over the words, then h ^ s ^ len.
 * Adds only: VexRiscv lite shifts and multiplies a bit a cycle, and a costlier hash would
 * make the CPU, not the NIC, what a run measures. */
static uint32_t frame_hash(const volatile uint32_t *w, unsigned len) {
    static const uint32_t tail[4] = {0xFFFFFFFFu, 0xFFu, 0xFFFFu, 0xFFFFFFu};
    uint32_t h = 0, s = 0, v;
    const volatile uint32_t *end = w + len / 4u;
    for (; w != end; w++) {
        v = *w;
        h = (h + h) ^ v;
        s += v;
    }
    if (len & 3u) {
        v = *w & tail[len & 3u];
        h = (h + h) ^ v;
        s += v;
    }
    return h ^ s ^ len;
}

static void on_rx(void *arg, const struct prionic_completion *c) {
    (void)arg;
    put_str("rx");
    put_hex(c->queue);
    put_hex(c->len);
    put_hex(c->rule);
    put_hex(c->flags);
    put_hex(frame_hash((const volatile uint32_t *)(uintptr_t)c->buf_addr, c->len));
    put_char('\n');
}

static const uint32_t counters[] = {
    PRIONIC_CNT_RX_FRAMES,  PRIONIC_CNT_DROP_BAD,  PRIONIC_CNT_DROP_MALFORMED, PRIONIC_CNT_DROP_OVERSIZE,
    PRIONIC_CNT_DROP_UNREG, PRIONIC_CNT_DROP_RULE, PRIONIC_CNT_DROP_FRAG,      PRIONIC_CNT_DROP_FIFO,
};

static struct prionic_dev dev;
static uint32_t irqs[CFG_NUM_QUEUES];

int main(void) {
    static const struct prionic_platform plat = {0, reg_read, reg_write, mem_read, mem_write};
    static const struct prionic_config cfg = {
        CFG_CLK_HZ, CFG_TICK_DIV, CFG_DEFAULT_QUEUE, 0, 0, CFG_NUM_QUEUES, cfg_queues, 0,
    };
    unsigned i;
    int rc;

    put_str("boot\n");
    rc = prionic_init(&dev, &plat, &cfg);
    if (rc != PRIONIC_OK) fail("init", rc);
    for (i = 0; i < sizeof cfg_writes / sizeof cfg_writes[0]; i++) reg_write(0, cfg_writes[i][0], cfg_writes[i][1]);
    prionic_ev_enable_write((1u << CFG_NUM_QUEUES) - 1u);
    put_str("ready");
    put_hex(reg_read(0, PRIONIC_ID));
    put_hex(dev.config);
    put_char('\n');

    for (;;) {
        uint32_t pending = prionic_ev_pending_read() & ((1u << CFG_NUM_QUEUES) - 1u);
        if (pending) {
            for (i = 0; i < CFG_NUM_QUEUES; i++) irqs[i] += pending >> i & 1u;
            prionic_isr(&dev, on_rx, 0);
        }
        if (!uart_rxempty_read()) {
            char c = (char)uart_rxtx_read();
            uart_ev_pending_write(1u << CSR_UART_EV_PENDING_RX_OFFSET);
            if (c == 's') {
                put_str("stats");
                for (i = 0; i < CFG_NUM_QUEUES; i++) put_hex(irqs[i]);
                put_str(" |");
                for (i = 0; i < sizeof counters / sizeof counters[0]; i++) put_hex(reg_read(0, counters[i]));
                put_char('\n');
            }
        }
    }
}
