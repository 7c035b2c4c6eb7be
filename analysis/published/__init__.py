"""Published odds tables: one module per system, each with ``make_tables()``."""
