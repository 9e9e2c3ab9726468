// SPDX-License-Identifier: MIT
//
// prionic_flowtable: the flow table (F31, docs/flowtable.md), exact-match entries {valid, key,
// value} in block RAM, two banks of SETS sets of two ways, a key in set h_0(key) of bank 0 or
// h_1(key) of bank 1 (prionic_flowtable_hash). Four memories (bank x way), one read and one
// write port each.
//
//   lookup taken at s (l_take)   the four entries of the key's sets read at s (the RAM's read
//                                register), registered again at s+1, compared in 16-bit chunks at s+2, folded at s+3: l_hit,
//                                l_val registered at s+3, l_done high the cycle after
//   host command taken at c      key and value registered, its sets hashed into registers; the
//                                read at the first edge r >= c+1 with no take; the write,
//                                result and used count at the first edge e >= r+4 with no take
//   clear (CLEAR at c, or reset) set i of every memory written invalid at c+1+i (reset: at i);
//                                lookups taken meanwhile miss, commands are ignored
//
// The lookup owns the read port at its take edge and no write lands at a take edge, so no
// read meets a write of the same word (except while clearing, whose lookups miss anyway).
// The host's read shares the compare pipeline: each stage carries whose read it is.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_flowtable #(
    parameter SETS      = 512,  // sets per bank: a power of two, 2..1024
    parameter KEY_WIDTH = 139,  // 1..256
    parameter VAL_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    // lookup (the classification engine)
    input  wire                  l_take,       // a lookup is taken at this edge
    input  wire [$clog2(SETS)-1:0] l_set0,     // the key's set in bank 0 (prionic_flowtable_hash)
    input  wire [$clog2(SETS)-1:0] l_set1,     // ... in bank 1
    input  wire [KEY_WIDTH-1:0]  l_key,
    output reg                   l_hit,        // registered at s+3
    output reg  [VAL_WIDTH-1:0]  l_val,
    output reg                   l_done,       // high the cycle after s+3

    // host commands (docs/flowtable.md s3)
    input  wire                  h_cmd_valid,
    input  wire [2:0]            h_cmd,        // 1 INSERT, 2 DELETE, 3 FIND, 4 CLEAR
    input  wire [KEY_WIDTH-1:0]  h_key,
    input  wire [VAL_WIDTH-1:0]  h_val,
    output wire                  busy,
    output reg  [3:0]            result,       // 0 NONE .. 8 BAD_CMD
    output reg                   res_bank,
    output reg                   res_way,
    output reg  [$clog2(SETS)-1:0] res_set,
    output reg  [VAL_WIDTH-1:0]  rval,
    output reg  [$clog2(SETS)+2:0] used,       // valid entries, 0 .. 4 * SETS
    output reg                   overrun       // a command ignored while busy (sticky)
);

    localparam integer IW = $clog2(SETS);
    localparam integer EW = 1 + KEY_WIDTH + VAL_WIDTH;     // entry: {valid, key, value}
    localparam integer CW = 16;                            // compare chunk
    localparam integer NC = (KEY_WIDTH + CW - 1) / CW;     // chunks of a key

    localparam [2:0] CMD_INSERT = 3'd1, CMD_DELETE = 3'd2, CMD_FIND = 3'd3, CMD_CLEAR = 3'd4;
    localparam [3:0] R_INSERTED = 4'd1, R_UPDATED = 4'd2, R_DELETED = 4'd3, R_FOUND = 4'd4,
                     R_NOT_FOUND = 4'd5, R_FULL = 4'd6, R_CLEARED = 4'd7, R_BAD_CMD = 4'd8;

    initial begin
        if (SETS < 2 || SETS > 1024 || (SETS & (SETS - 1)) != 0) begin
            $error("Error: SETS must be a power of two in 2..1024 (instance %m)");
            $finish;
        end
        if (KEY_WIDTH < 1 || KEY_WIDTH > 256 || VAL_WIDTH < 1) begin
            $error("Error: KEY_WIDTH must be 1..256 and VAL_WIDTH at least 1 (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ host command state
    localparam [1:0] S_IDLE = 2'd0, S_READ = 2'd1, S_WAIT = 2'd2, S_WRITE = 2'd3;
    reg [1:0]           st_reg;
    reg [2:0]           cmd_reg;
    reg [KEY_WIDTH-1:0] hk_reg;
    reg [VAL_WIDTH-1:0] hv_reg;
    reg [IW-1:0]        hs0_reg, hs1_reg;   // the host key's sets
    reg [1:0]           wait_reg;           // edges since the read (S_WAIT)
    reg                 clr_reg;            // a clear runs
    reg                 clr_cmd_reg;        // ... for a CLEAR command (not reset)
    reg [IW-1:0]        clr_set_reg;

    wire [IW-1:0] hs0, hs1;
    prionic_flowtable_hash #(.KEY_WIDTH(KEY_WIDTH), .IW(IW), .BANK(0)) hash0_inst (.l_key(h_key), .set(hs0));
    prionic_flowtable_hash #(.KEY_WIDTH(KEY_WIDTH), .IW(IW), .BANK(1)) hash1_inst (.l_key(h_key), .set(hs1));

    assign busy = st_reg != S_IDLE || clr_reg;
    wire take_cmd = h_cmd_valid && !busy;
    wire h_read   = st_reg == S_READ && !l_take;        // the host's read edge r
    wire h_write  = st_reg == S_WRITE && !l_take;       // its finishing edge e

    // ------------------------------------------------------------------ memories
    // memory g = 2 * bank + way; read address: the lookup's set at a take edge, else the host's
    reg  [EW-1:0] rd_reg [0:3];         // the entries read at x (the block RAM's read register)
    reg  [EW-1:0] rd2_reg [0:3];        // ... registered again at x+1 (F25: the RAM's output is slow)
    wire          wr_en_any;
    wire [3:0]    wr_sel;               // the host's write: which memory
    wire [EW-1:0] wr_data;
    genvar g;
    generate
        for (g = 0; g < 4; g = g + 1) begin : mem_g
            reg  [EW-1:0] mem [0:SETS-1];
            wire [IW-1:0] ra = l_take ? (g < 2 ? l_set0 : l_set1) : (g < 2 ? hs0_reg : hs1_reg);
            wire [IW-1:0] wa = clr_reg ? clr_set_reg : (g < 2 ? hs0_reg : hs1_reg);
            wire          we = (clr_reg && !rst) || (wr_en_any && wr_sel[g]);
            always @(posedge clk) begin
                if (we) begin
                    mem[wa] <= clr_reg ? {EW{1'b0}} : wr_data;
                end
                rd_reg[g] <= mem[ra];
            end
        end
    endgenerate

    // ------------------------------------------------------------------ compare pipeline
    // stage 0 (edge x, the read): whose read, its key; 1 (x+1): the entries; 2 (x+2): chunk
    // compares; 3 (x+3): the fold
    reg                 own1_l, own1_h, miss1;   // after x: a lookup's / the host's read; forced miss
    reg [KEY_WIDTH-1:0] k1_reg;                  // the key read at x
    reg                 own2_l, own2_h, miss2;
    reg [KEY_WIDTH-1:0] k2_reg;
    reg                 own3_l, own3_h, miss3;
    reg [NC-1:0]        eq3 [0:3];               // chunk c of entry g equals the key's
    reg [3:0]           v3;                      // entry g valid
    reg [VAL_WIDTH-1:0] val3 [0:3];
    // the host's copy of its fold (a later lookup's fold must not overwrite it)
    reg [3:0]           hm_reg;                  // entry g valid and holds the key
    reg [3:0]           hvld_reg;                // entry g valid
    reg [VAL_WIDTH-1:0] hval_reg;                // the matched entry's value

    wire [KEY_WIDTH-1:0] k0 = l_take ? l_key : hk_reg;
    reg  [NC*CW-1:0]     kx, ex;
    reg  [NC-1:0]        eq_now [0:3];
    integer gi, ci;     // the combinational loops'
    integer gq;         // the clocked loop's (one loop variable per always block)
    reg  [3:0]           m_now;
    reg  [VAL_WIDTH-1:0] mv_now;
    always @* begin
        for (gi = 0; gi < 4; gi = gi + 1) begin
            kx = {(NC*CW){1'b0}};
            ex = {(NC*CW){1'b0}};
            kx[KEY_WIDTH-1:0] = k2_reg;
            ex[KEY_WIDTH-1:0] = rd2_reg[gi][VAL_WIDTH +: KEY_WIDTH];
            for (ci = 0; ci < NC; ci = ci + 1) begin
                eq_now[gi][ci] = kx[ci*CW +: CW] == ex[ci*CW +: CW];
            end
        end
        m_now  = 4'd0;
        mv_now = {VAL_WIDTH{1'b0}};
        for (gi = 0; gi < 4; gi = gi + 1) begin
            m_now[gi] = v3[gi] && &eq3[gi];
            if (m_now[gi]) begin
                mv_now = mv_now | val3[gi];
            end
        end
    end

    always @(posedge clk) begin
        own1_l <= l_take;
        own1_h <= h_read;
        miss1  <= clr_reg;
        k1_reg <= k0;
        own2_l <= own1_l;
        own2_h <= own1_h;
        miss2  <= miss1;
        k2_reg <= k1_reg;
        own3_l <= own2_l;
        own3_h <= own2_h;
        miss3  <= miss2;
        for (gq = 0; gq < 4; gq = gq + 1) begin
            rd2_reg[gq] <= rd_reg[gq];
            eq3[gq]     <= eq_now[gq];
            v3[gq]      <= rd2_reg[gq][EW-1];
            val3[gq]    <= rd2_reg[gq][VAL_WIDTH-1:0];
        end
        l_done <= own3_l;
        if (own3_l) begin
            l_hit <= !miss3 && |m_now;
            l_val <= mv_now;
        end
        if (own3_h) begin
            hm_reg   <= m_now;
            hvld_reg <= v3;
            hval_reg <= mv_now;
        end
        if (rst) begin
            own1_l <= 1'b0;
            own1_h <= 1'b0;
            own2_l <= 1'b0;
            own2_h <= 1'b0;
            own3_l <= 1'b0;
            own3_h <= 1'b0;
            l_done <= 1'b0;
            l_hit  <= 1'b0;
            l_val  <= {VAL_WIDTH{1'b0}};
        end
    end

    // ------------------------------------------------------------------ the host's decision
    // at its finishing edge, from the registered fold
    wire       found  = |hm_reg;
    wire       m_bank = hm_reg[2] || hm_reg[3];
    wire       m_way  = hm_reg[1] || hm_reg[3];
    wire [1:0] free0  = {1'b0, !hvld_reg[0]} + {1'b0, !hvld_reg[1]};
    wire [1:0] free1  = {1'b0, !hvld_reg[2]} + {1'b0, !hvld_reg[3]};
    wire       i_bank = free0 < free1;
    wire       i_way  = i_bank ? hvld_reg[2] : hvld_reg[0];    // the lowest free way
    wire       full   = free0 == 2'd0 && free1 == 2'd0;
    wire       d_ins  = cmd_reg == CMD_INSERT;
    wire       d_del  = cmd_reg == CMD_DELETE;
    wire       w_bank = (d_ins && !found) ? i_bank : m_bank;
    wire       w_way  = (d_ins && !found) ? i_way : m_way;
    assign wr_en_any = h_write && ((d_ins && (found || !full)) || (d_del && found));
    assign wr_sel    = 4'b0001 << {w_bank, w_way};
    assign wr_data   = {d_ins, hk_reg, hv_reg};

    always @(posedge clk) begin
        case (st_reg)
            S_READ:  if (h_read) begin
                         st_reg   <= S_WAIT;
                         wait_reg <= 2'd0;
                     end
            S_WAIT:  begin
                         wait_reg <= wait_reg + 2'd1;
                         if (wait_reg == 2'd2) begin
                             st_reg <= S_WRITE;            // r+3: the fold is registered
                         end
                     end
            S_WRITE: if (h_write) begin
                         st_reg <= S_IDLE;
                         rval   <= found ? hval_reg : {VAL_WIDTH{1'b0}};
                         {res_bank, res_way} <= 2'b00;
                         res_set <= {IW{1'b0}};
                         if (found || (d_ins && !full)) begin
                             {res_bank, res_way} <= {w_bank, w_way};
                             res_set <= w_bank ? hs1_reg : hs0_reg;
                         end
                         if (d_ins) begin
                             result <= found ? R_UPDATED : (full ? R_FULL : R_INSERTED);
                             if (!found && !full) begin
                                 used <= used + 1'b1;
                             end
                         end else if (d_del) begin
                             result <= found ? R_DELETED : R_NOT_FOUND;
                             if (found) begin
                                 used <= used - 1'b1;
                             end
                         end else begin
                             result <= found ? R_FOUND : R_NOT_FOUND;
                         end
                     end
            default: ;
        endcase
        if (clr_reg) begin
            clr_set_reg <= clr_set_reg + 1'b1;
            if (&clr_set_reg) begin               // set SETS-1
                clr_reg <= 1'b0;
                if (clr_cmd_reg) begin
                    result <= R_CLEARED;
                    used   <= {(IW+3){1'b0}};
                end
            end
        end
        if (h_cmd_valid) begin
            overrun <= busy;                               // set while busy, cleared when taken
        end
        if (take_cmd) begin
            cmd_reg <= h_cmd;
            hk_reg  <= h_key;
            hv_reg  <= h_val;
            hs0_reg <= hs0;
            hs1_reg <= hs1;
            if (h_cmd == CMD_INSERT || h_cmd == CMD_DELETE || h_cmd == CMD_FIND) begin
                st_reg <= S_READ;
            end else if (h_cmd == CMD_CLEAR) begin
                clr_reg     <= 1'b1;
                clr_cmd_reg <= 1'b1;
                clr_set_reg <= {IW{1'b0}};
            end else begin
                result <= R_BAD_CMD;
            end
        end
        if (rst) begin
            st_reg      <= S_IDLE;
            clr_reg     <= 1'b1;
            clr_cmd_reg <= 1'b0;
            clr_set_reg <= {IW{1'b0}};
            result      <= 4'd0;
            used        <= {(IW+3){1'b0}};
            overrun     <= 1'b0;
            rval        <= {VAL_WIDTH{1'b0}};
            res_bank    <= 1'b0;
            res_way     <= 1'b0;
            res_set     <= {IW{1'b0}};
        end
    end

endmodule

`resetall
