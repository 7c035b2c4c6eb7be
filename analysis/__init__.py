"""beastodds: exact odds for the dice and card systems of vampire tabletop games.

Each game system is a package under ``analysis.systems`` (``v5``, ``werewolf``,
``hunter``, ``requiem``, ``cards``, ``classic``) that declares itself with a
``SYSTEM``; the 5th-edition and classic pools are mechanic files counted by
one engine (``analysis.mechanic``).  Around them: rule sets
(``analysis.rulesets``), the exact layer (``analysis.exact``), tidy odds
tables and formats (``analysis.tables``, which gathers ``analysis.formats``,
``analysis.pivot``, ``analysis.legend`` and ``analysis.compare``), sweeps, solving and
booklets, and the ``beastodds`` command (``analysis.cli``).  Every
probability is an exact ``fractions.Fraction``; floats are for display.
"""

#: The one place the version is written (``pyproject.toml`` reads it from here).
__version__ = "0.1.0"
