// SPDX-License-Identifier: MIT
//
// prionic_tb_axi_ram: host memory of the fast co-simulation path (F26, docs/fastpath.md),
// an AXI4 slave over a memory of 64-bit words that Python reads and writes through VPI
// (`mem`); a beat is 8 to 128 bits (a 128-bit beat spans two words: AXI_DATA_WIDTH may be
// wider than the stream, F25). With the default latencies it answers on the same edges as cocotbext-axi's
// AxiRam: AWREADY, WREADY, ARREADY high; the B response of a burst is sampled
// B_LATENCY edges after its last W beat (1: the edge right after it, the earliest AXI allows), the first R beat R_LATENCY edges after the AR,
// further beats and bursts back to back. STALL_PERCENT > 0 drops each READY and delays each
// VALID at random (an LFSR seeded by SEED) for a legal but unhelpful slave; 0 keeps the
// timing above. W beats may come before their AW (up to 30 wait; AXI4 A3.3.1), and
// AW_WAITS_FOR_W = 1 raises AWREADY only once the burst's first W beat has been taken
// (the slave a master that holds WVALID until AWREADY deadlocks against; F25). INCR bursts, in order
// (a B carries its burst's AWID; reads answer with ID 0); addresses wrap at MEM_BYTES.
// A second, 32-bit port (`cpu_*`) serves a CPU beside the DMA (the full-system top,
// docs/system.md): the word at `cpu_addr` is read combinationally (no wait state), a
// byte-strobed write is sampled at the edge `cpu_en` and `cpu_we` are high. The DMA and the CPU writing one 64-bit
// word on the same edge is not modelled: it is counted in `cpu_conflicts` (and printed).
// Fault injection (F24): while `err_arm` is high, the first write burst whose AWADDR equals
// `err_addr` is answered SLVERR (once per reset; `err_injected` counts it).
// Simulation model: not for synthesis.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none
// A simulation model: file I/O and bookkeeping are plain sequential code in the clocked
// block (blocking temporaries); what other modules sample is assigned non-blocking.
/* verilator lint_off BLKSEQ */

