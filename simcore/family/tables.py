"""Game-agnostic helpers of :class:`simcore.family.base.Family`: the compact Parquet columns of
a chunk's records and the numerators rebuilt from them, whether numba's cache holds a kernel,
which rule keys differ between variants, and the table of ``waits`` reports. Nothing here imports
a game package or a numba kernel.

What this implementation simplifies: a column's storage type is checked against its values when
written (an overflow is an error naming the column), not declared against the kernel's ranges.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence


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


def game_table(batch, first_game: int, fields: Sequence[str], types: Mapping[str, str],
               default: str) -> dict:
    """The per-game table of a chunk's records: ``game`` (int64) then each of ``fields``
    (``batch.games`` columns) as ``types[name]``, else ``default``."""
    import numpy as np
    cols = {"game": np.arange(first_game, first_game + len(batch.games), dtype=np.int64)}
    for i, name in enumerate(fields):
        cols[name] = typed(batch.games[:, i], types.get(name, default), name)
    return cols


def round_table(batch, fields: Sequence[str], types: Mapping[str, str],
                default: str = "int8") -> dict:
    """The per-round table of a chunk's records (``batch.rounds`` columns as ``types[name]``,
    else ``default``)."""
    return {name: typed(batch.rounds[:, i], types.get(name, default), name)
            for i, name in enumerate(fields)}


def values_from_tables(games_cols: dict, rounds_cols: dict, game_fields: Sequence[str],
                       round_fields: Sequence[str], game_values: Callable):
    """Per-game numerators and denominators (``game_values`` of the family's metrics) from a
    chunk's saved per-game and per-round tables. A round column the tables lack (saved before
    the engine recorded it, as the luck columns) is read as zeros: the metrics never read such a
    column (it did not exist when their tables were written), and whatever does checks for it
    first (:meth:`simcore.family.base.Family.luck_from_tables`)."""
    import numpy as np
    games = np.stack([np.asarray(games_cols[f], np.int64) for f in game_fields], axis=1)
    n_rounds = len(rounds_cols[round_fields[0]])
    rounds = np.stack([np.asarray(rounds_cols[f], np.int64) if f in rounds_cols
                       else np.zeros(n_rounds, np.int64) for f in round_fields], axis=1) \
        if n_rounds else np.zeros((0, len(round_fields)), np.int64)
    return game_values(np.asarray(games_cols["game"], np.int64), games, rounds)


# ---------------------------------------------------------------------------------------------
# numba's cache, rule differences, waits
# ---------------------------------------------------------------------------------------------

def kernels_cached(kernel) -> bool:
    """Whether numba's on-disk cache holds machine code of the dispatcher ``kernel`` (the games
    loop) that numba would load here: numba's own checks, so an entry of another numba version,
    of an older source (numba stamps the source's content) or of another CPU does not count."""
    try:
        index = kernel._cache._cache_file._load_index()
        magic = kernel.targetctx.codegen().magic_tuple()
    except Exception:  # numba's cache internals moved: say "cold", which costs only a message
        return False
    return any(key[1] == magic for key in index)


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
