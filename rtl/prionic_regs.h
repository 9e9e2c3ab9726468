/* SPDX-License-Identifier: MIT */
/* GENERATED from docs/regmap.toml by `python -m gen.regmap` -- do not edit.
 *
 * prionic register map for C host drivers (F27; rings: F12, docs/frame-path.md s4).
 * Registers are 32 bits, little-endian, at the AXI4-Lite byte offsets below.
 *   PRIONIC_<REG>              byte offset of a global register
 *   PRIONIC_<REG>(i)           byte offset of a per-queue / per-rule register of instance i
 *   PRIONIC_<REG>_RESET        reset value (PRIONIC_<REG>_RESET(i) when it depends on i)
 *   PRIONIC_<REG>_BITS         implemented bits (higher bits read 0, ignore writes)
 *   PRIONIC_<FIELD>_SHIFT/_WIDTH/_MASK   bit fields; _MASK is in place (already shifted)
 *   PRIONIC_VERDICT_<NAME>     per-frame verdict codes
 *   PRIONIC_FLOW_CMD_<NAME>, PRIONIC_FLOW_RESULT_<NAME>   flow table commands and results (F31)
 *   PRIONIC_FLOW_KEY_<FIELD>_SHIFT/_WIDTH   the flow key's fields (bit 0 = FLOW_KEY0 bit 0)
 *   PRIONIC_DESC_*             descriptor / write-back layout (byte offsets, status bits)
 */
#ifndef PRIONIC_REGS_H
#define PRIONIC_REGS_H

#include <stddef.h>
#include <stdint.h>

#define PRIONIC_MAP_ID 0x50524E43u        /* value of register ID */
#define PRIONIC_MAP_VERSION 0x00000100u   /* value of register VERSION */
#define PRIONIC_ADDR_WIDTH 16u       /* AXI4-Lite byte address bits */

