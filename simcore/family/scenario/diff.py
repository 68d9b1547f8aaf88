"""What differs between two resolved scenarios, as ``key: a -> b`` (any game family).

Flattens a family's resolved scenario data (its ``rules_data``: everything but the name, run
settings and seats) to dotted keys, and the seats to ``players[i].policy`` / ``.params.x``, and
lists the keys whose values differ. Lists (a deck's fruits, a yaku's ``sets_of``) are compared
whole: the order of their items is part of the rule.
"""

from __future__ import annotations


def flatten(data, prefix: str = "") -> dict:
    """``{"a.b.c": leaf}`` for nested dicts (lists and scalars are leaves)."""
    out = {}
    if isinstance(data, dict) and data:
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    else:
        out[prefix] = data
    return out


def _seats(data) -> dict:
    out = {}
    for i, seat in enumerate(data.get("players") or []):
        if isinstance(seat, dict):
            out.update(flatten(seat, f"players[{i}]"))
    return out


def scenario_flat(family, data: dict) -> dict:
    """The resolved scenario ``data`` flattened: its rules, then its seats."""
    return {**flatten(family.SCENARIOS.rules_data(data)), **_seats(data)}


_MISSING = "(not set)"


def rules_differ(family, sc_a, sc_b) -> list:
    """``[(key, a's value, b's value)]`` for every flattened key whose values differ, in the
    order of a's scenario (keys only b has come last)."""
    fa, fb = scenario_flat(family, sc_a.to_dict()), scenario_flat(family, sc_b.to_dict())
    keys = list(fa) + [k for k in fb if k not in fa]
    return [(k, fa.get(k, _MISSING), fb.get(k, _MISSING)) for k in keys
            if fa.get(k, _MISSING) != fb.get(k, _MISSING)]


def off_in_both(family, sc_a, sc_b, names, sums=None, pairs=((0, 1),)) -> list:
    """Metrics of ``names`` that the rules of both scenarios switch off (a yaku or bonus
    disabled: the family's ``metrics_off``), less any that counted something anyway."""
    off = set(family.metrics_off(sc_a)) & set(family.metrics_off(sc_b))
    index = {m.name: j for j, m in enumerate(family.CATALOGUE)}
    out = []
    for name in names:
        if name not in off:
            continue
        if sums is not None and any(sums.s[index[name], 2 * v] for p in pairs for v in p):
            continue      # it happened: show it (the hook was wrong), do not hide it
        out.append(name)
    return out
