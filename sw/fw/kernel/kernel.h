/* SPDX-License-Identifier: MIT */
/*
 * sw/fw/kernel/kernel.h: a tiny preemptive fixed-priority kernel for one RV32 hart in
 * machine mode (docs/system.md): tasks with distinct priorities, sleep in ticks of the
 * machine timer, counting semaphores a trap handler may post. Two hooks registered by the
 * layers above connect it to the devices, of which it knows nothing: the external
 * interrupt's handler, and the switch hook, called with the running task's priority each
 * time that priority changes (the net layer writes it to the NIC's RUN_PRIO, F16).
 */
#ifndef PRIONIC_KERNEL_H
#define PRIONIC_KERNEL_H

#include <stdint.h>

#define K_MAX_TASKS 6

struct k_sem {
    uint32_t count;
};

struct k_task {
    uint32_t *sp;          /* saved trap frame (board/crt0.S) while not running */
    const char *name;
    uint8_t prio;          /* larger runs first; distinct per task */
    uint8_t state;         /* K_READY, K_SLEEP, K_WAIT */
    uint32_t wake;         /* K_SLEEP: the tick to wake at */
    struct k_sem *sem;     /* K_WAIT: the semaphore waited on */
    uint32_t runs;         /* times switched to */
    uint32_t cycles;       /* mtime it ran, traps excluded (k_trap_cycles), until its last trap */
};

/* the external interrupt's handler: called from the trap handler with interrupts off */
typedef void (*k_irq_fn)(void);
/* the switch hook: called from the trap handler with interrupts off, after the choice of
 * the task to run, with its priority, whenever that priority differs from the last one
 * passed (another task, or the same task at another priority) */
typedef void (*k_switch_fn)(uint32_t prio);

void k_init(uint32_t tick_cycles);
void k_set_irq_handler(k_irq_fn fn);            /* before k_start; until then an external interrupt is fatal */
void k_set_switch_hook(k_switch_fn fn);         /* before k_start; until then a switch calls nothing */
void k_task_create(struct k_task *t, const char *name, uint8_t prio, void (*fn)(void), uint32_t *stack,
                   uint32_t stack_words);
void k_start(void) __attribute__((noreturn));   /* enable interrupts, run the highest task */
void k_sleep(uint32_t ticks);
void k_set_prio(uint8_t prio);                  /* the running task's priority (distinct from the others') */
void k_sem_wait(struct k_sem *s);
void k_sem_post(struct k_sem *s);               /* from a task or from the interrupt handler */
uint32_t k_ticks(void);
uint32_t k_switches(void);                      /* switch hook calls: the running priority changed */
uint32_t k_irqs(void);
uint32_t k_now(void);                           /* mtime, low word: cycles */
uint32_t k_task_cycles(const struct k_task *t); /* its cycles, the current run included */
uint32_t k_trap_cycles(void);                   /* cycles in traps: ticks, interrupts, switches */
uint32_t k_traps(void);                         /* traps taken */

#endif
