"""One glossary: the name of each idea, the same in code, table columns, the command line and the docs.

``TERMS`` holds the shared vocabulary: ``pool`` is always the dice rolled,
``difficulty`` always the successes (or total) needed, ``strategy`` always
a Willpower strategy.  A system adds only what is its own (its ``SYSTEM``'s
``classes`` and ``terms``), so a new system needs no edit here; a test checks
that every axis, class and column of every system's table is a term of
:func:`terms`.  ``TABLE_TERMS`` holds the meanings of the columns a command adds
to a system's table (a comparison's ``a``, ``b``, ``difference``, an export's
``rule_set``, the columns of ``solve`` and ``versus``); :mod:`analysis.present.legend`
reads both to write a table's legend.
"""

from __future__ import annotations

import difflib

from analysis.workbench import rulesets

#: ``{term: one-line meaning}``, by theme.
TERMS: dict[str, str] = {
    # --- what a roll is made of (axes)
    "pool": "dice rolled, after every modifier",
    "difficulty": "successes needed to win (classic pools: the face a die must reach)",
    "hunger": "the vampire's Hunger, 0..5: that many dice of the pool are Hunger dice (V5; cards: Hunger draws)",
    "soif": "La Soif level 0..5: that many dice of the pool are Beast dice",
    "beast_dice": "Beast dice in the pool (La Soif)",
    "base": "attribute + 2 x skill (minus penalties) before the card (ten-card tests)",
    "defense": "the defender's attribute + maximum Willpower (opposed ten-card tests)",
    "blood_potency": "Blood Potency 0..10 (V5): Surge bonus, mending, Rouse rerolls",
    "start_hunger": "Hunger before a chain of Rouse checks",
    "checks": "Rouse checks made in a row",
    "turns": "turns (or blows) followed by a fight chain",
    "until": "the condition that ends a fight chain (first to be impaired, incapacitated, out)",
    # --- outcome classes (mutually exclusive, each system's sum to exactly 1)
    "total_failure": "5th-edition dice: no success, and no Hunger 1, Brutal outcome or Desperation 1",
    "failure": "the roll fails, nothing worse: 5th-edition dice: some successes but fewer than the "
    "Difficulty (the Storyteller may offer a win at a cost); Requiem, classic: no success; "
    "ten-card: the total falls short",
    "plain_win": "5th-edition dice: successes reach the Difficulty, no pair of 10s, nothing special",
    "critical_win": "5th-edition dice: a win with a pair of 10s (V5: no Hunger 10 among them)",
    "messy_critical": "V5: a win with a pair of 10s, a Hunger die showing 10",
    "bestial_failure": (
        "not a win, and a Hunger or Beast die shows 1 (V5, La Soif); ten-card: a failure confirmed bestial"
    ),
    "dramatic_failure": "Requiem: the chance die shows 1",
    "plain_success": "Requiem: 1 to 4 successes (an exceptional success is its own class)",
    "success": "classic: at least one success left after 1s cancel; ten-card: the total reaches the "
    "difficulty, not bestial",
    "exceptional_success": "Requiem: 5 or more successes",
    "bestial_success": "ten-card: a success confirmed bestial by the Hunger card",
    "botch": "classic: no success rolled and at least one 1",
    # --- derived columns (not classes): p_ a probability, mean_ an expectation
    "p_win": "chance to win: the sum of the winning classes",
    "p_success": "chance to succeed (Requiem: plain + exceptional success; ten-card: success + bestial_success)",
    "p_beastly_critical": "La Soif: chance of a beastly critical (10s only on Beast dice); part of the successes",
    "p_at_least_N": "chance of N or more successes after the system's rules (one column per N asked "
    "with --at-least; ten-card: a total of N or more)",
    "p_win_gain": "p_win with the Willpower strategy minus p_win without Willpower (exact)",
    "mean_successes": "expected successes",
    "successes": "successes counted (pairs of 10s with their bonus)",
    "margin": "successes minus the Difficulty",
    "incapacitated_or_worse": "classic blows: chance of being Incapacitated, in torpor or dead by that blow",
    "torpor_or_worse": "classic blows: chance of being in torpor or past it (Final Death, a mortal's death)",
    "final_death": "classic blows: chance of Final Death (a mortal: death) by that blow",
    # --- Willpower
    "strategy": "a Willpower strategy: how a player picks the dice to reroll (none, reroll_failures, "
    "maximize_win, ...)",
    "willpower_spent": "chance that the strategy spends Willpower (rerolls)",
    # --- rules
    "rules": "a system's rules dataclass: every house-rule knob, official defaults",
    "rule set": "named rules of one system, a shipped variant or a TOML file",
    "ways": "integer count of the ways the dice or cards land in a class; probability = ways / denominator",
    "denominator": "every way the dice or cards can land (10**dice for d10 pools)",
    "class_ways": "ways of each outcome class of one result",
}


