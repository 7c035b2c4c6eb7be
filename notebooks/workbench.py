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
#   change (the rest take the RULES.md ruling).
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

from analysis import plots, rulesets, tables
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
# Move the sliders: the odds of the roll under both rule sets and their
# difference, and the chosen outcome class against pool (the roll's pool
# marked).

# %%
import ipywidgets as widgets

V5_VARIANTS = [r.name for r in rulesets.variants("v5") if not r.sub_rules]  # the roll's variants
controls = {
    "pool": widgets.IntSlider(value=6, min=1, max=15, description="pool"),
    "hunger": widgets.IntSlider(value=2, min=0, max=5, description="Hunger"),
    "difficulty": widgets.IntSlider(value=3, min=1, max=6, description="difficulty"),
    "variant": widgets.Dropdown(options=V5_VARIANTS, value="v5-two-hunger-ones-for-bestial",
                                description="variant"),
    "baseline": widgets.Dropdown(options=V5_VARIANTS, value="v5-official", description="against"),
    "outcome": widgets.Dropdown(options=list(v5.CLASSES) + ["p_win"], value="bestial_failure",
                                description="plot"),
}
shown = {}  # what the explorer last showed (the headless check below reads it)


def explore(pool, hunger, difficulty, variant, baseline, outcome):
    cmp = tables.compare(baseline, variant, {"pool": "1-15", "hunger": hunger, "difficulty": difficulty})
    here = cmp.table[cmp.table["pool"] == pool].set_index("outcome")[["a", "b", "difference"]]
    here.columns = [baseline, variant, "difference"]
    shown.update(pool=pool, hunger=hunger, difficulty=difficulty, odds=here)
    print(f"pool {pool}, Hunger {hunger}, Difficulty {difficulty}: {variant} against {baseline}")
    display((here * 100).round(2).astype(str) + " %")
    fig = plots.variant_curves([baseline, variant] if baseline != variant else [variant], outcome,
                               x="pool", grid={"pool": "1-15", "hunger": hunger, "difficulty": difficulty})
    fig.axes[0].axvline(pool, color="0.5", lw=1, ls=":")
    display(fig)


out = widgets.interactive_output(explore, controls)
display(widgets.VBox([widgets.HBox([controls["pool"], controls["hunger"], controls["difficulty"]]),
                      widgets.HBox([controls["variant"], controls["baseline"], controls["outcome"]]),
                      out]))

# %% [markdown]
# The controls drive the same function headless: moving a slider from code
# updates the odds (this is what the test suite runs).

# %%
controls["pool"].value = 9
controls["hunger"].value = 4
assert (shown["pool"], shown["hunger"]) == (9, 4)
expected = v5.odds(9, 4, 3, rules=rulesets.load("v5-two-hunger-ones-for-bestial").rules)
assert shown["odds"].loc["bestial_failure", "v5-two-hunger-ones-for-bestial"] == float(expected.bestial_failure)
shown["odds"]
