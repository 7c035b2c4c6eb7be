# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The designer's workbench: what does my house rule do?
#
# **In brief:**
#
# - A *rule set* is one system's rules dataclass with a name, kept as a small
#   TOML file: `system = "v5"`, `name = "..."`, then only the fields you
#   change (the rest take the docs/rules.md ruling).
# - The package ships named variants per system (`v5-official`,
#   `v5-two-hunger-ones-for-bestial`, `cards-ace-high`, ...);
#   `beastodds rules` lists them.
# - `bo.compare(a, b, grid)` puts two rule sets of one system side by
#   side over a grid: one row per (cell, outcome class) with both
#   probabilities and `difference = b - a`, and `.top(n)` gives the cells
#   where the change matters most.
# - The same from the shell: `beastodds compare v5-official my-rule.toml
#   --pool 1-10 --hunger 0-5 --difficulty 3 --heatmap diff.png`.
#
# Every number below is exact (every way the dice can land is counted);
# floats are for display.  Everything here comes from the package's own
# face, `import analysis as bo` (its names: `dir(bo)`).

# %%
# %matplotlib inline
import tempfile
from fractions import Fraction
from pathlib import Path

import pandas as pd
from IPython.display import display

import analysis as bo

pd.DataFrame([{"system": rs.system, "rule set": rs.describe()} for rs in bo.variants()])

# %% [markdown]
# ## A house rule of your own, as a file
#
# Write the fields you change; load it back; it is checked field by field,
# and a wrong field is named with what it may be.

# %%
folder = Path(tempfile.mkdtemp())
mine = folder / "v5-crits-add-three.toml"
mine.write_text('system = "v5"\nname = "v5-crits-add-three"\n'
                'description = "Each pair of 10s adds 3 bonus successes."\ncrit_bonus = 3\n')
rs = bo.load(mine)
print(rs.describe())
print(rs.to_toml())

bad = folder / "typo.toml"
bad.write_text('system = "v5"\ncrit_bonsu = 3\n')
try:
    bo.load(bad)
except ValueError as exc:
    print("refused:", exc)

# %% [markdown]
# ## Two rule sets side by side
#
# Two Hunger 1s for a bestial failure, against the official rule: the cells
# where it matters most, then every outcome class as a heatmap (percentage
# points, Difficulty 3).

# %%
cmp = bo.compare("v5-official", "v5-two-hunger-ones-for-bestial",
                 {"pool": "1-15", "hunger": "0-5", "difficulty": "1-5"}, exact=True)
print(cmp.describe())
top = cmp.top(8)
top

# %%
# exact: the same cell from each rule set's own table
row = top.iloc[0]
cell = {"pool": int(row.pool), "hunger": int(row.hunger), "difficulty": int(row.difficulty)}
a = bo.table("v5-official", cell, exact=True)[row.outcome].iloc[0]
b = bo.table("v5-two-hunger-ones-for-bestial", cell, exact=True)[row.outcome].iloc[0]
assert (row.a, row.b, row.difference) == (a, b, b - a) and isinstance(row.difference, Fraction)

# %%
bo.difference_heatmap(cmp, x="pool", y="hunger", at={"difficulty": 3})

# %%
bo.variant_curves([r.name for r in bo.variants("v5") if not r.sub_rules],
                  ["messy_critical", "bestial_failure"],
                  x="pool", panel="hunger", grid={"pool": "1-15", "hunger": "1,3,5", "difficulty": 3})

# %% [markdown]
# ## Explore
#
# Pick a system (every system the toolkit has is listed), then move the
# sliders: the odds of the roll under two of its rule sets and their exact
# difference, and the chosen outcome class against the first axis (the
# roll's value marked).

# %%
import ipywidgets as widgets

# every system with rule sets, in the package's order
explorers = {name: bo.explorer(name) for name in dict.fromkeys(rs.system for rs in bo.variants())}
pick = widgets.Dropdown(options=list(explorers), value="v5", description="system")
box = widgets.VBox([explorers["v5"].widget])
pick.observe(lambda change: setattr(box, "children", [explorers[change["new"]].widget]), names="value")
display(widgets.VBox([pick, box]))

# %% [markdown]
# The controls drive the same function headless: moving a slider from code
# updates the odds (this is what the test suite runs).

# %%
v5x = explorers["v5"]
v5x.controls["variant"].value = "v5-two-hunger-ones-for-bestial"
v5x.controls["pool"].value = 9
v5x.controls["hunger"].value = 4
v5x.controls["difficulty"].value = 3
assert (v5x.shown["pool"], v5x.shown["hunger"]) == (9, 4)
expected = bo.table("v5-two-hunger-ones-for-bestial", {"pool": 9, "hunger": 4, "difficulty": 3}, exact=True)
assert v5x.shown["odds"].loc["bestial_failure", "v5-two-hunger-ones-for-bestial"] == float(
    expected.bestial_failure.iloc[0])
pick.value = "cards"
assert box.children[0] is explorers["cards"].widget