/* ---- block global: Identification, time base, default action, interrupt cause/mask, global drop counters. */
/* ID (RO): Constant 0x50524E43 ("PRNC"). */
#define PRIONIC_ID 0x0000u
#define PRIONIC_ID_RESET 0x50524E43u
#define PRIONIC_ID_BITS 32u
/* VERSION (RO): Register-map version: major[31:16], minor[15:8], patch[7:0]. */
#define PRIONIC_VERSION 0x0004u
#define PRIONIC_VERSION_RESET 0x00000100u
#define PRIONIC_VERSION_BITS 32u
/* CONFIG (RO): Build parameters: NUM_QUEUES[7:0], NUM_RULES[15:8], DATA_WIDTH/8 [23:16], RULES_PER_CYCLE [31:24] (F8: a rule-table scan takes ceil(NUM_RULES / RULES_PER_CYCLE) cycles). */
#define PRIONIC_CONFIG 0x0008u
/* PRIONIC_CONFIG_RESET: param (depends on build parameters) */
#define PRIONIC_CONFIG_BITS 32u
/* TICK_DIV (RW): Clock cycles per moderation tick (0 counts as 1). 125 gives 1 us ticks at 125 MHz. */
#define PRIONIC_TICK_DIV 0x0010u
#define PRIONIC_TICK_DIV_RESET 0x0000007Du
#define PRIONIC_TICK_DIV_BITS 16u
/* DEFAULT_ACTION (RW): Action for frames that match no rule (F6). [0] ACCEPT: 0 drop as UNREGISTERED, 1 deliver to queue QUEUE[15:8]. */
#define PRIONIC_DEFAULT_ACTION 0x0014u
#define PRIONIC_DEFAULT_ACTION_RESET 0x00000000u
#define PRIONIC_DEFAULT_ACTION_BITS 32u
/* FRAG_ACTION (RW): Action for IPv4 fragments, which skip the rule table (F7): [0] ACCEPT: 0 drop as FRAGMENT, 1 deliver to the background queue QUEUE[15:8]. */
#define PRIONIC_FRAG_ACTION 0x0018u
#define PRIONIC_FRAG_ACTION_RESET 0x00000000u
#define PRIONIC_FRAG_ACTION_BITS 32u
/* IRQ_CAUSE (W1C): Bit q set when queue q raises an interrupt (F15). Write 1 to clear (bit q is in byte q/8: its strobe counts). Bits >= NUM_QUEUES read 0. */
#define PRIONIC_IRQ_CAUSE 0x0020u
#define PRIONIC_IRQ_CAUSE_RESET 0x00000000u
#define PRIONIC_IRQ_CAUSE_BITS 32u
/* IRQ_MASK (RW): Bit q = 1 masks the irq[q] line (the cause bit still sets). Bits >= NUM_QUEUES read 0. */
#define PRIONIC_IRQ_MASK 0x0024u
#define PRIONIC_IRQ_MASK_RESET 0x00000000u
/* PRIONIC_IRQ_MASK_BITS: NUM_QUEUES (one bit per queue) */
/* IRQ_STATUS (RO): Current level of the irq[q] lines (IRQ_CAUSE & ~IRQ_MASK, registered). */
#define PRIONIC_IRQ_STATUS 0x0028u
#define PRIONIC_IRQ_STATUS_RESET 0x00000000u
#define PRIONIC_IRQ_STATUS_BITS 32u
/* TIMESTAMP (RO): Free-running cycle counter (wraps at 2^32); the completion timestamp uses the same counter. */
#define PRIONIC_TIMESTAMP 0x002Cu
#define PRIONIC_TIMESTAMP_RESET 0x00000000u
#define PRIONIC_TIMESTAMP_BITS 32u
/* RUN_PRIO (RW): Priority of the task running on the host (F16). The running priority is the larger of this and the run_prio input port; a queue whose QUEUE_PRIO is not above it holds its interrupt. */
#define PRIONIC_RUN_PRIO 0x0030u
#define PRIONIC_RUN_PRIO_RESET 0x00000000u
#define PRIONIC_RUN_PRIO_BITS 8u
/* PENDING_PRIO (RO): Highest QUEUE_PRIO among queues with completions not yet signalled by an interrupt (F16): [8] VALID, [7:0] PRIO. */
#define PRIONIC_PENDING_PRIO 0x0034u
#define PRIONIC_PENDING_PRIO_RESET 0x00000000u
#define PRIONIC_PENDING_PRIO_BITS 32u
/* CNT_RX_FRAMES (RO): Frames seen at the stream input (every verdict). */
#define PRIONIC_CNT_RX_FRAMES 0x0040u
#define PRIONIC_CNT_RX_FRAMES_RESET 0x00000000u
#define PRIONIC_CNT_RX_FRAMES_BITS 32u
/* CNT_DROP_BAD (RO): Frames dropped: tuser (bad frame / bad FCS) on the last beat. */
#define PRIONIC_CNT_DROP_BAD 0x0044u
#define PRIONIC_CNT_DROP_BAD_RESET 0x00000000u
#define PRIONIC_CNT_DROP_BAD_BITS 32u
/* CNT_DROP_MALFORMED (RO): Frames dropped: runt, bad tkeep or malformed/truncated header. */
#define PRIONIC_CNT_DROP_MALFORMED 0x0048u
#define PRIONIC_CNT_DROP_MALFORMED_RESET 0x00000000u
#define PRIONIC_CNT_DROP_MALFORMED_BITS 32u
/* CNT_DROP_OVERSIZE (RO): Frames dropped: longer than MAX_FRAME_LEN. */
#define PRIONIC_CNT_DROP_OVERSIZE 0x004Cu
#define PRIONIC_CNT_DROP_OVERSIZE_RESET 0x00000000u
#define PRIONIC_CNT_DROP_OVERSIZE_BITS 32u
/* CNT_DROP_UNREG (RO): Frames dropped: matched no rule and DEFAULT_ACTION is drop (unregistered flow). */
#define PRIONIC_CNT_DROP_UNREG 0x0050u
#define PRIONIC_CNT_DROP_UNREG_RESET 0x00000000u
#define PRIONIC_CNT_DROP_UNREG_BITS 32u
/* CNT_DROP_RULE (RO): Frames dropped: the first matching rule's action is drop. */
#define PRIONIC_CNT_DROP_RULE 0x0054u
#define PRIONIC_CNT_DROP_RULE_RESET 0x00000000u
#define PRIONIC_CNT_DROP_RULE_BITS 32u
/* CNT_DROP_FRAG (RO): Frames dropped: IPv4 fragment and FRAG_ACTION is drop (F7). */
#define PRIONIC_CNT_DROP_FRAG 0x0058u
#define PRIONIC_CNT_DROP_FRAG_RESET 0x00000000u
#define PRIONIC_CNT_DROP_FRAG_BITS 32u
/* CNT_DROP_FIFO (RO): Frames dropped whole before the stream input, one per ext_drop[0] pulse: on prionic_eth_rx, frames the clock-crossing FIFO had no room for (docs/board.md, F29); 0 on prionic_rx alone. */
#define PRIONIC_CNT_DROP_FIFO 0x005Cu
#define PRIONIC_CNT_DROP_FIFO_RESET 0x00000000u
#define PRIONIC_CNT_DROP_FIFO_BITS 32u
/* IRQ_BUDGET (RW): Global interrupt budget (F10): interrupts of non-exempt queues per epoch. Any write to IRQ_BUDGET, IRQ_BUDGET_PERIOD or IRQ_BUDGET_EXEMPT restarts the epoch with a full budget at w+2 (moderation takes its configuration one edge late, timing.md sections 4 and 7). */
#define PRIONIC_IRQ_BUDGET 0x0060u
#define PRIONIC_IRQ_BUDGET_RESET 0x00000000u
#define PRIONIC_IRQ_BUDGET_BITS 16u
/* IRQ_BUDGET_PERIOD (RW): Epoch length of the interrupt budget in clock cycles; 0 turns the budget off (F10). */
#define PRIONIC_IRQ_BUDGET_PERIOD 0x0064u
#define PRIONIC_IRQ_BUDGET_PERIOD_RESET 0x00000000u
#define PRIONIC_IRQ_BUDGET_PERIOD_BITS 32u
/* IRQ_BUDGET_EXEMPT (RW): One bit per queue: exempt queues neither spend the budget nor are withheld (F10). */
#define PRIONIC_IRQ_BUDGET_EXEMPT 0x0068u
#define PRIONIC_IRQ_BUDGET_EXEMPT_RESET 0x00000000u
/* PRIONIC_IRQ_BUDGET_EXEMPT_BITS: NUM_QUEUES (one bit per queue) */
/* IRQ_BUDGET_LEFT (RO): Interrupts left in the current epoch (F10); reads IRQ_BUDGET while the budget is off. */
#define PRIONIC_IRQ_BUDGET_LEFT 0x006Cu
#define PRIONIC_IRQ_BUDGET_LEFT_RESET 0x00000000u
#define PRIONIC_IRQ_BUDGET_LEFT_BITS 32u
/* FLOW_CTRL (RW): Flow cache (F8): [0] ENABLE. Any write clears the cache (frame-path.md s3.1). */
#define PRIONIC_FLOW_CTRL 0x0070u
#define PRIONIC_FLOW_CTRL_RESET 0x00000000u
#define PRIONIC_FLOW_CTRL_BITS 1u
/* FLOW_IDLE (RW): Flow cache idle expiry in units of 2^FLOW_TS_SHIFT cycles; 0 never expires. Any write clears the cache. */
#define PRIONIC_FLOW_IDLE 0x0074u
#define PRIONIC_FLOW_IDLE_RESET 0x00000000u
#define PRIONIC_FLOW_IDLE_BITS 15u
/* CNT_FLOW_HIT (RO): Flow cache lookups that hit (F8): the frame skipped the rule-table scan. */
#define PRIONIC_CNT_FLOW_HIT 0x0078u
#define PRIONIC_CNT_FLOW_HIT_RESET 0x00000000u
#define PRIONIC_CNT_FLOW_HIT_BITS 32u
/* CNT_FLOW_MISS (RO): Flow cache lookups that missed, TCP SYN included (F8): the frame was classified by the rule table. */
#define PRIONIC_CNT_FLOW_MISS 0x007Cu
#define PRIONIC_CNT_FLOW_MISS_RESET 0x00000000u
#define PRIONIC_CNT_FLOW_MISS_BITS 32u
/* FLOW_ENTRIES (RO): Build parameter FLOW_ENTRIES: flow cache entries (F8); 0 means the build has no cache. */
#define PRIONIC_FLOW_ENTRIES 0x0080u
/* PRIONIC_FLOW_ENTRIES_RESET: param (depends on build parameters) */
#define PRIONIC_FLOW_ENTRIES_BITS 32u
/* CNT_DROP_PREAMBLE (RO): Receive bursts without a valid preamble and SFD, one per ext_drop[1] pulse: on prionic_eth_rx, counted by the GMII front end (docs/gmii.md, docs/board.md, F2); 0 on prionic_rx alone. */
#define PRIONIC_CNT_DROP_PREAMBLE 0x0084u
#define PRIONIC_CNT_DROP_PREAMBLE_RESET 0x00000000u
#define PRIONIC_CNT_DROP_PREAMBLE_BITS 32u
/* CNT_DROP_SHORT (RO): Receive bursts of 0 to 4 bytes after the SFD, one per ext_drop[2] pulse: on prionic_eth_rx, counted by the GMII front end (docs/gmii.md, docs/board.md, F2); 0 on prionic_rx alone. */
#define PRIONIC_CNT_DROP_SHORT 0x0088u
#define PRIONIC_CNT_DROP_SHORT_RESET 0x00000000u
#define PRIONIC_CNT_DROP_SHORT_BITS 32u
/* DMA_TIMEOUT (RW): DMA watchdog (F24): a descriptor read, data write or write-back left unanswered (no R or B) for this many cycles is a TIMEOUT error of its queue: the transaction is abandoned (its late response is ignored) and the queue stops. A handshake the slave withholds for this many cycles (AWVALID or WVALID without READY and no AW or W taken: STALL_W; ARVALID without ARREADY: STALL_R) is reported once per stall (DMA_STALL, CNT_DMA_ERR): nothing is abandoned (AXI forbids withdrawing a VALID) and the queue goes on when the slave takes it. 0 turns both watchdogs off. Out of reset 65,536 cycles (0.52 ms at 125 MHz, 1.05 ms at 62.5 MHz): on, so that a lost response or a stray B (STRAY_B) never stops the DMA silently. */
#define PRIONIC_DMA_TIMEOUT 0x0090u
#define PRIONIC_DMA_TIMEOUT_RESET 0x00010000u
#define PRIONIC_DMA_TIMEOUT_BITS 32u
/* DMA_ERR_STATUS (RO): Bit q set while queue q is stopped by a DMA error (F24, docs/faults.md); the irq_err line is their OR. A ring reset of the queue (RING_SIZE or RING_BASE_LO write) clears it. */
#define PRIONIC_DMA_ERR_STATUS 0x0094u
#define PRIONIC_DMA_ERR_STATUS_RESET 0x00000000u
#define PRIONIC_DMA_ERR_STATUS_BITS 32u
/* CNT_DMA_ERR_ALL (RO): DMA errors of all queues (F24): every stat_dma event but FLUSH (the errors that stop a queue, BUF_ERR, and the stalls STALL_W and STALL_R, a write stall of no queue included). */
#define PRIONIC_CNT_DMA_ERR_ALL 0x0098u
#define PRIONIC_CNT_DMA_ERR_ALL_RESET 0x00000000u
#define PRIONIC_CNT_DMA_ERR_ALL_BITS 32u
/* DMA_STALL (W1C): Sticky stall status (F24, docs/faults.md): [0] WRITE set by a STALL_W event (AWREADY or WREADY withheld for DMA_TIMEOUT cycles), [1] READ by a STALL_R event (ARREADY withheld), from the edge after the event; write 1 to clear (a clear and a new event at the same edge: the bit stays set). A stall stops no queue and raises no irq_err. */
#define PRIONIC_DMA_STALL 0x009Cu
#define PRIONIC_DMA_STALL_RESET 0x00000000u
#define PRIONIC_DMA_STALL_BITS 2u
/* FLOW_TABLE_SETS (RO): Build parameter FLOW_TABLE_SETS: sets per bank of the flow table (F31, docs/flowtable.md), which holds 4 * FLOW_TABLE_SETS entries; 0 means the build has no table: its status registers stay 0 and commands do nothing. */
#define PRIONIC_FLOW_TABLE_SETS 0x00A0u
/* PRIONIC_FLOW_TABLE_SETS_RESET: param (depends on build parameters) */
#define PRIONIC_FLOW_TABLE_SETS_BITS 32u
/* FLOW_KEY0 (RW): Flow table key bits [31:0] for the next FLOW_CMD (F31): the flow_key record (docs/regmap.toml [records.flow_key], frame-path.md s3.1), bit 0 first. */
#define PRIONIC_FLOW_KEY0 0x00A4u
#define PRIONIC_FLOW_KEY0_RESET 0x00000000u
#define PRIONIC_FLOW_KEY0_BITS 32u
/* FLOW_KEY1 (RW): Flow table key bits [63:32] (F31). */
#define PRIONIC_FLOW_KEY1 0x00A8u
#define PRIONIC_FLOW_KEY1_RESET 0x00000000u
#define PRIONIC_FLOW_KEY1_BITS 32u
/* FLOW_KEY2 (RW): Flow table key bits [95:64] (F31). */
#define PRIONIC_FLOW_KEY2 0x00ACu
#define PRIONIC_FLOW_KEY2_RESET 0x00000000u
#define PRIONIC_FLOW_KEY2_BITS 32u
/* FLOW_KEY3 (RW): Flow table key bits [127:96] (F31). */
#define PRIONIC_FLOW_KEY3 0x00B0u
#define PRIONIC_FLOW_KEY3_RESET 0x00000000u
#define PRIONIC_FLOW_KEY3_BITS 32u
/* FLOW_KEY4 (RW): Flow table key bits [138:128] (F31). */
#define PRIONIC_FLOW_KEY4 0x00B4u
#define PRIONIC_FLOW_KEY4_RESET 0x00000000u
#define PRIONIC_FLOW_KEY4_BITS 11u
/* FLOW_VAL (RW): Flow table value for the next INSERT (F31, frame-path.md s3): [0] DROP (the flow's frames drop as RULE_DROP), [1] RULE_VALID, RULE[7:2] (the flow's frames are counted and rate-limited as that rule's, and carry its id in the descriptor; else id 0xFF), QUEUE[15:8] (delivery queue; NUM_QUEUES or above drops as RULE_DROP). */
#define PRIONIC_FLOW_VAL 0x00B8u
#define PRIONIC_FLOW_VAL_RESET 0x00000000u
#define PRIONIC_FLOW_VAL_BITS 16u
/* FLOW_CMD (RW): Flow table command (F31, docs/flowtable.md s3), run on FLOW_KEY0..4 and FLOW_VAL as they are at the write: 1 INSERT, 2 DELETE, 3 FIND, 4 CLEAR; any other value answers BAD_CMD. Written while FLOW_STATUS.BUSY: ignored, FLOW_STATUS.OVERRUN set. */
#define PRIONIC_FLOW_CMD 0x00BCu
#define PRIONIC_FLOW_CMD_RESET 0x00000000u
#define PRIONIC_FLOW_CMD_BITS 3u
/* FLOW_STATUS (RO): Flow table status (F31): [0] BUSY (a command or a clear runs; after reset the table clears itself for FLOW_TABLE_SETS cycles), [1] OVERRUN (a FLOW_CMD write was ignored: BUSY; cleared by the next command taken), RESULT[7:4] of the last command (0 NONE, 1 INSERTED, 2 UPDATED, 3 DELETED, 4 FOUND, 5 NOT_FOUND, 6 FULL, 7 CLEARED, 8 BAD_CMD), [8] WAY, [9] BANK, SET[25:16]: the entry written or found. */
#define PRIONIC_FLOW_STATUS 0x00C0u
#define PRIONIC_FLOW_STATUS_RESET 0x00000000u
#define PRIONIC_FLOW_STATUS_BITS 32u
/* FLOW_RVAL (RO): The value of the entry the last command found (UPDATED: the value replaced; DELETED, FOUND), else 0 (F31). */
#define PRIONIC_FLOW_RVAL 0x00C4u
#define PRIONIC_FLOW_RVAL_RESET 0x00000000u
#define PRIONIC_FLOW_RVAL_BITS 32u
/* FLOW_USED (RO): Valid flow table entries (F31). */
#define PRIONIC_FLOW_USED 0x00C8u
#define PRIONIC_FLOW_USED_RESET 0x00000000u
#define PRIONIC_FLOW_USED_BITS 32u
/* CNT_FLOW_TABLE_HIT (RO): Frames classified by a flow table entry (F31): they skipped the rules. */
#define PRIONIC_CNT_FLOW_TABLE_HIT 0x00CCu
#define PRIONIC_CNT_FLOW_TABLE_HIT_RESET 0x00000000u
#define PRIONIC_CNT_FLOW_TABLE_HIT_BITS 32u

