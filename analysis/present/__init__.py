"""Presentation: numbers as text, the output formats, legends, pivots, plots, the booklet, the shared page, and
what ``make`` publishes of each system (:mod:`analysis.present.published`)."""
