"""A tidy odds table reshaped: one value as a grid (:func:`pivot`), several stacked, chosen columns.

A system's ``table()`` is tidy: key columns (the axes) then value columns.
:func:`pivot` lays one value out with some axes down and others across;
:func:`stacked_pivot` does so for several values, one block under the other
with a first column ``value``; :func:`choose_columns` keeps the value columns
asked for.  Each refuses a wrong name in one sentence, with a "did you mean".
"""

from __future__ import annotations

import re

import pandas as pd

from analysis.workbench import rulesets
from analysis.model.validate import column_names, first_repeat, unknown_column


def check_frame(df, what: str) -> None:
    """A TypeError of one sentence unless ``df`` is a pandas DataFrame."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(
            f"{what} takes an odds table (a pandas DataFrame, as a system's table() returns), got {type(df).__name__}"
        )


def pivot_axes(spec) -> tuple:
    """``"pool x hunger"`` (or ``(rows, columns)``) as ``([rows], [columns])``; a ValueError otherwise."""
    if isinstance(spec, str):
        parts = re.split(r"\s+x\s+|\s*[×]\s*", spec.strip())
        if len(parts) != 2 or not all(p.strip() for p in parts):
            raise ValueError(f"--pivot takes ROWS x COLS, such as --pivot 'pool x hunger', got {spec!r}")
        return column_names("--pivot rows", parts[0]), column_names("--pivot columns", parts[1])
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        return column_names("--pivot rows", spec[0]), column_names("--pivot columns", spec[1])
    raise ValueError(f"pivot takes 'ROWS x COLS' or (rows, columns), got {spec!r}")


def flat_pivot(df: pd.DataFrame, rows, columns, value, key_columns, derivable=()) -> tuple:
    """:func:`pivot` as a flat table: the index levels as key columns, the columns named ``axis=value``."""
    grid = pivot(df, rows, columns, value, key_columns=key_columns, derivable=derivable)
    labels = []
    for label in grid.columns:
        label = label if isinstance(label, tuple) else (label,)
        labels.append(",".join(f"{a}={v}" for a, v in zip(grid.columns.names, label)))
    flat = grid.copy()
    flat.columns = labels
    flat = flat.reset_index()
    flat.attrs["derived"] = dict(grid.attrs.get("derived", {}))
    keys = tuple(grid.index.names)
    return flat, keys, labels


def choose_columns(df: pd.DataFrame, key_columns, columns) -> pd.DataFrame:
    """The key columns, then the value columns named in ``columns`` in that order.

    A table of key columns only (a listing) keeps just the columns named.
    """
    wanted = column_names("--columns", columns)
    known = list(df.columns)
    known_set = set(known)
    for name in wanted:
        if name not in known_set:
            raise unknown_column("--columns", name, known)
    twice = first_repeat(wanted)
    if twice is not None:
        raise ValueError(f"--columns names {twice!r} twice")
    key_set = set(key_columns)
    keys = [c for c in known if c in key_set]
    if len(keys) == len(known):  # a listing with no values (the rule sets): choose among all
        return df[wanted]
    keys_set = set(keys)
    return df[keys + [c for c in wanted if c not in keys_set]]


#: The column of a stacked pivot (several ``--value``, CSV and JSON) naming each row's value.
VALUE_COLUMN = "value"


def derivable_keys(keys, system, df=None) -> tuple:
    """The keys of a table that are not its system's axes (nor a comparison's outcome): a pivot may leave
    one out when the others decide it.  A table of no system may name its own in ``df.attrs["derivable"]``
    (``beastodds versus``: the V5 pool, given the attribute and skill)."""
    own = tuple(k for k in (df.attrs.get("derivable", ()) if df is not None else ()) if k in keys)
    if system is None:
        return own
    if isinstance(system, str):
        try:
            system = rulesets.system(system)
        except ValueError:
            return own
    return own + tuple(
        k for k in keys if k not in system.axis_names and k not in ("outcome", "strategy") and k not in own
    )


def stacked_pivot(df: pd.DataFrame, pivot, values, key_columns, system=None) -> tuple:
    """Several values pivoted alike, stacked: ``(frame, keys)``, a first column ``value`` naming each
    row's value, then the pivot's rows and one column per value of its columns (as one CSV or JSON)."""
    rows, across = pivot_axes(pivot)
    if VALUE_COLUMN in df.columns:
        raise ValueError(
            f"--value with several columns adds a column {VALUE_COLUMN!r}, which the table has "
            f"already; give one --value at a time"
        )
    frames, keys = [], ()
    for v in values:
        flat, keys, _ = flat_pivot(df, rows, across, v, key_columns, derivable_keys(key_columns, system, df))
        flat.insert(0, VALUE_COLUMN, v)
        frames.append(flat)
    out = pd.concat(frames, ignore_index=True)
    for c in out.columns[len(keys) + 1 :]:
        out[c] = pd.Series(list(out[c]), dtype=object)  # floats or Fractions as they were, never NaN-cast
    return out, (VALUE_COLUMN,) + tuple(keys)


def _is_key(series: pd.Series) -> bool:
    """Whether a column is a key (integers or texts) rather than a value (floats or Fractions)."""
    if pd.api.types.is_integer_dtype(series) or pd.api.types.is_bool_dtype(series):
        return True
    if pd.api.types.is_float_dtype(series):
        return False
    return all(isinstance(v, str) for v in series)


def _first_seen(df: pd.DataFrame, names: list) -> pd.Index:
    """The distinct combinations of ``names`` in ``df``, each level in the order its values first appear."""
    combos = df[names].drop_duplicates()
    ranks = [{v: i for i, v in enumerate(pd.unique(df[n]))} for n in names]
    order = sorted(range(len(combos)), key=lambda i: tuple(ranks[j][combos.iat[i, j]] for j in range(len(names))))
    combos = combos.iloc[order]
    if len(names) == 1:
        return pd.Index(combos[names[0]], name=names[0])
    return pd.MultiIndex.from_frame(combos)


def pivot(df: pd.DataFrame, rows, columns, value: str, *, key_columns=None, derivable=()) -> pd.DataFrame:
    """One value column of a tidy table as a grid: ``rows`` down, ``columns`` across.

    Parameters
    ----------
    df : DataFrame
        A tidy table (key columns, then value columns), such as a system's
        ``table()`` or :attr:`analysis.workbench.compare.Comparison.table`.
    rows, columns : str or sequence of str
        The key columns whose values label the rows and the columns
        (``"pool"``, ``["pool", "hunger"]`` or ``"pool,hunger"``).
    value : str
        The value column shown in the cells (``"p_win"``).
    key_columns : sequence of str, optional
        The key columns of ``df``; default: its integer and text columns.
    derivable : sequence of str
        Key columns that are not axes of the grid (La Soif's ``beast_dice``):
        one that the other keys decide is left out rather than split the
        grid.  :func:`analysis.present.formats.render.render` passes the keys that are not its system's axes.

    Returns
    -------
    DataFrame
        Indexed by ``rows`` (with any other key column that takes several
        values put in front as an extra index level; one that takes a
        single value is dropped, and so is one that the other keys decide,
        such as La Soif's ``beast_dice`` given the pool and the Soif: it is
        named in ``attrs["derived"]``), one column per value of ``columns``
        (named by that axis), the cells holding ``value`` as they were
        (floats or Fractions).

    Raises
    ------
    TypeError
        One sentence, when ``df`` is not a DataFrame.
    ValueError
        One sentence, for an unknown column (with a "did you mean"), a column
        used twice, a value column that is a key, or a table with more than
        one row per cell.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"pool": [1, 1, 2, 2], "hunger": [0, 1, 0, 1], "p_win": [.5, .4, .7, .6]})
    >>> pivot(t, "pool", "hunger", "p_win").to_dict()
    {0: {1: 0.5, 2: 0.7}, 1: {1: 0.4, 2: 0.6}}
    """
    check_frame(df, "pivot")
    rows, columns = column_names("--pivot rows", rows), column_names("--pivot columns", columns)
    if not isinstance(value, str) or not value:
        raise ValueError(f"--value needs one column name, got {value!r}")
    known = list(df.columns)
    known_set = set(known)
    for name in rows + columns + [value]:
        if name not in known_set:
            raise unknown_column("--pivot" if name != value else "--value", name, known)
    used = rows + columns
    twice = first_repeat(used)
    if twice is not None:
        raise ValueError(f"--pivot names {twice!r} twice: each column goes down or across once")
    if key_columns is None:
        keys = [c for c in known if _is_key(df[c])]
    else:
        keys = [c for c in known if c in set(key_columns)]
    if value in keys or value in used:
        raise ValueError(
            f"--value {value} is a key column; give a value column such as "
            + ", ".join(str(c) for c in known if c not in keys and c not in used)
        )
    not_keys = [n for n in used if n not in keys]
    if not_keys:
        raise ValueError(
            f"--pivot {not_keys[0]} is a value column, not an axis; the axes are " + ", ".join(str(k) for k in keys)
        )
    extra = [k for k in keys if k not in used and df[k].nunique(dropna=False) > 1]
    # a key the others decide (La Soif's beast_dice, from pool and soif) would only split the grid:
    # it is left out, and the result says so (attrs["derived"])
    derived = []
    for k in [e for e in extra if e in set(derivable or ())]:
        others = used + [e for e in extra if e != k and e not in derived]
        if others and (df.groupby(others, sort=False)[k].nunique(dropna=False) <= 1).all():
            derived.append(k)
    extra = [k for k in extra if k not in derived]
    index = extra + rows
    cells = df[index + columns]
    if cells.duplicated().any():
        raise ValueError(
            f"the table has several rows per cell of {' x '.join(index + columns)}; add the other axes to --pivot"
        )
    out = df.set_index(index + columns)[value].unstack(columns)
    out = out.reindex(index=_first_seen(df, index), columns=_first_seen(df, columns))
    out.attrs["derived"] = {k: [c for c in index + columns] for k in derived}
    return out
