/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/board/lib.c: memcpy and memset (word-wise when both sides are aligned: the driver copies
 * descriptors with them) and the console (the CONSOLE system register, one byte a write).
 * Built with -fno-builtin so that GCC does not turn these loops into calls to themselves.
 */
#include "board/lib.h"

#include "board/sysmap.h"

/* memcpy's word loop runs to an end pointer (n & ~3): written as a count of words, GCC
 * computes the end with a multiply, which VexRiscv_Lite does a bit a cycle. */
void *memcpy(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        uint8_t *end = d + (n & ~(size_t)3);
        for (; d != end; d += 4, s += 4) *(uint32_t *)d = *(const uint32_t *)s;
        n &= 3u;
    }
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    uint8_t *d = dst;
    if (((uintptr_t)d & 3u) == 0) {
        uint32_t w = (uint8_t)c * 0x01010101u;
        uint8_t *end = d + (n & ~(size_t)3);
        for (; d != end; d += 4) *(uint32_t *)d = w;
        n &= 3u;
    }
    while (n--) *d++ = (uint8_t)c;
    return dst;
}

void con_puts(const char *s) {
    while (*s) mmio_wr(SYS_CONSOLE, (uint8_t)*s++);
}

void con_dec(uint32_t v) {
    char buf[11];
    int i = 10;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    con_puts(&buf[i]);
}

void con_hex(uint32_t v) {
    int i;
    con_puts("0x");
    for (i = 28; i >= 0; i -= 4) mmio_wr(SYS_CONSOLE, (uint8_t)"0123456789abcdef"[v >> i & 15u]);
}
