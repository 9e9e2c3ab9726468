// SPDX-License-Identifier: MIT
//
// prionic_flowcache: the flow cache (F8), a direct-mapped exact-match cache of rule-table
// results. One key port: a combinational lookup of l_key, and at the clock edge the
// operations on l_key's entry that the classification engine asks for (touch on a hit,
// evict on a TCP FIN/RST hit, install after a table scan). docs/frame-path.md s3.1.
//
// Entry: valid, key, value (the rule id), ts (time unit of the install or last hit).
// Index: the key XOR-folded into log2(ENTRIES) bits (bit b lands on bit b mod log2).
// A lookup hits when the entry is valid, its key equals l_key, and cfg_idle is 0 or the
// entry's age (now - ts mod 2^TS_WIDTH) is below cfg_idle.
//
// Updates at one edge, later ones win: flusher clear, clr (every entry), evict, touch,
// install. The flusher visits one entry per edge and clears it when expired, so an entry
// is gone within ENTRIES edges of expiring, long before its time stamp could wrap
// (cfg_idle < 2^(TS_WIDTH-1), ENTRIES <= 256, one unit >= 1 cycle): a lookup therefore
// never sees an aliased age, and the flusher changes no lookup's result -- provided
// cfg_idle only changes together with clr and a lookup at that edge is not used (the
// engine forces a miss while clr is high): under the old idle the flusher may already
// have cleared an entry the new idle would keep.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_flowcache #(
    parameter ENTRIES   = 16,   // power of two, 2..256
    parameter KEY_WIDTH = 139,
    parameter VAL_WIDTH = 8,
    parameter TS_WIDTH  = 16
) (
    input  wire                 clk,
    input  wire                 rst,

    input  wire [TS_WIDTH-1:0]  now,        // current time unit
    input  wire [TS_WIDTH-2:0]  cfg_idle,   // expiry in units, 0: never
    input  wire                 clr,        // clear every entry

    input  wire [KEY_WIDTH-1:0] l_key,
    output wire                 l_hit,
    output wire [VAL_WIDTH-1:0] l_val,

    input  wire                 touch,      // l_key's entry: last use = now
    input  wire                 evict,      // l_key's entry: invalid
    input  wire                 install,    // l_key's entry: (l_key, i_val, now)
    input  wire [VAL_WIDTH-1:0] i_val,

    output wire [8:0]           status_valid  // valid entries (observability)
);

    localparam integer IW = $clog2(ENTRIES);

    initial begin
        if (ENTRIES < 2 || ENTRIES > 256 || (ENTRIES & (ENTRIES - 1)) != 0) begin
            $error("Error: ENTRIES must be a power of two in 2..256 (instance %m)");
            $finish;
        end
    end

    reg [ENTRIES-1:0]   valid_reg;
    reg [KEY_WIDTH-1:0] key_mem [0:ENTRIES-1];
    reg [VAL_WIDTH-1:0] val_mem [0:ENTRIES-1];
    reg [TS_WIDTH-1:0]  ts_mem  [0:ENTRIES-1];
    reg [IW-1:0]        fptr_reg;

    // ------------------------------------------------------------------ lookup (comb)
    reg [IW-1:0] idx;
    integer b;
    always @* begin
        idx = {IW{1'b0}};
        for (b = 0; b < KEY_WIDTH; b = b + 1) begin
            idx[b % IW] = idx[b % IW] ^ l_key[b];
        end
    end

    wire [TS_WIDTH-1:0] age   = now - ts_mem[idx];
    wire [TS_WIDTH-1:0] idle  = {1'b0, cfg_idle};
    wire                fresh = cfg_idle == {(TS_WIDTH-1){1'b0}} || age < idle;

    assign l_hit = valid_reg[idx] && key_mem[idx] == l_key && fresh;
    assign l_val = val_mem[idx];

    // ------------------------------------------------------------------ flusher
    wire [TS_WIDTH-1:0] f_age     = now - ts_mem[fptr_reg];
    wire                f_expired = cfg_idle != {(TS_WIDTH-1){1'b0}} && f_age >= idle;

    // ------------------------------------------------------------------ update
    always @(posedge clk) begin
        fptr_reg <= fptr_reg + 1'b1;
        if (f_expired) begin
            valid_reg[fptr_reg] <= 1'b0;
        end
        if (clr) begin
            valid_reg <= {ENTRIES{1'b0}};
        end
        if (evict) begin
            valid_reg[idx] <= 1'b0;
        end
        if (touch) begin
            ts_mem[idx] <= now;
        end
        if (install) begin
            valid_reg[idx] <= 1'b1;
            key_mem[idx]   <= l_key;
            val_mem[idx]   <= i_val;
            ts_mem[idx]    <= now;
        end
        if (rst) begin
            valid_reg <= {ENTRIES{1'b0}};
            fptr_reg  <= {IW{1'b0}};
        end
    end

    // ------------------------------------------------------------------ observability
    reg [8:0] nvalid;
    integer e;
    always @* begin
        nvalid = 9'd0;
        for (e = 0; e < ENTRIES; e = e + 1) begin
            nvalid = nvalid + {8'd0, valid_reg[e]};
        end
    end
    assign status_valid = nvalid;

endmodule

`resetall
