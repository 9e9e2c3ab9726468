// SPDX-License-Identifier: MIT
//
// prionic_dma_prefetch: the descriptor prefetch engine of prionic_dma (F12, F24), an AXI4
// read master, and the queues' DMA windows. Independent of the write side, it keeps one
// buffer address per queue read ahead: it reads slot PF of queue q (RING_BASE + 32*PF,
// the 8 address bytes: one INCR burst of ceil(8 / bytes per beat) beats) only when that
// slot is posted (PF != RING_TAIL), so a frame admitted to a slot finds its address
// already read. Of the queues that want a read, the lowest goes first. A ring reset
// forgets the queue's prefetched address and sets PF to slot 0.
//
// DMA window (F24, docs/faults.md section 4): per queue, the naturally aligned
// 2^DMA_WIN_BITS bytes around DMA_WIN. The flags are registered from the configuration:
// ring_bad[q] (a ring base beyond the bus, after one edge, or a ring not wholly inside the
// window, after three) is the write side's RING_ERR; a buffer address that is misaligned
// to the bus width, has bits at or above AXI_ADDR_WIDTH or lies outside the window makes
// pf_bad (BUF_ERR), and pf_fit is the bytes from the address to the window's end (or the
// top of the bus, at most 2^16). A ring reset (which every window write makes) holds the
// queue's reads until the flags have settled (three edges).
//
// Ports: a queue is read only while q_running[q] (not stopped by an error), its ring has
// at least two slots, lies on the bus and in its window, and the write side holds no
// write-back of it (hold inputs: wb_pend/wb_q the owed write-back, cpl_blk/cpl_bw && b_cur
// from the edge the current frame's write-back starts, so a read error never falls between
// a write-back and its B). pf_take[q] clears the queue's address (a frame took it). w_event: the write side
// reports an event this edge; RREADY is its inverse, and a read event waits.
// Out: per queue pf_valid, pf_bad, pf_addr, pf_room (beats from the address to its 16-beat
// boundary), pf_rw ((pf_room - 1) * RATIO, stream words), pf_fit; rd_busy/rd_q the read
// out and its queue; rd_ev the read's event (the first error beat of a current read, or
// the read timeout), rd_code its DMA_EVENT code. pf_fit_wr, pf_fit_far, pf_fit_left: pf_fit's
// next value (the queue whose pf_fit this edge writes, and the value: 2^16 if far, else
// left + 1), so that the write side can keep its fit compare as a register set beside
// pf_fit (F25).
//
// Cycles: AR one cycle after the choice (R_IDLE -> R_AR), held until ARREADY; R until the
// last beat or DMA_TIMEOUT edges without one, both only with RREADY high. The address is
// valid from the edge after a good last beat of a current, not stale, read. The read ID
// is an epoch: it advances at a read timeout and at a rst that finds a read out; a beat of
// another epoch is taken and ignored. The epoch survives rst; bus_rst clears it.
// Implements docs/frame-path.md section 4.1 (prefetch) and docs/faults.md sections 2, 4.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_dma_prefetch #(
    parameter DATA_WIDTH     = 32,                 // stream width, 8..64
    parameter AXI_DATA_WIDTH = DATA_WIDTH,         // DATA_WIDTH * 1, 2 or 4, 8..128
    parameter AXI_ADDR_WIDTH = 32,
    parameter AXI_ID_WIDTH   = 4,
    parameter NUM_QUEUES     = 2,
    parameter QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      bus_rst,

    input  wire [NUM_QUEUES*64-1:0]  cfg_ring_base,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_size,
    input  wire [NUM_QUEUES*16-1:0]  cfg_ring_tail,
    input  wire [NUM_QUEUES-1:0]     cfg_ring_rst,
    input  wire [31:0]               cfg_timeout,
    input  wire [NUM_QUEUES*64-1:0]  cfg_win_base,
    input  wire [NUM_QUEUES*8-1:0]   cfg_win_bits,

    // the write side
    input  wire [NUM_QUEUES-1:0]     q_running,    // per queue: not stopped
    input  wire                      w_event,      // an event of the write side this edge
    input  wire                      wb_pend,      // a write-back owes its B ...
    input  wire [QW-1:0]             wb_q,         // ... of this queue
    input  wire                      cpl_blk,      // the current frame's write-back has started
    input  wire                      cpl_bw,       // ... with this edge's B (b_cur)
    input  wire                      b_cur,
    input  wire [QW-1:0]             cur_q,        // the current frame's queue
    input  wire [NUM_QUEUES-1:0]     pf_take,      // a frame takes the queue's address

    output wire [NUM_QUEUES-1:0]     ring_bad,     // RING_ERR: beyond the bus or out of the window
    output reg  [NUM_QUEUES-1:0]     pf_valid,
    output reg  [NUM_QUEUES-1:0]     pf_bad,
    output reg  [NUM_QUEUES*AXI_ADDR_WIDTH-1:0] pf_addr,
    output reg  [NUM_QUEUES*5-1:0]   pf_room,
    output reg  [NUM_QUEUES*7-1:0]   pf_rw,
    output reg  [NUM_QUEUES*17-1:0]  pf_fit,
    output wire [NUM_QUEUES-1:0]     pf_fit_wr,    // pf_fit[q] is written at this edge: with 2^16 if
    output wire                      pf_fit_far,   // ... this, else with pf_fit_left + 1
    output wire [15:0]               pf_fit_left,
    output wire                      rd_busy,      // a read is out (AR or R) ...
    output wire [QW-1:0]             rd_q,         // ... for this queue
    output wire                      rd_ev,        // a read event (reported when !w_event)
    output wire [3:0]                rd_code,

    // AXI4 master, read channels AR and R (rtl/prionic_axi.vh)
    `PRIONIC_AXI_M_READ_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH)
);

`include "prionic_regs.vh"

    localparam STRB_WIDTH = AXI_DATA_WIDTH / 8;
    localparam BSHIFT     = $clog2(STRB_WIDTH);        // log2 bytes per beat
    localparam RATIO      = AXI_DATA_WIDTH / DATA_WIDTH;
    localparam RSHIFT     = RATIO > 1 ? $clog2(RATIO) : 0;
    localparam DESC_BEATS = STRB_WIDTH >= 8 ? 1 : 8 / STRB_WIDTH;  // beats of the 8-byte address read
    localparam integer DESC_LEN_I = DESC_BEATS - 1;
    localparam [7:0] DESC_LEN = DESC_LEN_I[7:0];       // arlen of the address read
    localparam AW = AXI_ADDR_WIDTH;
    localparam [1:0] R_IDLE = 2'd0, R_AR = 2'd1, R_R = 2'd2;

    // ------------------------------------------------------------------ DMA window (F24)
    // per queue, registered from the configuration in two steps: win_low the offset bits
    // (below DMA_WIN_BITS) within the bus width, win_base the base, win_void a base with
    // bits beyond the bus that the window does not ignore (no address is in it); then
    // out: the ring [RING_BASE, RING_BASE + 32*RING_SIZE) is not inside. beyond: the
    // ring base is beyond the bus (F25: RING_BASE changes only while its queue is idle)
    wire [NUM_QUEUES*AW-1:0] win_low;
    wire [NUM_QUEUES*AW-1:0] win_base;
    wire [NUM_QUEUES-1:0]    win_void;
    wire [NUM_QUEUES-1:0]    settled;         // no ring reset in the last three edges
    // RING_SIZE and RING_SIZE >= 2 as flip-flops one edge behind the input (F25). Exact:
    // RING_SIZE changes only at a write's edge w, which raises cfg_ring_rst for w+1, and
    // a ring reset holds the queue's reads for three edges and restarts its slot (the
    // register block; the block tests keep the contract), or during rst
    wire [NUM_QUEUES*16-1:0] ring_size;
    wire [NUM_QUEUES-1:0]    ring_big;
    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_win
            // wlow = 2^DMA_WIN_BITS - 1 (all ones from 64 on), as a thermometer: bit i is
            // DMA_WIN_BITS > i, one compare with a constant per bit (F25: no carry chain)
            reg  [63:0] wlow;
            integer b;
            always @* begin
                for (b = 0; b < 64; b = b + 1) begin
                    wlow[b] = b[7:0] < cfg_win_bits[g*8 +: 8];
                end
            end
            wire [64:0] rlast = {1'b0, cfg_ring_base[g*64 +: 64]} + {44'd0, cfg_ring_size[g*16 +: 16], 5'd0} - 65'd1;
            reg  [AW-1:0] low_reg, base_reg, first_reg;
            reg  [AW:0]   last_reg;           // the ring's last byte, bit AW: beyond the bus
            reg           void_reg;
            reg           bad_reg;            // beyond the bus, or out of the window
            reg  [2:0]    settle_reg;         // cfg_ring_rst delayed 1..3 edges
            reg  [15:0]   size_reg;
            reg           big_reg;
            always @(posedge clk) begin
                size_reg   <= cfg_ring_size[g*16 +: 16];
                big_reg    <= !rst && cfg_ring_size[g*16 +: 16] >= 16'd2;
                low_reg    <= wlow[AW-1:0];
                base_reg   <= cfg_win_base[g*64 +: AW];
                void_reg   <= ((cfg_win_base[g*64 +: 64] & ~wlow) >> AW) != 64'd0;
                first_reg  <= cfg_ring_base[g*64 +: AW];
                last_reg   <= {(rlast >> AW) != 65'd0, rlast[AW-1:0]};
                // one flip-flop for both flags (F25: one LUT less in front of the write side's
                // event): the base beyond the bus from the configuration, the ring out of the
                // window from the flip-flops above
                bad_reg    <= (cfg_ring_base[g*64 +: 64] >> AW) != 64'd0
                    || void_reg || last_reg[AW]
                    || (((first_reg ^ base_reg) & ~low_reg) != {AW{1'b0}})
                    || (((last_reg[AW-1:0] ^ base_reg) & ~low_reg) != {AW{1'b0}});
                settle_reg <= {settle_reg[1:0], cfg_ring_rst[g] || rst};
            end
            assign win_low[g*AW +: AW]  = low_reg;
            assign win_base[g*AW +: AW] = base_reg;
            assign win_void[g]          = void_reg;
            assign settled[g]           = settle_reg == 3'd0;
            assign ring_bad[g]          = bad_reg;
            assign ring_size[g*16 +: 16] = size_reg;
            assign ring_big[g]          = big_reg;
        end
    endgenerate

    // ------------------------------------------------------------------ the read engine
    reg  [1:0]  rstate_reg;        // R_IDLE, R_AR, R_R
    reg [QW-1:0] rq_reg;
    reg         rstale_reg;        // the ring was reset while its read was out: forget it
    reg         desc_err_reg;      // an error beat of the descriptor read so far
    reg  [63:0] desc_reg;
    reg  [15:0] pf_slot_reg [0:NUM_QUEUES-1];
    reg  [31:0] rwd_reg;           // read watchdog: edges waited for an R
    reg         rwd_hit_reg;       // rwd_reg + 1 >= DMA_TIMEOUT (not 0), set beside it (F25)
    // the read ID's epoch: survives rst (initial value only; bus_rst clears it)
    reg [AXI_ID_WIDTH-1:0] repoch_reg;
    initial repoch_reg = {AXI_ID_WIDTH{1'b0}};

    wire [AW-1:0] rbase      = cfg_ring_base[rq_reg*64 +: AW];
    wire [15:0]   rslot      = pf_slot_reg[rq_reg];
    wire [15:0]   rsize      = ring_size[rq_reg*16 +: 16];
    wire [AW-1:0] rdesc_addr = rbase + {{(AW-21){1'b0}}, rslot, 5'd0};

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_okay = &{1'b0, m_axi_rresp[0]};   // OKAY and EXOKAY are both fine
    /* verilator lint_on UNUSEDSIGNAL */
    // r_cur_if: a beat of the current read if RREADY is high (!w_event); the updates are
    // made from it and gated by !w_event last, so the write side's event decode runs beside
    // them (F25)
    wire r_cur_if = m_axi_rvalid && m_axi_rid == repoch_reg && rstate_reg == R_R;
    wire r_cur    = m_axi_rvalid && m_axi_rready && m_axi_rid == repoch_reg && rstate_reg == R_R;

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
    wire [63:0] buf_beyond = buf_addr >> AW;
    // ... or outside the queue's DMA window (F24); and the bytes from it to the window's end
    // (or the top of the bus), at most 2^16: a frame longer than that is a BUF_ERR too
    wire [AW-1:0] r_win_low  = win_low[rq_reg*AW +: AW];
    wire          buf_out    = win_void[rq_reg]
                            || ((buf_addr[AW-1:0] ^ win_base[rq_reg*AW +: AW]) & ~r_win_low) != {AW{1'b0}};
    wire [AW-1:0] buf_left   = ~buf_addr[AW-1:0] & r_win_low;   // bytes after the address's first
    wire          buf_far    = (buf_left >> 16) != {AW{1'b0}};
    wire [16:0]   buf_fit    = buf_far ? 17'h10000 : {1'b0, buf_left[15:0]} + 17'd1;
    wire          buf_bad    = buf_misaligned || buf_beyond != 64'd0 || buf_out;

    // the choice: the lowest queue whose next posted slot is not yet read (not while the
    // queue owes a write-back's B, nor from the edge its write-back starts). The part that
    // waits for b_cur meets the queue's other conditions in its last step (F25). The ring's
    // flags are the registered ring_bad (beyond the bus or out of the window): exact, as
    // every RING_BASE write raises cfg_ring_rst and settled waits three edges after it
    reg  [NUM_QUEUES-1:0] pf_ok;
    reg          pf_want;
    reg [QW-1:0] pf_q;
    integer k;
    always @* begin
        pf_want = 1'b0;
        pf_q = {QW{1'b0}};
        for (k = NUM_QUEUES - 1; k >= 0; k = k - 1) begin
            pf_ok[k] = !pf_valid[k] && pf_slot_reg[k] != cfg_ring_tail[k*16 +: 16]
                && ring_big[k] && q_running[k] && !cfg_ring_rst[k]
                && !ring_bad[k] && settled[k]
                && !(wb_pend && wb_q == k[QW-1:0])
                && !((cpl_blk || (cpl_bw && b_cur)) && cur_q == k[QW-1:0]);
            if (pf_ok[k]) begin
                pf_want = 1'b1;
                pf_q = k[QW-1:0];
            end
        end
    end

    // the read timeout (rtimeout_if: if RREADY is high)
    wire rtimeout    = rstate_reg == R_R && rwd_hit_reg && !r_cur && !w_event;
    wire rtimeout_if = rstate_reg == R_R && rwd_hit_reg && !r_cur_if;
    wire rwd_zero    = rst || rtimeout || !(rstate_reg == R_R && !r_cur);
    always @(posedge clk) begin
        rwd_hit_reg <= cfg_timeout != 32'd0 && (rwd_zero ? cfg_timeout == 32'd1
                                                : {1'b0, rwd_reg} + 33'd2 >= {1'b0, cfg_timeout});
    end

    // the read's event (with RREADY high): the read timeout, or the first error beat
    assign rd_ev   = rstate_reg == R_R && !rstale_reg
                  && (r_cur_if ? m_axi_rresp[1] && !desc_err_reg : rwd_hit_reg);
    assign rd_code = r_cur_if ? DMA_EVENT_DESC_ERR : DMA_EVENT_TIMEOUT;
    assign rd_busy = rstate_reg != R_IDLE;
    assign rd_q    = rq_reg;

    integer i;
    always @(posedge clk) begin
        rwd_reg <= (rstate_reg == R_R && !r_cur) ? rwd_reg + 32'd1 : 32'd0;
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
                    end else if (r_cur_if) begin
                        desc_reg <= buf_addr;
                        if (m_axi_rresp[1]) begin
                            desc_err_reg <= 1'b1;
                        end
                    end
                end
            end
            default: ;
        endcase
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            if (cfg_ring_rst[i] || rst) begin
                if (rstate_reg != R_IDLE && rq_reg == i[QW-1:0]) begin
                    rstale_reg <= 1'b1;
                end
            end
        end
        if (rst) begin
            if (rstate_reg != R_IDLE) begin   // an AR may be taken at this very edge
                repoch_reg <= repoch_reg + 1'b1;
            end
            rwd_reg <= 32'd0;
        end
        if (bus_rst) begin
            repoch_reg <= {AXI_ID_WIDTH{1'b0}};
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
    // good, not stale) until a frame takes it or a ring reset; the beat's update made as if
    // RREADY were high and gated by w_event in the last step (F25)
    wire pf_set_if = r_cur_if && m_axi_rlast && !desc_err_reg && !m_axi_rresp[1] && !rstale_reg;
    integer v;

    // the address and its flags, and the queue's next slot, are written at a good last beat
    // whether RREADY is high or not (F25: the write side's event is not behind these flip-
    // flops). Exact: a beat not taken is presented again unchanged (AXI4 A3.2.1) and writes
    // the same values again; pf_valid[rq_reg] stays low until the beat is taken (the queue
    // was chosen with it low), so nothing reads them in between; the next slot is registered
    // in R_AR (rnext_reg), so a repeated write is the same write; a ring reset or rst in
    // between clears the slot, and makes the read stale, so the beat when taken writes nothing
    reg [15:0] rnext_reg;          // the slot after the one being read
    integer u;
    always @(posedge clk) begin
        if (rstate_reg == R_AR) begin
            rnext_reg <= (rslot + 16'd1 >= rsize) ? 16'd0 : rslot + 16'd1;
        end
        if (pf_set_if) begin
            pf_bad[rq_reg]           <= buf_bad;
            pf_addr[rq_reg*AW +: AW] <= buf_addr[AW-1:0];
            pf_room[rq_reg*5 +: 5]   <= 5'd16 - {1'b0, buf_addr[BSHIFT +: 4]};
            pf_fit[rq_reg*17 +: 17]  <= buf_fit;
            pf_rw[rq_reg*7 +: 7]     <= {3'd0, ~buf_addr[BSHIFT +: 4]} << RSHIFT;
            pf_slot_reg[rq_reg]      <= rnext_reg;
        end
        for (u = 0; u < NUM_QUEUES; u = u + 1) begin
            if (cfg_ring_rst[u] || rst) begin
                pf_slot_reg[u] <= 16'd0;
            end
        end
    end
    // (pf_fit_wr: exactly the condition of pf_fit's write above)
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_fwr
            assign pf_fit_wr[g] = pf_set_if && rq_reg == g[QW-1:0];
        end
    endgenerate
    assign pf_fit_far  = buf_far;
    assign pf_fit_left = buf_left[15:0];
    always @(posedge clk) begin
        for (v = 0; v < NUM_QUEUES; v = v + 1) begin
            pf_valid[v] <= !(cfg_ring_rst[v] || rst)
                && ((pf_set_if && rq_reg == v[QW-1:0] && !w_event)
                    || (pf_valid[v] && !pf_take[v]));
        end
    end

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

endmodule

`resetall
