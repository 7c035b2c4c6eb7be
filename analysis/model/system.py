"""What a game system is to the rest of the toolkit: one ``SYSTEM`` description per system package.

Every folder under ``analysis/systems/`` is one game system.  Its
``__init__.py`` defines ``SYSTEM = System(...)``: the rules dataclass, the
rules of its other mechanics (``sub_rules``: TOML sub-tables of its rule
sets), the grid axes of its odds table, its outcome classes with a one-line
meaning each, its ``odds`` and ``table`` functions, and its Willpower
strategies where it has any.  That is all ``beastodds <name>`` needs: the
command is generated from ``SYSTEM`` (:mod:`analysis.options.grid`), with an
option per axis, ``--rules`` and ``--set``.  A system whose columns appear in
tables beside other systems' names their prefixes (``column_prefixes``).
Commands of a system's own (``beastodds rouse``) are the command line's: a
module of :mod:`analysis.cli` each, listed there
(``analysis.cli.parser.SYSTEM_COMMANDS``).
Its folder also holds ``variants/*.toml``, the shipped rule sets (``beastodds rules``), found by
name.  What ``make`` publishes of it (tables, figures) is presentation:
:mod:`analysis.present.published`.

:mod:`analysis.systems.shipped` lists the systems; the CLI, rule-set
files, ``compare``, sweeps, the booklet and the build iterate what it finds,
so adding a system is adding one folder and its line there.

A system's ``__init__`` imports the code it names (its rules class, its table
function...) by plain imports and gives the objects (never a module's name as a
string: every tool follows a plain import); a system does not know the command line.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import pandas as pd

from analysis.model.validate import parse_spec

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from analysis.model.rules import Rules

    #: ``(name, one-line text)`` pairs, as :class:`System` holds them ...
    Pairs = tuple[tuple[str, str], ...]
    #: ... and as a system may give them: a dict or pairs.
    PairsIn = Mapping[str, str] | Iterable[tuple[str, str]]
    #: ``(lowest, highest or None)`` of an axis.
    Limit = tuple[int, int | None]

_NAME = re.compile(r"^[a-z][a-z0-9]*$")
_AXIS = re.compile(r"^[a-z][a-z0-9_]*$")
_PREFIX = re.compile(r"^[a-z][a-z0-9_]*_$")
#: Keys of a rule-set file that are not fields of a rules dataclass (``mechanic``: the mechanic
#: file that defines the system, see :func:`analysis.workbench.rulesets.from_dict`).
RESERVED = ("system", "name", "description", "mechanic")


@dataclass(frozen=True)
class System:
    """One game system as the toolkit sees it.

    Attributes
    ----------
    name : str
        Short lowercase name: ``system = "..."`` in rule-set files, the
        name of its folder under ``analysis/systems``.
    rules : type
        The frozen rules dataclass.
    table : callable
        ``table(*axis_values, rules=..., exact=...) -> DataFrame``: one row
        per grid cell, one column per axis, then the outcome columns.
    axes : tuple of (str, str)
        The grid axes in the table function's argument order, each with the
        SPEC used when a grid leaves it out.
    title : str
        The system's name for people (booklet sections, help).
    classes : tuple of (str, str)
        The outcome classes of one roll, mutually exclusive and summing to
        1, each with a one-line meaning.
    outcomes : tuple of str or None
        The table columns compared by ``compare`` (probabilities); None:
        every column that is neither an axis nor integer.
    odds : callable or None
        ``odds(...)`` for one cell, where the system has one.
    strategies : dict or None
        The Willpower strategies by name, where the system has them.
    package : str
        The Python package the system lives in (its shipped rule sets are
        read from its ``variants/`` folder).
    terms : dict
        ``{column: one-line meaning}`` for the axes and derived columns of its
        table that the shared glossary (:mod:`analysis.present.glossary`) does not
        define; its classes' meanings come from ``classes``.
    order : int
        Place in listings (lower first; then by name).
    aliases : tuple of str
        Other names a rule-set file may give as its ``system``.
    limits : dict or tuple of (str, (int, int or None))
        ``{axis: (lowest, highest)}``: the values the table function accepts
        on an axis (None: no highest), so that a sweep refuses a bad value
        before any cell is counted.  An axis left out is only checked to be
        a whole number >= 0 before the sweep.
    sub_rules : dict or tuple of (str, type)
        The rules of the system's other mechanics, by the name of their
        TOML sub-table (``{"rouse": RouseRules}``); each a
        :class:`analysis.model.rules.Rules` subclass.  A rule set holds one
        of each, the defaults unless its file has the table.
    distribution : callable or None
        ``distribution(*axis_values, rules=..., exact=..., max_successes=None)
        -> DataFrame``: the exact distribution of the roll's successes, one
        row per (cell, successes) (:mod:`analysis.engine.distribution`); it also
        takes ``check_only=True`` (the size checks alone) and, where the
        system has strategies, ``strategy=`` (one); None: the system counts
        no successes (``--distribution`` says so).
    columns : tuple of str or None
        The columns of its table, in order, as its table function gives
        them without options (axes, classes, derived columns such as
        ``p_win``): what ``beastodds NAME --help`` explains.  None: its axes,
        then its classes.
    whole_first_axis : bool
        One call of its table function counts every value of the first axis
        for about the cost of the largest (the dice walked one at a time, as
        the engine counts dice that roll again): a sweep gives each call the
        whole first axis and one value of the second, not a batch of the
        first.
    column_prefixes : dict or tuple of (str, str)
        ``{prefix: name for people}`` of the columns that stand for this
        system's odds in tables that set systems side by side
        (``{"card_": "ten-card test"}``): a legend explains ``card_success``
        by that name, then what ``success`` means in this system.  A prefix
        is lowercase and ends with ``_``.
    """

    # The fields as __post_init__ leaves them (dicts made pairs, sequences tuples); the
    # constructor also takes the other forms listed above, which the __init__ below states.
    name: str
    rules: type[Rules]
    table: Callable[..., pd.DataFrame]
    axes: Pairs
    title: str = ""
    classes: Pairs = ()
    outcomes: tuple[str, ...] | None = None
    odds: Callable[..., Any] | None = None
    strategies: Mapping[str, Any] | None = None
    package: str = ""
    terms: Pairs = ()
    order: int = 100
    aliases: tuple[str, ...] = field(default=())
    sub_rules: tuple[tuple[str, type[Rules]], ...] = ()
    limits: tuple[tuple[str, Limit], ...] = ()
    column_prefixes: Pairs = ()
    distribution: Callable[..., pd.DataFrame] | None = None
    columns: tuple[str, ...] | None = None
    whole_first_axis: bool = False

    if TYPE_CHECKING:  # what the constructor takes (the dataclass's own __init__ runs)

        def __init__(
            self,
            name: str,
            rules: type[Rules],
            table: Callable[..., pd.DataFrame] | None,
            axes: PairsIn,
            title: str = "",
            classes: PairsIn = (),
            outcomes: str | Iterable[str] | None = None,
            odds: Callable[..., Any] | None = None,
            strategies: Mapping[str, Any] | None = None,
            package: str = "",
            terms: PairsIn = (),
            order: int = 100,
            aliases: Iterable[str] = (),
            sub_rules: Mapping[str, type[Rules]] | Iterable[tuple[str, type[Rules]]] = (),
            limits: Mapping[str, Limit] | Iterable[tuple[str, Limit]] = (),
            column_prefixes: PairsIn = (),
            distribution: Callable[..., pd.DataFrame] | None = None,
            columns: Iterable[str] | None = None,
            whole_first_axis: bool = False,
        ) -> None: ...

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(f"a system name is lowercase letters and digits, got {self.name!r}")
        # code is given as the objects themselves (a plain import away), never a module's name as a string
        if not isinstance(self.rules, type):
            raise ValueError(f"the rules of system {self.name!r} are a class, got {self.rules!r}")
        for what in ("table", "odds", "distribution"):
            if not (getattr(self, what) is None or callable(getattr(self, what))):
                raise ValueError(f"the {what} of system {self.name!r} is a function, got {getattr(self, what)!r}")
        if not (self.strategies is None or isinstance(self.strategies, Mapping)):
            raise ValueError(f"the strategies of system {self.name!r} are a dict, got {self.strategies!r}")
        # until set below, each field holds what the constructor was given (any form it takes)
        axes: Any = self.axes
        pairs = tuple(axes.items()) if isinstance(axes, dict) else tuple(tuple(p) for p in axes)
        if not pairs:
            raise ValueError(f"system {self.name!r} needs at least one axis")

        for axis, spec in pairs:
            if not isinstance(axis, str) or not _AXIS.match(axis) or axis in RESERVED:
                raise ValueError(f"axis names are lowercase words, got {axis!r}")
            parse_spec(axis, spec)
        object.__setattr__(self, "axes", pairs)
        outcomes = self.outcomes
        if outcomes is not None:
            outcomes = (outcomes,) if isinstance(outcomes, str) else tuple(outcomes)
            if not outcomes or not all(isinstance(o, str) for o in outcomes):
                raise ValueError(f"outcomes must be column names, got {outcomes!r}")
            object.__setattr__(self, "outcomes", outcomes)
        classes = tuple(self.classes.items()) if isinstance(self.classes, dict) else tuple(self.classes)
        object.__setattr__(self, "classes", classes)
        if not self.title:
            object.__setattr__(self, "title", self.name)
        object.__setattr__(self, "aliases", tuple(self.aliases))
        terms = tuple(self.terms.items()) if isinstance(self.terms, dict) else tuple(self.terms)
        object.__setattr__(self, "terms", terms)
        subs: Any = self.sub_rules
        subs = tuple(subs.items()) if isinstance(subs, dict) else tuple(tuple(p) for p in subs)
        for pair in subs:
            if (
                len(pair) != 2
                or not isinstance(pair[0], str)
                or not _AXIS.match(pair[0])
                or pair[0] in RESERVED
                or not isinstance(pair[1], type)
            ):
                raise ValueError(
                    f"sub_rules of system {self.name!r} are (table name, rules class) "
                    f"pairs with lowercase names, got {pair!r}"
                )
        if len({n for n, _ in subs}) != len(subs):
            raise ValueError(f"system {self.name!r} names a sub_rules table twice")
        object.__setattr__(self, "sub_rules", subs)
        limits: tuple[Any, ...] = tuple(self.limits.items()) if isinstance(self.limits, dict) else tuple(self.limits)
        for pair in limits:
            if (
                len(pair) != 2
                or pair[0] not in self.axis_names
                or len(pair[1]) != 2
                or not isinstance(pair[1][0], int)
                or not (pair[1][1] is None or isinstance(pair[1][1], int))
            ):
                raise ValueError(
                    f"limits of system {self.name!r} are (axis, (lowest, highest or "
                    f"None)) pairs naming its axes, got {pair!r}"
                )
        object.__setattr__(self, "limits", tuple((a, tuple(lh)) for a, lh in limits))
        prefixes: Any = self.column_prefixes
        prefixes = tuple(prefixes.items()) if isinstance(prefixes, dict) else tuple(tuple(p) for p in prefixes)
        for pair in prefixes:
            if (
                len(pair) != 2
                or not isinstance(pair[0], str)
                or not _PREFIX.match(pair[0])
                or not isinstance(pair[1], str)
                or not pair[1].strip()
            ):
                raise ValueError(
                    f"column_prefixes of system {self.name!r} are (prefix, name) pairs, "
                    f"a prefix lowercase and ending with _, got {pair!r}"
                )
        object.__setattr__(self, "column_prefixes", prefixes)
        columns: Any = self.columns
        if columns is not None:
            columns = () if isinstance(columns, str) else tuple(columns)
            if not columns or not all(isinstance(c, str) for c in columns):
                raise ValueError(f"columns of system {self.name!r} are column names, got {self.columns!r}")
            object.__setattr__(self, "columns", columns)

    # ------------------------------------------------------------ code
    @property
    def sub_rule_names(self) -> tuple[str, ...]:
        """The TOML sub-table names of the other mechanics' rules."""
        return tuple(n for n, _ in self.sub_rules)

    @property
    def sub_rules_classes(self) -> dict[str, type[Rules]]:
        """``{table name: rules class}`` of the system's other mechanics, in declaration order."""
        return dict(self.sub_rules)

    def takes(self, parameter: str) -> bool:
        """Whether the table function takes the keyword ``parameter`` (``strategy``: the system has
        Willpower rerolls; ``at_least``, ``check_only``)."""
        try:
            return parameter in inspect.signature(self.table).parameters
        except (TypeError, ValueError):
            return False

    @property
    def table_columns(self) -> tuple[str, ...]:
        """The columns of its table without options (see ``columns``); counts nothing."""
        if self.columns is None:
            return self.axis_names + tuple(c for c, _ in self.classes)
        return self.columns

    @property
    def strategy_map(self) -> dict[str, Any]:
        """``{name: strategy}`` (empty where the system has no strategies)."""
        return {} if self.strategies is None else dict(self.strategies)

    # ------------------------------------------------------------ grid
    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.axes)

    def default_grid(self) -> dict[str, str]:
        """``{axis: SPEC}`` of the grid used when none is given."""
        return dict(self.axes)

    def class_meanings(self) -> dict[str, str]:
        """``{class: one-line meaning}`` of the outcome classes."""
        return dict(self.classes)

    def outcome_columns(self, df: pd.DataFrame) -> list[str]:
        """The columns of a table of this system that ``compare`` compares."""
        if self.outcomes is not None:
            missing = [c for c in self.outcomes if c not in df.columns]
            if missing:
                raise ValueError(f"the {self.name} table has no column {missing[0]!r}")
            return list(self.outcomes)
        return [c for c in df.columns if c not in self.axis_names and not pd.api.types.is_integer_dtype(df[c])]

    # ------------------------------------------------------------ rules
    def fields(self) -> dict[str, Any]:
        """``{field: default}`` of the rules dataclass, in declaration order."""
        cls = self.rules
        defaults = cls()
        return {f.name: getattr(defaults, f.name) for f in dataclasses.fields(cls)}

    # ------------------------------------------------------------ files
    def variant_files(self) -> list[Traversable]:
        """The shipped rule-set files (``variants/*.toml``), sorted by name."""
        if not self.package:
            return []

        try:
            folder = resources.files(self.package) / "variants"
        except ModuleNotFoundError:
            return []
        if not folder.is_dir():
            return []
        return sorted((p for p in folder.iterdir() if p.name.endswith(".toml")), key=lambda p: p.name)


def exports(module: types.ModuleType) -> Callable[[str], Any]:
    """A system package's ``__getattr__`` that serves the public names of its main ``module``, so that
    ``from analysis.systems import v5; v5.odds(...)`` is ``analysis.systems.v5.roll.odds``."""

    def __getattr__(name: str) -> Any:
        if not name.startswith("_") and hasattr(module, name):
            return getattr(module, name)
        raise AttributeError(f"module {module.__package__!r} has no attribute {name!r}")

    return __getattr__
