// SPDX-License-Identifier: MIT
//
// prionic_dma: receive DMA engine (F12), an AXI4 master. Takes admitted-frame entries
// in order. A dropped frame's words are popped from the frame FIFO and discarded (one
// word per cycle, the stream's own rate). For a delivered frame it reads the 8-byte
// buffer address from descriptor RING_BASE + 32*slot, writes the frame into the buffer
// in INCR bursts of at most 16 beats that never cross a 16-beat boundary (wstrb trimmed
// on the last beat), waits for every data B response, then writes the 16-byte
// write-back (length, rule, queue, status DD, timestamp) at descriptor offset 16. The B
// handshake of that write is the completion (cycle C): m_cpl pulses at C+1 and the
// queue's HEAD becomes slot+1 (mod RING_SIZE). A buffer address that is not aligned to
// the bus width, or has bits set at or above AXI_ADDR_WIDTH, gets no data write at all:
// its completion says length 0, status DD|ERR. DD is in the last byte of the write-back, so a host that sees it sees the
// whole write-back at any bus width. The engine writes nowhere else. Layout: docs/frame-path.md section 4.
//
// Host-side faults (F24, docs/faults.md): an error response (RRESP/BRESP SLVERR or DECERR)
// or a transaction left unanswered for DMA_TIMEOUT cycles stops the frame's queue
// (stat_dma event, QUEUE_STATUS.ERR): an error on the descriptor read drops the frame
// unwritten (the read data never becomes an address), an error on a data burst makes the
// write-back say ERR, a timeout abandons the transaction. Every later frame of a stopped
// queue is dropped unwritten (FLUSH). A ring base with bits at or above AXI_ADDR_WIDTH
// stops the queue before anything is read. A ring reset (cfg_ring_rst) clears the error.
// Every transaction carries the epoch (AXI_ID_WIDTH bits) as its AXI ID; the epoch
// advances at a timeout and at a reset that finds the engine busy, and a response with
// another ID is taken and ignored (RREADY and BREADY are always high), so a late answer
// to a transaction from before never counts for one after. A reset in the middle of a burst leaves the burst's
// owed W beats to be sent after it with every strobe off (state OWE), so the slave's
// burst ends without writing anything more. The epoch and the owed burst survive rst.
//
// AXI4 write channels (A3.3.1): a burst's AW is offered in its first cycle (S_DATA_AW,
// S_CPL_AW) and held, with its address and length latched, until AWREADY; its W beats
// start the next cycle whatever AWREADY does, so a slave that waits for WVALID before
// AWREADY, or takes W before AW, is served. The next burst's AW waits for the previous
// one's handshake (one AW in flight on the channel, as the protocol requires).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_dma #(
    parameter DATA_WIDTH     = 32,                 // AXI and frame FIFO width, 8..64
    parameter STRB_WIDTH     = DATA_WIDTH / 8,
    parameter AXI_ADDR_WIDTH = 32,                 // host address bits
    parameter AXI_ID_WIDTH   = 4,                  // AXI ID bits: the epoch (F24)
    parameter NUM_QUEUES     = 2,                  // receive queues (1..16)
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1  // queue index width
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire [NUM_QUEUES*64-1:0]  cfg_ring_base,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_size,
    input  wire [NUM_QUEUES-1:0]     cfg_ring_rst,
    input  wire [31:0]               cfg_timeout,      // DMA_TIMEOUT: watchdog cycles, 0 off (F24)

    // admitted-frame entries (prionic_admit via a FIFO)
    input  wire                      s_meta_valid,
    output wire                      s_meta_ready,
    input  wire                      s_meta_drop,
    input  wire [7:0]                s_meta_queue,
    input  wire [7:0]                s_meta_rule,
    input  wire [15:0]               s_meta_len,
    input  wire [15:0]               s_meta_words,
    input  wire [15:0]               s_meta_slot,
    input  wire [31:0]               s_meta_ts,
    input  wire [39:0]               s_meta_info,     // {status flags[7:0], info[31:0]} (F4)

    // frame words (frame FIFO)
    input  wire [DATA_WIDTH-1:0]     s_data,
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
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
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
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready,

    // completion: one-cycle pulse the cycle after the write-back's B handshake
    output wire                      m_cpl_valid,
    output wire [7:0]                m_cpl_queue,
    output wire [15:0]               m_cpl_words,      // the completed frame's word count
    output wire                      m_cpl_flush,      // ... dropped unwritten (FLUSH): no interrupt

    // DMA events (F24): one-cycle pulse the cycle after the event edge E
    output wire                      stat_dma_valid,
    output wire [2:0]                stat_dma_code,    // docs/regmap.toml [enums.dma_event]
    output wire [7:0]                stat_dma_queue,
    output wire [NUM_QUEUES*3-1:0]   status_qerr,      // per queue: the error that stopped it, 0 none

    output wire [NUM_QUEUES*16-1:0]  status_head
);

