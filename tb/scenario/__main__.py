"""``python -m tb.scenario [scenario.toml] [--sim ...]``: see :mod:`tb.scenario.cli`."""

import sys

from tb.scenario.cli import main

sys.exit(main())
