// SPDX-License-Identifier: MIT
//
// prionic_regs: the AXI4-Lite register file (F12-F15 configuration) and the counters
// (F13). Addresses, reset values and fields come from prionic_regs.vh, generated from
// docs/regmap.toml. A write is accepted when AW and W are both valid: both handshake
// together at one edge w, the register changes at w and every other block sees it
// from w+1 (docs/timing.md, register write rule). Byte strobes are honoured. Reads have
// no side effects. Unmapped addresses read 0 and ignore writes; responses are OKAY.
// Writing RING_BASE_LO or RING_SIZE resets the queue's TAIL at w and pulses
// cfg_ring_rst (HEAD and the reservation pointer reset at w+1). A RING_TAIL value
// >= RING_SIZE is ignored. IRQ_CAUSE writes pulse cfg_cause_clr at w.
//
`resetall
`timescale 1ns / 1ps
`default_nettype none

module prionic_regs #(
    parameter NUM_QUEUES  = 2,     // receive queues (1..16)
    parameter NUM_RULES   = 4,     // classification rules (1..64)
    parameter DATA_WIDTH  = 32,    // stream width (reported in CONFIG)
    parameter RULES_PER_CYCLE = 4, // rules compared per cycle (reported in CONFIG, F8)
    parameter FLOW_ENTRIES = 16,   // flow cache entries (reported in FLOW_ENTRIES, F8)
    parameter ADDR_WIDTH  = 16     // AXI4-Lite address bits
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [ADDR_WIDTH-1:0]    s_axil_awaddr,
    input  wire [2:0]               s_axil_awprot,
    input  wire                     s_axil_awvalid,
    output wire                     s_axil_awready,
    input  wire [31:0]              s_axil_wdata,
    input  wire [3:0]               s_axil_wstrb,
    input  wire                     s_axil_wvalid,
    output wire                     s_axil_wready,
    output wire [1:0]               s_axil_bresp,
    output wire                     s_axil_bvalid,
    input  wire                     s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]    s_axil_araddr,
    input  wire [2:0]               s_axil_arprot,
    input  wire                     s_axil_arvalid,
    output wire                     s_axil_arready,
    output wire [31:0]              s_axil_rdata,
    output wire [1:0]               s_axil_rresp,
    output wire                     s_axil_rvalid,
    input  wire                     s_axil_rready,

    output wire [15:0]              cfg_tick_div,
    output wire [31:0]              cfg_default_action,
    output wire [NUM_QUEUES-1:0]    cfg_irq_mask,
    output wire [NUM_QUEUES-1:0]    cfg_cause_clr,
    output wire [NUM_QUEUES*64-1:0] cfg_ring_base,
    output wire [NUM_QUEUES*16-1:0] cfg_ring_size,
    output wire [NUM_QUEUES*16-1:0] cfg_ring_tail,
    output wire [NUM_QUEUES-1:0]    cfg_ring_rst,
    output wire [NUM_QUEUES*16-1:0] cfg_buf_size,
    output wire [NUM_QUEUES-1:0]    cfg_itr_immediate,
    output wire [NUM_QUEUES*16-1:0] cfg_itr_frames,
    output wire [NUM_QUEUES*16-1:0] cfg_itr_pkt,
    output wire [NUM_QUEUES*16-1:0] cfg_itr_abs,
    output wire [NUM_QUEUES*16-1:0] cfg_itr_gap,
    output wire [NUM_RULES*32-1:0]  cfg_rule_ctrl,
    output wire [NUM_RULES*32-1:0]  cfg_rule_dport,
    output wire [NUM_RULES*32-1:0]  cfg_rule_sport,
    output wire [NUM_RULES*16-1:0]  cfg_rule_ethertype,
    output wire [NUM_RULES*16-1:0]  cfg_rule_vlan,
    output wire [NUM_RULES*32-1:0]  cfg_rule_src_ip,
    output wire [NUM_RULES*32-1:0]  cfg_rule_src_mask,
    output wire [NUM_RULES*32-1:0]  cfg_rule_dst_ip,
    output wire [NUM_RULES*32-1:0]  cfg_rule_dst_mask,
    output wire [31:0]              cfg_frag_action,
    output wire [7:0]               cfg_run_prio,
    output wire [NUM_QUEUES*8-1:0]  cfg_queue_prio,
    output wire [NUM_RULES*32-1:0]  cfg_lim_budget,     // per-rule rate limiters (F9)
    output wire [NUM_RULES*32-1:0]  cfg_lim_period,
    output wire [NUM_RULES-1:0]     cfg_lim_bytes,
    output wire [NUM_RULES*8-1:0]   cfg_lim_id,         // limiter each rule's frames spend (F9)
    output wire [NUM_RULES-1:0]     cfg_lim_restart,    // pulse at w+1 after a write
    output wire [15:0]              cfg_budget,         // global interrupt budget (F10)
    output wire [31:0]              cfg_budget_period,
    output wire [NUM_QUEUES-1:0]    cfg_budget_exempt,
    output wire                     cfg_budget_restart, // pulse at w+1 after a write
    input  wire [15:0]              status_budget_left,
    output wire                     cfg_flow_enable,    // flow cache (F8)
    output wire [14:0]              cfg_flow_idle,
    output wire                     cfg_table_clr,      // pulse at w+1 after a rule or FLOW_* write
    input  wire                     stat_flow_hit,
    input  wire                     stat_flow_miss,

    input  wire [31:0]              status_ts,
    input  wire [NUM_QUEUES*16-1:0] status_head,
    input  wire [NUM_QUEUES*16-1:0] status_pending,
    input  wire [NUM_QUEUES-1:0]    status_cause,
    input  wire [NUM_QUEUES-1:0]    status_irq,
    input  wire [8:0]               status_pend_prio,

    input  wire                     stat_verdict_valid,
    input  wire [3:0]               stat_verdict_code,
    input  wire [7:0]               stat_verdict_queue,
    input  wire [7:0]               stat_verdict_rule,
    input  wire [15:0]              stat_verdict_len,
    input  wire [NUM_QUEUES-1:0]    stat_irq
);

`include "prionic_regs.vh"

    initial begin
        if (NUM_QUEUES < 1 || NUM_QUEUES > 16 || NUM_RULES < 1 || NUM_RULES > 64) begin
            $error("Error: NUM_QUEUES must be 1..16 and NUM_RULES 1..64 (instance %m)");
            $finish;
        end
        if (ADDR_WIDTH < 16) begin
            $error("Error: ADDR_WIDTH must be at least 16 (instance %m)");
            $finish;
        end
    end

    localparam QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1;
    localparam RW = NUM_RULES > 1 ? $clog2(NUM_RULES) : 1;
    localparam integer RS = $clog2(RREG_STRIDE);   // address bits inside a rule block
    localparam integer QS = $clog2(QREG_STRIDE);   // address bits inside a queue block
    localparam integer Q_END_I = {16'd0, QREG_BASE} + {16'd0, QREG_STRIDE} * NUM_QUEUES;
    localparam integer R_END_I = {16'd0, RREG_BASE} + {16'd0, RREG_STRIDE} * NUM_RULES;
    localparam [ADDR_WIDTH-1:0] Q_END = Q_END_I[ADDR_WIDTH-1:0];
    localparam [ADDR_WIDTH-1:0] R_END = R_END_I[ADDR_WIDTH-1:0];
    localparam integer DB_I = DATA_WIDTH / 8;
    localparam [31:0] CONFIG_VALUE = {RULES_PER_CYCLE[7:0], DB_I[7:0], NUM_RULES[7:0], NUM_QUEUES[7:0]};
    localparam [31:0] FLOW_ENTRIES_VALUE = FLOW_ENTRIES;

    // ------------------------------------------------------------------ registers
    reg [15:0]              tick_div_reg;
    reg [31:0]              default_action_reg;
    reg [NUM_QUEUES-1:0]    irq_mask_reg;
    reg [NUM_QUEUES-1:0]    cause_clr_reg;
    reg [NUM_QUEUES*64-1:0] ring_base_reg;
    reg [NUM_QUEUES*16-1:0] ring_size_reg;
    reg [NUM_QUEUES*16-1:0] ring_tail_reg;
    reg [NUM_QUEUES-1:0]    ring_rst_reg;
    reg [NUM_QUEUES*16-1:0] buf_size_reg;
    reg [NUM_QUEUES*32-1:0] itr_ctrl_reg;
    reg [NUM_QUEUES*16-1:0] itr_frames_reg;
    reg [NUM_QUEUES*16-1:0] itr_pkt_reg;
    reg [NUM_QUEUES*16-1:0] itr_abs_reg;
    reg [NUM_QUEUES*16-1:0] itr_gap_reg;
    reg [NUM_RULES*32-1:0]  rule_ctrl_reg;
    reg [NUM_RULES*32-1:0]  rule_dport_reg;
    reg [NUM_RULES*32-1:0]  rule_sport_reg;
    reg [NUM_RULES*16-1:0]  rule_ethertype_reg;
    reg [NUM_RULES*16-1:0]  rule_vlan_reg;
    reg [NUM_RULES*32-1:0]  rule_src_ip_reg;
    reg [NUM_RULES*32-1:0]  rule_src_mask_reg;
    reg [NUM_RULES*32-1:0]  rule_dst_ip_reg;
    reg [NUM_RULES*32-1:0]  rule_dst_mask_reg;
    reg [31:0]              frag_action_reg;
    reg [7:0]               run_prio_reg;
    reg [NUM_RULES*32-1:0]  lim_budget_reg;
    reg [NUM_RULES*32-1:0]  lim_period_reg;
    reg [NUM_RULES*16-1:0]  lim_ctrl_reg;
    reg [NUM_RULES-1:0]     lim_restart_reg;
    reg [15:0]              budget_reg;
    reg [31:0]              budget_period_reg;
    reg [NUM_QUEUES-1:0]    budget_exempt_reg;
    reg                     budget_restart_reg;
    reg [NUM_QUEUES*8-1:0]  queue_prio_reg;
    reg                     flow_enable_reg;
    reg [14:0]              flow_idle_reg;
    reg                     table_clr_reg;

    // counters
    reg [31:0] cnt_rx_reg, cnt_bad_reg, cnt_malformed_reg, cnt_oversize_reg;
    reg [31:0] cnt_unreg_reg, cnt_rule_reg, cnt_frag_reg;
    reg [31:0] cnt_flow_hit_reg, cnt_flow_miss_reg;
    reg [31:0] cnt_q_frames_reg [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_bytes_reg  [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_ring_reg   [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_buf_reg    [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_qbuf_reg   [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_rate_reg   [0:NUM_QUEUES-1];
    reg [31:0] cnt_q_irq_reg    [0:NUM_QUEUES-1];
    reg [31:0] cnt_r_hits_reg   [0:NUM_RULES-1];

    // AXI4-Lite handshakes
    reg        awready_reg, bvalid_reg, arready_reg, rvalid_reg;
    reg [31:0] rdata_reg;

    function [31:0] strobe(input [31:0] old, input [31:0] data, input [3:0] strb);
        integer b;
        begin
            for (b = 0; b < 4; b = b + 1) begin
                strobe[b*8 +: 8] = strb[b] ? data[b*8 +: 8] : old[b*8 +: 8];
            end
        end
    endfunction

    // 16-bit registers take bytes 0 and 1 of a write
    /* verilator lint_off UNUSEDSIGNAL */
    function [15:0] strobe16(input [15:0] old, input [31:0] data, input [3:0] strb);
        strobe16 = {strb[1] ? data[15:8] : old[15:8], strb[0] ? data[7:0] : old[7:0]};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ------------------------------------------------------------------ decode
    // (the relative addresses keep all their bits for readability; only some are used)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ADDR_WIDTH-1:0] waddr = {s_axil_awaddr[ADDR_WIDTH-1:2], 2'b00};
    wire [ADDR_WIDTH-1:0] raddr = {s_axil_araddr[ADDR_WIDTH-1:2], 2'b00};

    wire                  w_in_q   = waddr >= QREG_BASE && waddr < Q_END;
    wire [ADDR_WIDTH-1:0] w_q_rel  = waddr - QREG_BASE;
    wire [QW-1:0]         wq       = w_q_rel[QS +: QW];
    wire [ADDR_WIDTH-1:0] w_q_off  = {{(ADDR_WIDTH-QS){1'b0}}, w_q_rel[QS-1:0]};
    wire                  w_in_r   = waddr >= RREG_BASE && waddr < R_END;
    wire [ADDR_WIDTH-1:0] w_r_rel  = waddr - RREG_BASE;
    wire [RW-1:0]         wr       = w_r_rel[RS +: RW];
    wire [ADDR_WIDTH-1:0] w_r_off  = {{(ADDR_WIDTH-RS){1'b0}}, w_r_rel[RS-1:0]};

    wire                  r_in_q   = raddr >= QREG_BASE && raddr < Q_END;
    wire [ADDR_WIDTH-1:0] r_q_rel  = raddr - QREG_BASE;
    wire [QW-1:0]         rq       = r_q_rel[QS +: QW];
    wire [ADDR_WIDTH-1:0] r_q_off  = {{(ADDR_WIDTH-QS){1'b0}}, r_q_rel[QS-1:0]};
    wire                  r_in_r   = raddr >= RREG_BASE && raddr < R_END;
    wire [ADDR_WIDTH-1:0] r_r_rel  = raddr - RREG_BASE;
    wire [RW-1:0]         rr       = r_r_rel[RS +: RW];
    wire [ADDR_WIDTH-1:0] r_r_off  = {{(ADDR_WIDTH-RS){1'b0}}, r_r_rel[RS-1:0]};

    wire [31:0] mask_w = strobe({{(32-NUM_QUEUES){1'b0}}, irq_mask_reg}, s_axil_wdata, s_axil_wstrb);
    wire [31:0] exempt_w = strobe({{(32-NUM_QUEUES){1'b0}}, budget_exempt_reg}, s_axil_wdata, s_axil_wstrb);
    /* verilator lint_on UNUSEDSIGNAL */
    // IRQ_CAUSE: bit q is in byte q/8, so its byte strobe must be set to clear it
    reg [NUM_QUEUES-1:0] clr_strb;
    integer cq;
    always @* begin
        for (cq = 0; cq < NUM_QUEUES; cq = cq + 1) begin
            clr_strb[cq] = s_axil_wstrb[cq / 8];
        end
    end

    wire do_write = awready_reg && s_axil_awvalid && s_axil_wvalid;
    wire do_read  = arready_reg && s_axil_arvalid;
    wire [31:0] wd = s_axil_wdata;
    wire [3:0]  ws = s_axil_wstrb;
    wire [15:0] flow_idle_w = strobe16({1'b0, flow_idle_reg}, wd, ws);
    /* verilator lint_off UNUSEDSIGNAL */
    wire        unused_idle_msb = flow_idle_w[15];   // FLOW_IDLE is 15 bits wide
    /* verilator lint_on UNUSEDSIGNAL */

    // ------------------------------------------------------------------ read mux
    reg [31:0] rmux;
    always @* begin
        rmux = 32'd0;
        if (r_in_q) begin
            case (r_q_off)
                QREG_RING_BASE_LO: rmux = ring_base_reg[rq*64 +: 32];
                QREG_RING_BASE_HI: rmux = ring_base_reg[rq*64 + 32 +: 32];
                QREG_RING_SIZE:    rmux = {16'd0, ring_size_reg[rq*16 +: 16]};
                QREG_RING_HEAD:    rmux = {16'd0, status_head[rq*16 +: 16]};
                QREG_RING_TAIL:    rmux = {16'd0, ring_tail_reg[rq*16 +: 16]};
                QREG_BUF_SIZE:     rmux = {16'd0, buf_size_reg[rq*16 +: 16]};
                QREG_ITR_CTRL:     rmux = itr_ctrl_reg[rq*32 +: 32];
                QREG_ITR_FRAMES:   rmux = {16'd0, itr_frames_reg[rq*16 +: 16]};
                QREG_ITR_PKT:      rmux = {16'd0, itr_pkt_reg[rq*16 +: 16]};
                QREG_ITR_ABS:      rmux = {16'd0, itr_abs_reg[rq*16 +: 16]};
                QREG_ITR_GAP:      rmux = {16'd0, itr_gap_reg[rq*16 +: 16]};
                QREG_ITR_PENDING:  rmux = {16'd0, status_pending[rq*16 +: 16]};
                QREG_QUEUE_PRIO:   rmux = {24'd0, queue_prio_reg[rq*8 +: 8]};
                QREG_CNT_FRAMES:   rmux = cnt_q_frames_reg[rq];
                QREG_CNT_BYTES:    rmux = cnt_q_bytes_reg[rq];
                QREG_CNT_DROP_RING: rmux = cnt_q_ring_reg[rq];
                QREG_CNT_DROP_BUF: rmux = cnt_q_buf_reg[rq];
                QREG_CNT_DROP_QBUF: rmux = cnt_q_qbuf_reg[rq];
                QREG_CNT_IRQ:      rmux = cnt_q_irq_reg[rq];
                QREG_CNT_DROP_RATE: rmux = cnt_q_rate_reg[rq];
                default:           rmux = 32'd0;
            endcase
        end else if (r_in_r) begin
            case (r_r_off)
                RREG_RULE_CTRL:    rmux = rule_ctrl_reg[rr*32 +: 32];
                RREG_RULE_DPORT:   rmux = rule_dport_reg[rr*32 +: 32];
                RREG_RULE_SPORT:   rmux = rule_sport_reg[rr*32 +: 32];
                RREG_RULE_ETHERTYPE: rmux = {16'd0, rule_ethertype_reg[rr*16 +: 16]};
                RREG_RULE_VLAN:      rmux = {17'd0, rule_vlan_reg[rr*16 +: 15]};
                RREG_RULE_LIM_BUDGET: rmux = lim_budget_reg[rr*32 +: 32];
                RREG_RULE_LIM_PERIOD: rmux = lim_period_reg[rr*32 +: 32];
                RREG_RULE_LIM_CTRL:   rmux = {16'd0, lim_ctrl_reg[rr*16 +: 16]};
                RREG_RULE_SRC_IP:  rmux = rule_src_ip_reg[rr*32 +: 32];
                RREG_RULE_SRC_MASK: rmux = rule_src_mask_reg[rr*32 +: 32];
                RREG_RULE_DST_IP:  rmux = rule_dst_ip_reg[rr*32 +: 32];
                RREG_RULE_DST_MASK: rmux = rule_dst_mask_reg[rr*32 +: 32];
                RREG_CNT_HITS:     rmux = cnt_r_hits_reg[rr];
                default:           rmux = 32'd0;
            endcase
        end else begin
            case (raddr)
                REG_ID:                 rmux = PRIONIC_ID;
                REG_VERSION:            rmux = PRIONIC_VERSION;
                REG_CONFIG:             rmux = CONFIG_VALUE;
                REG_TICK_DIV:           rmux = {16'd0, tick_div_reg};
                REG_DEFAULT_ACTION:     rmux = default_action_reg;
                REG_FRAG_ACTION:        rmux = frag_action_reg;
                REG_CNT_DROP_FRAG:      rmux = cnt_frag_reg;
                REG_IRQ_CAUSE:          rmux = {{(32-NUM_QUEUES){1'b0}}, status_cause};
                REG_IRQ_MASK:           rmux = {{(32-NUM_QUEUES){1'b0}}, irq_mask_reg};
                REG_IRQ_STATUS:         rmux = {{(32-NUM_QUEUES){1'b0}}, status_irq};
                REG_TIMESTAMP:          rmux = status_ts;
                REG_RUN_PRIO:           rmux = {24'd0, run_prio_reg};
                REG_IRQ_BUDGET:         rmux = {16'd0, budget_reg};
                REG_IRQ_BUDGET_PERIOD:  rmux = budget_period_reg;
                REG_IRQ_BUDGET_EXEMPT:  rmux = {{(32-NUM_QUEUES){1'b0}}, budget_exempt_reg};
                REG_IRQ_BUDGET_LEFT:    rmux = {16'd0, status_budget_left};
                REG_PENDING_PRIO:       rmux = {23'd0, status_pend_prio};
                REG_CNT_RX_FRAMES:      rmux = cnt_rx_reg;
                REG_CNT_DROP_BAD:       rmux = cnt_bad_reg;
                REG_CNT_DROP_MALFORMED: rmux = cnt_malformed_reg;
                REG_CNT_DROP_OVERSIZE:  rmux = cnt_oversize_reg;
                REG_CNT_DROP_UNREG:     rmux = cnt_unreg_reg;
                REG_CNT_DROP_RULE:      rmux = cnt_rule_reg;
                REG_FLOW_CTRL:          rmux = {31'd0, flow_enable_reg};
                REG_FLOW_IDLE:          rmux = {17'd0, flow_idle_reg};
                REG_CNT_FLOW_HIT:       rmux = cnt_flow_hit_reg;
                REG_CNT_FLOW_MISS:      rmux = cnt_flow_miss_reg;
                REG_FLOW_ENTRIES:       rmux = FLOW_ENTRIES_VALUE;
                default:                rmux = 32'd0;
            endcase
        end
    end

    // ------------------------------------------------------------------ write, handshakes
    wire [QW-1:0] vq = stat_verdict_queue[QW-1:0];
    wire [RW-1:0] vr = stat_verdict_rule[RW-1:0];

    integer i;
    always @(posedge clk) begin
        awready_reg   <= !awready_reg && !bvalid_reg && s_axil_awvalid && s_axil_wvalid;
        arready_reg   <= !arready_reg && !rvalid_reg && s_axil_arvalid;
        cause_clr_reg <= {NUM_QUEUES{1'b0}};
        ring_rst_reg  <= {NUM_QUEUES{1'b0}};
        lim_restart_reg    <= {NUM_RULES{1'b0}};
        budget_restart_reg <= 1'b0;
        table_clr_reg      <= 1'b0;

        if (s_axil_bready) begin
            bvalid_reg <= 1'b0;
        end
        if (s_axil_rready) begin
            rvalid_reg <= 1'b0;
        end

        if (do_write) begin
            bvalid_reg <= 1'b1;
            if (w_in_q) begin
                case (w_q_off)
                    QREG_RING_BASE_LO: begin
                        ring_base_reg[wq*64 +: 32] <= strobe(ring_base_reg[wq*64 +: 32], wd, ws);
                        ring_tail_reg[wq*16 +: 16] <= 16'd0;
                        ring_rst_reg[wq] <= 1'b1;
                    end
                    QREG_RING_BASE_HI:
                        ring_base_reg[wq*64 + 32 +: 32] <= strobe(ring_base_reg[wq*64 + 32 +: 32], wd, ws);
                    QREG_RING_SIZE: begin
                        ring_size_reg[wq*16 +: 16] <= strobe16(ring_size_reg[wq*16 +: 16], wd, ws);
                        ring_tail_reg[wq*16 +: 16] <= 16'd0;
                        ring_rst_reg[wq] <= 1'b1;
                    end
                    QREG_RING_TAIL: begin
                        if (strobe16(ring_tail_reg[wq*16 +: 16], wd, ws) < ring_size_reg[wq*16 +: 16]) begin
                            ring_tail_reg[wq*16 +: 16] <= strobe16(ring_tail_reg[wq*16 +: 16], wd, ws);
                        end
                    end
                    QREG_BUF_SIZE:
                        buf_size_reg[wq*16 +: 16] <= strobe16(buf_size_reg[wq*16 +: 16], wd, ws);
                    QREG_ITR_CTRL:
                        itr_ctrl_reg[wq*32 +: 32] <= strobe(itr_ctrl_reg[wq*32 +: 32], wd, ws);
                    QREG_ITR_FRAMES:
                        itr_frames_reg[wq*16 +: 16] <= strobe16(itr_frames_reg[wq*16 +: 16], wd, ws);
                    QREG_ITR_PKT:
                        itr_pkt_reg[wq*16 +: 16] <= strobe16(itr_pkt_reg[wq*16 +: 16], wd, ws);
                    QREG_ITR_ABS:
                        itr_abs_reg[wq*16 +: 16] <= strobe16(itr_abs_reg[wq*16 +: 16], wd, ws);
                    QREG_ITR_GAP:
                        itr_gap_reg[wq*16 +: 16] <= strobe16(itr_gap_reg[wq*16 +: 16], wd, ws);
                    QREG_QUEUE_PRIO:
                        if (ws[0]) queue_prio_reg[wq*8 +: 8] <= wd[7:0];
                    default: ;
                endcase
            end else if (w_in_r) begin
                // a write to a table register (every RW rule register but the
                // limiter's) clears the flow cache and restarts a scan (F8)
                if (w_r_off == RREG_RULE_CTRL || w_r_off == RREG_RULE_DPORT || w_r_off == RREG_RULE_SPORT
                        || w_r_off == RREG_RULE_ETHERTYPE || w_r_off == RREG_RULE_VLAN
                        || w_r_off == RREG_RULE_SRC_IP || w_r_off == RREG_RULE_SRC_MASK
                        || w_r_off == RREG_RULE_DST_IP || w_r_off == RREG_RULE_DST_MASK) begin
                    table_clr_reg <= 1'b1;
                end
                case (w_r_off)
                    RREG_RULE_CTRL:  rule_ctrl_reg[wr*32 +: 32]  <= strobe(rule_ctrl_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_DPORT: rule_dport_reg[wr*32 +: 32] <= strobe(rule_dport_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_SPORT: rule_sport_reg[wr*32 +: 32] <= strobe(rule_sport_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_ETHERTYPE:
                        rule_ethertype_reg[wr*16 +: 16] <= strobe16(rule_ethertype_reg[wr*16 +: 16], wd, ws);
                    RREG_RULE_VLAN:
                        rule_vlan_reg[wr*16 +: 16] <= strobe16(rule_vlan_reg[wr*16 +: 16], wd, ws) & 16'h7FFF;
                    RREG_RULE_LIM_BUDGET: begin
                        lim_budget_reg[wr*32 +: 32] <= strobe(lim_budget_reg[wr*32 +: 32], wd, ws);
                        lim_restart_reg[wr] <= 1'b1;
                    end
                    RREG_RULE_LIM_PERIOD: begin
                        lim_period_reg[wr*32 +: 32] <= strobe(lim_period_reg[wr*32 +: 32], wd, ws);
                        lim_restart_reg[wr] <= 1'b1;
                    end
                    RREG_RULE_LIM_CTRL: begin
                        lim_ctrl_reg[wr*16 +: 16] <= strobe16(lim_ctrl_reg[wr*16 +: 16], wd, ws);
                        lim_restart_reg[wr] <= 1'b1;
                    end
                    RREG_RULE_SRC_IP: rule_src_ip_reg[wr*32 +: 32] <= strobe(rule_src_ip_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_SRC_MASK:
                        rule_src_mask_reg[wr*32 +: 32] <= strobe(rule_src_mask_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_DST_IP: rule_dst_ip_reg[wr*32 +: 32] <= strobe(rule_dst_ip_reg[wr*32 +: 32], wd, ws);
                    RREG_RULE_DST_MASK:
                        rule_dst_mask_reg[wr*32 +: 32] <= strobe(rule_dst_mask_reg[wr*32 +: 32], wd, ws);
                    default: ;
                endcase
            end else begin
                case (waddr)
                    REG_TICK_DIV:       tick_div_reg <= strobe16(tick_div_reg, wd, ws);
                    REG_DEFAULT_ACTION: default_action_reg <= strobe(default_action_reg, wd, ws);
                    REG_FRAG_ACTION:    frag_action_reg <= strobe(frag_action_reg, wd, ws);
                    REG_IRQ_CAUSE:      cause_clr_reg <= wd[NUM_QUEUES-1:0] & clr_strb;
                    REG_IRQ_MASK:       irq_mask_reg <= mask_w[NUM_QUEUES-1:0];
                    REG_RUN_PRIO:       if (ws[0]) run_prio_reg <= wd[7:0];
                    REG_IRQ_BUDGET: begin
                        budget_reg <= strobe16(budget_reg, wd, ws);
                        budget_restart_reg <= 1'b1;
                    end
                    REG_IRQ_BUDGET_PERIOD: begin
                        budget_period_reg <= strobe(budget_period_reg, wd, ws);
                        budget_restart_reg <= 1'b1;
                    end
                    REG_IRQ_BUDGET_EXEMPT: begin
                        budget_exempt_reg <= exempt_w[NUM_QUEUES-1:0];
                        budget_restart_reg <= 1'b1;
                    end
                    REG_FLOW_CTRL: begin
                        if (ws[0]) flow_enable_reg <= wd[F_FLOW_CTRL_ENABLE];
                        table_clr_reg <= 1'b1;
                    end
                    REG_FLOW_IDLE: begin
                        flow_idle_reg <= flow_idle_w[14:0];
                        table_clr_reg <= 1'b1;
                    end
                    default: ;
                endcase
            end
        end

        if (do_read) begin
            rvalid_reg <= 1'b1;
            rdata_reg  <= rmux;
        end

        // counters (F13): updated by the per-frame verdict and interrupt pulses
        if (stat_verdict_valid) begin
            cnt_rx_reg <= cnt_rx_reg + 32'd1;
            case (stat_verdict_code)
                VERDICT_BAD_FRAME:    cnt_bad_reg       <= cnt_bad_reg + 32'd1;
                VERDICT_MALFORMED:    cnt_malformed_reg <= cnt_malformed_reg + 32'd1;
                VERDICT_OVERSIZE:     cnt_oversize_reg  <= cnt_oversize_reg + 32'd1;
                VERDICT_UNREGISTERED: cnt_unreg_reg     <= cnt_unreg_reg + 32'd1;
                VERDICT_RULE_DROP:    cnt_rule_reg      <= cnt_rule_reg + 32'd1;
                VERDICT_FRAGMENT:     cnt_frag_reg      <= cnt_frag_reg + 32'd1;
                VERDICT_RING_FULL:    cnt_q_ring_reg[vq] <= cnt_q_ring_reg[vq] + 32'd1;
                VERDICT_BUF_OVERFLOW: cnt_q_buf_reg[vq]  <= cnt_q_buf_reg[vq] + 32'd1;
                VERDICT_QBUF_FULL:    cnt_q_qbuf_reg[vq] <= cnt_q_qbuf_reg[vq] + 32'd1;
                VERDICT_RATE_LIMITED: cnt_q_rate_reg[vq] <= cnt_q_rate_reg[vq] + 32'd1;
                VERDICT_ACCEPT: begin
                    cnt_q_frames_reg[vq] <= cnt_q_frames_reg[vq] + 32'd1;
                    cnt_q_bytes_reg[vq]  <= cnt_q_bytes_reg[vq] + {16'd0, stat_verdict_len};
                end
                default: ;
            endcase
            if (stat_verdict_rule != 8'hFF) begin
                cnt_r_hits_reg[vr] <= cnt_r_hits_reg[vr] + 32'd1;
            end
        end
        if (stat_flow_hit) begin
            cnt_flow_hit_reg <= cnt_flow_hit_reg + 32'd1;
        end
        if (stat_flow_miss) begin
            cnt_flow_miss_reg <= cnt_flow_miss_reg + 32'd1;
        end
        for (i = 0; i < NUM_QUEUES; i = i + 1) begin
            if (stat_irq[i]) begin
                cnt_q_irq_reg[i] <= cnt_q_irq_reg[i] + 32'd1;
            end
        end

        if (rst) begin
            awready_reg        <= 1'b0;
            bvalid_reg         <= 1'b0;
            arready_reg        <= 1'b0;
            rvalid_reg         <= 1'b0;
            tick_div_reg       <= RST_TICK_DIV[15:0];
            default_action_reg <= RST_DEFAULT_ACTION;
            irq_mask_reg       <= RST_IRQ_MASK[NUM_QUEUES-1:0];
            cause_clr_reg      <= {NUM_QUEUES{1'b0}};
            ring_rst_reg       <= {NUM_QUEUES{1'b0}};
            cnt_rx_reg         <= 32'd0;
            cnt_bad_reg        <= 32'd0;
            cnt_malformed_reg  <= 32'd0;
            cnt_oversize_reg   <= 32'd0;
            cnt_unreg_reg      <= 32'd0;
            cnt_rule_reg       <= 32'd0;
            cnt_frag_reg       <= 32'd0;
            cnt_flow_hit_reg   <= 32'd0;
            cnt_flow_miss_reg  <= 32'd0;
            flow_enable_reg    <= RST_FLOW_CTRL[0];
            flow_idle_reg      <= RST_FLOW_IDLE[14:0];
            table_clr_reg      <= 1'b0;
            frag_action_reg    <= RST_FRAG_ACTION;
            run_prio_reg       <= RST_RUN_PRIO[7:0];
            lim_restart_reg    <= {NUM_RULES{1'b0}};
            budget_reg         <= RST_IRQ_BUDGET[15:0];
            budget_period_reg  <= RST_IRQ_BUDGET_PERIOD;
            budget_exempt_reg  <= RST_IRQ_BUDGET_EXEMPT[NUM_QUEUES-1:0];
            budget_restart_reg <= 1'b0;
            for (i = 0; i < NUM_QUEUES; i = i + 1) begin
                ring_base_reg[i*64 +: 64]  <= {RST_RING_BASE_HI, RST_RING_BASE_LO};
                ring_size_reg[i*16 +: 16]  <= RST_RING_SIZE[15:0];
                ring_tail_reg[i*16 +: 16]  <= RST_RING_TAIL[15:0];
                buf_size_reg[i*16 +: 16]   <= RST_BUF_SIZE[15:0];
                itr_ctrl_reg[i*32 +: 32]   <= RST_ITR_CTRL;
                itr_frames_reg[i*16 +: 16] <= RST_ITR_FRAMES[15:0];
                itr_pkt_reg[i*16 +: 16]    <= RST_ITR_PKT[15:0];
                itr_abs_reg[i*16 +: 16]    <= RST_ITR_ABS[15:0];
                itr_gap_reg[i*16 +: 16]    <= RST_ITR_GAP[15:0];
                queue_prio_reg[i*8 +: 8]   <= i[7:0] + 8'd1;  // regmap: reset = index + 1
                cnt_q_frames_reg[i]        <= 32'd0;
                cnt_q_bytes_reg[i]         <= 32'd0;
                cnt_q_ring_reg[i]          <= 32'd0;
                cnt_q_buf_reg[i]           <= 32'd0;
                cnt_q_qbuf_reg[i]          <= 32'd0;
                cnt_q_irq_reg[i]           <= 32'd0;
                cnt_q_rate_reg[i]          <= 32'd0;
            end
            for (i = 0; i < NUM_RULES; i = i + 1) begin
                rule_ctrl_reg[i*32 +: 32]  <= RST_RULE_CTRL;
                rule_dport_reg[i*32 +: 32] <= RST_RULE_DPORT;
                rule_sport_reg[i*32 +: 32] <= RST_RULE_SPORT;
                rule_ethertype_reg[i*16 +: 16] <= RST_RULE_ETHERTYPE[15:0];
                rule_vlan_reg[i*16 +: 16]      <= RST_RULE_VLAN[15:0];
                lim_budget_reg[i*32 +: 32]     <= RST_RULE_LIM_BUDGET;
                lim_period_reg[i*32 +: 32]     <= RST_RULE_LIM_PERIOD;
                lim_ctrl_reg[i*16 +: 16]       <= RST_RULE_LIM_CTRL[15:0];
                rule_src_ip_reg[i*32 +: 32]   <= RST_RULE_SRC_IP;
                rule_src_mask_reg[i*32 +: 32] <= RST_RULE_SRC_MASK;
                rule_dst_ip_reg[i*32 +: 32]   <= RST_RULE_DST_IP;
                rule_dst_mask_reg[i*32 +: 32] <= RST_RULE_DST_MASK;
                cnt_r_hits_reg[i]          <= 32'd0;
            end
        end
    end

    // ------------------------------------------------------------------ outputs
    assign s_axil_awready = awready_reg;
    assign s_axil_wready  = awready_reg;
    assign s_axil_bresp   = 2'b00;
    assign s_axil_bvalid  = bvalid_reg;
    assign s_axil_arready = arready_reg;
    assign s_axil_rdata   = rdata_reg;
    assign s_axil_rresp   = 2'b00;
    assign s_axil_rvalid  = rvalid_reg;

    assign cfg_tick_div       = tick_div_reg;
    assign cfg_default_action = default_action_reg;
    assign cfg_irq_mask       = irq_mask_reg;
    assign cfg_cause_clr      = cause_clr_reg;
    assign cfg_ring_base      = ring_base_reg;
    assign cfg_ring_size      = ring_size_reg;
    assign cfg_ring_tail      = ring_tail_reg;
    assign cfg_ring_rst       = ring_rst_reg;
    assign cfg_buf_size       = buf_size_reg;
    assign cfg_itr_frames     = itr_frames_reg;
    assign cfg_itr_pkt        = itr_pkt_reg;
    assign cfg_itr_abs        = itr_abs_reg;
    assign cfg_itr_gap        = itr_gap_reg;
    assign cfg_rule_ctrl      = rule_ctrl_reg;
    assign cfg_rule_dport     = rule_dport_reg;
    assign cfg_rule_sport     = rule_sport_reg;
    assign cfg_rule_ethertype = rule_ethertype_reg;
    assign cfg_rule_vlan      = rule_vlan_reg;
    assign cfg_lim_budget     = lim_budget_reg;
    assign cfg_lim_period     = lim_period_reg;
    genvar gl;
    generate
        for (gl = 0; gl < NUM_RULES; gl = gl + 1) begin : g_lim
            localparam [7:0] OWN = gl;
            assign cfg_lim_bytes[gl]       = lim_ctrl_reg[gl*16 + F_RULE_LIM_CTRL_BYTES];
            assign cfg_lim_id[gl*8 +: 8]   = lim_ctrl_reg[gl*16 + F_RULE_LIM_CTRL_SHARED]
                                             ? lim_ctrl_reg[gl*16 + F_RULE_LIM_CTRL_LIMITER_LSB +: 8] : OWN;
        end
    endgenerate
    assign cfg_lim_restart    = lim_restart_reg;
    assign cfg_budget         = budget_reg;
    assign cfg_budget_period  = budget_period_reg;
    assign cfg_budget_exempt  = budget_exempt_reg;
    assign cfg_budget_restart = budget_restart_reg;
    assign cfg_flow_enable    = flow_enable_reg;
    assign cfg_flow_idle      = flow_idle_reg;
    assign cfg_table_clr      = table_clr_reg;
    assign cfg_rule_src_ip    = rule_src_ip_reg;
    assign cfg_rule_src_mask  = rule_src_mask_reg;
    assign cfg_rule_dst_ip    = rule_dst_ip_reg;
    assign cfg_rule_dst_mask  = rule_dst_mask_reg;
    assign cfg_frag_action    = frag_action_reg;
    assign cfg_run_prio       = run_prio_reg;
    assign cfg_queue_prio     = queue_prio_reg;

    genvar g;
    generate
        for (g = 0; g < NUM_QUEUES; g = g + 1) begin : g_imm
            assign cfg_itr_immediate[g] = itr_ctrl_reg[g*32 + F_ITR_CTRL_IMMEDIATE];
        end
    endgenerate

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{s_axil_awprot, s_axil_arprot, s_axil_awaddr[1:0], s_axil_araddr[1:0],
                    stat_verdict_queue, stat_verdict_rule, mask_w, exempt_w};
    /* verilator lint_on UNUSEDSIGNAL */

endmodule

`resetall
