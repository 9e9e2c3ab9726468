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
// the bus width, or has bits set at or above AXI_ADDR_WIDTH, gets no data write at all:
// its completion says length 0, status DD|ERR. The engine writes nowhere else.
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
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_dma #(
    parameter DATA_WIDTH     = 32,                 // stream width (units of s_meta_words), 8..64
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
    input  wire                      s_meta_drop,
    input  wire [7:0]                s_meta_queue,
    input  wire [7:0]                s_meta_rule,
    input  wire [15:0]               s_meta_len,
    input  wire [15:0]               s_meta_words,     // stream words (DATA_WIDTH)
    input  wire [15:0]               s_meta_slot,
    input  wire [31:0]               s_meta_ts,
    input  wire [39:0]               s_meta_info,     // {status flags[7:0], info[31:0]} (F4)

    // frame words, AXI_DATA_WIDTH wide: ceil(words * DATA_WIDTH / AXI_DATA_WIDTH) per frame
    input  wire [AXI_DATA_WIDTH-1:0] s_data,
    input  wire                      s_data_valid,
    output wire                      s_data_ready,

    // AXI4 master (write)
    output wire [AXI_ID_WIDTH-1:0]   m_axi_awid,
    output wire [AXI_ADDR_WIDTH-1:0] m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [AXI_DATA_WIDTH-1:0] m_axi_wdata,
    output wire [STRB_WIDTH-1:0]     m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [AXI_ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,
    // AXI4 master (read)
    output wire [AXI_ID_WIDTH-1:0]   m_axi_arid,
    output wire [AXI_ADDR_WIDTH-1:0] m_axi_araddr,
    output wire [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire                      m_axi_arlock,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output wire                      m_axi_arvalid,
    input  wire                      m_axi_arready,
    input  wire [AXI_ID_WIDTH-1:0]   m_axi_rid,
    input  wire [AXI_DATA_WIDTH-1:0] m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready,

    // completion: one-cycle pulse the cycle after the write-back's B handshake
    output wire                      m_cpl_valid,
    output wire [7:0]                m_cpl_queue,
    output wire [15:0]               m_cpl_words,      // the completed frame's word count
    output wire                      m_cpl_flush,      // ... dropped unwritten (FLUSH): no interrupt
    output wire [NUM_QUEUES-1:0]     m_cpl_hot,        // m_cpl_valid decoded: one-hot per queue (F25)
    output wire [NUM_QUEUES-1:0]     m_cpl_int,        // ... and not a FLUSH: the interrupting ones

    // DMA events (F24): one-cycle pulse the cycle after the event edge E
    output wire                      stat_dma_valid,
    output wire [3:0]                stat_dma_code,    // docs/regmap.toml [enums.dma_event]
    output wire [7:0]                stat_dma_queue,
    output wire [NUM_QUEUES*3-1:0]   status_qerr,      // per queue: the error that stopped it, 0 none

    output wire [NUM_QUEUES*16-1:0]  status_head
);

`include "prionic_regs.vh"

    localparam BSHIFT     = $clog2(STRB_WIDTH);        // log2 bytes per beat
    localparam RATIO      = AXI_DATA_WIDTH / DATA_WIDTH;
    localparam RSHIFT     = RATIO > 1 ? $clog2(RATIO) : 0;
    localparam [AXI_ADDR_WIDTH-1:0] BEAT_BYTES = STRB_WIDTH;  // address step per beat
    localparam DESC_BEATS = STRB_WIDTH >= 8 ? 1 : 8 / STRB_WIDTH;  // beats of the 8-byte address read
    localparam CPL_BEATS  = STRB_WIDTH >= 16 ? 1 : 16 / STRB_WIDTH; // beats of the 16-byte write-back
    localparam integer DESC_LEN_I = DESC_BEATS - 1;
    localparam integer CPL_LEN_I  = CPL_BEATS - 1;
    localparam [7:0] DESC_LEN = DESC_LEN_I[7:0];       // arlen of the address read
    localparam [7:0] CPL_LEN  = CPL_LEN_I[7:0];        // awlen of the write-back
    localparam CW = AXI_DATA_WIDTH > 128 ? AXI_DATA_WIDTH : 128;   // write-back shift register
    // write IDs: {kind, epoch}, the top bit set on write-backs, so each B says which burst it
    // answers (F24: a B lost on a write-back is not taken from the next frame's data)
    localparam EW = AXI_ID_WIDTH - 1;                   // write epoch bits

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

    // states: docs/regmap.toml [enums.dma_state] (prionic_regs.vh)
    localparam [3:0]
        S_IDLE    = DMA_STATE_IDLE,
        S_SKIP    = DMA_STATE_SKIP,
        S_DESC    = DMA_STATE_DESC_AR,   // the frame waits for its address (or to report an event)
        S_DATA_AW = DMA_STATE_DATA_AW,
        S_DATA_W  = DMA_STATE_DATA_W,
        S_DATA_B  = DMA_STATE_DATA_B,
        S_CPL_AW  = DMA_STATE_CPL_AW,
        S_CPL_W   = DMA_STATE_CPL_W,
        S_DROP    = DMA_STATE_DROP,
        S_OWE     = DMA_STATE_OWE;

    reg [3:0]  state_reg;
    reg [11:0] st_reg;             // state_reg one-hot, set beside it by goto (F25: no decode)
    task goto(input [3:0] s);
        begin
            state_reg <= s;
            st_reg    <= 12'd1 << s;
        end
    endtask
    reg        cur_err_reg;        // no data write or a data error: an ERR write-back
    reg [QW-1:0] cur_q_reg;
    reg [7:0]  cur_queue_reg;
    reg [7:0]  cur_rule_reg;
    reg [15:0] cur_len_reg;
    reg [15:0] cur_slot_reg;
    reg [31:0] cur_ts_reg;
    reg [REC_INFO_W-1:0] cur_info_reg;
    reg [15:0] words_reg;          // AXI words still to pop
    reg [15:0] cur_words_reg;      // the frame's stream word count
    reg [AXI_ADDR_WIDTH-1:0] addr_reg;
    reg [4:0]  burst_reg;          // W beats left in the current burst
    reg        burst_nz_reg;       // burst_reg != 0 (set with it, F25)
    reg        burst_one_reg;      // burst_reg == 1
    reg        aw_pend_reg;        // the current burst's AW is offered and not yet taken
    reg [AXI_ADDR_WIDTH-1:0] aw_addr_reg;  // the current burst's AWADDR, held while pending
    reg [7:0]  aw_len_reg;         // ... and AWLEN
    reg [CW-1:0] cpl_reg;          // write-back, shifted out low beat first
    reg [4:0]  cpl_beats_reg;
    reg        cpl_nz_reg;         // cpl_beats_reg != 0 (set with it: WVALID, F25)
    reg        cpl_one_reg;        // cpl_beats_reg == 1
    reg [7:0]  outstanding_reg;    // write bursts issued and not yet answered
    reg        ost_nz_reg;         // outstanding_reg != 0 (set with it, F25)
    reg        ost_one_reg;        // outstanding_reg == 1
    reg        words_nz_reg;       // words_reg != 0 (set with it, F25)
    reg        words_one_reg;      // words_reg == 1
    reg        cpl_valid_reg;
    reg [7:0]  cpl_queue_reg;
    reg [15:0] cpl_words_reg;
    reg [NUM_QUEUES-1:0] cpl_hot_reg;   // cpl_queue_reg one-hot when cpl_valid_reg, set beside it (F25)
    reg [NUM_QUEUES-1:0] cpl_int_reg;   // ... when cpl_valid_reg && !cpl_flush_reg
    function [NUM_QUEUES-1:0] qhot(input [7:0] qi);
        integer n;
        begin
            for (n = 0; n < NUM_QUEUES; n = n + 1) qhot[n] = qi == n[7:0];
        end
    endfunction
    reg [15:0] head_reg [0:NUM_QUEUES-1];
    // F24: per queue, the error that stopped it, 0 none; flat flip-flops with qz_reg
    // (== 0) set beside them, written by one per-queue block below (F25)
    reg [NUM_QUEUES*3-1:0] qerr_reg;
    reg [NUM_QUEUES-1:0]   qz_reg;
    reg        cur_flush_reg;      // the current frame ends unwritten (FLUSH)
    reg        cpl_flush_reg;
    reg [31:0] wd_reg;             // write watchdog: edges waited for a B
    reg [31:0] rwd_reg;            // read watchdog: edges waited for an R
    reg        ev_valid_reg;
    reg [3:0]  ev_code_reg;
    reg [7:0]  ev_queue_reg;
    // the write-back owed a B (at most one: it is sent only when nothing else is owed)
    reg        wb_pend_reg;
    reg [QW-1:0] wb_q_reg;
    reg [7:0]  wb_queue_reg;
    reg [15:0] wb_slot_reg;
    reg [15:0] wb_words_reg;
    reg        tflush_reg;         // a write-back's B timed out: flush its frame next edge
    // descriptor prefetch, per queue
    reg        pf_valid_reg [0:NUM_QUEUES-1];
    reg        pf_bad_reg   [0:NUM_QUEUES-1];
    // flat flip-flops, not an array: yosys made the array a distributed RAM whose one read
    // port took its address from the fast-path decode (F25: in_q and cur_q_reg read apart)
    reg [NUM_QUEUES*AXI_ADDR_WIDTH-1:0] pf_addr_reg;
    reg [NUM_QUEUES*5-1:0]   pf_room_reg;  // per queue: beats from the address to its 16-beat boundary
    reg [NUM_QUEUES*7-1:0]   pf_rw_reg;    // ... less one, in stream words: (room - 1) * RATIO (F25)
    reg [NUM_QUEUES*17-1:0]  pf_fit_reg;   // ... bytes from the address to the DMA window's end (F24)
    reg [15:0] pf_slot_reg  [0:NUM_QUEUES-1];
    reg [1:0]  rstate_reg;         // 0 idle, 1 AR, 2 R
    reg [QW-1:0] rq_reg;
    reg        rstale_reg;         // the ring was reset while its read was out: forget it
    reg        desc_err_reg;       // an error beat of the descriptor read so far
    reg [63:0] desc_reg;
    // survive rst (initial values only; bus_rst clears them): the AXI ID epochs and a burst
    // a reset left open
    reg [EW-1:0] epoch_reg;             // writes
    reg [AXI_ID_WIDTH-1:0] repoch_reg;  // reads
    reg [4:0]  owe_beats_reg;      // W beats still owed by that burst
    reg        owe_aw_reg;         // its AW is still to be offered
    reg [AXI_ID_WIDTH-1:0] owe_id_reg;  // its AWID (of the epoch before the reset)
    reg [AXI_ADDR_WIDTH-1:0] owe_addr_reg;
    reg [7:0]  owe_len_reg;
    reg        owe_none_reg;       // owe_beats_reg == 0 && !owe_aw_reg (set with them, F25)
    reg        owe_nz_reg;         // owe_beats_reg != 0 (set with it: WVALID, F25)
    initial begin
        epoch_reg     = {EW{1'b0}};
        repoch_reg    = {AXI_ID_WIDTH{1'b0}};
        owe_id_reg    = {AXI_ID_WIDTH{1'b0}};
        owe_beats_reg = 5'd0;
        owe_aw_reg    = 1'b0;
        owe_addr_reg  = {AXI_ADDR_WIDTH{1'b0}};
        owe_len_reg   = 8'd0;
        owe_none_reg  = 1'b1;
        owe_nz_reg    = 1'b0;
    end

    localparam [1:0] R_IDLE = 2'd0, R_AR = 2'd1, R_R = 2'd2;

    wire [AXI_ADDR_WIDTH-1:0] ring_base = cfg_ring_base[cur_q_reg*64 +: AXI_ADDR_WIDTH];
    // the write-back's address, descriptor byte 16, registered: cur_q_reg and cur_slot_reg
    // are set when a frame is taken, at least two edges before its write-back (F25)
    reg  [AXI_ADDR_WIDTH-1:0] wb_addr_reg;
    always @(posedge clk) begin
        wb_addr_reg <= ring_base + {{(AXI_ADDR_WIDTH-21){1'b0}}, cur_slot_reg, 5'd16};
    end
    wire [AXI_ADDR_WIDTH-1:0] rbase     = cfg_ring_base[rq_reg*64 +: AXI_ADDR_WIDTH];
    wire [15:0]               rslot     = pf_slot_reg[rq_reg];
    wire [AXI_ADDR_WIDTH-1:0] rdesc_addr = rbase + {{(AXI_ADDR_WIDTH-21){1'b0}}, rslot, 5'd0};

    // burst length: up to 16 beats, never across a 16-beat boundary; bb_reg holds the
    // length of the burst S_DATA_AW starts, decided at the edge that enters S_DATA_AW (F25)
    reg  [4:0]  bb_reg;

    // last-beat strobe: the low (len mod bytes-per-beat) lanes, or all of them
    wire [15:0] rem = cur_len_reg & (STRB_WIDTH[15:0] - 16'd1);
    reg  [STRB_WIDTH-1:0] last_strb;
    integer j;
    always @* begin
        for (j = 0; j < STRB_WIDTH; j = j + 1) begin
            last_strb[j] = (rem == 16'd0) || (j[15:0] < rem);
        end
    end

    wire       cur_qz = qz_reg[cur_q_reg];   // the frame's queue is not stopped
    // the write-back: the `writeback` record of docs/regmap.toml (descriptor bytes 16..31)
    wire wb_err = cur_err_reg || !cur_qz;
    wire [REC_WRITEBACK_W-1:0] wb_rec;
    assign wb_rec[REC_WRITEBACK_LEN_LSB +: REC_WRITEBACK_LEN_W]     = wb_err ? 16'd0 : cur_len_reg;
    assign wb_rec[REC_WRITEBACK_RULE_LSB +: REC_WRITEBACK_RULE_W]   = cur_rule_reg;
    assign wb_rec[REC_WRITEBACK_QUEUE_LSB +: REC_WRITEBACK_QUEUE_W] = cur_queue_reg;
    assign wb_rec[REC_WRITEBACK_TS_LSB +: REC_WRITEBACK_TS_W]       = cur_ts_reg;
    assign wb_rec[REC_WRITEBACK_INFO_LSB +: REC_WRITEBACK_INFO_W]   = cur_info_reg[0 +: REC_WRITEBACK_INFO_W];
    assign wb_rec[REC_WRITEBACK_FLAGS_LSB +: REC_WRITEBACK_FLAGS_W] = cur_info_reg[REC_INFO_FLAGS_LSB +: REC_INFO_FLAGS_W];
    assign wb_rec[REC_WRITEBACK_RSVD_LSB +: REC_WRITEBACK_RSVD_W]   = {REC_WRITEBACK_RSVD_W{1'b0}};
    assign wb_rec[REC_WRITEBACK_ERR_LSB +: REC_WRITEBACK_ERR_W]     = wb_err;
    assign wb_rec[REC_WRITEBACK_DD_LSB +: REC_WRITEBACK_DD_W]       = 1'b1;
    // at 128 bits the write-back is one beat
    wire [CW-1:0] wb_wide = {{(CW-REC_WRITEBACK_W){1'b0}}, wb_rec};

    wire aw_hs = m_axi_awvalid && m_axi_awready;
    wire w_hs  = m_axi_wvalid && m_axi_wready;
    wire b_hs  = m_axi_bvalid && m_axi_bready;
    wire r_hs  = m_axi_rvalid && m_axi_rready;

    // the current burst's W beats are all sent (or go with this handshake) and its AW is taken
    wire w_burst_done = !burst_nz_reg || (w_hs && burst_one_reg);
    wire cpl_w_done   = !cpl_nz_reg || (w_hs && cpl_one_reg);
    wire aw_done      = !aw_pend_reg || aw_hs;
    wire frame_done   = !words_nz_reg || (w_hs && words_one_reg);

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_okay = &{m_axi_bresp[0], m_axi_rresp[0]};  // OKAY and EXOKAY are both fine
    /* verilator lint_on UNUSEDSIGNAL */
    // responses of the current epochs; others are taken and ignored (F24)
    wire b_cur   = b_hs && m_axi_bid[EW-1:0] == epoch_reg;
    // r_cur_if: r_cur if RREADY is high (!w_event); the read side's updates are made from it
    // and gated by !w_event last, so the write side's event decode runs beside them (F25)
    wire r_cur_if = m_axi_rvalid && m_axi_rid == repoch_reg && rstate_reg == R_R;
    wire r_cur   = r_hs && m_axi_rid == repoch_reg && rstate_reg == R_R;
    wire b_err   = b_cur && m_axi_bresp[1];   // SLVERR or DECERR
    // the write-back's B is owed from its last W beat: a slave may answer a one-beat
    // write-back at the very edge CPL_W hands over to the next frame (B one edge after
    // WLAST), before wb_pend_reg is set; every data B is back by then (F12, F24)
    wire wb_owed = wb_pend_reg || st_reg[S_CPL_W];
    // a B with the write-back's ID answers the owed write-back, one with the data ID the
    // current frame's data (a write-back is sent once its frame's data B are all back), each
    // in AW order: a missing B (F24) is never taken from another burst. (Not gated by
    // wb_owed: a write-back's B of the current epoch comes only while it is owed; F25, one
    // LUT level less behind the completion at 8 bits.)
    wire b_is_wb = m_axi_bid[AXI_ID_WIDTH-1];
    wire b_wb    = b_cur && b_is_wb;          // the owed write-back's B: the completion C
    wire [QW-1:0] in_q  = s_meta_queue[QW-1:0];
    // DMA window (F24), per queue, registered from the configuration in two steps: win_low_reg
    // the offset bits (below DMA_WIN_BITS) within the bus width, win_base_reg the base, win_void_reg
    // a base with bits beyond the bus that the window does not ignore (no address is in it);
    // then ring_win_out_reg: the ring [RING_BASE, RING_BASE + 32*RING_SIZE) is not inside
    localparam AW = AXI_ADDR_WIDTH;
    reg  [NUM_QUEUES*AW-1:0] win_low_reg;
    reg  [NUM_QUEUES*AW-1:0] win_base_reg;
    reg  [NUM_QUEUES*AW-1:0] ring_first_reg;
    reg  [NUM_QUEUES*(AW+1)-1:0] ring_last_reg;   // ... its last byte, bit AW: beyond the bus
    reg  [NUM_QUEUES-1:0]    win_void_reg;
    reg  [NUM_QUEUES-1:0]    ring_win_out_reg;
    reg  [NUM_QUEUES*3-1:0]  win_settle_reg;      // cfg_ring_rst delayed 1..3 edges: flags settling
    reg  [NUM_QUEUES*64-1:0] wlow;     // the offset bits of each window, 64 wide
    reg  [NUM_QUEUES*65-1:0] rlast;    // each ring's last byte, 65 wide
    integer wc;
    always @* begin
        for (wc = 0; wc < NUM_QUEUES; wc = wc + 1) begin
            wlow[wc*64 +: 64] = cfg_win_bits[wc*8 +: 8] >= 8'd64 ? {64{1'b1}}
                              : ((64'd1 << cfg_win_bits[wc*8 +: 6]) - 64'd1);
            rlast[wc*65 +: 65] = {1'b0, cfg_ring_base[wc*64 +: 64]} + {44'd0, cfg_ring_size[wc*16 +: 16], 5'd0} - 65'd1;
        end
    end
    integer wq;
    always @(posedge clk) begin
        for (wq = 0; wq < NUM_QUEUES; wq = wq + 1) begin
            win_low_reg[wq*AW +: AW]  <= wlow[wq*64 +: AW];
            win_base_reg[wq*AW +: AW] <= cfg_win_base[wq*64 +: AW];
            win_void_reg[wq] <= ((cfg_win_base[wq*64 +: 64] & ~wlow[wq*64 +: 64]) >> AW) != 64'd0;
            ring_first_reg[wq*AW +: AW] <= cfg_ring_base[wq*64 +: AW];
            ring_last_reg[wq*(AW+1) +: AW+1] <= {(rlast[wq*65 +: 65] >> AW) != 65'd0, rlast[wq*65 +: AW]};
            ring_win_out_reg[wq] <= win_void_reg[wq] || ring_last_reg[wq*(AW+1) + AW]
                || (((ring_first_reg[wq*AW +: AW] ^ win_base_reg[wq*AW +: AW]) & ~win_low_reg[wq*AW +: AW]) != {AW{1'b0}})
                || (((ring_last_reg[wq*(AW+1) +: AW] ^ win_base_reg[wq*AW +: AW]) & ~win_low_reg[wq*AW +: AW]) != {AW{1'b0}});
            win_settle_reg[wq*3 +: 3] <= {win_settle_reg[wq*3 +: 2], cfg_ring_rst[wq] || rst};
        end
    end

    // a ring base beyond the bus, per queue, registered (F25: RING_BASE changes only while
    // its queue is idle, so no frame of the queue is here within an edge of a change)
    reg  [NUM_QUEUES-1:0] beyond_reg;
    integer q;
    always @(posedge clk) begin
        for (q = 0; q < NUM_QUEUES; q = q + 1) begin
            beyond_reg[q] <= (cfg_ring_base[q*64 +: 64] >> AXI_ADDR_WIDTH) != 64'd0;
        end
    end
    wire in_ring_beyond  = beyond_reg[in_q] | ring_win_out_reg[in_q];
    wire cur_ring_beyond = beyond_reg[cur_q_reg] | ring_win_out_reg[cur_q_reg];


    // the write watchdog runs while the engine waits for a B, the read one for an R
    wire waiting   = (st_reg[S_DATA_B] && ost_nz_reg) || wb_pend_reg;
    // wd_hit_reg: wd_reg + 1 >= DMA_TIMEOUT (not 0), decided at the edge that sets wd_reg
    // (F25: no 32-bit compare behind the handshakes; a DMA_TIMEOUT write counts an edge late)
    reg  wd_hit_reg, rwd_hit_reg;
    wire timeout   = waiting && wd_hit_reg && !b_cur;

    // the 8-byte buffer address, shifted in low beat first
    wire [63:0] buf_addr;
    generate
        if (DESC_BEATS == 1) begin : g_desc1
            assign buf_addr = m_axi_rdata[63:0];
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_desc = &{1'b0, desc_reg, m_axi_rdata};
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_descn
            /* verilator lint_off UNUSEDSIGNAL */
            wire [AXI_DATA_WIDTH+63:0] desc_shift = {m_axi_rdata, desc_reg};
            /* verilator lint_on UNUSEDSIGNAL */
            assign buf_addr = desc_shift[AXI_DATA_WIDTH +: 64];
        end
    endgenerate
    wire        buf_misaligned = (buf_addr[3:0] & (4'd15 >> (4 - BSHIFT))) != 4'd0;
    // an address the bus cannot carry is an error, never truncated (F24)
    wire [63:0] buf_beyond = buf_addr >> AXI_ADDR_WIDTH;
    // ... or outside the queue's DMA window (F24); and the bytes from it to the window's end
    // (or the top of the bus), at most 2^16: a frame longer than that is a BUF_ERR too
    wire [AW-1:0] r_win_low  = win_low_reg[rq_reg*AW +: AW];
    wire          buf_out    = win_void_reg[rq_reg]
                            || ((buf_addr[AW-1:0] ^ win_base_reg[rq_reg*AW +: AW]) & ~r_win_low) != {AW{1'b0}};
    wire [AW-1:0] buf_left   = ~buf_addr[AW-1:0] & r_win_low;   // bytes after the address's first
    wire [16:0]   buf_fit    = (buf_left >> 16) != {AW{1'b0}} ? 17'h10000 : {1'b0, buf_left[15:0]} + 17'd1;
    wire        buf_bad = buf_misaligned || buf_beyond != 64'd0 || buf_out;

    // write-side events this edge (they have the event port; a read event waits: RREADY low)
    // (b_err || timeout || ev_regs), made for b_cur high and low beside each other and
    // picked by b_cur last (F25: the B epoch compare is one step before RREADY)
    // (S_DESC's RING_ERR or BUF_ERR: each queue's condition beside the others, F25)
    reg  [NUM_QUEUES-1:0] ev_q;
    integer e;
    always @* begin
        for (e = 0; e < NUM_QUEUES; e = e + 1) begin
            ev_q[e] = qz_reg[e] && (beyond_reg[e] || ring_win_out_reg[e] || (pf_valid_reg[e] && pf_bad_reg[e]));
        end
    end
    wire ev_regs = st_reg[S_DROP] || tflush_reg
                || (st_reg[S_DESC] && !wb_pend_reg && (ev_q[cur_q_reg]
                    || (qz_reg[cur_q_reg] && pf_valid_reg[cur_q_reg] && !cur_fit)));
    wire w_timer = waiting && wd_hit_reg;   // timeout when !b_cur
    wire wev     = b_cur ? m_axi_bresp[1] : w_timer;   // b_err || timeout
    wire w_event = wev || ev_regs;

    // a burst open at a reset edge: its W beats still owed after this edge, and whether
    // its AW is still to be taken; nothing is owed for a burst the slave has not seen.
    // In the first cycle (S_DATA_AW, S_CPL_AW) the burst's beats are bb_reg or CPL_BEATS;
    // in S_DATA_W, S_CPL_W and S_OWE they are ow_left_reg, kept with its decrement, its
    // zero/one flags, the AW still pending and whether a W beat was taken, all set at the
    // edge before (F25: the rst edge only picks with this edge's handshakes)
    reg        ow_open_reg;        // S_DATA_W, S_CPL_W or S_OWE
    reg [4:0]  ow_left_reg;        // its W beats left: burst_reg, cpl_beats_reg, owe_beats_reg
    reg [4:0]  ow_m1_reg;          // ow_left_reg - 1
    reg        ow_nz_reg;          // ow_left_reg != 0
    reg        ow_one_reg;         // ow_left_reg == 1
    reg        ow_aw_reg;          // its AW is pending: aw_pend_reg, owe_aw_reg
    reg        ow_seen_reg;        // one of its W beats was taken (always in S_OWE)
    wire       fd       = st_reg[S_DATA_AW];
    wire       fc       = st_reg[S_CPL_AW];
    wire       first    = fd || fc;   // AW and the first W beat
    wire [4:0] bb_m1    = bb_reg - 5'd1;
    wire       bb_nz    = bb_reg != 5'd0;
    wire       bb_one   = bb_reg == 5'd1;
    localparam [4:0] CPL_B  = CPL_BEATS[4:0];
    localparam [4:0] CPL_B1 = CPL_B - 5'd1;
    wire       wd_fd    = w_hs && bb_nz;
    wire       wd_ow    = w_hs && ow_nz_reg;
    wire [4:0] w_owed   = fd ? (wd_fd ? bb_m1 : bb_reg) : fc ? (w_hs ? CPL_B1 : CPL_B)
                        : (wd_ow ? ow_m1_reg : ow_left_reg);
    wire       w_none   = fd ? (wd_fd ? bb_one : !bb_nz) : fc ? (w_hs && CPL_BEATS == 1)
                        : (wd_ow ? ow_one_reg : !ow_nz_reg);
    wire       aw_owed  = (first || ow_aw_reg) && !aw_hs;
    wire       seen     = !aw_owed || (first ? w_hs : ow_seen_reg || wd_ow);
    wire       owe_now  = (first || ow_open_reg) && seen;
    wire [4:0] owe_beats_now = w_owed;
    wire       owe_aw_now    = aw_owed;
    wire       owe_none_now  = w_none && !aw_owed;
    // the ow_* of the next cycle: the burst goes on (ow_go) with beats ow_x, less one (ow_dec)
    wire       owe_exit = (owe_beats_reg == 5'd0 || (w_hs && owe_beats_reg == 5'd1)) && (!owe_aw_reg || aw_hs);
    reg        ow_go, ow_dec, ow_awn, ow_seenn;
    reg [4:0]  ow_x;
    always @* begin
        ow_go    = 1'b0;
        ow_x     = 5'd0;
        ow_dec   = w_hs;
        ow_awn   = aw_pend_reg && !aw_hs;
        ow_seenn = ow_seen_reg || w_hs;
        case (state_reg)
            S_IDLE:    begin ow_go = !owe_none_reg; ow_x = owe_beats_reg; ow_dec = 1'b0;
                             ow_awn = owe_aw_reg; ow_seenn = 1'b1; end
            S_OWE:     begin ow_go = !owe_exit; ow_x = owe_beats_reg;
                             ow_awn = owe_aw_reg && !aw_hs; ow_seenn = 1'b1; end
            S_DATA_AW: begin ow_go = 1'b1; ow_x = bb_reg; ow_awn = !aw_hs; ow_seenn = w_hs; end
            S_DATA_W:  begin ow_go = !(w_burst_done && aw_done); ow_x = burst_reg; end
            S_CPL_AW:  begin ow_go = 1'b1; ow_x = CPL_B; ow_awn = !aw_hs; ow_seenn = w_hs; end
            S_CPL_W:   begin ow_go = !(cpl_w_done && aw_done); ow_x = cpl_beats_reg; end
            default:   ow_go = 1'b0;
        endcase
    end
    always @(posedge clk) begin
        ow_open_reg <= ow_go && !rst;
        ow_left_reg <= ow_dec ? ow_x - 5'd1 : ow_x;
        ow_m1_reg   <= ow_dec ? ow_x - 5'd2 : ow_x - 5'd1;
        ow_nz_reg   <= ow_dec ? ow_x != 5'd1 : ow_x != 5'd0;
        ow_one_reg  <= ow_dec ? ow_x == 5'd2 : ow_x == 5'd1;
        ow_aw_reg   <= ow_awn;
        ow_seen_reg <= ow_seenn;
    end
    wire [AXI_ADDR_WIDTH-1:0] owe_addr_now = m_axi_awaddr;
    wire [7:0] owe_len_now   = m_axi_awlen;

    wire rd_cur_q = rstate_reg != R_IDLE && rq_reg == cur_q_reg;
    // the write side moves to the write-back at this edge (S_DATA_B's exit, below) when
    // tc_db && (!ost_nz_reg || (ost_one_reg && b_cur)); no timeout term: a timeout needs
    // !b_cur and an outstanding B, which this already excludes
    wire tc_db  = st_reg[S_DATA_B] && !rd_cur_q;

    // the prefetch engine's choice: the lowest queue whose next posted slot is not yet read
    // (not while the queue owes a write-back's B, nor from the edge its write-back starts,
    // so a read error never falls between a write-back and its B: F24, frame-path.md 4.1).
    // Each queue's "from the write-back's start" is split into a part of registers and one
    // that waits for b_cur (to_cpl through the last B), so b_cur meets the queue's other
    // conditions in its last step (F25: the B epoch compare is not in front of the choice)
    // (the choice is taken in R_IDLE only, where rd_cur_q is low: tc_db is S_DATA_B)
    wire cpl_blk = st_reg[S_CPL_AW] || st_reg[S_CPL_W] || (st_reg[S_DATA_B] && !ost_nz_reg);
    wire cpl_bw  = st_reg[S_DATA_B] && ost_one_reg;   // ... and with b_cur
    reg  [NUM_QUEUES-1:0] pf_ok;
    reg          pf_want;
    reg [QW-1:0] pf_q;
    integer k;
    always @* begin
        pf_want = 1'b0;
        pf_q = {QW{1'b0}};
        for (k = NUM_QUEUES - 1; k >= 0; k = k - 1) begin
            pf_ok[k] = !pf_valid_reg[k] && pf_slot_reg[k] != cfg_ring_tail[k*16 +: 16]
                && cfg_ring_size[k*16 +: 16] >= 16'd2 && qz_reg[k] && !cfg_ring_rst[k]
                && (cfg_ring_base[k*64 +: 64] >> AXI_ADDR_WIDTH) == 64'd0
                && !ring_win_out_reg[k] && win_settle_reg[k*3 +: 3] == 3'd0
                && !(wb_pend_reg && wb_q_reg == k[QW-1:0])
                && !((cpl_blk || (cpl_bw && b_cur)) && cur_q_reg == k[QW-1:0]);
            if (pf_ok[k]) begin
                pf_want = 1'b1;
                pf_q = k[QW-1:0];
            end
        end
    end
    wire rtimeout = rstate_reg == R_R && rwd_hit_reg && !r_cur && !w_event;
    wire rtimeout_if = rstate_reg == R_R && rwd_hit_reg && !r_cur_if;   // rtimeout when !w_event
    // the watchdogs' next values are 0, or one more (the always block below)
    wire wd_zero  = rst || timeout || !(waiting && !b_cur);
    wire rwd_zero = rst || rtimeout || !(rstate_reg == R_R && !r_cur);
    always @(posedge clk) begin
        wd_hit_reg  <= cfg_timeout != 32'd0 && (wd_zero ? cfg_timeout == 32'd1
                                               : {1'b0, wd_reg} + 33'd2 >= {1'b0, cfg_timeout});
        rwd_hit_reg <= cfg_timeout != 32'd0 && (rwd_zero ? cfg_timeout == 32'd1
                                                : {1'b0, rwd_reg} + 33'd2 >= {1'b0, cfg_timeout});
    end
    wire [15:0] rsize = cfg_ring_size[rq_reg*16 +: 16];

    // fast path: a frame whose address is read and good starts at once, write-back owed or not
    // the frame fits between its buffer address and the DMA window's end (F24), each queue's
    // compare beside the others, the frame's queue picks
    reg  [NUM_QUEUES-1:0] in_fit;
    integer fm;
    always @* begin
        for (fm = 0; fm < NUM_QUEUES; fm = fm + 1) begin
            in_fit[fm] = {1'b0, s_meta_len} <= pf_fit_reg[fm*17 +: 17];
        end
    end
    wire cur_fit = {1'b0, cur_len_reg} <= pf_fit_reg[cur_q_reg*17 +: 17];
    wire in_fast = !s_meta_drop && qz_reg[in_q] && !in_ring_beyond
                && pf_valid_reg[in_q] && !pf_bad_reg[in_q] && in_fit[in_q];
    wire [15:0] in_beats = (s_meta_words + RATIO[15:0] - 16'd1) >> RSHIFT;

    // the first burst: up to the 16-beat boundary after the prefetched address; a later
    // burst of the frame starts at a boundary: the words left after this edge, at most 16
    wire [AXI_ADDR_WIDTH-1:0] in_pf_addr  = pf_addr_reg[in_q*AXI_ADDR_WIDTH +: AXI_ADDR_WIDTH];
    wire [AXI_ADDR_WIDTH-1:0] cur_pf_addr = pf_addr_reg[cur_q_reg*AXI_ADDR_WIDTH +: AXI_ADDR_WIDTH];
    wire [4:0] in_room  = pf_room_reg[in_q*5 +: 5];
    wire [4:0] cur_room = pf_room_reg[cur_q_reg*5 +: 5];
    // in_beats < in_room  <=>  s_meta_words <= (in_room - 1) * RATIO (at most 60)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [6:0] in_beats_lo   = ({1'b0, s_meta_words[5:0]} + RATIO[6:0] - 7'd1) >> RSHIFT;
    /* verilator lint_on UNUSEDSIGNAL */
    // ... compared for each queue beside the others, the frame's queue picks (F25)
    reg  [NUM_QUEUES-1:0] in_le;
    integer m;
    always @* begin
        for (m = 0; m < NUM_QUEUES; m = m + 1) begin
            in_le[m] = {1'b0, s_meta_words[5:0]} <= pf_rw_reg[m*7 +: 7];
        end
    end
    wire       in_short = s_meta_words[15:6] == 10'd0 && in_le[in_q];
    wire [4:0] bb_in    = in_short ? in_beats_lo[4:0] : in_room;
    wire [4:0] bb_desc  = (words_reg < {11'd0, cur_room}) ? words_reg[4:0] : cur_room;
    wire [4:0] bb_next  = w_hs ? ((words_reg > 16'd16) ? 5'd16 : words_reg[4:0] - 5'd1)
                               : ((words_reg >= 16'd16) ? 5'd16 : words_reg[4:0]);

    // the outstanding count after this edge (0 at a timeout and at rst)
    wire       ost_inc  = aw_hs && !st_reg[S_OWE];
    wire [7:0] ost_next = (rst || timeout) ? 8'd0
                        : outstanding_reg + {7'd0, ost_inc} - {7'd0, b_cur};
    // ... its zero and one flags from the flags and this edge's AW, for b_cur high and low,
    // b_cur picks last (F25: no add behind the B epoch compare)
    wire ost_nz_b1  = ost_inc ? ost_nz_reg : !ost_one_reg;
    wire ost_nz_b0  = !w_timer && (ost_inc ? outstanding_reg != 8'hFF : ost_nz_reg);
    wire ost_one_b1 = ost_inc ? ost_one_reg : outstanding_reg == 8'd2;
    wire ost_one_b0 = !w_timer && (ost_inc ? !ost_nz_reg : ost_one_reg);

    // the frame's address: the prefetched one when its data write starts (S_IDLE's fast
    // path, S_DESC), a beat on at each W beat (S_DATA_AW, S_DATA_W); its own block, so the
    // loads are not merged into the state machine's decode (F25)
    wire addr_in  = st_reg[S_IDLE] && owe_none_reg && s_meta_valid && in_fast;
    wire addr_cur = st_reg[S_DESC] && cur_qz && !cur_ring_beyond && pf_valid_reg[cur_q_reg]
                 && !pf_bad_reg[cur_q_reg] && cur_fit;
    wire addr_inc = (st_reg[S_DATA_AW] || st_reg[S_DATA_W]) && w_hs;
    always @(posedge clk) begin
        if (addr_in) begin
            addr_reg <= in_pf_addr;
        end else if (addr_cur) begin
            addr_reg <= cur_pf_addr;
        end else if (addr_inc) begin
            addr_reg <= addr_reg + BEAT_BYTES;
        end
    end

    // S_DATA_AW is entered from S_IDLE, S_DESC and S_DATA_W only, and lasts one cycle: bb_reg
    // is loaded at every edge with the length for the state it leaves (the decode is shallow)
    always @(posedge clk) begin
        bb_reg <= st_reg[S_IDLE] ? bb_in : st_reg[S_DESC] ? bb_desc : bb_next;
    end

    // qerr_reg: the first error of each queue stops it (F24). The writes of the big block's
    // order (the ring beyond the bus in S_DESC, then a B error or the write timeout, then the
    // read side's timeout or first error beat, each only into a queue at 0), per queue; the
    // B epoch compare (b_cur) picks the write side's event wev, which meets the others in the
    // last steps (F25: it feeds b_err, timeout and RREADY)
    // the write side's event queue: a B's burst (by its ID), or at a timeout the oldest burst
    // waited for (the owed write-back, else the current frame's data)
    wire [QW-1:0] wq_b    = b_is_wb ? wb_q_reg : cur_q_reg;
    wire [QW-1:0] wq_t    = wb_owed ? wb_q_reg : cur_q_reg;
    wire          ring_ev = st_reg[S_DESC] && !wb_pend_reg && cur_qz && cur_ring_beyond;
    // the read side's event (RREADY high): rtimeout_if, or r_cur_if's first error beat
    wire          rd_ev   = rstate_reg == R_R && !rstale_reg
                         && (r_cur_if ? m_axi_rresp[1] && !desc_err_reg : rwd_hit_reg);
    // (the codes that stop a queue fit in 3 bits: QUEUE_STATUS.ERR)
    wire [2:0]    rd_code = r_cur_if ? DMA_EVENT_DESC_ERR[2:0] : DMA_EVENT_TIMEOUT[2:0];
    wire [2:0]    w_code  = !b_cur ? DMA_EVENT_TIMEOUT[2:0] : b_is_wb ? DMA_EVENT_WB_ERR[2:0] : DMA_EVENT_DATA_ERR[2:0];
    reg  [NUM_QUEUES-1:0] q_rd, q_w, q_ring;
    integer n;
    always @* begin
        for (n = 0; n < NUM_QUEUES; n = n + 1) begin
            q_ring[n] = ring_ev && cur_q_reg == n[QW-1:0];
            q_w[n]    = b_cur ? m_axi_bresp[1] && wq_b == n[QW-1:0] : w_timer && wq_t == n[QW-1:0];
            q_rd[n]   = rd_ev && rq_reg == n[QW-1:0] && !w_event;
        end
    end
    integer nq;
    always @(posedge clk) begin
        for (nq = 0; nq < NUM_QUEUES; nq = nq + 1) begin
            if (cfg_ring_rst[nq] || rst) begin
                qerr_reg[nq*3 +: 3] <= 3'd0;
                qz_reg[nq]          <= 1'b1;
            end else if (qz_reg[nq] && (q_ring[nq] || q_w[nq] || q_rd[nq])) begin
                qerr_reg[nq*3 +: 3] <= q_rd[nq] ? rd_code : q_w[nq] ? w_code : DMA_EVENT_RING_ERR[2:0];
                qz_reg[nq]          <= 1'b0;
            end
        end
    end

    // F24: the stall watchdogs. A handshake the slave withholds cannot be abandoned (a VALID
    // stays up until it is taken, A3.2.1): the DMA keeps offering it and reports the stall
    // once (STALL_W, STALL_R), re-armed by the direction's next handshake; nothing stops.
    // wst_reg counts the edges with AWVALID or WVALID up and neither taken, ast_reg those
    // with ARVALID up and not taken; each hit flag is set beside its counter as wd_hit_reg
    // (F25: no compare behind the handshakes). A stall has the lowest priority on the event
    // port (every other event wins its edge; it waits an edge, the stall goes on, and is not
    // reported if the slave takes the handshake meanwhile); the write side's before the read's.
    wire w_stalled = (m_axi_awvalid || m_axi_wvalid) && !aw_hs && !w_hs;
    wire r_stalled = m_axi_arvalid && !m_axi_arready;
    reg  [31:0] wst_reg, ast_reg;
    reg         wst_hit_reg, ast_hit_reg;   // the counter + 1 >= DMA_TIMEOUT (not 0)
    reg         wst_arm_reg, ast_arm_reg;   // no stall reported since the last handshake (or rst)
    wire st_w = w_stalled && wst_hit_reg && wst_arm_reg;
    wire st_r = r_stalled && ast_hit_reg && ast_arm_reg;
    wire st_other = w_event || rd_ev;       // the edge's other event (the read's when RREADY is high)
    // the burst a reset left open (S_OWE) belongs to no queue any more: queue 0xFF
    wire [7:0] st_w_queue = st_reg[S_OWE] ? 8'hFF : cur_queue_reg;
    wire wst_zero = rst || !w_stalled;
    wire ast_zero = rst || !r_stalled;
    always @(posedge clk) begin
        wst_reg     <= wst_zero ? 32'd0 : wst_reg + 32'd1;
        ast_reg     <= ast_zero ? 32'd0 : ast_reg + 32'd1;
        wst_hit_reg <= cfg_timeout != 32'd0 && (wst_zero ? cfg_timeout == 32'd1
                                               : {1'b0, wst_reg} + 33'd2 >= {1'b0, cfg_timeout});
        ast_hit_reg <= cfg_timeout != 32'd0 && (ast_zero ? cfg_timeout == 32'd1
                                               : {1'b0, ast_reg} + 33'd2 >= {1'b0, cfg_timeout});
        wst_arm_reg <= rst || aw_hs || w_hs || (wst_arm_reg && !(st_w && !st_other));
        ast_arm_reg <= rst || (m_axi_arvalid && m_axi_arready) || (ast_arm_reg && !(st_r && !st_w && !st_other));
    end
    integer i;
    always @(posedge clk) begin
        cpl_valid_reg <= 1'b0;
        cpl_hot_reg   <= {NUM_QUEUES{1'b0}};
        cpl_int_reg   <= {NUM_QUEUES{1'b0}};
        cpl_flush_reg <= 1'b0;
        ev_valid_reg  <= 1'b0;
        tflush_reg    <= 1'b0;
        outstanding_reg <= ost_next;
        ost_nz_reg      <= !rst && (b_cur ? ost_nz_b1 : ost_nz_b0);
        ost_one_reg     <= !rst && (b_cur ? ost_one_b1 : ost_one_b0);
        wd_reg  <= (waiting && !b_cur) ? wd_reg + 32'd1 : 32'd0;
        rwd_reg <= (rstate_reg == R_R && !r_cur) ? rwd_reg + 32'd1 : 32'd0;

        // a stall first: every other event below takes the port over it (lowest priority)
        if (st_w || st_r) begin
            ev_valid_reg <= 1'b1;
            ev_code_reg  <= st_w ? DMA_EVENT_STALL_W : DMA_EVENT_STALL_R;
            ev_queue_reg <= st_w ? st_w_queue : {{(8-QW){1'b0}}, rq_reg};
        end

        case (state_reg)
            S_IDLE: begin
                if (!owe_none_reg) begin
                    // a reset left a burst open: finish it first (nothing is written)
                    aw_pend_reg <= owe_aw_reg;
                    goto(S_OWE);
                end else if (s_meta_valid) begin
                    cur_q_reg     <= in_q;
                    cur_queue_reg <= s_meta_queue;
                    cur_rule_reg  <= s_meta_rule;
                    cur_len_reg   <= s_meta_len;
                    cur_slot_reg  <= s_meta_slot;
                    cur_ts_reg    <= s_meta_ts;
                    cur_info_reg  <= s_meta_info;
                    words_reg     <= in_beats;
                    words_nz_reg  <= in_beats != 16'd0;
                    words_one_reg <= in_beats == 16'd1;
                    cur_words_reg <= s_meta_words;
                    cur_err_reg   <= 1'b0;
                    cur_flush_reg <= 1'b0;
                    if (s_meta_drop) begin
                        goto(S_SKIP);
                    end else if (in_fast) begin
                        goto(S_DATA_AW);
                    end else begin
                        goto(S_DESC);
                    end
                end
            end
            S_DESC: begin
                // events wait until no write-back is owed, so they follow every earlier completion
                if (!wb_pend_reg) begin
                    if (!cur_qz) begin
                        cur_flush_reg <= 1'b1;          // the queue is stopped: drop it unwritten
                        goto(S_SKIP);
                    end else if (cur_ring_beyond) begin
                        // the ring is beyond the bus: qerr_reg RING_ERR (below)
                        ev_valid_reg   <= 1'b1;
                        ev_code_reg    <= DMA_EVENT_RING_ERR;
                        ev_queue_reg   <= cur_queue_reg;
                        cur_flush_reg  <= 1'b1;
                        goto(S_SKIP);
                    end else if (pf_valid_reg[cur_q_reg] && (pf_bad_reg[cur_q_reg] || !cur_fit)) begin
                        // never truncated: an ERR write-back, the queue goes on (F24)
                        cur_err_reg  <= 1'b1;
                        goto(S_SKIP);
                        ev_valid_reg <= 1'b1;
                        ev_code_reg  <= DMA_EVENT_BUF_ERR;
                        ev_queue_reg <= cur_queue_reg;
                    end
                end
                if (cur_qz && !cur_ring_beyond && pf_valid_reg[cur_q_reg]
                    && !pf_bad_reg[cur_q_reg] && cur_fit) begin
                    goto(S_DATA_AW);
                end
            end
            S_SKIP: begin
                if (!words_nz_reg) begin
                    goto(cur_flush_reg ? S_DROP : cur_err_reg ? S_DATA_B : S_IDLE);
                end else if (s_data_valid) begin
                    words_reg <= words_reg - 16'd1;
                    words_nz_reg <= !words_one_reg;
                    words_one_reg <= words_reg == 16'd2;
                    if (words_one_reg) begin
                        goto(cur_flush_reg ? S_DROP : cur_err_reg ? S_DATA_B : S_IDLE);
                    end
                end
            end
            S_DROP: begin
                // a frame of a stopped queue ends unwritten; its on-chip space is given back
                cpl_valid_reg <= 1'b1;
                cpl_flush_reg <= 1'b1;
                cpl_queue_reg <= cur_queue_reg;
                cpl_hot_reg   <= qhot(cur_queue_reg);
                cpl_words_reg <= cur_words_reg;
                ev_valid_reg  <= 1'b1;
                ev_code_reg   <= DMA_EVENT_FLUSH;
                ev_queue_reg  <= cur_queue_reg;
                goto(S_IDLE);
            end
            S_OWE: begin
                if (w_hs) begin
                    owe_beats_reg <= owe_beats_reg - 5'd1;
                    owe_nz_reg    <= owe_beats_reg != 5'd1;
                end
                if (aw_hs) begin
                    owe_aw_reg <= 1'b0;
                end
                if ((owe_beats_reg == 5'd0 || (w_hs && owe_beats_reg == 5'd1)) && (!owe_aw_reg || aw_hs)) begin
                    goto(S_IDLE);
                    owe_none_reg <= 1'b1;
                end
            end
            S_DATA_AW: begin
                // AW and the first W beat offered now, each on its own (A3.3.1)
                burst_reg   <= bb_reg - {4'd0, w_hs};
                burst_nz_reg  <= bb_reg != 5'd1 || !w_hs;
                burst_one_reg <= w_hs ? bb_reg == 5'd2 : bb_reg == 5'd1;
                aw_addr_reg <= addr_reg;
                aw_len_reg  <= {3'd0, bb_reg - 5'd1};
                aw_pend_reg <= !aw_hs;
                goto(S_DATA_W);
                if (w_hs) begin
                    words_reg <= words_reg - 16'd1;
                    words_nz_reg <= !words_one_reg;
                    words_one_reg <= words_reg == 16'd2;
                end
            end
            S_DATA_W: begin
                if (w_hs) begin
                    words_reg <= words_reg - 16'd1;
                    words_nz_reg <= !words_one_reg;
                    words_one_reg <= words_reg == 16'd2;
                    burst_reg <= burst_reg - 5'd1;
                    burst_nz_reg  <= !burst_one_reg;
                    burst_one_reg <= burst_reg == 5'd2;
                end
                if (w_burst_done && aw_done) begin
                    goto(frame_done ? S_DATA_B : S_DATA_AW);
                end
            end
            S_DATA_B: begin
                // timeout and to_cpl, b_cur first (F25)
                if (b_cur) begin
                    if (tc_db && (!ost_nz_reg || ost_one_reg)) begin
                        goto(S_CPL_AW);   // (not while the queue's descriptor read is out)
                    end
                end else if (w_timer && !wb_pend_reg) begin
                    cur_flush_reg <= 1'b1;
                    goto(S_DROP);
                end else if (tc_db && !ost_nz_reg) begin
                    goto(S_CPL_AW);
                end
            end
            S_CPL_AW: begin
                // bytes 16..31: len, rule, queue, timestamp, info, status {DD, ERR, 0, flags}
                cpl_reg       <= w_hs ? wb_wide >> AXI_DATA_WIDTH : wb_wide;
                cpl_beats_reg <= CPL_BEATS[4:0] - {4'd0, w_hs};
                cpl_nz_reg    <= !(CPL_BEATS == 1 && w_hs);
                cpl_one_reg   <= w_hs ? CPL_BEATS == 2 : CPL_BEATS == 1;
                aw_pend_reg   <= !aw_hs;
                wb_q_reg      <= cur_q_reg;
                wb_queue_reg  <= cur_queue_reg;
                wb_slot_reg   <= cur_slot_reg;
                wb_words_reg  <= cur_words_reg;
                goto(S_CPL_W);
            end
            S_CPL_W: begin
                if (w_hs) begin
                    cpl_reg       <= cpl_reg >> AXI_DATA_WIDTH;
                    cpl_beats_reg <= cpl_beats_reg - 5'd1;
                    cpl_nz_reg    <= !cpl_one_reg;
                    cpl_one_reg   <= cpl_beats_reg == 5'd2;
                end
                if (cpl_w_done && aw_done) begin
                    wb_pend_reg <= 1'b1;   // its B is the completion; the next frame may start
                    goto(S_IDLE);
                end
            end
            default: goto(S_IDLE);
        endcase
        if (aw_hs && !st_reg[S_DATA_AW] && !st_reg[S_CPL_AW]) begin
            aw_pend_reg <= 1'b0;
        end

        // the completion: the owed write-back's B
        if (b_wb) begin
            wb_pend_reg   <= 1'b0;
            cpl_valid_reg <= 1'b1;
            cpl_queue_reg <= wb_queue_reg;
            cpl_hot_reg   <= qhot(wb_queue_reg);
            cpl_int_reg   <= (st_reg[S_DROP]) ? {NUM_QUEUES{1'b0}} : qhot(wb_queue_reg);  // S_DROP: a FLUSH
            cpl_words_reg <= wb_words_reg;
            head_reg[wb_q_reg] <= (wb_slot_reg + 16'd1 >= cfg_ring_size[wb_q_reg*16 +: 16])
                                  ? 16'd0 : wb_slot_reg + 16'd1;
        end
        if (tflush_reg) begin
            // the write-back whose B never came: its frame counts as flushed
            cpl_valid_reg <= 1'b1;
            cpl_flush_reg <= 1'b1;
            cpl_queue_reg <= wb_queue_reg;
            cpl_hot_reg   <= qhot(wb_queue_reg);
            cpl_int_reg   <= {NUM_QUEUES{1'b0}};
            cpl_words_reg <= wb_words_reg;
            ev_valid_reg  <= 1'b1;
            ev_code_reg   <= DMA_EVENT_FLUSH;
            ev_queue_reg  <= wb_queue_reg;
        end

        // data errors mark the write-back (ERR); any error stops the queue (F24)
        if (b_err && !b_is_wb) begin
            cur_err_reg <= 1'b1;
        end
        if (b_err || timeout) begin
            // the queue stops: qerr_reg (below)
            ev_valid_reg <= 1'b1;
            // (a B error comes with b_cur, a timeout without: the B's burst, else the oldest waited for)
            ev_code_reg  <= !b_cur ? DMA_EVENT_TIMEOUT : b_is_wb ? DMA_EVENT_WB_ERR : DMA_EVENT_DATA_ERR;
            ev_queue_reg <= (b_cur ? b_is_wb : wb_owed) ? wb_queue_reg : cur_queue_reg;
        end
        if (timeout) begin
            // abandon: whatever answers the old epoch later is ignored
            epoch_reg       <= epoch_reg + 1'b1;
            wd_reg          <= 32'd0;
            if (wb_pend_reg) begin
                wb_pend_reg <= 1'b0;
                tflush_reg  <= 1'b1;
            end
        end

        // ---------------------------------------------------------- descriptor prefetch
        case (rstate_reg)
            R_IDLE: begin
                if (pf_want) begin
                    rq_reg       <= pf_q;
                    rstale_reg   <= 1'b0;
                    desc_err_reg <= 1'b0;
                end
            end
            R_AR: begin
                // (rstate_reg: its own block below)
            end
            R_R: begin
                if (!w_event) begin   // RREADY is high
                    if (rtimeout_if) begin
                        repoch_reg <= repoch_reg + 1'b1;
                        rwd_reg    <= 32'd0;
                        if (!rstale_reg) begin   // the queue stops: qerr_reg (below)
                            ev_valid_reg <= 1'b1;
                            ev_code_reg  <= DMA_EVENT_TIMEOUT;
                            ev_queue_reg <= {{(8-QW){1'b0}}, rq_reg};
                        end
                    end else if (r_cur_if) begin
                        desc_reg <= buf_addr;
                        if (m_axi_rresp[1]) begin
                            desc_err_reg <= 1'b1;
                            if (!desc_err_reg && !rstale_reg) begin
                                // the first error beat is reported; the queue stops (F24)
                                ev_valid_reg <= 1'b1;
                                ev_code_reg  <= DMA_EVENT_DESC_ERR;
                                ev_queue_reg <= {{(8-QW){1'b0}}, rq_reg};
                            end
                        end
                        if (m_axi_rlast) begin
                            if (!(desc_err_reg || m_axi_rresp[1]) && !rstale_reg) begin
                                pf_bad_reg[rq_reg]   <= buf_bad;
                                pf_addr_reg[rq_reg*AXI_ADDR_WIDTH +: AXI_ADDR_WIDTH] <= buf_addr[AXI_ADDR_WIDTH-1:0];
                                pf_room_reg[rq_reg*5 +: 5] <= 5'd16 - {1'b0, buf_addr[BSHIFT +: 4]};
                                pf_fit_reg[rq_reg*17 +: 17] <= buf_fit;
                                pf_rw_reg[rq_reg*7 +: 7]   <= {3'd0, ~buf_addr[BSHIFT +: 4]} << RSHIFT;
                                pf_slot_reg[rq_reg]  <= (rslot + 16'd1 >= rsize) ? 16'd0 : rslot + 16'd1;
                            end
                        end
                    end
                end
            end
            default: ;
        endcase
        // a read error stops the queue: a frame of it being written gets an ERR write-back
        // (set above through cur_qz when its write-back is built)

        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            if (cfg_ring_rst[i] || rst) begin
                head_reg[i]     <= 16'd0;
                pf_slot_reg[i]  <= 16'd0;
                if (rstate_reg != R_IDLE && rq_reg == i[QW-1:0]) begin
                    rstale_reg <= 1'b1;
                end
            end
        end
        if (rst) begin
            // a busy engine may be owed responses: they belong to the old epoch (F24)
            // (state_reg, not st_reg: the same at every reset after the first, and at the
            // first one as it always was)
            if (state_reg != S_IDLE || ost_nz_reg || wb_pend_reg) begin
                epoch_reg <= epoch_reg + 1'b1;
            end
            if (rstate_reg != R_IDLE) begin   // an AR may be taken at this very edge
                repoch_reg <= repoch_reg + 1'b1;
            end
            if (owe_now) begin
                owe_beats_reg <= owe_beats_now;
                owe_nz_reg    <= !w_none;
                owe_aw_reg    <= owe_aw_now;
                owe_addr_reg  <= owe_addr_now;
                owe_len_reg   <= owe_len_now;
                owe_id_reg    <= m_axi_awid;
                owe_none_reg  <= owe_none_now;
            end
            goto(S_IDLE);
            cpl_valid_reg   <= 1'b0;
            cpl_hot_reg     <= {NUM_QUEUES{1'b0}};
            cpl_int_reg     <= {NUM_QUEUES{1'b0}};
            cpl_flush_reg   <= 1'b0;
            ev_valid_reg    <= 1'b0;
            aw_pend_reg     <= 1'b0;
            wb_pend_reg     <= 1'b0;
            tflush_reg      <= 1'b0;
            wd_reg          <= 32'd0;
            rwd_reg         <= 32'd0;
        end
        if (bus_rst) begin
            // the bus and its slave are reset too (rst is high with it): nothing is outstanding,
            // nothing owed; last, so these are plain synchronous resets beside rst's logic (F25)
            epoch_reg     <= {EW{1'b0}};
            repoch_reg    <= {AXI_ID_WIDTH{1'b0}};
            owe_beats_reg <= 5'd0;
            owe_nz_reg    <= 1'b0;
            owe_aw_reg    <= 1'b0;
            owe_none_reg  <= 1'b1;
        end
    end

    // the read engine's state, its own block (F25: RREADY's w_event meets the R beat's end
    // in the last step): idle until the choice, AR until ARREADY, R until the last beat or
    // the read timeout, both only when RREADY is high
    wire r_end_if = r_cur_if ? m_axi_rlast : rwd_hit_reg;   // with R_R: rtimeout_if || rlast
    always @(posedge clk) begin
        case (rstate_reg)
            R_IDLE:  rstate_reg <= pf_want ? R_AR : R_IDLE;
            R_AR:    rstate_reg <= m_axi_arready ? R_R : R_AR;
            R_R:     rstate_reg <= (r_end_if && !w_event) ? R_IDLE : R_R;
            default: rstate_reg <= R_IDLE;
        endcase
        if (rst) begin
            rstate_reg <= R_IDLE;
        end
    end

    // a queue's prefetched address is valid from the last beat of its read (RREADY high,
    // good, not stale) until a frame takes it (S_IDLE's fast path, S_DESC) or a ring reset;
    // its own block, the beat's update made as if RREADY were high and gated by w_event in
    // the last step (F25)
    wire pf_clr_cur = st_reg[S_DESC] && cur_qz && !cur_ring_beyond && pf_valid_reg[cur_q_reg]
                   && ((!pf_bad_reg[cur_q_reg] && cur_fit) || !wb_pend_reg);   // the fast path or BUF_ERR
    wire pf_set_if  = r_cur_if && m_axi_rlast && !desc_err_reg && !m_axi_rresp[1] && !rstale_reg;
    integer v;
    always @(posedge clk) begin
        for (v = 0; v < NUM_QUEUES; v = v + 1) begin
            pf_valid_reg[v] <= !(cfg_ring_rst[v] || rst)
                && ((pf_set_if && rq_reg == v[QW-1:0] && !w_event)
                    || (pf_valid_reg[v] && !(addr_in && in_q == v[QW-1:0])
                        && !(pf_clr_cur && cur_q_reg == v[QW-1:0])));
        end
    end

    // an entry is taken in IDLE unless a reset left a burst open (F24)
    assign s_meta_ready = st_reg[S_IDLE] && owe_none_reg;
    wire in_data_w  = st_reg[S_DATA_W] && burst_nz_reg;
    wire in_cpl_w   = st_reg[S_CPL_W] && cpl_nz_reg;
    wire in_owe_w   = st_reg[S_OWE] && owe_nz_reg;
    wire first_aw   = st_reg[S_DATA_AW] || st_reg[S_CPL_AW];
    wire cpl_aw     = st_reg[S_CPL_AW] || st_reg[S_CPL_W];

    wire in_data_aw = st_reg[S_DATA_AW];
    wire in_cpl_aw  = st_reg[S_CPL_AW];
    assign s_data_ready = (st_reg[S_SKIP] && words_nz_reg) || ((in_data_w || in_data_aw) && m_axi_wready);

    // a burst finished after a reset keeps its ID: its B (old epoch) is ignored
    assign m_axi_awid    = st_reg[S_OWE] ? owe_id_reg : {cpl_aw, epoch_reg};
    assign m_axi_awaddr  = st_reg[S_OWE] ? owe_addr_reg
                         : cpl_aw ? wb_addr_reg
                         : (st_reg[S_DATA_AW]) ? addr_reg : aw_addr_reg;
    assign m_axi_awlen   = st_reg[S_OWE] ? owe_len_reg
                         : cpl_aw ? CPL_LEN
                         : (st_reg[S_DATA_AW]) ? {3'd0, bb_reg - 5'd1} : aw_len_reg;
    assign m_axi_awsize  = BSHIFT[2:0];
    assign m_axi_awburst = 2'b01;
    assign m_axi_awlock  = 1'b0;
    assign m_axi_awcache = 4'b0011;
    assign m_axi_awprot  = 3'b000;
    assign m_axi_awvalid = first_aw || aw_pend_reg;
    assign m_axi_wdata   = (in_data_w || in_data_aw) ? s_data : in_owe_w ? {AXI_DATA_WIDTH{1'b0}}
                         : in_cpl_aw ? wb_wide[AXI_DATA_WIDTH-1:0] : cpl_reg[AXI_DATA_WIDTH-1:0];
    assign m_axi_wstrb   = in_owe_w ? {STRB_WIDTH{1'b0}}
                         : ((in_data_w || in_data_aw) && words_one_reg) ? last_strb
                         : {STRB_WIDTH{1'b1}};
    assign m_axi_wlast   = in_data_w ? burst_one_reg : in_data_aw ? bb_reg == 5'd1
                         : in_owe_w ? owe_beats_reg == 5'd1
                         : in_cpl_aw ? CPL_BEATS == 1 : cpl_one_reg;
    assign m_axi_wvalid  = ((in_data_w || in_data_aw) && s_data_valid) || in_cpl_w || in_cpl_aw || in_owe_w;
    assign m_axi_bready  = 1'b1;

    assign m_axi_arid    = repoch_reg;
    assign m_axi_araddr  = rdesc_addr;
    assign m_axi_arlen   = DESC_LEN;
    assign m_axi_arsize  = BSHIFT[2:0];
    assign m_axi_arburst = 2'b01;
    assign m_axi_arlock  = 1'b0;
    assign m_axi_arcache = 4'b0011;
    assign m_axi_arprot  = 3'b000;
    assign m_axi_arvalid = rstate_reg == R_AR;
    // beats of another epoch are taken and ignored (F24); low only while the write side
    // reports an event this edge
    assign m_axi_rready  = !w_event;

    assign status_qerr = qerr_reg;

    assign m_cpl_valid = cpl_valid_reg;
    assign m_cpl_queue = cpl_queue_reg;
    assign m_cpl_words = cpl_words_reg;
    assign m_cpl_flush = cpl_flush_reg;
    assign m_cpl_hot   = cpl_hot_reg;
    assign m_cpl_int   = cpl_int_reg;

    assign stat_dma_valid = ev_valid_reg;
    assign stat_dma_code  = ev_code_reg;
    assign stat_dma_queue = ev_queue_reg;

    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_head
            assign status_head[g*16 +: 16] = head_reg[g];
        end
    endgenerate

endmodule

`resetall
