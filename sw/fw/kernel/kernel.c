/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/kernel/kernel.c: see kernel.h. Every entry into the kernel is a trap
 * (board/crt0.S saves the registers on the running task's stack): the machine timer (the
 * tick), the external interrupt (the registered handler) and ecall, which a task makes
 * after changing its own state (sleep, wait). kernel_trap then runs the highest-priority
 * ready task: a preemption is a trap that returns into another task's frame.
 */
#include "kernel/kernel.h"

#include "board/board.h"
#include "board/lib.h"
#include "board/sysmap.h"

enum { K_READY = 0, K_SLEEP = 1, K_WAIT = 2 };

#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP  (3u << 11)
#define CAUSE_IRQ    0x80000000u

static void no_irq_handler(void);
static void no_switch_hook(uint32_t prio) { (void)prio; }
/* the hooks of the layers above: never null, so that the trap path calls them unchecked */
static k_irq_fn irq_handler = no_irq_handler;
static k_switch_fn switch_hook = no_switch_hook;

static struct k_task *tasks[K_MAX_TASKS];
static unsigned ntasks;
static struct k_task *current;
static uint32_t tick_cycles, ticks, switches, irqs;
static int run_prio = -1;   /* the last priority passed to the switch hook */
static uint32_t since, trap_cycles, traps;   /* mtime of the last trap's entry or exit; in traps */
static uint64_t next_tick;

void k_set_irq_handler(k_irq_fn fn) { irq_handler = fn; }
void k_set_switch_hook(k_switch_fn fn) { switch_hook = fn; }

uint32_t k_now(void) { return board_mtime(); }
uint32_t k_ticks(void) { return ticks; }
uint32_t k_switches(void) { return switches; }
uint32_t k_irqs(void) { return irqs; }
uint32_t k_task_cycles(const struct k_task *t) { return t->cycles + (t == current ? k_now() - since : 0u); }
uint32_t k_trap_cycles(void) { return trap_cycles; }
uint32_t k_traps(void) { return traps; }

void k_init(uint32_t cycles) {
    tick_cycles = cycles;
    ntasks = 0;
}

void k_task_create(struct k_task *t, const char *name, uint8_t prio, void (*fn)(void), uint32_t *stack,
                   uint32_t stack_words) {
    uint32_t *frame = stack + stack_words - 32;   /* the frame crt0.S restores */
    memset(frame, 0, 32 * sizeof *frame);
    uint32_t gp;
    __asm__ volatile("mv %0, gp" : "=r"(gp));
    frame[0] = (uint32_t)(uintptr_t)fn;           /* mepc */
    frame[3] = gp;                                /* the linker's gp-relative accesses need it */
    t->sp = frame;
    t->name = name;
    t->prio = prio;
    t->state = K_READY;
    t->runs = 0;
    t->cycles = 0;
    if (ntasks < K_MAX_TASKS) tasks[ntasks++] = t;
}

static void schedule(void) {
    struct k_task *best = 0;
    unsigned i;
    for (i = 0; i < ntasks; i++) {
        struct k_task *t = tasks[i];
        if (t->state == K_READY && (!best || t->prio > best->prio)) best = t;
    }
    if (best != current) {
        current = best;
        current->runs++;
    }
    if (current->prio != run_prio) {   /* another task, or the same at another priority */
        run_prio = current->prio;
        switches++;
        switch_hook((uint32_t)run_prio);
    }
}

/* one trap per late tick would be a trap storm after a long ISR (interrupts are off in
 * traps): the ticks missed are counted at once and the next one is in the future */
static void tick(void) {
    uint64_t now = board_mtime64();
    unsigned i;
    do {
        next_tick += tick_cycles;
        ticks++;
    } while (next_tick <= now);
    board_timer_set(next_tick);
    for (i = 0; i < ntasks; i++) {
        struct k_task *t = tasks[i];
        if (t->state == K_SLEEP && (int32_t)(ticks - t->wake) >= 0) t->state = K_READY;
    }
}

static void fatal(uint32_t cause, uint32_t epc) {
    con_puts("fatal trap: mcause ");
    con_hex(cause);
    con_puts(" mepc ");
    con_hex(epc);
    con_puts("\n");
    mmio_wr(SYS_EXIT, 0x100u | (cause & 0xFFu));
    for (;;) {
    }
}

static void no_irq_handler(void) { fatal(CAUSE_IRQ | 11u, 0); }

uint32_t *kernel_trap(uint32_t *frame);
uint32_t *kernel_trap(uint32_t *frame) {
    uint32_t cause = csr_read(mcause), now = k_now();
    if (current) {
        current->sp = frame;
        current->cycles += now - since;   /* a task's time ends where its trap begins */
    }
    since = now;
    traps++;
    if (cause & CAUSE_IRQ) {
        irqs++;
        switch (cause & 0xFFu) {
            case 7: tick(); break;
            case 11: irq_handler(); break;
            default: fatal(cause, frame[0]);
        }
    } else if (cause == 11) {   /* ecall from machine mode: the task has set its state */
        frame[0] += 4;
    } else {
        fatal(cause, frame[0]);
    }
    schedule();
    now = k_now();
    trap_cycles += now - since;
    since = now;
    /* every task runs with interrupts on: mret restores MIE from MPIE */
    csr_set(mstatus, MSTATUS_MPIE | MSTATUS_MPP);
    return current->sp;
}

void k_start(void) {
    next_tick = board_mtime64() + tick_cycles;
    board_timer_set(next_tick);
    board_irq_enable_all();
    csr_set(mie, MIE_MTIE | MIE_MEIE);
    current = 0;
    __asm__ volatile("ecall");       /* into kernel_trap: the boot context is left for good */
    for (;;) {
    }
}

void k_sleep(uint32_t n) {
    csr_clear(mstatus, MSTATUS_MIE);
    current->wake = ticks + n;
    current->state = K_SLEEP;
    __asm__ volatile("ecall" ::: "memory");
}

void k_set_prio(uint8_t prio) {
    csr_clear(mstatus, MSTATUS_MIE);
    current->prio = prio;
    __asm__ volatile("ecall" ::: "memory");   /* RUN_PRIO and the choice of task follow */
}

void k_sem_wait(struct k_sem *s) {
    csr_clear(mstatus, MSTATUS_MIE);
    if (s->count) {
        s->count--;
        csr_set(mstatus, MSTATUS_MIE);
        return;
    }
    current->sem = s;
    current->state = K_WAIT;
    __asm__ volatile("ecall" ::: "memory");   /* back here once posted */
}

void k_sem_post(struct k_sem *s) {
    unsigned i;
    uint32_t mstatus = csr_read(mstatus);
    csr_clear(mstatus, MSTATUS_MIE);
    for (i = 0; i < ntasks; i++) {
        struct k_task *t = tasks[i];
        if (t->state == K_WAIT && t->sem == s) {
            t->state = K_READY;   /* the first waiter: each semaphore of this firmware has one task */
            break;
        }
    }
    if (i == ntasks) s->count++;
    if (mstatus & MSTATUS_MIE) {
        csr_set(mstatus, MSTATUS_MIE);
        __asm__ volatile("ecall" ::: "memory");   /* from a task: let a higher one run now */
    }
}
