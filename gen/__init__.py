"""Code generators: the files derived from docs/regmap.toml (F27).

``python -m gen.regmap`` writes them, ``python -m gen.regmap --check`` fails when one is
stale. They read the register map through :mod:`model.regmap` (the loader the golden
model uses too); the model never imports this package.

* :mod:`gen.vh`: ``rtl/prionic_regs.vh`` (localparams) and ``rtl/prionic_records.vh`` (each
  record's width as a macro, for ports that carry a whole record);
* :mod:`gen.regblock`: ``rtl/prionic_regs.v`` (the register block), ``rtl/prionic_regs_wires.vh``
  and ``rtl/prionic_regs_conn.vh`` (its instance's wires and connections);
* :mod:`gen.c_header`: ``rtl/prionic_regs.h`` (C99 header for host drivers, ``sw/driver/``);
* :mod:`gen.markdown`: ``docs/registers.md``.
"""
