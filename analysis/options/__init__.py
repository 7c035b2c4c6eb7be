"""What every command is built from, below the systems and the command line.

The options a command takes (axes as SPECs, output formats, rule sets and
``--set``, strategies, ``--distribution``) and their reading
(:mod:`~analysis.options.common`, :mod:`~analysis.options.grid`,
:mod:`~analysis.options.rule_options`), the warnings a command gathers
(:mod:`~analysis.options.warn`) and the files and lines it writes besides its
table (:mod:`~analysis.options.output`).  A system's ``cli.py`` builds its
own commands from these; :mod:`analysis.cli` (the parser of every command and
``main``) sits above the systems and imports them.
"""
