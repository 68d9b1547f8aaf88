"""simcore/nb/unliteral.py: one compile per function whatever constants its jitted callers
pass, and every module of numba functions of every family uses it."""

import importlib
import pkgutil
import sys
import types as pytypes

import numba as nb
from numba.core.registry import CPUDispatcher

from simcore.family import registry
from simcore.nb.unliteral import compile_once


def _module(name, once):
    mod = pytypes.ModuleType(name)
    sys.modules[name] = mod

    def callee(x, flag):
        return x + 1 if flag else x - 1
    callee.__module__ = name
    mod.callee = nb.njit(callee)

    def caller(x):
        return mod.callee(x, True) + mod.callee(x, False) + mod.callee(3, True)
    caller.__module__ = name
    mod.caller = nb.njit(caller)
    if once:
        assert compile_once(name) == 2
    return mod


def test_constants_passed_by_jitted_callers_compile_the_callee_once():
    plain = _module("unliteral_probe_plain", once=False)
    assert plain.caller(5) == 6 + 4 + 4
    assert len(plain.callee.signatures) == 3     # (int64, True), (int64, False), (3, True)
    once = _module("unliteral_probe_once", once=True)
    assert once.caller(5) == 6 + 4 + 4           # the same answers
    assert [tuple(map(str, s)) for s in once.callee.signatures] == [("int64", "bool")]
    assert compile_once("unliteral_probe_once") == 0    # idempotent


def _numba_modules(package):
    pkg = importlib.import_module(package)
    names = [package] + [f"{package}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)]
    for name in names:
        try:
            yield importlib.import_module(name)
        except ImportError:
            continue


def test_every_numba_function_of_every_family_compiles_once():
    """A module of numba functions that forgets compile_once(__name__) at its end compiles a
    helper again for every constant passed to it (riichi2p's cold compile was twice as long)."""
    forgot = []
    packages = {"simcore.nb"}
    for name in registry.names():
        packages.update(registry.packages(name))
    for package in sorted(packages):
        for mod in _numba_modules(package):
            for attr, value in vars(mod).items():
                if isinstance(value, CPUDispatcher) and \
                        getattr(value.py_func, "__module__", None) == mod.__name__ and \
                        not getattr(value, "_compiles_once", False) and \
                        mod.__name__ not in ("simcore.nb.layout",   # the state's accessors
                                             "simcore.nb.stack"):   # its size is a constant
                    forgot.append(f"{mod.__name__}.{attr}")
    assert not forgot, f"end these modules with compile_once(__name__): {sorted(forgot)[:10]}"