/* ---- block queue: One block per receive queue q at 0x100 + 0x80*q (F11, F12, F14). */
#define PRIONIC_QUEUE_BASE 0x0100u
#define PRIONIC_QUEUE_STRIDE 0x80u
/* count: build parameter NUM_QUEUES (register CONFIG); the address map has room for: */
#define PRIONIC_QUEUE_MAX_COUNT 30u
/* RING_BASE_LO (RW): Descriptor ring base address [31:0]; 32-byte aligned (F24): bits [4:0] read 0, and a write with any of them set is refused (nothing changes, no ring reset; QUEUE_STATUS.RING_REFUSED, CNT_RING_REFUSED), so that the driver and the NIC never disagree on where the descriptors are. Writing it resets HEAD and TAIL to 0, clears a DMA error of the queue and clears QUEUE_STATUS.RING_REFUSED. Ring registers take writes only while the queue is idle (F24): no frame admitted to it is left to write, and it is disabled (QUEUE_CTRL.ENABLE 0) or its RING_SIZE is below 2; other writes are refused the same way. */
#define PRIONIC_RING_BASE_LO_OFFSET 0x00u   /* within the block */
#define PRIONIC_RING_BASE_LO(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_RING_BASE_LO_OFFSET)
#define PRIONIC_RING_BASE_LO_RESET 0x00000000u
#define PRIONIC_RING_BASE_LO_BITS 32u
/* RING_BASE_HI (RW): Descriptor ring base address [63:32]. Bits at or above AXI_ADDR_WIDTH must be 0: otherwise the queue's next frame stops it (RING_ERR, F24), nothing is read or written. Written only while the queue is idle (RING_BASE_LO); other writes are refused and flagged. */
#define PRIONIC_RING_BASE_HI_OFFSET 0x04u   /* within the block */
#define PRIONIC_RING_BASE_HI(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_RING_BASE_HI_OFFSET)
#define PRIONIC_RING_BASE_HI_RESET 0x00000000u
#define PRIONIC_RING_BASE_HI_BITS 32u
/* RING_SIZE (RW): Number of 32-byte descriptors in the ring; 0 or 1 disables the queue. Writing it resets HEAD and TAIL to 0, clears a DMA error of the queue and clears QUEUE_STATUS.RING_REFUSED; written only while the queue is idle (RING_BASE_LO, F24), other writes are refused and flagged. */
#define PRIONIC_RING_SIZE_OFFSET 0x08u   /* within the block */
#define PRIONIC_RING_SIZE(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_RING_SIZE_OFFSET)
#define PRIONIC_RING_SIZE_RESET 0x00000000u
#define PRIONIC_RING_SIZE_BITS 16u
/* RING_HEAD (RO): Index of the next descriptor the NIC will complete. */
#define PRIONIC_RING_HEAD_OFFSET 0x0Cu   /* within the block */
#define PRIONIC_RING_HEAD(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_RING_HEAD_OFFSET)
#define PRIONIC_RING_HEAD_RESET 0x00000000u
#define PRIONIC_RING_HEAD_BITS 16u
/* RING_TAIL (RW): Doorbell: index one past the last descriptor the host posted; the posted slots are RING_HEAD..RING_TAIL-1 (at most RING_SIZE-1). A write may only post more (F24): it is accepted iff the new value is below RING_SIZE and n = (new - TAIL) mod RING_SIZE is at most the free slots (RING_HEAD - 1 - TAIL) mod RING_SIZE, RING_HEAD as the register reads at the write's edge w; any other write (beyond the ring, or taking back posted slots) is refused: TAIL keeps its value, QUEUE_STATUS.RING_REFUSED is set and CNT_RING_REFUSED counts. A move backwards past every posted slot is the same n as a forward move and is accepted (docs/faults.md). Admission sees a write at w from edge w+2 (timing.md s3, F25). */
#define PRIONIC_RING_TAIL_OFFSET 0x10u   /* within the block */
#define PRIONIC_RING_TAIL(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_RING_TAIL_OFFSET)
#define PRIONIC_RING_TAIL_RESET 0x00000000u
#define PRIONIC_RING_TAIL_BITS 16u
/* BUF_SIZE (RW): Size in bytes of every buffer posted to this ring; longer frames are dropped (BUF_OVERFLOW). Admission sees a write at w from edge w+2 (timing.md s3, F25). */
#define PRIONIC_BUF_SIZE_OFFSET 0x14u   /* within the block */
#define PRIONIC_BUF_SIZE(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_BUF_SIZE_OFFSET)
#define PRIONIC_BUF_SIZE_RESET 0x00000800u
#define PRIONIC_BUF_SIZE_BITS 16u
/* ITR_CTRL (RW): [0] IMMEDIATE: every completion raises at once (still subject to ITR_GAP). */
#define PRIONIC_ITR_CTRL_OFFSET 0x18u   /* within the block */
#define PRIONIC_ITR_CTRL(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_CTRL_OFFSET)
#define PRIONIC_ITR_CTRL_RESET 0x00000000u
#define PRIONIC_ITR_CTRL_BITS 32u
/* ITR_FRAMES (RW): Frame-count threshold: raise when this many completions are pending; 0 disables. */
#define PRIONIC_ITR_FRAMES_OFFSET 0x1Cu   /* within the block */
#define PRIONIC_ITR_FRAMES(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_FRAMES_OFFSET)
#define PRIONIC_ITR_FRAMES_RESET 0x00000000u
#define PRIONIC_ITR_FRAMES_BITS 16u
/* ITR_PKT (RW): Packet timer in ticks, restarted by every completion (Intel RDTR); 0 disables. */
#define PRIONIC_ITR_PKT_OFFSET 0x20u   /* within the block */
#define PRIONIC_ITR_PKT(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_PKT_OFFSET)
#define PRIONIC_ITR_PKT_RESET 0x00000000u
#define PRIONIC_ITR_PKT_BITS 16u
/* ITR_ABS (RW): Absolute timer in ticks, started by the first pending completion (Intel RADV); 0 disables. */
#define PRIONIC_ITR_ABS_OFFSET 0x24u   /* within the block */
#define PRIONIC_ITR_ABS(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_ABS_OFFSET)
#define PRIONIC_ITR_ABS_RESET 0x00000000u
#define PRIONIC_ITR_ABS_BITS 16u
/* ITR_GAP (RW): Minimum gap in ticks between two interrupts of the queue (Intel ITR); 0 disables. */
#define PRIONIC_ITR_GAP_OFFSET 0x28u   /* within the block */
#define PRIONIC_ITR_GAP(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_GAP_OFFSET)
#define PRIONIC_ITR_GAP_RESET 0x00000000u
#define PRIONIC_ITR_GAP_BITS 16u
/* ITR_PENDING (RO): Completions pending since the queue's last interrupt (saturates at 0xFFFF). */
#define PRIONIC_ITR_PENDING_OFFSET 0x2Cu   /* within the block */
#define PRIONIC_ITR_PENDING(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_ITR_PENDING_OFFSET)
#define PRIONIC_ITR_PENDING_RESET 0x00000000u
#define PRIONIC_ITR_PENDING_BITS 16u
/* QUEUE_PRIO (RW): Priority of the queue (F11, F16); larger is more urgent. Reset: queue index + 1, so no queue is gated out of reset. */
#define PRIONIC_QUEUE_PRIO_OFFSET 0x30u   /* within the block */
#define PRIONIC_QUEUE_PRIO(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_QUEUE_PRIO_OFFSET)
#define PRIONIC_QUEUE_PRIO_RESET(i) ((uint32_t)(i) + 1u)
#define PRIONIC_QUEUE_PRIO_BITS 8u
/* QUEUE_CTRL (RW): [0] ENABLE (F24). A disabled queue admits no frame (QUEUE_DISABLED); the frames it admitted before are still written. */
#define PRIONIC_QUEUE_CTRL_OFFSET 0x34u   /* within the block */
#define PRIONIC_QUEUE_CTRL(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_QUEUE_CTRL_OFFSET)
#define PRIONIC_QUEUE_CTRL_RESET 0x00000001u
#define PRIONIC_QUEUE_CTRL_BITS 1u
/* QUEUE_STATUS (RO): [2:0] ERR: 0, or the DMA error that stopped the queue (docs/registers.md, DMA events: DESC_ERR 1, DATA_ERR 2, WB_ERR 3, TIMEOUT 4, RING_ERR 5); [8] DRAINED: ENABLE is 0 and no frame admitted to the queue is left to write or drop (F24); [9] RING_REFUSED (sticky): a ring register write of the queue was refused (RING_TAIL taking back posted slots or beyond the ring, RING_BASE_LO not 32-byte aligned, a ring register written while the queue is not idle; F24), cleared by an accepted RING_SIZE or RING_BASE_LO write. */
#define PRIONIC_QUEUE_STATUS_OFFSET 0x38u   /* within the block */
#define PRIONIC_QUEUE_STATUS(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_QUEUE_STATUS_OFFSET)
#define PRIONIC_QUEUE_STATUS_RESET 0x00000000u
#define PRIONIC_QUEUE_STATUS_BITS 32u
/* CNT_FRAMES (RO): Frames admitted to the queue (given a descriptor). */
#define PRIONIC_CNT_FRAMES_OFFSET 0x40u   /* within the block */
#define PRIONIC_CNT_FRAMES(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_FRAMES_OFFSET)
#define PRIONIC_CNT_FRAMES_RESET 0x00000000u
#define PRIONIC_CNT_FRAMES_BITS 32u
/* CNT_BYTES (RO): Bytes of the frames admitted to the queue. */
#define PRIONIC_CNT_BYTES_OFFSET 0x44u   /* within the block */
#define PRIONIC_CNT_BYTES(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_BYTES_OFFSET)
#define PRIONIC_CNT_BYTES_RESET 0x00000000u
#define PRIONIC_CNT_BYTES_BITS 32u
/* CNT_DROP_RING (RO): Frames dropped: ring full (no posted descriptor) or ring disabled. */
#define PRIONIC_CNT_DROP_RING_OFFSET 0x48u   /* within the block */
#define PRIONIC_CNT_DROP_RING(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DROP_RING_OFFSET)
#define PRIONIC_CNT_DROP_RING_RESET 0x00000000u
#define PRIONIC_CNT_DROP_RING_BITS 32u
/* CNT_DROP_BUF (RO): Frames dropped: longer than BUF_SIZE. */
#define PRIONIC_CNT_DROP_BUF_OFFSET 0x4Cu   /* within the block */
#define PRIONIC_CNT_DROP_BUF(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DROP_BUF_OFFSET)
#define PRIONIC_CNT_DROP_BUF_RESET 0x00000000u
#define PRIONIC_CNT_DROP_BUF_BITS 32u
/* CNT_IRQ (RO): Interrupts raised by the queue (moderation decisions, masked or not). */
#define PRIONIC_CNT_IRQ_OFFSET 0x50u   /* within the block */
#define PRIONIC_CNT_IRQ(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_IRQ_OFFSET)
#define PRIONIC_CNT_IRQ_RESET 0x00000000u
#define PRIONIC_CNT_IRQ_BITS 32u
/* CNT_DROP_QBUF (RO): Frames dropped: the queue's on-chip buffer (QBUF_BYTES, or its frame count) is taken by frames not yet completed (F11). */
#define PRIONIC_CNT_DROP_QBUF_OFFSET 0x54u   /* within the block */
#define PRIONIC_CNT_DROP_QBUF(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DROP_QBUF_OFFSET)
#define PRIONIC_CNT_DROP_QBUF_RESET 0x00000000u
#define PRIONIC_CNT_DROP_QBUF_BITS 32u
/* CNT_DROP_RATE (RO): Frames for this queue dropped by their rule's rate limiter (RATE_LIMITED, F9). */
#define PRIONIC_CNT_DROP_RATE_OFFSET 0x58u   /* within the block */
#define PRIONIC_CNT_DROP_RATE(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DROP_RATE_OFFSET)
#define PRIONIC_CNT_DROP_RATE_RESET 0x00000000u
#define PRIONIC_CNT_DROP_RATE_BITS 32u
/* CNT_DROP_DISABLED (RO): Frames for this queue dropped because it is disabled or stopped by a DMA error (QUEUE_DISABLED, F24). */
#define PRIONIC_CNT_DROP_DISABLED_OFFSET 0x5Cu   /* within the block */
#define PRIONIC_CNT_DROP_DISABLED(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DROP_DISABLED_OFFSET)
#define PRIONIC_CNT_DROP_DISABLED_RESET 0x00000000u
#define PRIONIC_CNT_DROP_DISABLED_BITS 32u
/* CNT_DMA_ERR (RO): DMA errors of this queue (F24): those that stopped it (QUEUE_STATUS.ERR), bad buffer addresses (BUF_ERR: an ERR write-back) and handshakes of its transactions withheld for DMA_TIMEOUT cycles (STALL_W, STALL_R; DMA_STALL). */
#define PRIONIC_CNT_DMA_ERR_OFFSET 0x60u   /* within the block */
#define PRIONIC_CNT_DMA_ERR(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DMA_ERR_OFFSET)
#define PRIONIC_CNT_DMA_ERR_RESET 0x00000000u
#define PRIONIC_CNT_DMA_ERR_BITS 32u
/* CNT_DMA_FLUSH (RO): Frames admitted to this queue that the DMA dropped, unwritten, because the queue was stopped by a DMA error (F24). */
#define PRIONIC_CNT_DMA_FLUSH_OFFSET 0x64u   /* within the block */
#define PRIONIC_CNT_DMA_FLUSH(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_DMA_FLUSH_OFFSET)
#define PRIONIC_CNT_DMA_FLUSH_RESET 0x00000000u
#define PRIONIC_CNT_DMA_FLUSH_BITS 32u
/* CNT_RING_REFUSED (RO): Ring register writes of this queue refused (F24, QUEUE_STATUS.RING_REFUSED): a write whose strobes select a byte of the register and that an accept rule refuses (RING_TAIL, RING_BASE_LO alignment, ring registers of a queue not idle). */
#define PRIONIC_CNT_RING_REFUSED_OFFSET 0x68u   /* within the block */
#define PRIONIC_CNT_RING_REFUSED(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_RING_REFUSED_OFFSET)
#define PRIONIC_CNT_RING_REFUSED_RESET 0x00000000u
#define PRIONIC_CNT_RING_REFUSED_BITS 32u
/* DMA_WIN_LO (RW): DMA window base [31:0] (F24, docs/faults.md section 4): with DMA_WIN_BITS = b < 64, every address the DMA uses for this queue (descriptor reads, buffer writes, write-backs) must lie in the naturally aligned 2^b-byte region that contains the base (the base's bits below b are ignored). A buffer address outside it, or a frame that would run past its end, is a BUF_ERR (no data write, ERR write-back); a ring not wholly inside it is a RING_ERR (nothing read or written). A ring register: written only while the queue is idle (RING_BASE_LO); a write resets HEAD and TAIL to 0 and clears a DMA error of the queue, like RING_BASE_LO. */
#define PRIONIC_DMA_WIN_LO_OFFSET 0x70u   /* within the block */
#define PRIONIC_DMA_WIN_LO(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_DMA_WIN_LO_OFFSET)
#define PRIONIC_DMA_WIN_LO_RESET 0x00000000u
#define PRIONIC_DMA_WIN_LO_BITS 32u
/* DMA_WIN_HI (RW): DMA window base [63:32] (F24, DMA_WIN_LO). A ring register (RING_BASE_LO). */
#define PRIONIC_DMA_WIN_HI_OFFSET 0x74u   /* within the block */
#define PRIONIC_DMA_WIN_HI(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_DMA_WIN_HI_OFFSET)
#define PRIONIC_DMA_WIN_HI_RESET 0x00000000u
#define PRIONIC_DMA_WIN_HI_BITS 32u
/* DMA_WIN_BITS (RW): DMA window size, log2 of bytes (F24, DMA_WIN_LO). 64 or more (the reset value): no window, every address the bus carries is allowed, so a driver that does not know the window works unchanged; a driver that programs it (the C driver does) is safe from a descriptor corrupted on the bus or in memory steering the DMA outside the memory it gave the queue. A ring register (RING_BASE_LO). */
#define PRIONIC_DMA_WIN_BITS_OFFSET 0x78u   /* within the block */
#define PRIONIC_DMA_WIN_BITS(i) (PRIONIC_QUEUE_BASE + PRIONIC_QUEUE_STRIDE * (uint32_t)(i) + PRIONIC_DMA_WIN_BITS_OFFSET)
#define PRIONIC_DMA_WIN_BITS_RESET 0x00000040u
#define PRIONIC_DMA_WIN_BITS_BITS 8u

