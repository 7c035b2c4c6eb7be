"""The toolkit's version, written in this one place: ``pyproject.toml`` reads it, and ``analysis.__version__``,
``beastodds --version`` and the footers of the booklets and the shared page show it."""

VERSION = "0.1.0"
