"""How an odds table is shown: numbers as text, texts kept as data, and each output format.

* :mod:`.numbers`: exact values as text (fractions, fixed decimals, percentages rounded from the exact value);
* :mod:`.escape`: a text from a shared file shown as itself in CSV, Markdown, LaTeX and HTML, never as markup;
* :mod:`.render`: :func:`~analysis.present.formats.render.render`, a tidy table as a terminal table, CSV, Markdown,
  JSON, LaTeX or HTML (the formats of ``--format``);
* :mod:`.html`: every HTML table: ``--format html``, the booklet's readable tables and their legends;
* :mod:`.xlsx`: a table as a spreadsheet (``--xlsx``).

:mod:`analysis.present.tables` gathers their public names (and those of pivots, legends and comparisons).
"""
