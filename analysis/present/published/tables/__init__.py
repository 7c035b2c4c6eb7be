"""The published odds tables: one module each, with ``make_tables()`` and ``SYSTEM``.

Listed in :mod:`analysis.present.published`.
"""
