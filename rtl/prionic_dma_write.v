// SPDX-License-Identifier: MIT
//
// prionic_dma_write: the write engine of prionic_dma (F12, F24, F25), an AXI4 write master.
// Takes admitted-frame entries (highest priority first) and the frame's words at the AXI
// width; a dropped frame's words are popped and discarded. The buffer addresses come from
// prionic_dma_prefetch (pf_*: one per queue, read ahead); a frame whose address is read
// and good starts at once (the fast path), else it waits in DESC.
//
// Writes: for a delivered frame it writes the frame into the buffer in INCR bursts of at
// most 16 beats that never cross a 16-beat boundary (wstrb trimmed on the last beat),
// waits for every data B, then writes the 16-byte write-back (the `writeback` record of
// docs/regmap.toml: length, rule, queue, timestamp, info, status DD) at descriptor offset
// 16 and goes on with the next frame at once: the write-back's B (the completion, cycle C:
// m_cpl_valid pulses at C+1 and the queue's HEAD becomes slot+1) comes while the next
// frame's data is written (same-ID B responses return in order, so at most one write-back
// is ever owed). A buffer address that is bad (pf_bad: misaligned, beyond the bus, out of
// the DMA window) or too short for the frame (pf_fit) gets no data write: its write-back
// says length 0, status DD|ERR (BUF_ERR). A ring that is bad (ring_bad) is a RING_ERR.
// With FIT_NEXT (prionic_dma) the fit of the current frame is a register kept from pf_fit's
// next value (pf_fit_wr, pf_fit_far, pf_fit_left); without it, a block test may drive pf_fit
// freely.
//
// Faults (F24, docs/faults.md): a B error response or DMA_TIMEOUT cycles without a B stop
// the queue (status_qerr, stat_dma); an error on a data burst makes the write-back say ERR,
// a timeout abandons the transaction (the write-back whose B never came counts as FLUSH).
// Every later frame of a stopped queue is dropped unwritten (FLUSH). RING_ERR, BUF_ERR and
// FLUSH are decided when the frame starts and no write-back is owed. AWID is {write-back,
// epoch}: a B names the burst it answers; the epoch advances at a write timeout and at a
// reset that finds the engine busy, survives rst and is cleared by bus_rst. A burst cut by
// rst is finished in state OWE (prionic_dma_owe). The read side's events (rd_ev) and the
// stall watchdogs (STALL_W, STALL_R: a handshake withheld DMA_TIMEOUT cycles, reported once,
// at an edge with no other event) share the event port: the write side's own events first
// (w_event, which holds RREADY low), then the read's, then a stall.
//
// AXI4 write channels (A3.3.1): a burst's AW and its first W beat are offered in its first
// cycle (DATA_AW, CPL_AW); the AW is held until AWREADY and the W beats go on whatever
// AWREADY does. Cycles of every port: docs/timing.md section 3; docs/frame-path.md 4.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_dma_write #(
    parameter DATA_WIDTH     = 32,                 // stream width (the unit of the meta record's words), 8..64
    parameter AXI_DATA_WIDTH = DATA_WIDTH,         // DATA_WIDTH * 1, 2 or 4, 8..128
    parameter STRB_WIDTH     = AXI_DATA_WIDTH / 8,
    parameter AXI_ADDR_WIDTH = 32,
    parameter AXI_ID_WIDTH   = 4,                  // {write-back, epoch}
    parameter NUM_QUEUES     = 2,
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1,
    parameter FIT_NEXT       = 0                   // 1: pf_fit_wr/_far/_left give pf_fit's next value
                                                   // (prionic_dma); 0: pf_fit alone (a block test
                                                   // that drives pf_fit as it likes)
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      bus_rst,

    input  wire [NUM_QUEUES*64-1:0]  cfg_ring_base,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_size,
    input  wire [NUM_QUEUES-1:0]     cfg_ring_rst,
    input  wire [31:0]               cfg_timeout,

    input  wire                      s_meta_valid,
    output wire                      s_meta_ready,
