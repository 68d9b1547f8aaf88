"""The benchmark suite: every figure of the README's performance section in one JSON record.

    python -m benchmarks                 # the full suite (tens of minutes on 2 cores)
    python -m benchmarks --quick         # about two minutes on an idle 2-core machine (CI)
    python -m benchmarks --only hand,scoring --out /tmp/b.json

Sections: hand analysis, scoring, rounds/s per bot pairing (one core, steady state), end-to-end
``run`` and ``compare`` through the CLI (start-up, i.e. interpreter, imports, numba cache load and
worker tables, reported apart from steady state), scaling with local workers; the full suite adds
scaling through Ray (1 and 2 nodes of a throw-away local cluster, with the ray extra), peak memory
of ``run`` at 10^5 and 10^6 games, and a cold start (a fresh numba cache dir).

The record (``--out``, default ``benchmarks/results/<UTC time>.json``, git-ignored) holds the
machine (cores, load average before and after each section: the machine may be shared), the git
commit, versions, and each section's figures or its error. The exit status is 1 only if a
benchmark crashed, never because of a timing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
CLI = [sys.executable, "-m", "simcore.cli"]


def _git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except OSError:
        return None


def machine() -> dict:
    import numba
    import numpy
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                         None)
    except OSError:
        pass
    return {"cores": cores, "cpu": model, "python": platform.python_version(),
            "numba": numba.__version__, "numpy": numpy.__version__, "platform": platform.platform(),
            "load_average": os.getloadavg()}


# -- sections ---------------------------------------------------------------------------------

def hand(quick):
    from benchmarks.momojan import bench_hand
    return bench_hand.measure(hands=50_000 if quick else 1_000_000, repeats=2 if quick else 5,
                              search=not quick)


def ptrump_hand(quick):
    from benchmarks.ptrump import bench_hand as bench_ptrump_hand
    return bench_ptrump_hand.measure(hands=50_000 if quick else 1_000_000,
                                     repeats=2 if quick else 5)


def scoring(quick):
    from benchmarks.momojan import bench_score
    return bench_score.measure(reps=3000 if quick else 20000, repeats=2 if quick else 5)


def pairings(quick):
    from benchmarks.momojan import bench_engine
    names = ["baseline", "random", "greedy", "value"] if quick else \
        ["baseline", "random", "greedy", "value", "defensive", "value:greedy", "defensive:greedy"]
    games, repeats = (150, 3) if quick else (500, 9)
    out = {}
    for p in names:
        setup, r = bench_engine.rounds_per_second("new_edition", p, games, repeats)
        out[p] = {"rounds_per_s": r.median, "best_rounds_per_s": r.best,
                  "cpu_rounds_per_s": r.cpu, "games_per_s": r.median / r.per_game,
                  "rounds_per_game": r.per_game, "setup_s": round(setup, 3), "games": games,
                  "repeats": repeats}
    return out


def ptrump_rounds(quick):
    """P-style rounds/s on one core, greedy in every seat, 2 and 3 players (issue 13's target:
    2 players at least MOMOJAN's greedy rate, 3 players at least two thirds of it)."""
    from benchmarks.ptrump import bench_engine as bench_ptrump_engine
    games, repeats = (300, 3) if quick else (2000, 3)
    out = {}
    for sc in ("ptrump_2p", "ptrump_3p"):
        setup, r = bench_ptrump_engine.rounds_per_second(sc, "greedy", games, repeats)
        out[sc] = {"rounds_per_s": r.median, "best_rounds_per_s": r.best,
                   "cpu_rounds_per_s": r.cpu, "rounds_per_match": r.per_game,
                   "setup_s": round(setup, 3), "games": games, "repeats": repeats}
    return out


def riichi2p_hand(quick):
    """Two-player riichi hand analysis and scoring per second (issue 34's targets: shanten
    >= 2 M hands/s, scoring >= 1 M)."""
    from benchmarks.riichi2p import bench_hand as bench_riichi2p_hand
    return bench_riichi2p_hand.measure(hands=50_000 if quick else 1_000_000,
                                       repeats=2 if quick else 5)


def riichi2p_rounds(quick):
    """Two-player riichi hands/s on one core per bot (issue 34's target: greedy >= 5,000)."""
    from benchmarks.riichi2p import bench_engine as bench_riichi2p_engine
    games, repeats = (150, 3) if quick else (400, 3)
    out = {}
    for p in ("baseline", "greedy"):
        r = bench_riichi2p_engine.rounds_per_second(p, games, repeats)
        out[p] = {"rounds_per_s": r.median, "best_rounds_per_s": r.best,
                  "cpu_rounds_per_s": r.cpu, "rounds_per_game": r.per_game, "games": games,
                  "repeats": repeats}
    return out


def _rounds_x4(family, quick, sizes):
    """Rounds/s of ``family`` on one core, the same bot in all four seats."""
    from benchmarks.engine_rate import rounds_per_second
    games, repeats = sizes[0] if quick else sizes[1]
    out = {}
    for p in ("random", "greedy"):
        r = rounds_per_second(family, p, 4, games, repeats)
        out[p] = {"rounds_per_s": r.median, "best_rounds_per_s": r.best,
                  "cpu_rounds_per_s": r.cpu, "games": games, "repeats": repeats}
    return out


def emoji_rounds(quick):
    """Emoji rounds/s on one core, the same bot in all four seats (issue 48's target: greedy
    >= 25,000)."""
    return _rounds_x4("emoji", quick, ((300, 3), (2000, 5)))


def sparrow_rounds(quick):
    """Sparrow rounds/s on one core, the same bot in all four seats (issue 49: at least emoji's
    greedy x4 per round)."""
    return _rounds_x4("sparrow", quick, ((1000, 3), (4000, 5)))


def _cli(args, timeout=3600):
    t = time.perf_counter()
    r = subprocess.run(CLI + args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"momojan-sim {' '.join(args)} exited {r.returncode}: "
                           f"{r.stderr.strip()[-2000:]}")
    return wall, json.loads(r.stdout)


def _end_to_end(cmd, small, big, rounds_of, workers):
    """Start-up = the wall time of a tiny run (interpreter, imports, numba cache load, worker
    tables); steady state = the extra rounds of the big run over its extra time."""
    base = cmd + ["--workers", str(workers), "--json", "--quiet", "--no-save"]
    t_small, d_small = _cli(base + ["--games", str(small)])
    t_big, d_big = _cli(base + ["--games", str(big)])
    r_small, r_big = rounds_of(d_small), rounds_of(d_big)
    return {"command": "momojan-sim " + " ".join(base + ["--games", str(big)]),
            "workers": workers, "games": big, "rounds": r_big, "wall_s": round(t_big, 3),
            "startup_s": round(t_small, 3), "startup_games": small,
            "steady_rounds_per_s": (r_big - r_small) / max(t_big - t_small, 1e-9),
            "end_to_end_rounds_per_s": r_big / t_big}


def run_cmd(quick):
    games = 6000 if quick else 60000
    return _end_to_end(["run", "new_edition"], 20, games, lambda d: d["rounds"], 2)


def compare_cmd(quick):
    games = 4000 if quick else 40000

    def rounds(d):  # both variants' rounds: the mean rounds per game times the games, each side
        m = d["metrics"]["mean_rounds_per_game"]
        return round((m["a"] + m["b"]) * d["games"])

    return _end_to_end(["compare", "new_edition", "no_ron_bonus"], 20, games, rounds, 2)


def scaling(quick):
    from benchmarks import bench_scaling
    from simcore.momojan.family import FAMILY as family
    bench_scaling.warm_up(family.SCENARIOS.load("new_edition"))
    return {"local": bench_scaling.local("new_edition", 6000 if quick else 24000, (1, 2))}


def ray_scaling(quick):
    from simcore.runners import ray_available
    if not ray_available():
        return {"skipped": "ray is not installed (pip install 'momojan-sim[ray]')"}
    from benchmarks import bench_scaling
    return {"ray": bench_scaling.ray_nodes("new_edition", 6000 if quick else 24000, (1, 2))}


PEAK_RSS = r"""
import json, resource, sys
from simcore.cli import main
sys.argv = ["momojan-sim"] + sys.argv[1:]
try:
    main()
except SystemExit as exc:
    code = exc.code
self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "self_mb": self_kb / 1024, "largest_worker_mb": kids_kb / 1024}),
      file=sys.stderr)
"""


def memory(quick):
    """Peak RSS of ``run`` (the parent, and the largest worker: getrusage of self and of the
    waited-for children) for 10^5 and 10^6 games, 2 workers."""
    out = {}
    for games in (100_000, 1_000_000):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", PEAK_RSS, "run", "new_edition", "--games",
                            str(games), "--workers", "2", "--json", "--quiet", "--no-save"],
                           capture_output=True, text=True, timeout=7200, cwd=ROOT)
        info = json.loads(r.stderr.strip().splitlines()[-1])
        if info["code"] not in (0, None):
            raise RuntimeError(f"run --games {games} exited {info['code']}: {r.stderr[-1000:]}")
        out[str(games)] = {**{k: round(v, 1) for k, v in info.items() if k != "code"},
                           "seconds": round(time.perf_counter() - t, 1)}
    return out


