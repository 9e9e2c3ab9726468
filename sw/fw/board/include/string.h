/* SPDX-License-Identifier: MIT */
/* sw/fw/board/include/string.h: the two functions of <string.h> the firmware and the driver
 * use (sw/fw/board/lib.c; no C library is linked). */
#ifndef PRIONIC_FW_STRING_H
#define PRIONIC_FW_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

#endif