`include "prionic_records.vh"
    input  wire [`PRIONIC_REC_META_W-1:0] s_meta,      // the `meta` record of docs/regmap.toml
    input  wire [AXI_DATA_WIDTH-1:0] s_data,
    input  wire                      s_data_valid,
    output wire                      s_data_ready,

    // the prefetch engine (prionic_dma_prefetch)
    input  wire [NUM_QUEUES-1:0]     ring_bad,
    input  wire [NUM_QUEUES-1:0]     pf_valid,
    input  wire [NUM_QUEUES-1:0]     pf_bad,
    input  wire [NUM_QUEUES*AXI_ADDR_WIDTH-1:0] pf_addr,
    input  wire [NUM_QUEUES*5-1:0]   pf_room,
    input  wire [NUM_QUEUES*7-1:0]   pf_rw,
    input  wire [NUM_QUEUES*17-1:0]  pf_fit,
    input  wire [NUM_QUEUES-1:0]     pf_fit_wr,    // (FIT_NEXT) pf_fit[q] is written at this edge: with
    input  wire                      pf_fit_far,   // ... 2^16 if this, else with pf_fit_left + 1
    input  wire [15:0]               pf_fit_left,
    input  wire                      rd_busy,
    input  wire [QW-1:0]             rd_q,
    input  wire                      rd_ev,
    input  wire [3:0]                rd_code,
    output wire [NUM_QUEUES-1:0]     q_running,    // per queue: not stopped (no error since its ring reset)
    output wire                      w_event,      // a write-side event this edge (RREADY low)
    output wire                      wb_pend,
    output wire [QW-1:0]             wb_q,
    output wire                      cpl_blk,
    output wire                      cpl_bw,
    output wire                      b_cur,
    output wire [QW-1:0]             cur_q,
    output wire [NUM_QUEUES-1:0]     pf_take,
    input  wire                      m_axi_arvalid,  // the read address handshake (stall watch)
    input  wire                      m_axi_arready,

    // AXI4 master, write channels AW, W and B (rtl/prionic_axi.vh)
    `PRIONIC_AXI_M_WRITE_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH, STRB_WIDTH),

    output wire                      m_cpl_valid,
    output wire [7:0]                m_cpl_queue,
    output wire [15:0]               m_cpl_words,
    output wire                      m_cpl_flush,
    output wire [NUM_QUEUES-1:0]     m_cpl_q_valid,  // per queue: m_cpl_valid of that queue (one-hot, F25)
    output wire [NUM_QUEUES*16-1:0]  m_cpl_q_words,  // per queue: m_cpl_words if m_cpl_q_valid, else 0 (F25)
    output wire [NUM_QUEUES-1:0]     m_cpl_int,

    output wire                      stat_dma_valid,
    output wire [3:0]                stat_dma_code,
    output wire [7:0]                stat_dma_queue,
    output wire [NUM_QUEUES*3-1:0]   status_qerr,
    output wire [NUM_QUEUES*16-1:0]  status_head
);

`include "prionic_regs.vh"

    // the entry's fields (the `meta` record)
    wire        s_meta_drop  = s_meta[REC_META_DROP_LSB +: REC_META_DROP_W];
    wire [7:0]  s_meta_queue = s_meta[REC_META_QUEUE_LSB +: REC_META_QUEUE_W];
    wire [7:0]  s_meta_rule  = s_meta[REC_META_RULE_LSB +: REC_META_RULE_W];
    wire [15:0] s_meta_len   = s_meta[REC_META_LEN_LSB +: REC_META_LEN_W];
    wire [15:0] s_meta_words = s_meta[REC_META_WORDS_LSB +: REC_META_WORDS_W];
    wire [15:0] s_meta_slot  = s_meta[REC_META_SLOT_LSB +: REC_META_SLOT_W];
    wire [31:0] s_meta_ts    = s_meta[REC_META_TS_LSB +: REC_META_TS_W];
    wire [REC_INFO_W-1:0] s_meta_info = s_meta[REC_META_INFO_LSB +: REC_META_INFO_W];

    localparam BSHIFT     = $clog2(STRB_WIDTH);        // log2 bytes per beat
    localparam RATIO      = AXI_DATA_WIDTH / DATA_WIDTH;
    localparam RSHIFT     = RATIO > 1 ? $clog2(RATIO) : 0;
    localparam [AXI_ADDR_WIDTH-1:0] BEAT_BYTES = STRB_WIDTH;  // address step per beat
    localparam CPL_BEATS  = STRB_WIDTH >= 16 ? 1 : 16 / STRB_WIDTH; // beats of the 16-byte write-back
    localparam integer CPL_LEN_I  = CPL_BEATS - 1;
    localparam [7:0] CPL_LEN  = CPL_LEN_I[7:0];        // awlen of the write-back
    localparam CW = AXI_DATA_WIDTH > 128 ? AXI_DATA_WIDTH : 128;   // write-back shift register
    localparam EW = AXI_ID_WIDTH - 1;                   // write epoch bits

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
    reg [15:0] cur_words_reg;      // the frame's stream word count
    reg [AXI_ADDR_WIDTH-1:0] addr_reg;
    reg        aw_pend_reg;        // the current burst's AW is offered and not yet taken
    reg [AXI_ADDR_WIDTH-1:0] aw_addr_reg;  // the current burst's AWADDR, held while pending
    reg [7:0]  aw_len_reg;         // ... and AWLEN
    reg [CW-1:0] cpl_reg;          // write-back, shifted out low beat first
    reg [7:0]  outstanding_reg;    // write bursts issued and not yet answered
    reg        ost_nz_reg;         // outstanding_reg != 0 (set with it, F25)
    reg        ost_one_reg;        // outstanding_reg == 1
    reg        cpl_valid_reg;
    reg [7:0]  cpl_queue_reg;
    reg [15:0] cpl_words_reg;
    reg [NUM_QUEUES-1:0] cpl_q_valid_reg;      // cpl_queue_reg one-hot when cpl_valid_reg, set beside it (F25)
    reg [NUM_QUEUES*16-1:0] cpl_q_words_reg;   // per queue: cpl_words_reg where cpl_q_valid_reg, else 0 (F25)
    reg [NUM_QUEUES-1:0] cpl_int_reg;   // ... when cpl_valid_reg && !cpl_flush_reg
    function [NUM_QUEUES-1:0] qhot(input [7:0] qi);
        integer n;
        begin
            for (n = 0; n < NUM_QUEUES; n = n + 1) qhot[n] = qi == n[7:0];
        end
    endfunction
    // the words qw in queue qi's slot, 0 in the others (cpl_q_words_reg)
    function [NUM_QUEUES*16-1:0] qwords(input [7:0] qi, input [15:0] qw);
        integer n;
        begin
            for (n = 0; n < NUM_QUEUES; n = n + 1) qwords[n*16 +: 16] = (qi == n[7:0]) ? qw : 16'd0;
        end
    endfunction
    reg [15:0] head_reg [0:NUM_QUEUES-1];
    // F24: per queue, the error that stopped it, 0 none; flat flip-flops with q_running_reg
    // (qerr == 0: not stopped) set beside them, written by one per-queue block below (F25)
    reg [NUM_QUEUES*3-1:0] qerr_reg;
    reg [NUM_QUEUES-1:0]   q_running_reg;
    reg        cur_flush_reg;      // the current frame ends unwritten (FLUSH)
    reg        cpl_flush_reg;
    reg [31:0] wd_reg;             // write watchdog: edges waited for a B
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
    // the write epoch survives rst (initial value only; bus_rst clears it)
    reg [EW-1:0] epoch_reg;
    initial epoch_reg = {EW{1'b0}};

    // the counters with their zero/one flags (prionic_dma_cnt), loaded and counted below
    wire [15:0] words_reg;         // AXI words still to pop
    wire        words_nz_reg, words_one_reg;
    wire [4:0]  burst_reg;         // W beats left in the current burst
    wire        burst_nz_reg, burst_one_reg;
    wire [4:0]  cpl_beats_reg;     // W beats left in the write-back
    wire        cpl_nz_reg, cpl_one_reg;   // (cpl_nz_reg: WVALID, F25)

    // the burst a reset cut, left open to be finished in S_OWE (prionic_dma_owe): nothing of
    // it owed, its AW still to be offered, W beats owed, one left, it ends at this edge
    wire        cut_done_reg, cut_aw_reg, cut_nz_reg, cut_last, cut_exit;
    wire [AXI_ID_WIDTH-1:0]   cut_id_reg;
    wire [AXI_ADDR_WIDTH-1:0] cut_addr_reg;
    wire [7:0]                cut_len_reg;

    wire [AXI_ADDR_WIDTH-1:0] ring_base = cfg_ring_base[cur_q_reg*64 +: AXI_ADDR_WIDTH];
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cfg = &{1'b0, cfg_ring_base};   // the bits above the bus: the prefetch's RING_ERR
    /* verilator lint_on UNUSEDSIGNAL */
    // the write-back's address, descriptor byte 16, registered: cur_q_reg and cur_slot_reg
    // are set when a frame is taken, at least two edges before its write-back (F25)
    reg  [AXI_ADDR_WIDTH-1:0] wb_addr_reg;
    always @(posedge clk) begin
        wb_addr_reg <= ring_base + {{(AXI_ADDR_WIDTH-21){1'b0}}, cur_slot_reg, 5'd16};
    end

    // burst length: up to 16 beats, never across a 16-beat boundary; burst_len_reg holds the
    // length (beats) of the burst S_DATA_AW starts, decided at the edge that enters it (F25)
    reg  [4:0]  burst_len_reg;

    // last-beat strobe: the low (len mod bytes-per-beat) lanes, or all of them
    wire [15:0] rem = cur_len_reg & (STRB_WIDTH[15:0] - 16'd1);
    reg  [STRB_WIDTH-1:0] last_strb;
    integer j;
    always @* begin
        for (j = 0; j < STRB_WIDTH; j = j + 1) begin
            last_strb[j] = (rem == 16'd0) || (j[15:0] < rem);
        end
    end

    wire cur_q_running = q_running_reg[cur_q_reg];   // the frame's queue is not stopped
    // the write-back: the `writeback` record of docs/regmap.toml (descriptor bytes 16..31)
    wire wb_err = cur_err_reg || !cur_q_running;
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

    // the current burst's W beats are all sent (or go with this handshake) and its AW is taken
    wire w_burst_done = !burst_nz_reg || (w_hs && burst_one_reg);
    wire cpl_w_done   = !cpl_nz_reg || (w_hs && cpl_one_reg);
    wire aw_done      = !aw_pend_reg || aw_hs;
    wire frame_done   = !words_nz_reg || (w_hs && words_one_reg);

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_okay = &{1'b0, m_axi_bresp[0]};  // OKAY and EXOKAY are both fine
    /* verilator lint_on UNUSEDSIGNAL */
    // responses of the current epoch; others are taken and ignored (F24)
    assign b_cur = b_hs && m_axi_bid[EW-1:0] == epoch_reg;
    wire b_err   = b_ok && m_axi_bresp[1];    // SLVERR or DECERR of an owed B
    // the write-back in flight or owed, the oldest burst a timeout lands on (F12, F24)
    wire wb_owed = wb_pend_reg || st_reg[S_CPL_W];
    // a B with the write-back's ID answers the owed write-back, one with the data ID the
    // current frame's data, each in AW order: a missing B (F24) is never taken from another
    // burst. A B is owed from its burst's AW to its B (outstanding_reg counts both kinds;
    // wb_aw_reg: the write-back's AW is taken, its B owed, a flip-flop so that the owed test
    // is one LUT behind the ID, F25); a B not owed (b_stray) completes nothing: STRAY_B
    reg  wb_aw_reg;
    wire b_is_wb   = m_axi_bid[AXI_ID_WIDTH-1];
    wire b_owed    = b_is_wb ? wb_aw_reg : ost_nz_reg && !(ost_one_reg && wb_aw_reg);
    wire b_ok      = b_cur && b_owed;         // a B taken: it ends its burst
    wire b_stray   = b_cur && !b_owed;
    wire b_wb      = b_ok && b_is_wb;         // the owed write-back's B: the completion C
    wire [QW-1:0] in_q  = s_meta_queue[QW-1:0];
    // the ring is beyond the bus or out of its DMA window (RING_ERR, F24)
    wire cur_ring_beyond = ring_bad[cur_q_reg];

    // the write watchdog runs while the engine waits for a B
    wire waiting   = (st_reg[S_DATA_B] && ost_nz_reg) || wb_pend_reg;
    // wd_hit_reg: wd_reg + 1 >= DMA_TIMEOUT (not 0), decided at the edge that sets wd_reg
    // (F25: no 32-bit compare behind the handshakes; a DMA_TIMEOUT write counts an edge late)
    reg  wd_hit_reg;
    wire timeout   = waiting && wd_hit_reg && !b_cur;
    always @(posedge clk) begin
        wb_aw_reg <= !rst && !timeout && ((wb_aw_reg && !b_wb)
                     || (aw_hs && (st_reg[S_CPL_AW] || st_reg[S_CPL_W])));
    end

    // write-side events this edge (they have the event port; a read event waits: RREADY low)
    // (b_err || timeout || ev_regs), made for b_cur high and low beside each other and
    // picked by b_cur last (F25: the B epoch compare is one step before RREADY)
    // (S_DESC's RING_ERR or BUF_ERR: each queue's condition beside the others, F25)
    reg  [NUM_QUEUES-1:0] ev_q;
    integer e;
    always @* begin
        for (e = 0; e < NUM_QUEUES; e = e + 1) begin
            ev_q[e] = q_running_reg[e] && (ring_bad[e] || (pf_valid[e] && pf_bad[e]));
        end
    end
    wire ev_regs = st_reg[S_DROP] || tflush_reg
                || (st_reg[S_DESC] && !wb_pend_reg && (ev_q[cur_q_reg]
                    || (q_running_reg[cur_q_reg] && pf_valid[cur_q_reg] && !cur_fit)));
    wire w_timer = waiting && wd_hit_reg;   // timeout when !b_cur
    // (a stray B with OKAY is no event here: it waits in stray_pend_reg for a free edge, so
    // that the owed decode is not in front of RREADY; F25)
    wire wev     = b_cur ? m_axi_bresp[1] : w_timer;   // b_err, a stray B's error, or timeout
    assign w_event = wev || ev_regs;

    wire rd_cur_q = rd_busy && rd_q == cur_q_reg;
    // the write side moves to the write-back at this edge (S_DATA_B's exit, below) when
    // tc_db && (!ost_nz_reg || (ost_one_reg && b_ok)); no timeout term: a timeout needs
    // !b_cur and an outstanding B, which this already excludes
    wire tc_db  = st_reg[S_DATA_B] && !rd_cur_q;

    // no descriptor read for the current frame's queue from the edge its write-back starts
    // (the prefetch's choice): a part of registers, and one that waits for b_cur (to_cpl
    // through the last B), so b_cur meets the queue's other conditions in its last step
    assign cpl_blk = st_reg[S_CPL_AW] || st_reg[S_CPL_W] || (st_reg[S_DATA_B] && !ost_nz_reg);
    assign cpl_bw  = st_reg[S_DATA_B] && ost_one_reg;   // ... and with b_cur
    // the watchdog's next value is 0, or one more (the always block below)
    wire wd_zero  = rst || timeout || !(waiting && !b_ok);
    always @(posedge clk) begin
        wd_hit_reg  <= cfg_timeout != 32'd0 && (wd_zero ? cfg_timeout == 32'd1
                                               : {1'b0, wd_reg} + 33'd2 >= {1'b0, cfg_timeout});
    end

    // fast path: a frame whose address is read and good starts at once, write-back owed or not
    // the frame fits between its buffer address and the DMA window's end (F24), each queue's
    // compare beside the others, the frame's queue picks
    reg  [NUM_QUEUES-1:0] in_fit;
    integer fm;
    always @* begin
        for (fm = 0; fm < NUM_QUEUES; fm = fm + 1) begin
            in_fit[fm] = pf_fit[fm*17 +: 17] >= {1'b0, s_meta_len};
        end
    end
    // cur_fit: {1'b0, cur_len_reg} <= pf_fit[cur_q_reg*17 +: 17]. With FIT_NEXT a register
    // set beside cur_len_reg, cur_q_reg and pf_fit from their next values (F25: the compare
    // is not behind pf_fit; it fed the event decode, RREADY and the state, 2 LUT levels and
    // a carry chain more): a frame taken at this edge compares its length with its queue's
    // pf_fit after the edge (the new one if the prefetch writes it now, else in_fit's), a
    // frame held compares its own length with a pf_fit written now, else keeps the flag
    wire cur_fit;
    generate
        if (FIT_NEXT) begin : g_fit_reg
            wire fit_take   = in_idle && cut_done_reg && s_meta_valid;   // S_IDLE's cur_* load
            // len <= the written pf_fit: far (len < 2^16), len 0, or len - 1 <= left; the
            // far test of the address meets the compare last
            wire fit_in_nx  = pf_fit_far || s_meta_len == 16'd0 || pf_fit_left >= s_meta_len - 16'd1;
            wire fit_cur_nx = pf_fit_far || cur_len_reg == 16'd0 || pf_fit_left >= cur_len_reg - 16'd1;
            reg  fit_reg;
            always @(posedge clk) begin
                fit_reg <= fit_take ? (pf_fit_wr[in_q] ? fit_in_nx : in_fit[in_q])
                                    : (pf_fit_wr[cur_q_reg] ? fit_cur_nx : fit_reg);
            end
            assign cur_fit = fit_reg;
`ifndef SYNTHESIS
            // the copy is a timing device, not a second truth: from the first frame taken on
            // (before it cur_len_reg is unset), it equals the compare it replaces
            reg fit_seen;
            initial fit_seen = 1'b0;
            always @(posedge clk) begin
                if (fit_take) begin
                    fit_seen <= 1'b1;
                end
                if (fit_seen && fit_reg !== ({1'b0, cur_len_reg} <= pf_fit[cur_q_reg*17 +: 17])) begin
                    $fatal(1, "%m: registered fit flag differs from cur_len <= pf_fit[cur_q]");
                end
            end
`endif
        end else begin : g_fit_comb
            assign cur_fit = pf_fit[cur_q_reg*17 +: 17] >= {1'b0, cur_len_reg};
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_fit = &{1'b0, pf_fit_wr, pf_fit_far, pf_fit_left};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    // S_IDLE's fast path: each queue's own conditions beside the others (F25), the frame's
    // queue picks (in_fast) or, for the prefetch's pf_take, each queue ANDs its own flag
    wire [NUM_QUEUES-1:0] in_fast_q = q_running_reg & ~ring_bad & pf_valid & ~pf_bad & in_fit;
    wire in_fast = !s_meta_drop && in_fast_q[in_q];
    wire [15:0] in_beats = (s_meta_words + RATIO[15:0] - 16'd1) >> RSHIFT;

    // the first burst: up to the 16-beat boundary after the prefetched address; a later
    // burst of the frame starts at a boundary: the words left after this edge, at most 16
    wire [AXI_ADDR_WIDTH-1:0] in_pf_addr  = pf_addr[in_q*AXI_ADDR_WIDTH +: AXI_ADDR_WIDTH];
    wire [AXI_ADDR_WIDTH-1:0] cur_pf_addr = pf_addr[cur_q_reg*AXI_ADDR_WIDTH +: AXI_ADDR_WIDTH];
    wire [4:0] in_room  = pf_room[in_q*5 +: 5];
    wire [4:0] cur_room = pf_room[cur_q_reg*5 +: 5];
    // in_beats < in_room  <=>  s_meta_words <= (in_room - 1) * RATIO (at most 60)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [6:0] in_beats_lo   = ({1'b0, s_meta_words[5:0]} + RATIO[6:0] - 7'd1) >> RSHIFT;
    /* verilator lint_on UNUSEDSIGNAL */
    // ... compared for each queue beside the others, the frame's queue picks (F25)
    reg  [NUM_QUEUES-1:0] in_le;
    integer m;
    always @* begin
        for (m = 0; m < NUM_QUEUES; m = m + 1) begin
            in_le[m] = pf_rw[m*7 +: 7] >= {1'b0, s_meta_words[5:0]};
        end
    end
    wire       in_short = s_meta_words[15:6] == 10'd0 && in_le[in_q];
    // the length of the burst S_DATA_AW starts, by the state that enters it: the first burst
    // of a frame taken in S_IDLE (in) or in S_DESC (desc), a frame's continuing one (cont)
    wire [4:0] burst_len_in   = in_short ? in_beats_lo[4:0] : in_room;
    wire [4:0] burst_len_desc = (words_reg < {11'd0, cur_room}) ? words_reg[4:0] : cur_room;
    wire [4:0] burst_len_cont = w_hs ? ((16'd16 < words_reg) ? 5'd16 : words_reg[4:0] - 5'd1)
                                     : ((words_reg >= 16'd16) ? 5'd16 : words_reg[4:0]);

    // the outstanding count after this edge (0 at a timeout and at rst)
    wire       ost_inc  = aw_hs && !st_reg[S_OWE];
    wire [7:0] ost_next = (rst || timeout) ? 8'd0
                        : outstanding_reg + {7'd0, ost_inc} - {7'd0, b_ok};
    // ... its zero and one flags from the flags and this edge's AW, for a B taken and not
    // (a timeout needs !b_cur), b_ok picks last (F25: no add behind the B epoch compare)
    wire ost_nz_b1  = ost_inc ? ost_nz_reg : !ost_one_reg;
    wire ost_nz_b0  = !(w_timer && !b_cur) && (ost_inc ? outstanding_reg != 8'hFF : ost_nz_reg);
    wire ost_one_b1 = ost_inc ? ost_one_reg : outstanding_reg == 8'd2;
    wire ost_one_b0 = !(w_timer && !b_cur) && (ost_inc ? !ost_nz_reg : ost_one_reg);

    // the frame's address: the prefetched one when its data write starts (S_IDLE's fast
    // path, S_DESC), a beat on at each W beat (S_DATA_AW, S_DATA_W); its own block, so the
    // loads are not merged into the state machine's decode (F25). It is read only in
    // S_DATA_AW and S_DATA_W, which S_IDLE enters only by the fast path and S_DESC only
    // with the prefetched address: so it loads at every S_IDLE and S_DESC edge (its enable
    // is the state, not the decision to start the write)
    wire in_take  = st_reg[S_IDLE] && cut_done_reg && s_meta_valid && !s_meta_drop;
    wire addr_inc = (st_reg[S_DATA_AW] || st_reg[S_DATA_W]) && w_hs;
    always @(posedge clk) begin
        if (st_reg[S_IDLE]) begin
            addr_reg <= in_pf_addr;
        end else if (st_reg[S_DESC]) begin
            addr_reg <= cur_pf_addr;
        end else if (addr_inc) begin
            addr_reg <= addr_reg + BEAT_BYTES;
        end
    end

    // S_DATA_AW is entered from S_IDLE, S_DESC and S_DATA_W only, and lasts one cycle:
    // burst_len_reg is loaded at every edge with the length for the state it leaves (the
    // decode is shallow)
    always @(posedge clk) begin
        burst_len_reg <= st_reg[S_IDLE] ? burst_len_in : st_reg[S_DESC] ? burst_len_desc : burst_len_cont;
    end

    // the counters: words (loaded when an entry is taken, one less per word popped), the
    // data burst's and the write-back's W beats (loaded in their first cycle with that
    // cycle's W beat counted, one less per W beat)
    wire in_idle = state_reg == S_IDLE;
    prionic_dma_cnt #(.W(16)) words_cnt (
        .clk(clk),
        .ld(in_idle && cut_done_reg && s_meta_valid),
        .ld_val(in_beats), .ld_nz(in_beats != 16'd0), .ld_one(in_beats == 16'd1),
        .dec((state_reg == S_SKIP && words_nz_reg && s_data_valid)
             || ((state_reg == S_DATA_AW || state_reg == S_DATA_W) && w_hs)),
        .q(words_reg), .nz(words_nz_reg), .one(words_one_reg)
    );
    prionic_dma_cnt #(.W(5)) burst_cnt (
        .clk(clk),
        .ld(state_reg == S_DATA_AW),
        .ld_val(burst_len_reg - {4'd0, w_hs}), .ld_nz(burst_len_reg != 5'd1 || !w_hs),
        .ld_one(w_hs ? burst_len_reg == 5'd2 : burst_len_reg == 5'd1),
        .dec(state_reg == S_DATA_W && w_hs),
        .q(burst_reg), .nz(burst_nz_reg), .one(burst_one_reg)
    );
    prionic_dma_cnt #(.W(5)) cpl_cnt (
        .clk(clk),
        .ld(state_reg == S_CPL_AW),
        .ld_val(CPL_BEATS[4:0] - {4'd0, w_hs}), .ld_nz(!(CPL_BEATS == 1 && w_hs)),
        .ld_one(w_hs ? CPL_BEATS == 2 : CPL_BEATS == 1),
        .dec(state_reg == S_CPL_W && w_hs),
        .q(cpl_beats_reg), .nz(cpl_nz_reg), .one(cpl_one_reg)
    );

    prionic_dma_owe #(
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXI_ID_WIDTH(AXI_ID_WIDTH),
        .CPL_BEATS(CPL_BEATS)
    ) owe_inst (
        .clk(clk), .rst(rst), .bus_rst(bus_rst),
        .state(state_reg), .st_data_aw(st_reg[S_DATA_AW]), .st_cpl_aw(st_reg[S_CPL_AW]),
        .burst_len(burst_len_reg), .burst(burst_reg), .cpl_beats(cpl_beats_reg),
        .w_burst_done(w_burst_done), .cpl_w_done(cpl_w_done), .aw_done(aw_done),
        .aw_pend(aw_pend_reg), .aw_hs(aw_hs), .w_hs(w_hs),
        .awid(m_axi_awid), .awaddr(m_axi_awaddr), .awlen(m_axi_awlen),
        .cut_done(cut_done_reg), .cut_aw(cut_aw_reg), .cut_nz(cut_nz_reg),
        .cut_last(cut_last), .cut_exit(cut_exit),
        .cut_id(cut_id_reg), .cut_addr(cut_addr_reg), .cut_len(cut_len_reg)
    );

    // qerr_reg: the first error of each queue stops it (F24). The writes in priority order
    // (the ring beyond the bus in S_DESC, then a B error or the write timeout, then the
    // read side's timeout or first error beat, each only into a queue at 0), per queue; the
    // B epoch compare (b_cur) picks the write side's event wev, which meets the others in the
    // last steps (F25: it feeds b_err, timeout and RREADY)
    // the write side's event queue: a B's burst (by its ID), or at a timeout the oldest burst
    // waited for (the owed write-back, else the current frame's data)
    wire [QW-1:0] wq_b    = b_is_wb ? wb_q_reg : cur_q_reg;
    wire [QW-1:0] wq_t    = wb_owed ? wb_q_reg : cur_q_reg;
    wire          ring_ev = st_reg[S_DESC] && !wb_pend_reg && !tflush_reg && cur_q_running && cur_ring_beyond;
    // (the codes that stop a queue fit in 3 bits: QUEUE_STATUS.ERR)
    wire [2:0]    w_code  = !b_cur ? DMA_EVENT_TIMEOUT[2:0] : b_is_wb ? DMA_EVENT_WB_ERR[2:0] : DMA_EVENT_DATA_ERR[2:0];
    reg  [NUM_QUEUES-1:0] q_rd, q_w, q_ring;
    integer n;
    always @* begin
        for (n = 0; n < NUM_QUEUES; n = n + 1) begin
            q_ring[n] = ring_ev && cur_q_reg == n[QW-1:0];
            q_w[n]    = b_cur ? b_owed && m_axi_bresp[1] && wq_b == n[QW-1:0] : w_timer && wq_t == n[QW-1:0];
            q_rd[n]   = rd_ev && rd_q == n[QW-1:0] && !w_event;
        end
    end
    integer nq;
    always @(posedge clk) begin
        for (nq = 0; nq < NUM_QUEUES; nq = nq + 1) begin
            if (cfg_ring_rst[nq] || rst) begin
                qerr_reg[nq*3 +: 3] <= 3'd0;
                q_running_reg[nq]   <= 1'b1;
            end else if (q_running_reg[nq] && (q_ring[nq] || q_w[nq] || q_rd[nq])) begin
                qerr_reg[nq*3 +: 3] <= q_rd[nq] ? rd_code[2:0] : q_w[nq] ? w_code : DMA_EVENT_RING_ERR[2:0];
                q_running_reg[nq]   <= 1'b0;
            end
        end
    end

    // F24: the stall watchdogs. A withheld handshake cannot be abandoned (A3.2.1): the DMA
    // keeps offering it and reports the stall once (STALL_W, STALL_R), re-armed by the
    // direction's next handshake. wst_reg counts the edges with AWVALID or WVALID up and
    // neither taken, ast_reg those with ARVALID up and not taken; the hit flags are set as
    // wd_hit_reg (F25). A stall has the lowest priority on the event port but a STRAY_B's
    // (it waits while other events win, and is dropped if the handshake is taken meanwhile).
    wire w_stalled = (m_axi_awvalid || m_axi_wvalid) && !aw_hs && !w_hs;
    wire r_stalled = m_axi_arvalid && !m_axi_arready;
    reg  [31:0] wst_reg, ast_reg;
    reg         wst_hit_reg, ast_hit_reg;   // the counter + 1 >= DMA_TIMEOUT (not 0)
    reg         wst_arm_reg, ast_arm_reg;   // no stall reported since the last handshake (or rst)
    wire st_w = w_stalled && wst_hit_reg && wst_arm_reg;
    wire st_r = r_stalled && ast_hit_reg && ast_arm_reg;
    wire st_other = w_event || rd_ev;       // the edge's other event (the read's when RREADY is high)
    // a STRAY_B waits below the stalls too
    reg  stray_pend_reg;
    wire stray_rep = stray_pend_reg && !st_other && !st_w && !st_r;
    // the burst a reset left open (S_OWE) belongs to no queue any more: queue 0xFF
    wire [7:0] st_w_queue = st_reg[S_OWE] ? 8'hFF : cur_queue_reg;
`ifndef SYNTHESIS
    // the stall's guard !st_other drops nothing: an edge with st_other makes one of the event
    // port's other writes (below), so ev_valid_reg is set after it
    reg st_other_q;
    initial st_other_q = 1'b0;
    always @(posedge clk) begin
        st_other_q <= st_other && !rst;
        if (st_other_q && !ev_valid_reg) $fatal(1, "%m: st_other without an event write");
    end
`endif
    wire wst_zero = rst || !w_stalled;
    wire ast_zero = rst || !r_stalled;
    // the write hit flag's next value for a stalled and an idle edge, picked by the stall
    // alone (F25: WVALID, a queue buffer's valid through the burst's pick, is late)
    wire t_one     = cfg_timeout == 32'd1;
    wire wst_hit_s = rst ? t_one : cfg_timeout != 32'd0 && {1'b0, wst_reg} + 33'd2 >= {1'b0, cfg_timeout};
    always @(posedge clk) begin
        wst_reg     <= wst_zero ? 32'd0 : wst_reg + 32'd1;
        ast_reg     <= ast_zero ? 32'd0 : ast_reg + 32'd1;
        wst_hit_reg <= w_stalled ? wst_hit_s : t_one;
        ast_hit_reg <= cfg_timeout != 32'd0 && (ast_zero ? cfg_timeout == 32'd1
                                               : {1'b0, ast_reg} + 33'd2 >= {1'b0, cfg_timeout});
        wst_arm_reg <= rst || aw_hs || w_hs || (wst_arm_reg && !(st_w && !st_other));
        ast_arm_reg <= rst || (m_axi_arvalid && m_axi_arready) || (ast_arm_reg && !(st_r && !st_w && !st_other));
    end
    integer i;
    always @(posedge clk) begin
        cpl_valid_reg <= 1'b0;
        cpl_q_valid_reg <= {NUM_QUEUES{1'b0}};
        cpl_q_words_reg <= {(NUM_QUEUES*16){1'b0}};
        cpl_int_reg   <= {NUM_QUEUES{1'b0}};
        cpl_flush_reg <= 1'b0;
        ev_valid_reg  <= 1'b0;
        tflush_reg    <= 1'b0;
        outstanding_reg <= ost_next;
        ost_nz_reg      <= !rst && (b_ok ? ost_nz_b1 : ost_nz_b0);
        ost_one_reg     <= !rst && (b_ok ? ost_one_b1 : ost_one_b0);
        wd_reg  <= (waiting && !b_ok) ? wd_reg + 32'd1 : 32'd0;

        // (a stall has the lowest priority on the event port: after the others, below)

        case (state_reg)
            S_IDLE: begin
                if (!cut_done_reg) begin
                    // a reset left a burst open: finish it first (nothing is written)
                    aw_pend_reg <= cut_aw_reg;
                    goto(S_OWE);
                end else if (s_meta_valid) begin
                    cur_q_reg     <= in_q;
                    cur_queue_reg <= s_meta_queue;
                    cur_rule_reg  <= s_meta_rule;
                    cur_len_reg   <= s_meta_len;
                    cur_slot_reg  <= s_meta_slot;
                    cur_ts_reg    <= s_meta_ts;
                    cur_info_reg  <= s_meta_info;
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
                // events wait until no write-back is owed, so they follow every earlier completion,
                // and for the edge of a timed-out write-back's FLUSH (tflush_reg), whose event
                // port they would share
                if (!wb_pend_reg && !tflush_reg) begin
                    if (!cur_q_running) begin
                        cur_flush_reg <= 1'b1;          // the queue is stopped: drop it unwritten
                        goto(S_SKIP);
                    end else if (cur_ring_beyond) begin
                        // the ring is beyond the bus or out of its window: qerr_reg RING_ERR
                        ev_valid_reg   <= 1'b1;
                        ev_code_reg    <= DMA_EVENT_RING_ERR;
                        ev_queue_reg   <= cur_queue_reg;
                        cur_flush_reg  <= 1'b1;
                        goto(S_SKIP);
                    end else if (pf_valid[cur_q_reg] && (pf_bad[cur_q_reg] || !cur_fit)) begin
                        // never truncated: an ERR write-back, the queue goes on (F24)
                        cur_err_reg  <= 1'b1;
                        goto(S_SKIP);
                        ev_valid_reg <= 1'b1;
                        ev_code_reg  <= DMA_EVENT_BUF_ERR;
                        ev_queue_reg <= cur_queue_reg;
                    end
                end
                if (cur_q_running && !cur_ring_beyond && pf_valid[cur_q_reg]
                    && !pf_bad[cur_q_reg] && cur_fit) begin
                    goto(S_DATA_AW);
                end
            end
            S_SKIP: begin
                if (!words_nz_reg || (s_data_valid && words_one_reg)) begin
                    goto(cur_flush_reg ? S_DROP : cur_err_reg ? S_DATA_B : S_IDLE);
                end
            end
            S_DROP: begin
                // a frame of a stopped queue ends unwritten; its on-chip space is given back
                cpl_valid_reg <= 1'b1;
                cpl_flush_reg <= 1'b1;
                cpl_queue_reg <= cur_queue_reg;
                cpl_q_valid_reg <= qhot(cur_queue_reg);
                cpl_q_words_reg <= qwords(cur_queue_reg, cur_words_reg);
                cpl_words_reg <= cur_words_reg;
                ev_valid_reg  <= 1'b1;
                ev_code_reg   <= DMA_EVENT_FLUSH;
                ev_queue_reg  <= cur_queue_reg;
                goto(S_IDLE);
            end
            S_OWE: begin
                // the burst's owed beats (prionic_dma_owe) are sent, every strobe off
                if (cut_exit) begin
                    goto(S_IDLE);
                end
            end
            S_DATA_AW: begin
                // AW and the first W beat offered now, each on its own (A3.3.1)
                aw_addr_reg <= addr_reg;
                aw_len_reg  <= {3'd0, burst_len_reg - 5'd1};
                aw_pend_reg <= !aw_hs;
                goto(S_DATA_W);
            end
            S_DATA_W: begin
                if (w_burst_done && aw_done) begin
                    goto(frame_done ? S_DATA_B : S_DATA_AW);
                end
            end
            S_DATA_B: begin
                // to_cpl once nothing is owed (not while the queue's descriptor read is out): here
                // with one B owed, b_owed is b_is_wb == wb_pend_reg (F25: no owed decode in front)
                if (tc_db && (!ost_nz_reg || (ost_one_reg && b_cur && b_is_wb == wb_pend_reg))) begin
                    goto(S_CPL_AW);
                end else if (timeout && !wb_pend_reg) begin
                    cur_flush_reg <= 1'b1;
                    goto(S_DROP);
                end
            end
            S_CPL_AW: begin
                // bytes 16..31: len, rule, queue, timestamp, info, status {DD, ERR, 0, flags}
                cpl_reg       <= w_hs ? wb_wide >> AXI_DATA_WIDTH : wb_wide;
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
            cpl_q_valid_reg <= qhot(wb_queue_reg);
            cpl_q_words_reg <= qwords(wb_queue_reg, wb_words_reg);
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
            cpl_q_valid_reg <= qhot(wb_queue_reg);
            cpl_q_words_reg <= qwords(wb_queue_reg, wb_words_reg);
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
        if (b_cur ? m_axi_bresp[1] : timeout) begin
            // the queue stops (qerr_reg, above), but at a stray B (no queue, nothing stops)
            ev_valid_reg <= 1'b1;
            // (a B error comes with b_cur, a timeout without: the B's burst, else the oldest waited for)
            ev_code_reg  <= !b_cur ? DMA_EVENT_TIMEOUT : !b_owed ? DMA_EVENT_STRAY_B
                          : b_is_wb ? DMA_EVENT_WB_ERR : DMA_EVENT_DATA_ERR;
            ev_queue_reg <= (b_cur && !b_owed) ? 8'hFF
                          : (b_cur ? b_is_wb : wb_owed) ? wb_queue_reg : cur_queue_reg;
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
        // the read side's event, at an edge with none of the write side's (RREADY high);
        // the queue stops: qerr_reg (above)
        if (rd_ev && !w_event) begin
            ev_valid_reg <= 1'b1;
            ev_code_reg  <= rd_code;
            ev_queue_reg <= {{(8-QW){1'b0}}, rd_q};
        end
        // a stall, at an edge with no other event: st_other (w_event || rd_ev) is exactly
        // when one of the event writes above is made (w_event: b_err || timeout, S_DROP,
        // tflush_reg, or S_DESC's RING_ERR / BUF_ERR; rd_ev with !w_event: the read's), so
        // this is the stall written first and overwritten by them, with the stall's handshake
        // decode meeting the event port in its last step (F25: no priority chain behind it)
        if ((st_w || st_r) && !st_other) begin
            ev_valid_reg <= 1'b1;
            ev_code_reg  <= st_w ? DMA_EVENT_STALL_W : DMA_EVENT_STALL_R;
            ev_queue_reg <= st_w ? st_w_queue : {{(8-QW){1'b0}}, rd_q};
        end
        // stray Bs with OKAY since the last report: STRAY_B at an edge with no other event
        stray_pend_reg <= !rst && ((b_stray && !m_axi_bresp[1]) || (stray_pend_reg && !stray_rep));
        if (stray_rep) begin
            ev_valid_reg <= 1'b1;
            ev_code_reg  <= DMA_EVENT_STRAY_B;
            ev_queue_reg <= 8'hFF;
        end

        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            if (cfg_ring_rst[i] || rst) begin
                head_reg[i] <= 16'd0;
            end
        end
        if (rst) begin
            // a busy engine may be owed responses: they belong to the old epoch (F24)
            // (state_reg, not st_reg: the same at every reset after the first, and at the
            // first one as it always was)
            if (state_reg != S_IDLE || ost_nz_reg || wb_pend_reg) begin
                epoch_reg <= epoch_reg + 1'b1;
            end
            goto(S_IDLE);
            cpl_valid_reg   <= 1'b0;
            cpl_q_valid_reg <= {NUM_QUEUES{1'b0}};
            cpl_q_words_reg <= {(NUM_QUEUES*16){1'b0}};
            cpl_int_reg     <= {NUM_QUEUES{1'b0}};
            cpl_flush_reg   <= 1'b0;
            ev_valid_reg    <= 1'b0;
            aw_pend_reg     <= 1'b0;
            wb_pend_reg     <= 1'b0;
            tflush_reg      <= 1'b0;
            wd_reg          <= 32'd0;
        end
        if (bus_rst) begin
            // the bus and its slave are reset too (rst is high with it): nothing is outstanding;
            // last, so this is a plain synchronous reset beside rst's logic (F25)
            epoch_reg     <= {EW{1'b0}};
        end
    end

    // an entry is taken in IDLE unless a reset left a burst open (F24)
    assign s_meta_ready = st_reg[S_IDLE] && cut_done_reg;
    wire in_data_w  = st_reg[S_DATA_W] && burst_nz_reg;
    wire in_cpl_w   = st_reg[S_CPL_W] && cpl_nz_reg;
    wire in_owe_w   = st_reg[S_OWE] && cut_nz_reg;
    wire first_aw   = st_reg[S_DATA_AW] || st_reg[S_CPL_AW];
    wire cpl_aw     = st_reg[S_CPL_AW] || st_reg[S_CPL_W];

    wire in_data_aw = st_reg[S_DATA_AW];
    wire in_cpl_aw  = st_reg[S_CPL_AW];
    assign s_data_ready = (st_reg[S_SKIP] && words_nz_reg) || ((in_data_w || in_data_aw) && m_axi_wready);

    // a burst finished after a reset keeps its ID: its B (old epoch) is ignored
    assign m_axi_awid    = st_reg[S_OWE] ? cut_id_reg : {cpl_aw, epoch_reg};
    assign m_axi_awaddr  = st_reg[S_OWE] ? cut_addr_reg
                         : cpl_aw ? wb_addr_reg
                         : (st_reg[S_DATA_AW]) ? addr_reg : aw_addr_reg;
    assign m_axi_awlen   = st_reg[S_OWE] ? cut_len_reg
                         : cpl_aw ? CPL_LEN
                         : (st_reg[S_DATA_AW]) ? {3'd0, burst_len_reg - 5'd1} : aw_len_reg;
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
    assign m_axi_wlast   = in_data_w ? burst_one_reg : in_data_aw ? burst_len_reg == 5'd1
                         : in_owe_w ? cut_last
                         : in_cpl_aw ? CPL_BEATS == 1 : cpl_one_reg;
    assign m_axi_wvalid  = ((in_data_w || in_data_aw) && s_data_valid) || in_cpl_w || in_cpl_aw || in_owe_w;
    assign m_axi_bready  = 1'b1;

    // to the prefetch engine: a frame takes its queue's address at S_IDLE's fast path or
    // in S_DESC (its data write starts, or a BUF_ERR)
    wire pf_clr_cur = st_reg[S_DESC] && cur_q_running && !cur_ring_beyond && pf_valid[cur_q_reg]
                   && ((!pf_bad[cur_q_reg] && cur_fit) || (!wb_pend_reg && !tflush_reg));
    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_q
            assign pf_take[g] = (in_take && in_q == g[QW-1:0] && in_fast_q[g])
                             || (pf_clr_cur && cur_q_reg == g[QW-1:0]);
            assign status_head[g*16 +: 16] = head_reg[g];
        end
    endgenerate
    assign q_running = q_running_reg;
    assign wb_pend = wb_pend_reg;
    assign wb_q    = wb_q_reg;
    assign cur_q   = cur_q_reg;

    assign status_qerr = qerr_reg;

    assign m_cpl_valid = cpl_valid_reg;
    assign m_cpl_queue = cpl_queue_reg;
    assign m_cpl_words = cpl_words_reg;
    assign m_cpl_flush = cpl_flush_reg;
    assign m_cpl_q_valid = cpl_q_valid_reg;
    assign m_cpl_q_words = cpl_q_words_reg;
`ifndef SYNTHESIS
    // the copies are timing devices, not a second truth (from the first reset on): each
    // queue's slot is the completion's words where the one-hot flag is set, else 0
    integer gq;
    reg rst_seen;
    initial rst_seen = 1'b0;
    always @(posedge clk) begin
        rst_seen <= rst_seen || rst;
        for (gq = 0; gq < NUM_QUEUES; gq = gq + 1) begin
            if (rst_seen && cpl_q_words_reg[gq*16 +: 16] !== (cpl_q_valid_reg[gq] ? cpl_words_reg : 16'd0)) begin
                $fatal(1, "%m: cpl_q_words_reg differs from the completion's words and one-hot queue");
            end
        end
        // ... and wb_aw_reg is the write-back's AW taken with its B owed
        if (rst_seen && !rst && wb_aw_reg !== (wb_pend_reg || (st_reg[S_CPL_W] && !aw_pend_reg))) begin
            $fatal(1, "%m: wb_aw_reg differs from the write-back's AW taken and its B owed");
        end
    end
`endif
    assign m_cpl_int   = cpl_int_reg;

    assign stat_dma_valid = ev_valid_reg;
    assign stat_dma_code  = ev_code_reg;
    assign stat_dma_queue = ev_queue_reg;

endmodule

`resetall
