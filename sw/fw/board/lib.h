/* SPDX-License-Identifier: MIT */
/* sw/fw/board/lib.h: the little libc the firmware needs (no C library is linked) and the console. */
#ifndef PRIONIC_FW_LIB_H
#define PRIONIC_FW_LIB_H

#include <stdint.h>
#include <string.h>

void con_puts(const char *s);
void con_dec(uint32_t v);
void con_hex(uint32_t v);

#endif
