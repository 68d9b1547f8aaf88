"""Declared policy parameters: what a seat's ``params:`` may hold, checked before any game is played.

Each policy declares its parameters as a tuple of :class:`Param` in its ``PolicySpec``
(``simcore.family.policy``). Scenario validation (:func:`check_params`) refuses names the policy does
not read (with a suggestion), wrong types and values out of range, and fills in the defaults. The
engine receives the values as one float64 row in declared order (:func:`param_vector`), so a
policy reads parameter ``i`` as ``params[i]`` (bools as 0.0 / 1.0); derive ``i`` with
:func:`param_index` rather than writing the number.
"""

from __future__ import annotations

import difflib
import math
from typing import Any, Callable, Mapping, NamedTuple

from simcore.errors import shown as _shown  # the wording scenario errors use

KINDS = ("int", "float", "bool")


class Param(NamedTuple):
    """One declared parameter of a policy."""

    name: str
    kind: str                  # one of KINDS
    default: Any               # int, float or bool, matching kind
    doc: str                   # one line: what it changes in the bot's play
    min: float | None = None   # inclusive bounds (ignored for bool); None: unbounded
    max: float | None = None
    # the range ``tune`` searches (simcore.studies.tune), where narrower than [min, max]: the values a
    # good player could use, not every value validation accepts
    tune: tuple | None = None

    def search_range(self) -> tuple:
        return self.tune or (self.min, self.max)


def param_index(declared: tuple[Param, ...], name: str) -> int:
    """The position of ``name`` in the params row a policy receives."""
    return [p.name for p in declared].index(name)


def describe_type(p: Param) -> str:
    """``an integer 0..10``, ``a number >= 0``, ``true or false``: what a value must be."""
    if p.kind == "bool":
        return "true or false"
    what = "an integer" if p.kind == "int" else "a number"
    if p.min is not None and p.max is not None:
        return f"{what} {p.min:g}..{p.max:g}"
    if p.min is not None:
        return f"{what} >= {p.min:g}"
    if p.max is not None:
        return f"{what} <= {p.max:g}"
    return what


def value_error(p: Param, v: Any) -> str | None:
    """Why ``v`` is not a valid value of ``p`` (``expected ..., got ...``), or None."""
    if p.kind == "bool":
        ok = isinstance(v, bool)
    elif p.kind == "int":
        ok = isinstance(v, int) and not isinstance(v, bool)
    else:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    if ok and p.kind != "bool":
        ok = (p.min is None or v >= p.min) and (p.max is None or v <= p.max)
    return None if ok else f"expected {describe_type(p)}, got {_shown(v)}"


def check_params(policy: str, declared: tuple[Param, ...], raw: Mapping,
                 fail: Callable[[str, str], None]) -> dict:
    """Every declared parameter, in declared order, from ``raw`` or its default.

    ``fail(key, message)`` is called (and must raise) for the first name ``policy`` does not
    declare or value that is not of its type and range.
    """
    names = [p.name for p in declared]
    for key in raw:
        if key not in names:
            hint = difflib.get_close_matches(str(key), names, n=1)
            fail(str(key), f"{policy} has no parameter {str(key)!r}"
                 + (f" (did you mean {hint[0]!r}?)" if hint else
                    f" (it takes: {', '.join(names)})" if names else " (it takes none)"))
    out = {}
    for p in declared:
        v = raw.get(p.name, p.default)
        problem = value_error(p, v)
        if problem:
            fail(p.name, problem)
        out[p.name] = float(v) if p.kind == "float" else v
    return out


def param_vector(declared: tuple[Param, ...], values: Mapping) -> list[float]:
    """The float row the engine passes to the policy: declared order, defaults for absent names."""
    return [float(values.get(p.name, p.default)) for p in declared]


def check_declaration(policy: str, declared: tuple[Param, ...]) -> None:
    """A policy's own declaration must be usable: known kinds, unique names, valid defaults."""
    names = [p.name for p in declared]
    assert len(set(names)) == len(names), f"{policy}: a parameter is declared twice"
    for p in declared:
        assert p.kind in KINDS, f"{policy}.{p.name}: kind {p.kind!r} not in {KINDS}"
        assert p.doc and "\n" not in p.doc, f"{policy}.{p.name}: needs a one-line doc"
        assert value_error(p, p.default) is None, f"{policy}.{p.name}: default out of its range"
        assert p.tune is None or all(value_error(p, x) is None for x in p.tune), \
            f"{policy}.{p.name}: tune range outside [min, max]"
