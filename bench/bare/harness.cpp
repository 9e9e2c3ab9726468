// SPDX-License-Identifier: MIT
//
// bench/bare/harness.cpp: the "speed limit" of the prionic RTL. A bare Verilator
// testbench of prionic_rx, with no tracing, no Python and no co-simulation interface:
// a zero-latency AXI4 memory, a blocking AXI4-Lite master, the C host driver of
// sw/driver/prionic_drv.c (F27: it programs the NIC and recycles ring slots, F12;
// its platform callbacks are this harness's AXI4-Lite master and memory), and a player
// of a binary stimulus file
// (tb/fast/stimulus.py) on s_axis_*. It reports simulated cycles per wall-clock second of
// the traffic loop; a cocotb co-simulation of the same RTL can only be slower.
//
//   harness <stimulus.bin> [--cycles N] [--json] [--verdicts FILE]
//
// --verdicts writes "index edge code queue rule" for every stat_verdict_valid pulse
// (verdict codes: docs/regmap.toml [verdicts]); a debugging aid, it costs speed.
//
// Build: bench/bare/bench_bare.py (it passes -DDATA_WIDTH, -DAXI_DATA_WIDTH, -DNUM_QUEUES, -DNUM_RULES to
// match the Verilator -G parameters, compiles prionic_drv.c as C99 and links it in).
// Register offsets and the descriptor layout come from rtl/prionic_regs.h, generated
// from docs/regmap.toml by `python -m gen.regmap`.
//
// Cycle convention (docs/timing.md, as tb/hdl/prionic_tb_player.v): edge 0 is the first
// rising edge that samples rst low, so edge k is the DUT's TIMESTAMP k. A record's `at`
// is such an edge number; frames start no earlier than the first edge of the traffic
// loop (after reset and programming, about 100 edges). Inputs are driven with clk low;
// a handshake "happens at edge k" when valid && ready are high just before edge k.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "Vprionic_rx.h"
#include "verilated.h"
#include "prionic_drv.h"   // the C driver; includes the generated rtl/prionic_regs.h

#ifndef DATA_WIDTH
#define DATA_WIDTH 32
#endif
#ifndef AXI_DATA_WIDTH
#define AXI_DATA_WIDTH (2 * DATA_WIDTH)   // the DMA bus: prionic_rx's default, 2x the stream (F25)
#endif
#ifndef NUM_QUEUES
#define NUM_QUEUES 2
#endif
#ifndef NUM_RULES
#define NUM_RULES 4
#endif

static constexpr unsigned KW = DATA_WIDTH / 8;             // bytes per stream beat
static constexpr unsigned AKW = AXI_DATA_WIDTH / 8;        // bytes per AXI (memory) beat
static constexpr uint64_t MEM_SIZE = 0x0080'0000;          // 8 MiB host memory
// host memory layout, as tb/top/host.py
static constexpr uint64_t RING_REGION = 0x0001'0000;       // ring q at +0x1000*q
static constexpr uint64_t BUF_REGION = 0x0010'0000;        // buffers of q at +0x4'0000*q
static constexpr unsigned RING_SIZE = 128;                 // 128 * 32 B = 0x1000
static constexpr unsigned BUF_SIZE = 2048;                 // 128 * 2048 = 0x4'0000
static constexpr uint64_t REAP_PERIOD = 2000;              // cycles between host polls
static constexpr uint64_t IDLE_DRAINED = 4096;             // quiet cycles = drained

static_assert(KW == 1 || KW == 2 || KW == 4 || KW == 8, "DATA_WIDTH must be 8..64");
static_assert((AKW == KW || AKW == 2 * KW || AKW == 4 * KW) && AKW <= 16,
              "AXI_DATA_WIDTH must be DATA_WIDTH times 1, 2 or 4, at most 128");
