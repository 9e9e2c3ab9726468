"""Regenerate (or ``--check``) the files derived from docs/regmap.toml::

    python -m model.regmap_gen            # writes rtl/prionic_regs.vh, docs/registers.md, rtl/prionic_regs.h
    python -m model.regmap_gen --check    # exits 1 if any generated file is stale

rtl/prionic_regs.h is the C99 header of host drivers (F27, bench/driver/).
"""

import sys

from model.regmap import main

if __name__ == "__main__":
    sys.exit(main())
