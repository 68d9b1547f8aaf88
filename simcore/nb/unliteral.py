"""One compile per function, not one per constant passed to it.

numba compiles a jitted function called from jitted code for the argument types at the call
site, and a constant argument (``_log(s, EV_DRAW, p, ...)``, ``_finish(..., True)``) is typed as
its literal value: each distinct constant is another full compile of the callee and of everything
it calls (two-player riichi compiled ``_standard_reading`` 4 times, ``play_game`` twice, ``_log``
19 times). :func:`compile_once` makes a module's functions see plain types instead. The machine
code does the same thing: LLVM still inlines the callee and folds the constant where that pays.
"""

from __future__ import annotations

import sys

from numba.core import types
from numba.core.registry import CPUDispatcher

from simcore.nb import aliases, cache_load, cache_lock

# every compiled module imports this one: numba's alias analysis, its cache's saves and loads
# mended first
aliases.install()
cache_lock.install()
cache_load.install()


def _plain(args, kws):
    return (tuple(types.unliteral(a) for a in args),
            {k: types.unliteral(v) for k, v in kws.items()})


def compile_once(module_name: str) -> int:
    """Every numba function defined in module ``module_name`` compiles for the plain
    (non-literal) types of its arguments when jitted code calls it; call at the end of the
    module. The number of functions changed."""
    module = sys.modules[module_name]
    done = 0
    for value in list(vars(module).values()):
        if isinstance(value, CPUDispatcher) and \
                getattr(value.py_func, "__module__", None) == module_name and \
                not getattr(value, "_compiles_once", False):
            original = value.get_call_template

            def get_call_template(args, kws, _original=original):
                return _original(*_plain(args, kws))
            value.get_call_template = get_call_template
            value._compiles_once = True
            done += 1
    return done
