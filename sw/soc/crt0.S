/* SPDX-License-Identifier: MIT */
/*
 * sw/soc/crt0.S: reset entry of the LiteX SoC firmware (docs/soc.md): runs from the
 * integrated ROM, data and stack in the integrated SRAM. Copies .data from ROM, clears
 * .bss, calls main(); no interrupts are taken (the firmware reads the interrupt
 * controller's pending bits).
 */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, _fstack
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la t0, _fdata_rom
    la t1, _fdata
    la t2, _edata
1:  bgeu t1, t2, 2f
    lw t3, 0(t0)
    sw t3, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
    j 1b
2:  la t0, _fbss
    la t1, _ebss
3:  bgeu t0, t1, 4f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 3b
4:  call main
5:  j 5b
