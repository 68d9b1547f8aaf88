"""Seats from a command-line string: ``greedy,value`` or ``value:call=0.8,greedy`` (issue 9, item 5).

Each comma-separated entry is a policy name, optionally followed by ``:name=value`` pairs joined by
``:`` (``value:call=0.8:fold=2``). Values are YAML scalars (``0.8``, ``3``, ``true``). The result is
the scenario's ``players`` list; scenario validation then checks every name, type and range against
the policy's declared parameters, exactly as for YAML seats.
"""

from __future__ import annotations

import difflib

import yaml

from simcore.errors import InputError, cut
from simcore.family.scenario.files import load_yaml


def parse_players(text: str, n_seats: int = 2, option: str = "--players", *,
                  names) -> list[dict]:
    """``[{"policy": name, "params": {...}}, ...]`` for ``n_seats`` seats (one entry: every seat).

    ``names``: the policies a seat may use (the family's registry). Raises :class:`InputError` naming the bad entry: an unknown policy (with a
    suggestion), a parameter without ``=``, a seat count other than 1 or ``n_seats``.
    """
    known = list(names)
    entries = [e.strip() for e in text.split(",")]
    if any(not e for e in entries):
        raise InputError(f"{option} {text!r}: an empty entry (expected e.g. greedy,value)")
    if len(entries) == 1:
        entries = entries * n_seats
    if len(entries) != n_seats:
        raise InputError(f"{option} {text!r}: {len(entries)} seats given, the game has {n_seats}")
    seats = []
    for entry in entries:
        name, *pairs = [p.strip() for p in entry.split(":")]
        if name not in known:
            if name == "search":   # the bot every family may declare (docs/bots.md)
                raise InputError(f"{option}: this game family has no search bot (its bots: "
                                 f"{', '.join(known)})")
            hint = difflib.get_close_matches(name, known, n=1)
            raise InputError(f"{option}: unknown policy {name!r}"
                             + (f" (did you mean {hint[0]!r}?)" if hint else
                                f" (known: {', '.join(known)})"))
        params = {}
        for pair in pairs:
            key, sep, raw = pair.partition("=")
            if not sep or not key.strip():
                raise InputError(f"{option}: {pair!r} in {entry!r} is not name=value")
            try:
                params[key.strip()] = load_yaml(raw.strip())
            except yaml.YAMLError:
                raise InputError(f"{option}: bad value in {cut(pair)!r}") from None
        seats.append({"policy": name, "params": params})
    return seats



def entry_text(policy: str, values: dict, defaults: dict) -> str:
    """The ``--players`` entry of ``policy`` with the values that differ from its defaults
    (``value:call=0.8:riichi_gain=0.3``)."""
    parts = [policy]
    for k, v in values.items():
        if v != defaults.get(k):
            parts.append(f"{k}={value_text(v)}")
    return ":".join(parts)


def value_text(v) -> str:
    """A parameter value as a ``--players`` entry writes it (``true``, ``3``, ``0.8``)."""
    return str(v).lower() if isinstance(v, bool) else str(v) if isinstance(v, int) else f"{v:g}"


def seat_entries(sc, specs) -> list:
    """Each seat of scenario ``sc`` as its ``--players`` entry (``specs``: the family's
    policy specs by name)."""
    out = []
    for seat in sc["players"]:
        spec = specs[seat["policy"]]
        defaults = {p.name: p.default for p in spec.params}
        out.append(entry_text(seat["policy"], {**defaults, **(seat.get("params") or {})},
                              defaults))
    return out


def with_players(fam, sc, text: str | None, option: str = "--players"):
    """``sc`` with its seats from a ``--players`` string (``greedy,value``,
    ``value:call=0.8,greedy``; one entry seats everyone), validated like YAML seats."""
    if not text:
        return sc
    data = sc.to_dict()
    data["players"] = parse_players(text, n_seats=len(sc["players"]), option=option,
                                    names=list(fam.POLICIES.names))
    try:
        return fam.SCENARIOS.from_dict(data, name=sc.name)
    except InputError as exc:   # a parameter out of range: the option, not the file, said it
        raise InputError(f"{option} {text}: {str(exc).split(': ', 1)[-1]}") from None


def seated(sc) -> list:
    """The seated policies and their parameters (defaults filled in)."""
    return [{"seat": i, "policy": s["policy"], "params": dict(s.get("params") or {})}
            for i, s in enumerate(sc["players"])]
