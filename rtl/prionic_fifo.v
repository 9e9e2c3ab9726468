// SPDX-License-Identifier: MIT
//
// prionic_fifo: synchronous first-word-fall-through FIFO, 2**ADDR_WIDTH entries of
// WIDTH bits. m_data shows the oldest entry while m_valid is high; it is popped on the
// m_valid && m_ready edge. s_ready is low only when full. Pointers carry an extra MSB to
// tell full from empty. status_count is the occupancy (every entry pushed and not yet
// popped, wherever it is held).
//
// OUTPUT_REG 0: an asynchronous read, m_data = mem[rd_ptr]. Write-to-read latency one
// cycle (an entry written at edge k is visible at m_data after edge k).
//
// OUTPUT_REG 1 (F25, the frame path at 125 MHz): a registered read. A fetch pointer reads
// the memory ahead of the consumer, the read address and enable driven by registers only
// (a block RAM's output register), into a two-entry output buffer; m_valid, m_data
// (a 2:1 mux of registers) and the memory's read port never depend on m_ready, which
// only moves the output stage and the pop pointer. Write-to-read latency two cycles (an
// entry written at edge k is visible after edge k+1); one entry per cycle at any m_ready
// pattern once visible. The fetch never passes the write pointer and the pop pointer
// keeps a fetched entry's place until it is popped, so s_ready and status_count are the
// same as with OUTPUT_REG 0.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_fifo #(
    parameter WIDTH      = 32,  // entry width in bits
    parameter ADDR_WIDTH = 4,   // log2 of the depth
    parameter OUTPUT_REG = 0    // 1: registered read (two-cycle latency, m_ready shallow)
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [WIDTH-1:0]      s_data,
    input  wire                  s_valid,
    output wire                  s_ready,

    output wire [WIDTH-1:0]      m_data,
    output wire                  m_valid,
    input  wire                  m_ready,

    output wire [ADDR_WIDTH:0]   status_count
);

    initial begin
        if (ADDR_WIDTH < 1 || ADDR_WIDTH > 16) begin
            $error("Error: ADDR_WIDTH must be 1..16 (instance %m)");
            $finish;
        end
        if (OUTPUT_REG != 0 && OUTPUT_REG != 1) begin
            $error("Error: OUTPUT_REG must be 0 or 1 (instance %m)");
            $finish;
        end
    end

    reg [WIDTH-1:0] mem [0:(1 << ADDR_WIDTH)-1];

    reg [ADDR_WIDTH:0] wr_ptr_reg;
    reg [ADDR_WIDTH:0] rd_ptr_reg;   // pop pointer: the oldest entry not yet popped

    // full and empty are flags set at the edge that makes them true (exactly the pointer
    // compares), so s_ready and the asynchronous read's m_valid come from flip-flops
    reg full_reg;
    reg empty_reg;
    // the occupancy wr_ptr_reg - rd_ptr_reg, kept up to date beside the pointers (timing:
    // F25): status_count is a register, not a subtractor in front of the consumer's
    // compares (the top's tready), and the full/empty flags compare a register
    reg [ADDR_WIDTH:0] count_reg;

    localparam [ADDR_WIDTH:0] DEPTH_M1 = {1'b0, {ADDR_WIDTH{1'b1}}};
    wire [ADDR_WIDTH:0] count_up    = count_reg + 1'b1;
    wire [ADDR_WIDTH:0] count_dn    = count_reg - 1'b1;
    wire                count_at_m1 = count_reg == DEPTH_M1;
    wire                count_at_1  = count_reg == {{ADDR_WIDTH{1'b0}}, 1'b1};
    wire push = s_valid && !full_reg;
    wire pop  = m_ready && m_valid;

    assign s_ready      = !full_reg;
    assign status_count = count_reg;

    always @(posedge clk) begin
        if (push) begin
            mem[wr_ptr_reg[ADDR_WIDTH-1:0]] <= s_data;
            wr_ptr_reg <= wr_ptr_reg + 1'b1;
        end
        if (pop) begin
            rd_ptr_reg <= rd_ptr_reg + 1'b1;
        end
        // count +- 1 and the flags they give come from registers alone; push and pop
        // (the producer's late handshake, the top's tvalid) only pick (timing: F25)
        if (push && !pop) begin
            count_reg <= count_up;
            full_reg  <= count_at_m1;
            empty_reg <= 1'b0;
        end else if (pop && !push) begin
            count_reg <= count_dn;
            full_reg  <= 1'b0;
            empty_reg <= count_at_1;
        end
        if (rst) begin
            wr_ptr_reg <= 0;
            rd_ptr_reg <= 0;
            count_reg  <= 0;
            full_reg   <= 1'b0;
            empty_reg  <= 1'b1;
        end
    end

    generate
        if (OUTPUT_REG == 0) begin : g_async
            assign m_valid = !empty_reg;
            assign m_data  = mem[rd_ptr_reg[ADDR_WIDTH-1:0]];
        end else begin : g_reg
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_empty = empty_reg;   // the fetch pointer decides here
            /* verilator lint_on UNUSEDSIGNAL */
            // fetch ahead: the memory's registered read (rd_data_reg, valid d_valid_reg),
            // then the output buffer ob0 (oldest), ob1; invariant ob_cnt + d_valid <= 2,
            // a fetch only while ob_cnt + d_valid <= 1, so no m_ready is needed to decide it
            reg [ADDR_WIDTH:0] fe_ptr_reg;
            reg [WIDTH-1:0]    rd_data_reg;
            reg                d_valid_reg;
            reg [WIDTH-1:0]    ob0_reg, ob1_reg;
            reg [1:0]          ob_cnt_reg;

            // m_valid and ob_cnt_reg != 0, registers kept beside the state they summarise
            // (timing: F25): the consumer's handshake logic reads one flip-flop, not three
            reg                m_valid_reg;
            reg                ob_nz_reg;
            reg [1:0]          ob_cnt_nxt;
            // entries written and not yet fetched (wr_ptr_reg - fe_ptr_reg) and whether there
            // are none, kept up to date like count_reg and empty_reg (timing: F25): the fetch
            // decision reads a flag, not a pointer compare
            reg [ADDR_WIDTH:0] fe_cnt_reg;
            reg                fe_empty_reg;

            wire fetch = !fe_empty_reg
                      && (ob_cnt_reg == 2'd0 || (ob_cnt_reg == 2'd1 && !d_valid_reg));

            assign m_valid = m_valid_reg;
            assign m_data  = ob_nz_reg ? ob0_reg : rd_data_reg;

            always @* begin
                ob_cnt_nxt = ob_cnt_reg;
                // ob_cnt_reg at the next edge (the case below)
                case (ob_cnt_reg)
                    2'd0: begin
                        if (d_valid_reg && !pop) begin
                            ob_cnt_nxt = 2'd1;
                        end
                    end
                    2'd1: begin
                        if (pop && !d_valid_reg) begin
                            ob_cnt_nxt = 2'd0;
                        end else if (!pop && d_valid_reg) begin
                            ob_cnt_nxt = 2'd2;
                        end
                    end
                    default: begin
                        if (pop) begin
                            ob_cnt_nxt = 2'd1;
                        end
                    end
                endcase
            end

            always @(posedge clk) begin
                if (fetch) begin
                    rd_data_reg <= mem[fe_ptr_reg[ADDR_WIDTH-1:0]];
                end
            end

            always @(posedge clk) begin
                if (fetch) begin
                    fe_ptr_reg <= fe_ptr_reg + 1'b1;
                end
                if (push && !fetch) begin
                    fe_cnt_reg   <= fe_cnt_reg + 1'b1;
                    fe_empty_reg <= 1'b0;
                end else if (fetch && !push) begin
                    fe_cnt_reg   <= fe_cnt_reg - 1'b1;
                    fe_empty_reg <= fe_cnt_reg == {{ADDR_WIDTH{1'b0}}, 1'b1};
                end
                d_valid_reg <= fetch;
                ob_nz_reg   <= ob_cnt_nxt != 2'd0;
                m_valid_reg <= ob_cnt_nxt != 2'd0 || fetch;
                // the fetched word joins the buffer unless it is popped straight away
                case (ob_cnt_reg)
                    2'd0: begin
                        if (d_valid_reg && !pop) begin
                            ob0_reg    <= rd_data_reg;
                            ob_cnt_reg <= 2'd1;
                        end
                    end
                    2'd1: begin
                        if (pop) begin
                            if (d_valid_reg) begin
                                ob0_reg <= rd_data_reg;
                            end else begin
                                ob_cnt_reg <= 2'd0;
                            end
                        end else if (d_valid_reg) begin
                            ob1_reg    <= rd_data_reg;
                            ob_cnt_reg <= 2'd2;
                        end
                    end
                    default: begin   // 2: no word fetched (the invariant)
                        if (pop) begin
                            ob0_reg    <= ob1_reg;
                            ob_cnt_reg <= 2'd1;
                        end
                    end
                endcase
                if (rst) begin
                    fe_ptr_reg  <= 0;
                    fe_cnt_reg  <= 0;
                    fe_empty_reg <= 1'b1;
                    d_valid_reg <= 1'b0;
                    ob_cnt_reg  <= 2'd0;
                    ob_nz_reg   <= 1'b0;
                    m_valid_reg <= 1'b0;
                end
            end
        end
    endgenerate

endmodule

`resetall