def cold_start(quick):
    """``run new_edition --games 100 --workers 1`` with an empty numba cache dir (everything
    compiles), then again with that cache warm; ``run --games 4000 --workers 2`` with an empty
    cache (two workers share the compile: simcore/nb/compile_plan.py); the install's compile
    (``python -m simcore.precompile``, what setup.py runs) into an empty cache, then the README's
    main command on it (its first result after an install); and where the compile time goes."""
    from benchmarks import bench_coldstart

    def timed(args, cache, command=CLI, flags=("--json", "--quiet", "--no-save")):
        t = time.perf_counter()
        subprocess.run(command + args + list(flags),
                       env=dict(os.environ, NUMBA_CACHE_DIR=cache), capture_output=True,
                       check=True, timeout=3600, cwd=ROOT)
        return round(time.perf_counter() - t, 1)

    one = ["run", "new_edition", "--games", "100", "--workers", "1"]
    with tempfile.TemporaryDirectory(prefix="mjcold") as cache:
        fresh, warm = timed(one, cache), timed(one, cache)
    with tempfile.TemporaryDirectory(prefix="mjcold") as cache:
        shared = timed(["run", "new_edition", "--games", "4000", "--workers", "2"], cache)
    with tempfile.TemporaryDirectory(prefix="mjcold") as cache:
        install = timed([], cache, command=[sys.executable, "-m", "simcore.precompile"], flags=())
        after_install = timed(["run", "scenarios/new_edition.yaml"], cache)
    return {"fresh_cache_s": fresh, "warm_cache_s": warm, "fresh_cache_2_workers_s": shared,
            "install_compile_s": install, "main_command_after_install_s": after_install,
            "compile_by_function": bench_coldstart.measure(top=25)}


