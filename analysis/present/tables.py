"""Odds tables: the public entry that gathers rendering, pivots, legends and comparisons in one import.

``from analysis import tables`` then ``tables.render(df, "markdown", ...)``,
``tables.pivot(...)``, ``tables.legend(...)``, ``tables.compare(a, b, grid)``.
Each idea lives in a module of its own; this one only names them:

* :mod:`analysis.present.formats.render`: :func:`render`, a tidy table as a terminal
  table, CSV, Markdown, JSON, LaTeX or HTML (``FORMATS``);
  :mod:`analysis.present.formats.xlsx`: :func:`xlsx_bytes`, a spreadsheet;
* :mod:`analysis.model.numbers`: exact values as text (:func:`fraction_text`,
  :func:`fixed`, :func:`is_probability`); :mod:`analysis.model.escape`: a text
  shown as itself in each format (:func:`csv_text`, :func:`markdown_text`,
  :func:`latex_text`); :mod:`analysis.present.formats.frame`: the rule set an export
  names (:func:`caption`, :func:`rule_set_columns`);
* :mod:`analysis.present.pivot`: :func:`pivot`, :func:`pivot_axes`, :func:`stacked_pivot`;
* :mod:`analysis.present.legend`: :func:`legend`, :func:`rule_meanings`,
  :func:`derived_text`; the columns a command adds are in
  :data:`analysis.present.glossary.TABLE_TERMS`;
* :mod:`analysis.workbench.compare`: :func:`compare`, :class:`Comparison`, :func:`spec_text`.
"""

from __future__ import annotations

import pandas as pd  # noqa: F401  (``tables.pd``: scripts and tests made their frames through it)

from analysis.workbench.compare import COMPARE_COLUMNS, Comparison, compare, spec_text
from analysis.model.escape import csv_text, latex_text, markdown_text
from analysis.present.formats.frame import caption, rule_set_columns
from analysis.model.numbers import MAX_DIGITS, fixed, fraction_text, is_probability
from analysis.present.formats.render import FORMATS, render
from analysis.present.formats.xlsx import XLSX_SHEETS, xlsx_bytes
from analysis.present.glossary import TABLE_TERMS
from analysis.present.legend import derived_text, legend, rule_meanings
from analysis.present.pivot import VALUE_COLUMN, pivot, pivot_axes, stacked_pivot
from analysis.model.validate import first_repeat

__all__ = [
    "COMPARE_COLUMNS",
    "FORMATS",
    "MAX_DIGITS",
    "TABLE_TERMS",
    "VALUE_COLUMN",
    "XLSX_SHEETS",
    "Comparison",
    "caption",
    "compare",
    "csv_text",
    "derived_text",
    "first_repeat",
    "fixed",
    "fraction_text",
    "is_probability",
    "latex_text",
    "legend",
    "markdown_text",
    "pivot",
    "pivot_axes",
    "render",
    "rule_meanings",
    "rule_set_columns",
    "spec_text",
    "stacked_pivot",
    "xlsx_bytes",
]