`include "prionic_regs.vh"

    localparam BSHIFT     = $clog2(STRB_WIDTH);        // log2 bytes per beat
    localparam [AXI_ADDR_WIDTH-1:0] BEAT_BYTES = STRB_WIDTH;  // address step per beat
    localparam DESC_BEATS = 8 / STRB_WIDTH;            // beats of the 8-byte address read
    localparam CPL_BEATS  = 16 / STRB_WIDTH;           // beats of the 16-byte write-back
    localparam integer DESC_LEN_I = DESC_BEATS - 1;
    localparam integer CPL_LEN_I  = CPL_BEATS - 1;
    localparam [7:0] DESC_LEN = DESC_LEN_I[7:0];       // arlen of the address read
    localparam [7:0] CPL_LEN  = CPL_LEN_I[7:0];        // awlen of the write-back

    initial begin
        if (DATA_WIDTH != 8 && DATA_WIDTH != 16 && DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
            $error("Error: DATA_WIDTH must be 8, 16, 32 or 64 (instance %m)");
            $finish;
        end
        if (AXI_ADDR_WIDTH < 16 || AXI_ADDR_WIDTH > 64) begin
            $error("Error: AXI_ADDR_WIDTH must be 16..64 (instance %m)");
            $finish;
        end
    end

    // states: docs/regmap.toml [enums.dma_state] (prionic_regs.vh)
    localparam [3:0]
        S_IDLE    = DMA_STATE_IDLE,
        S_SKIP    = DMA_STATE_SKIP,
        S_DESC_AR = DMA_STATE_DESC_AR,
        S_DESC_R  = DMA_STATE_DESC_R,
        S_DATA_AW = DMA_STATE_DATA_AW,
        S_DATA_W  = DMA_STATE_DATA_W,
        S_DATA_B  = DMA_STATE_DATA_B,
        S_CPL_AW  = DMA_STATE_CPL_AW,
        S_CPL_W   = DMA_STATE_CPL_W,
        S_CPL_B   = DMA_STATE_CPL_B,
        S_DROP    = DMA_STATE_DROP,
        S_OWE     = DMA_STATE_OWE;

    reg [3:0]  state_reg;
    reg        cur_err_reg;        // misaligned or too wide buffer address: no data write, error completion
    reg [QW-1:0] cur_q_reg;
    reg [7:0]  cur_queue_reg;
    reg [7:0]  cur_rule_reg;
    reg [15:0] cur_len_reg;
    reg [15:0] cur_slot_reg;
    reg [31:0] cur_ts_reg;
    reg [REC_INFO_W-1:0] cur_info_reg;
    reg [15:0] words_reg;          // frame words still to pop
    reg [15:0] cur_words_reg;      // the frame's word count
    reg [AXI_ADDR_WIDTH-1:0] addr_reg;
    reg [4:0]  burst_reg;          // W beats left in the current burst
    reg        aw_pend_reg;        // the current burst's AW is offered and not yet taken
    reg [AXI_ADDR_WIDTH-1:0] aw_addr_reg;  // the current burst's AWADDR, held while pending
    reg [7:0]  aw_len_reg;         // ... and AWLEN
    reg [63:0] desc_reg;
    reg [REC_WRITEBACK_W-1:0] cpl_reg;  // write-back, shifted out low beat first
    reg [4:0]  cpl_beats_reg;
    reg [7:0]  outstanding_reg;    // write bursts issued and not yet answered
    reg        cpl_valid_reg;
    reg [7:0]  cpl_queue_reg;
    reg [15:0] head_reg [0:NUM_QUEUES-1];
    reg [2:0]  qerr_reg [0:NUM_QUEUES-1];  // F24: the error that stopped the queue, 0 none
    reg        cur_flush_reg;      // the current frame ends unwritten (FLUSH)
    reg        cpl_flush_reg;
    reg [31:0] wd_reg;             // watchdog: edges waited for an R or B
    reg        ev_valid_reg;
    reg [2:0]  ev_code_reg;
    reg [7:0]  ev_queue_reg;
    // survive rst (initial values only): the AXI ID epoch and a burst a reset left open
    reg [AXI_ID_WIDTH-1:0] epoch_reg;
    reg [4:0]  owe_beats_reg;      // W beats still owed by that burst
    reg        owe_aw_reg;         // its AW is still to be offered
    reg [AXI_ADDR_WIDTH-1:0] owe_addr_reg;
    reg [7:0]  owe_len_reg;
    initial begin
        epoch_reg     = {AXI_ID_WIDTH{1'b0}};
        owe_beats_reg = 5'd0;
        owe_aw_reg    = 1'b0;
        owe_addr_reg  = {AXI_ADDR_WIDTH{1'b0}};
        owe_len_reg   = 8'd0;
    end

    wire [AXI_ADDR_WIDTH-1:0] ring_base = cfg_ring_base[cur_q_reg*64 +: AXI_ADDR_WIDTH];
    wire [15:0]               ring_size = cfg_ring_size[cur_q_reg*16 +: 16];
    wire [AXI_ADDR_WIDTH-1:0] desc_addr = ring_base
                                        + {{(AXI_ADDR_WIDTH-21){1'b0}}, cur_slot_reg, 5'd0};

    // burst length: up to 16 beats, never across a 16-beat boundary
    wire [3:0]  beat_in_16  = addr_reg[BSHIFT +: 4];
    wire [4:0]  room        = 5'd16 - {1'b0, beat_in_16};
    wire [4:0]  burst_beats = (words_reg < {11'd0, room}) ? words_reg[4:0] : room;

    // last-beat strobe: the low (len mod bytes-per-beat) lanes, or all of them
    wire [15:0] rem = cur_len_reg & (STRB_WIDTH[15:0] - 16'd1);
    reg  [STRB_WIDTH-1:0] last_strb;
    integer j;
    always @* begin
        for (j = 0; j < STRB_WIDTH; j = j + 1) begin
            last_strb[j] = (rem == 16'd0) || (j[15:0] < rem);
        end
    end

    // the write-back: the `writeback` record of docs/regmap.toml (descriptor bytes 16..31)
    wire [REC_WRITEBACK_W-1:0] wb_rec;
    assign wb_rec[REC_WRITEBACK_LEN_LSB +: REC_WRITEBACK_LEN_W]     = cur_err_reg ? 16'd0 : cur_len_reg;
    assign wb_rec[REC_WRITEBACK_RULE_LSB +: REC_WRITEBACK_RULE_W]   = cur_rule_reg;
    assign wb_rec[REC_WRITEBACK_QUEUE_LSB +: REC_WRITEBACK_QUEUE_W] = cur_queue_reg;
    assign wb_rec[REC_WRITEBACK_TS_LSB +: REC_WRITEBACK_TS_W]       = cur_ts_reg;
    assign wb_rec[REC_WRITEBACK_INFO_LSB +: REC_WRITEBACK_INFO_W]   = cur_info_reg[0 +: REC_WRITEBACK_INFO_W];
    assign wb_rec[REC_WRITEBACK_FLAGS_LSB +: REC_WRITEBACK_FLAGS_W] = cur_info_reg[REC_INFO_FLAGS_LSB +: REC_INFO_FLAGS_W];
    assign wb_rec[REC_WRITEBACK_RSVD_LSB +: REC_WRITEBACK_RSVD_W]   = {REC_WRITEBACK_RSVD_W{1'b0}};
    assign wb_rec[REC_WRITEBACK_ERR_LSB +: REC_WRITEBACK_ERR_W]     = cur_err_reg;
    assign wb_rec[REC_WRITEBACK_DD_LSB +: REC_WRITEBACK_DD_W]       = 1'b1;

    wire aw_hs = m_axi_awvalid && m_axi_awready;
    wire w_hs  = m_axi_wvalid && m_axi_wready;
    wire b_hs  = m_axi_bvalid && m_axi_bready;
    wire r_hs  = m_axi_rvalid && m_axi_rready;

    // the current burst's W beats are all sent (or go with this handshake) and its AW is taken
    wire w_burst_done = (burst_reg == 5'd0) || (w_hs && burst_reg == 5'd1);
    wire cpl_w_done   = (cpl_beats_reg == 5'd0) || (w_hs && cpl_beats_reg == 5'd1);
    wire aw_done      = !aw_pend_reg || aw_hs;
    wire frame_done   = (words_reg == 16'd0) || (w_hs && words_reg == 16'd1);

    /* verilator lint_off UNUSEDSIGNAL */
    wire [DATA_WIDTH+63:0] desc_shift = {m_axi_rdata, desc_reg};
    wire unused_okay = &{m_axi_bresp[0], m_axi_rresp[0]};  // OKAY and EXOKAY are both fine
    /* verilator lint_on UNUSEDSIGNAL */
    // responses of the current epoch; others are taken and ignored (F24)
    wire b_cur   = b_hs && m_axi_bid == epoch_reg;
    wire r_cur   = r_hs && m_axi_rid == epoch_reg;
    wire b_err   = b_cur && m_axi_bresp[1];   // SLVERR or DECERR
    wire r_err   = r_cur && m_axi_rresp[1];
    reg  desc_err_reg;                         // an error beat of the descriptor read so far
    wire [2:0] cur_qerr = qerr_reg[cur_q_reg];
    wire [QW-1:0] in_q  = s_meta_queue[QW-1:0];
    wire [63:0] in_ring_beyond = cfg_ring_base[in_q*64 +: 64] >> AXI_ADDR_WIDTH;
    // the watchdog runs while the engine waits for an R or a B
    wire waiting   = state_reg == S_DESC_R || (state_reg == S_DATA_B && outstanding_reg != 8'd0)
                  || state_reg == S_CPL_B;
    wire timeout   = waiting && cfg_timeout != 32'd0 && wd_reg + 32'd1 >= cfg_timeout
                  && !(state_reg == S_DESC_R ? r_cur : b_cur);
    wire [63:0]            buf_addr   = desc_shift[DATA_WIDTH +: 64];
    wire                   buf_misaligned = (buf_addr[2:0] & (3'd7 >> (3 - BSHIFT))) != 3'd0;
    // an address the bus cannot carry is an error, never truncated (F24)
    wire [63:0]            buf_beyond = buf_addr >> AXI_ADDR_WIDTH;
    wire                   buf_bad = buf_misaligned || buf_beyond != 64'd0;

    // a burst open at a reset edge: its W beats still owed after this edge, and whether
    // its AW is still to be taken; nothing is owed for a burst the slave has not seen
    wire       data_w   = state_reg == S_DATA_W;
    wire       cpl_w    = state_reg == S_CPL_W;
    wire [4:0] w_left   = data_w ? burst_reg : cpl_w ? cpl_beats_reg
                        : state_reg == S_OWE ? owe_beats_reg : 5'd0;
    wire [4:0] w_owed   = w_left - {4'd0, w_hs && w_left != 5'd0};
    wire       aw_owed  = (data_w || cpl_w) ? aw_pend_reg && !aw_hs
                        : state_reg == S_OWE ? owe_aw_reg && !aw_hs : 1'b0;
    wire [4:0] w_total  = data_w ? aw_len_reg[4:0] + 5'd1 : cpl_w ? CPL_BEATS[4:0] : 5'd31;
    // the slave has seen the burst: its AW was taken, or one of its W beats
    wire       seen     = !aw_owed || w_owed != w_total;
    // a first cycle (S_DATA_AW, S_CPL_AW) whose AW is taken now owes the whole burst
    wire       first_taken = (state_reg == S_DATA_AW || state_reg == S_CPL_AW) && aw_hs;
    wire       owe_now  = first_taken || ((data_w || cpl_w || state_reg == S_OWE) && seen);
    wire [4:0] owe_beats_now = first_taken ? (state_reg == S_DATA_AW ? burst_beats : CPL_BEATS[4:0])
                             : (w_owed);
    wire       owe_aw_now    = first_taken ? 1'b0 : aw_owed;
    wire [AXI_ADDR_WIDTH-1:0] owe_addr_now = m_axi_awaddr;
    wire [7:0] owe_len_now   = m_axi_awlen;

    integer i;
    always @(posedge clk) begin
        cpl_valid_reg <= 1'b0;
        cpl_flush_reg <= 1'b0;
        ev_valid_reg  <= 1'b0;
        outstanding_reg <= outstanding_reg + {7'd0, aw_hs && state_reg != S_OWE} - {7'd0, b_cur};
        wd_reg <= (waiting && !r_cur && !b_cur) ? wd_reg + 32'd1 : 32'd0;

        case (state_reg)
            S_IDLE: begin
                if (owe_beats_reg != 5'd0 || owe_aw_reg) begin
                    // a reset left a burst open: finish it first (nothing is written)
                    aw_pend_reg <= owe_aw_reg;
                    state_reg   <= S_OWE;
                end else if (s_meta_valid) begin
                    cur_q_reg     <= s_meta_queue[QW-1:0];
                    cur_queue_reg <= s_meta_queue;
                    cur_rule_reg  <= s_meta_rule;
                    cur_len_reg   <= s_meta_len;
                    cur_slot_reg  <= s_meta_slot;
                    cur_ts_reg    <= s_meta_ts;
                    cur_info_reg  <= s_meta_info;
                    words_reg     <= s_meta_words;
                    cur_words_reg <= s_meta_words;
                    cur_err_reg   <= 1'b0;
                    cur_flush_reg <= 1'b0;
                    desc_err_reg  <= 1'b0;
                    state_reg     <= s_meta_drop ? S_SKIP : S_DESC_AR;
                    if (!s_meta_drop && qerr_reg[in_q] != 3'd0) begin
                        cur_flush_reg <= 1'b1;          // the queue is stopped: drop it unwritten
                        state_reg     <= S_SKIP;
                    end else if (!s_meta_drop && in_ring_beyond != 64'd0) begin
                        qerr_reg[in_q] <= DMA_EVENT_RING_ERR;   // the ring is beyond the bus
                        ev_valid_reg   <= 1'b1;
                        ev_code_reg    <= DMA_EVENT_RING_ERR;
                        ev_queue_reg   <= s_meta_queue;
                        cur_flush_reg  <= 1'b1;
                        state_reg      <= S_SKIP;
                    end
                end
            end
            S_SKIP: begin
                if (s_data_valid) begin
                    words_reg <= words_reg - 16'd1;
                    if (words_reg == 16'd1) begin
                        state_reg <= cur_flush_reg ? S_DROP : cur_err_reg ? S_CPL_AW : S_IDLE;
                    end
                end
            end
            S_DROP: begin
                // a frame of a stopped queue ends unwritten; its on-chip space is given back
                cpl_valid_reg <= 1'b1;
                cpl_flush_reg <= 1'b1;
                cpl_queue_reg <= cur_queue_reg;
                ev_valid_reg  <= 1'b1;
                ev_code_reg   <= DMA_EVENT_FLUSH;
                ev_queue_reg  <= cur_queue_reg;
                state_reg     <= S_IDLE;
            end
            S_OWE: begin
                if (w_hs) begin
                    owe_beats_reg <= owe_beats_reg - 5'd1;
                end
                if (aw_hs) begin
                    owe_aw_reg <= 1'b0;
                end
                if ((owe_beats_reg == 5'd0 || (w_hs && owe_beats_reg == 5'd1)) && (!owe_aw_reg || aw_hs)) begin
                    state_reg <= S_IDLE;
                end
            end
            S_DESC_AR: begin
                if (m_axi_arvalid && m_axi_arready) begin
                    state_reg <= S_DESC_R;
                end
            end
            S_DESC_R: begin
                if (timeout) begin
                    cur_flush_reg <= 1'b1;
                    state_reg     <= S_SKIP;
                end else if (r_cur) begin
                    desc_reg <= buf_addr;
                    if (m_axi_rresp[1]) begin
                        desc_err_reg <= 1'b1;
                    end
                    if (m_axi_rlast) begin
                        addr_reg <= buf_addr[AXI_ADDR_WIDTH-1:0];
                        if (desc_err_reg || m_axi_rresp[1]) begin
                            // an error response: the data is no address (F24)
                            cur_flush_reg <= 1'b1;
                            state_reg     <= S_SKIP;
                        end else if (buf_bad) begin
                            // never truncated: an ERR write-back, the queue goes on (F24)
                            cur_err_reg  <= 1'b1;
                            state_reg    <= S_SKIP;
                            ev_valid_reg <= 1'b1;
                            ev_code_reg  <= DMA_EVENT_BUF_ERR;
                            ev_queue_reg <= cur_queue_reg;
                        end else begin
                            state_reg <= S_DATA_AW;
                        end
                    end
                end
            end
            S_DATA_AW: begin
                // AW offered now; W starts next cycle whether or not it is taken
                burst_reg   <= burst_beats;
                aw_addr_reg <= addr_reg;
                aw_len_reg  <= {3'd0, burst_beats - 5'd1};
                aw_pend_reg <= !aw_hs;
                state_reg   <= S_DATA_W;
            end
            S_DATA_W: begin
                if (w_hs) begin
                    words_reg <= words_reg - 16'd1;
                    burst_reg <= burst_reg - 5'd1;
                    addr_reg  <= addr_reg + BEAT_BYTES;
                end
                if (w_burst_done && aw_done) begin
                    state_reg <= frame_done ? S_DATA_B : S_DATA_AW;
                end
            end
            S_DATA_B: begin
                if (timeout) begin
                    cur_flush_reg <= 1'b1;
                    state_reg     <= S_DROP;
                end else if (outstanding_reg == 8'd0) begin
                    state_reg <= S_CPL_AW;
                end
            end
            S_CPL_AW: begin
                // bytes 16..31: len, rule, queue, timestamp, info, status {DD, ERR, 0, flags}
                cpl_reg <= wb_rec;
                cpl_beats_reg <= CPL_BEATS[4:0];
                aw_pend_reg   <= !aw_hs;
                state_reg     <= S_CPL_W;
            end
            S_CPL_W: begin
                if (w_hs) begin
                    cpl_reg       <= cpl_reg >> DATA_WIDTH;
                    cpl_beats_reg <= cpl_beats_reg - 5'd1;
                end
                if (cpl_w_done && aw_done) begin
                    state_reg <= S_CPL_B;
                end
            end
            S_CPL_B: begin
                // the write-back is the only burst outstanding here
                if (timeout) begin
                    cur_flush_reg <= 1'b1;
                    state_reg     <= S_DROP;
                end else if (b_cur) begin
                    cpl_valid_reg <= 1'b1;
                    cpl_queue_reg <= cur_queue_reg;
                    head_reg[cur_q_reg] <= (cur_slot_reg + 16'd1 >= ring_size)
                                           ? 16'd0 : cur_slot_reg + 16'd1;
                    state_reg <= S_IDLE;
                end
            end
            default: state_reg <= S_IDLE;
        endcase
        if (aw_hs && state_reg != S_DATA_AW && state_reg != S_CPL_AW) begin
            aw_pend_reg <= 1'b0;
        end
        // data errors mark the write-back (ERR); any error stops the queue (F24)
        if (b_err && (state_reg == S_DATA_AW || state_reg == S_DATA_W || state_reg == S_DATA_B)) begin
            cur_err_reg <= 1'b1;
        end
        // every error is reported (a read's first error beat only); the first one of a
        // running queue stops it and stays its cause
        if ((r_err && state_reg == S_DESC_R && !desc_err_reg) || b_err || timeout) begin
            if (cur_qerr == 3'd0) begin
                qerr_reg[cur_q_reg] <= timeout ? DMA_EVENT_TIMEOUT
                                     : state_reg == S_DESC_R ? DMA_EVENT_DESC_ERR
                                     : state_reg == S_CPL_B ? DMA_EVENT_WB_ERR : DMA_EVENT_DATA_ERR;
            end
            ev_valid_reg <= 1'b1;
            ev_code_reg  <= timeout ? DMA_EVENT_TIMEOUT
                          : state_reg == S_DESC_R ? DMA_EVENT_DESC_ERR
                          : state_reg == S_CPL_B ? DMA_EVENT_WB_ERR : DMA_EVENT_DATA_ERR;
            ev_queue_reg <= cur_queue_reg;
        end
        if (timeout) begin
            // abandon: whatever answers the old epoch later is ignored
            epoch_reg       <= epoch_reg + 1'b1;
            outstanding_reg <= 8'd0;
            wd_reg          <= 32'd0;
        end

        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            if (cfg_ring_rst[i] || rst) begin
                head_reg[i] <= 16'd0;
                qerr_reg[i] <= 3'd0;
            end
        end
        if (rst) begin
            // a busy engine may be owed responses: they belong to the old epoch (F24)
            if (state_reg != S_IDLE || outstanding_reg != 8'd0) begin
                epoch_reg <= epoch_reg + 1'b1;
            end
            if (owe_now) begin
                owe_beats_reg <= owe_beats_now;
                owe_aw_reg    <= owe_aw_now;
                owe_addr_reg  <= owe_addr_now;
                owe_len_reg   <= owe_len_now;
            end
            state_reg       <= S_IDLE;
            outstanding_reg <= 8'd0;
            cpl_valid_reg   <= 1'b0;
            cpl_flush_reg   <= 1'b0;
            ev_valid_reg    <= 1'b0;
            aw_pend_reg     <= 1'b0;
            wd_reg          <= 32'd0;
        end
    end

    // an entry is taken in IDLE unless a reset left a burst open (F24)
    assign s_meta_ready = state_reg == S_IDLE && owe_beats_reg == 5'd0 && !owe_aw_reg;
    wire in_data_w  = state_reg == S_DATA_W && burst_reg != 5'd0;
    wire in_cpl_w   = state_reg == S_CPL_W && cpl_beats_reg != 5'd0;
    wire in_owe_w   = state_reg == S_OWE && owe_beats_reg != 5'd0;
    wire first_aw   = state_reg == S_DATA_AW || state_reg == S_CPL_AW;
    wire cpl_aw     = state_reg == S_CPL_AW || state_reg == S_CPL_W;

    assign s_data_ready = (state_reg == S_SKIP) || (in_data_w && m_axi_wready);

    assign m_axi_awid    = epoch_reg;
    assign m_axi_awaddr  = state_reg == S_OWE ? owe_addr_reg
                         : cpl_aw ? desc_addr + 16
                         : (state_reg == S_DATA_AW) ? addr_reg : aw_addr_reg;
    assign m_axi_awlen   = state_reg == S_OWE ? owe_len_reg
                         : cpl_aw ? CPL_LEN
                         : (state_reg == S_DATA_AW) ? {3'd0, burst_beats - 5'd1} : aw_len_reg;
    assign m_axi_awsize  = BSHIFT[2:0];
    assign m_axi_awburst = 2'b01;
    assign m_axi_awlock  = 1'b0;
    assign m_axi_awcache = 4'b0011;
    assign m_axi_awprot  = 3'b000;
    assign m_axi_awvalid = first_aw || aw_pend_reg;
    assign m_axi_wdata   = in_data_w ? s_data : in_owe_w ? {DATA_WIDTH{1'b0}} : cpl_reg[DATA_WIDTH-1:0];
    assign m_axi_wstrb   = in_owe_w ? {STRB_WIDTH{1'b0}}
                         : (in_data_w && words_reg == 16'd1) ? last_strb : {STRB_WIDTH{1'b1}};
    assign m_axi_wlast   = in_data_w ? burst_reg == 5'd1 : in_owe_w ? owe_beats_reg == 5'd1
                         : cpl_beats_reg == 5'd1;
    assign m_axi_wvalid  = (in_data_w && s_data_valid) || in_cpl_w || in_owe_w;
    assign m_axi_bready  = 1'b1;

    assign m_axi_arid    = epoch_reg;
    assign m_axi_araddr  = desc_addr;
    assign m_axi_arlen   = DESC_LEN;
    assign m_axi_arsize  = BSHIFT[2:0];
    assign m_axi_arburst = 2'b01;
    assign m_axi_arlock  = 1'b0;
    assign m_axi_arcache = 4'b0011;
    assign m_axi_arprot  = 3'b000;
    assign m_axi_arvalid = state_reg == S_DESC_AR;
    assign m_axi_rready  = 1'b1;   // beats of another epoch are taken and ignored (F24)

    assign m_cpl_valid = cpl_valid_reg;
    assign m_cpl_queue = cpl_queue_reg;
    assign m_cpl_words = cur_words_reg;  // held until the next entry is taken
    assign m_cpl_flush = cpl_flush_reg;

    assign stat_dma_valid = ev_valid_reg;
    assign stat_dma_code  = ev_code_reg;
    assign stat_dma_queue = ev_queue_reg;

    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_head
            assign status_head[g*16 +: 16] = head_reg[g];
            assign status_qerr[g*3 +: 3]   = qerr_reg[g];
        end
    endgenerate

endmodule

`resetall