static_assert(BUF_REGION + 0x4'0000ull * NUM_QUEUES <= MEM_SIZE, "queues do not fit");

static uint64_t ring_base(unsigned q) { return RING_REGION + 0x1000ull * q; }
static uint64_t buf_addr(unsigned q, unsigned slot) { return BUF_REGION + 0x4'0000ull * q + slot * BUF_SIZE; }

struct Record {          // one frame of the stimulus file
    uint64_t at;
    uint32_t nbytes, flags;
    size_t offset;       // of its data in Bench::stim
};

// AXI data ports up to 64 bits are integers in the Verilated model, wider ones VlWide
// (32-bit words, least significant first)
template <class T> static uint8_t byte_of(const T& v, unsigned i) { return uint8_t(uint64_t(v) >> 8 * i); }
template <std::size_t N> static uint8_t byte_of(const VlWide<N>& v, unsigned i) {
    return uint8_t(v[i / 4] >> 8 * (i % 4));
}
template <class T> static void put_bytes(T& dst, const uint8_t* p) {
    uint64_t v = 0;
    for (int i = AKW - 1; i >= 0; i--) v = v << 8 | p[i];
    dst = T(v);
}
template <std::size_t N> static void put_bytes(VlWide<N>& dst, const uint8_t* p) {
    for (std::size_t w = 0; w < N; w++) {
        uint32_t x = 0;
        for (int b = 3; b >= 0; b--) x = x << 8 | (w * 4 + b < AKW ? p[w * 4 + b] : 0);
        dst[w] = x;
    }
}

static uint64_t be(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

struct Bench {
    std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    std::unique_ptr<Vprionic_rx> top{new Vprionic_rx{ctx.get()}};
    std::vector<uint8_t> mem = std::vector<uint8_t>(MEM_SIZE);
    uint64_t edge = 0;              // number of the next edge (0: first with rst low)
    uint64_t mem_errors = 0;        // outside memory, unexpected size/burst type, bad WLAST

    // ---- stimulus player
    std::vector<uint8_t> stim;
    std::vector<Record> recs;
    size_t fi = 0;                  // frame being played
    uint32_t bi = 0;                // its next beat
    uint64_t not_before = 0;        // previous tlast handshake + 2
    bool playing = false;           // off during reset and programming

    // ---- AXI4 slave memory
    struct Burst { uint64_t addr; unsigned len, beat; uint64_t start; uint32_t id; };
    struct BResp { uint64_t at; uint32_t id; };   // a B response: from this edge, with its burst's AWID
    struct WBeat { uint8_t data[16]; uint32_t strb; bool last; uint64_t at; };
    std::deque<Burst> aw_q, ar_q;
    std::deque<WBeat> w_q;
    std::deque<BResp> b_q;          // B responses in burst order
    uint64_t quiet = 0;             // consecutive cycles without stream or DMA activity

    // ---- AXI4-Lite handshakes seen at the last edge
    bool l_aw = false, l_b = false, l_ar = false, l_r = false;
    uint32_t l_rdata = 0;

    // ---- host: the C driver's state, and what the harness checks
    prionic_dev drv{};
    uint64_t delivered[NUM_QUEUES] = {}, bytes = 0, desc_errors = 0, data_errors = 0;
    std::deque<uint64_t> expect[NUM_QUEUES];   // frames accepted to queue q, not yet reaped
    uint64_t n_verdicts = 0;        // stat_verdict pulses so far (one per frame, in order)
    FILE* verdicts = nullptr;       // --verdicts: one line per pulse

    // ------------------------------------------------------------ memory helpers
    bool in_mem(uint64_t a, uint64_t n) {
        if (a + n <= MEM_SIZE) return true;
        if (mem_errors++ < 10) std::fprintf(stderr, "harness: access [0x%llx, +%llu) outside memory\n",
                                            (unsigned long long)a, (unsigned long long)n);
        return false;
    }
    void wr(uint64_t a, uint64_t v, int n) {
        for (int i = 0; i < n; i++) mem[a + i] = uint8_t(v >> 8 * i);
    }
    // AXI INCR beat address: the start address, then the following aligned beats
    static uint64_t beat_addr(uint64_t a, unsigned i) { return i ? (a & ~uint64_t(AKW - 1)) + i * AKW : a; }

    // ------------------------------------------------------------ one clock cycle
    void drive() {
        Vprionic_rx* t = top.get();
        // stream player
        bool v = playing && fi < recs.size() && edge >= not_before && edge >= recs[fi].at;
        t->s_axis_tvalid = v;
        if (v) {
            const Record& r = recs[fi];
            uint32_t nbeats = (r.nbytes + KW - 1) / KW;
            bool last = bi + 1 == nbeats;
            const uint8_t* p = &stim[r.offset + size_t(bi) * KW];
            uint64_t d = 0;
            for (int j = KW - 1; j >= 0; j--) d = d << 8 | p[j];
            uint32_t nkeep = last ? r.nbytes - bi * KW : KW;
            uint32_t keep = uint32_t((1ull << nkeep) - 1);
            if ((r.flags & 2) && bi == 1 / KW) keep &= ~(1u << (1 % KW));
            t->s_axis_tdata = d;
            t->s_axis_tkeep = keep;
            t->s_axis_tlast = last;
            t->s_axis_tuser = r.flags & 1;
        }
        // B response
        // (BID and RID are the burst's AWID and ARID, as AXI requires: the DMA tells its
        // write-back's B and the epoch by the ID, docs/faults.md)
        t->m_axi_bvalid = !b_q.empty() && b_q.front().at <= edge;
        if (!b_q.empty()) t->m_axi_bid = b_q.front().id;
        // R beats
        bool rv = !ar_q.empty() && ar_q.front().start <= edge;
        t->m_axi_rvalid = rv;
        if (rv) {
            Burst& b = ar_q.front();
            t->m_axi_rid = b.id;
            uint64_t a = beat_addr(b.addr, b.beat) & ~uint64_t(AKW - 1);
            static const uint8_t zero[16] = {};
            put_bytes(t->m_axi_rdata, in_mem(a, AKW) ? &mem[a] : zero);
            t->m_axi_rlast = b.beat == b.len;
        }
    }

    void tick() {
        Vprionic_rx* t = top.get();
        drive();
        t->clk = 0;
        t->eval();
        // sample the handshakes of this edge (every ready of the memory is 1)
        bool s_beat = t->s_axis_tvalid && t->s_axis_tready;
        bool aw = t->m_axi_awvalid, w = t->m_axi_wvalid, ar = t->m_axi_arvalid;
        bool b = t->m_axi_bvalid && t->m_axi_bready, r = t->m_axi_rvalid && t->m_axi_rready;
        if (aw) {
            aw_q.push_back({t->m_axi_awaddr, t->m_axi_awlen, 0, edge, uint32_t(t->m_axi_awid)});
            if (t->m_axi_awsize != __builtin_ctz(AKW) || t->m_axi_awburst != 1) mem_errors++;
        }
        if (w) {
            WBeat wb{{}, uint32_t(t->m_axi_wstrb), bool(t->m_axi_wlast), edge};
            for (unsigned j = 0; j < AKW; j++) wb.data[j] = byte_of(t->m_axi_wdata, j);
            w_q.push_back(wb);
        }
        if (ar) {
            ar_q.push_back({t->m_axi_araddr, t->m_axi_arlen, 0, edge + 1, uint32_t(t->m_axi_arid)});
            if (t->m_axi_arsize != __builtin_ctz(AKW) || t->m_axi_arburst != 1) mem_errors++;
        }
        l_aw = t->s_axil_awvalid && t->s_axil_awready;
        l_b = t->s_axil_bvalid && t->s_axil_bready;
        l_ar = t->s_axil_arvalid && t->s_axil_arready;
        l_r = t->s_axil_rvalid && t->s_axil_rready;
        l_rdata = t->s_axil_rdata;
        if (t->stat_verdict_valid) {   // verdicts come in frame order: remember deliveries
            if (t->stat_verdict_code == 0 && t->stat_verdict_queue < NUM_QUEUES)
                expect[t->stat_verdict_queue].push_back(n_verdicts);
            if (verdicts)
                std::fprintf(verdicts, "%llu %llu %u %u %u\n", (unsigned long long)n_verdicts, (unsigned long long)edge,
                             t->stat_verdict_code, t->stat_verdict_queue, t->stat_verdict_rule);
            n_verdicts++;
        }
        t->clk = 1;
        t->eval();

        // state updates for the handshakes at this edge
        if (s_beat) {
            const Record& rec = recs[fi];
            if (++bi == (rec.nbytes + KW - 1) / KW) {
                fi++;
                bi = 0;
                not_before = edge + 2;
            }
        }
        while (!aw_q.empty() && !w_q.empty()) {      // W beats meet their AW, in order
            Burst& bu = aw_q.front();
            WBeat wb = w_q.front();
            w_q.pop_front();
            uint64_t a = beat_addr(bu.addr, bu.beat) & ~uint64_t(AKW - 1);
            if (in_mem(a, AKW))
                for (unsigned j = 0; j < AKW; j++)
                    if (wb.strb >> j & 1) mem[a + j] = wb.data[j];
            if (wb.last != (bu.beat == bu.len)) mem_errors++;
            if (bu.beat++ == bu.len) {
                b_q.push_back({std::max(wb.at, bu.start) + 1, bu.id});
                aw_q.pop_front();
            }
        }
        if (b) b_q.pop_front();
        if (r && ++ar_q.front().beat > ar_q.front().len) ar_q.pop_front();
        bool busy = s_beat || aw || w || ar || b || r || !aw_q.empty() || !w_q.empty() || !ar_q.empty() || !b_q.empty();
        quiet = busy ? 0 : quiet + 1;
        edge++;
    }

    // ------------------------------------------------------------ AXI4-Lite master
    void reg_write(uint32_t addr, uint32_t data) {
        Vprionic_rx* t = top.get();
        t->s_axil_awaddr = addr;
        t->s_axil_wdata = data;
        t->s_axil_wstrb = 0xF;
        t->s_axil_awvalid = t->s_axil_wvalid = 1;
        bool b = false;
        do { tick(); b |= l_b; } while (!l_aw);
        t->s_axil_awvalid = t->s_axil_wvalid = 0;
        while (!b) { tick(); b = l_b; }
    }
    uint32_t reg_read(uint32_t addr) {
        Vprionic_rx* t = top.get();
        t->s_axil_araddr = addr;
        t->s_axil_arvalid = 1;
        bool r = false;
        uint32_t data = 0;
        do { tick(); if (l_r) { r = true; data = l_rdata; } } while (!l_ar);
        t->s_axil_arvalid = 0;
        while (!r) { tick(); if (l_r) { r = true; data = l_rdata; } }
        return data;
    }

    // ------------------------------------------------------------ host driver
    void reset() {
        Vprionic_rx* t = top.get();
        t->m_axi_awready = t->m_axi_wready = t->m_axi_arready = 1;
        t->m_axi_bid = t->m_axi_rid = 0;
        t->m_axi_bresp = t->m_axi_rresp = 0;
        t->s_axil_bready = t->s_axil_rready = 1;
        t->s_axil_awprot = t->s_axil_arprot = 0;
        t->run_prio = 0;
        t->rst = 1;
        for (int i = 0; i < 4; i++) tick();
        t->rst = 0;
        edge = 0;
    }

    // ---- the C driver's platform: the blocking AXI4-Lite master and the memory
    static uint32_t plat_reg_read(void* ctx, uint32_t off) { return static_cast<Bench*>(ctx)->reg_read(off); }
    static void plat_reg_write(void* ctx, uint32_t off, uint32_t v) { static_cast<Bench*>(ctx)->reg_write(off, v); }
    static void plat_mem_read(void* ctx, uint64_t a, void* dst, size_t n) {
        Bench* b = static_cast<Bench*>(ctx);
        if (b->in_mem(a, n)) std::memcpy(dst, &b->mem[a], n);
        else std::memset(dst, 0, n);
    }
    static void plat_mem_write(void* ctx, uint64_t a, const void* src, size_t n) {
        Bench* b = static_cast<Bench*>(ctx);
        if (b->in_mem(a, n)) std::memcpy(&b->mem[a], src, n);
    }

    // prionic_init, as tb/top/host.py HostDriver.configure: reads ID and CONFIG, then the
    // time base, rules, then every ring, all posted. Returns the driver's result.
    int configure() {
        static const prionic_rule_cfg rules[] = {
            {PRIONIC_PROTO_UDP, 5000, 5000, NUM_QUEUES - 1},
            {PRIONIC_PROTO_TCP, 8000, 8100, 0},
        };
        static_assert(NUM_RULES >= 2, "the benchmark needs two rules");
        prionic_queue_cfg qc[NUM_QUEUES] = {};
        for (unsigned q = 0; q < NUM_QUEUES; q++) {
            qc[q].ring_base = ring_base(q);
            qc[q].buf_base = buf_addr(q, 0);
            qc[q].ring_size = RING_SIZE;
            qc[q].buf_size = BUF_SIZE;
            qc[q].coalesce.immediate = 1;   // every completion raises at once
        }
        prionic_config cfg{};
        cfg.clk_hz = 125000000;
        cfg.tick_div = 125;
        cfg.default_queue = -1;              // unmatched frames are dropped (UNREGISTERED)
        cfg.rules = rules;
        cfg.num_rules = 2;
        cfg.num_queues = NUM_QUEUES;
        cfg.queues = qc;
        const prionic_platform plat{this, plat_reg_read, plat_reg_write, plat_mem_read, plat_mem_write};
        return prionic_init(&drv, &plat, &cfg);
    }

    // one completion handed over by the driver's reap: the buffer must hold the next
    // frame accepted to this queue
    static void on_rx(void* arg, const prionic_completion* c) {
        Bench* b = static_cast<Bench*>(arg);
        unsigned q = c->queue;
        if (c->err || c->desc_queue != q || c->len == 0 || c->len > BUF_SIZE) b->desc_errors++;
        std::deque<uint64_t>& ex = b->expect[q];
        if (ex.empty() || ex.front() >= b->recs.size() || b->recs[ex.front()].nbytes != c->len ||
            !b->in_mem(c->buf_addr, c->len) ||
            std::memcmp(&b->mem[c->buf_addr], &b->stim[b->recs[ex.front()].offset], c->len))
            b->data_errors++;
        if (!ex.empty()) ex.pop_front();
        b->delivered[q]++;
        b->bytes += c->len;
    }

    // the host's poll, as tb/top/host.py HostDriver.reap: completed descriptors in ring order,
    // DD cleared; with `doorbell` the consumed slots are posted again (one RING_TAIL
    // write per queue) and IRQ_CAUSE acknowledged, as the ISR does
    void reap(bool doorbell) {
        if (doorbell) prionic_poll(&drv, on_rx, this);
        else
            for (unsigned q = 0; q < NUM_QUEUES; q++) prionic_reap(&drv, q, on_rx, this, 0);
        if (doorbell && top->irq) prionic_irq_ack(&drv, top->irq);   // the ISR's acknowledge
    }

    uint64_t frames_delivered() const {
        uint64_t n = 0;
        for (unsigned q = 0; q < NUM_QUEUES; q++) n += delivered[q];
        return n;
    }

    bool load(const char* path) {
        std::ifstream f(path, std::ios::binary);
        if (!f) return false;
        stim.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        size_t pos = 0;
        while (pos + 16 <= stim.size()) {
            Record r{be(&stim[pos], 8), uint32_t(be(&stim[pos + 8], 4)), uint32_t(be(&stim[pos + 12], 4)), pos + 16};
            size_t padded = (r.nbytes + KW - 1) / KW * KW;
            if (r.nbytes == 0 || r.offset + padded > stim.size()) {
                std::fprintf(stderr, "harness: bad record at offset %zu of %s\n", pos, path);
                return false;
            }
            recs.push_back(r);
            pos = r.offset + padded;
        }
        return pos == stim.size();
    }
};

int main(int argc, char** argv) {
    const char* path = nullptr;
    uint64_t max_cycles = UINT64_MAX;
    bool json = false;
    const char* verdict_path = nullptr;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--json") json = true;
        else if (a == "--cycles" && i + 1 < argc) max_cycles = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--verdicts" && i + 1 < argc) verdict_path = argv[++i];
        else if (a[0] != '-' && !path) path = argv[i];
        else {
            std::fprintf(stderr, "usage: %s <stimulus.bin> [--cycles N] [--json] [--verdicts FILE]\n", argv[0]);
            return 2;
        }
    }
    if (!path) {
        std::fprintf(stderr, "usage: %s <stimulus.bin> [--cycles N] [--json] [--verdicts FILE]\n", argv[0]);
        return 2;
    }
    auto bench = std::make_unique<Bench>();
    Bench& b = *bench;
    if (!b.load(path)) {
        std::fprintf(stderr, "harness: cannot read stimulus %s\n", path);
        return 1;
    }

    if (verdict_path && !(b.verdicts = std::fopen(verdict_path, "w"))) {
        std::fprintf(stderr, "harness: cannot write %s\n", verdict_path);
        return 1;
    }
    b.reset();
    int rc = b.configure();   // reads ID and CONFIG first, writes nothing if they do not fit
    uint32_t config = b.drv.config;
    if (rc != PRIONIC_OK || (config & 0xFF) != NUM_QUEUES || (config >> 8 & 0xFF) != NUM_RULES ||
        (config >> 16 & 0xFF) != KW) {
        std::fprintf(stderr, "harness: driver init %d, CONFIG 0x%08x do not match the build (DW %d, Q %d, R %d)\n",
                     rc, config, DATA_WIDTH, NUM_QUEUES, NUM_RULES);
        return 1;
    }

    // ---- the traffic loop: the only part that is timed
    const uint64_t start = b.edge;
    b.not_before = start;
    b.quiet = 0;
    b.playing = true;
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    uint64_t next_reap = start + REAP_PERIOD;
    while (b.edge - start < max_cycles) {
        b.tick();
        if (b.edge >= next_reap) {
            b.reap(true);
            next_reap = b.edge + REAP_PERIOD;
        }
        if (b.fi == b.recs.size() && b.quiet >= IDLE_DRAINED) break;
    }
    auto t1 = std::chrono::steady_clock::now();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;   // less sensitive to a busy machine
    uint64_t cycles = b.edge - start;
    bool drained = b.fi == b.recs.size() && b.quiet >= IDLE_DRAINED;
    double wall = std::chrono::duration<double>(t1 - t0).count();

    // ---- accounting (untimed): last completions and the NIC's own counters
    b.reap(false);
    uint64_t rx = b.reg_read(PRIONIC_CNT_RX_FRAMES);
    uint64_t unreg = b.reg_read(PRIONIC_CNT_DROP_UNREG);
    uint64_t other = b.reg_read(PRIONIC_CNT_DROP_BAD) + b.reg_read(PRIONIC_CNT_DROP_MALFORMED) +
                     b.reg_read(PRIONIC_CNT_DROP_OVERSIZE) + b.reg_read(PRIONIC_CNT_DROP_FRAG) +
                     b.reg_read(PRIONIC_CNT_DROP_RULE);
    uint64_t ring_full = 0, qbuf_full = 0, admitted = 0;
    for (unsigned q = 0; q < NUM_QUEUES; q++) {
        ring_full += b.reg_read(PRIONIC_CNT_DROP_RING(q));
        qbuf_full += b.reg_read(PRIONIC_CNT_DROP_QBUF(q));
        other += b.reg_read(PRIONIC_CNT_DROP_BUF(q)) + b.reg_read(PRIONIC_CNT_DROP_RATE(q));
        admitted += b.reg_read(PRIONIC_CNT_FRAMES(q));
    }
    std::string per_q;
    for (unsigned q = 0; q < NUM_QUEUES; q++) per_q += (q ? "," : "") + std::to_string(b.delivered[q]);

    double cps = wall > 0 ? double(cycles) / wall : 0.0;
    if (json) {
        std::printf("{\"cycles\": %llu, \"wall_s\": %.6f, \"cycles_per_s\": %.0f, \"cpu_s\": %.6f, \"frames_played\": %zu, "
                    "\"frames_delivered\": %llu, \"bytes_delivered\": %llu, \"data_width\": %d, "
                    "\"num_queues\": %d, \"delivered_per_queue\": [%s], \"drained\": %s, "
                    "\"dut_rx_frames\": %llu, \"dut_admitted\": %llu, \"drop_unregistered\": %llu, "
                    "\"drop_ring_full\": %llu, \"drop_qbuf_full\": %llu, \"drop_other\": %llu, "
                    "\"desc_errors\": %llu, \"data_errors\": %llu, \"mem_errors\": %llu}\n",
                    (unsigned long long)cycles, wall, cps, cpu, b.fi, (unsigned long long)b.frames_delivered(),
                    (unsigned long long)b.bytes, DATA_WIDTH, NUM_QUEUES, per_q.c_str(), drained ? "true" : "false",
                    (unsigned long long)rx, (unsigned long long)admitted, (unsigned long long)unreg,
                    (unsigned long long)ring_full, (unsigned long long)qbuf_full, (unsigned long long)other,
                    (unsigned long long)b.desc_errors, (unsigned long long)b.data_errors,
                    (unsigned long long)b.mem_errors);
    } else {
        std::printf("prionic_rx DATA_WIDTH=%d NUM_QUEUES=%d NUM_RULES=%d\n", DATA_WIDTH, NUM_QUEUES, NUM_RULES);
        std::printf("  %llu cycles in %.3f s (%.3f s CPU): %.0f cycles/s%s\n", (unsigned long long)cycles, wall, cpu, cps,
                    drained ? "" : " (stopped before the DUT drained)");
        std::printf("  frames played %zu of %zu, delivered %llu (per queue %s), %llu bytes\n", b.fi,
                    b.recs.size(), (unsigned long long)b.frames_delivered(), per_q.c_str(),
                    (unsigned long long)b.bytes);
        std::printf("  DUT: rx %llu, admitted %llu, unregistered %llu, ring full %llu, qbuf full %llu, other %llu\n",
                    (unsigned long long)rx, (unsigned long long)admitted, (unsigned long long)unreg,
                    (unsigned long long)ring_full, (unsigned long long)qbuf_full, (unsigned long long)other);
        if (b.desc_errors || b.data_errors || b.mem_errors)
            std::printf("  errors: %llu bad descriptors, %llu wrong frame data, %llu bad memory accesses\n",
                        (unsigned long long)b.desc_errors, (unsigned long long)b.data_errors,
                        (unsigned long long)b.mem_errors);
    }
    if (b.verdicts) std::fclose(b.verdicts);
    b.top->final();
    return b.desc_errors || b.data_errors || b.mem_errors ? 1 : 0;
}
