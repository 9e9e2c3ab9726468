"""Regenerate (or ``--check``) the files derived from docs/regmap.toml::

    python -m model.regmap_gen            # writes rtl/prionic_regs.vh and docs/registers.md
    python -m model.regmap_gen --check    # exits 1 if either generated file is stale
"""

import sys

from model.regmap import main

if __name__ == "__main__":
    sys.exit(main())
