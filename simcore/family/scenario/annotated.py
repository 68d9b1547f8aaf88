"""A resolved scenario as YAML with every value's tag and doc as a comment (what ``show`` prints),
for any family's schema.

PyYAML's dumper cannot write comments, so this module writes the block structure itself, in the
data's order (the schema's, once validated), and lets PyYAML (or JSON, for anything that would
span lines) spell each value on one line. The output loads back to the same scenario: ``show x >
y.yaml`` gives a valid scenario. Each leaf is followed by its tag and doc (from
:class:`simcore.family.scenario.schema.Field`); seats by their policy's one-line doc and each parameter's
declaration.

What this implementation simplifies: keys the schema does not list are written without a comment
(a family may name the node that describes a table's own entries, as MOMOJAN's added yaku).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from simcore.family.scenario.files import comment_at, flow
from simcore.family.scenario.schema import Field

INDENT = "  "


@dataclass(frozen=True)
class Annotation:
    """How one family writes its scenarios: its schema, its bots, where comments start and the
    words of its tags (each family's files already use its own)."""

    schema: Mapping
    policies: Mapping                      # policy name -> simcore.family.policy.PolicySpec
    column: int = 46
    tag_labels: Mapping = field(default_factory=lambda: {"R": "[R]", "I": "[I]",
                                                         "X": "reconstructed [X]",
                                                         "V": "[V] variant",
                                                         "T": "[tool]"})
    legend: str = ("# Tags: [R] rulebook, [I] our interpretation (an option), reconstructed [X] "
                   "(the official value is not public), [V] a variant for balancing (not in the "
                   "rulebook), [tool] how the tool runs it (not a rule)")
    entries: tuple = ()                    # (a table of the schema, the node of its own entries)

    def yaml(self, data: Mapping, title: str | None = None) -> str:
        """``data`` (a resolved scenario as plain data) as commented YAML text."""
        lines = [f"# {title}"] if title else []
        lines.append(self.legend)
        self._mapping(data, self.schema, 0, lines)
        return "\n".join(lines) + "\n"

    def tag(self, f: Field) -> str:
        """``[I] doc`` of a field, with an option's allowed values."""
        text = f"{self.tag_labels[f.tag]} {f.doc}"
        if f.choices:
            text += " (one of: " + ", ".join(map(str, f.choices)) + (", null" if f.nullable
                                                                      else "") + ")"
        return text

    def _mapping(self, data: Mapping, schema: Mapping, depth: int, lines: list) -> None:
        pad = INDENT * depth
        own_entries = dict((id(t), node) for t, node in self.entries).get(id(schema))
        for key, value in data.items():
            node = schema.get(key) if isinstance(schema, Mapping) else None
            if node is None and own_entries is not None and isinstance(value, Mapping):
                node = own_entries
            if isinstance(node, Field) and node.kind == "players":
                lines.append(self._at(f"{pad}{key}:", self.tag(node)))
                self._players(value, depth + 1, lines)
            elif isinstance(node, Field) or not isinstance(value, Mapping) or not value:
                # a leaf; keys the schema does not list go uncommented
                note = self.tag(node) if isinstance(node, Field) else ""
                lines.append(self._at(f"{pad}{flow(key)}: {flow(value)}", note))
            else:
                lines.append(f"{pad}{flow(key)}:")
                self._mapping(value, node or {}, depth + 1, lines)

    def _players(self, seats, depth: int, lines: list) -> None:
        from simcore.family.params import describe_type
        pad = INDENT * depth
        for seat in seats:
            spec = self.policies.get(seat["policy"])
            lines.append(self._at(f"{pad}- policy: {flow(seat['policy'])}",
                                  spec.doc if spec else ""))
            params = seat.get("params") or {}
            if not params:
                lines.append(f"{pad}  params: {{}}")
                continue
            lines.append(f"{pad}  params:")
            declared = {p.name: p for p in spec.params} if spec else {}
            for name, value in params.items():
                p = declared.get(name)
                note = f"{describe_type(p)}, default {flow(p.default)}: {p.doc}" if p else ""
                lines.append(self._at(f"{pad}    {flow(name)}: {flow(value)}", note))

    def _at(self, line: str, comment: str) -> str:
        return comment_at(line, comment, self.column) if comment else line
