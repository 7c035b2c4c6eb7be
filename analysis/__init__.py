"""beastodds: exact odds for the dice and card systems of vampire tabletop games.

The rules layer: one module per game system (``analysis.v5`` with
``willpower``, ``rouse`` and ``conflict``; ``analysis.beast`` and ``requiem``;
``analysis.cards``; ``analysis.classic`` and ``health``), tidy odds tables and
formats (``analysis.tables``), figures (``analysis.figures``) and the
``beastodds`` command (``analysis.cli``).  Every probability is an exact
``fractions.Fraction``; floats are for display.
"""
__version__ = "0.1.0"
