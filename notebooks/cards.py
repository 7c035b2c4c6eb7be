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
# # Ten-card tests with Hunger confirmation draws (the ten-card test rules)
#
# **The rules in brief** (docs/rules.md):
#
# - A deck is ten cards of one suit: Ace, 2..10. A test draws from someone
#   else's full deck.
# - **Static test:** attribute + 2 x skill + card >= difficulty. An Ace always
#   fails. Combat in dim light -3, in darkness -6 for the initiator.
# - **Opposed test:** initiator attribute + 2 x skill + card against defender
#   attribute + maximum Willpower + card, from independent decks. Higher wins,
#   ties go to the initiator, an Ace fails its drawer.
# - **Hunger >= 1:** a 10 or an Ace calls for a second card from the same
#   deck's remaining nine; a 10 or an Ace there makes the test bestial:
#   bestial success if won, bestial failure if lost. Each triggers a Compulsion.
# - A test needs the skill, except Athletics, Melee, Brawl and Firearms (then
#   weapon qualities don't apply).
#
# Every number below is exact: every ordered draw is counted.

# %%
# %matplotlib inline
from fractions import Fraction

from analysis.systems.cards import deck as cards
from analysis.versus import cards_v5
from analysis.present.published.figures import cards_odds, cards_scene, cards_vs_v5

# %% [markdown]
# ## One test
# Base 5 (say Dexterity 3 + 2 x Stealth 1) against difficulty 12, Hunger 1.

# %%
o = cards.odds(5, 12, hunger=1)
print(o)
assert o.p_bestial == Fraction(2, 10) * Fraction(1, 9) == Fraction(1, 45)

# %% [markdown]
# From the character sheet: Firearms in the dark, and a test the character
# cannot attempt without the skill.

# %%
print(cards.skill_test(3, 2, 10, skill_name="Firearms", light="dark", hunger=2))
try:
    cards.skill_test(3, 0, 10, skill_name="Computer")
except ValueError as exc:
    print("refused:", exc)

# %% [markdown]
# ## How hard is a difficulty?
# Only the card needed (difficulty - base) matters: 90% at 2 or less (anything
# but the Ace), 10% less for each step, nothing beyond 10.

# %%
cards.table(range(0, 16, 3), [8, 12, 16], 1)

# %%
cards_odds.make_figure()

# %% [markdown]
# ## Opposed tests

# %%
cards.opposed_table([5, 7, 9], [5, 7, 9], 1)

# %% [markdown]
# ## A scene from one deck that is not reshuffled
# Unconditioned, every test keeps its odds (each card is as likely to be the
# next). What changes is what follows what: a win takes a high card out of the
# deck, and a bestial result takes both the 10 and the Ace.

# %%
scene_deck = cards.CardRules(reshuffle=False)
cards.scene_table([(6, 12, 1)] * 4, scene_deck)

# %%
print(cards.scene([(6, 12, 1)] * 10, scene_deck))

# %%
cards_scene.make_figure()

# %% [markdown]
# ## House rules
# A fresh deck for the confirmation card, the Ace counting 11, ties to the
# defender:

# %%
for rules in (cards.CardRules(), cards.CardRules(confirmation="fresh_deck"),
              cards.CardRules(ace="high"), cards.CardRules(ties="defender")):
    o = cards.odds(5, 12, 1, rules)
    print(rules.changes() or "official rules", "win", o.p_win, "bestial", o.p_bestial)

# %% [markdown]
# ## Against V5 dice
# For each V5 pool and Difficulty, the card test with the nearest chance to
# win, and how often the Beast shows in each.

# %%
cards_v5.compare_v5(range(3, 8), 3, [1, 3])

# %%
cards_vs_v5.make_figure()