/* ---- block rule: One block per classification rule r at 0x1000 + 0x40*r (F5). First enabled match by index wins; a rule matches when every condition it enables holds. */
#define PRIONIC_RULE_BASE 0x1000u
#define PRIONIC_RULE_STRIDE 0x40u
/* count: build parameter NUM_RULES (register CONFIG); the address map has room for: */
#define PRIONIC_RULE_MAX_COUNT 960u
/* RULE_CTRL (RW): [0] ENABLE, [1] DROP (else deliver to QUEUE), [2] MATCH_PROTO, [3] MATCH_DPORT, [4] MATCH_SPORT, [5] MATCH_ETHERTYPE, [6] MATCH_SRC, [7] MATCH_DST, [15:8] QUEUE, [23:16] PROTO, [24] MATCH_VID, [25] MATCH_PCP, [26] MATCH_IPVER, [27] IPVER (0 IPv4, 1 IPv6). */
#define PRIONIC_RULE_CTRL_OFFSET 0x00u   /* within the block */
#define PRIONIC_RULE_CTRL(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_CTRL_OFFSET)
#define PRIONIC_RULE_CTRL_RESET 0x00000000u
#define PRIONIC_RULE_CTRL_BITS 32u
/* RULE_DPORT (RW): Destination port range: LO[15:0], HI[31:16]; matches LO <= port <= HI (exact: LO == HI). */
#define PRIONIC_RULE_DPORT_OFFSET 0x04u   /* within the block */
#define PRIONIC_RULE_DPORT(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_DPORT_OFFSET)
#define PRIONIC_RULE_DPORT_RESET 0x00000000u
#define PRIONIC_RULE_DPORT_BITS 32u
/* RULE_SPORT (RW): Source port range: LO[15:0], HI[31:16], as RULE_DPORT. */
#define PRIONIC_RULE_SPORT_OFFSET 0x08u   /* within the block */
#define PRIONIC_RULE_SPORT(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_SPORT_OFFSET)
#define PRIONIC_RULE_SPORT_RESET 0x00000000u
#define PRIONIC_RULE_SPORT_BITS 32u
/* RULE_ETHERTYPE (RW): EtherType to match (0x0806 ARP, 0x0800 IPv4, ...). */
#define PRIONIC_RULE_ETHERTYPE_OFFSET 0x0Cu   /* within the block */
#define PRIONIC_RULE_ETHERTYPE(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_ETHERTYPE_OFFSET)
#define PRIONIC_RULE_ETHERTYPE_RESET 0x00000000u
#define PRIONIC_RULE_ETHERTYPE_BITS 16u
/* RULE_SRC_IP (RW): IPv4 source address (big-endian value, 10.0.0.2 = 0x0A000002); matches when (src & RULE_SRC_MASK) == (RULE_SRC_IP & RULE_SRC_MASK). */
#define PRIONIC_RULE_SRC_IP_OFFSET 0x10u   /* within the block */
#define PRIONIC_RULE_SRC_IP(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_SRC_IP_OFFSET)
#define PRIONIC_RULE_SRC_IP_RESET 0x00000000u
#define PRIONIC_RULE_SRC_IP_BITS 32u
/* RULE_SRC_MASK (RW): Mask of RULE_SRC_IP (0xFFFFFF00 = a /24). */
#define PRIONIC_RULE_SRC_MASK_OFFSET 0x14u   /* within the block */
#define PRIONIC_RULE_SRC_MASK(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_SRC_MASK_OFFSET)
#define PRIONIC_RULE_SRC_MASK_RESET 0x00000000u
#define PRIONIC_RULE_SRC_MASK_BITS 32u
/* RULE_DST_IP (RW): IPv4 destination address, as RULE_SRC_IP. */
#define PRIONIC_RULE_DST_IP_OFFSET 0x18u   /* within the block */
#define PRIONIC_RULE_DST_IP(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_DST_IP_OFFSET)
#define PRIONIC_RULE_DST_IP_RESET 0x00000000u
#define PRIONIC_RULE_DST_IP_BITS 32u
/* RULE_DST_MASK (RW): Mask of RULE_DST_IP. */
#define PRIONIC_RULE_DST_MASK_OFFSET 0x1Cu   /* within the block */
#define PRIONIC_RULE_DST_MASK(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_DST_MASK_OFFSET)
#define PRIONIC_RULE_DST_MASK_RESET 0x00000000u
#define PRIONIC_RULE_DST_MASK_BITS 32u
/* CNT_HITS (RO): Frames whose first matching rule is this one. */
#define PRIONIC_CNT_HITS_OFFSET 0x20u   /* within the block */
#define PRIONIC_CNT_HITS(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_CNT_HITS_OFFSET)
#define PRIONIC_CNT_HITS_RESET 0x00000000u
#define PRIONIC_CNT_HITS_BITS 32u
/* RULE_VLAN (RW): VLAN match of the outer tag: VID[11:0] (MATCH_VID), PCP[14:12] (MATCH_PCP); a frame without a tag matches neither. */
#define PRIONIC_RULE_VLAN_OFFSET 0x24u   /* within the block */
#define PRIONIC_RULE_VLAN(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_VLAN_OFFSET)
#define PRIONIC_RULE_VLAN_RESET 0x00000000u
#define PRIONIC_RULE_VLAN_BITS 15u
/* RULE_LIM_BUDGET (RW): Rate limiter of this rule (F9, docs/limiter.md): frames (or bytes) delivered per epoch. Any write to RULE_LIM_BUDGET, RULE_LIM_PERIOD or RULE_LIM_CTRL restarts the limiter with a full budget at w+2 (the pulse is at w+1; the limiter takes it and the values written one edge later, F25). */
#define PRIONIC_RULE_LIM_BUDGET_OFFSET 0x28u   /* within the block */
#define PRIONIC_RULE_LIM_BUDGET(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_LIM_BUDGET_OFFSET)
#define PRIONIC_RULE_LIM_BUDGET_RESET 0x00000000u
#define PRIONIC_RULE_LIM_BUDGET_BITS 32u
/* RULE_LIM_PERIOD (RW): Epoch length of the rule's rate limiter in clock cycles; 0 turns the limiter off (F9). */
#define PRIONIC_RULE_LIM_PERIOD_OFFSET 0x2Cu   /* within the block */
#define PRIONIC_RULE_LIM_PERIOD(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_LIM_PERIOD_OFFSET)
#define PRIONIC_RULE_LIM_PERIOD_RESET 0x00000000u
#define PRIONIC_RULE_LIM_PERIOD_BITS 32u
/* RULE_LIM_CTRL (RW): [0] BYTES: this rule's limiter counts bytes (frame length) instead of frames. [1] SHARED: the rule's frames spend limiter LIMITER[15:8] (the one configured in rule block LIMITER) instead of the rule's own, so several rules can share one budget; LIMITER >= NUM_RULES: no limiter (F9). Frames admitted from w+2 on use the new choice. Bits [7:2] are kept, unused. */
#define PRIONIC_RULE_LIM_CTRL_OFFSET 0x30u   /* within the block */
#define PRIONIC_RULE_LIM_CTRL(i) (PRIONIC_RULE_BASE + PRIONIC_RULE_STRIDE * (uint32_t)(i) + PRIONIC_RULE_LIM_CTRL_OFFSET)
#define PRIONIC_RULE_LIM_CTRL_RESET 0x00000000u
#define PRIONIC_RULE_LIM_CTRL_BITS 16u

