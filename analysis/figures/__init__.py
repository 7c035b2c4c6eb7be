"""Figures: one module per figure, each with ``make_figure()`` returning a matplotlib Figure."""
