"""pcap in and out of a scenario, and the GTKWave save file (F21, F22): captures of other
link types converted or refused with a clear error, nanosecond output in the replayed
capture's time base, a save file that survives a copied output directory."""

from __future__ import annotations

import struct
from decimal import Decimal
from pathlib import Path

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import CookedLinux, Ether
from scapy.utils import rdpcap

from tb.scenario import ScenarioError, load, pcap_time_base
from tb.scenario.gtkwave import gtkw_filters, gtkw_text
from tb.scenario.pcapio import LINUX_SLL2, read_frames, write_frames

IP_PKT = IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1234, dport=5000) / (b"x" * 20)


def _pcap(path: Path, linktype: int, packets: list[bytes], t0: int = 1_700_000_000) -> Path:
    """A microsecond pcap of ``linktype``: packet i at t0 + i + 0.5 s."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for i, p in enumerate(packets):
            f.write(struct.pack("<IIII", t0 + i, 500_000, len(p), len(p)) + p)
    return path


def _scenario(tmp_path: Path, pcap: Path) -> Path:
    p = tmp_path / "replay.toml"
    p.write_text(f'duration_us = 100\n[[queue]]\n[[queue]]\n[[flow]]\nname = "replay"\npattern = "pcap"\n'
                 f'file = "{pcap.name}"\nstart_us = 10\n')
    return p


def test_linux_cooked_and_raw_ip_captures_become_ethernet(tmp_path: Path) -> None:
    """`tcpdump -i any` writes Linux cooked captures (SLL, SLL2): their packets are replayed
    as Ethernet frames with the same EtherType and IP packet, the sender's MAC kept."""
    sll = bytes(CookedLinux(pkttype=0, lladdrtype=1, lladdrlen=6, src=bytes.fromhex("aabbccddeeff") + b"\0\0",
                            proto=0x0800) / IP_PKT)
    sll2 = (struct.pack(">HHIHBB", 0x0800, 0, 2, 1, 0, 6) + bytes.fromhex("aabbccddeeff") + b"\0\0" + bytes(IP_PKT))
    for lt, data in ((113, sll), (LINUX_SLL2, sll2), (101, bytes(IP_PKT))):
        pcap = _pcap(tmp_path / f"lt{lt}.pcap", lt, [data])
        frames = list(read_frames(pcap))
        assert len(frames) == 1, lt
        eth = Ether(frames[0][1])
        assert eth.type == 0x0800 and bytes(eth.payload) == bytes(IP_PKT), lt
        if lt != 101:
            assert eth.src == "aa:bb:cc:dd:ee:ff"
        load(_scenario(tmp_path, pcap))   # a scenario accepts it


def test_other_link_types_are_refused_when_the_scenario_loads(tmp_path: Path) -> None:
    pcap = _pcap(tmp_path / "wifi.pcap", 105, [b"\x08\x00" + b"\0" * 30])
    with pytest.raises(ScenarioError, match=r"link type 105 \(802\.11\).*Ethernet"):
        load(_scenario(tmp_path, pcap))
    junk = tmp_path / "junk.pcap"
    junk.write_bytes(b"not a capture at all")
    with pytest.raises(ScenarioError, match="not a pcap"):
        load(_scenario(tmp_path, junk))


def test_written_pcaps_are_nanosecond_in_the_replayed_capture_time_base(tmp_path: Path) -> None:
    """Delivered frames are stamped to the nanosecond (a cycle is 8 ns), and a scenario that
    replays a capture writes them in that capture's time: its first packet at start_us."""
    pcap = _pcap(tmp_path / "in.pcap", 1, [bytes(Ether() / IP_PKT)])
    base = pcap_time_base(load(_scenario(tmp_path, pcap)))
    assert base == Decimal("1700000000.5") - Decimal("0.00001")
    out = tmp_path / "out.pcap"
    write_frames(out, [(base + Decimal(1253) / Decimal(125_000_000), bytes(Ether() / IP_PKT))])
    (pkt,) = rdpcap(str(out))
    assert pkt.time == Decimal("1700000000.49999") + Decimal("0.000010024")   # 1253 cycles = 10.024 us
    assert Decimal(1253) / Decimal(125_000_000) == Decimal("0.000010024")


def test_gtkwave_save_file_survives_a_copied_output_directory(tmp_path: Path) -> None:
    """The save file names the filter files beside it by name, and the waveform by its
    path together with the save file's own ([savefile]): GTKWave relocates a moved save
    file's waveform by that pair (checked by hand with GTKWave 3.3.118)."""
    out = tmp_path / "out" / "s"
    out.mkdir(parents=True)
    text = gtkw_text(out / "waves.fst", 2, 1000, "prionic_rx", gtkw_filters(out))
    lines = text.splitlines()
    assert f'[dumpfile] "{(out / "waves.fst").resolve()}"' in lines
    assert f'[savefile] "{(out / "waves.gtkw").resolve()}"' in lines
    filters = [ln.split(" ", 1)[1] for ln in lines if ln.startswith("^")]
    assert filters and all("/" not in f and (out / f).is_file() for f in filters)