def compile_families(quick):
    """Each family's cold compile in one process (a fresh numba cache: its first run's compile
    on one idle core, issue 48's target <= 20 s), then the install-time compile of all four
    (``python -m simcore.precompile --all`` into a fresh cache, 2 cores; target <= 90 s)."""
    from simcore.family import registry
    code = ("import importlib, sys; from simcore.family import registry; "
            "from simcore.family.compiling import play_for_compile; "
            "play_for_compile(registry.get(sys.argv[1]))")
    out = {}
    for name in registry.names():
        with tempfile.TemporaryDirectory(prefix="mjcold") as cache:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code, name], check=True, capture_output=True,
                           env=dict(os.environ, NUMBA_CACHE_DIR=cache), timeout=3600, cwd=ROOT)
            out[name] = round(time.perf_counter() - t, 1)
    with tempfile.TemporaryDirectory(prefix="mjcold") as cache:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcore.precompile", "--all"], check=True,
                       capture_output=True, env=dict(os.environ, NUMBA_CACHE_DIR=cache),
                       timeout=3600, cwd=ROOT)
        install = round(time.perf_counter() - t, 1)
    return {"first_run_compile_s": out, "install_compile_all_s": install}


def verdict(quick):
    """Time to the designer's first question: ``compare old_edition new_edition --target-ci
    0.002`` (first dealer to +-0.2 pp) on every core (issue 48's target: <= 120 s on 2)."""
    args = ["compare", "old_edition", "new_edition", "--target-ci", "0.01" if quick else "0.002",
            "--json", "--quiet", "--no-save"]
    wall, data = _cli(args)
    return {"command": "momojan-sim " + " ".join(args), "wall_s": round(wall, 1),
            "games": data.get("games"), "target_ci": data.get("target_ci")}


