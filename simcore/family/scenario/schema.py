"""Walking a family's scenario schema: a nested mapping whose leaves are the family's ``Field``.

Each family's ``schema.py`` declares its own ``SCHEMA`` of :class:`Field` leaves (one class for
all families); these walks are the same for all and take the leaf class.

What this implementation simplifies: nothing beyond the family modules; this is their common
code moved, not changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Field:
    """One leaf of a family's schema (``kind``: "int", "bool", "str", "enum", "players", and the
    family's own kinds: MOMOJAN's "enum_list", "requirements", P-style's "game")."""

    kind: str
    default: Any
    doc: str
    tag: str = "R"            # R rulebook, I our interpretation, X reconstructed, V variant,
    #                           T a setting of the tool (run.games, run.seed: not a rule)
    min: int | None = None
    max: int | None = None
    choices: tuple = ()
    nullable: bool = False


def int_field(default, doc, tag="R", min=None, max=None) -> Field:
    return Field("int", default, doc, tag, min=min, max=max)


def bool_field(default, doc, tag="R") -> Field:
    return Field("bool", default, doc, tag)


def enum_field(choices, doc, tag="I", default=None, nullable=False) -> Field:
    """One of ``choices`` (the engine reads its index); by default the first."""
    return Field("enum", choices[0] if default is None else default, doc, tag,
                 choices=tuple(choices), nullable=nullable)


def defaults(schema, leaf: type) -> dict:
    """The fully populated default scenario as plain data (each ``leaf``'s ``default``, copied)."""
    out = {}
    for key, node in schema.items():
        if isinstance(node, leaf):
            out[key] = _copy(node.default)
        else:
            out[key] = defaults(node, leaf)
    return out


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


def iter_fields(schema, leaf: type, prefix=""):
    """(dotted key path, ``leaf``) for every leaf."""
    for key, node in schema.items():
        path = f"{prefix}{key}"
        if isinstance(node, leaf):
            yield path, node
        else:
            yield from iter_fields(node, leaf, path + ".")
