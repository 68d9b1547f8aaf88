"""Marks on ``show``'s annotated YAML: which values the scenario's own file sets, and which
differ from a base scenario (``show --diff``). Any game family: works on the YAML text every
family's ``scenario_yaml`` writes (two-space indentation, one ``key: value`` per leaf, the
tag and meaning in a ``# `` comment) and on the flattened resolved data (:mod:`simcore.family.scenario.diff`).
"""

from __future__ import annotations

import re

from simcore.family.scenario.diff import flatten

_LINE = re.compile(r"^(?P<pad> *)(?P<key>[^\s#:][^:#]*?|\"[^\"]*\"|'[^']*'):"
                   r"(?P<rest>(?: .*)?)$")
_TAG = re.compile(r"(?:reconstructed )?\[(R|I|X)\](?: reconstructed)?")
_COMMENT = "  # "


def own_keys(path) -> set:
    """Dotted keys the scenario file at ``path`` itself sets (not its ``extends`` bases)."""
    from simcore.family.scenario.files import load_yaml_quietly
    data = load_yaml_quietly(path)
    if not isinstance(data, dict):
        return set()
    data = {k: v for k, v in data.items() if k not in ("extends", "players")}
    return set(flatten(data))


def _paths(lines):
    """(line index, dotted key) of each ``key: value`` leaf line outside lists."""
    stack: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith(("#", "-")):
            continue
        m = _LINE.match(line)
        if not m:
            continue
        depth = len(m["pad"])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        key = m["key"].strip("\"'")
        value = m["rest"].split(_COMMENT, 1)[0].strip()
        if value:
            yield i, ".".join([k for _, k in stack] + [key])
        else:
            stack.append((depth, key))


def mark_yaml(text: str, marks: dict) -> str:
    """``text`` with the comment of each leaf whose dotted key is in ``marks`` led by its mark
    (the rulebook tag kept after it, in parentheses)."""
    lines = text.split("\n")
    for i, key in list(_paths(lines)):
        mark = marks.get(key)
        if not mark:
            continue
        line = lines[i]
        if _COMMENT in line:
            body, comment = line.split(_COMMENT, 1)
            comment = _TAG.sub(lambda t: f"(the spec's tag: [{t[1]}])", comment, count=1)
            lines[i] = f"{body}{_COMMENT}{mark} {comment}"
        else:
            lines[i] = f"{line}{_COMMENT}{mark}"
    return "\n".join(lines)


def show_marks(family, sc, base=None, base_name: str | None = None) -> dict:
    """``{dotted key: mark}``: ``[set by FILE]`` for what ``sc``'s own file sets; with ``base``
    (a resolved scenario), ``[differs: BASE has V]`` for every value that differs from it."""
    from simcore.errors import cut
    from simcore.family.scenario.files import flow
    marks = {}
    if getattr(sc, "path", None):
        for key in own_keys(sc.path):
            marks[key] = f"[set by {sc.path.name}]"
    if base is not None:
        ours = flatten(family.SCENARIOS.rules_data(sc.to_dict()))
        theirs = flatten(family.SCENARIOS.rules_data(base.to_dict()))
        for key, value in ours.items():
            if key in theirs and theirs[key] != value:
                was = cut(flow(theirs[key]), 40)
                marks[key] = (marks.get(key, "") + f" [differs: {base_name} has {was}]").strip()
    return marks


def base_of(sc):
    """The file ``sc``'s own file ``extends`` (None: it extends nothing)."""
    from simcore.family.registry import _resolve
    from simcore.family.scenario.files import load_yaml_quietly
    if not getattr(sc, "path", None):
        return None
    data = load_yaml_quietly(sc.path)
    base = data.get("extends") if isinstance(data, dict) else None
    return _resolve(base, sc.path.parent) if isinstance(base, str) else None
