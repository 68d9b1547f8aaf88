"""The layout kit every family uses: fixed array layouts written once, as a tuple of names (or of
(name, size) blocks), the index constants derived from it.

``define_fields(globals(), "RF", ("game", "round", ...))`` binds ``RF_GAME = 0``, ``RF_ROUND = 1``,
... as plain module-level ints and returns the field count; ``define_blocks(globals(), "A",
(("pass", 1), ("discard", 54), ...))`` binds each block's first index and returns the total.
Numba reads module globals when it compiles a kernel, so these fold in as compile-time constants
exactly like hand-written ones, and ``from simcore.momojan.engine import RF_GAME`` keeps working.
The names tuple is the only list: add, remove or move a field there and every index follows.

What this implementation simplifies: the constants are module globals a linter cannot see (it
reports them as undefined names); tests/harness/test_layouts.py checks them against the tuples instead.
"""

from __future__ import annotations


def field_constants(prefix: str, names: tuple[str, ...]) -> dict[str, int]:
    """``{PREFIX_NAME: index}`` for ``names`` (upper-cased), in order."""
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate field names in the {prefix} layout")
    return {f"{prefix}_{name.upper()}": i for i, name in enumerate(names)}


def define_fields(namespace: dict, prefix: str, names: tuple[str, ...]) -> int:
    """Bind ``PREFIX_NAME = index`` in ``namespace`` (a module's ``globals()``) for every name in
    ``names``; return ``len(names)`` (the layout's length)."""
    namespace.update(field_constants(prefix, names))
    return len(names)


def define_blocks(namespace: dict, prefix: str, blocks: tuple) -> int:
    """Bind ``PREFIX_NAME`` = the first index of each ``(name, size)`` block in ``namespace``
    (blocks are consecutive, in order); return the total size."""
    names = [name for name, _ in blocks]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate block names in the {prefix} layout")
    pos = 0
    for name, size in blocks:
        namespace[f"{prefix}_{name.upper()}"] = pos
        pos += size
    return pos
