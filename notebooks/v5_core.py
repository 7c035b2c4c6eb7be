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
# # V5: one roll, counted exactly
#
# **The rules in brief** (the V5 core rules, docs/rules.md). Roll a pool of d10s;
# every 6-10 is a success and every pair of 10s adds 2 more. Successes at or
# above the Difficulty win. Hunger dice *replace* normal dice
# (`min(hunger, pool)` of them) and succeed just as often, so Hunger never
# changes the chance to win; it changes what a win or a failure *means*:
#
# * **messy critical**: a win with a pair of 10s, at least one on a Hunger die;
# * **bestial failure**: a failed roll with a 1 on a Hunger die;
# * otherwise **critical win**, **win**, **win at a cost** (some successes,
#   too few) or **total failure** (none).
#
# Every number below is a `Fraction`: every way the dice can land, counted.

# %%
# %matplotlib inline
from analysis.systems.v5 import roll as v5
from analysis.present.published.figures import v5_beast_heatmap
from analysis.present.published.tables.v5 import seed_table_text
from IPython.display import Markdown

print(v5.odds(7, 3, 3))

# %% [markdown]
# ## The core rules' table, regenerated
# Difficulty 3; each Hunger column shows messy critical / bestial failure.

# %%
Markdown(seed_table_text())

# %% [markdown]
# ## Where the Beast lives

# %%
v5_beast_heatmap.make_figure()

# %% [markdown]
# ## Try It at the Table
# **1. Reading a roll.** Pool 6 at Hunger 2 against Difficulty 4; normal dice
# 10, 5, 7, 2; Hunger dice 10, 1.

# %%
reading = v5.read_roll(normal=[10, 5, 7, 2], hunger=[10, 1], difficulty=4)
reading

# %% [markdown]
# Three dice succeed (10, 7 and the Hunger 10) and the two 10s pair up for
# two more: 5 successes against 4, a win with margin 1. A Hunger die shows one
# of the 10s, so it is a **messy critical**; the Hunger 1 does nothing on a win.
#
# **4. The end of the night.** Humanity 6 with 3 Stains.

# %%
r = v5.remorse(humanity=6, stains=3)
print(f"Remorse pool: {r.pool} die; keep Humanity {r.keep_humanity} "
      f"({float(r.keep_humanity):.0%}), lose it {r.lose_humanity}")

# %% [markdown]
# Ten boxes, six filled by Humanity, three Stained: one clear box, so one die.
# On a failure Humanity drops to 5 and the Stains clear.
#
# **5. Know your odds.** Seven dice at Hunger 3 against Difficulty 3.

# %%
o = v5.odds(7, 3, 3)
print(f"bestial failure {o.bestial_failure} = {float(o.bestial_failure):.1%}")
print(f"messy critical  {o.messy_critical} = {float(o.messy_critical):.1%}")
