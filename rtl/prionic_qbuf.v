// SPDX-License-Identifier: MIT
//
// prionic_qbuf: per-queue on-chip buffering and strict-priority service (F11). Admitted
// frames arrive in admission order (entries from prionic_admit, words from the shared
// frame FIFO, DATA_WIDTH wide: the AXI width, WORD_RATIO stream words per word). A mover
// copies each delivered frame, a word per cycle, into the buffer of its queue and discards
// the words of dropped frames. A frame becomes visible to the output when its copy starts
// (cut-through, F25): the whole frame is already in the frame FIFO then (admission follows
// tlast), so its words follow at one per cycle. The output hands frames to the DMA engine,
// always from the queue with the highest QUEUE_PRIO that holds a visible frame (ties: the
// higher queue index), so a backlog in a low queue never delays a higher queue by more
// than the frame the DMA is already writing and the one being copied. Per queue, order is
// kept.
//
// Each queue buffer holds at least one frame of MAX_FRAME_LEN, so the mover can always
// finish a frame once the output drains that queue; when a buffer is full the mover
// waits (the shared FIFO then absorbs the stream).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_qbuf #(
    parameter DATA_WIDTH       = 32,             // word width (the AXI width), 8..128
    parameter WORD_RATIO       = 1,              // stream words per word (1, 2 or 4): s_meta_words counts stream words
    parameter NUM_QUEUES       = 2,              // receive queues (1..16)
    parameter QBUF_ADDR_WIDTH  = 9,              // log2 words of each queue's buffer
    parameter QMETA_ADDR_WIDTH = 4,              // log2 frames each queue buffer tracks
    parameter MAX_FRAME_LEN    = 1518,           // the largest frame it must hold
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1  // queue index width
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [NUM_QUEUES*8-1:0]  cfg_queue_prio,

    // entries in admission order, and the shared FIFO's words
    input  wire                     s_meta_valid,
    output wire                     s_meta_ready,
