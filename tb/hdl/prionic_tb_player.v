// SPDX-License-Identifier: MIT
//
// prionic_tb_player: the fast co-simulation path's frame source (F26, docs/fastpath.md).
// Plays the binary frame file named by the plusarg +prionic_stim=<path> (format:
// tb/fast/stimulus.py) into an AXI4-Stream master, with no Python per cycle. Frame i's first
// beat is presented so that it is sampled at edge max(at_i, t_prev + 1 + MIN_IDLE), where
// t_prev is the previous frame's tlast handshake (or, for the first frame, the edge
// before the first edge that samples `go` high); beats follow back to back whenever
// tready allows. Byte 0 of a beat is tdata[7:0]; tkeep is all ones but on the trimmed
// last beat, and byte 1's bit is clear for a frame with the tkeep-hole flag; tuser is the
// frame's flag on every beat. Simulation only ($fread).
//
`resetall
`timescale 1ns / 1ps
`default_nettype none
// A simulation model: file I/O and bookkeeping are plain sequential code in the clocked
// block (blocking temporaries); what other modules sample is assigned non-blocking.
/* verilator lint_off BLKSEQ */

module prionic_tb_player #(
    parameter DATA_WIDTH = 32,               // stream width in bits: 8, 16, 32, 64
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    parameter MIN_IDLE   = 1                 // idle cycles at least between two frames
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [63:0]           cyc,        // edge number: cyc == k inside edge k
    input  wire                  go,         // frames may start once this is seen high

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    output wire [31:0]           status_frames,  // tlast handshakes so far
    output wire                  status_done     // idle, and the file is played out (or none was
                                                 // named) or `go` is low
);

    integer fd;
    integer got;
    reg [8*1024-1:0] path;

    /* verilator lint_off UNUSEDSIGNAL */
    reg [127:0]          hdr;          // {at, nbytes, flags} of the next frame, as read (2 flags used)
    /* verilator lint_on UNUSEDSIGNAL */
    reg                  have_hdr_reg;
    reg                  eof_reg;
    reg                  started_reg;
    reg [63:0]           last_t_reg;   // tlast handshake edge of the previous frame
    reg [31:0]           left_reg;     // bytes of the current frame not yet presented
    reg [31:0]           sent_reg;     // bytes of the current frame already presented
    reg                  hole_reg, user_reg;
    reg [DATA_WIDTH-1:0] raw;
    reg [DATA_WIDTH-1:0] tdata_reg;
    reg [KEEP_WIDTH-1:0] tkeep_reg;
    reg                  tvalid_reg, tlast_reg, tuser_reg;
    reg [31:0]           frames_reg;
    // what the bus sees: copies of the working state taken with non-blocking assignments,
    // so that the DUT samples the old values at the edge that computes new ones
    reg [DATA_WIDTH-1:0] out_tdata;
    reg [KEEP_WIDTH-1:0] out_tkeep;
    reg                  out_tvalid, out_tlast, out_tuser, out_done;
    reg [31:0]           out_frames;

    initial begin
        fd = 0;
        path = 0;
    end

    // the file is opened when `go` is first seen, so Python may write it after time 0
    task open_file;
        begin
            if ($value$plusargs("prionic_stim=%s", path)) begin
                fd = $fopen(path, "rb");
                if (fd == 0) begin
                    $display("prionic_tb_player: cannot open the frame file named by +prionic_stim");
                    $finish;
                end
            end
        end
    endtask

    // read the next header (or note the end of the file)
    task fetch_header;
        begin
            if (fd == 0) begin
                eof_reg = 1'b1;
            end else begin
                got = $fread(hdr, fd);
                if (got != 16) begin
                    eof_reg = 1'b1;
                    have_hdr_reg = 1'b0;
                end else begin
                    have_hdr_reg = 1'b1;
                end
            end
        end
    endtask

    // put the next beat of the current frame on the bus (left_reg > 0)
    task next_beat;
        integer i;
        integer n;
        begin
            got = $fread(raw, fd);
            n = (left_reg > KEEP_WIDTH) ? KEEP_WIDTH : left_reg;
            for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
                // $fread fills the register MSB first: file byte i is raw[DW-1-8i -: 8]
                tdata_reg[8*i +: 8] = (i < n) ? raw[DATA_WIDTH-1-8*i -: 8] : 8'h00;
                tkeep_reg[i] = (i < n) && !(hole_reg && sent_reg + i == 1);
            end
            tvalid_reg = 1'b1;
            tlast_reg = left_reg <= KEEP_WIDTH;
            tuser_reg = user_reg;
            left_reg = left_reg - n;
            sent_reg = sent_reg + n;
            if (left_reg == 32'd0) begin
                fetch_header;  // the next record follows this frame's last beat
            end
        end
    endtask

    reg [63:0] t_prev;
    reg        idle_now;

    always @(posedge clk) begin
        if (rst) begin
            tvalid_reg = 1'b0;
            tlast_reg = 1'b0;
            tuser_reg = 1'b0;
            tdata_reg = {DATA_WIDTH{1'b0}};
            tkeep_reg = {KEEP_WIDTH{1'b0}};
            frames_reg = 32'd0;
            started_reg = 1'b0;
            have_hdr_reg = 1'b0;
            eof_reg = 1'b0;
            left_reg = 32'd0;
            sent_reg = 32'd0;
            last_t_reg = 64'd0;
        end else begin
            t_prev = last_t_reg;
            idle_now = !tvalid_reg;
            if (out_tvalid && m_axis_tready) begin
                if (tlast_reg) begin
                    frames_reg = frames_reg + 32'd1;
                    t_prev = cyc;
                    idle_now = 1'b1;
                    tvalid_reg = 1'b0;
                    tlast_reg = 1'b0;
                end else begin
                    next_beat;
                end
            end
            if (!started_reg && go) begin
                started_reg = 1'b1;
                t_prev = cyc - 64'd1;
                open_file;
                fetch_header;
            end
            last_t_reg = t_prev;
            // a new frame starts only while `go` is high (Python lowers it to stop early)
            if (started_reg && go && idle_now && have_hdr_reg
                    && cyc + 64'd1 >= hdr[127:64]
                    && cyc + 64'd1 >= t_prev + 64'd1 + MIN_IDLE) begin
                left_reg = hdr[63:32];
                sent_reg = 32'd0;
                user_reg = hdr[0];
                hole_reg = hdr[1];
                have_hdr_reg = 1'b0;
                next_beat;
            end
        end
        out_tdata  <= tdata_reg;
        out_tkeep  <= tkeep_reg;
        out_tvalid <= tvalid_reg;
        out_tlast  <= tlast_reg;
        out_tuser  <= tuser_reg;
        out_frames <= frames_reg;
        out_done   <= started_reg && !tvalid_reg && (!go || (eof_reg && !have_hdr_reg));
    end

    assign m_axis_tdata  = out_tdata;
    assign m_axis_tkeep  = out_tkeep;
    assign m_axis_tvalid = out_tvalid;
    assign m_axis_tlast  = out_tlast;
    assign m_axis_tuser  = out_tuser;
    assign status_frames = out_frames;
    assign status_done   = out_done;

endmodule

/* verilator lint_on BLKSEQ */
`resetall