module prionic_tb_axi_ram #(
    parameter DATA_WIDTH    = 32,              // 8, 16, 32, 64 or 128
    parameter STRB_WIDTH    = DATA_WIDTH / 8,
    parameter ADDR_WIDTH    = 32,
    parameter ID_WIDTH      = 4,
    parameter MEM_BYTES     = 8 * 1024 * 1024, // power of 2
    parameter B_LATENCY     = 2,               // last W beat written to B sampled (1 or more)
    parameter R_LATENCY     = 2,               // AR handshake to first R sampled (2 or more)
    parameter STALL_PERCENT = 0,               // 0..99: random READY drops and VALID delays
    parameter AW_WAITS_FOR_W = 0,              // 1: AWREADY only after the burst's first W beat
    parameter SEED          = 1                // LFSR seed for the stalls
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [63:0]           cyc,

    input  wire [ID_WIDTH-1:0]   s_axi_awid,
    input  wire [ADDR_WIDTH-1:0] s_axi_awaddr,
    input  wire [7:0]            s_axi_awlen,
    input  wire [2:0]            s_axi_awsize,
    input  wire                  s_axi_awvalid,
    output wire                  s_axi_awready,
    input  wire [DATA_WIDTH-1:0] s_axi_wdata,
    input  wire [STRB_WIDTH-1:0] s_axi_wstrb,
    input  wire                  s_axi_wlast,
    input  wire                  s_axi_wvalid,
    output wire                  s_axi_wready,
    output wire [ID_WIDTH-1:0]   s_axi_bid,
    output wire [1:0]            s_axi_bresp,
    output wire                  s_axi_bvalid,
    input  wire                  s_axi_bready,
    input  wire [ADDR_WIDTH-1:0] s_axi_araddr,
    input  wire [7:0]            s_axi_arlen,
    input  wire [2:0]            s_axi_arsize,
    input  wire                  s_axi_arvalid,
    output wire                  s_axi_arready,
    output wire [DATA_WIDTH-1:0] s_axi_rdata,
    output wire [1:0]            s_axi_rresp,
    output wire                  s_axi_rlast,
    output wire                  s_axi_rvalid,
    input  wire                  s_axi_rready,

    input  wire                  err_arm,     // 0: every response is OKAY
    input  wire [ADDR_WIDTH-1:0] err_addr,

    input  wire                  cpu_en,      // 0: the port is unused
    input  wire                  cpu_we,
    input  wire [3:0]            cpu_sel,
    input  wire [ADDR_WIDTH-1:0] cpu_addr,    // byte address; bits 1:0 are ignored
    input  wire [31:0]           cpu_wdata,
    output wire [31:0]           cpu_rdata
);

    localparam integer WORDS = MEM_BYTES / 8;
    localparam integer WA = $clog2(WORDS);
    localparam integer QD = 16;                 // outstanding bursts per direction

    reg [63:0] mem [0:WORDS-1] /* verilator public_flat_rw */;

    integer init_i;
    initial begin
        // defined contents: Python reads whole words, also bytes no one has written
        for (init_i = 0; init_i < WORDS; init_i = init_i + 1) begin
            mem[init_i] = 64'd0;
        end
    end

    // ------------------------------------------------------------------ behaviour
    // B_LATENCY, STALL_PERCENT and AW_WAITS_FOR_W, or the plusargs +prionic_mem_b_latency=N,
    // +prionic_mem_stall_percent=N and +prionic_mem_aw_waits_for_w=N at run time (one build
    // serves every memory behaviour)
    integer b_latency, stall_percent, aw_waits_for_w;
    initial begin
        if (!$value$plusargs("prionic_mem_b_latency=%d", b_latency)) b_latency = B_LATENCY;
        if (!$value$plusargs("prionic_mem_stall_percent=%d", stall_percent)) stall_percent = STALL_PERCENT;
        if (!$value$plusargs("prionic_mem_aw_waits_for_w=%d", aw_waits_for_w)) aw_waits_for_w = AW_WAITS_FOR_W;
    end

    // ------------------------------------------------------------------ stalls
    reg [31:0] lfsr;
    function stall;
        input [31:0] r;
        begin
            stall = stall_percent > 0 && (r % 100) < stall_percent;
        end
    endfunction

    // ------------------------------------------------------------------ write side
    reg [ADDR_WIDTH-1:0] awq_addr [0:QD-1];
    reg [2:0]            awq_size [0:QD-1];
    reg [ID_WIDTH-1:0]   awq_id   [0:QD-1];
    reg                  awq_err  [0:QD-1];  // the burst is answered SLVERR
    reg                  bq_err   [0:QD-1];
    reg                  aw_err;             // the AW taken at this edge is the one to answer SLVERR
    reg [31:0]           err_injected /* verilator public_flat_rd */;
    reg [4:0]            awq_wr, awq_rd;
    reg [8:0]            w_beat;             // beats of the head burst written
    // W beats taken before their AW wait here, in order (AXI4 A3.3.1 lets a slave take W first)
    localparam integer WD = 32;
    reg [DATA_WIDTH-1:0] wq_data [0:WD-1];
    reg [STRB_WIDTH-1:0] wq_strb [0:WD-1];
    reg                  wq_last [0:WD-1];
    reg [5:0]            wq_wr, wq_rd;
    reg [31:0]           w_started, aw_taken; // W bursts whose first beat was taken; AW handshakes
    reg                  w_first;             // the next W beat taken is a burst's first
    reg [31:0]           w_early /* verilator public_flat_rd */;  // W beats taken before their AW
    reg [31:0]           b_at_once /* verilator public_flat_rd */;  // Bs answered the edge after their last W (B_LATENCY 1)
    reg [63:0]           bq_at [0:QD-1];     // edge from which each B may be sampled
    reg [ID_WIDTH-1:0]   bq_id [0:QD-1];     // ... and its ID
    reg [4:0]            bq_wr, bq_rd;
    reg                  awready_reg, wready_reg, bvalid_reg;

    // ------------------------------------------------------------------ read side
    reg [ADDR_WIDTH-1:0] arq_addr [0:QD-1];
    reg [7:0]            arq_len  [0:QD-1];
    reg [2:0]            arq_size [0:QD-1];
    reg [63:0]           arq_at   [0:QD-1];
    reg [4:0]            arq_wr, arq_rd;
    reg [8:0]            r_beat, r_beat_n;
    reg                  r_mid, r_mid_n;   // the head burst has beats on the bus already
    reg [4:0]            r_head;
    reg                  arready_reg, rvalid_reg, rlast_reg;
    reg [DATA_WIDTH-1:0] rdata_reg;

    // byte address -> index of the first 64-bit word of its beat, and the beat's lane in the
    // 128 bits of that word and the next (DATA_WIDTH-bit lanes; a 128-bit beat starts at an
    // even word); each needs only some of the address bits
    /* verilator lint_off UNUSEDSIGNAL */
    function [WA-1:0] word_of;
        input [ADDR_WIDTH-1:0] a;
        begin
            word_of = STRB_WIDTH > 8 ? {a[WA+2:4], 1'b0} : a[WA+2:3];
        end
    endfunction

    function integer lane_of;
        input [ADDR_WIDTH-1:0] a;
        begin
            lane_of = STRB_WIDTH > 8 ? 0 : ({29'd0, a[2:0]} / STRB_WIDTH) * DATA_WIDTH;
        end
    endfunction

    /* verilator lint_on UNUSEDSIGNAL */

    reg [ADDR_WIDTH-1:0] a_cur;
    reg [127:0]          word;               // the beat's word and the next
    reg [WA-1:0]         w_idx;
    reg [DATA_WIDTH-1:0] b_data;             // the beat written this edge
    reg [STRB_WIDTH-1:0] b_strb;
    reg                  b_last, b_have, b_from_q, have_aw, b_push;
    reg [5:0]            wq_n;
    reg [31:0]           ws_n, at_n;
    reg                  aw_hs, w_hs, b_hs, ar_hs, r_hs;
    reg                  start_r;
    reg [4:0]            aw_n, ar_n;         // bursts queued after this edge
    integer              i, lane;
    reg [WA-1:0]         c_idx;              // the CPU port's word
    reg [63:0]           c_word;
    reg                  dma_wr;             // the DMA writes word w_idx (and the next) at this edge
    reg [31:0]           cpu_conflicts /* verilator public_flat_rd */;

    always @(posedge clk) begin
        if (rst) begin
            awq_wr <= 0; awq_rd <= 0; w_beat <= 0; bq_wr <= 0; bq_rd <= 0;
            wq_wr <= 0; wq_rd <= 0; w_started <= 0; aw_taken <= 0; w_first <= 1'b1;
            w_early <= 0; b_at_once <= 0;
            arq_wr <= 0; arq_rd <= 0; r_beat <= 0; r_mid <= 1'b0;
            awready_reg <= 1'b0; wready_reg <= 1'b0; bvalid_reg <= 1'b0;
            arready_reg <= 1'b0; rvalid_reg <= 1'b0; rlast_reg <= 1'b0;
            rdata_reg <= {DATA_WIDTH{1'b0}};
            lfsr <= SEED | 1;
            cpu_conflicts <= 32'd0;
            err_injected <= 32'd0;
        end else begin
            lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            aw_hs = s_axi_awvalid && awready_reg;
            w_hs  = s_axi_wvalid && wready_reg;
            b_hs  = bvalid_reg && s_axi_bready;
            ar_hs = s_axi_arvalid && arready_reg;
            r_hs  = rvalid_reg && s_axi_rready;

            aw_err = aw_hs && err_arm && err_injected == 32'd0 && s_axi_awaddr == err_addr;
            if (aw_err) begin
                err_injected <= err_injected + 32'd1;
            end
            if (aw_hs) begin
                awq_err[awq_wr[3:0]] <= aw_err;
                awq_addr[awq_wr[3:0]] <= s_axi_awaddr;
                awq_size[awq_wr[3:0]] <= s_axi_awsize;
                awq_id[awq_wr[3:0]]   <= s_axi_awid;
                awq_wr <= awq_wr + 5'd1;
            end
            // the oldest W beat: a waiting one, else the one taken now; it is written once
            // its burst's AW is known (queued, or taken at this edge)
            b_push   = 1'b0;
            dma_wr   = 1'b0;
            b_from_q = wq_wr != wq_rd;
            b_have   = b_from_q || w_hs;
            b_data   = b_from_q ? wq_data[wq_rd[4:0]] : s_axi_wdata;
            b_strb   = b_from_q ? wq_strb[wq_rd[4:0]] : s_axi_wstrb;
            b_last   = b_from_q ? wq_last[wq_rd[4:0]] : s_axi_wlast;
            have_aw  = (awq_wr != awq_rd) || aw_hs;
            if (b_have && have_aw) begin
                if (awq_wr != awq_rd) begin
                    a_cur = awq_addr[awq_rd[3:0]] + ({{(ADDR_WIDTH-9){1'b0}}, w_beat} << awq_size[awq_rd[3:0]]);
                end else begin
                    a_cur = s_axi_awaddr + ({{(ADDR_WIDTH-9){1'b0}}, w_beat} << s_axi_awsize);
                end
                w_idx = word_of(a_cur);
                dma_wr = 1'b1;
                word = {mem[w_idx + 1'b1], mem[w_idx]};
                lane = lane_of(a_cur);
                for (i = 0; i < STRB_WIDTH; i = i + 1) begin
                    if (b_strb[i]) begin
                        word[lane + 8*i +: 8] = b_data[8*i +: 8];
                    end
                end
                mem[w_idx] <= word[63:0];
                if (STRB_WIDTH > 8) begin
                    mem[w_idx + 1'b1] <= word[127:64];
                end
                if (b_last) begin
                    b_push = 1'b1;
                    w_beat <= 0;
                    awq_rd <= awq_rd + 5'd1;
                    bq_at[bq_wr[3:0]] <= cyc + {32'd0, b_latency};
                    bq_id[bq_wr[3:0]] <= (awq_wr != awq_rd) ? awq_id[awq_rd[3:0]] : s_axi_awid;
                    bq_err[bq_wr[3:0]] <= (awq_wr != awq_rd) ? awq_err[awq_rd[3:0]] : aw_err;
                    bq_wr <= bq_wr + 5'd1;
                end else begin
                    w_beat <= w_beat + 9'd1;
                end
                if (b_from_q) begin
                    wq_rd <= wq_rd + 6'd1;
                end
            end
            if (w_hs && !have_aw) begin
                w_early <= w_early + 32'd1;
            end
            // a beat taken now and not written now waits
            if (w_hs && (b_from_q || !have_aw)) begin
                wq_data[wq_wr[4:0]] <= s_axi_wdata;
                wq_strb[wq_wr[4:0]] <= s_axi_wstrb;
                wq_last[wq_wr[4:0]] <= s_axi_wlast;
                wq_wr <= wq_wr + 6'd1;
            end
            // beats waiting after this edge (6-bit: pointers wrap)
            wq_n = wq_wr - wq_rd + ((w_hs && (b_from_q || !have_aw)) ? 6'd1 : 6'd0)
                 - ((b_have && have_aw && b_from_q) ? 6'd1 : 6'd0);
            if (w_hs) begin
                w_first <= s_axi_wlast;
            end
            ws_n = w_started + ((w_hs && w_first) ? 32'd1 : 32'd0);
            at_n = aw_taken + (aw_hs ? 32'd1 : 32'd0);
            w_started <= ws_n;
            aw_taken  <= at_n;
            aw_n = awq_wr + (aw_hs ? 5'd1 : 5'd0) - awq_rd;   // 5-bit: pointers wrap
            awready_reg <= aw_n < 5'd15 && !stall(lfsr) && (aw_waits_for_w == 0 || ws_n > at_n);
            wready_reg <= wq_n < 6'd30 && !stall(lfsr >> 7);   // room for the beats of two more edges

            // B: one per burst, in order, not before its edge
            if (b_hs || !bvalid_reg) begin
                if ((bq_wr != bq_rd + (b_hs ? 5'd1 : 5'd0)) && bq_at[bq_rd[3:0] + (b_hs ? 4'd1 : 4'd0)] <= cyc + 1
                        && !stall(lfsr >> 13)) begin
                    bvalid_reg <= 1'b1;
                end else if (b_latency == 1 && b_push && bq_wr == bq_rd + (b_hs ? 5'd1 : 5'd0)
                        && !stall(lfsr >> 13)) begin
                    bvalid_reg <= 1'b1;   // the burst ends now and no older B waits: answer at once
                    b_at_once <= b_at_once + 32'd1;
                end else begin
                    bvalid_reg <= 1'b0;
                end
                if (b_hs) begin
                    bq_rd <= bq_rd + 5'd1;
                end
            end

            if (ar_hs) begin
                arq_addr[arq_wr[3:0]] <= s_axi_araddr;
                arq_len[arq_wr[3:0]]  <= s_axi_arlen;
                arq_size[arq_wr[3:0]] <= s_axi_arsize;
                arq_at[arq_wr[3:0]]   <= cyc + R_LATENCY;
                arq_wr <= arq_wr + 5'd1;
            end
            ar_n = arq_wr + (ar_hs ? 5'd1 : 5'd0) - arq_rd;
            arready_reg <= ar_n < 5'd15 && !stall(lfsr >> 19);

            // R: beats of the head burst, back to back; the next burst right after
            if (r_hs || !rvalid_reg) begin
                r_head = arq_rd;
                r_mid_n = r_mid;
                r_beat_n = r_beat;
                if (r_hs && rlast_reg) begin
                    r_head = r_head + 5'd1;
                    r_mid_n = 1'b0;
                    r_beat_n = 9'd0;
                end
                start_r = r_head != arq_wr && (r_mid_n || arq_at[r_head[3:0]] <= cyc + 64'd1)
                          && !stall(lfsr >> 25);
                if (start_r) begin
                    a_cur = arq_addr[r_head[3:0]] + ({{(ADDR_WIDTH-9){1'b0}}, r_beat_n} << arq_size[r_head[3:0]]);
                    w_idx = word_of(a_cur);
                    word = {mem[w_idx + 1'b1], mem[w_idx]};
                    rdata_reg <= word[lane_of(a_cur) +: DATA_WIDTH];
                    rlast_reg <= r_beat_n == {1'b0, arq_len[r_head[3:0]]};
                    r_beat_n = r_beat_n + 9'd1;
                    r_mid_n = 1'b1;
                end
                rvalid_reg <= start_r;
                arq_rd <= r_head;
                r_mid <= r_mid_n;
                r_beat <= r_beat_n;
            end

            // the CPU port's write
            if (cpu_en) begin
                c_idx = cpu_addr[WA+2:3];
                c_word = mem[c_idx];
                if (cpu_we) begin
                    for (i = 0; i < 4; i = i + 1) begin
                        if (cpu_sel[i]) begin
                            c_word[32 * cpu_addr[2] + 8 * i +: 8] = cpu_wdata[8*i +: 8];
                        end
                    end
                    mem[c_idx] <= c_word;
                    if (dma_wr && (c_idx == w_idx || (STRB_WIDTH > 8 && c_idx == w_idx + 1'b1))) begin
                        $display("prionic_tb_axi_ram: the CPU and the DMA wrote word %0d on one edge", c_idx);
                        cpu_conflicts <= cpu_conflicts + 32'd1;
                    end
                end
            end
        end
    end

    // a write burst ends on WLAST: AWLEN is not needed
    wire unused_awlen = &{1'b0, s_axi_awlen};
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cpu_addr = &{1'b0, cpu_addr};   // the port uses bits WA+2:2
    /* verilator lint_on UNUSEDSIGNAL */

    wire [63:0] cpu_word = mem[cpu_addr[WA+2:3]];
    assign cpu_rdata = cpu_addr[2] ? cpu_word[63:32] : cpu_word[31:0];

    assign s_axi_awready = awready_reg;
    assign s_axi_wready  = wready_reg;
    assign s_axi_bid     = bq_id[bq_rd[3:0]];
    assign s_axi_bresp   = (bvalid_reg && bq_err[bq_rd[3:0]]) ? 2'b10 : 2'b00;   // never X while no B is out
    assign s_axi_bvalid  = bvalid_reg;
    assign s_axi_arready = arready_reg;
    assign s_axi_rdata   = rdata_reg;
    assign s_axi_rresp   = 2'b00;
    assign s_axi_rlast   = rlast_reg;
    assign s_axi_rvalid  = rvalid_reg;

endmodule

/* verilator lint_on BLKSEQ */
`resetall
