"""Compile game kernels into numba's on-disk cache ahead of their first use.

A family's kernel is 25-55 s of CPU to compile (docs/performance.md); once in the cache it loads
in a few seconds. The install does this for the default family (``setup.py``: the build compiles
it, so the README's main command starts at once after ``pip install``); the test suite does it for
every cold family before its workers start (``tests/conftest.py``); ``python -m simcore.precompile
[--all | FAMILY ...]`` does it by hand (a Ray node, a container image, after ``pip install`` with
``MOMOJAN_SIM_PRECOMPILE=none``), and with ``--check`` only says whether it is needed (CI, after
its install).

On 2 cores a cold family compiles in two processes, its kernel in one and its helpers in the
other (:mod:`simcore.nb.compile_plan`); several cold families compile two processes at a time,
each family's kernel once its helpers are in the cache, two families' helpers or one's kernel
and the next's helpers side by side (:func:`simcore.family.compiling.compile_families`), so
compiles never fight over the cores and none compiles what the other is compiling; numba's
cache takes both at once safely (:mod:`simcore.nb.cache_lock`).
"""

from __future__ import annotations

import sys
import time

# the compile children live in the kit (a study compiles the search kernel through them)
from simcore.family.compiling import compile_families, has_compile_plan, kernels_cached


def cold_families(names=None) -> list:
    """Module names (``simcore.momojan.family``) of the families among ``names`` (default: every
    registered one) that can compile ahead and whose kernel is not in the cache."""
    from simcore.family import registry as families
    fams = [families.get(name) for name in (families.names() if names is None else names)]
    return [type(f).__module__ for f in fams if has_compile_plan(f) and not kernels_cached(f)]


def main(argv=None) -> int:
    """``python -m simcore.precompile [--check] [--all | FAMILY ...]``: compile the default
    family's kernel (or every family's, or those named) unless it is cached already; exit 1 if a
    compile failed, 2 on bad arguments. ``--check`` compiles nothing: exit 0 when every one named
    is cached (numba would load it here), 1 naming those that are not."""
    from simcore.family import registry as families
    from .errors import InputError
    argv = list(sys.argv[1:] if argv is None else argv)
    if "-h" in argv or "--help" in argv:
        print(f"usage: python -m simcore.precompile [--check] [--all | FAMILY ...]\n\n"
              f"Compile a game family's kernels into numba's cache ahead of their first use "
              f"(default: {families.DEFAULT}; --all: {', '.join(families.names())}).\n"
              f"--check compiles nothing: exit 0 when every family named is cached, 1 naming "
              f"those that are not.")
        return 0
    check = "--check" in argv
    argv = [a for a in argv if a != "--check"]
    if "--all" in argv and argv != ["--all"]:
        print("precompile: --all takes no family names", file=sys.stderr)
        return 2
    unknown = [a for a in argv if a.startswith("-") and a != "--all"]
    if unknown:
        print(f"precompile: unknown option {unknown[0]} (usage: python -m simcore.precompile "
              f"[--check] [--all | FAMILY ...])", file=sys.stderr)
        return 2
    names = families.names() if argv == ["--all"] else (argv or [families.DEFAULT])
    try:
        cold = cold_families(names)
    except InputError as exc:
        print(f"precompile: {exc}", file=sys.stderr)
        return 2
    if not cold:
        print(f"precompile: {', '.join(names)}: already compiled", file=sys.stderr)
        return 0
    cold_names = [name.split(".")[-2] for name in cold]   # simcore.momojan.family -> momojan
    short = ", ".join(cold_names)
    if check:
        print(f"precompile: {short}: not compiled for this machine and numba (`python -m "
              f"simcore.precompile {' '.join(cold_names)}` compiles)", file=sys.stderr)
        return 1
    print(f"precompile: compiling the {short} kernel{'s' if len(cold) > 1 else ''} into numba's "
          f"cache (about 30-60 s a family on 2 cores, two compiles at a time)", file=sys.stderr, flush=True)
    start = time.monotonic()
    ok = compile_families(cold, say=lambda text: print(f"precompile: {text}", file=sys.stderr))
    print(f"precompile: {short}: {'compiled' if ok else 'not all compiled'} in "
          f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
