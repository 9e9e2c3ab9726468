/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/board/crt0.S: reset entry and trap entry of the full-system firmware (docs/system.md).
 *
 * _start: boot stack, gp, trap vector, .bss cleared, main().
 * trap_entry: every trap (interrupt or ecall) saves the interrupted task's registers on
 * its own stack, calls kernel_trap(frame), which returns the frame of the task to resume
 * (the same one or another: a context switch), and restores from that.
 * Frame layout (32 words): word 0 mepc, word i (1..31) register xi (x2 = sp is implied
 * by the frame's address: frame + 128).
 */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, __stack_top
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la t0, trap_entry
    csrw mtvec, t0
    la t0, __bss_start          /* 16-byte aligned at both ends (link.ld): four words a turn */
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    sw zero, 4(t0)
    sw zero, 8(t0)
    sw zero, 12(t0)
    addi t0, t0, 16
    j 1b
2:  call main
    /* main returned: report it as exit code 0x7F and stop */
    li t0, 0xF0000004
    li t1, 0x7F
    sw t1, 0(t0)
3:  j 3b

    .section .text.trap, "ax"
    .globl trap_entry
    .balign 4
trap_entry:
    addi sp, sp, -128
    sw x1, 4(sp)
    sw x3, 12(sp)
    sw x4, 16(sp)
    sw x5, 20(sp)
    sw x6, 24(sp)
    sw x7, 28(sp)
    sw x8, 32(sp)
    sw x9, 36(sp)
    sw x10, 40(sp)
    sw x11, 44(sp)
    sw x12, 48(sp)
    sw x13, 52(sp)
    sw x14, 56(sp)
    sw x15, 60(sp)
    sw x16, 64(sp)
    sw x17, 68(sp)
    sw x18, 72(sp)
    sw x19, 76(sp)
    sw x20, 80(sp)
    sw x21, 84(sp)
    sw x22, 88(sp)
    sw x23, 92(sp)
    sw x24, 96(sp)
    sw x25, 100(sp)
    sw x26, 104(sp)
    sw x27, 108(sp)
    sw x28, 112(sp)
    sw x29, 116(sp)
    sw x30, 120(sp)
    sw x31, 124(sp)
    csrr t0, mepc
    sw t0, 0(sp)
    mv a0, sp
    call kernel_trap
    mv sp, a0
    lw t0, 0(sp)
    csrw mepc, t0
    lw x1, 4(sp)
    lw x3, 12(sp)
    lw x4, 16(sp)
    lw x5, 20(sp)
    lw x6, 24(sp)
    lw x7, 28(sp)
    lw x8, 32(sp)
    lw x9, 36(sp)
    lw x10, 40(sp)
    lw x11, 44(sp)
    lw x12, 48(sp)
    lw x13, 52(sp)
    lw x14, 56(sp)
    lw x15, 60(sp)
    lw x16, 64(sp)
    lw x17, 68(sp)
    lw x18, 72(sp)
    lw x19, 76(sp)
    lw x20, 80(sp)
    lw x21, 84(sp)
    lw x22, 88(sp)
    lw x23, 92(sp)
    lw x24, 96(sp)
    lw x25, 100(sp)
    lw x26, 104(sp)
    lw x27, 108(sp)
    lw x28, 112(sp)
    lw x29, 116(sp)
    lw x30, 120(sp)
    lw x31, 124(sp)
    addi sp, sp, 128
    mret
