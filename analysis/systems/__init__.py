"""The game systems: one package each, listed by a plain import in :mod:`analysis.systems.shipped`.

A system is a folder here whose ``__init__.py`` defines ``SYSTEM``, an
:class:`analysis.model.system.System` (see that module for what a folder holds),
and its line in ``shipped.py``.  Nothing else names the systems: the command line,
rule-set files, ``compare``, sweeps, the booklet and ``make`` all iterate what
:func:`analysis.systems.shipped.systems` lists.
"""
