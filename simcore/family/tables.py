"""A family's records as tables: the compact Parquet columns of a chunk's records (each family's
``GAME_DTYPES``/``ROUND_DTYPES``), the numerators and luck controls rebuilt from them, what the
integer codes mean; and which rule keys differ between variants, and the table of ``waits``
reports. Functions of the family object; nothing here imports a game package or a numba kernel.

What this implementation simplifies: a column's storage type is checked against its values when
written (an overflow is an error naming the column), not declared against the kernel's ranges.
"""

from __future__ import annotations

from typing import Callable, Iterable


# ---------------------------------------------------------------------------------------------
# Parquet tables of a chunk's records
# ---------------------------------------------------------------------------------------------

def storage_types(**names_by_dtype: str) -> dict:
    """``{column: dtype}`` from ``dtype="column column ..."`` groups (the compact storage types
    of a family's Parquet columns)."""
    return {name: dtype for dtype, names in names_by_dtype.items() for name in names.split()}


def typed(values, dtype: str, column: str):
    """``values`` as the compact integer ``dtype``; OverflowError naming ``column`` if one
    does not fit."""
    import numpy as np
    info = np.iinfo(dtype)
    if len(values) and (values.min() < info.min or values.max() > info.max):
        raise OverflowError(f"column {column}: values outside {dtype}")
    return values.astype(dtype)


ROUND_DTYPE_DEFAULT = "int8"   # a round column no family names (GAME_DTYPE_DEFAULT is declared)
ROUND_HEAD_DTYPES = {"game": "int64"}   # the kit's own round columns (simcore.nb.games.ROUND_HEAD)


def round_dtype(fam, name: str) -> str:
    """How per-round column ``name`` is stored: the family's ``ROUND_DTYPES``, else the kit's
    for its own columns (``game``, a game index, int64), else int8."""
    return fam.ROUND_DTYPES.get(name) or ROUND_HEAD_DTYPES.get(name, ROUND_DTYPE_DEFAULT)


def game_dtype(fam, name: str) -> str:
    """How per-game column ``name`` is stored: the family's ``GAME_DTYPES``, else its
    ``GAME_DTYPE_DEFAULT``."""
    return fam.GAME_DTYPES.get(name, fam.GAME_DTYPE_DEFAULT)


def game_table(fam, batch, first_game: int) -> dict:
    """The per-game table of a chunk's records: ``game`` (int64) then each of the simulator's
    ``GAME_FIELDS`` as :func:`game_dtype` says."""
    import numpy as np
    cols = {"game": np.arange(first_game, first_game + len(batch.games), dtype=np.int64)}
    for i, name in enumerate(fam.SIMULATOR.GAME_FIELDS):
        cols[name] = typed(batch.games[:, i], game_dtype(fam, name), name)
    return cols


def round_table(fam, batch) -> dict:
    """The per-round table of a chunk's records (``--records``): the simulator's
    ``ROUND_FIELDS`` as :func:`round_dtype` says."""
    return {name: typed(batch.rounds[:, i], round_dtype(fam, name), name)
            for i, name in enumerate(fam.SIMULATOR.ROUND_FIELDS)}


def _records(fam, games_cols: dict, rounds_cols: dict):
    import numpy as np
    game_fields, round_fields = fam.SIMULATOR.GAME_FIELDS, fam.SIMULATOR.ROUND_FIELDS
    games = np.stack([np.asarray(games_cols[f], np.int64) for f in game_fields], axis=1)
    n_rounds = len(rounds_cols[round_fields[0]])
    rounds = np.stack([np.asarray(rounds_cols[f], np.int64) if f in rounds_cols
                       else np.zeros(n_rounds, np.int64) for f in round_fields], axis=1) \
        if n_rounds else np.zeros((0, len(round_fields)), np.int64)
    return np.asarray(games_cols["game"], np.int64), games, rounds


def values_from_tables(fam, games_cols: dict, rounds_cols: dict):
    """Per-game numerators and denominators of the family's catalogue from a chunk's saved
    per-game and per-round tables (what pairs two saved runs game by game). A round column the
    tables lack (saved before the engine recorded it, as the luck columns) is read as zeros: the
    metrics never read such a column (it did not exist when their tables were written), and
    :func:`luck_from_tables` checks for it first."""
    from simcore.family.chunks import game_values
    return game_values(fam, *_records(fam, games_cols, rounds_cols))


def luck_from_tables(fam, games_cols: dict, rounds_cols: dict):
    """The family's luck controls (``luck_controls``) from a chunk's saved tables; None where the
    family measures none or the tables predate them."""
    if not fam.LUCK_CONTROLS or any(f not in rounds_cols for f in fam.SIMULATOR.ROUND_FIELDS):
        return None
    return fam.luck_controls(*_records(fam, games_cols, rounds_cols))


def game_codes(fam) -> dict:
    """What the per-game table's integer codes mean: column -> {code: name}, from the family's
    ``GAME_CODES`` (column -> names, code = position) plus the winner's -1."""
    out = {"winner": {-1: "tie (nobody)"}}
    for column, names in fam.GAME_CODES.items():
        out[column] = dict(enumerate(names))
    return out


# ---------------------------------------------------------------------------------------------
# rule differences, waits
# ---------------------------------------------------------------------------------------------

def flat(d, prefix=""):
    """A nested mapping as ``{dotted key: value}`` (empty mappings kept as values)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def changed_rules(scenarios, rules_data: Callable[[dict], dict]) -> set:
    """The dotted rule keys whose values differ between the first scenario and any other."""
    base = flat(rules_data(scenarios[0].to_dict()))
    changed = set()
    for sc in scenarios[1:]:
        other = flat(rules_data(sc.to_dict()))
        changed |= {k for k in base.keys() | other.keys() if base.get(k) != other.get(k)}
    return changed


def key_list(keys: Iterable[str]) -> str:
    """Up to six keys, sorted, then ``...``."""
    keys = sorted(keys)
    return ", ".join(keys[:6]) + (", ..." if len(keys) > 6 else "")


def waits_table(reports) -> str:
    """Several ``waits_json`` reports as one aligned table."""
    width = max(len("hand"), *(len(r["input"]) for r in reports))
    lines = [f"{'hand':<{width}}  cards  tenpai  complete  shanten  waits"]
    for r in reports:
        lines.append(f"{r['input']:<{width}}  {r['concealed']:>2}+{r['revealed']}"
                     f"  {'yes' if r['tenpai'] else 'no':<6}  {'yes' if r['complete'] else 'no':<8}"
                     f"  {r['shanten']:>7}  {' '.join(r['waits']) or '-'}")
    return "\n".join(lines)
