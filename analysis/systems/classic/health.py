"""Classic (V20-style) damage, soak and the health track, counted exactly: one name for the three modules.

* :mod:`analysis.systems.classic.damage`: the damage rules, soak, and one attack's levels;
* :mod:`analysis.systems.classic.track`: the health track, its conditions, and torpor;
* :mod:`analysis.systems.classic.fights`: fighters, one blow, repeated blows and a two-sided fight.

``from analysis.systems.classic import health`` gives all of them, as before the split.
"""

from analysis.systems.classic.damage import (  # noqa: F401
    AIMS,
    BOXES,
    CREATURES,
    HEALTH_LEVELS,
    KINDS,
    MAX_TRAIT,
    OFFICIAL,
    PENALTIES,
    VAMPIRE_BASHING,
    VITAL_SPOT_LETHAL,
    DamageReading,
    DamageRules,
    LevelOdds,
    damage,
    read_damage,
    resolve_kind,
    soak_dice,
    sum_rows,
)
from analysis.systems.classic.track import (  # noqa: F401
    CONDITIONS,
    TORPOR_LENGTH,
    Health,
    take_damage,
    torpor_length,
    torpor_table,
)
from analysis.systems.classic.fights import (  # noqa: F401
    FIRST,
    MAX_STEPS,
    TABLE_CONDITIONS,
    UNTIL,
    Attack,
    Blows,
    Fight,
    Fighter,
    blow,
    blows,
    fight,
)

__all__ = [
    'KINDS',
    'CREATURES',
    'AIMS',
    'HEALTH_LEVELS',
    'BOXES',
    'PENALTIES',
    'CONDITIONS',
    'UNTIL',
    'TABLE_CONDITIONS',
    'TORPOR_LENGTH',
    'VAMPIRE_BASHING',
    'VITAL_SPOT_LETHAL',
    'MAX_TRAIT',
    'MAX_STEPS',
    'DamageRules',
    'OFFICIAL',
    'resolve_kind',
    'soak_dice',
    'LevelOdds',
    'sum_rows',
    'damage',
    'DamageReading',
    'read_damage',
    'Health',
    'take_damage',
    'Attack',
    'Fighter',
    'blow',
    'Blows',
    'blows',
    'FIRST',
    'Fight',
    'fight',
    'torpor_length',
    'torpor_table',
]
