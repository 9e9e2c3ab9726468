// SPDX-License-Identifier: MIT
//
// prionic_dma_owe: the reset-owe finisher of prionic_dma (F24, docs/faults.md section 2).
// A reset of the NIC alone (rst without bus_rst) may cut a write burst whose AW or some W
// beats the slave has already taken; AXI lets no burst end early, so the burst is finished
// after the reset with its remaining W beats, every strobe off (nothing is written), and
// its AW if that was still to be taken, under its own AWID (of the epoch before the reset,
// so its B is ignored). prionic_dma_write runs that finish in its state OWE.
//
// It follows the write engine's open burst every cycle (ow_*: the W beats left, whether
// the AW is pending and whether a W beat was taken), set at the edge before, so that at a
// rst edge the owed burst is only picked with that edge's handshakes (F25):
// * in the burst's first cycle (S_DATA_AW: burst_len beats, S_CPL_AW: CPL_BEATS beats)
//   from the length and this cycle's handshakes; in S_DATA_W, S_CPL_W and S_OWE from the
//   ow_* flops;
// * nothing is owed for a burst the slave has not seen (no AW and no W beat taken) or
//   that ends at the reset edge.
//
// Ports: state/st_* the write engine's state (binary and one-hot), burst_len the length
// of the burst S_DATA_AW starts, burst/cpl_beats the W beats left of a data burst and of the
// write-back, w_burst_done/cpl_w_done/aw_done the write engine's burst-end terms, aw_pend
// the AW pending, aw_hs/w_hs this cycle's handshakes, awid/awaddr/awlen what is offered.
// Out, about the burst a reset cut (cut_*): cut_done (nothing of it is owed: the write
// engine takes entries), cut_aw (its AW is still to be offered), cut_nz (W beats are owed:
// WVALID in OWE), cut_last (one beat left: WLAST), cut_exit (in OWE: the burst ends at this
// edge), cut_id/cut_addr/cut_len its AW.
//
// Cycles: the cut_* registers are loaded at a rst edge that finds a burst open, count down
// at each W (and AW) handshake in OWE, and survive rst (initial values only); bus_rst
// (the bus and its slave reset too) clears them at its edge.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_dma_owe #(
    parameter AXI_ADDR_WIDTH = 32,
    parameter AXI_ID_WIDTH   = 4,
    parameter CPL_BEATS      = 4                   // beats of the write-back burst (1..16)
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      bus_rst,

    input  wire [3:0]                state,        // the write engine's state (dma_state)
    input  wire                      st_data_aw,   // state == DATA_AW, one-hot copy
    input  wire                      st_cpl_aw,    // state == CPL_AW, one-hot copy
    input  wire [4:0]                burst_len,    // the burst DATA_AW starts: its beats
    input  wire [4:0]                burst,        // W beats left of the data burst
    input  wire [4:0]                cpl_beats,    // W beats left of the write-back
    input  wire                      w_burst_done,
    input  wire                      cpl_w_done,
    input  wire                      aw_done,
    input  wire                      aw_pend,
    input  wire                      aw_hs,
    input  wire                      w_hs,
    input  wire [AXI_ID_WIDTH-1:0]   awid,
    input  wire [AXI_ADDR_WIDTH-1:0] awaddr,
    input  wire [7:0]                awlen,

    output wire                      cut_done,
    output wire                      cut_aw,
    output wire                      cut_nz,
    output wire                      cut_last,
    output wire                      cut_exit,
    output wire [AXI_ID_WIDTH-1:0]   cut_id,
    output wire [AXI_ADDR_WIDTH-1:0] cut_addr,
    output wire [7:0]                cut_len
);

