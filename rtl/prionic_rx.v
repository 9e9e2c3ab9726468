// SPDX-License-Identifier: MIT
//
// prionic_rx: the prionic receive path, top level. Frames arrive on an AXI4-Stream
// from a MAC (F1); the parser (F3, with checksum verification F4) and the rule table
// (F5-F7) classify each frame to a queue or a drop verdict while its words wait in the
// frame FIFO; admission gives it a posted descriptor of its queue's ring, or drops it,
// last of all when its rule's rate limiter has no budget left (F9, F12); the frame moves
// into its queue's on-chip buffer, and the DMA engine, always serving the highest-priority
// queue with a complete frame (F11), writes it into host memory over AXI4 and writes the
// completion (with the parser's flags) back into the ring; per-queue moderation (F14),
// priority gating (F16) and the global interrupt budget (F10) raise the queue's
// interrupt line (F15). Registers and counters
// (F13) are on AXI4-Lite. docs/frame-path.md walks a frame through; docs/timing.md
// gives every latency: tlast at T -> verdict pulse at T+12 (a frame looked up in the
// rule table and flow cache; T+9 for one that skips them); completion B at C -> irq at C+2
// in immediate mode.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "prionic_axi.vh"

module prionic_rx #(
    parameter DATA_WIDTH       = 32,               // stream width: 8, 16, 32, 64
    parameter KEEP_WIDTH       = DATA_WIDTH / 8,
    parameter AXI_DATA_WIDTH   = 2 * DATA_WIDTH,   // host memory (DMA) width: DATA_WIDTH * 1, 2 or 4 (F25)
    parameter AXI_STRB_WIDTH   = AXI_DATA_WIDTH / 8,
    parameter NUM_QUEUES       = 2,                // receive queues (1..16)
    parameter NUM_RULES        = 4,                // classification rules (1..64)
    parameter AXI_ADDR_WIDTH   = 32,               // host address bits
    parameter AXI_ID_WIDTH     = 4,                // DMA AXI ID bits, 2..: {write-back, epoch} (F24, docs/faults.md);
                                                   // a response owed across 2^(AXI_ID_WIDTH-1) write or
                                                   // 2^AXI_ID_WIDTH read epoch advances (timeouts, busy
                                                   // resets) is taken as current: the bus answers sooner
    parameter AXIL_ADDR_WIDTH  = 16,               // register address bits
    parameter MAX_FRAME_LEN    = 1518,             // longer frames are dropped (OVERSIZE)
    parameter FIFO_BYTES       = 4096,             // shared ingress frame FIFO (power of 2)
    parameter QBUF_BYTES       = 4096,             // on-chip buffer per queue (power of 2, F11)
    parameter QBUF_FRAMES_LOG2 = 5,                // log2 frames each queue buffer tracks
    parameter META_ADDR_WIDTH  = 4,                // log2 of frame entries in flight
    parameter RULES_PER_CYCLE  = 0,                // rules compared per cycle, 0: all (F8)
    parameter FLOW_ENTRIES     = 16,               // flow cache entries: 0 or 2..256, power of 2 (F8)
    parameter FLOW_TS_SHIFT    = 14,               // flow cache time unit: 2^FLOW_TS_SHIFT cycles (F8)
    parameter FLOW_TABLE_SETS  = 0                 // flow table sets per bank: 0 (none) or 2..1024, power of 2;
                                                   // a table needs FLOW_ENTRIES = 0 (F31, docs/flowtable.md)
) (
    input  wire                       clk,
    input  wire                       rst,      // reset of the NIC; the host memory bus goes on (F24)
    input  wire                       bus_rst,  // the bus and host memory are reset too: resets all rst does (F24)

    // frames from the MAC (F1)
    input  wire [DATA_WIDTH-1:0]      s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]      s_axis_tkeep,
    input  wire                       s_axis_tvalid,
    output wire                       s_axis_tready,
    input  wire                       s_axis_tlast,
    input  wire                       s_axis_tuser,

    // host memory (F12): AXI4 master (rtl/prionic_axi.vh)
    `PRIONIC_AXI_M_WRITE_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH, AXI_STRB_WIDTH),
    `PRIONIC_AXI_M_READ_PORTS(AXI_ID_WIDTH, AXI_ADDR_WIDTH, AXI_DATA_WIDTH),

    // registers (docs/registers.md): AXI4-Lite slave (rtl/prionic_axi.vh)
    `PRIONIC_AXIL_S_PORTS(AXIL_ADDR_WIDTH),

    // running task priority from an interrupt controller (F16); registered on entry
    input  wire [7:0]                 run_prio,

    // frames lost in front of s_axis, one pulse each, counted (docs/board.md, F2, F29):
    // [0] CNT_DROP_FIFO, [1] CNT_DROP_PREAMBLE, [2] CNT_DROP_SHORT; tie to 0 when unused
    input  wire [2:0]                 ext_drop,

    // interrupts (F15)
    output wire [NUM_QUEUES-1:0]      irq,
    output wire                       irq_legacy,
    output wire [8:0]                 status_pend_prio,  // {valid, highest QUEUE_PRIO pending} (F16)

    // observability (docs/frame-path.md section 6)
    output wire                       stat_verdict_valid,
    output wire [3:0]                 stat_verdict_code,
    output wire [7:0]                 stat_verdict_queue,
    output wire [7:0]                 stat_verdict_rule,
    output wire [NUM_QUEUES-1:0]      stat_irq,
    // host-side faults (F24, docs/faults.md): DMA events at E+1, and a queue stopped
    output wire                       stat_dma_valid,
    output wire [3:0]                 stat_dma_code,
    output wire [7:0]                 stat_dma_queue,
    output wire                       irq_err
);

`include "prionic_regs.vh"

    // the core reset: rst, or a reset of the bus (bus_rst), which resets the NIC as well
    wire core_rst = rst || bus_rst;

    localparam integer FIFO_ADDR_WIDTH = $clog2(FIFO_BYTES / AXI_STRB_WIDTH);
    localparam integer MAX_BEATS = (MAX_FRAME_LEN + AXI_STRB_WIDTH) / AXI_STRB_WIDTH;
    localparam integer RATIO = AXI_DATA_WIDTH / DATA_WIDTH;   // stream words per frame FIFO word
    localparam integer RSHIFT = RATIO > 1 ? $clog2(RATIO) : 0;
    localparam integer META_DEPTH = 1 << META_ADDR_WIDTH;
    localparam integer RPC = (RULES_PER_CYCLE < 1 || RULES_PER_CYCLE > NUM_RULES) ? NUM_RULES
                                                                                   : RULES_PER_CYCLE;
    localparam integer CLS_ADDR_WIDTH = 3;   // parse results waiting for the classifier

    initial begin
        if ((1 << FIFO_ADDR_WIDTH) < MAX_BEATS) begin
            $error("Error: FIFO_BYTES must hold a frame of MAX_FRAME_LEN + 1 bytes (instance %m)");
            $finish;
        end
        if (META_ADDR_WIDTH < 3) begin
            $error("Error: META_ADDR_WIDTH must be at least 3 (instance %m)");
            $finish;
        end
    end

    // ------------------------------------------------------------------ time base
    reg [31:0] ts_reg;
    always @(posedge clk) begin
        ts_reg <= ts_reg + 32'd1;
        if (core_rst) begin
            ts_reg <= 32'd0;
        end
    end

    // ------------------------------------------------------------------ registers
    // the register block, its wires and its connections are generated from docs/regmap.toml
    // (python -m gen.regmap): a register's value is cfg_<name>, a read-only source
    // is status_<source>