#: Meanings of the columns a comparison or an export adds (not terms of a system's table).
TABLE_TERMS = {
    "outcome": "the outcome column compared on this row",
    "a": "its value under the first rule set (a)",
    "b": "its value under the second rule set (b)",
    "difference": "b - a, computed exactly",
    "value": "the column whose values the row shows (--pivot with several --value)",
    "rule_set": "the rule set the odds are counted under (CSV and JSON)",
    "rule_set_a": "the first rule set compared (CSV and JSON)",
    "rule_set_b": "the second rule set compared (CSV and JSON)",
    "AXES": "the axes of the rule sets' system (--pool, --hunger, ...), one column each",
    "CLASSES": "the columns of the rule set's system (see beastodds SYSTEM --help)",
    # the columns of `beastodds solve`
    "FIND": "the value found of the --find axis or rule field (- or empty when no value meets the target)",
    "COLUMN": "the --target column's value there (a fraction with --exact)",
    "note": "a tie (for ~), that no value searched meets the target, or that a larger value does not "
    "meet it, in words; empty otherwise",
    # the columns of `beastodds versus`
    "attribute": "the character's attribute (dots), the same on both sides",
    "skill": "the character's skill (dots), the same on both sides",
    "win_difference": "the other system's chance of success minus V5's chance to win, exactly (above 0: the "
    "other system is easier)",
    "bestial_difference": "the other system's chance of a bestial failure minus V5's, exactly (above 0: the "
    "other system is harsher)",
    "bestial_ratio": "the other system's chance of a bestial failure over V5's, exactly (above 1: the other "
    "system is harsher; - when V5's is 0)",
    "paired": "what the two rolls of the row share (the V5 Difficulty and the pairing), in words",
    # the columns of the commands that print more than a system's odds table
    "reroll": "each Rouse check may be rerolled (two dice, keep the better)",
    "frenzy_test": "chance that some check failed at Hunger 5 (a hunger frenzy test)",
    "pool_a": "dice side A rolls",
    "hunger_a": "side A's Hunger",
    "pool_b": "dice side B rolls",
    "hunger_b": "side B's Hunger",
    "winner": "the side with more successes (a, b or tie)",
    "damage_to_a": "damage side A marks (after halving)",
    "damage_to_b": "damage side B marks (after halving)",
    "probability": "chance of this row",
    "turn": "turns played (0: before the first roll)",
    "a_impaired": "chance that side A is Impaired by this turn",
    "b_impaired": "chance that side B is Impaired by this turn",
    "a_impaired_first": "chance that A became Impaired on a turn when B was not (yet)",
    "b_impaired_first": "chance that B became Impaired on a turn when A was not (yet)",
    "both_impaired_together": "chance that both became Impaired on the same turn",
    "a_out_first": "chance that A is out (torpor or death) first: B's victory",
    "b_out_first": "chance that B is out (torpor or death) first: A's victory",
    "both_out_together": "chance that both went out on the same turn",
    "over": "chance that the fight has stopped (by --until) by this turn",
    "a_superficial": "side A's Superficial damage after the last turn",
    "a_aggravated": "side A's Aggravated damage after the last turn",
    "b_superficial": "side B's Superficial damage after the last turn",
    "b_aggravated": "side B's Aggravated damage after the last turn",
    "levels": "health levels lost",
    "dice": "damage dice",
    "auto": "automatic damage successes",
    "stamina": "the target's Stamina (soak dice)",
    "fortitude": "the target's Fortitude",
    "blows": "blows taken",
    "incapacitated": "chance of being Incapacitated or worse after that many blows",
    "torpor": "chance of torpor or worse after that many blows (a mortal's death counts)",
    "final_death": "chance of Final Death after that many blows (a mortal's death counts)",
    "vitae": "Vitae in the vampire's (or ghoul's) body",
    "p_exactly": "chance of exactly this many successes",
    "p_at_least": "chance of at least this many successes",
    "p_more": "chance of more than this many successes",
    "initiator_wins": "chance that the initiator wins (bestial or not)",
    # the columns of the published tables
    "level": "the Soif (La Soif) and the Hunger (V5) of the row",
    "surge_bonus": "dice a Blood Surge adds at this Blood Potency",
    "mend": "Superficial damage mended per Rouse check at this Blood Potency",
    "rouse_reroll_level": "highest Discipline level whose Rouse check may be rerolled at this Blood Potency",
    "card_needed": "the card the test needs: difficulty minus base",
    "deck": "how the scene's cards are dealt: reshuffled between tests, or one scene deck",
    "test": "the test's place in the scene (1: the first)",
    "tests": "tests in the scene",
    "win_after_win": "chance to win, given the test before was won",
    "win_after_loss": "chance to win, given the test before was lost",
    "bestial_after_bestial": "chance of a bestial result, given the test before was bestial",
    "none": "chance that the scene brings no Compulsion",
    "one": "chance that the scene brings exactly one Compulsion",
    "two_or_more": "chance that the scene brings two Compulsions or more",
    "attack": "the attack of the example",
    "kind": "kind of damage (bashing, lethal, aggravated)",
    "soak": "soak dice",
    "mean_levels": "expected health levels lost",
    "at_least_one": "chance of losing at least one health level",
    "at_least_three": "chance of losing at least three health levels",
    "humanity": "the vampire's Humanity",
    "name": "the rule set's name (give it to --rules, table, compare)",
    "system": "the system the rule set belongs to",
    "changes": "the fields it changes from the system's defaults",
    "description": "what it is, in a sentence or two",
}


