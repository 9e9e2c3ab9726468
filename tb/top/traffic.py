"""The traffic of the top-level tests (tb/top/cocotb_top.py): random queue setups and the mixed
traffic knobs (registered flows, a flood, a blocked port, ARP, the parser's frame mix, bad
input) that ``RandomTrafficTest`` and others run.
"""

from __future__ import annotations

import random

from model import regmap
from tb.common import param
from tb.top.env import port_range, rule_ctrl
from tb.top.frames import Flow, arp, bad_input, fragment, parser_frame
from tb.top.hostmem import QueueSetup
from tb.top.procedure import Knobs

UDP, TCP = 17, 6
F = regmap.FIELDS


def random_setup(rng: random.Random) -> QueueSetup:
    return QueueSetup(
        ring_size=rng.choice([2, 4, 8, 16, 32]),
        buf_size=rng.choice([256, 512, 1024, 2048]),
        itr_frames=rng.choice([0, 0, 1, 4, 8]),
        itr_pkt=rng.choice([0, 5, 20, 60]),
        itr_abs=rng.choice([0, 10, 50, 120]),
        itr_gap=rng.choice([0, 0, 8, 30]),
        immediate=rng.random() < 0.2,
    )


def mixed_traffic(rng: random.Random, nq: int, frames: int) -> Knobs:
    """Two registered flows (control to the top queue, bulk to queue 0), a blocked port,
    an unregistered flood, ARP, the parser's mix (VLAN tags, IPv6 with extension headers,
    ICMP, wrong checksums: their completion flags are checked end to end, F3, F4) and a
    sprinkle of bad input; with more than two queues, one more flow and rule for every
    middle queue; rules left over match ARP by EtherType, IPv6 by IP version and one VLAN
    by VID (F5)."""
    hi = nq - 1
    k = Knobs(
        frames=frames,
        flows=[
            (3, Flow("ctrl", "udp", 5000, payload=(18, 120))),
            (3, Flow("bulk", "tcp", 8042, payload=(6, 900), options=True,
                     tcp_flags=("A", "A", "A", "PA", "S", "FA", "R"))),
            (1, Flow("bulk2", "udp", 6500, payload=(18, 400))),
            (1, Flow("blocked", "udp", 9999)),
            (4, Flow("flood", "udp", 7000, payload=(18, 64))),
            (1, arp),
            (1, fragment),
            (1, bad_input),
            (2, parser_frame),
        ],
        setups=[random_setup(rng) for _ in range(nq)],
        rules=[
            (rule_ctrl(queue=hi, proto=UDP, dport=True), port_range(5000)),
            (rule_ctrl(queue=0, proto=TCP, dport=True), port_range(8000, 8100)),
            (rule_ctrl(drop=True, proto=UDP, dport=True), port_range(9999)),
            (rule_ctrl(queue=0, proto=UDP, dport=True), port_range(6000, 6999)),
        ],
        default_action=rng.choice([0, 0, 1]),  # mostly drop unregistered; sometimes queue 0
        frag_action=rng.choice([0, 1]),        # fragments dropped, or to background queue 0
        tick_div=rng.randint(1, 8),
    )
    if rng.random() < 0.75:  # the flow cache (F8), with an idle expiry of 0 (never) to 200 units
        k.extra_writes += [("FLOW_IDLE", 0, rng.choice([0, 2, 20, 200])), ("FLOW_CTRL", 0, 1)]
    for q in range(1, nq - 1):
        k.flows.append((1, Flow(f"q{q}", rng.choice(["udp", "tcp"]), 7100 + q, payload=(6, 300))))
        k.rules.append((rule_ctrl(queue=q, dport=True), port_range(7100 + q)))
    if len(k.rules) < param("NUM_RULES", 4):  # ARP by EtherType (F5) when a rule is left
        r = len(k.rules)
        k.rules.append((rule_ctrl(queue=0, ethertype=True), 0))
        k.extra_writes.append(("RULE_ETHERTYPE", r, 0x0806))
    if len(k.rules) < param("NUM_RULES", 4):  # every IPv6 frame to queue 0 (F5: IP version)
        k.rules.append((rule_ctrl(queue=0) | 1 << F["RULE_CTRL_MATCH_IPVER"] | 1 << F["RULE_CTRL_IPVER"], 0))
    if len(k.rules) < param("NUM_RULES", 4):  # VLAN 100 (outer tag): VID match, to queue hi - 1
        r = len(k.rules)
        k.rules.append((rule_ctrl(queue=max(hi - 1, 0)) | 1 << F["RULE_CTRL_MATCH_VID"], 0))
        k.extra_writes.append(("RULE_VLAN", r, 100))
    return k
