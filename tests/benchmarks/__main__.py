"""`make bench`: run every benchmark module in tests/benchmarks (each has ``main()``)."""

import importlib
import pkgutil
import sys
from pathlib import Path

here = Path(__file__).parent
names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
only = sys.argv[1:]
for name in names:
    if only and name not in only:
        continue
    print(f"=== benchmark: {name}")
    importlib.import_module(f"tests.benchmarks.{name}").main()
    print()
