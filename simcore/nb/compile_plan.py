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
compile finishes them, pickled with the family's package (``compile_plan.pkl``) beside the same
entries for the kernel functions themselves (their signatures: :func:`kernel_entries`, which
says whether the cache holds the kernel *for the types the code passes today*). It must match
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


def _load(package: str) -> dict:
    try:
        with open(plan_path(package), "rb") as f:
            saved = pickle.load(f)
    except Exception:  # absent, or types of another numba version: compile naturally
        return {"helpers": [], "kernels": []}
    if isinstance(saved, list):  # a plan written before the kernels' signatures were kept
        return {"helpers": saved, "kernels": []}
    return saved


def load_plan(package: str) -> list:
    """``[(module, qualname, argtypes)]`` of the helpers in natural finishing order; [] when
    there is none or it does not unpickle."""
    return list(_load(package)["helpers"])


def kernel_entries(package: str) -> list:
    """``[(module, qualname, argtypes)]`` of the kernel functions as the natural compile that
    wrote the plan compiled them; [] when the plan does not say."""
    return list(_load(package)["kernels"])


def save_plan(package: str, helpers: list, kernels: list) -> str:
    """Write a plan (:func:`record`'s two lists) next to ``package``; its path."""
    path = plan_path(package)
    with open(path, "wb") as f:
        pickle.dump({"helpers": list(helpers), "kernels": list(kernels)}, f, protocol=4)
    return path


def dispatcher(module: str, qualname: str):
    """The numba dispatcher ``module.qualname``, or None when it is gone or not one."""
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


def _compile(entries) -> int:
    done = 0
    for module, qualname, argtypes in entries:
        try:
            disp = dispatcher(module, qualname)
            if disp is not None:
                disp.compile(tuple(argtypes))
                done += 1
        except Exception:
            continue
    return done


def record(play, modules: tuple, kernel: tuple) -> tuple:
    """The plan of a natural compile: run ``play()`` (which compiles the kernel; the cache must
    be cold) and keep the functions of ``modules`` it compiled, in finishing order, without the
    ``kernel`` functions themselves (qualified names: the round loop and the games loop, which
    need every helper and are left to the natural compile); those go in a second list.
    ``(helpers, kernels)``."""
    from numba.core import event

    with event.install_recorder("numba:compile") as rec:
        play()
    plan, kernels = [], []
    for _ts, ev in rec.buffer:
        if not ev.is_end:
            continue
        d = ev.data or {}
        py = getattr(d.get("dispatcher"), "py_func", None)
        # (functions made at run time, a structref state's getters, have no module: not cached)
        if py is not None and (py.__module__ or "").startswith(modules):
            entry = (py.__module__, py.__qualname__, tuple(d["args"]))
            (kernels if f"{py.__module__}.{py.__qualname__}" in kernel else plan).append(entry)
    return plan, kernels


def cached_for(disp, argtypes) -> bool:
    """Whether numba's on-disk cache holds machine code of dispatcher ``disp`` for the argument
    types ``argtypes`` that numba would load here: numba's own index key (signature, this CPU,
    this numba, the function's bytecode) under an index whose source stamp is the file's
    today. False whenever numba's cache internals cannot say."""
    try:
        cache = disp._cache
        key = cache._index_key(tuple(argtypes), disp.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # numba's cache internals moved: say "cold", which costs only a message
        return False


def stale_entries(package: str) -> list:
    """Plan entries that this checkout's cache does not hold (after a natural compile of the
    kernel every entry is there, unless the code changed since the plan was written)."""
    missing = []
    for module, qualname, argtypes in load_plan(package):
        disp = dispatcher(module, qualname)
        index = disp._cache._cache_file._load_index() if disp is not None else {}
        if not any(key[0] == tuple(argtypes) for key in index):
            missing.append(f"{module}.{qualname}{tuple(argtypes)}")
    return missing