/* ---- fields (docs/regmap.toml [fields], widths from [field_widths]) */
#define PRIONIC_DEFAULT_ACTION_ACCEPT_SHIFT 0u   /* [0] */
#define PRIONIC_DEFAULT_ACTION_ACCEPT_WIDTH 1u
#define PRIONIC_DEFAULT_ACTION_ACCEPT_MASK 0x00000001u
#define PRIONIC_DEFAULT_ACTION_QUEUE_SHIFT 8u   /* [15:8] */
#define PRIONIC_DEFAULT_ACTION_QUEUE_WIDTH 8u
#define PRIONIC_DEFAULT_ACTION_QUEUE_MASK 0x0000FF00u
#define PRIONIC_FRAG_ACTION_ACCEPT_SHIFT 0u   /* [0] */
#define PRIONIC_FRAG_ACTION_ACCEPT_WIDTH 1u
#define PRIONIC_FRAG_ACTION_ACCEPT_MASK 0x00000001u
#define PRIONIC_FRAG_ACTION_QUEUE_SHIFT 8u   /* [15:8] */
#define PRIONIC_FRAG_ACTION_QUEUE_WIDTH 8u
#define PRIONIC_FRAG_ACTION_QUEUE_MASK 0x0000FF00u
#define PRIONIC_ITR_CTRL_IMMEDIATE_SHIFT 0u   /* [0] */
#define PRIONIC_ITR_CTRL_IMMEDIATE_WIDTH 1u
#define PRIONIC_ITR_CTRL_IMMEDIATE_MASK 0x00000001u
#define PRIONIC_RULE_CTRL_ENABLE_SHIFT 0u   /* [0] */
#define PRIONIC_RULE_CTRL_ENABLE_WIDTH 1u
#define PRIONIC_RULE_CTRL_ENABLE_MASK 0x00000001u
#define PRIONIC_RULE_CTRL_DROP_SHIFT 1u   /* [1] */
#define PRIONIC_RULE_CTRL_DROP_WIDTH 1u
#define PRIONIC_RULE_CTRL_DROP_MASK 0x00000002u
#define PRIONIC_RULE_CTRL_MATCH_PROTO_SHIFT 2u   /* [2] */
#define PRIONIC_RULE_CTRL_MATCH_PROTO_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_PROTO_MASK 0x00000004u
#define PRIONIC_RULE_CTRL_MATCH_DPORT_SHIFT 3u   /* [3] */
#define PRIONIC_RULE_CTRL_MATCH_DPORT_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_DPORT_MASK 0x00000008u
#define PRIONIC_RULE_CTRL_MATCH_SPORT_SHIFT 4u   /* [4] */
#define PRIONIC_RULE_CTRL_MATCH_SPORT_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_SPORT_MASK 0x00000010u
#define PRIONIC_RULE_CTRL_MATCH_ETHERTYPE_SHIFT 5u   /* [5] */
#define PRIONIC_RULE_CTRL_MATCH_ETHERTYPE_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_ETHERTYPE_MASK 0x00000020u
#define PRIONIC_RULE_CTRL_MATCH_SRC_SHIFT 6u   /* [6] */
#define PRIONIC_RULE_CTRL_MATCH_SRC_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_SRC_MASK 0x00000040u
#define PRIONIC_RULE_CTRL_MATCH_DST_SHIFT 7u   /* [7] */
#define PRIONIC_RULE_CTRL_MATCH_DST_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_DST_MASK 0x00000080u
#define PRIONIC_RULE_CTRL_QUEUE_SHIFT 8u   /* [15:8] */
#define PRIONIC_RULE_CTRL_QUEUE_WIDTH 8u
#define PRIONIC_RULE_CTRL_QUEUE_MASK 0x0000FF00u
#define PRIONIC_RULE_CTRL_PROTO_SHIFT 16u   /* [23:16] */
#define PRIONIC_RULE_CTRL_PROTO_WIDTH 8u
#define PRIONIC_RULE_CTRL_PROTO_MASK 0x00FF0000u
#define PRIONIC_RULE_CTRL_MATCH_VID_SHIFT 24u   /* [24] */
#define PRIONIC_RULE_CTRL_MATCH_VID_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_VID_MASK 0x01000000u
#define PRIONIC_RULE_CTRL_MATCH_PCP_SHIFT 25u   /* [25] */
#define PRIONIC_RULE_CTRL_MATCH_PCP_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_PCP_MASK 0x02000000u
#define PRIONIC_RULE_CTRL_MATCH_IPVER_SHIFT 26u   /* [26] */
#define PRIONIC_RULE_CTRL_MATCH_IPVER_WIDTH 1u
#define PRIONIC_RULE_CTRL_MATCH_IPVER_MASK 0x04000000u
#define PRIONIC_RULE_CTRL_IPVER_SHIFT 27u   /* [27] */
#define PRIONIC_RULE_CTRL_IPVER_WIDTH 1u
#define PRIONIC_RULE_CTRL_IPVER_MASK 0x08000000u
#define PRIONIC_RULE_VLAN_PCP_SHIFT 12u   /* [14:12] */
#define PRIONIC_RULE_VLAN_PCP_WIDTH 3u
#define PRIONIC_RULE_VLAN_PCP_MASK 0x00007000u
#define PRIONIC_RULE_LIM_CTRL_BYTES_SHIFT 0u   /* [0] */
#define PRIONIC_RULE_LIM_CTRL_BYTES_WIDTH 1u
#define PRIONIC_RULE_LIM_CTRL_BYTES_MASK 0x00000001u
#define PRIONIC_RULE_LIM_CTRL_SHARED_SHIFT 1u   /* [1] */
#define PRIONIC_RULE_LIM_CTRL_SHARED_WIDTH 1u
#define PRIONIC_RULE_LIM_CTRL_SHARED_MASK 0x00000002u
#define PRIONIC_RULE_LIM_CTRL_LIMITER_SHIFT 8u   /* [15:8] */
#define PRIONIC_RULE_LIM_CTRL_LIMITER_WIDTH 8u
#define PRIONIC_RULE_LIM_CTRL_LIMITER_MASK 0x0000FF00u
#define PRIONIC_FLOW_CTRL_ENABLE_SHIFT 0u   /* [0] */
#define PRIONIC_FLOW_CTRL_ENABLE_WIDTH 1u
#define PRIONIC_FLOW_CTRL_ENABLE_MASK 0x00000001u
#define PRIONIC_QUEUE_CTRL_ENABLE_SHIFT 0u   /* [0] */
#define PRIONIC_QUEUE_CTRL_ENABLE_WIDTH 1u
#define PRIONIC_QUEUE_CTRL_ENABLE_MASK 0x00000001u
#define PRIONIC_QUEUE_STATUS_DRAINED_SHIFT 8u   /* [8] */
#define PRIONIC_QUEUE_STATUS_DRAINED_WIDTH 1u
#define PRIONIC_QUEUE_STATUS_DRAINED_MASK 0x00000100u
#define PRIONIC_QUEUE_STATUS_RING_REFUSED_SHIFT 9u   /* [9] */
#define PRIONIC_QUEUE_STATUS_RING_REFUSED_WIDTH 1u
#define PRIONIC_QUEUE_STATUS_RING_REFUSED_MASK 0x00000200u
#define PRIONIC_QUEUE_STATUS_ERR_SHIFT 0u   /* [2:0] */
#define PRIONIC_QUEUE_STATUS_ERR_WIDTH 3u
#define PRIONIC_QUEUE_STATUS_ERR_MASK 0x00000007u
#define PRIONIC_DMA_STALL_WRITE_SHIFT 0u   /* [0] */
#define PRIONIC_DMA_STALL_WRITE_WIDTH 1u
#define PRIONIC_DMA_STALL_WRITE_MASK 0x00000001u
#define PRIONIC_DMA_STALL_READ_SHIFT 1u   /* [1] */
#define PRIONIC_DMA_STALL_READ_WIDTH 1u
#define PRIONIC_DMA_STALL_READ_MASK 0x00000002u
#define PRIONIC_FLOW_VAL_DROP_SHIFT 0u   /* [0] */
#define PRIONIC_FLOW_VAL_DROP_WIDTH 1u
#define PRIONIC_FLOW_VAL_DROP_MASK 0x00000001u
#define PRIONIC_FLOW_VAL_RULE_VALID_SHIFT 1u   /* [1] */
#define PRIONIC_FLOW_VAL_RULE_VALID_WIDTH 1u
#define PRIONIC_FLOW_VAL_RULE_VALID_MASK 0x00000002u
#define PRIONIC_FLOW_VAL_RULE_SHIFT 2u   /* [7:2] */
#define PRIONIC_FLOW_VAL_RULE_WIDTH 6u
#define PRIONIC_FLOW_VAL_RULE_MASK 0x000000FCu
#define PRIONIC_FLOW_VAL_QUEUE_SHIFT 8u   /* [15:8] */
#define PRIONIC_FLOW_VAL_QUEUE_WIDTH 8u
#define PRIONIC_FLOW_VAL_QUEUE_MASK 0x0000FF00u
#define PRIONIC_FLOW_STATUS_BUSY_SHIFT 0u   /* [0] */
#define PRIONIC_FLOW_STATUS_BUSY_WIDTH 1u
#define PRIONIC_FLOW_STATUS_BUSY_MASK 0x00000001u
#define PRIONIC_FLOW_STATUS_OVERRUN_SHIFT 1u   /* [1] */
#define PRIONIC_FLOW_STATUS_OVERRUN_WIDTH 1u
#define PRIONIC_FLOW_STATUS_OVERRUN_MASK 0x00000002u
#define PRIONIC_FLOW_STATUS_RESULT_SHIFT 4u   /* [7:4] */
#define PRIONIC_FLOW_STATUS_RESULT_WIDTH 4u
#define PRIONIC_FLOW_STATUS_RESULT_MASK 0x000000F0u
#define PRIONIC_FLOW_STATUS_WAY_SHIFT 8u   /* [8] */
#define PRIONIC_FLOW_STATUS_WAY_WIDTH 1u
#define PRIONIC_FLOW_STATUS_WAY_MASK 0x00000100u
#define PRIONIC_FLOW_STATUS_BANK_SHIFT 9u   /* [9] */
#define PRIONIC_FLOW_STATUS_BANK_WIDTH 1u
#define PRIONIC_FLOW_STATUS_BANK_MASK 0x00000200u
#define PRIONIC_FLOW_STATUS_SET_SHIFT 16u   /* [25:16] */
#define PRIONIC_FLOW_STATUS_SET_WIDTH 10u
#define PRIONIC_FLOW_STATUS_SET_MASK 0x03FF0000u

