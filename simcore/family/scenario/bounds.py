"""What the engine's integer types can hold, checked against a scenario's numbers: one check
for every family (issue 46).

A scenario's numbers reach the engine as 64-bit integers (or, emoji's scoring, as floats the
engine rounds into 64-bit chip counts), and the engine's results are stored narrower: the
records' Parquet columns (``Family.GAME_DTYPES``, ``ROUND_DTYPES``: int16, int32) and, in
places, fields packed into an event row. A value each key allows alone can still overflow once
the engine forms products and sums of several (emoji: base x every multiplier x the dealer
factor + 3 dora; a 64-bit chip count wraps round and a win comes out negative, silently).

Each family declares, in its ``schema.py``, ``worst_cases(data) -> [Worst, ...]``: every
quantity the engine forms from the scenario's numbers that a storage type bounds, a bound on its
largest magnitude (computed from the validated data), the keys it grows with, and the storage
that holds it. The kit (:class:`simcore.family.scenario.ScenarioLoader`) applies
:func:`check` to every scenario it validates, so ``validate``, ``run`` and every other command
refuse a scenario that could overflow before anything is played or written: one line naming the
key (of those it grows with, the one whose default would bring it down the most) and the file
that set it.

What this implementation simplifies: the bounds are upper bounds (a designer may be refused a
table whose largest win is in fact unreachable); each is computed from the rules, never by
playing.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Callable

INT16_MAX = 2 ** 15 - 1
INT32_MAX = 2 ** 31 - 1
INT64_MAX = 2 ** 63 - 1
HOLDS = {INT16_MAX: "16-bit", INT32_MAX: "32-bit", INT64_MAX: "64-bit"}


@dataclass(frozen=True)
class Worst:
    """One quantity the engine forms from a scenario's numbers and stores in a bounded type."""

    what: str                          # "a win's value", in words
    bound: Callable[[dict], float]     # an upper bound of its magnitude under the data
    keys: tuple                        # the numeric keys (dotted) it grows with
    limit: int                         # the most its storage holds
    where: str                         # that storage, in words ("the records' value columns")
    unit: str = ""                     # "chips", "points" (how the bound is printed)


def check(worsts, data: dict, defaults, fail, prefer=None) -> None:
    """``fail(key, message)`` for the first of ``worsts`` whose bound under ``data`` exceeds
    its storage's limit (``defaults()``: the schema's default data, to find the key to name,
    made only then;
    ``prefer(key)``: whether the file the user gave set the key, named before a base's)."""
    for w in worsts:
        value = _bound(w, data)
        if value <= w.limit:
            continue
        keys = [k for k in w.keys if prefer is not None and prefer(k)]
        key = culprit(w, data, defaults(), keys or w.keys)
        bits = HOLDS.get(w.limit)
        holds = f"{w.limit:,}" + (f" ({bits})" if bits else "")
        fail(key, f"{_shown(get(data, key))} is more than the engine can hold: {w.what} could "
                  f"reach {number(value)}{' ' + w.unit if w.unit else ''}, and {w.where} can "
                  f"hold at most {holds}")


def _shown(v) -> str:
    from simcore.errors import shown
    if isinstance(v, (list, tuple)) and len(v) <= 4 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
        return "[" + ", ".join(shown(x) for x in v) + "]"
    return shown(v)


def _bound(w: Worst, data: dict) -> float:
    try:
        v = float(w.bound(data))
    except OverflowError:
        return math.inf
    return math.inf if v != v else abs(v)


def culprit(w: Worst, data: dict, defaults: dict, keys=None) -> str:
    """Of ``keys`` (``w.keys``), the one whose default value would bring ``w``'s bound down the
    most (the first on a tie): the key an error names."""
    keys = list(keys or w.keys)
    best, best_v = keys[0], math.inf
    for key in keys:
        try:
            default = get(defaults, key)
        except KeyError:   # a key the schema lets a scenario add (MOMOJAN's new yaku): as 0
            default = 0
        if default is None or get(data, key) == default:
            continue
        trial = copy.deepcopy(data)
        put(trial, key, copy.deepcopy(default))
        v = _bound(w, trial)
        if v < best_v:
            best, best_v = key, v
    return best


def number(v: float) -> str:
    """A bound as an error prints it: 182,630 or 3.6e+306."""
    if v == math.inf:
        return "more than 1e308"
    return f"{v:,.0f}" if v < 1e15 else f"{v:.3g}"


def get(data: dict, dotted: str):
    node = data
    for k in dotted.split("."):
        node = node[k]
    return node


def put(data: dict, dotted: str, value) -> None:
    *parents, last = dotted.split(".")
    node = data
    for k in parents:
        node = node[k]
    node[last] = value


def at_least_one(x) -> float:
    """A multiplier as a bound counts it: one below 1 can only lower a product, so 1."""
    return max(float(x), 1.0)
