"""The published figures: one module each, with ``make_figure()`` and ``SYSTEM``.

Listed in :mod:`analysis.present.published`.
"""
