"""``python -m analysis.cli``: the ``beastodds`` command."""

import sys

from analysis.cli import main

sys.exit(main())
