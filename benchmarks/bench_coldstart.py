"""Where a cold start's compile time goes: every numba function compiled by the first
``Simulator(new_edition).play(...)`` (what ``run`` does first) with an empty cache directory.
``--scenario ptrump_2p`` measures the P-style family's (any bundled scenario or YAML path).

Run: ``python benchmarks/bench_coldstart.py [--top N] [--scenario NAME] [--keep-cache DIR]``

A child process with ``NUMBA_CACHE_DIR`` set to a fresh temporary directory (the project's own
cache is left alone) records numba's ``numba:compile`` events: each compiled function's
*inclusive* time (its callees compiled on its behalf included) and *exclusive* time (its own
typing, lowering and LLVM optimisation, which includes optimising and emitting every callee numba
linked into its module). Also the wall time of the whole first call, its CPU time (the figure to
compare on a shared machine) and the table building; and every function compiled for more than
one signature, with the argument types of each (a literal argument such as ``3`` or ``True``
makes one specialisation per value). With ``NUMBA_DEBUG_CACHE=1`` in the environment numba also
prints its cache decisions (what was saved, what was missed and why) on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, sys, time
from numba.core import event
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t0 = time.perf_counter()
from simcore.family import registry as families
fam = families.get(families.family_name_of(sys.argv[1]))   # the family's SCENARIOS, SIMULATOR
Simulator = fam.SIMULATOR
import numpy as np
t_import = time.perf_counter() - t0
sc = fam.SCENARIOS.load(sys.argv[1])
with event.install_recorder("numba:compile") as rec:
    t = time.perf_counter()
    sim = Simulator(sc)
    t_tables = time.perf_counter() - t
    t = time.perf_counter()
    c = cpu()
    sim.play(np.arange(2), seed=1)
    t_play = time.perf_counter() - t
    c_play = cpu() - c
stack, out = [], []
for ts, ev in rec.buffer:
    d = ev.data or {}
    disp = d.get("dispatcher")
    name = getattr(getattr(disp, "py_func", None), "__qualname__", str(disp))
    mod = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
    if ev.is_start:
        stack.append([mod + "." + name, ts, 0.0, str(d.get("args", ""))])
    else:
        fn, start, child, args = stack.pop()
        incl = ts - start
        out.append({"function": fn, "inclusive_s": incl, "exclusive_s": incl - child,
                    "args": args})
        if stack:
            stack[-1][2] += incl
print(json.dumps({"import_s": t_import, "tables_s": t_tables, "first_play_s": t_play,
                  "first_play_cpu_s": c_play, "cpu_s": cpu(), "functions": out}))
"""


def measure(top=25, scenario="new_edition", keep_cache=None) -> dict:
    """Compile times of a cold start; ``keep_cache``: a directory to compile into and keep
    (e.g. to run tests on the same compiled code afterwards), else a temporary one."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="mjcold") as tmp:
        cache = keep_cache or tmp
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")
        r = subprocess.run([sys.executable, "-c", CHILD, scenario], env=env, cwd=root,
                           capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(f"cold start child failed: {r.stderr[-2000:]}")
    data = json.loads(r.stdout.strip().splitlines()[-1])
    fns = data.pop("functions")
    by = {}
    for f in fns:  # a function compiled for several signatures: add them up
        e = by.setdefault(f["function"], {"function": f["function"], "exclusive_s": 0.0,
                                          "inclusive_s": 0.0, "signatures": 0, "args": []})
        e["exclusive_s"] += f["exclusive_s"]
        e["inclusive_s"] = max(e["inclusive_s"], f["inclusive_s"])
        e["signatures"] += 1
        e["args"].append(f["args"])
    ranked = sorted(by.values(), key=lambda e: -e["exclusive_s"])
    total = sum(e["exclusive_s"] for e in ranked)
    by_module = {}
    for e in ranked:
        m = e["function"].rsplit(".", 1)[0]
        by_module[m] = by_module.get(m, 0.0) + e["exclusive_s"]
    return {**{k: round(v, 2) for k, v in data.items()}, "compiled_functions": len(ranked),
            "compiled_signatures": sum(e["signatures"] for e in ranked),
            "duplicated": {e["function"]: e["args"] for e in ranked if e["signatures"] > 1},
            "compile_total_s": round(total, 2),
            "by_module": {k: round(v, 2) for k, v in sorted(by_module.items(),
                                                            key=lambda kv: -kv[1])},
            "top": [{**e, "exclusive_s": round(e["exclusive_s"], 2),
                     "inclusive_s": round(e["inclusive_s"], 2)} for e in ranked[:top]]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--keep-cache", metavar="DIR", help="compile into DIR (should be empty) and "
                    "keep it, instead of a temporary directory")
    args = ap.parse_args(argv)
    r = measure(args.top, args.scenario, args.keep_cache)
    print(f"$ python benchmarks/bench_coldstart.py --top {args.top} --scenario {args.scenario}  "
          f"(load average {os.getloadavg()[0]:.2f})")
    print(f"imports {r['import_s']} s, tables (Simulator) {r['tables_s']} s, first play "
          f"{r['first_play_s']} s ({r['first_play_cpu_s']} s of CPU: on a loaded machine the "
          f"wall time is longer); {r['compiled_functions']} functions compiled "
          f"({r['compiled_signatures']} signatures), "
          f"{r['compile_total_s']} s compiling in all")
    print("by module (exclusive compile time):")
    for m, s in r["by_module"].items():
        print(f"  {s:7.2f} s  {m}")
    print(f"top {args.top} functions (exclusive / inclusive s, signatures):")
    for e in r["top"]:
        print(f"  {e['exclusive_s']:7.2f} {e['inclusive_s']:7.2f} {e['signatures']:3d}  "
              f"{e['function']}")
    if r["duplicated"]:
        print("compiled for more than one signature (argument types of each):")
        for fn, sigs in r["duplicated"].items():
            print(f"  {fn}")
            for a in sigs:
                print(f"      {a}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