#: Readable names of the columns whose snake_case name reads badly (:func:`label`).
LABELS: dict[str, str] = {
    "p_win": "chance to win",
    "p_success": "chance of a success",
    "mean_successes": "mean successes",
    "soif": "Soif",
    "v5_win": "V5 win",
}


def label(name) -> str:
    """A column, axis or outcome name for people, capitalised: ``p_win`` -> ``Chance to win``,
    ``start_hunger`` -> ``Start hunger``, ``p_brutal`` -> ``Chance of brutal``.

    The one place booklets, legends and figures turn a name into words.
    """
    text = str(name)
    if text in LABELS:
        text = LABELS[text]
    elif text.startswith("p_") and len(text) > 2:
        text = "chance of " + text[2:].replace("_", " ")
    else:
        text = text.replace("_", " ")
    return text[:1].upper() + text[1:]


def terms() -> dict:
    """Every term: the shared ``TERMS``, then each system's own classes and terms.

    A shared term keeps its shared meaning; a system may not give a second
    meaning to a term another system already defined.  A designer's mechanic
    file (registered at run time from a file) is not part of the shared
    vocabulary: its words keep the meanings its own file gives them, in its
    own tables' legends, whatever other systems call them.
    """
    out = dict(TERMS)
    owner: dict[str, str] = {}
    for system in rulesets.SYSTEMS.values():
        if system.name in rulesets.MECHANIC_FILES:
            continue
        for term, text in tuple(system.classes) + tuple(system.terms):
            if term in TERMS:
                continue
            if term in owner and out[term] != text:
                raise ValueError(
                    f"{system.name} and {owner[term]} give the term {term!r} two meanings; "
                    f"name one of them otherwise, or move it to analysis/present/glossary.py"
                )
            owner.setdefault(term, system.name)
            out[term] = text
    return out


def meaning(term: str) -> str:
    """The one-line meaning of a term, or a ValueError naming the close ones."""
    known = terms()
    if term in known:
        return known[term]

    close = difflib.get_close_matches(term, list(known), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ValueError(f"{term!r} is not in the glossary{hint}")