# issue 48's targets: (section, key path, target, unit); a figure at least the target is "met"
# (seconds: at most). The engines' rates are per second of the benchmark process's CPU time, the
# median batch (benchmarks/engine_rate.py says why); the JSON has the wall-time figures beside.
TARGETS = [("pairings", ("random", "cpu_rounds_per_s"), 60_000, "MOMOJAN random rounds/s"),
           ("pairings", ("greedy", "cpu_rounds_per_s"), 40_000, "MOMOJAN greedy rounds/s"),
           ("pairings", ("value", "cpu_rounds_per_s"), 30_000, "MOMOJAN value rounds/s"),
           ("ptrump_rounds", ("ptrump_2p", "cpu_rounds_per_s"), 40_000,
            "P-style 2p greedy rounds/s"),
           ("emoji_rounds", ("greedy", "cpu_rounds_per_s"), 25_000, "emoji greedy x4 rounds/s"),
           ("riichi2p_rounds", ("greedy", "cpu_rounds_per_s"), 8_000, "riichi2p greedy hands/s"),
           ("compile", ("install_compile_all_s",), -90, "install compile, all families (s)"),
           ("verdict", ("wall_s",), -120, "compare old/new --target-ci 0.002 (s)")]


def target_lines(record) -> list:
    """Each issue-48 figure beside its target (a negative target: at most that many seconds)."""
    S = record["sections"]
    lines = ["  targets (issue 48; the engines' rates per second of CPU time, median batch):"]
    rows = list(TARGETS)
    if S.get("compile", {}).get("ok"):
        for name in S["compile"]["data"]["first_run_compile_s"]:
            rows.append(("compile", ("first_run_compile_s", name), -20,
                         f"{name} first-run compile, one core (s)"))
    for section, path, target, what in rows:
        entry = S.get(section)
        if not entry or not entry["ok"]:
            lines.append(f"    {what:44s} {'not measured':>12s}   target {abs(target):,}")
            continue
        v = entry["data"]
        try:
            for k in path:
                v = v[k]
        except (KeyError, TypeError):
            lines.append(f"    {what:44s} {'not measured':>12s}   target {abs(target):,}")
            continue
        met = v <= -target if target < 0 else v >= target
        lines.append(f"    {what:44s} {v:12,.1f}   target {'<=' if target < 0 else '>='} "
                     f"{abs(target):,}: {'met' if met else 'MISSED'}")
    return lines


SECTIONS = [("hand", hand), ("ptrump_hand", ptrump_hand), ("scoring", scoring),
            ("pairings", pairings), ("ptrump_rounds", ptrump_rounds),
            ("riichi2p_hand", riichi2p_hand), ("riichi2p_rounds", riichi2p_rounds),
            ("emoji_rounds", emoji_rounds), ("sparrow_rounds", sparrow_rounds), ("run", run_cmd), ("compare", compare_cmd),
            ("scaling", scaling)]
