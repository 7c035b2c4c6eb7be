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
# # Classic health levels, damage and soak (V20-style)
#
# Exact odds for the classic d10 system (classic Vampire health rules; docs/rules.md). Every number
# below counts every way the dice can land; nothing is simulated.
#
# **Rolls.** A pool of d10s against a difficulty 2..10 (default 6): each die at or above it
# is a success, each 1 cancels one success, a *botch* is no success rolled and at least one 1.
# Options: a specialty (a 10 counts 2), 1s not cancelling.
#
# **Damage.** Damage dice (Strength + weapon + extra attack successes) at difficulty 6 plus
# automatic successes (Potence); 1s do not cancel. **Soak:** Stamina (+ Fortitude) at
# difficulty 6; 1s cancel. Mortals can't soak lethal; aggravated is soaked only with
# Fortitude; vampires halve bashing after soak, rounding down. Firearms are bashing to
# vampires unless aimed at the head.
#
# **Health.** Seven boxes: Bruised 0, Hurt -1, Injured -1, Wounded -2, Mauled -2,
# Crippled -5, Incapacitated. The penalty of the lowest marked box comes off the
# character's own actions (never soak). Past Incapacitated, bashing or lethal sends a vampire
# into torpor, aggravated to Final Death; a mortal dies. A vampire in torpor who takes
# aggravated damage meets Final Death.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt

from analysis.systems.classic import pools as classic
from analysis.systems.classic import health
from analysis.present.published.figures import classic_damage_after_soak, classic_survival_curves

# %% [markdown]
# ## Classic pools
# Botch, failure and success are mutually exclusive; the exact Fractions sum to 1.

# %%
o = classic.odds(6, 7, specialty=True)
print(o)
assert o.botch + o.failure + o.success == 1

# %%
df = classic.table(range(1, 11), [4, 6, 8])
fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharex=True)
for d, rows in df.groupby("difficulty"):
    axes[0].plot(rows.pool, rows.success, marker="o", label=f"difficulty {d}")
    axes[1].plot(rows.pool, rows.botch, marker="o", label=f"difficulty {d}")
axes[0].set_title("success (at least one net success)")
axes[1].set_title("botch (no success rolled, a 1)")
for ax in axes:
    ax.set_xlabel("pool")
    ax.grid(alpha=0.3)
axes[0].legend()
plt.show()

# %% [markdown]
# ## The health chapter's worked example: Kincaid and Veronica
# Kincaid (Strength 4, Potence 2) punches Veronica (Stamina 2). His damage dice show
# 8, 6, 7, 9 plus two automatic successes: six levels. Veronica soaks with 3 and 8: one
# success. Five bashing levels get through, halved (round down) to two.

# %%
kincaid_hit = health.read_damage(damage_dice=[8, 6, 7, 9], auto=2, soak_dice=[3, 8],
                                  kind="bashing", target="vampire")
print(kincaid_hit)
assert (kincaid_hit.levels_rolled, kincaid_hit.soak_successes, kincaid_hit.after_soak,
        kincaid_hit.levels) == (6, 1, 5, 2)

# %% [markdown]
# Veronica (Strength 1) swings back and rolls a 9: one level. Kincaid soaks with Stamina 4 +
# Fortitude 1 and rolls 4, 5, 1, 9, 3: the 1 cancels the 9, so the soak fails; but the one
# bashing level is halved to nothing.

# %%
veronica_hit = health.read_damage(damage_dice=[9], auto=0, soak_dice=[4, 5, 1, 9, 3],
                                  kind="bashing", target="vampire")
print(veronica_hit)
assert (veronica_hit.levels_rolled, veronica_hit.soak_successes, veronica_hit.levels) == (1, 0, 0)

# %% [markdown]
# The exact distributions of both attacks, over every way the dice could have landed:

# %%
kincaid = health.damage(4, auto=2, stamina=2, kind="bashing", target="vampire")
veronica = health.damage(1, auto=0, stamina=4, fortitude=1, kind="bashing", target="vampire")
print(kincaid, veronica, sep="\n\n")
kincaid.table(exact=True)

# %% [markdown]
# Veronica cannot hurt Kincaid with a single damage die, whatever she rolls. Had Kincaid used
# his fangs (aggravated), Veronica could only soak with Fortitude, which she lacks:

# %%
print(health.damage(4, auto=2, stamina=2, kind="aggravated", target="vampire"))

# %% [markdown]
# ## Damage after soak, at a glance

# %%
classic_damage_after_soak.make_figure()

# %% [markdown]
# ## The health track as an exact Markov chain
# A state is the marked boxes by kind (`*` aggravated, `X` lethal, `/` bashing). Repeated
# blows move the track down; Incapacitated, torpor and Final Death are where it ends.

# %%
h = health.Health(bashing=2)
for levels, kind in [(3, "lethal"), (2, "bashing"), (1, "lethal"), (1, "aggravated")]:
    h = health.take_damage(h, levels, kind, "vampire")
    print(f"{levels} {kind:<10} -> {h}   penalty {h.penalty()}")

# %% [markdown]
# Kincaid keeps punching Veronica, every blow landing (his damage roll as in the health chapter):

# %%
kincaid_punch = health.Attack(damage_dice=4, kind="bashing", auto=2)
veronica_victim = health.Fighter("vampire", stamina=2, name="Veronica")
run = health.blows(kincaid_punch, veronica_victim, max_blows=12)
print("stochastic:", run.chain.is_stochastic(), " absorbing:", run.chain.is_absorbing(),
      " states:", len(run.chain))
print("expected blows to Incapacitated:", run.expected("incapacitated"),
      f"= {float(run.expected('incapacitated')):.3f}")
print("expected blows to torpor:", f"{float(run.expected('torpor')):.3f}")
print("ever Final Death from bashing:", run.eventually("final_death"))
run.table()

# %% [markdown]
# Wound penalties feed into the victim's own later pools. After 0, 1, 2 and 3 of Kincaid's
# blows, Veronica tries to flee with Dexterity 3 + Athletics 2 at difficulty 6:

# %%
for k in range(4):
    roll = run.victim_roll(k, pool=5, difficulty=6)
    print(k, {name: f"{float(p):.3f}" for name, p in roll.items()})

# %% [markdown]
# A vampire and a mortal under repeated blows, with an attack roll each blow (a miss does
# nothing, extra successes add damage dice):

# %%
classic_survival_curves.make_figure()

# %% [markdown]
# ## A two-sided fight
# Each side's wound penalty comes off its own attack pool; an Incapacitated side stops
# fighting. Kincaid (Dexterity 3 + Brawl 3) against Veronica (Dexterity 3 + Brawl 2),
# Kincaid striking first each turn:

# %%
k_fighter = health.Fighter("vampire", stamina=4, fortitude=1, name="Kincaid",
                           attack=health.Attack(4, "bashing", auto=2, attack_pool=6))
v_fighter = health.Fighter("vampire", stamina=2, name="Veronica",
                           attack=health.Attack(1, "bashing", attack_pool=5))
bout = health.fight(k_fighter, v_fighter, first="a", until="incapacitated", turns=10)
print({name: f"{float(p):.8%}" for name, p in bout.outcomes().items()})
print("expected turns:", f"{float(bout.expected_turns()):.3f}")
bout.table()

# %% [markdown]
# ## Torpor
# A vampire sent into torpor by wounds rests for a time set by Humanity:

# %%
health.torpor_table()
