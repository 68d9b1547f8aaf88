"""Compile game kernels into numba's on-disk cache ahead of their first use.

A family's kernel is 25-55 s of CPU to compile (docs/performance.md); once in the cache it loads
in a few seconds. The install does this for the default family (``setup.py``: the build compiles
it, so the README's main command starts at once after ``pip install``); the test suite does it for
every cold family before its workers start (``tests/conftest.py``); ``python -m simcore.precompile
[--all | FAMILY ...]`` does it by hand (a Ray node, a container image, after ``pip install`` with
``MOMOJAN_SIM_PRECOMPILE=none``), and with ``--check`` only says whether it is needed (CI, after
its install).

On 2 cores a cold family compiles in two processes, its kernel in one and its helpers in the
other (:mod:`simcore.nb.compile_plan`); several cold families compile one after the other, so two
compiles never fight over the cores (and numba's cache index, which is not locked, is never
written by two families at once).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from simcore.family.compiling import has_compile_plan, kernels_cached

GUARD_S = 1800  # not a timing: only stops a hung compile from hanging an install or a test run
TICK_S = 10.0  # how often a compile says it is still running


def cold_families(names=None) -> list:
    """Module names (``simcore.momojan.family``) of the families among ``names`` (default: every
    registered one) that can compile ahead and whose kernel is not in the cache."""
    from simcore.family import registry as families
    fams = [families.get(name) for name in (families.names() if names is None else names)]
    return [type(f).__module__ for f in fams if has_compile_plan(f) and not kernels_cached(f)]


def _call(module: str, function: str) -> str:
    """A line of a child's code: call ``simcore.family.compiling.function`` on the family of
    module ``module``."""
    return (f"importlib.import_module('simcore.family.compiling').{function}("
            f"importlib.import_module({module!r}).FAMILY)\n")


def _python(code, stderr):
    # A compile child ends with its parent, however the parent ends (a killed install, test
    # run or precompile): simcore.runners.local.die_with_parent, as every worker does (issue 46).
    return subprocess.Popen([sys.executable, "-c", "import importlib\n"
                             "from simcore.runners.local import die_with_parent\n"
                             f"die_with_parent({os.getpid()})\n" + code],
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True)


def _wait_talking(proc, start: float, guard_s: float, say, every: float = TICK_S):
    """``proc``'s exit status, saying every ``every`` seconds how long the compile has run (a
    compile is a minute or more of silence otherwise); TimeoutExpired past ``guard_s``."""
    while True:
        left = guard_s - (time.monotonic() - start)
        if left <= 0:
            raise subprocess.TimeoutExpired(proc.args, guard_s)
        to_tick = every - (time.monotonic() - start) % every   # ticks on the whole clock
        try:
            return proc.wait(timeout=min(to_tick, max(left, 0.1)))
        except subprocess.TimeoutExpired:
            if guard_s - (time.monotonic() - start) > 0:
                say(f"still compiling ({time.monotonic() - start:.0f} s)")


def compile_families(cold, say=None, guard_s: float = GUARD_S) -> bool:
    """Compile the kernels of the family modules ``cold``, one family at a time: each in two
    child processes, its kernel in one and its helpers in the other (the module docstring), so
    two compiles never fight over 2 cores and the first family is ready soonest. ``say(text)``
    reports progress and failures. True when every process ended well; a failed or hung one is
    reported and stopped, never raised: whatever it did not compile compiles on first use.
    ``guard_s`` bounds each family's compile."""
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    ok = True
    for name in cold:
        if len(cold) > 1:
            say(f"compiling {name.split('.')[-2]}")
        ok = _compile_one(name, say, guard_s) and ok
    return ok


def compile_search(fam, say=None, guard_s: float = GUARD_S, ticks: bool = True) -> bool:
    """Compile the family's ``search`` kernel into numba's cache in a child process unless it is
    there, saying so and every ``TICK_S`` how long it has run: compiled in the process that plays,
    numba holds the interpreter for a minute and nothing can report (issue 51); ``ticks=False``
    says only the first line (a command's own progress speaks while it waits). True when
    it is cached or the child ended well; a failure is said, never raised (the kernel then
    compiles on first use)."""
    from simcore.family.compiling import search_cached
    if search_cached(fam):
        return True
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    from simcore.family import registry as families
    say("compiling the search bot's kernel (about a minute, once)")
    return _compile_one(families.FAMILIES[fam.NAME], say, guard_s, ("play_search_for_compile",),
                        say if ticks else (lambda text: None))


def _compile_one(name: str, say, guard_s: float,
                 functions=("compile_helpers", "play_for_compile"), tick=None) -> bool:
    codes = [_call(name, f) for f in functions]
    start = time.monotonic()
    logs = [tempfile.TemporaryFile("w+") for _ in codes]
    procs = []
    ok = True
    try:
        procs = [_python(code, log) for code, log in zip(codes, logs)]
        for proc, log in zip(procs, logs):
            try:
                status = _wait_talking(proc, start, guard_s, tick or say)
            except subprocess.TimeoutExpired:
                say(f"a compile process ran {guard_s:.0f} s: stopped (what it did not compile "
                    f"compiles on first use)")
                ok = False
                break
            if status != 0:
                log.seek(0)
                say(f"a compile process failed:\n{log.read()}")
                ok = False
    finally:  # interrupted, or hung: no compile outlives its caller
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for log in logs:
            log.close()
    return ok


def main(argv=None) -> int:
    """``python -m simcore.precompile [--check] [--all | FAMILY ...]``: compile the default
    family's kernel (or every family's, or those named) unless it is cached already; exit 1 if a
    compile failed, 2 on bad arguments. ``--check`` compiles nothing: exit 0 when every one named
    is cached (numba would load it here), 1 naming those that are not."""
    from simcore.family import registry as families
    from .errors import InputError
    argv = list(sys.argv[1:] if argv is None else argv)
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
          f"cache (about 40-60 s a family on 2 cores, one family at a time)", file=sys.stderr, flush=True)
    start = time.monotonic()
    ok = compile_families(cold, say=lambda text: print(f"precompile: {text}", file=sys.stderr))
    print(f"precompile: {short}: {'compiled' if ok else 'not all compiled'} in "
          f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
