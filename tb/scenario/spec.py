"""The scenario file (F21): its data types (:class:`Scenario`, :class:`FlowSpec`) and
:func:`load`, which reads a TOML file and validates every key, with errors in words
(:class:`ScenarioError`). The format is documented in scenarios/README.md.
"""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from model import regmap
from model.config import ModelConfig
from model.cpu import MODES, PROFILES, Costs, HostConfig
from model.fast import FlowGen
from model.flowtable import INSERT, udp_key
from tb.scenario.pcapio import PcapError, check_link_type
from tb.timebase import PERIOD_NS
from tb.top.hostmem import BUF_STRIDE, DESC, RING_STRIDE, QueueSetup

ROOT = Path(__file__).resolve().parents[2]
CYCLES_PER_US = 1000 // PERIOD_NS
PROTOS = {"udp": 17, "tcp": 6}
F = regmap.FIELDS
FLOW_TS_SHIFT = ModelConfig().flow_ts_shift  # the top's default build parameter (F8)


class ScenarioError(ValueError):
    """A scenario file that cannot be run; the message names the file and the key."""


# One flow type for the scenario and the fast model (model/fast.py): a ``[[flow]]`` table.
FlowSpec = FlowGen


@dataclass
class Scenario:
    name: str
    description: str
    simulator: str
    duration_us: float
    seed: int
    num_queues: int
    tick_div: int
    default_action: int
    queues: list[QueueSetup]
    rules: list[tuple[int, int]]
    flows: list[FlowSpec]
    rule_src: list[tuple[int, int]] = field(default_factory=list)  # per rule: RULE_SRC_IP, RULE_SRC_MASK
    rule_limit: list[tuple[int, int, bool] | None] = field(default_factory=list)  # per rule: budget, period, bytes
    isr_delay: tuple[int, int] = (20, 60)
    mem_stall_percent: int = 0        # host memory: cycles each AXI channel stalls at random (0..99)
    mem_aw_waits_for_w: bool = False  # host memory: AWREADY only after the burst's first W beat (F25)
    mem_b_latency: int = 2            # host memory, fast path: last W beat to B sampled, edges (1 or more)
    return_delay: tuple[int, int] = (50, 500)
    num_rules: int = 4
    path: str = ""
    rule_text: list[str] = field(default_factory=list)
    extra_writes: list[tuple[str, int, int]] = field(default_factory=list)  # rate limiters, budget, cache
    rules_per_cycle: int = 0  # build parameter RULES_PER_CYCLE (F8); 0 = all rules in one cycle
    flow_table_sets: int = 0  # build parameter FLOW_TABLE_SETS (F31); 0 = no flow table
    table_cmds: list[tuple[int, int, int]] = field(default_factory=list)  # flow table INSERTs (F31)
    cpu: HostConfig | None = None   # [cpu]: the host CPU model (docs/host-cpu.md), else random delays
    critical_flow: str = ""         # [cpu] critical: the flow whose frames release the critical task


def _get(d: dict, key: str, where: str, typ: type | tuple = (int, float), default=None):
    if key not in d:
        if default is None:
            raise ScenarioError(f"{where}: missing key '{key}'")
        return default
    value = d[key]
    types = typ if isinstance(typ, tuple) else (typ,)
    if not isinstance(value, typ) or (isinstance(value, bool) and bool not in types):
        raise ScenarioError(f"{where}: '{key}' must be {_type_words(types)}, got {value!r}")
    return value


_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string", list: "a list",
               dict: "a table"}


def _type_words(types: tuple) -> str:
    """What a TOML value of one of ``types`` is called in an error message."""
    if set(types) == {int, float}:
        return "a number"
    return " or ".join(_TYPE_WORDS.get(t, t.__name__) for t in types)


def _range(v, where: str, key: str) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) and v[0] <= v[1]:
        return v[0], v[1]
    raise ScenarioError(f"{where}: '{key}' must be a number or [lo, hi], got {v!r}")


TOP_KEYS = {"name", "description", "simulator", "duration_us", "seed", "nic", "queue", "rule", "flow", "host", "cpu"}
NIC_KEYS = {"num_queues", "tick_div", "default_action", "rules_per_cycle", "irq_budget", "irq_budget_period_us",
            "irq_budget_exempt", "flow_cache", "flow_idle_us", "flow_table_sets"}