`include "prionic_records.vh"
    input  wire [`PRIONIC_REC_META_W-1:0] s_meta,  // the `meta` record of docs/regmap.toml
    // s_meta_words == 0, and s_meta_words is 1..WORD_RATIO (one word of this width):
    // computed by the producer beside the entry (the top stores them with it, timing: F25),
    // so the mover's take decision does not wait for a 16-bit compare behind the entry
    input  wire                     s_meta_none,
    input  wire                     s_meta_one,
    input  wire [DATA_WIDTH-1:0]    s_data,
    input  wire                     s_data_valid,
    output wire                     s_data_ready,

    // whole delivered frames in priority order (to prionic_dma; drop is always 0)
    output wire                     m_meta_valid,
    input  wire                     m_meta_ready,
    output wire [`PRIONIC_REC_META_W-1:0] m_meta,
    output wire [DATA_WIDTH-1:0]    m_data,
    output wire                     m_data_valid,
    input  wire                     m_data_ready
);

`include "prionic_regs.vh"

    localparam integer MAX_WORDS = (MAX_FRAME_LEN + DATA_WIDTH / 8 - 1) / (DATA_WIDTH / 8);
    localparam integer RSHIFT = WORD_RATIO > 1 ? $clog2(WORD_RATIO) : 0;
    localparam integer RM1_I = WORD_RATIO - 1;
    localparam [15:0] RM1 = RM1_I[15:0];
    // a queue's entries: the `meta` record of docs/regmap.toml (drop is always 0 here)
    localparam integer MW = REC_META_W;
    wire          s_meta_drop  = s_meta[REC_META_DROP_LSB +: REC_META_DROP_W];
    wire [15:0]   s_meta_words = s_meta[REC_META_WORDS_LSB +: REC_META_WORDS_W];
    reg  [MW-1:0] s_meta_rec;      // stored with drop 0
    always @* begin
        s_meta_rec = s_meta;
        s_meta_rec[REC_META_DROP_LSB +: REC_META_DROP_W] = {REC_META_DROP_W{1'b0}};
    end

    initial begin
        if ((1 << QBUF_ADDR_WIDTH) < MAX_WORDS) begin
            $error("Error: QBUF_ADDR_WIDTH too small for a MAX_FRAME_LEN frame (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ mover
    localparam [1:0] M_IDLE = 2'd0, M_SKIP = 2'd1, M_COPY = 2'd2;

    reg [1:0]    mstate_reg;
    // mstate_reg one-hot, registered beside it (timing: F25), M_COPY as one bit per queue
    // (mc_hot_reg[g]: copying a frame of queue g): the take decision and the queue
    // buffers' push read single flip-flops, no decodes of the state and the queue
    reg          m_idle_reg, m_skip_reg;
    reg [NUM_QUEUES-1:0] mc_hot_reg;
    reg [15:0]   mwords_reg;
    reg          mlast_reg;           // mwords_reg == 1 (set with it, F25)

    wire [NUM_QUEUES-1:0] qd_s_ready, qm_s_ready, qm_m_valid, qd_m_valid;
    wire [NUM_QUEUES*DATA_WIDTH-1:0] qd_m_data;
    wire [NUM_QUEUES*MW-1:0]         qm_m_data;

    wire [QW-1:0] in_q = s_meta[REC_META_QUEUE_LSB +: QW];
    wire [15:0]   in_words = (s_meta_words + RM1) >> RSHIFT;   // words of this width
    wire copy = s_data_valid && |(mc_hot_reg & qd_s_ready);
    wire skip = m_skip_reg && s_data_valid;
    wire last = mlast_reg;
    // in_words == 0 and == 1 without the adder: a stream word count of 0, or 1..WORD_RATIO
    wire in_none = s_meta_none;
    wire in_one  = s_meta_one;
    // take the next entry when idle, or in the cycle that moves the last word, so
    // back-to-back frames move at one word per cycle; a queue's entry count never
    // exceeds its buffer's because admission reserves it (qm_s_ready is a safety net).
    // A delivered frame's entry is pushed to its queue when it is taken (cut-through).
    // (timing: F25) the entry's part (from the entry FIFO's read) and the mover's part
    // (from registers) are formed apart and meet in one gate
    wire meta_ok = s_meta_valid && (s_meta_drop || qm_s_ready[in_q]);
    wire move    = copy || skip;
    wire take    = (m_idle_reg || (move && last)) && meta_ok;

    assign s_meta_ready = take;
    assign s_data_ready = copy || skip;

    reg [1:0] mstate_nxt;
    always @* begin
        mstate_nxt = mstate_reg;
        if ((copy || skip) && last) begin
            mstate_nxt = M_IDLE;
        end
        if (take) begin  // idle, or the last word of the previous frame moves now
            mstate_nxt = s_meta_drop ? M_SKIP : M_COPY;
            if (in_none) begin
                mstate_nxt = M_IDLE;
            end
        end
    end

    integer mh;
    always @(posedge clk) begin
        mstate_reg <= mstate_nxt;
        m_idle_reg <= mstate_nxt == M_IDLE;
        m_skip_reg <= mstate_nxt == M_SKIP;
        for (mh = 0; mh < NUM_QUEUES; mh = mh + 1) begin
            // staying in M_COPY without a take keeps the queue
            mc_hot_reg[mh] <= mstate_nxt == M_COPY && (take ? in_q == mh[QW-1:0] : mc_hot_reg[mh]);
        end
        if (copy || skip) begin
            mwords_reg <= mwords_reg - 16'd1;
            mlast_reg  <= mwords_reg == 16'd2;
        end
        if (take) begin
            mwords_reg <= in_words;
            mlast_reg  <= in_one;
        end
        if (rst) begin
            mstate_reg <= M_IDLE;
            m_idle_reg <= 1'b1;
            m_skip_reg <= 1'b0;
            mc_hot_reg <= {NUM_QUEUES{1'b0}};
        end
    end

    // ------------------------------------------------------------------ queue buffers
    // output side state, needed by the pops below
    reg          ostate_reg;          // 0: offering the best entry, 1: streaming its words
    reg [QW-1:0] osel_reg;
    reg [15:0]   owords_reg;
    // kept beside them (timing: F25): owords_reg == 1, and ostate_reg && osel_reg == g per
    // queue, so the DMA's ready pops the streamed queue's word and ends the stream through
    // one gate each; sel_one_reg: the offered entry's word count is 1 (stored with it)
    reg          oone_reg;
    reg [NUM_QUEUES-1:0] os_hot_reg;
    reg          sel_one_reg;
    wire [NUM_QUEUES-1:0] qm_m_one;
    reg          best_valid;
    reg [QW-1:0] best_q;
    // the offered entry, registered: the best choice of the edge before (F25)
    reg          sel_valid_reg;
    reg [QW-1:0] sel_q_reg;
    reg [MW-1:0] sel_meta_reg;
    wire         meta_hs = !ostate_reg && sel_valid_reg && m_meta_ready;
    // sel_valid_reg && !ostate_reg && sel_q_reg == g, per queue, set beside them (F25: the
    // DMA's ready pops the offered queue's entry through one gate)
    reg [NUM_QUEUES-1:0] sel_hot_reg;

    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_q
            wire [QBUF_ADDR_WIDTH:0]  qd_count;
            wire [QMETA_ADDR_WIDTH:0] qm_count;

            /* verilator lint_off PINCONNECTEMPTY */
            prionic_fifo #(
                .WIDTH(DATA_WIDTH),
                .ADDR_WIDTH(QBUF_ADDR_WIDTH),
                .OUTPUT_REG(1)
            ) data_fifo_inst (
                .clk(clk),
                .rst(rst),
                .s_data(s_data),
                .s_valid(copy && mc_hot_reg[g]),
                .s_ready(qd_s_ready[g]),
                .m_data(qd_m_data[g*DATA_WIDTH +: DATA_WIDTH]),
                .m_valid(qd_m_valid[g]),
                .m_ready(os_hot_reg[g] && m_data_ready),
                .status_count(qd_count)
            );

            prionic_fifo #(
                .WIDTH(MW + 1),
                .ADDR_WIDTH(QMETA_ADDR_WIDTH)
            ) meta_fifo_inst (
                .clk(clk),
                .rst(rst),
                .s_data({in_one, s_meta_rec}),
                .s_valid(take && !s_meta_drop && in_q == g),
                .s_ready(qm_s_ready[g]),
                .m_data({qm_m_one[g], qm_m_data[g*MW +: MW]}),
                .m_valid(qm_m_valid[g]),
                .m_ready(sel_hot_reg[g] && m_meta_ready),
                .status_count(qm_count)
            );
            /* verilator lint_on PINCONNECTEMPTY */

            /* verilator lint_off UNUSEDSIGNAL */
            wire unused = &{qd_count, qm_count};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    // ------------------------------------------------------------------ output
    // the best queue with a complete frame: highest QUEUE_PRIO, ties to the higher index.
    // Timing (F25): one compare per pair of queues, from the configuration's flip-flops
    // (ge[i][j]: QUEUE_PRIO[i] >= QUEUE_PRIO[j], for j < i), beside the others; win[i] ANDs
    // them with the queues' valid flags (no compare behind the choice among earlier queues)
    reg [NUM_QUEUES*NUM_QUEUES-1:0] ge;
    reg [NUM_QUEUES-1:0]            win;   // one-hot (or 0): the best queue
    integer i, j;
    always @* begin
        ge = {NUM_QUEUES*NUM_QUEUES{1'b0}};
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            for (j = 0; j < i; j = j + 1) begin
                ge[i*NUM_QUEUES + j] = cfg_queue_prio[i*8 +: 8] >= cfg_queue_prio[j*8 +: 8];
            end
        end
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            win[i] = qm_m_valid[i];
            for (j = 0; j < NUM_QUEUES; j = j + 1) begin
                if (j < i) begin         // i wins a tie with a lower queue
                    win[i] = win[i] && (!qm_m_valid[j] || ge[i*NUM_QUEUES + j]);
                end else if (j > i) begin   // ... and loses one to a higher queue
                    win[i] = win[i] && (!qm_m_valid[j] || !ge[j*NUM_QUEUES + i]);
                end
            end
        end
        best_valid = |qm_m_valid;
        best_q = {QW{1'b0}};
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            best_q = best_q | ({QW{win[i]}} & i[QW-1:0]);
        end
    end

    // the choice is made again at every edge until the DMA takes the entry (registered, so
    // the DMA's decode starts from flip-flops), so a frame that becomes visible in a higher
    // queue meanwhile goes first; the edge an entry is taken the choice is void (the taken
    // queue's next entry is not yet at its FIFO's output) and it is made again at the next
    // edge, while the taken frame streams. osel_reg names the queue being streamed.
    // the output stage offers at the next edge: it is not streaming then
    wire offer_next = !meta_hs && (!ostate_reg || (m_data_valid && m_data_ready && oone_reg));
    integer h;
    always @(posedge clk) begin
        for (h = 0; h < NUM_QUEUES; h = h + 1) begin
            sel_hot_reg[h] <= win[h] && !meta_hs && offer_next && !rst;
        end
        sel_valid_reg <= best_valid && !meta_hs;
        sel_q_reg     <= best_q;
        sel_meta_reg  <= qm_m_data[best_q*MW +: MW];
        sel_one_reg   <= qm_m_one[best_q];
        if (meta_hs) begin
            ostate_reg <= 1'b1;
            osel_reg   <= sel_q_reg;
            owords_reg <= (sel_meta_reg[REC_META_WORDS_LSB +: REC_META_WORDS_W] + RM1) >> RSHIFT;
            oone_reg   <= sel_one_reg;
            for (h = 0; h < NUM_QUEUES; h = h + 1) begin
                os_hot_reg[h] <= sel_q_reg == h[QW-1:0];
            end
        end else if (ostate_reg && m_data_valid && m_data_ready) begin
            owords_reg <= owords_reg - 16'd1;
            oone_reg   <= owords_reg == 16'd2;
            if (oone_reg) begin
                ostate_reg <= 1'b0;
                os_hot_reg <= {NUM_QUEUES{1'b0}};
            end
        end
        if (rst) begin
            ostate_reg    <= 1'b0;
            os_hot_reg    <= {NUM_QUEUES{1'b0}};
            osel_reg      <= {QW{1'b0}};
            sel_valid_reg <= 1'b0;
        end
    end

    assign m_meta_valid = !ostate_reg && sel_valid_reg;
    assign m_meta       = sel_meta_reg;   // stored with drop 0
    assign m_data       = qd_m_data[osel_reg*DATA_WIDTH +: DATA_WIDTH];
    assign m_data_valid = |(os_hot_reg & qd_m_valid);

endmodule

`resetall
