# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
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
# - `tables.compare(a, b, grid)` puts two rule sets of one system side by
#   side over a grid: one row per (cell, outcome class) with both
#   probabilities and `difference = b - a`, and `.top(n)` gives the cells
#   where the change matters most.
# - The same from the shell: `beastodds compare v5-official my-rule.toml
#   --pool 1-10 --hunger 0-5 --difficulty 3 --heatmap diff.png`.
#
# Every number below is exact (every way the dice can land is counted);
# floats are for display.

# %%
# %matplotlib inline
import tempfile
from fractions import Fraction
from pathlib import Path

import pandas as pd
from IPython.display import display

from analysis.present import plots, tables
from analysis.workbench import rulesets
from analysis.systems.v5 import roll as v5

pd.DataFrame([{"name": rs.name, "system": rs.system,
               "changes": "; ".join(f"{k} = {rulesets.show_value(v)}" for k, (_, v) in rs.changes().items())
               or "(the defaults)"} for rs in rulesets.variants()])

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
rs = rulesets.load(mine)
print(rs.describe())
print(rs.to_toml())

bad = folder / "typo.toml"
bad.write_text('system = "v5"\ncrit_bonsu = 3\n')
try:
    rulesets.load(bad)
except ValueError as exc:
    print("refused:", exc)

# %% [markdown]
# ## Two rule sets side by side
#
# Two Hunger 1s for a bestial failure, against the official rule: the cells
# where it matters most, then every outcome class as a heatmap (percentage
# points, Difficulty 3).

# %%
cmp = tables.compare("v5-official", "v5-two-hunger-ones-for-bestial",
                     {"pool": "1-15", "hunger": "0-5", "difficulty": "1-5"}, exact=True)
print(cmp.describe())
top = cmp.top(8)
top

# %%
# exact: the same cell from the V5 odds directly
row = top.iloc[0]
a = v5.odds(int(row.pool), int(row.hunger), int(row.difficulty)).probability(row.outcome)
b = v5.odds(int(row.pool), int(row.hunger), int(row.difficulty),
            rules=rulesets.load("v5-two-hunger-ones-for-bestial").rules).probability(row.outcome)
assert (row.a, row.b, row.difference) == (a, b, b - a) and isinstance(row.difference, Fraction)

# %%
plots.difference_heatmap(cmp, x="pool", y="hunger", at={"difficulty": 3})

# %%
plots.variant_curves([r.name for r in rulesets.variants("v5") if not r.sub_rules],
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

from analysis.present import explore

explorers = {name: explore.explorer(name) for name in explore.systems()}
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
expected = v5.odds(9, 4, 3, rules=rulesets.load("v5-two-hunger-ones-for-bestial").rules)
assert v5x.shown["odds"].loc["bestial_failure", "v5-two-hunger-ones-for-bestial"] == float(expected.bestial_failure)
pick.value = "cards"
assert box.children[0] is explorers["cards"].widget