FLOW_KEYS = {"name", "proto", "dport", "sport", "src", "pattern", "payload", "start_us", "period_us", "burst",
             "rate_pps", "file", "rescale", "users", "message", "table"}
DST = "10.0.0.1"  # the destination address of every generated flow (tb/top/frames.py Flow)
CPU_KEYS = {"mode", "profile", "critical", "apps", "deadline_us", "isr_us", "frame_us", "byte_ns", "critical_us",
            "app_us", "demux_us", "critical_prio", "app_prio", "net_prio", "gate", "queue_prio", "napi_budget",
            "napi_thread_us", "rl_limit", "rl_window_us", "rl_poll_us", "early_filter", "napi_threaded", "irq_mask"}
MSS = 1460  # TCP payload per segment of a "users" flow's message
WIRE_EXTRA = 24  # preamble and SFD (8), FCS (4) and inter-frame gap (12): bytes on the wire besides the frame
HOST_KEYS = {"isr_delay_cycles", "return_delay_cycles", "memory_stall_percent", "memory_aw_waits_for_w",
             "memory_b_latency"}


def _ipv4(v: object, where: str, key: str, prefix: bool = False) -> ipaddress.IPv4Network:
    """An IPv4 address ("10.0.0.2"), or with ``prefix`` also a prefix ("10.0.0.0/24")."""
    try:
        if not isinstance(v, str) or (not prefix and "/" in v):
            raise ValueError(v)
        return ipaddress.IPv4Network(v)
    except ValueError:
        what = "an IPv4 address or prefix (\"10.0.0.2\", \"10.0.0.0/24\")" if prefix else "an IPv4 address"
        raise ScenarioError(f"{where}: '{key}' must be {what}, not {v!r}") from None


def _known(d: object, known: set[str], where: str) -> dict:
    """``d`` must be a table whose keys are all in ``known``: a typo is an error, never a
    silently used default."""
    if not isinstance(d, dict):
        raise ScenarioError(f"{where}: must be a table, got {d!r}")
    for k in d:
        if k not in known:
            raise ScenarioError(f"{where}: unknown key '{k}' (known: {', '.join(sorted(known))})")
    return d


def _tables(raw: dict, key: str, where: str) -> list[dict]:
    v = raw.get(key, [])
    if not isinstance(v, list) or not all(isinstance(t, dict) for t in v):
        raise ScenarioError(f"{where}: '{key}' must be an array of tables ([[{key}]])")
    return v