/* ---- host-side fields (docs/regmap.toml [host_fields]) */
#define PRIONIC_VERSION_PATCH_SHIFT 0u   /* [7:0] */
#define PRIONIC_VERSION_PATCH_WIDTH 8u
#define PRIONIC_VERSION_PATCH_MASK 0x000000FFu
#define PRIONIC_VERSION_MINOR_SHIFT 8u   /* [15:8] */
#define PRIONIC_VERSION_MINOR_WIDTH 8u
#define PRIONIC_VERSION_MINOR_MASK 0x0000FF00u
#define PRIONIC_VERSION_MAJOR_SHIFT 16u   /* [31:16] */
#define PRIONIC_VERSION_MAJOR_WIDTH 16u
#define PRIONIC_VERSION_MAJOR_MASK 0xFFFF0000u
#define PRIONIC_CONFIG_NUM_QUEUES_SHIFT 0u   /* [7:0] */
#define PRIONIC_CONFIG_NUM_QUEUES_WIDTH 8u
#define PRIONIC_CONFIG_NUM_QUEUES_MASK 0x000000FFu
#define PRIONIC_CONFIG_NUM_RULES_SHIFT 8u   /* [15:8] */
#define PRIONIC_CONFIG_NUM_RULES_WIDTH 8u
#define PRIONIC_CONFIG_NUM_RULES_MASK 0x0000FF00u
#define PRIONIC_CONFIG_DATA_BYTES_SHIFT 16u   /* [23:16] */
#define PRIONIC_CONFIG_DATA_BYTES_WIDTH 8u
#define PRIONIC_CONFIG_DATA_BYTES_MASK 0x00FF0000u
#define PRIONIC_CONFIG_RULES_PER_CYCLE_SHIFT 24u   /* [31:24] */
#define PRIONIC_CONFIG_RULES_PER_CYCLE_WIDTH 8u
#define PRIONIC_CONFIG_RULES_PER_CYCLE_MASK 0xFF000000u
#define PRIONIC_PENDING_PRIO_PRIO_SHIFT 0u   /* [7:0] */
#define PRIONIC_PENDING_PRIO_PRIO_WIDTH 8u
#define PRIONIC_PENDING_PRIO_PRIO_MASK 0x000000FFu
#define PRIONIC_PENDING_PRIO_VALID_SHIFT 8u   /* [8] */
#define PRIONIC_PENDING_PRIO_VALID_WIDTH 1u
#define PRIONIC_PENDING_PRIO_VALID_MASK 0x00000100u
#define PRIONIC_RULE_DPORT_LO_SHIFT 0u   /* [15:0] */
#define PRIONIC_RULE_DPORT_LO_WIDTH 16u
#define PRIONIC_RULE_DPORT_LO_MASK 0x0000FFFFu
#define PRIONIC_RULE_DPORT_HI_SHIFT 16u   /* [31:16] */
#define PRIONIC_RULE_DPORT_HI_WIDTH 16u
#define PRIONIC_RULE_DPORT_HI_MASK 0xFFFF0000u
#define PRIONIC_RULE_SPORT_LO_SHIFT 0u   /* [15:0] */
#define PRIONIC_RULE_SPORT_LO_WIDTH 16u
#define PRIONIC_RULE_SPORT_LO_MASK 0x0000FFFFu
#define PRIONIC_RULE_SPORT_HI_SHIFT 16u   /* [31:16] */
#define PRIONIC_RULE_SPORT_HI_WIDTH 16u
#define PRIONIC_RULE_SPORT_HI_MASK 0xFFFF0000u
#define PRIONIC_RULE_VLAN_VID_SHIFT 0u   /* [11:0] */
#define PRIONIC_RULE_VLAN_VID_WIDTH 12u
#define PRIONIC_RULE_VLAN_VID_MASK 0x00000FFFu

