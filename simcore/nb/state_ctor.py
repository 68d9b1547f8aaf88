"""Building a kit state (``simcore.nb.layout.state_spec``) from Python, and reading its arrays,
through functions numba caches on disk.

numba's own way to build a structref from Python (``StructRefProxy.__new__``) compiles a
constructor in every process, uncached: 1.3 s of each MOMOJAN command's 2.2 s (``run
new_edition --games 10 --no-save``), paid again by every worker process and every command the
test suite starts; a field read from Python compiled a getter per field the same way.
:func:`register` gives each state type two cached functions instead: ``build_<name>``, which
builds the same state (the same numba type, over the very arrays given), and ``owners_<name>``,
the tuple of its arrays that Python's attribute reads (``state.hand``) index.

A cached build is keyed by the state's type class and the arrays' types, not by the field names
(numba checks only this file's stamp), so :func:`construct` checks the names of what it built: a
state whose fields were renamed since the cache was written is built by numba's own constructor
(correct, at its old cost), never with the old names.
"""

from __future__ import annotations

import sys
from types import FunctionType

import numba
from numba.core import types
from numba.core.extending import overload
from numba.experimental import structref

from simcore.nb.borrow import borrowed

_NAMES: dict = {}  # a state's numba type class -> its field names, in order


def _build(type_ref, arrays):  # each state type's builder compiles a copy of this (register)
    return _assemble(type_ref, arrays)


def _owners(state):  # each state type's reader compiles a copy of this (register)
    return state.own_


def _compiled_copy(template, module: str, qualname: str):
    """``template`` compiled (and cached) as ``module.qualname``, with a cache file of its own:
    numba names a function's cache files after its source file and qualified name, and one
    function for every state type would keep one index of them all, which names every type (to
    read it numba would import every family's engine)."""
    code = template.__code__.replace(co_name=qualname, co_qualname=qualname)
    fn = FunctionType(code, template.__globals__, qualname)
    fn.__module__, fn.__qualname__ = module, f"{module.replace('.', '_')}_{qualname}"
    compiled = numba.njit(cache=True)(fn)      # names its cache files here
    fn.__qualname__ = qualname                  # the name it is bound by (the compile plan's)
    setattr(sys.modules[module], qualname, compiled)
    return compiled


def register(type_cls, names: tuple, module: str, name: str) -> tuple:
    """Declare ``type_cls`` (a ``types.StructRef`` subclass of ``state_spec``) with its field
    ``names``; return its ``(build, owners)``, compiled functions bound in ``module`` as
    ``build_<name>`` and ``owners_<name>``: ``build(type_cls, arrays)`` the state over the
    arrays (see :func:`construct`), ``owners(state)`` the tuple of its arrays."""
    _NAMES[type_cls] = tuple(names)
    return (_compiled_copy(_build, module, f"build_{name}"),
            _compiled_copy(_owners, module, f"owners_{name}"))


def _assemble(type_cls, arrays):  # compiled code only (its overload below)
    raise NotImplementedError


@overload(_assemble)
def _assemble_ol(type_ref, arrays):
    type_cls = type_ref.instance_type
    names = _NAMES[type_cls]
    members = list(arrays.types)
    struct_type = type_cls(list(zip(names, members)) + [("own_", types.Tuple(members))])
    body = "\n".join(f"    s.{n} = borrowed(arrays[{i}])" for i, n in enumerate(names))
    g = {"new": structref.new, "struct_type": struct_type, "borrowed": borrowed}
    exec(f"def impl(type_ref, arrays):\n    s = new(struct_type)\n    s.own_ = arrays\n"
         f"{body}\n    return s\n", g)
    return g["impl"]


def construct(builder, proxy_cls, type_cls, names: tuple, arrays: tuple):
    """A ``proxy_cls`` state over ``arrays`` (one per field of ``names``, in order), built by
    ``builder`` (:func:`register`'s)."""
    state = builder(type_cls, arrays)
    if tuple(state._type.field_dict)[:len(names)] != names:  # a cache older than the names
        return structref.StructRefProxy.__new__(proxy_cls, *arrays)
    return state
