"""A resolved scenario as YAML with every value's tag and doc as a comment (what ``show`` prints).

PyYAML's dumper cannot write comments, so this module writes the block structure itself, in the
data's order (the schema's, once validated), and lets PyYAML (or JSON, for anything that would span lines) spell each value on
one line. The output loads back to the same scenario: ``show x > y.yaml`` gives a valid scenario.

Each leaf is followed by ``# [R] doc`` (rulebook), ``# [I] doc`` (our interpretation) or
``# reconstructed [X] doc`` (value not public), from :class:`simcore.momojan.schema.Field`; seat
parameters by their declaration in ``policies.registry``.
"""

from __future__ import annotations

from typing import Mapping

from ..scenario_files import comment_at, flow  # flow: this module's API too
from .schema import NEW_YAKU, SCHEMA, Field

_YAKU_TABLE = SCHEMA["scoring"]["yaku"]

COMMENT_COLUMN = 46   # where comments start, as in scenarios/new_edition.yaml
INDENT = "  "
TAG_LABELS = {"R": "[R]", "I": "[I]", "X": "reconstructed [X]"}


def annotated_yaml(data: Mapping, schema: Mapping = SCHEMA, title: str | None = None) -> str:
    """``data`` (a resolved scenario as plain data) as commented YAML text."""
    lines = [f"# {title}"] if title else []
    lines.append("# Tags: [R] rulebook, [I] our interpretation (an option), reconstructed [X] "
                 "(the official value is not public)")
    _mapping(data, schema, 0, lines)
    return "\n".join(lines) + "\n"


def _mapping(data: Mapping, schema: Mapping, depth: int, lines: list[str]) -> None:
    pad = INDENT * depth
    for key, value in data.items():
        node = schema.get(key) if isinstance(schema, Mapping) else None
        if node is None and schema is _YAKU_TABLE and isinstance(value, Mapping):
            node = NEW_YAKU   # a picture-set yaku the scenario adds: its fields' tags and docs
        if isinstance(node, Field) and node.kind == "players":
            lines.append(_commented(f"{pad}{key}:", node))
            _players(value, depth + 1, lines)
        elif isinstance(node, Field) or not isinstance(value, Mapping) or not value:
            # a leaf; keys the schema does not list go uncommented
            lines.append(_commented(f"{pad}{flow(key)}: {flow(value)}", node))
        else:
            lines.append(f"{pad}{flow(key)}:")
            _mapping(value, node or {}, depth + 1, lines)


def _players(seats, depth: int, lines: list[str]) -> None:
    from policies.momojan import POLICIES
    POLICY_SPECS = POLICIES.by_name

    pad = INDENT * depth
    for seat in seats:
        spec = POLICY_SPECS.get(seat["policy"])
        lines.append(_comment_at(f"{pad}- policy: {flow(seat['policy'])}", spec.doc if spec else ""))
        params = seat.get("params") or {}
        if not params:
            lines.append(f"{pad}  params: {{}}")
            continue
        lines.append(f"{pad}  params:")
        declared = {p.name: p for p in spec.params} if spec else {}
        for name, value in params.items():
            p = declared.get(name)
            note = f"{_describe(p)}: {p.doc}" if p else ""
            lines.append(_comment_at(f"{pad}    {flow(name)}: {flow(value)}", note))


def _describe(p) -> str:
    from policies.params import describe_type
    return f"{describe_type(p)}, default {flow(p.default)}"


def _commented(line: str, field: Field | None) -> str:
    if field is None:
        return line
    return _comment_at(line, f"{TAG_LABELS[field.tag]} {field.doc}")


def _comment_at(line: str, comment: str) -> str:
    return comment_at(line, comment, COMMENT_COLUMN)
