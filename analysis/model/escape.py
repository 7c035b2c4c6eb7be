"""A text shown as itself in every format: data, never markup, a formula or a second line.

A rule set's name and description, a mechanic file's meanings, a table's text
cells come from a file someone shared.  Each is put on one line and its
control characters become ``?`` (:func:`analysis.model.validate.one_line`), then
escaped for its format: Markdown's and LaTeX's special characters, HTML's
``<>&"'``; a CSV text cell that starts with ``= + - @`` gets a leading ``'``
so that no spreadsheet reads it as a formula.  The ``<table>`` and ``<tr>`` of every HTML table
(:func:`table`, :func:`row`) are here too, so that a caption is escaped where the table is made.
"""

from __future__ import annotations

import html
import re

from analysis.model.validate import one_line

#: A text cell a spreadsheet would read as a formula (OWASP's list; tab and CR are never left in a
#: cell shown, :func:`analysis.model.validate.one_line`).
_FORMULA_START = ("=", "+", "-", "@")
#: A text cell that is a plain number: a spreadsheet reads it as that number, not a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def csv_text(text):
    """A CSV text cell no spreadsheet runs as a formula: one starting with ``= + - @`` gets a leading ``'``.

    A text that is a plain number (``-1``, ``+2.5``) is left as it is: it is read as that number.
    Numbers (ints, floats, Fractions) are not texts and are never touched.
    """
    if isinstance(text, str) and text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


#: Markdown's inline markup: code, emphasis, links and images, raw HTML and entities,
#: strikethrough, table cells (an ``_`` inside a word is left alone: it marks nothing).
_MARKDOWN_SPECIAL = re.compile(r"[\\`*\[\]<>&|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


#: What starts a block (a heading, a list item, a quote) at the start of a line.
_MARKDOWN_BLOCK = re.compile(r"^(?:(\s*)([#+\-=>])|(\s*\d+)([.)]))")


def markdown_text(text, line_start: bool = False) -> str:
    """Text shown as itself in Markdown: one line, its markup characters backslash-escaped.

    ``[x](javascript:...)``, ``<script>``, ``**``, a ``|`` that would end a table
    cell and a line break that would start a heading or a table all print as
    text.  ``line_start``: the text begins a line (or a list item), so a ``#``,
    ``-``, ``+``, ``=``, ``>`` or ``1.`` it starts with is escaped too.
    """
    text = _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), one_line(text))
    if line_start:
        text = _MARKDOWN_BLOCK.sub(
            lambda m: (m.group(1) or m.group(3) or "") + "\\" + (m.group(2) or m.group(4)), text, count=1
        )
    return text


#: A cell made only of these (a number, a percentage, a fraction, ``hunger=1``) prints as it is
#: in Markdown; in LaTeX too unless it holds a ``%``.
_PLAIN_CELL = re.compile(r"[0-9A-Za-z .,:;%/=+()'-]*")
_PLAIN_LATEX_CELL = re.compile(r"[0-9A-Za-z .,:;/=+()'-]*")


def markdown_cell(value) -> str:
    """A table cell in Markdown: as it is when plain (a number, a percentage), else :func:`markdown_text`."""
    text = str(value)
    return text if _PLAIN_CELL.fullmatch(text) else markdown_text(text)


#: LaTeX's special characters and what prints each as itself.  ``^`` is among them: TeX
#: reads ``^^5c`` as a backslash, so an unescaped ``^^5cinput`` would be ``\input``.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_LATEX_PATTERN = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))


def latex_text(text) -> str:
    """Text shown as itself in LaTeX: one line (a blank line would end ``\\caption``), each special
    character replaced by the command that prints it (as :func:`markdown_text` is for Markdown)."""
    return _LATEX_PATTERN.sub(lambda m: _LATEX_SPECIAL[m.group()], one_line(text))


def latex_cell(value) -> str:
    """A table cell in LaTeX: as it is when plain (a number, no ``%``), else :func:`latex_text`."""
    text = str(value)
    return text if _PLAIN_LATEX_CELL.fullmatch(text) else latex_text(text)


def html_text(text) -> str:
    """Text as HTML: ``<>&"'`` escaped, on one line, control characters shown as ``?``.

    For any text a rule-set or mechanic file gave (names, descriptions, meanings):
    every HTML table (:mod:`analysis.present.formats.html`), the booklet and the shared page
    (:mod:`analysis.present.page`) write it through this.
    """
    return html.escape(one_line(text), quote=True)


def table(head: str, body: str, caption: str = "", classes: str = "") -> str:
    """A ``<table>``: its caption (a text, escaped here), then the rows of ``head`` and ``body`` (HTML)."""
    attrs = f' class="{classes}"' if classes else ""
    cap = f"<caption>{html_text(caption)}</caption>" if caption else ""
    return f"<table{attrs}>{cap}<thead>{head}</thead><tbody>{body}</tbody></table>"


def row(cells, tag: str = "td") -> str:
    """A ``<tr>`` of cells (HTML) in ``<td>`` (or ``tag``)."""
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"
