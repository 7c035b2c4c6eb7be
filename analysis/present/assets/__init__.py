"""The stylesheets and the script the HTML pages inline, each a file in its own language.

``page.js`` and ``page.css``: the shared page's script and style (:mod:`analysis.present.page`, whose
Content-Security-Policy allows exactly these texts by their hashes); ``booklet.css``: the
booklet's style (:mod:`analysis.present.booklet`).  Each is read once, when its module is imported.
"""

from __future__ import annotations

from importlib import resources


def text(name: str) -> str:
    """The file ``name`` of this folder as text, after a line break (the ``<style>`` or ``<script>``
    that holds it opens on a line of its own)."""
    return "\n" + resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
