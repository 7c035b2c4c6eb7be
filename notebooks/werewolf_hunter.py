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
# # Werewolf and Hunter: Rage dice and Desperation dice, counted exactly
#
# Werewolf: the Apocalypse 5th edition and Hunter: the Reckoning 5th edition
# roll like Vampire 5th edition: every 6-10 is a success, every pair of 10s
# (on any dice) adds 2 more, and successes at or above the Difficulty win.
# Each adds its own *special dice*, counted by the same engine as Hunger dice;
# only the faces that mark a special die and what the mark does differ.
#
# Every number below is a `Fraction`: every way the dice can land, counted.

# %%
# %matplotlib inline
from fractions import Fraction

import pandas as pd

from analysis.systems.hunter import desperation as hunter
from analysis.present.published.figures import hunter_desperation
from analysis.systems.werewolf import rage as werewolf
from analysis.present.published.figures import werewolf_brutal

# %% [markdown]
# ## Werewolf: Rage dice and Brutal outcomes
#
# **The rules in brief** (Werewolf: the Apocalypse 5th edition). Rage dice
# replace normal dice, as many as the werewolf's Rage (0-5, up to the whole
# pool). When two or more Rage dice show a 1 or a 2 the outcome is **Brutal**:
# on a violent action the roll gains 4 successes; on anything else it fails.

# %%
print(werewolf.odds(6, 3, 3))
print()
print(werewolf.odds(6, 3, 3, violent=True))

# %% [markdown]
# The chance of a Brutal outcome depends only on the number of Rage dice:
# $1 - 0.8^R - 0.2\,R\,0.8^{R-1}$.

# %%
pd.DataFrame([{"rage dice": r, "P(Brutal)": werewolf.odds(8, r, 3).p_brutal,
               "%": f"{float(werewolf.odds(8, r, 3).p_brutal):.2%}"} for r in range(6)])

# %%
werewolf_brutal.make_figure()

# %% [markdown]
# **Reading a roll.** A violent action at Difficulty 3: normal dice 7 and 3,
# Rage dice 1, 2 and 9. Two Rage dice show 1-2: Brutal, and 4 more successes.

# %%
reading = werewolf.read_roll([7, 3], [1, 2, 9], 3, violent=True)
reading.outcome, reading.successes, reading.margin

# %% [markdown]
# **Willpower.** Up to three dice may be rerolled: normal dice, or Rage dice
# not showing 1-2 (a rerolled Rage die can still land a 1 or a 2). The best
# reroll for a win, against never touching a Rage die:

# %%
pd.DataFrame([{"strategy": str(w), "P(win)": float(o.p_win), "P(Brutal)": float(o.p_brutal),
               "Willpower spent": float(o.willpower_spent)}
              for w in (None, "normal_dice_only", "maximize_win")
              for o in [werewolf.odds(6, 3, 4, strategy=w)]])

# %% [markdown]
# **Rage checks.** One die: 1-5 loses a point of Rage. Rage after four checks
# from Rage 3:

# %%
werewolf.rage_after_checks(3, 4)

# %% [markdown]
# ## Hunter: Desperation dice, Overreach and Despair
#
# **The rules in brief** (Hunter: the Reckoning 5th edition). Desperation dice
# (0-5) are *added* to the pool and count like any die. If any of them shows a
# 1, a failed roll means **Despair**; a win means a choice: **Overreach**
# (keep the win, at a price) or Despair. Willpower never rerolls Desperation
# dice.

# %%
print(hunter.odds(4, 2, 3))

# %% [markdown]
# The chance that a Desperation 1 shows is $1 - 0.9^D$, whatever the pool:

# %%
pd.DataFrame([{"desperation dice": d, "P(a 1)": hunter.odds(4, d, 3).p_desperation_one,
               "closed form": 1 - Fraction(9, 10) ** d} for d in range(6)])

# %%
hunter_desperation.make_figure()

# %% [markdown]
# **Reading a roll.** Difficulty 3: normal dice 7, 8, 3 and Desperation dice
# 1, 6. Three successes win, but a Desperation die shows 1.

# %%
hunter.read_roll([7, 8, 3], [1, 6], 3).outcome