def _at_least(value, low, where: str, key: str):
    if value < low:
        raise ScenarioError(f"{where}: '{key}' must be at least {low}, got {value!r}")
    return value


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario file; every error names the file and the key."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such scenario file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    w = str(path)
    _known(raw, TOP_KEYS, w)
    nic = _known(raw.get("nic", {}), NIC_KEYS, f"{w} [nic]")
    nq = _get(nic, "num_queues", f"{w} [nic]", int, 2)
    if not 1 <= nq <= 16:
        raise ScenarioError(f"{w} [nic]: num_queues must be 1..16")
    queues = []
    qraw = _tables(raw, "queue", w)
    if len(qraw) != nq:
        raise ScenarioError(f"{w}: {len(qraw)} [[queue]] tables for num_queues = {nq}")
    for i, q in enumerate(qraw):
        wq = f"{w} [[queue]] #{i}"
        known = {"ring_size", "buf_size", "itr_frames", "itr_pkt", "itr_abs", "itr_gap", "immediate"}
        for k in q:
            if k not in known:
                raise ScenarioError(f"{wq}: unknown key '{k}' (known: {sorted(known)})")
        setup = QueueSetup(
            ring_size=_get(q, "ring_size", wq, int, 16), buf_size=_get(q, "buf_size", wq, int, 2048),
            itr_frames=_get(q, "itr_frames", wq, int, 0), itr_pkt=_get(q, "itr_pkt", wq, int, 0),
            itr_abs=_get(q, "itr_abs", wq, int, 0), itr_gap=_get(q, "itr_gap", wq, int, 0),
            immediate=_get(q, "immediate", wq, bool, False))
        if not 2 <= setup.ring_size <= 0xFFFF:
            raise ScenarioError(f"{wq}: 'ring_size' must be 2..65535 (a ring holds ring_size - 1 buffers)")
        if not 1 <= setup.buf_size <= 0xFFFF:
            raise ScenarioError(f"{wq}: 'buf_size' must be 1..65535 bytes")
        if setup.ring_size * DESC["size"] > RING_STRIDE or setup.ring_size * setup.buf_size > BUF_STRIDE:
            raise ScenarioError(f"{wq}: the host model gives each queue {RING_STRIDE} bytes of ring and {BUF_STRIDE} "
                                f"bytes of buffers (tb/top/host.py): 'ring_size' at most {RING_STRIDE // DESC['size']} "
                                "and 'ring_size' x 'buf_size' at most that")
        for k in ("itr_frames", "itr_pkt", "itr_abs", "itr_gap"):
            if not 0 <= getattr(setup, k) <= 0xFFFF:
                raise ScenarioError(f"{wq}: '{k}' must be 0..65535")
        queues.append(setup)
    rules, rule_text, rule_src, rule_limit = [], [], [], []
    extra: list[tuple[str, int, int]] = []
    for i, r in enumerate(_tables(raw, "rule", w)):
        wr = f"{w} [[rule]] #{i}"
        known_r = {"proto", "dport", "src", "action", "queue", "limit_frames", "limit_bytes", "limit_period_us"}
        for k in r:
            if k not in known_r:
                raise ScenarioError(f"{wr}: unknown key '{k}' (known: {sorted(known_r)})")
        ctrl = 1 << F["RULE_CTRL_ENABLE"]
        desc = []
        if "proto" in r:
            if r["proto"] not in PROTOS:
                raise ScenarioError(f"{wr}: proto must be one of {sorted(PROTOS)}")
            ctrl |= 1 << F["RULE_CTRL_MATCH_PROTO"] | PROTOS[r["proto"]] << F["RULE_CTRL_PROTO_LSB"]
            desc.append(r["proto"])
        dport = 0
        if "dport" in r:
            lo, hi = _range(r["dport"], wr, "dport")
            ctrl |= 1 << F["RULE_CTRL_MATCH_DPORT"]
            dport = lo | hi << 16
            desc.append(f"dport {lo}" if lo == hi else f"dport {lo}-{hi}")
        src = (0, 0)
        if "src" in r:   # source address or prefix (F5: RULE_SRC_IP, RULE_SRC_MASK)
            net = _ipv4(r["src"], wr, "src", prefix=True)
            src = (int(net.network_address), int(net.netmask))
            ctrl |= 1 << F["RULE_CTRL_MATCH_SRC"]
            extra += [("RULE_SRC_IP", i, src[0]), ("RULE_SRC_MASK", i, src[1])]
            desc.append(f"src {net}")
        rule_src.append(src)
        action = r.get("action", "queue")
        if action == "drop":
            ctrl |= 1 << F["RULE_CTRL_DROP"]
            desc.append("-> drop")
        elif action == "queue":
            q = _get(r, "queue", wr, int)
            if not 0 <= q < nq:
                raise ScenarioError(f"{wr}: queue {q} does not exist (num_queues = {nq})")
            ctrl |= q << F["RULE_CTRL_QUEUE_LSB"]
            desc.append(f"-> queue {q}")
        else:
            raise ScenarioError(f"{wr}: action must be 'queue' or 'drop'")
        if "limit_frames" in r or "limit_bytes" in r:   # the rule's rate limiter (F9)
            if "limit_frames" in r and "limit_bytes" in r:
                raise ScenarioError(f"{wr}: give limit_frames or limit_bytes, not both")
            as_bytes = "limit_bytes" in r
            budget = _get(r, "limit_bytes" if as_bytes else "limit_frames", wr, int)
            period_us = _get(r, "limit_period_us", wr)
            if budget < 0 or period_us <= 0:
                raise ScenarioError(f"{wr}: the limit and limit_period_us must be positive")
            extra += [("RULE_LIM_CTRL", i, int(as_bytes)), ("RULE_LIM_PERIOD", i, round(period_us * CYCLES_PER_US)),
                      ("RULE_LIM_BUDGET", i, budget)]
            desc.append(f"(limit {budget} {'bytes' if as_bytes else 'frames'} per {period_us} us)")
            rule_limit.append((budget, round(period_us * CYCLES_PER_US), as_bytes))
        elif "limit_period_us" in r:
            raise ScenarioError(f"{wr}: limit_period_us without limit_frames or limit_bytes")
        else:
            rule_limit.append(None)
        rules.append((ctrl, dport))
        rule_text.append(" ".join(desc))
    if "irq_budget" in nic:   # the global interrupt budget (F10)
        wn = f"{w} [nic]"
        budget = _get(nic, "irq_budget", wn, int)
        period_us = _get(nic, "irq_budget_period_us", wn)
        exempt = nic.get("irq_budget_exempt", [])
        if not isinstance(exempt, list) or not all(isinstance(q, int) and 0 <= q < nq for q in exempt):
            raise ScenarioError(f"{wn}: irq_budget_exempt must be a list of queue numbers")
        if not 0 <= budget <= 0xFFFF or period_us <= 0:
            raise ScenarioError(f"{wn}: irq_budget must be 0..65535 and irq_budget_period_us positive")
        extra += [("IRQ_BUDGET_EXEMPT", 0, sum(1 << q for q in exempt)),
                  ("IRQ_BUDGET_PERIOD", 0, round(period_us * CYCLES_PER_US)), ("IRQ_BUDGET", 0, budget)]
    rules_per_cycle = _get(nic, "rules_per_cycle", f"{w} [nic]", int, 0)
    if not 0 <= rules_per_cycle <= 64:
        raise ScenarioError(f"{w} [nic]: rules_per_cycle must be 0 (all) .. 64")
    if "flow_cache" in nic or "flow_idle_us" in nic:   # the flow cache (F8, frame-path.md s3.1)
        wn = f"{w} [nic]"
        on = _get(nic, "flow_cache", wn, bool, False)
        idle_us = _get(nic, "flow_idle_us", wn, (int, float), 0)
        unit = 1 << FLOW_TS_SHIFT  # cycles per FLOW_IDLE unit (the top's default)
        idle = -(-round(idle_us * CYCLES_PER_US) // unit)
        if not 0 <= idle <= 0x7FFF:
            raise ScenarioError(f"{wn}: flow_idle_us must be 0 (never) .. {0x7FFF * unit / CYCLES_PER_US:.0f}")
        extra += [("FLOW_IDLE", 0, idle), ("FLOW_CTRL", 0, int(on))]
    table_sets = _get(nic, "flow_table_sets", f"{w} [nic]", int, 0)   # the flow table (F31, flowtable.md)
    if table_sets and (table_sets < 2 or table_sets > 1024 or table_sets & (table_sets - 1)):
        raise ScenarioError(f"{w} [nic]: flow_table_sets must be 0 (none) or a power of two 2..1024")
    if table_sets and "flow_cache" in nic:
        raise ScenarioError(f"{w} [nic]: a build with a flow table (flow_table_sets) has no flow cache (flow_cache)")
    table_cmds: list[tuple[int, int, int]] = []
    default = nic.get("default_action", "drop")
    if default == "drop":
        default_action = 0
    elif isinstance(default, int) and 0 <= default < nq:
        default_action = 1 << F["DEFAULT_ACTION_ACCEPT"] | default << F["DEFAULT_ACTION_QUEUE_LSB"]
    else:
        raise ScenarioError(f"{w} [nic]: default_action must be \"drop\" or a queue number")
    flows = []
    for i, fl in enumerate(_tables(raw, "flow", w)):
        wf = f"{w} [[flow]] #{i}"
        _known(fl, FLOW_KEYS, wf)
        pattern = _get(fl, "pattern", wf, str)
        if pattern not in ("periodic", "poisson", "burst", "pcap", "users"):
            raise ScenarioError(f"{wf}: pattern must be periodic, poisson, burst, pcap or users")
        if pattern == "pcap":  # replay an Ethernet capture (F21)
            pcap = (path.parent / _get(fl, "file", wf, str)).resolve()
            if not pcap.is_file():
                raise ScenarioError(f"{wf}: 'file' {pcap} not found (relative to the scenario file)")
            try:
                check_link_type(pcap)
            except PcapError as e:
                raise ScenarioError(f"{wf}: {e}") from None
            extra_keys = set(fl) - {"name", "pattern", "file", "rescale", "start_us"}
            if extra_keys:
                raise ScenarioError(f"{wf}: a pcap flow takes name, file, rescale, start_us; not {sorted(extra_keys)}")
            spec = FlowSpec(name=_get(fl, "name", wf, str), proto="pcap", dport=0, pattern="pcap", payload=(0, 0),
                            start_us=_get(fl, "start_us", wf, (int, float), 0), pcap=str(pcap),
                            rescale=_get(fl, "rescale", wf, (int, float), 1.0))
            if spec.rescale <= 0:
                raise ScenarioError(f"{wf}: 'rescale' must be positive")
            _at_least(spec.start_us, 0, wf, "start_us")
            flows.append(spec)
            continue
        proto = _get(fl, "proto", wf, str)
        if proto not in PROTOS:
            raise ScenarioError(f"{wf}: proto must be one of {sorted(PROTOS)}")
        spec = FlowSpec(
            name=_get(fl, "name", wf, str), proto=proto, dport=_get(fl, "dport", wf, int),
            pattern=pattern, payload=_range(fl.get("payload", [18, 64]), wf, "payload"),
            start_us=_get(fl, "start_us", wf, (int, float), 0), sport=_get(fl, "sport", wf, int, 40000),
            src=str(_ipv4(fl.get("src", "10.0.0.2"), wf, "src").network_address))
        if pattern == "users":
            if proto != "tcp":
                raise ScenarioError(f"{wf}: a users flow is TCP (proto = \"tcp\")")
            spec.users = _at_least(_get(fl, "users", wf, int), 1, wf, "users")
            spec.message = _at_least(_get(fl, "message", wf, int), 1, wf, "message")
            if spec.sport + spec.users - 1 > 0xFFFF:
                raise ScenarioError(f"{wf}: 'sport' + 'users' - 1 must be at most 65535")
        elif "users" in fl or "message" in fl:
            raise ScenarioError(f"{wf}: 'users' and 'message' belong to pattern = \"users\"")
        if pattern in ("periodic", "burst", "users"):
            spec.period_us = _get(fl, "period_us", wf)
            if spec.period_us <= 0:
                raise ScenarioError(f"{wf}: period_us must be > 0")
        if pattern == "burst":
            spec.burst = _at_least(_get(fl, "burst", wf, int), 1, wf, "burst")
        _at_least(spec.start_us, 0, wf, "start_us")
        if not 0 <= spec.dport <= 0xFFFF or not 0 <= spec.sport <= 0xFFFF:
            raise ScenarioError(f"{wf}: 'dport' and 'sport' must be 0..65535")
        if spec.payload[0] < 0:
            raise ScenarioError(f"{wf}: 'payload' must not be negative")
        if pattern == "poisson":
            spec.rate_pps = _get(fl, "rate_pps", wf)
            if spec.rate_pps <= 0:
                raise ScenarioError(f"{wf}: rate_pps must be > 0")
        if "table" in fl:   # registered in the flow table: every connection of a users flow (F31)
            table_cmds += _table_entries(fl["table"], spec, table_sets, nq, wf)
        flows.append(spec)
    if not flows:
        raise ScenarioError(f"{w}: no [[flow]]")
    host = _known(raw.get("host", {}), HOST_KEYS, f"{w} [host]")
    cpu, critical_flow = _cpu(raw, w, nq, flows, host, extra)
    sim = raw.get("simulator", "icarus")
    if _get(raw, "duration_us", w) <= 0:
        raise ScenarioError(f"{w}: 'duration_us' must be positive")
    tick_div = _get(nic, "tick_div", f"{w} [nic]", int, 125)
    if not 1 <= tick_div <= 0xFFFF:
        raise ScenarioError(f"{w} [nic]: 'tick_div' must be 1..65535")
    if sim not in ("icarus", "verilator"):
        raise ScenarioError(f"{w}: simulator must be icarus or verilator")
    return Scenario(
        name=_get(raw, "name", w, str, path.stem), description=raw.get("description", ""),
        simulator=sim, duration_us=_get(raw, "duration_us", w), seed=_get(raw, "seed", w, int, 1),
        num_queues=nq, tick_div=tick_div,
        default_action=default_action, queues=queues, rules=rules, flows=flows,
        isr_delay=_range(host.get("isr_delay_cycles", [20, 60]), f"{w} [host]", "isr_delay_cycles"),
        return_delay=_range(host.get("return_delay_cycles", [50, 500]), f"{w} [host]", "return_delay_cycles"),
        num_rules=max(4, len(rules)), path=str(path), rule_text=rule_text, rule_src=rule_src,
        rule_limit=rule_limit, extra_writes=extra,
        rules_per_cycle=rules_per_cycle, flow_table_sets=table_sets, table_cmds=table_cmds,
        mem_stall_percent=_stall_percent(host.get("memory_stall_percent", 0), f"{w} [host]"),
        mem_aw_waits_for_w=_get(host, "memory_aw_waits_for_w", f"{w} [host]", bool, False),
        mem_b_latency=_b_latency(host.get("memory_b_latency", 2), f"{w} [host]"),
        cpu=cpu, critical_flow=critical_flow,
    )


def _table_entries(table: object, spec: FlowSpec, sets: int, nq: int, wf: str) -> list[tuple[int, int, int]]:
    """The INSERT commands of a ``[[flow]]`` with ``table`` (a queue number or "drop"): one per
    connection (a users flow has ``users``, source ports ``sport``..)."""
    if not sets:
        raise ScenarioError(f"{wf}: 'table' needs a flow table ([nic] flow_table_sets)")
    if table == "drop":
        val = 1 << F["FLOW_VAL_DROP"]
    elif isinstance(table, int) and not isinstance(table, bool) and 0 <= table < nq:
        val = table << F["FLOW_VAL_QUEUE_LSB"]
    else:
        raise ScenarioError(f"{wf}: 'table' must be a queue number (num_queues = {nq}) or \"drop\"")
    src, dst, proto = int(ipaddress.IPv4Address(spec.src)), int(ipaddress.IPv4Address(DST)), PROTOS[spec.proto]
    return [(INSERT, udp_key(src, dst, spec.sport + u, spec.dport, proto), val) for u in range(max(spec.users, 1))]


def _cpu(raw: dict, w: str, nq: int, flows: list[FlowSpec], host: dict,
         extra: list[tuple[str, int, int]]) -> tuple[HostConfig | None, str]:
    """The ``[cpu]`` table: the host CPU model (docs/host-cpu.md section 6)."""
    if "cpu" not in raw:
        return None, ""
    wc = f"{w} [cpu]"
    c = _known(raw["cpu"], CPU_KEYS, wc)
    for k in ("isr_delay_cycles", "return_delay_cycles"):
        if k in host:
            raise ScenarioError(f"{w} [host]: '{k}' is the random host's; with a [cpu] table the CPU model times "
                                "the host (remove one of them)")
    by_name = {f.name: f for f in flows}
    crit = _get(c, "critical", wc, str)
    if crit not in by_name or by_name[crit].pattern == "pcap":
        raise ScenarioError(f"{wc}: 'critical' must name a [[flow]] that is not a pcap replay, not {crit!r}")
    apps = c.get("apps", [])
    if not isinstance(apps, list) or any(a not in by_name or by_name[a].pattern == "pcap" for a in apps):
        raise ScenarioError(f"{wc}: 'apps' must list [[flow]] names (not pcap replays)")
    sockets = {by_name[a].dport: "app" for a in apps}
    sockets[by_name[crit].dport] = "critical"
    mode = _get(c, "mode", wc, str, "prionic")
    if mode not in MODES:
        raise ScenarioError(f"{wc}: mode must be one of {', '.join(MODES)} (docs/host-cpu.md section 4), not {mode!r}")
    fc = by_name[crit]
    deadline_us = _get(c, "deadline_us", wc, (int, float), fc.period_us if fc.pattern == "periodic" else 0)
    if deadline_us <= 0:
        raise ScenarioError(f"{wc}: 'deadline_us' must be positive (it defaults to a periodic critical flow's period)")
    profile = _get(c, "profile", wc, str, "default")
    if profile not in PROFILES:
        raise ScenarioError(f"{wc}: 'profile' must be one of {', '.join(PROFILES)}, not {profile!r}")
    costs = {}
    for k, default in PROFILES[profile].items():
        costs[k] = _get(c, k, wc, (int, float), default)
        if costs[k] < 0:
            raise ScenarioError(f"{wc}: '{k}' must not be negative")
    qprio = c.get("queue_prio", list(range(1, nq + 1)))
    if not isinstance(qprio, list) or len(qprio) != nq or not all(isinstance(p, int) and 0 <= p <= 255 for p in qprio):
        raise ScenarioError(f"{wc}: 'queue_prio' must list {nq} priorities 0..255 (default: QUEUE_PRIO's reset, q + 1)")
    extra += [("QUEUE_PRIO", q, p) for q, p in enumerate(qprio) if p != q + 1]
    gate = _get(c, "gate", wc, bool, mode == "prionic")
    if gate and mode != "prionic":
        raise ScenarioError(f"{wc}: 'gate' (RUN_PRIO writes, F16) is prionic's; mode {mode!r} is a host of a NIC "
                            "without it")
    critical_prio = _get(c, "critical_prio", wc, int, max(qprio))
    timing = {}
    for k, default in (("napi_thread_us", 2000), ("rl_window_us", 2000), ("rl_poll_us", 1000)):
        v = _get(c, k, wc, (int, float), default)
        if v <= 0:
            raise ScenarioError(f"{wc}: '{k}' must be positive")
        timing[k] = max(1, round(v * CYCLES_PER_US))
    counts = {}
    for k, default in (("napi_budget", 64), ("rl_limit", 3)):
        counts[k] = _get(c, k, wc, int, default)
        if counts[k] < 1:
            raise ScenarioError(f"{wc}: '{k}' must be at least 1")
    napi_threaded = _get(c, "napi_threaded", wc, bool, False)
    if napi_threaded and mode != "napi":
        raise ScenarioError(f"{wc}: 'napi_threaded' is a setting of mode napi, not of {mode!r}")
    irq_mask = _get(c, "irq_mask", wc, int, 0)
    if not 0 <= irq_mask < 1 << nq:
        raise ScenarioError(f"{wc}: 'irq_mask' must be a mask of the {nq} queues, 0..{(1 << nq) - 1}")
    if irq_mask:
        extra.append(("IRQ_MASK", 0, irq_mask))
    cfg = HostConfig(
        early_filter=_get(c, "early_filter", wc, bool, False), napi_threaded=napi_threaded, irq_mask=irq_mask,
        mode=mode, queue_prio=tuple(qprio), sockets=sockets,
        critical_prio=critical_prio, app_prio=_get(c, "app_prio", wc, int, 1),
        net_prio=_get(c, "net_prio", wc, int, max(critical_prio - 1, 0)),
        deadline=round(deadline_us * CYCLES_PER_US), gate=gate,
        costs=Costs.from_us(CYCLES_PER_US, **costs),
        napi_budget=counts["napi_budget"], napi_thread=timing["napi_thread_us"], rl_limit=counts["rl_limit"],
        rl_window=timing["rl_window_us"], rl_poll=timing["rl_poll_us"])
    for k in ("critical_prio", "app_prio", "net_prio"):
        if not 0 <= getattr(cfg, k) <= 255:
            raise ScenarioError(f"{wc}: '{k}' must be 0..255")
    return cfg, crit


def _stall_percent(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise ScenarioError(f"{where}: memory_stall_percent must be an integer 0..99, not {value!r}")
    return value


def _b_latency(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 16:
        raise ScenarioError(f"{where}: memory_b_latency must be an integer 1..16, not {value!r}")
    return value
