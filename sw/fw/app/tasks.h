/* SPDX-License-Identifier: MIT */
/* sw/fw/app/tasks.h: the firmware's tasks (app/tasks.c), created by main() (app/main.c). */
#ifndef PRIONIC_APP_TASKS_H
#define PRIONIC_APP_TASKS_H

/* the tasks of net_conf (net/net.h), in the kernel (k_init called, k_start not yet) */
void app_tasks_create(void);

#endif
