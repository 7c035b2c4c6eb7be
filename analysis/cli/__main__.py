"""``python -m analysis.cli``: the ``beastodds`` command."""

import sys

from . import main

sys.exit(main())