`include "prionic_regs_wires.vh"
    wire        stat_flow_hit, stat_flow_miss, stat_flow_table_hit;
    wire        stat_ext_drop_fifo     = ext_drop[0];
    wire        stat_ext_drop_preamble = ext_drop[1];
    wire        stat_ext_drop_short    = ext_drop[2];
    wire                  stat_dma_err_any;
    wire [NUM_QUEUES-1:0] stat_dma_err, stat_dma_flush;
    wire [15:0] stat_verdict_len;

    assign status_ts           = ts_reg;
    assign status_dma_stopped  = q_stopped;
    assign stat_dma_err_any    = stat_dma_valid && stat_dma_code != DMA_EVENT_FLUSH;
    // irq_err: a queue needs the recovery; a stall (DMA_STALL) needs none and raises nothing
    assign irq_err             = |q_stopped;
    assign status_irq          = irq;
    assign status_pending_prio = status_pend_prio;

    // DMA_STALL (F24): sticky, set at E+1 from a STALL_W or STALL_R event (stat_dma_valid is
    // high from E), cleared by a write of 1 (cfg_dma_stall_clr high from w); a clear and a
    // set at one edge leave the bit set
    reg [1:0] dma_stall_reg;
    always @(posedge clk) begin
        dma_stall_reg <= (dma_stall_reg & ~cfg_dma_stall_clr)
                       | {stat_dma_valid && stat_dma_code == DMA_EVENT_STALL_R,
                          stat_dma_valid && stat_dma_code == DMA_EVENT_STALL_W};
        if (core_rst) begin
            dma_stall_reg <= 2'b00;
        end
    end
    assign status_dma_stall = dma_stall_reg;

    // configuration as the blocks take it, from the registers' fields
    wire [NUM_QUEUES*64-1:0] cfg_ring_base;       // {RING_BASE_HI, RING_BASE_LO} per queue
    wire [NUM_QUEUES*64-1:0] cfg_win_base;        // {DMA_WIN_HI, DMA_WIN_LO} per queue (F24)
    wire [NUM_QUEUES-1:0]    cfg_itr_immediate;   // ITR_CTRL.IMMEDIATE
    wire [NUM_QUEUES*3-1:0]  dma_qerr;            // per queue: the DMA error that stopped it (F24)
    wire [NUM_QUEUES-1:0]    q_stopped, q_busy, q_off;
    wire [NUM_RULES-1:0]     cfg_lim_bytes;       // RULE_LIM_CTRL.BYTES
    wire [NUM_RULES*8-1:0]   cfg_lim_id;          // the limiter each rule's frames spend (F9)
    wire [NUM_RULES*16-1:0]  cfg_rule_vlan16;     // RULE_VLAN, 16 bits per rule
    wire                     cfg_flow_enable = cfg_flow_ctrl[F_FLOW_CTRL_ENABLE];
    genvar gq, gr;
    generate
        for (gq = 0; gq < NUM_QUEUES; gq = gq + 1) begin : g_qcfg
            localparam [7:0] QI = gq;
            assign cfg_ring_base[gq*64 +: 64] = {cfg_ring_base_hi[gq*32 +: 32], cfg_ring_base_lo[gq*32 +: 32]};
            assign cfg_win_base[gq*64 +: 64]  = {cfg_dma_win_hi[gq*32 +: 32], cfg_dma_win_lo[gq*32 +: 32]};
            assign cfg_itr_immediate[gq]      = cfg_itr_ctrl[gq*32 + F_ITR_CTRL_IMMEDIATE];
            assign q_stopped[gq] = dma_qerr[gq*3 +: 3] != 3'd0;
            assign q_off[gq]     = !cfg_queue_ctrl[gq] || q_stopped[gq];
            // ring registers take writes only while nothing is admitted and nothing can be (F24).
            // RING_SIZE < 2 is taken from a flip-flop one edge behind RING_SIZE (timing, F25):
            // exact, because the register block reads it only at a write's handshake edge, and
            // RING_SIZE changes only at a handshake edge or a reset edge, neither of which is
            // followed by a handshake at the next edge (AWREADY is low there)
            reg ring_small_reg;
            always @(posedge clk) begin
                ring_small_reg <= cfg_ring_size[gq*16 +: 16] < 16'd2;
            end
            assign status_ring_idle[gq] = !q_busy[gq] && (!cfg_queue_ctrl[gq] || ring_small_reg);
            assign status_qstatus[gq*9 +: 9] = {!cfg_queue_ctrl[gq] && !q_busy[gq], 5'd0, dma_qerr[gq*3 +: 3]};
            assign stat_dma_err[gq]   = stat_dma_valid && stat_dma_queue == QI
                                     && stat_dma_code != DMA_EVENT_FLUSH;
            assign stat_dma_flush[gq] = stat_dma_valid && stat_dma_queue == QI
                                     && stat_dma_code == DMA_EVENT_FLUSH;
        end
        for (gr = 0; gr < NUM_RULES; gr = gr + 1) begin : g_rcfg
            localparam [7:0] OWN = gr;
            assign cfg_lim_bytes[gr]      = cfg_rule_lim_ctrl[gr*16 + F_RULE_LIM_CTRL_BYTES];
            // SHARED: the limiter LIMITER names, else the rule's own
            assign cfg_lim_id[gr*8 +: 8]  = cfg_rule_lim_ctrl[gr*16 + F_RULE_LIM_CTRL_SHARED]
                                            ? cfg_rule_lim_ctrl[gr*16 + F_RULE_LIM_CTRL_LIMITER_LSB +: 8] : OWN;
            assign cfg_rule_vlan16[gr*16 +: 16] = {1'b0, cfg_rule_vlan[gr*15 +: 15]};
        end
    endgenerate
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cfg = &{1'b0, cfg_itr_ctrl, cfg_rule_lim_ctrl};  // fields no block takes
    /* verilator lint_on UNUSEDSIGNAL */

    // the port is sampled like a register write: seen by moderation one edge later
    reg  [7:0] run_prio_in_reg;
    always @(posedge clk) begin
        run_prio_in_reg <= run_prio;
        if (core_rst) begin
            run_prio_in_reg <= 8'd0;
        end
    end
    // the running priority is the larger of RUN_PRIO and the port: moderation takes both and
    // compares a queue's priority with each (timing: F25, no max in front of its compares)

    prionic_regs #(
        .NUM_QUEUES(NUM_QUEUES),
        .NUM_RULES(NUM_RULES),
        .DATA_WIDTH(DATA_WIDTH),
        .RULES_PER_CYCLE(RPC),
        .FLOW_ENTRIES(FLOW_ENTRIES),
        .FLOW_TABLE_SETS(FLOW_TABLE_SETS),
        .ADDR_WIDTH(AXIL_ADDR_WIDTH)
    ) regs_inst (
`include "prionic_regs_conn.vh"
    );

    // ------------------------------------------------------------------ input, parser
    wire [FIFO_ADDR_WIDTH:0] frame_fifo_count;
    wire [META_ADDR_WIDTH:0] meta_count;
    wire [CLS_ADDR_WIDTH:0]  cls_pending;
    // Frames between tlast and their meta entry: the ones waiting for the classifier or in
    // its lookup (cls_pending), the ones in the parser's pipeline (prs_inflight, 0..7,
    // counted), and at most 2 in the registers after the classifier. tready is a register
    // (F25: its fan-out reaches every input register), decided at the edge before from
    // these counts, so it also keeps room for the tlast that may be accepted at that edge
    // and the one at the edge it applies to; likewise one frame FIFO word more.
    wire [2:0]  prs_inflight;
    localparam integer META_FREE = META_DEPTH - 4;
    localparam integer CLS_FREE  = (1 << CLS_ADDR_WIDTH) - 2;
    localparam integer FIFO_FREE = (1 << FIFO_ADDR_WIDTH) - 2;
    // the compares are made for each of the 8 values prs_inflight may have, which then picks
    // one (F25: the parser's count comes last), so room is exactly
    // meta_count + cls_pending + prs_inflight <= META_FREE && cls_pending + prs_inflight <= CLS_FREE
    wire [31:0] base_ahead = {{(31-CLS_ADDR_WIDTH){1'b0}}, cls_pending};
    wire [31:0] base_in    = {{(31-META_ADDR_WIDTH){1'b0}}, meta_count} + base_ahead;
    wire [7:0]  room_at;   // room if prs_inflight were the index
    genvar gtr;
    generate
        for (gtr = 0; gtr < 8; gtr = gtr + 1) begin : g_room
            localparam integer META_TH = META_FREE - gtr;
            localparam integer CLS_TH  = CLS_FREE - gtr;
            if (META_TH < 0 || CLS_TH < 0) begin : g_never
                assign room_at[gtr] = 1'b0;
            end else begin : g_cmp
                assign room_at[gtr] = META_TH >= base_in && CLS_TH >= base_ahead;
            end
        end
    endgenerate
    wire room = room_at[prs_inflight]
                && FIFO_FREE >= {{(31-FIFO_ADDR_WIDTH){1'b0}}, frame_fifo_count};
    reg  tready_reg;
    always @(posedge clk) begin
        tready_reg <= room;   // the counts are their reset values while core_rst is high
    end
    assign s_axis_tready = tready_reg;
    wire beat = s_axis_tvalid && s_axis_tready;
    wire beat_store;

    wire        prs_valid, prs_bad, prs_oversize, prs_malformed, prs_is_ipv4, prs_ports_valid;
    wire [15:0] prs_len, prs_words, prs_sport, prs_dport, prs_ethertype;
    wire        prs_frag;
    wire [31:0] prs_src_ip, prs_dst_ip;
    wire [31:0] prs_ts;
    wire [7:0]  prs_proto;
    wire        prs_is_ipv6;
    wire [1:0]  prs_vlan_tags;
    wire [15:0] prs_tci;
    wire [7:0]  prs_tcp_flags, prs_flags;
    // completion info (frame-path.md s4): the `info` record of docs/regmap.toml
    wire [REC_INFO_W-1:0] prs_info;
    assign prs_info[REC_INFO_TCI_LSB +: REC_INFO_TCI_W]             = prs_tci;
    assign prs_info[REC_INFO_TCP_FLAGS_LSB +: REC_INFO_TCP_FLAGS_W] = prs_tcp_flags;
    assign prs_info[REC_INFO_VLAN_TAGS_LSB +: REC_INFO_VLAN_TAGS_W] = prs_vlan_tags;
    assign prs_info[REC_INFO_RSVD_LSB +: REC_INFO_RSVD_W]           = {REC_INFO_RSVD_W{1'b0}};
    assign prs_info[REC_INFO_FLAGS_LSB +: REC_INFO_FLAGS_W]         = prs_flags;

    prionic_parser #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .MAX_FRAME_LEN(MAX_FRAME_LEN)
    ) parser_inst (
        .clk(clk),
        .rst(core_rst),
        .s_beat_data(s_axis_tdata),
        .s_beat_keep(s_axis_tkeep),
        .s_beat_valid(beat),
        .s_beat_last(s_axis_tlast),
        .s_beat_user(s_axis_tuser),
        .s_beat_store(beat_store),
        .ts(ts_reg),
        .status_inflight(prs_inflight),
        .m_valid(prs_valid),
        .m_len(prs_len),
        .m_words(prs_words),
        .m_ts(prs_ts),
        .m_bad(prs_bad),
        .m_oversize(prs_oversize),
        .m_malformed(prs_malformed),
        .m_is_ipv4(prs_is_ipv4),
        .m_proto(prs_proto),
        .m_ports_valid(prs_ports_valid),
        .m_sport(prs_sport),
        .m_dport(prs_dport),
        .m_ethertype(prs_ethertype),
        .m_frag(prs_frag),
        .m_src_ip(prs_src_ip),
        .m_dst_ip(prs_dst_ip),
        .m_is_ipv6(prs_is_ipv6),
        .m_vlan_tags(prs_vlan_tags),
        .m_tci(prs_tci),
        .m_tcp_flags(prs_tcp_flags),
        .m_flags(prs_flags)
    );

    // ------------------------------------------------------------------ frame FIFO
    // The frame FIFO holds AXI_DATA_WIDTH words: RATIO stream words each, lane 0 first; a
    // frame starts at a new word, its last word is pushed at tlast (docs/frame-path.md 4.1),
    // so the DMA reads a frame at the AXI width without repacking.
    wire [AXI_DATA_WIDTH-1:0] fifo_data;
    wire                      fifo_valid, fifo_ready;
    wire                      store = beat && beat_store;
    reg  [AXI_DATA_WIDTH-1:0] pack_reg;
    reg  [RSHIFT:0]           pack_cnt_reg;       // stream words held in pack_reg
    wire [AXI_DATA_WIDTH-1:0] pack_word;
    wire                      pack_push;
    generate
        if (RATIO == 1) begin : g_nopack
            assign pack_word = s_axis_tdata;
            assign pack_push = store;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_pack = &{1'b0, pack_reg, pack_cnt_reg};
            /* verilator lint_on UNUSEDSIGNAL */
            always @(posedge clk) begin
                pack_reg     <= {AXI_DATA_WIDTH{1'b0}};
                pack_cnt_reg <= {(RSHIFT+1){1'b0}};
            end
        end else begin : g_pack
            reg [AXI_DATA_WIDTH-1:0] merged;
            integer pl;
            always @* begin
                merged = pack_reg;
                for (pl = 0; pl < RATIO; pl = pl + 1) begin
                    if (pack_cnt_reg == pl[RSHIFT:0]) begin
                        merged[pl*DATA_WIDTH +: DATA_WIDTH] = s_axis_tdata;
                    end
                end
            end
            assign pack_word = store ? merged : pack_reg;
            assign pack_push = (store && pack_cnt_reg == RATIO[RSHIFT:0] - 1'b1)
                            || (beat && s_axis_tlast && (store || pack_cnt_reg != {(RSHIFT+1){1'b0}}));
            always @(posedge clk) begin
                if (pack_push) begin
                    pack_reg     <= {AXI_DATA_WIDTH{1'b0}};
                    pack_cnt_reg <= {(RSHIFT+1){1'b0}};
                end else if (store) begin
                    pack_reg     <= merged;
                    pack_cnt_reg <= pack_cnt_reg + 1'b1;
                end
                if (core_rst) begin
                    pack_reg     <= {AXI_DATA_WIDTH{1'b0}};
                    pack_cnt_reg <= {(RSHIFT+1){1'b0}};
                end
            end
        end
    endgenerate

    /* verilator lint_off PINCONNECTEMPTY */
    prionic_fifo #(
        .WIDTH(AXI_DATA_WIDTH),
        .ADDR_WIDTH(FIFO_ADDR_WIDTH),
        .OUTPUT_REG(1)
    ) frame_fifo_inst (
        .clk(clk),
        .rst(core_rst),
        .s_data(pack_word),
        .s_valid(pack_push),
        .s_ready(),
        .m_data(fifo_data),
        .m_valid(fifo_valid),
        .m_ready(fifo_ready),
        .status_count(frame_fifo_count)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ------------------------------------------------------------------ classifier
    wire        cls_valid;
    wire [3:0]  cls_code;
    wire [7:0]  cls_queue, cls_rule;
    wire [15:0] cls_len, cls_words;
    // the cls_len and cls_words of the next edge's verdict (F25): the `lookahead` record of
    // docs/regmap.toml, one bus from the classifier to admission
    wire [REC_LOOKAHEAD_W-1:0] cls_lookahead;
    // the length of the frame being looked up, the only kind that names a rule (the limiter's cost)
    wire [15:0] cls_lookup_len = cls_lookahead[REC_LOOKAHEAD_LOOKUP_LEN_LSB +: REC_LOOKAHEAD_LOOKUP_LEN_W];
    wire [31:0] cls_ts;
    wire [39:0] cls_info;

    prionic_classifier #(
        .NUM_RULES(NUM_RULES),
        .NUM_QUEUES(NUM_QUEUES),
        .RULES_PER_CYCLE(RPC),
        .FLOW_ENTRIES(FLOW_ENTRIES),
        .FLOW_TS_SHIFT(FLOW_TS_SHIFT),
        .FLOW_TABLE_SETS(FLOW_TABLE_SETS),
        .QUEUE_ADDR_WIDTH(CLS_ADDR_WIDTH)
    ) classifier_inst (
        .clk(clk),
        .rst(core_rst),
        .cfg_rule_ctrl(cfg_rule_ctrl),
        .cfg_rule_dport(cfg_rule_dport),
        .cfg_rule_sport(cfg_rule_sport),
        .cfg_rule_ethertype(cfg_rule_ethertype),
        .cfg_rule_vlan(cfg_rule_vlan16),
        .cfg_rule_src_ip(cfg_rule_src_ip),
        .cfg_rule_src_mask(cfg_rule_src_mask),
        .cfg_rule_dst_ip(cfg_rule_dst_ip),
        .cfg_rule_dst_mask(cfg_rule_dst_mask),
        .cfg_default_action(cfg_default_action),
        .cfg_frag_action(cfg_frag_action),
        .cfg_flow_enable(cfg_flow_enable),
        .cfg_flow_idle(cfg_flow_idle),
        .cfg_table_clr(cfg_table_clr),
        .now_ts(ts_reg),
        .cfg_flow_go(cfg_flow_go),
        .cfg_flow_cmd(cfg_flow_cmd),
        .cfg_flow_key({cfg_flow_key4, cfg_flow_key3, cfg_flow_key2, cfg_flow_key1, cfg_flow_key0}),
        .cfg_flow_val(cfg_flow_val),
        .status_flow(status_flow_status),
        .status_flow_rval(status_flow_rval),
        .status_flow_used(status_flow_used),
        .stat_flow_table_hit(stat_flow_table_hit),
        .status_pending(cls_pending),
        .stat_flow_hit(stat_flow_hit),
        .stat_flow_miss(stat_flow_miss),
        .s_valid(prs_valid),
        .s_len(prs_len),
        .s_words(prs_words),
        .s_ts(prs_ts),
        .s_info(prs_info),
        .s_bad(prs_bad),
        .s_oversize(prs_oversize),
        .s_malformed(prs_malformed),
        .s_is_ipv4(prs_is_ipv4),
        .s_proto(prs_proto),
        .s_ports_valid(prs_ports_valid),
        .s_dport(prs_dport),
        .s_sport(prs_sport),
        .s_ethertype(prs_ethertype),
        .s_is_ipv6(prs_is_ipv6),
        .s_vlan_tags(prs_vlan_tags),
        .s_tci(prs_tci),
        .s_frag(prs_frag),
        .s_src_ip(prs_src_ip),
        .s_dst_ip(prs_dst_ip),
        .m_valid(cls_valid),
        .m_code(cls_code),
        .m_queue(cls_queue),
        .m_rule(cls_rule),
        .m_len(cls_len),
        .m_lookahead(cls_lookahead),
        .m_words(cls_words),
        .m_ts(cls_ts),
        .m_info(cls_info)
    );

    // ------------------------------------------------------------------ rate limiters (F9)
    // one deferrable server per rule, asked by admission with the frame's rule id; the
    // rule's RULE_LIM_CTRL picks the limiter (its own, or a shared one: F9), inside the
    // limiter; 0xFF (no rule) and ids >= NUM_RULES pass. The limiter takes its
    // configuration and the query's cost one edge ahead (docs/limiter.md s3, s8): a
    // RULE_LIM_* write at w is seen at w+2, with the restart its pulse at w+1 makes; the
    // cost is the length of the frame being looked up (cls_lookup_len), which is the length
    // of the next verdict that can carry a rule (timing: F25)
    wire        lim_q_valid, lim_q_consume, lim_q_pass;
    wire [7:0]  adm_lim_rule;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [15:0] adm_lim_cost;   // the limiter takes the cost one edge ahead (cls_lookup_len)
    /* verilator lint_on UNUSEDSIGNAL */

    prionic_limiter #(
        .NUM_LIMITERS(NUM_RULES)
    ) limiter_inst (
        .clk(clk),
        .rst(core_rst),
        .cfg_budget(cfg_rule_lim_budget),
        .cfg_period(cfg_rule_lim_period),
        .cfg_mode(cfg_lim_bytes),
        .cfg_restart(cfg_lim_restart),
        .cfg_lim_id(cfg_lim_id),
        .p_cost(cls_lookup_len),
        .q_valid(lim_q_valid),
        .q_id(adm_lim_rule),
        .q_consume(lim_q_consume),
        .q_pass(lim_q_pass)
    );

    // ------------------------------------------------------------------ admission
    wire        cpl_valid, cpl_flush;
    wire [7:0]  cpl_queue;
    wire [NUM_QUEUES-1:0] cpl_q_valid;      // the completion's queue, one-hot (registered in the DMA)
    wire [NUM_QUEUES*16-1:0] cpl_q_words;   // ... its words in that queue's slot, 0 in the others
    wire [NUM_QUEUES-1:0] cpl_int;          // ... when it is no FLUSH (F24)
    wire [15:0] cpl_words;
    /* verilator lint_off UNUSEDSIGNAL */
    // admission, moderation: one-hot, and admission the words per queue
    wire unused_cpl = &{1'b0, cpl_valid, cpl_queue, cpl_flush, cpl_words};
    /* verilator lint_on UNUSEDSIGNAL */
    // admission entries: the `meta` record of docs/regmap.toml, one bus from admission to
    // the DMA (each block slices it with the REC_META_* constants)
    wire                  adm_valid;
    wire [REC_META_W-1:0] adm_meta;

    prionic_admit #(
        .NUM_QUEUES(NUM_QUEUES),
        .QBUF_WORDS(QBUF_BYTES / KEEP_WIDTH),
        .QBUF_FRAMES(1 << QBUF_FRAMES_LOG2)
    ) admit_inst (
        .clk(clk),
        .rst(core_rst),
        .cfg_ring_size(cfg_ring_size),
        .cfg_ring_tail(cfg_ring_tail),
        .cfg_buf_size(cfg_buf_size),
        .cfg_ring_rst(cfg_ring_rst),
        .cfg_queue_off(q_off),
        .status_busy(q_busy),
        .s_cpl_q_valid(cpl_q_valid),
        .s_cpl_q_words(cpl_q_words),
        .p_lookahead(cls_lookahead),
        .s_valid(cls_valid),
        .s_code(cls_code),
        .s_queue(cls_queue),
        .s_rule(cls_rule),
        .s_len(cls_len),
        .s_words(cls_words),
        .s_ts(cls_ts),
        .s_info(cls_info),
        .lim_q_valid(lim_q_valid),
        .lim_q_id(adm_lim_rule),
        .lim_q_cost(adm_lim_cost),
        .lim_q_consume(lim_q_consume),
        .lim_q_pass(lim_q_pass),
        .m_valid(adm_valid),
        .m_meta(adm_meta),
        .stat_verdict_valid(stat_verdict_valid),
        .stat_verdict_code(stat_verdict_code),
        .stat_verdict_queue(stat_verdict_queue),
        .stat_verdict_rule(stat_verdict_rule),
        .stat_verdict_len(stat_verdict_len)
    );

    // the entry FIFO between admission and the queue buffers
    wire [REC_META_W-1:0] meta_out;
    wire                  meta_valid, meta_ready;
    wire [15:0]           adm_words = adm_meta[REC_META_WORDS_LSB +: REC_META_WORDS_W];

    // with each entry, whether its stream word count is 0 or one frame FIFO word (1..RATIO),
    // computed as it is pushed (timing: F25): the queue buffers' mover decides its next
    // state from these two bits, not from a compare behind the FIFO's read
    localparam [15:0] RATIO16 = RATIO[15:0];
    wire meta_none_in = adm_words == 16'd0;
    wire meta_one_in  = !meta_none_in && RATIO16 >= adm_words;
    wire meta_none, meta_one;

    /* verilator lint_off PINCONNECTEMPTY */
    prionic_fifo #(
        .WIDTH(REC_META_W + 2),
        .ADDR_WIDTH(META_ADDR_WIDTH)
    ) meta_fifo_inst (
        .clk(clk),
        .rst(core_rst),
        .s_data({meta_none_in, meta_one_in, adm_meta}),
        .s_valid(adm_valid),
        .s_ready(),
        .m_data({meta_none, meta_one, meta_out}),
        .m_valid(meta_valid),
        .m_ready(meta_ready),
        .status_count(meta_count)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ------------------------------------------------------------------ queue buffers (F11)
    localparam integer QBUF_ADDR_WIDTH = $clog2(QBUF_BYTES / AXI_STRB_WIDTH);

    wire                  qb_meta_valid, qb_meta_ready;
    wire [REC_META_W-1:0] qb_meta;
    wire [AXI_DATA_WIDTH-1:0] qb_data;
    wire                  qb_data_valid, qb_data_ready;

    prionic_qbuf #(
        .DATA_WIDTH(AXI_DATA_WIDTH),
        .WORD_RATIO(RATIO),
        .NUM_QUEUES(NUM_QUEUES),
        .QBUF_ADDR_WIDTH(QBUF_ADDR_WIDTH),
        .QMETA_ADDR_WIDTH(QBUF_FRAMES_LOG2),
        .MAX_FRAME_LEN(MAX_FRAME_LEN)
    ) qbuf_inst (
        .clk(clk),
        .rst(core_rst),
        .cfg_queue_prio(cfg_queue_prio),
        .s_meta_valid(meta_valid),
        .s_meta_ready(meta_ready),
        .s_meta(meta_out),
        .s_meta_none(meta_none),
        .s_meta_one(meta_one),
        .s_data(fifo_data),
        .s_data_valid(fifo_valid),
        .s_data_ready(fifo_ready),
        .m_meta_valid(qb_meta_valid),
        .m_meta_ready(qb_meta_ready),
        .m_meta(qb_meta),
        .m_data(qb_data),
        .m_data_valid(qb_data_valid),
        .m_data_ready(qb_data_ready)
    );

    // ------------------------------------------------------------------ DMA

    prionic_dma #(
        .DATA_WIDTH(DATA_WIDTH),
        .AXI_DATA_WIDTH(AXI_DATA_WIDTH),
        .AXI_ADDR_WIDTH(AXI_ADDR_WIDTH),
        .AXI_ID_WIDTH(AXI_ID_WIDTH),
        .NUM_QUEUES(NUM_QUEUES)
    ) dma_inst (
        .clk(clk),
        .rst(core_rst),
        .bus_rst(bus_rst),
        .cfg_ring_base(cfg_ring_base),
        .cfg_ring_size(cfg_ring_size),
        .cfg_ring_tail(cfg_ring_tail),
        .cfg_ring_rst(cfg_ring_rst),
        .cfg_timeout(cfg_dma_timeout),
        .cfg_win_base(cfg_win_base),
        .cfg_win_bits(cfg_dma_win_bits),
        .s_meta_valid(qb_meta_valid),
        .s_meta_ready(qb_meta_ready),
        .s_meta(qb_meta),
        .s_data(qb_data),
        .s_data_valid(qb_data_valid),
        .s_data_ready(qb_data_ready),
        // host memory: each m_axi_* port to the port of its name (prionic_axi.vh)
        `PRIONIC_AXI_M_WRITE_CONN,
        `PRIONIC_AXI_M_READ_CONN,
        .m_cpl_valid(cpl_valid),
        .m_cpl_queue(cpl_queue),
        .m_cpl_words(cpl_words),
        .m_cpl_flush(cpl_flush),
        .m_cpl_q_valid(cpl_q_valid),
        .m_cpl_q_words(cpl_q_words),
        .m_cpl_int(cpl_int),
        .stat_dma_valid(stat_dma_valid),
        .stat_dma_code(stat_dma_code),
        .stat_dma_queue(stat_dma_queue),
        .status_qerr(dma_qerr),
        .status_head(status_head)
    );

    // ------------------------------------------------------------------ moderation
    prionic_moderation #(
        .NUM_QUEUES(NUM_QUEUES)
    ) moderation_inst (
        .clk(clk),
        .rst(core_rst),
        .cfg_tick_div(cfg_tick_div),
        .cfg_immediate(cfg_itr_immediate),
        .cfg_frames(cfg_itr_frames),
        .cfg_pkt(cfg_itr_pkt),
        .cfg_abs(cfg_itr_abs),
        .cfg_gap(cfg_itr_gap),
        .cfg_mask(cfg_irq_mask),
        .cfg_cause_clr(cfg_irq_cause_clr),
        .cfg_queue_prio(cfg_queue_prio),
        .cfg_run_prio(cfg_run_prio),
        .cfg_run_prio_b(run_prio_in_reg),
        .cfg_budget(cfg_irq_budget),
        .cfg_budget_period(cfg_irq_budget_period),
        .cfg_exempt(cfg_irq_budget_exempt),
        .cfg_budget_restart(cfg_budget_restart),
        .s_cpl(cpl_int),   // a FLUSH is no completion (F24)
        .irq(irq),
        .irq_legacy(irq_legacy),
        .stat_irq(stat_irq),
        .status_cause(status_cause),
        .status_pending(status_pending),
        .status_pend_prio(status_pend_prio),
        .status_budget_left(status_budget_left)
    );


endmodule

`resetall
