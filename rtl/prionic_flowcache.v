// SPDX-License-Identifier: MIT
//
// prionic_flowcache: the flow cache (F8), a direct-mapped exact-match cache of rule-table
// results, looked up in a pipeline (F25; docs/timing.md s3.1, docs/frame-path.md s3.1):
//
//   edge s     l_start: l_key and its index l_idx (prionic_flowhash of l_key, computed by
//              the user ahead of time) are registered (the engine's take edge)
//   edge s+1   the entry at that index is read into registers
//   edge s+2   the read entry is compared with the key (chunks at s+1, l_start low at
//              s+1), its age taken with `now` at s+2:
//              l_hit / l_val are that compare's registers, seen from s+3 on
//
// The read and compare repeat at every edge for the registered key, so l_hit follows
// the entry while the key stays. touch, evict and install act on the registered key's
// entry (the engine asks for them at its verdict edge).
//
// Entry: valid, key, value (the rule id), ts (time unit of the install or last hit).
// Index: the key XOR-folded into log2(ENTRIES) bits (bit b lands on bit b mod log2), as
// prionic_flowhash computes it; the cache trusts l_idx to be that.
// A lookup hits when the entry is valid, its key equals the registered key, and cfg_idle
// is 0 or the entry's age (now - ts mod 2^TS_WIDTH) is below cfg_idle.
//
// Updates at one edge, later ones win: flusher clear, evict, touch (refreshes and keeps
// the entry valid), install; clr (every entry) wins over all of them (a flip-flop reset of
// the valid bits, F25: the clear is not behind the update's decode). The flusher visits one entry per edge
// and clears it when expired (its time stamp read at one edge, the age compared at the
// next, the clear at the one after), so an entry is gone within ENTRIES + 1 edges of
// expiring, long before its time stamp could wrap
// (cfg_idle < 2^(TS_WIDTH-1), ENTRIES <= 256, one unit >= 1 cycle): a lookup therefore
// never sees an aliased age, and the flusher changes no lookup's result (an entry it
// clears has expired, and misses at any later compare anyway) -- provided cfg_idle only
// changes together with clr and a lookup running across that edge is not used (the
// engine restarts it as a miss): under the old idle the flusher may already have cleared
// an entry the new idle would keep.
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

    input  wire                 l_start,    // register l_key, l_idx (low while a lookup runs)
    input  wire [KEY_WIDTH-1:0] l_key,
    input  wire [$clog2(ENTRIES)-1:0] l_idx, // prionic_flowhash of l_key
    output wire                 l_hit,      // registered compare, 3 edges after l_start
    output wire [VAL_WIDTH-1:0] l_val,
    output wire [VAL_WIDTH-1:0] l_val_next, // what l_val shows after the next edge (the read value)

    input  wire                 touch,      // the registered key's entry: last use = now
    input  wire                 evict,      // ... invalid
    input  wire                 install,    // ... (key, i_val, now)
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

    // ------------------------------------------------------------------ key and index (edge s)
    reg [KEY_WIDTH-1:0] key_reg;
    reg [IW-1:0]        idx_reg;
    always @(posedge clk) begin
        if (l_start) begin
            key_reg <= l_key;
            idx_reg <= l_idx;
        end
        if (rst) begin
            key_reg <= {KEY_WIDTH{1'b0}};
            idx_reg <= {IW{1'b0}};
        end
    end

    // ------------------------------------------------------------------ read (edge s+1)
    // the entry's key is compared with key_reg as it is read, in 4-bit chunks (F25): key_reg
    // holds from s to s+2 (l_start is low while a lookup runs), so the chunks registered at
    // s+1 are the compare at s+2 of the entry read at s+1
    localparam integer NCH = (KEY_WIDTH + 3) / 4;
    reg  [4*NCH-1:0]    rd_key_pad, key_pad;
    always @* begin
        rd_key_pad = {(4*NCH){1'b0}};
        key_pad    = {(4*NCH){1'b0}};
        rd_key_pad[KEY_WIDTH-1:0] = key_mem[idx_reg];
        key_pad[KEY_WIDTH-1:0]    = key_reg;
    end
    reg                 rd_valid_reg;
    reg [NCH-1:0]       rd_eq_reg;
    reg [VAL_WIDTH-1:0] rd_val_reg;
    reg [TS_WIDTH-1:0]  rd_ts_reg;
    // the chunk compares as continuous assignments (evaluated by an event-driven simulator
    // only when the entry or the key changes), registered whole
    wire [NCH-1:0]      rd_eq_d;
    genvar              ch;
    generate
        for (ch = 0; ch < NCH; ch = ch + 1) begin : g_chunk
            assign rd_eq_d[ch] = rd_key_pad[4*ch +: 4] == key_pad[4*ch +: 4];
        end
    endgenerate
    always @(posedge clk) begin
        rd_valid_reg <= valid_reg[idx_reg];
        rd_eq_reg    <= rd_eq_d;
        rd_val_reg   <= val_mem[idx_reg];
        rd_ts_reg    <= ts_mem[idx_reg];
        if (rst) begin
            rd_valid_reg <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ compare (edge s+2)
    wire [TS_WIDTH-1:0] age   = now - rd_ts_reg;
    wire [TS_WIDTH-1:0] idle  = {1'b0, cfg_idle};
    wire                fresh = cfg_idle == {(TS_WIDTH-1){1'b0}} || age < idle;
    reg                 hit_reg;
    reg [VAL_WIDTH-1:0] hit_val_reg;
    always @(posedge clk) begin
        hit_reg     <= rd_valid_reg && &rd_eq_reg && fresh;
        hit_val_reg <= rd_val_reg;
        if (rst) begin
            hit_reg <= 1'b0;
        end
    end
    assign l_hit = hit_reg;
    assign l_val = hit_val_reg;
    assign l_val_next = rd_val_reg;

    // ------------------------------------------------------------------ flusher
    // three edges per entry, one entry begun at every edge: edge r reads entry fptr's time
    // stamp (and `now`, the stamp of an entry touched or installed at r), edge r+1 registers
    // whether it has expired by then (not if touched or installed at r+1), edge r+2 clears it
    // if so (F25: the age subtracter and the idle compare end in a flip-flop, not in the
    // valid bits); a touch or install at r+2 wins over the clear.
    reg [TS_WIDTH-1:0]  f_ts_reg;   // the time stamp of entry f_idx_reg, unless f_byp_reg
    reg [TS_WIDTH-1:0]  f_now_reg;  // ... then now at r
    reg                 f_byp_reg;  // the entry was touched or installed at r
    reg [IW-1:0]        f_idx_reg;
    wire [TS_WIDTH-1:0] f_age     = now - (f_byp_reg ? f_now_reg : f_ts_reg);
    // cfg_idle != 0, registered: one edge late is exact, as cfg_idle only changes together
    // with clr, which clears every entry whatever the flusher decides in those edges
    reg                 idle_nz_reg;
    reg                 f_exp_reg;  // entry f_hot_reg has expired (registered at r+1)
    always @(posedge clk) begin
        f_ts_reg    <= ts_mem[fptr_reg];
        f_now_reg   <= now;
        f_byp_reg   <= (touch || install) && idx_reg == fptr_reg;
        f_idx_reg   <= fptr_reg;
        idle_nz_reg <= cfg_idle != {(TS_WIDTH-1){1'b0}};
        f_exp_reg   <= idle_nz_reg && f_age >= idle && !((touch || install) && idx_reg == f_idx_reg);
        if (rst) begin
            f_ts_reg    <= {TS_WIDTH{1'b0}};
            f_byp_reg   <= 1'b0;
            idle_nz_reg <= 1'b0;
            f_exp_reg   <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ update
    // valid bits: set by touch or install (a touch follows a hit at the previous edge: the
    // entry was fresh then, and may have expired at this very edge: the touch keeps it),
    // else cleared by evict or the flusher, else kept; clr clears them all. Written as set |
    // keep & !flush so that the flusher's age compare meets the other terms in the last LUT
    // (F25).
    // The entry selects are one-hot flip-flops (timing: F25): idx_reg decoded at every edge
    // (it holds from the take s to the verdict, and touch, evict and install come at s+3 or
    // later); the flusher's entry, f_idx_reg, decoded as f_exp_reg is registered (after a
    // reset f_exp_reg and idle_nz_reg keep the flusher from clearing anything for two edges).
    // (decoders and masks written as whole-vector operations: the flusher's pointer moves at
    // every edge, and an event-driven simulator would otherwise run a per-entry loop each time)
    localparam [ENTRIES-1:0] HOT0 = {{(ENTRIES-1){1'b0}}, 1'b1};
    reg [ENTRIES-1:0] v_set, v_keep, v_fsel;
    reg [ENTRIES-1:0] idx_hot_reg, f_hot_reg;
    always @(posedge clk) begin
        idx_hot_reg <= HOT0 << idx_reg;
        f_hot_reg   <= HOT0 << f_idx_reg;
    end
    always @* begin
        v_set  = {ENTRIES{touch || install}} & idx_hot_reg;
        v_keep = valid_reg & ~({ENTRIES{evict}} & idx_hot_reg);
        v_fsel = f_hot_reg;
    end
    always @(posedge clk) begin
        fptr_reg  <= fptr_reg + 1'b1;
        valid_reg <= v_set | (v_keep & ~(v_fsel & {ENTRIES{f_exp_reg}}));
        if (touch) begin
            ts_mem[idx_reg]    <= now;
        end
        if (install) begin
            key_mem[idx_reg]   <= key_reg;
            val_mem[idx_reg]   <= i_val;
            ts_mem[idx_reg]    <= now;
        end
        if (rst || clr) begin
            valid_reg <= {ENTRIES{1'b0}};
        end
        if (rst) begin
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