/* ---- per-frame verdict codes (stat_verdict_code, counters) */
#define PRIONIC_VERDICT_ACCEPT 0u
#define PRIONIC_VERDICT_BAD_FRAME 1u
#define PRIONIC_VERDICT_MALFORMED 2u
#define PRIONIC_VERDICT_OVERSIZE 3u
#define PRIONIC_VERDICT_UNREGISTERED 4u
#define PRIONIC_VERDICT_RULE_DROP 5u
#define PRIONIC_VERDICT_RING_FULL 6u
#define PRIONIC_VERDICT_BUF_OVERFLOW 7u
#define PRIONIC_VERDICT_QBUF_FULL 8u
#define PRIONIC_VERDICT_FRAGMENT 9u
#define PRIONIC_VERDICT_RATE_LIMITED 10u
#define PRIONIC_VERDICT_QUEUE_DISABLED 11u

/* ---- flow table (F31, docs/flowtable.md): FLOW_CMD values, FLOW_STATUS.RESULT codes */
#define PRIONIC_FLOW_CMD_INSERT 1u
#define PRIONIC_FLOW_CMD_DELETE 2u
#define PRIONIC_FLOW_CMD_FIND 3u
#define PRIONIC_FLOW_CMD_CLEAR 4u
#define PRIONIC_FLOW_RESULT_NONE 0u
#define PRIONIC_FLOW_RESULT_INSERTED 1u
#define PRIONIC_FLOW_RESULT_UPDATED 2u
#define PRIONIC_FLOW_RESULT_DELETED 3u
#define PRIONIC_FLOW_RESULT_FOUND 4u
#define PRIONIC_FLOW_RESULT_NOT_FOUND 5u
#define PRIONIC_FLOW_RESULT_FULL 6u
#define PRIONIC_FLOW_RESULT_CLEARED 7u
#define PRIONIC_FLOW_RESULT_BAD_CMD 8u
/* the flow key (docs/regmap.toml [records.flow_key]): FLOW_KEY0..4 hold its bits, bit 0 first */
#define PRIONIC_FLOW_KEY_IS_IPV4_SHIFT 0u
#define PRIONIC_FLOW_KEY_IS_IPV4_WIDTH 1u
#define PRIONIC_FLOW_KEY_IS_IPV6_SHIFT 1u
#define PRIONIC_FLOW_KEY_IS_IPV6_WIDTH 1u
#define PRIONIC_FLOW_KEY_PORTS_VALID_SHIFT 2u
#define PRIONIC_FLOW_KEY_PORTS_VALID_WIDTH 1u
#define PRIONIC_FLOW_KEY_TAGGED_SHIFT 3u
#define PRIONIC_FLOW_KEY_TAGGED_WIDTH 1u
#define PRIONIC_FLOW_KEY_PCP_SHIFT 4u
#define PRIONIC_FLOW_KEY_PCP_WIDTH 3u
#define PRIONIC_FLOW_KEY_VID_SHIFT 7u
#define PRIONIC_FLOW_KEY_VID_WIDTH 12u
#define PRIONIC_FLOW_KEY_PROTO_SHIFT 19u
#define PRIONIC_FLOW_KEY_PROTO_WIDTH 8u
#define PRIONIC_FLOW_KEY_ETHERTYPE_SHIFT 27u
#define PRIONIC_FLOW_KEY_ETHERTYPE_WIDTH 16u
#define PRIONIC_FLOW_KEY_DPORT_SHIFT 43u
#define PRIONIC_FLOW_KEY_DPORT_WIDTH 16u
#define PRIONIC_FLOW_KEY_SPORT_SHIFT 59u
#define PRIONIC_FLOW_KEY_SPORT_WIDTH 16u
#define PRIONIC_FLOW_KEY_DST_IP_SHIFT 75u
#define PRIONIC_FLOW_KEY_DST_IP_WIDTH 32u
#define PRIONIC_FLOW_KEY_SRC_IP_SHIFT 107u
#define PRIONIC_FLOW_KEY_SRC_IP_WIDTH 32u
#define PRIONIC_FLOW_KEY_BITS 139u

