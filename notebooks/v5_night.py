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
# # V5 beyond one roll: Willpower, the blood, and the end of the night
#
# **In brief** (the V5 core rules, docs/rules.md):
#
# * **Willpower**: once per roll, after seeing the dice, reroll up to three
#   *normal* dice (never Hunger dice). Which dice is a decision; each named
#   strategy below makes it exactly, for every way the dice can land.
# * **Rouse check**: one die, 6+ keeps Hunger, else Hunger +1 (to 5). A Blood
#   Potency reroll rolls two and keeps the better. A failed check at Hunger 5
#   means a hunger frenzy test.
# * **Blood Surge** adds dice by Blood Potency to one roll, at the old Hunger.
# * **Remorse**: one die per Humanity box neither filled nor Stained (at least
#   one); no success costs a point of Humanity.
# * **Frenzy**: unmarked Willpower + a third of Humanity, no Hunger dice, no
#   Willpower reroll.

# %%
# %matplotlib inline
from analysis.systems.v5 import rouse
from analysis.systems.v5 import roll as v5
from analysis.systems.v5 import willpower
from analysis.present.published.figures import v5_night_hunger, v5_willpower_gain
from analysis.present.published.tables.v5_night import willpower_table_text
from IPython.display import Markdown

# %% [markdown]
# ## Willpower: how much each strategy adds

# %%
Markdown(willpower_table_text())

# %%
v5_willpower_gain.make_figure()

# %% [markdown]
# ## Hunger over a night

# %%
v5_night_hunger.make_figure()

# %%
rouse.night(1, list(v5_night_hunger.SAMPLE_NIGHT), blood_potency=1).round(3)

# %% [markdown]
# ## Try It at the Table
#
# **1. Reading a roll.** Pool 6 at Hunger 2, Difficulty 4: normal 10, 5, 7, 2;
# Hunger 10, 1.

# %%
v5.read_roll(normal=[10, 5, 7, 2], hunger=[10, 1], difficulty=4)

# %% [markdown]
# Five successes (10, 7, Hunger 10, and 2 for the pair of 10s) against 4: a
# **messy critical**, since a Hunger die shows one of the 10s. The Hunger 1 does
# nothing on a win, and no strategy spends Willpower on it:

# %%
willpower.decide([10, 5, 7, 2], [10, 1], 4, "maximize_win")

# %% [markdown]
# **2. Saving a bad roll.** Pool 5 at Hunger 3, Difficulty 2: normal 4, 3;
# Hunger 6, 1, 2. One success, too few, and a Hunger 1: a **bestial failure**.
# Rerolling both normal dice wins if either succeeds:

# %%
d = willpower.decide(normal=[4, 3], hunger=[6, 1, 2], difficulty=2, strategy="reroll_failures")
print(d.before, "-> reroll", d.reroll, "-> win with probability", d.p_win, f"({float(d.p_win):.0%})")
print("still bestial:", d.after["bestial_failure"])

# %% [markdown]
# **3. Holding back the Beast.** Six Willpower boxes, two marked Superficial,
# Humanity 8, insulted before the sire: four unmarked boxes + floor(8/3) = 6 dice,
# no Hunger dice, no Willpower reroll.

# %%
pool = v5.frenzy_pool(willpower=6, superficial=2, humanity=8)
for difficulty in (2, 3, 4):
    o = v5.resist_frenzy(6, difficulty, superficial=2, humanity=8)
    print(f"{pool} dice at Difficulty {difficulty}: resist {o.p_win} = {float(o.p_win):.1%}")

# %% [markdown]
# **4. The end of the night.** Humanity 6 with 3 Stains: one clear box, so a
# one-die Remorse roll; on a failure Humanity drops to 5 (the Stains clear either way).

# %%
r = v5.remorse(humanity=6, stains=3)
print(f"{r.pool} die: keep Humanity {r.keep_humanity}, fall to 5 with {r.lose_humanity}")

# %% [markdown]
# **5. Know your odds.** Seven dice at Hunger 3 against Difficulty 3.

# %%
o = v5.odds(7, 3, 3)
print(f"bestial failure {o.bestial_failure} = {float(o.bestial_failure):.1%}")
print(f"messy critical  {o.messy_critical} = {float(o.messy_critical):.1%}")
print("with the best Willpower reroll:", v5.odds(7, 3, 3, strategy="maximize_win"), sep="\n")
