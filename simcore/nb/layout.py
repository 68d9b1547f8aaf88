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


def per_seat(*names: str, seats: int) -> tuple[str, ...]:
    """Per-seat column names: ``per_seat("value", "points", seats=2)`` is ``("value0",
    "value1", "points0", "points1")``."""
    return tuple(f"{name}{s}" for name in names for s in range(seats))


def state_spec(name: str, fields: tuple, module: str):
    """A kernel's state written once: ``fields`` is one line per array, ``(name, shape, dtype,
    fill)`` (``shape`` a tuple of ints, or a function of ``log`` for an array sized by whether
    the replay log is kept). Returns ``(State, new_state)``: the state's class, one numba
    structref holding every array (passed to a helper with one reference count, where a tuple
    of arrays counts each), and ``new_state(log)``, which allocates every array at its fill.
    The classes are bound in ``module`` (``name`` and ``name + "Type"``) so numba can cache
    kernels that take the state; Python reads a field as an attribute (``state.ev``). The
    fields own nothing: the state holds the arrays' owners in ``own_`` (released with it), so
    compiled code reads and passes a field without counting references; Python's attributes
    return the owners (docs/performance.md, "The engine's state"). Never keep a field (or a
    view of it) in compiled code past the state's life. Also bound in ``module``: ``copy_<name>(dst,
    src)``, which copies every array but those sized by ``log`` into another state, in place; and
    ``build_<name>`` and ``owners_<name>``, the cached functions through which Python builds the
    state and reads its arrays (:mod:`simcore.nb.state_ctor`: no constructor compiled in every
    process).
    """
    import sys

    import numba
    import numpy as np
    from numba.core import types
    from numba.core.extending import overload
    from numba.experimental import structref

    from simcore.nb import state_ctor
    from simcore.nb.borrow import borrowed
    names = tuple(f[0] for f in fields)
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate field names in {name}")

    def preprocess_fields(self, fs):
        return tuple((n, types.unliteral(t)) for n, t in fs)
    type_cls = structref.register(type(f"{name}Type", (types.StructRef,),
                                       {"__module__": module,
                                        "preprocess_fields": preprocess_fields}))
    # Python reads the owning arrays (``own_``); compiled code reads the fields, which do not own
    # their memory (no reference counting on a field's every read; module docstring of
    # simcore.nb.borrow): ``own_`` holds it for as long as the state lives.
    build, owners = state_ctor.register(type_cls, names, module, name)
    props = {n: property(lambda self, i=i: owners(self)[i]) for i, n in enumerate(names)}
    proxy_cls = type(name, (structref.StructRefProxy,),
                     {"__module__": module, "__doc__": f"The kernel's {name}.", **props,
                      "__new__": lambda cls, *arrays: state_ctor.construct(
                          build, cls, type_cls, names, arrays)})
    params = ", ".join(f"f_{n}" for n in names)
    body = "\n".join(f"        __s.{n} = borrowed(f_{n})" for n in names)
    src = (f"def ctor({params}):\n"
           f"    own = types.Tuple([{params}])\n"
           f"    struct_type = type_cls(list(zip({list(names)!r}, [{params}])) + [('own_', own)])\n"
           f"    def impl({params}):\n        __s = new(struct_type)\n"
           f"        __s.own_ = ({params},)\n{body}\n"
           f"        return __s\n    return impl\n")
    g = {"type_cls": type_cls, "new": structref.new, "types": types, "borrowed": borrowed}
    exec(src, g)
    overload(proxy_cls)(g["ctor"])
    structref.define_boxing(type_cls, proxy_cls)
    mod = sys.modules[module]
    setattr(mod, f"{name}Type", type_cls)
    setattr(mod, name, proxy_cls)
    # copy_<name>(dst, src): every array but the replay log, in place (a search's scratch)
    body = "\n".join(f"    dst.{n}[:] = src.{n}" for n, shape, _, _ in fields if not callable(shape))
    g = {}
    exec(f"def copy(dst, src):\n{body}\n", g)
    setattr(mod, f"copy_{name}", numba.njit(g["copy"]))

    def new_state(log: bool = False):
        arrays = []
        for fname, shape, dtype, fill in fields:
            shp = shape(log) if callable(shape) else shape
            arrays.append(np.full(shp, fill, dtype))
        return proxy_cls(*arrays)
    new_state.__doc__ = (f"A fresh :class:`{name}`; ``log``: room for the replay event log "
                         f"(else one row).")
    return proxy_cls, new_state
