"""A cold start's compile shared between two processes through numba's on-disk cache.

Compiling a family's game kernel compiles every helper it calls first, one after the other, in
the order its type inference meets them (about 80 of MOMOJAN's 110 s of CPU), then the round loop
and the games loop themselves. A second process that compiles the same helpers from the other end
of that order (the last-needed first, after a self-contained subtree from its middle) writes
them to the cache, and the first process then loads
each one it reaches instead of compiling it (a cached function keeps its LLVM bitcode, so callers
still inline it: the machine code is the same). On 2 cores that takes about a third off a cold
start.

A *plan* is the list of (module, function, argument types) of the helpers, in the order a natural
compile finishes them, pickled with the family's package (``compile_plan.pkl``). It must match
the code: :func:`stale_entries` (a test) says which entries the cache of a natural compile does not
hold (``python -m simcore.family.compiling check simcore.momojan`` compares both ways against a fresh
compile), and ``python -m simcore.family.compiling write simcore.momojan`` writes it again. A plan that is
stale, or that does not unpickle (another numba version), only costs its own compile time: an
entry whose function is gone or whose types no longer compile is skipped.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pickle

PLAN_FILE = "compile_plan.pkl"


def plan_path(package: str) -> str:
    spec = importlib.util.find_spec(package)
    return os.path.join(os.path.dirname(spec.origin), PLAN_FILE)


def load_plan(package: str) -> list:
    """``[(module, qualname, argtypes)]`` in natural finishing order; [] when there is none or it
    does not unpickle."""
    try:
        with open(plan_path(package), "rb") as f:
            return pickle.load(f)
    except Exception:  # absent, or types of another numba version: compile naturally
        return []


def _dispatcher(module: str, qualname: str):
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj if hasattr(obj, "compile") and hasattr(obj, "py_func") else None


def compile_reversed(package: str, first: tuple = ()) -> int:
    """Compile (or load from the cache) the plan's entries: those named in ``first`` (qualified
    names), then the others last-needed first; the number compiled. Never raises: this only
    moves work earlier.

    Compiling a function compiles its callees first, so a late entry drags in early ones (the
    engine's helpers need the hand functions the natural compile does early): ``first`` names
    self-contained subtrees the natural compile reaches in its middle (MOMOJAN: the bots'
    decision kernel), which keeps the two processes apart while the natural one does its early
    part."""
    plan = load_plan(package)
    head = [e for e in plan if f"{e[0]}.{e[1]}" in first]
    return _compile(head + [e for e in reversed(plan) if e not in head])


def compile_shared(packages) -> int:
    """Compile the entries of the modules that more than one of ``packages``' plans hold
    (``simcore.nb.rng``, ``simcore.nb.bits``: every signature of both families), here, one after the
    other; the number compiled. Call it before compiling two families side by side: numba reads,
    changes and writes back a function's cache index without a lock, so two processes adding
    different signatures of one function at once can lose an entry or pair a signature with the
    other's machine code."""
    plans = [load_plan(p) for p in packages]
    seen = {}
    for plan in plans:
        for module in {e[0] for e in plan}:
            seen[module] = seen.get(module, 0) + 1
    entries = []
    for plan in plans:
        entries += [e for e in plan if seen[e[0]] > 1 and e not in entries]
    return _compile(entries)


def _compile(entries) -> int:
    done = 0
    for module, qualname, argtypes in entries:
        try:
            disp = _dispatcher(module, qualname)
            if disp is not None:
                disp.compile(tuple(argtypes))
                done += 1
        except Exception:
            continue
    return done


def record(play, modules: tuple, kernel: tuple) -> list:
    """The plan of a natural compile: run ``play()`` (which compiles the kernel; the cache must
    be cold) and keep the functions of ``modules`` it compiled, in finishing order, without the
    ``kernel`` functions themselves (qualified names: the round loop and the games loop, which
    need every helper and are left to the natural compile)."""
    from numba.core import event

    with event.install_recorder("numba:compile") as rec:
        play()
    plan = []
    for _ts, ev in rec.buffer:
        if not ev.is_end:
            continue
        d = ev.data or {}
        py = getattr(d.get("dispatcher"), "py_func", None)
        # (functions made at run time, a structref state's getters, have no module: not cached)
        if py is not None and (py.__module__ or "").startswith(modules) and \
                f"{py.__module__}.{py.__qualname__}" not in kernel:
            plan.append((py.__module__, py.__qualname__, tuple(d["args"])))
    return plan


def stale_entries(package: str) -> list:
    """Plan entries that this checkout's cache does not hold (after a natural compile of the
    kernel every entry is there, unless the code changed since the plan was written)."""
    missing = []
    for module, qualname, argtypes in load_plan(package):
        disp = _dispatcher(module, qualname)
        index = disp._cache._cache_file._load_index() if disp is not None else {}
        if not any(key[0] == tuple(argtypes) for key in index):
            missing.append(f"{module}.{qualname}{tuple(argtypes)}")
    return missing
