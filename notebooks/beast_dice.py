# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
# ---

# %% [markdown]
# # La Soif: Beast dice on Requiem dice
#
# A French house rule (the La Soif house rule) that brings V5-style Hunger into a
# *Vampire: The Requiem* game.  Every number below is exact: every way the dice
# can land is counted, nothing is simulated.
#
# **Requiem dice** (1st edition): d10s, a success on 8, 9 or 10; a 10 is rolled
# again and the reroll adds (10-again, without end; 9-again, 8-again, no again
# and rote actions as options).  At 0 dice or less: one chance die, only a 10
# succeeds, a 1 is a dramatic failure.  5 successes or more: exceptional.
#
# **La Soif** (docs/rules.md):
# - Soif 0..5 comes from the character's current Vitae (the *ladder*, below).
# - Beast dice replace normal dice: `min(soif, pool)` of them ("Trop de dés").
# - A failed roll with a 1 on a Beast die: **bestial failure**.
# - 10s on Beast dice only (at least one): **beastly critical**, a success;
#   those 10s are not rolled again but count 2 successes each.
# - At Soif 1+ the chance die is a Beast die (option).
# - Tempting the Beast / the hunting bonus: +Soif dice, all Beast dice.
# - Frenzy risk: Resolve + Composure - Soif dice.

# %%
# %matplotlib inline
from analysis.systems.requiem import beast
from analysis.versus import requiem_v5
from analysis.systems.requiem import dice as requiem
from analysis.present.published.figures import beast_character, beast_heatmap, beast_vs_v5

# %% [markdown]
# ## The house rule's Soif ladders
#
# Thirst shows from `T = max Vitae - (Resolve + Composure - Blood Potency)`
# Vitae down.  The house rule's third example (T = 22 boxes for 20 Vitae) prints a
# ladder that its own rule does not give: the default mode is the rule as
# written, mode `printed` reproduces the print.

# %%
for args in [(11, 3, 2, 2), (20, 4, 4, 6), (20, 2, 2, 6)]:
    for mode in ("written", "printed"):
        print(beast.soif_ladder(*args, mode=mode))
print(beast.ghoul_soif_ladder(stamina=3, size=5, resolve=2, composure=3))

# %%
beast.soif_ladder(11, resolve=3, composure=2, blood_potency=2).table().T

# %% [markdown]
# ## The house rule's dice examples
#
# Dexterity + Athletics 5 dice at Soif 2: 3 normal dice and 2 Beast dice.
# Climbing with 4 dice at Soif 5: four dice, all Beast dice.  Tempting the Beast
# at Soif 2: four Beast dice.

# %%
print(beast.odds(5, 2))
print(beast.odds(4, 5))
print(beast.odds(2, 2, tempt=True))

# %% [markdown]
# The exact distribution of successes, with the exact tail beyond the bound:

# %%
o = beast.odds(6, 3, max_successes=12)
assert sum(o.successes.values()) + o.tail == 1
{s: str(p) for s, p in o.successes.items()}, str(o.tail)

# %% [markdown]
# Beast dice never change the chance of success (a roll fails when no die
# succeeds, whatever kind the dice are); they change what a failure and a
# success look like.

# %%
requiem.table("0-10").round(4)  # plain Requiem, pool 0 = a chance die

# %%
beast.table("1-10", "0-5").round(4)

# %%
beast_heatmap.make_figure()

# %% [markdown]
# ## A character from full to empty
#
# The house rule's first vampire (Blood Potency 2, Resolve 3, Composure 2, 11 Vitae)
# rolling 6 dice, at every current Vitae.

# %%
ladder = beast.soif_ladder(11, resolve=3, composure=2, blood_potency=2)
beast.character_table(ladder, 6).round(4)

# %%
beast_character.make_figure(max_vitae=11, resolve=3, composure=2, blood_potency=2, pool=6)

# %% [markdown]
# Holding the Beast back: the frenzy-risk roll, Resolve + Composure - Soif.

# %%
{soif: round(float(beast.frenzy_risk(3, 2, soif).p_success), 4) for soif in range(6)}

# %% [markdown]
# ## Plain Requiem, La Soif and V5
#
# The same pools under plain Requiem, under the house rule, and under V5 with
# Hunger equal to the Soif (V5 at Difficulty 1, the Requiem question "at least
# one success").

# %%
requiem_v5.compare_table("1-10", "1,3,5").round(4)

# %%
beast_vs_v5.make_figure()
