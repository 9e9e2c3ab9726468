"""Generate the register block from docs/regmap.toml (F27).

``python -m gen.regmap`` writes, from the registers and their attributes (the
header of docs/regmap.toml says what each attribute means):

* ``rtl/prionic_regs.v``: the AXI4-Lite register file: storage with byte strobes and
  reset values, the write decode with every side effect (``effects``, ``accept``, W1C),
  the read mux (stored values, ``source`` inputs, counters, build parameters), the
  counters (``count``) and the one-cycle pulses of ``[pulses]``;
* ``rtl/prionic_regs_wires.vh``: a wire for every ``cfg_*`` output and ``status_*`` input,
  for the module that instantiates the block (``prionic_rx``);
* ``rtl/prionic_regs_conn.vh``: the instance's port connections, by name.

Adding a register is then one entry in docs/regmap.toml plus the block that uses its
``cfg_<name>`` (or drives its ``status_<source>``). The handshakes and the timing are
those of docs/timing.md s2 (a write accepted at w changes the register at w and is seen
from w+1; pulses are high at w+1).

The generator is layered (:mod:`gen.regblock.module`: header, storage, outputs and the
order of the layers; :mod:`gen.regblock.decode`: decode and readback;
:mod:`gen.regblock.update`: writes with their side effects, counters, reset), each layer a
short function over the same register list; :mod:`gen.regblock.common` holds the names,
checks and register lists they share.
"""

from gen.regblock.instance import gen_regs_conn, gen_regs_wires
from gen.regblock.module import gen_regs_module

__all__ = ["gen_regs_conn", "gen_regs_module", "gen_regs_wires"]
