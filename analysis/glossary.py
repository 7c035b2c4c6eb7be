"""One glossary: the name of each idea, the same in code, table columns, the command line and the docs.

Every axis, outcome class and column of a system's odds table is a term
here (a test checks it), so the same idea has the same name in every
system: ``pool`` is always the dice rolled, ``difficulty`` always the
successes (or total) needed, ``strategy`` always a Willpower strategy.
"""
from __future__ import annotations

#: ``{term: one-line meaning}``, by theme.
TERMS: dict[str, str] = {
    # --- what a roll is made of (axes)
    "pool": "dice rolled, after every modifier",
    "difficulty": "successes needed to win (classic pools: the face a die must reach)",
    "hunger": "the vampire's Hunger, 0..5: that many dice of the pool are Hunger dice (V5; cards: Hunger draws)",
    "soif": "La Soif level 0..5: that many dice of the pool are Beast dice",
    "beast_dice": "Beast dice in the pool (La Soif)",
    "rage": "the werewolf's Rage, 0..5: that many dice of the pool are Rage dice (Werewolf 5th edition)",
    "desperation": "Desperation dice added to the pool, 0..5 (Hunter 5th edition)",
    "base": "attribute + 2 x skill (minus penalties) before the card (ten-card tests)",
    "defense": "the defender's attribute + maximum Willpower (opposed ten-card tests)",
    "blood_potency": "Blood Potency 0..10 (V5): Surge bonus, mending, Rouse rerolls",
    "violent": "Werewolf: 1 for a violent action (a Brutal outcome adds successes), 0 otherwise",
    "start_hunger": "Hunger before a chain of Rouse checks",
    "checks": "Rouse checks made in a row",
    "turns": "turns (or blows) followed by a fight chain",
    "until": "the condition that ends a fight chain (first to be impaired, incapacitated, out)",
    # --- outcome classes (mutually exclusive, each system's sum to 1)
    "total_failure": "5th-edition dice: no success, and no Hunger 1, Brutal outcome or Desperation 1",
    "win_at_cost": "5th-edition dice: some successes but fewer than the Difficulty, nothing worse (a failure)",
    "win": "5th-edition dice: successes reach the Difficulty, no pair of 10s, nothing special",
    "critical_win": "5th-edition dice: a win with a pair of 10s (V5: no Hunger 10 among them)",
    "messy_critical": "V5: a win with a pair of 10s, a Hunger die showing 10",
    "bestial_failure": "not a win, and a Hunger or Beast die shows 1 (V5, La Soif); ten-card: a failure confirmed bestial",
    "brutal_win": "Werewolf: a violent action wins with the Brutal +4 successes (two Rage dice show 1 or 2)",
    "brutal_failure": "Werewolf: a Brutal outcome (two Rage dice show 1 or 2) that fails",
    "overreach_or_despair": "Hunter: a win with a Desperation 1: the player picks Overreach or Despair",
    "despair": "Hunter: not a win, and a Desperation die shows 1",
    "dramatic_failure": "Requiem: the chance die shows 1",
    "failure": "no success (Requiem, classic) or the total falls short (ten-card), nothing worse",
    "success": "at least one success (Requiem: 1 to 4; classic: after 1s cancel); ten-card: the total reaches the difficulty",
    "exceptional_success": "Requiem: 5 or more successes",
    "bestial_success": "ten-card: a success confirmed bestial by the Hunger card",
    "botch": "classic: no success rolled and at least one 1",
    # --- derived columns (not classes)
    "p_win": "chance to win: the sum of the winning classes",
    "p_success": "chance of at least one success (Requiem, classic)",
    "beastly_critical": "La Soif flag (overlaps the classes): 10s only on Beast dice",
    "brutal": "Werewolf: chance of a Brutal outcome (brutal_win + brutal_failure)",
    "desperation_one": "Hunter: chance that a Desperation die shows 1",
    "mean_successes": "expected successes",
    "successes": "successes counted (pairs of 10s with their bonus)",
    "margin": "successes minus the Difficulty",
    # --- Willpower
    "strategy": "a Willpower strategy: how a player picks the dice to reroll (reroll_failures, maximize_win, ...)",
    "willpower_spent": "chance that the strategy spends Willpower (rerolls)",
    # --- rules
    "rules": "a system's rules dataclass: every house-rule knob, official defaults",
    "rule set": "named rules of one system, a shipped variant or a TOML file",
    "ways": "integer count of the ways the dice or cards land in a class; probability = ways / denominator",
    "denominator": "every way the dice or cards can land (10**dice for d10 pools)",
    "class_ways": "ways of each outcome class of one result",
}


def meaning(term: str) -> str:
    """The one-line meaning of a term, or a ValueError naming the close ones."""
    if term in TERMS:
        return TERMS[term]
    import difflib

    close = difflib.get_close_matches(term, list(TERMS), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ValueError(f"{term!r} is not in the glossary{hint}")