`include "prionic_regs.vh"

    localparam [3:0]
        S_IDLE    = DMA_STATE_IDLE,
        S_DATA_AW = DMA_STATE_DATA_AW,
        S_DATA_W  = DMA_STATE_DATA_W,
        S_CPL_AW  = DMA_STATE_CPL_AW,
        S_CPL_W   = DMA_STATE_CPL_W,
        S_OWE     = DMA_STATE_OWE;
    localparam [4:0] CPL_B  = CPL_BEATS[4:0];
    localparam [4:0] CPL_B1 = CPL_B - 5'd1;

    // the burst a reset cut; survive rst (initial values only; bus_rst clears them)
    reg [4:0]  cut_beats_reg;      // W beats still owed by that burst
    reg        cut_aw_reg;         // its AW is still to be offered
    reg [AXI_ID_WIDTH-1:0] cut_id_reg;  // its AWID (of the epoch before the reset)
    reg [AXI_ADDR_WIDTH-1:0] cut_addr_reg;
    reg [7:0]  cut_len_reg;
    reg        cut_done_reg;       // cut_beats_reg == 0 && !cut_aw_reg (set with them, F25)
    reg        cut_nz_reg;         // cut_beats_reg != 0 (set with it: WVALID, F25)
    initial begin
        cut_id_reg    = {AXI_ID_WIDTH{1'b0}};
        cut_beats_reg = 5'd0;
        cut_aw_reg    = 1'b0;
        cut_addr_reg  = {AXI_ADDR_WIDTH{1'b0}};
        cut_len_reg   = 8'd0;
        cut_done_reg  = 1'b1;
        cut_nz_reg    = 1'b0;
    end

    // the open burst, from the edge before: in S_DATA_W, S_CPL_W and S_OWE its W beats are
    // ow_left_reg, kept with its decrement, its zero/one flags, the AW still pending and
    // whether a W beat was taken
    reg        ow_open_reg;        // S_DATA_W, S_CPL_W or S_OWE
    reg [4:0]  ow_left_reg;        // its W beats left: burst, cpl_beats, cut_beats_reg
    reg [4:0]  ow_m1_reg;          // ow_left_reg - 1
    reg        ow_nz_reg;          // ow_left_reg != 0
    reg        ow_one_reg;         // ow_left_reg == 1
    reg        ow_aw_reg;          // its AW is pending: aw_pend, cut_aw_reg
    reg        ow_seen_reg;        // one of its W beats was taken (always in S_OWE)
    wire       fd       = st_data_aw;
    wire       fc       = st_cpl_aw;
    wire       first    = fd || fc;   // AW and the first W beat
    wire [4:0] len_m1   = burst_len - 5'd1;
    wire       len_nz   = burst_len != 5'd0;
    wire       len_one  = burst_len == 5'd1;
    wire       wd_fd    = w_hs && len_nz;
    wire       wd_ow    = w_hs && ow_nz_reg;
    wire [4:0] w_owed   = fd ? (wd_fd ? len_m1 : burst_len) : fc ? (w_hs ? CPL_B1 : CPL_B)
                        : (wd_ow ? ow_m1_reg : ow_left_reg);
    wire       w_none   = fd ? (wd_fd ? len_one : !len_nz) : fc ? (w_hs && CPL_BEATS == 1)
                        : (wd_ow ? ow_one_reg : !ow_nz_reg);
    wire       aw_owed  = (first || ow_aw_reg) && !aw_hs;
    wire       seen     = !aw_owed || (first ? w_hs : ow_seen_reg || wd_ow);
    wire       cut_now  = (first || ow_open_reg) && seen;   // a rst at this edge cuts the burst
    // the ow_* of the next cycle: the burst goes on (ow_go) with beats ow_x, less one (ow_dec)
    assign     cut_exit = (cut_beats_reg == 5'd0 || (w_hs && cut_beats_reg == 5'd1)) && (!cut_aw_reg || aw_hs);
    reg        ow_go, ow_dec, ow_awn, ow_seenn;
    reg [4:0]  ow_x;
    always @* begin
        ow_go    = 1'b0;
        ow_x     = 5'd0;
        ow_dec   = w_hs;
        ow_awn   = aw_pend && !aw_hs;
        ow_seenn = ow_seen_reg || w_hs;
        case (state)
            S_IDLE:    begin ow_go = !cut_done_reg; ow_x = cut_beats_reg; ow_dec = 1'b0;
                             ow_awn = cut_aw_reg; ow_seenn = 1'b1; end
            S_OWE:     begin ow_go = !cut_exit; ow_x = cut_beats_reg;
                             ow_awn = cut_aw_reg && !aw_hs; ow_seenn = 1'b1; end
            S_DATA_AW: begin ow_go = 1'b1; ow_x = burst_len; ow_awn = !aw_hs; ow_seenn = w_hs; end
            S_DATA_W:  begin ow_go = !(w_burst_done && aw_done); ow_x = burst; end
            S_CPL_AW:  begin ow_go = 1'b1; ow_x = CPL_B; ow_awn = !aw_hs; ow_seenn = w_hs; end
            S_CPL_W:   begin ow_go = !(cpl_w_done && aw_done); ow_x = cpl_beats; end
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

    always @(posedge clk) begin
        if (state == S_OWE) begin
            if (w_hs) begin
                cut_beats_reg <= cut_beats_reg - 5'd1;
                cut_nz_reg    <= cut_beats_reg != 5'd1;
            end
            if (aw_hs) begin
                cut_aw_reg <= 1'b0;
            end
            if (cut_exit) begin
                cut_done_reg <= 1'b1;
            end
        end
        if (rst && cut_now) begin
            cut_beats_reg <= w_owed;
            cut_nz_reg    <= !w_none;
            cut_aw_reg    <= aw_owed;
            cut_addr_reg  <= awaddr;
            cut_len_reg   <= awlen;
            cut_id_reg    <= awid;
            cut_done_reg  <= w_none && !aw_owed;
        end
        if (bus_rst) begin
            // the bus and its slave are reset too (rst is high with it): nothing is owed
            cut_beats_reg <= 5'd0;
            cut_nz_reg    <= 1'b0;
            cut_aw_reg    <= 1'b0;
            cut_done_reg  <= 1'b1;
        end
    end

    assign cut_done = cut_done_reg;
    assign cut_aw   = cut_aw_reg;
    assign cut_nz   = cut_nz_reg;
    assign cut_last = cut_beats_reg == 5'd1;
    assign cut_id   = cut_id_reg;
    assign cut_addr = cut_addr_reg;
    assign cut_len  = cut_len_reg;

endmodule

`resetall
