// SPDX-License-Identifier: MIT
//
// prionic_dma: receive DMA engine (F12, F25), an AXI4 master. Takes admitted-frame entries
// (from prionic_qbuf, highest priority first) and the frame's words at the AXI width
// (AXI_DATA_WIDTH, which may be wider than the stream's DATA_WIDTH: docs/frame-path.md
// section 4.1). A dropped frame's words are popped and discarded.
//
// Descriptor prefetch: a read engine, independent of the write side, keeps one buffer
// address per queue read ahead: it reads slot PF of queue q (RING_BASE + 32*PF) only when
// that slot is posted (PF != RING_TAIL), so a frame admitted to a slot finds its address
// already read. A ring reset forgets the queue's prefetched address.
//
// Write side: for a delivered frame it writes the frame into the buffer in INCR bursts of
// at most 16 beats that never cross a 16-beat boundary (wstrb trimmed on the last beat),
// waits for every data B, then writes the 16-byte write-back (length, rule, queue, status
// DD, timestamp) at descriptor offset 16 and goes on with the next frame at once: the
// write-back's B (the completion, cycle C: m_cpl pulses at C+1 and the queue's HEAD becomes
// slot+1) comes while the next frame's data is written (same-ID B responses return in
// order, so at most one write-back is ever owed). A buffer address that is not aligned to
// the bus width, has bits set at or above AXI_ADDR_WIDTH or lies outside the queue's DMA
// window (or a frame that would run past its end) gets no data write at all: its
// completion says length 0, status DD|ERR. The engine writes nowhere else.
//
// DMA window (F24, docs/faults.md section 4): per queue, the naturally aligned 2^DMA_WIN_BITS
// bytes around DMA_WIN; a ring not wholly inside is a RING_ERR, a buffer address outside, or
// a frame that would run past the window's end (or past the top of the bus), a BUF_ERR, so
// no descriptor, however corrupted, steers a write out of the memory the host gave the queue.
// The window's flags are registered from the configuration; a ring reset (which every
// window write makes) holds the queue's prefetch until they have settled.
//
// Host-side faults (F24, docs/faults.md): an error response or a transaction left
// unanswered for DMA_TIMEOUT cycles stops the queue (stat_dma event, QUEUE_STATUS.ERR):
// an error on the descriptor read leaves no address (the queue's frames are flushed), an
// error on a data burst makes the write-back say ERR, a timeout abandons the transaction.
// A completion of a queue stopped before it is written says ERR. Every later frame of a
// stopped queue is dropped unwritten (FLUSH). RING_ERR, BUF_ERR and FLUSH are decided when
// the frame starts and no write-back is owed, so they never overtake a completion. Reads
// and writes each carry their own epoch in the AXI ID (AWID {write-back, epoch}: a B names
// the burst it answers, the one owed write-back or the current frame's data, so a lost B
// times out against its own burst); an epoch advances at its direction's timeout and at a
// reset that finds the engine busy; a response with another epoch is taken and ignored.
// A reset (rst: the NIC alone) in the middle of a burst leaves the burst's owed W beats to
// be sent after it with every strobe off (state OWE). The epochs and the owed burst
// survive rst; bus_rst (the bus and its slave reset too, with rst) clears them.
// RREADY is low only in a cycle where the write side reports an event, so two events
// never fall on one edge. A handshake the slave withholds (AWREADY, WREADY, ARREADY) for
// DMA_TIMEOUT cycles is reported (STALL_W, STALL_R) at an edge with no other event, once per
// stall; it is never abandoned (AXI forbids withdrawing a VALID) and stops nothing.
//
// AXI4 write channels (A3.3.1): a burst's AW and its first W beat are offered in its first
// cycle (S_DATA_AW, S_CPL_AW); the AW is held until AWREADY and the W beats go on whatever
// AWREADY does, so a slave that waits for WVALID before AWREADY, or takes W before AW, is
// served.
//
// Structure: this module only wires two engines together, each in its own file:
// prionic_dma_prefetch (the descriptor reads, AR and R, and the DMA window's flags) and
// prionic_dma_write (AW, W and B: the write state machine, its watchdogs, the write-back,
// the completion, queue errors and the event port), which holds prionic_dma_owe (the
// finisher of a burst cut by rst) and prionic_dma_cnt (its counters with zero/one flags).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_dma #(
    parameter DATA_WIDTH     = 32,                 // stream width (the unit of the meta record's words), 8..64
    parameter AXI_DATA_WIDTH = DATA_WIDTH,         // AXI and s_data width: DATA_WIDTH * 1, 2 or 4, 8..128
    parameter STRB_WIDTH     = AXI_DATA_WIDTH / 8,
    parameter AXI_ADDR_WIDTH = 32,                 // host address bits
    parameter AXI_ID_WIDTH   = 4,                  // AXI ID bits, 2..: {write-back, epoch} (F24); the
                                                   // write epoch wraps after 2^(AXI_ID_WIDTH-1) advances
                                                   // (timeouts, busy resets), the read one after
                                                   // 2^AXI_ID_WIDTH: a response owed across that many
                                                   // is taken as current (docs/faults.md section 2)
    parameter NUM_QUEUES     = 2,                  // receive queues (1..16)
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1  // queue index width
) (
    input  wire                      clk,
    input  wire                      rst,              // reset of the NIC (core); the bus goes on
    input  wire                      bus_rst,          // the AXI bus and its slave are reset (F24); rst comes with it

    input  wire [NUM_QUEUES*64-1:0]  cfg_ring_base,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_size,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_tail,    // RING_TAIL: slots before it are posted
    input  wire [NUM_QUEUES-1:0]     cfg_ring_rst,
    input  wire [31:0]               cfg_timeout,      // DMA_TIMEOUT: watchdog cycles, 0 off (F24)
    input  wire [NUM_QUEUES*64-1:0]  cfg_win_base,     // {DMA_WIN_HI, DMA_WIN_LO} per queue (F24)
    input  wire [NUM_QUEUES*8-1:0]   cfg_win_bits,     // DMA_WIN_BITS: log2 of the window, >= 64 none

    // admitted-frame entries
    input  wire                      s_meta_valid,
    output wire                      s_meta_ready,
`include "prionic_records.vh"
    input  wire [`PRIONIC_REC_META_W-1:0] s_meta,      // the `meta` record of docs/regmap.toml

    // frame words, AXI_DATA_WIDTH wide: ceil(words * DATA_WIDTH / AXI_DATA_WIDTH) per frame
    input  wire [AXI_DATA_WIDTH-1:0] s_data,
    input  wire                      s_data_valid,
    output wire                      s_data_ready,

    // AXI4 master, write channels AW, W and B (rtl/prionic_axi.vh)
    `PRIONIC_AXI_M_WRITE_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH, STRB_WIDTH),
    // AXI4 master, read channels AR and R
    `PRIONIC_AXI_M_READ_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH),

    // completion: one-cycle pulse the cycle after the write-back's B handshake
    output wire                      m_cpl_valid,
    output wire [7:0]                m_cpl_queue,
    output wire [15:0]               m_cpl_words,      // the completed frame's word count
    output wire                      m_cpl_flush,      // ... dropped unwritten (FLUSH): no interrupt
    output wire [NUM_QUEUES-1:0]     m_cpl_q_valid,    // m_cpl_valid decoded per queue: one-hot (F25)
    output wire [NUM_QUEUES*16-1:0]  m_cpl_q_words,    // per queue: m_cpl_words if m_cpl_q_valid, else 0 (F25)
    output wire [NUM_QUEUES-1:0]     m_cpl_int,        // ... and not a FLUSH: the interrupting ones

    // DMA events (F24): one-cycle pulse the cycle after the event edge E
    output wire                      stat_dma_valid,
    output wire [3:0]                stat_dma_code,    // docs/regmap.toml [enums.dma_event]
    output wire [7:0]                stat_dma_queue,
    output wire [NUM_QUEUES*3-1:0]   status_qerr,      // per queue: the error that stopped it, 0 none

    output wire [NUM_QUEUES*16-1:0]  status_head
);

    initial begin
        if (DATA_WIDTH != 8 && DATA_WIDTH != 16 && DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
            $error("Error: DATA_WIDTH must be 8, 16, 32 or 64 (instance %m)");
            $finish;
        end
        if (AXI_DATA_WIDTH != DATA_WIDTH && AXI_DATA_WIDTH != 2 * DATA_WIDTH && AXI_DATA_WIDTH != 4 * DATA_WIDTH) begin
            $error("Error: AXI_DATA_WIDTH must be DATA_WIDTH times 1, 2 or 4 (instance %m)");
            $finish;
        end
        if (AXI_DATA_WIDTH > 128) begin
            $error("Error: AXI_DATA_WIDTH must be at most 128 (instance %m)");
            $finish;
        end
        if (AXI_ADDR_WIDTH < 16 || AXI_ADDR_WIDTH > 64) begin
            $error("Error: AXI_ADDR_WIDTH must be 16..64 (instance %m)");
            $finish;
        end
        if (AXI_ID_WIDTH < 2) begin
            $error("Error: AXI_ID_WIDTH must be at least 2 (instance %m)");
            $finish;
        end
    end

    // the two engines meet here: the prefetch's addresses and flags, the write side's
    // queue state, holds and events
    wire [NUM_QUEUES-1:0]     ring_bad, pf_valid, pf_bad, q_running, pf_take;
    wire [NUM_QUEUES*AXI_ADDR_WIDTH-1:0] pf_addr;
    wire [NUM_QUEUES*5-1:0]   pf_room;
    wire [NUM_QUEUES*7-1:0]   pf_rw;
    wire [NUM_QUEUES*17-1:0]  pf_fit;
    wire [NUM_QUEUES-1:0]     pf_fit_wr;
    wire                      pf_fit_far;
    wire [15:0]               pf_fit_left;
    wire                      rd_busy, rd_ev, w_event, wb_pend, cpl_blk, cpl_bw, b_cur;
    wire [QW-1:0]             rd_q, wb_q, cur_q;
    wire [3:0]                rd_code;

    prionic_dma_prefetch #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXI_ID_WIDTH(AXI_ID_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .QW(QW)
    ) prefetch_inst (
        .clk(clk), .rst(rst), .bus_rst(bus_rst),
        .cfg_ring_base(cfg_ring_base), .cfg_ring_size(cfg_ring_size), .cfg_ring_tail(cfg_ring_tail),
        .cfg_ring_rst(cfg_ring_rst), .cfg_timeout(cfg_timeout),
        .cfg_win_base(cfg_win_base), .cfg_win_bits(cfg_win_bits),
        .q_running(q_running), .w_event(w_event), .wb_pend(wb_pend), .wb_q(wb_q),
        .cpl_blk(cpl_blk), .cpl_bw(cpl_bw), .b_cur(b_cur), .cur_q(cur_q), .pf_take(pf_take),
        .ring_bad(ring_bad), .pf_valid(pf_valid), .pf_bad(pf_bad), .pf_addr(pf_addr),
        .pf_room(pf_room), .pf_rw(pf_rw), .pf_fit(pf_fit), .pf_fit_wr(pf_fit_wr),
        .pf_fit_far(pf_fit_far), .pf_fit_left(pf_fit_left),
        .rd_busy(rd_busy), .rd_q(rd_q), .rd_ev(rd_ev), .rd_code(rd_code),
        `PRIONIC_AXI_M_READ_CONN
    );

    prionic_dma_write #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .STRB_WIDTH(STRB_WIDTH),
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXI_ID_WIDTH(AXI_ID_WIDTH),
        .NUM_QUEUES(NUM_QUEUES),
        .QW(QW),
        .FIT_NEXT(1)
    ) write_inst (
        .clk(clk), .rst(rst), .bus_rst(bus_rst),
        .cfg_ring_base(cfg_ring_base), .cfg_ring_size(cfg_ring_size),
        .cfg_ring_rst(cfg_ring_rst), .cfg_timeout(cfg_timeout),
        .s_meta_valid(s_meta_valid), .s_meta_ready(s_meta_ready), .s_meta(s_meta),
        .s_data(s_data), .s_data_valid(s_data_valid), .s_data_ready(s_data_ready),
        .ring_bad(ring_bad), .pf_valid(pf_valid), .pf_bad(pf_bad), .pf_addr(pf_addr),
        .pf_room(pf_room), .pf_rw(pf_rw), .pf_fit(pf_fit), .pf_fit_wr(pf_fit_wr),
        .pf_fit_far(pf_fit_far), .pf_fit_left(pf_fit_left),
        .rd_busy(rd_busy), .rd_q(rd_q), .rd_ev(rd_ev), .rd_code(rd_code),
        .q_running(q_running), .w_event(w_event), .wb_pend(wb_pend), .wb_q(wb_q),
        .cpl_blk(cpl_blk), .cpl_bw(cpl_bw), .b_cur(b_cur), .cur_q(cur_q), .pf_take(pf_take),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
        `PRIONIC_AXI_M_WRITE_CONN,
        .m_cpl_valid(m_cpl_valid), .m_cpl_queue(m_cpl_queue), .m_cpl_words(m_cpl_words),
        .m_cpl_flush(m_cpl_flush), .m_cpl_q_valid(m_cpl_q_valid), .m_cpl_q_words(m_cpl_q_words),
        .m_cpl_int(m_cpl_int),
        .stat_dma_valid(stat_dma_valid), .stat_dma_code(stat_dma_code),
        .stat_dma_queue(stat_dma_queue), .status_qerr(status_qerr), .status_head(status_head)
    );

endmodule

`resetall