/* ---- descriptor ring entry (F12, docs/frame-path.md section 4): bytes 0-15 written
 * by the host (buffer address, reserved), bytes 16-31 (the write-back) by the NIC;
 * all fields little-endian. DD (status bit) is in the last byte written. */
#define PRIONIC_DESC_SIZE 32u
#define PRIONIC_DESC_ADDR_OFFSET 0u
#define PRIONIC_DESC_WRITEBACK_OFFSET 16u
#define PRIONIC_DESC_LEN_OFFSET 16u
#define PRIONIC_DESC_RULE_OFFSET 18u
#define PRIONIC_DESC_QUEUE_OFFSET 19u
#define PRIONIC_DESC_TS_OFFSET 20u
#define PRIONIC_DESC_INFO_OFFSET 24u
#define PRIONIC_DESC_STATUS_OFFSET 28u
#define PRIONIC_DESC_STATUS_DD 31u   /* status bit */
#define PRIONIC_DESC_STATUS_DD_MASK 0x80000000u
#define PRIONIC_DESC_STATUS_ERR 30u   /* status bit */
#define PRIONIC_DESC_STATUS_ERR_MASK 0x40000000u
#define PRIONIC_DESC_STATUS_IPV4 0u   /* status bit */
#define PRIONIC_DESC_STATUS_IPV4_MASK 0x00000001u
#define PRIONIC_DESC_STATUS_IPV6 1u   /* status bit */
#define PRIONIC_DESC_STATUS_IPV6_MASK 0x00000002u
#define PRIONIC_DESC_STATUS_TCP 2u   /* status bit */
#define PRIONIC_DESC_STATUS_TCP_MASK 0x00000004u
#define PRIONIC_DESC_STATUS_UDP 3u   /* status bit */
#define PRIONIC_DESC_STATUS_UDP_MASK 0x00000008u
#define PRIONIC_DESC_STATUS_IPCS 4u   /* status bit */
#define PRIONIC_DESC_STATUS_IPCS_MASK 0x00000010u
#define PRIONIC_DESC_STATUS_IPE 5u   /* status bit */
#define PRIONIC_DESC_STATUS_IPE_MASK 0x00000020u
#define PRIONIC_DESC_STATUS_L4CS 6u   /* status bit */
#define PRIONIC_DESC_STATUS_L4CS_MASK 0x00000040u
#define PRIONIC_DESC_STATUS_L4E 7u   /* status bit */
#define PRIONIC_DESC_STATUS_L4E_MASK 0x00000080u
#define PRIONIC_DESC_WRITEBACK_SIZE 16u
/* the parser's flags (F4): every status bit above but DD and ERR */
#define PRIONIC_DESC_STATUS_FLAGS_MASK 0x000000FFu
/* info word (F3) */
#define PRIONIC_DESC_INFO_TCI_SHIFT 0u   /* [15:0] */
#define PRIONIC_DESC_INFO_TCI_WIDTH 16u
#define PRIONIC_DESC_INFO_TCI_MASK 0x0000FFFFu
#define PRIONIC_DESC_INFO_TCP_FLAGS_SHIFT 16u   /* [23:16] */
#define PRIONIC_DESC_INFO_TCP_FLAGS_WIDTH 8u
#define PRIONIC_DESC_INFO_TCP_FLAGS_MASK 0x00FF0000u
#define PRIONIC_DESC_INFO_VLAN_TAGS_SHIFT 24u   /* [25:24] */
#define PRIONIC_DESC_INFO_VLAN_TAGS_WIDTH 2u
#define PRIONIC_DESC_INFO_VLAN_TAGS_MASK 0x03000000u

/* The same layout as a struct: valid on a little-endian host only (the byte offsets
 * above are what a portable driver uses); the typedefs fail to compile if the
 * compiler lays it out differently. */
struct prionic_desc {
    uint64_t addr;    /* byte 0 */
    uint8_t reserved_8[8];   /* bytes 8-15 */
    uint16_t len;     /* byte 16 */
    uint8_t rule;    /* byte 18 */
    uint8_t queue;   /* byte 19 */
    uint32_t ts;      /* byte 20 */
    uint32_t info;    /* byte 24 */
    uint32_t status;  /* byte 28 */
};
typedef char prionic_desc_check_0[(sizeof(struct prionic_desc) == PRIONIC_DESC_SIZE) ? 1 : -1];
typedef char prionic_desc_check_1[(offsetof(struct prionic_desc, addr) == PRIONIC_DESC_ADDR_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_2[(offsetof(struct prionic_desc, len) == PRIONIC_DESC_LEN_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_3[(offsetof(struct prionic_desc, rule) == PRIONIC_DESC_RULE_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_4[(offsetof(struct prionic_desc, queue) == PRIONIC_DESC_QUEUE_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_5[(offsetof(struct prionic_desc, ts) == PRIONIC_DESC_TS_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_6[(offsetof(struct prionic_desc, info) == PRIONIC_DESC_INFO_OFFSET) ? 1 : -1];
typedef char prionic_desc_check_7[(offsetof(struct prionic_desc, status) == PRIONIC_DESC_STATUS_OFFSET) ? 1 : -1];

#endif /* PRIONIC_REGS_H */
