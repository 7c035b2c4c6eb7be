"""What every command is built from, below the systems and the command line.

The options a command takes (axes as SPECs, output formats, rule sets and
``--set``, strategies, ``--distribution``) and their reading
(:mod:`~analysis.options.common`, :mod:`~analysis.options.grid`,
:mod:`~analysis.options.rule_options`), the warnings a command gathers
(:mod:`~analysis.options.warn`) and the files and lines it writes besides its
table (:mod:`~analysis.options.output`).  :mod:`analysis.cli` (the parser of
every command, ``main``, and the modules of the systems' own commands) builds
every command from these; it sits above the systems and imports them.
"""
