"""Fixed array layouts written once: a tuple of field names, the index constants derived from it.

``define_fields(globals(), "RF", ("game", "round", ...))`` binds ``RF_GAME = 0``, ``RF_ROUND = 1``,
... as plain module-level ints and returns the field count. Numba reads module globals when it
compiles a kernel, so these fold in as compile-time constants exactly like hand-written ones, and
``from simcore.momojan.engine import RF_GAME`` keeps working. The names tuple is the only list:
add, remove or move a field there and every index follows.
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
