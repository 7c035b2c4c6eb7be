"""Presentation: numbers as text, the output formats, legends, pivots, plots, the booklet and the shared page."""