FULL_ONLY = [("ray_scaling", ray_scaling), ("memory", memory), ("cold_start", cold_start),
             ("compile", compile_families), ("verdict", verdict)]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes; about two minutes")
    ap.add_argument("--out", help="the JSON record [benchmarks/results/<UTC time>.json]")
    ap.add_argument("--only", help="comma-separated sections: " +
                    ",".join(n for n, _ in SECTIONS + FULL_ONLY))
    args = ap.parse_args(argv)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    sections = SECTIONS + ([] if args.quick else FULL_ONLY)
    if args.only:
        wanted = args.only.split(",")
        known = {n for n, _ in SECTIONS + FULL_ONLY}
        bad = [w for w in wanted if w not in known]
        if bad:
            ap.error(f"unknown section(s) {', '.join(bad)}; known: {', '.join(sorted(known))}")
        sections = [(n, f) for n, f in SECTIONS + FULL_ONLY if n in wanted]
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or os.path.join(ROOT, "benchmarks", "results", f"{stamp}.json")
    record = {"suite": "quick" if args.quick else "full", "started": stamp,
              "command": "python -m benchmarks " + " ".join(argv if argv is not None
                                                            else sys.argv[1:]),
              "commit": _git_commit(), "machine": machine(), "sections": {}}
    failed = []
    t_all = time.perf_counter()
    for name, fn in sections:
        load0 = os.getloadavg()[0]
        t = time.perf_counter()
        print(f"benchmarks: {name} ...", file=sys.stderr, flush=True)
        try:
            data = fn(args.quick)
            entry = {"ok": True, "data": data}
        except Exception as exc:  # recorded, and the exit status says so
            failed.append(name)
            entry = {"ok": False, "error": f"{type(exc).__name__}: {exc}",
                     "traceback": traceback.format_exc()}
            print(entry["traceback"], file=sys.stderr)
        entry.update(seconds=round(time.perf_counter() - t, 1), load_before=round(load0, 2),
                     load_after=round(os.getloadavg()[0], 2))
        record["sections"][name] = entry
        print(f"benchmarks: {name} {'done' if entry['ok'] else 'CRASHED'} in "
              f"{entry['seconds']} s", file=sys.stderr, flush=True)
    record["seconds"] = round(time.perf_counter() - t_all, 1)
    record["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, default=float)
        f.write("\n")
    print(summary(record))
    print(f"benchmarks: record written to {out}", file=sys.stderr)
    if failed:
        print(f"benchmarks: crashed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def summary(record) -> str:
    """A few lines for people; the JSON has everything."""
    lines = [f"{record['command']}  ({record['machine']['cores']} cores, load average "
             f"{record['machine']['load_average'][0]:.2f} at start; {record['seconds']} s)"]
    S = record["sections"]

    def ok(n):
        return n in S and S[n]["ok"]

    if ok("hand"):
        for k, v in S["hand"]["data"]["jobs"].items():
            lines.append(f"  hand   {k:34s} {v['per_s'] / 1e6:8.2f} M/s")
    if ok("ptrump_hand"):
        for k, v in S["ptrump_hand"]["data"]["jobs"].items():
            lines.append(f"  ptrump {k:34s} {v['per_s'] / 1e6:8.2f} M/s")
    if ok("scoring"):
        lines.append(f"  score  wins scored {S['scoring']['data']['scores_per_s'] / 1e6:8.2f} M/s")
    if ok("pairings"):
        for k, v in S["pairings"]["data"].items():
            lines.append(f"  rounds {k:18s} {v['rounds_per_s']:9.0f} rounds/s median, "
                         f"{v.get('best_rounds_per_s', 0):9.0f} best, "
                         f"{v.get('cpu_rounds_per_s', 0):9.0f} of CPU time (one core)")
    if ok("ptrump_rounds"):
        for k, v in S["ptrump_rounds"]["data"].items():
            lines.append(f"  rounds {k + ' greedy':18s} {v['rounds_per_s']:9.0f} rounds/s median, "
                         f"{v.get('cpu_rounds_per_s', 0):9.0f} of CPU time (one core)")
    if ok("riichi2p_rounds"):
        for k, v in S["riichi2p_rounds"]["data"].items():
            lines.append(f"  rounds {'riichi2p ' + k:18s} {v['rounds_per_s']:9.0f} hands/s median, "
                         f"{v.get('cpu_rounds_per_s', 0):9.0f} of CPU time (one core)")
    for n in ("run", "compare"):
        if ok(n):
            d = S[n]["data"]
            lines.append(f"  {n:7s} start-up {d['startup_s']:.1f} s, steady "
                         f"{d['steady_rounds_per_s']:,.0f} rounds/s, end to end "
                         f"{d['end_to_end_rounds_per_s']:,.0f} rounds/s ({d['games']} games, "
                         f"{d['workers']} workers)")
    for n, key in (("scaling", "local"), ("ray_scaling", "ray")):
        if ok(n) and key in S[n]["data"]:
            for r in S[n]["data"][key]:
                bare = (f" (bare engine processes: {r['bare_efficiency']:.0%})"
                        if "bare_efficiency" in r else "")
                lines.append(f"  {key:6s} {r['workers']} worker(s): {r['rounds_per_s']:9.0f} "
                             f"rounds/s, efficiency {r['efficiency']:.0%}{bare}, identical "
                             f"{r['identical']}")
    if ok("memory"):
        for g, m in S["memory"]["data"].items():
            lines.append(f"  memory run --games {g}: parent {m['self_mb']} MB, largest worker "
                         f"{m['largest_worker_mb']} MB")
    if ok("cold_start"):
        d = S["cold_start"]["data"]
        lines.append(f"  cold start: {d['fresh_cache_s']} s with an empty numba cache, "
                     f"{d['warm_cache_s']} s warm; 4000 games on 2 workers sharing the compile "
                     f"{d['fresh_cache_2_workers_s']} s; the install's compile "
                     f"{d['install_compile_s']} s, then the README's main command "
                     f"{d['main_command_after_install_s']} s")
    for family in ("emoji", "sparrow"):   # the _rounds_x4 sections
        if ok(f"{family}_rounds"):
            for k, v in S[f"{family}_rounds"]["data"].items():
                lines.append(f"  rounds {family + ' ' + k + ' x4':22s} {v['rounds_per_s']:9.0f} "
                             f"rounds/s median, {v.get('cpu_rounds_per_s', 0):9.0f} of CPU time "
                             f"(one core)")
    lines += target_lines(record)
    for n, e in S.items():
        if not e["ok"]:
            lines.append(f"  {n}: CRASHED: {e['error']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
