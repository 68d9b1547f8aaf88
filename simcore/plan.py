"""Planning a run or a comparison: games needed for a given power, from a pilot (any family).

A short pilot estimates the standard error of the metric (of the paired difference, for two
variants) and the speed of this machine; the standard error shrinks as 1 / sqrt(games), so the
games needed for a two-sided z-test at ``alpha`` to detect a true difference ``detect`` with
probability ``power`` follow: n = n_pilot (z_{1-alpha/2} + z_power)^2 se^2 / detect^2.
"""

from __future__ import annotations

from .stats import Z95, difference, games_for_power, ratio
from .study import run_study

PILOT_CHUNK = 1000


def plan_games(family, scenarios, metric: str, detect: float, power: float, alpha: float,
               pilot_games: int, seed: int, workers: int, progress=None, notice=None) -> dict:
    """Run the pilot and return the plan as plain data (see :func:`plan_text`)."""
    j = [m.name for m in family.CATALOGUE].index(metric)
    times = []

    def tick(done, planned, res=None):
        import time
        times.append((time.perf_counter(), done))
        if progress:
            progress(done, planned)

    # A short warm-up outside the timing: loading compiled kernels and building tables, in this
    # process (local workers inherit it); on a cold cache, unless one worker was asked for, it
    # compiles them in two local worker processes (simcore.compile_plan) and the pilot's workers
    # load them from the cache. The pilot runs on the selected backend.
    from .parallel import ChunkRunner
    run_study(family, scenarios, seed, 50, workers, runner=ChunkRunner)
    res = run_study(family, scenarios, seed, pilot_games, workers, progress=tick, notice=notice,
                    chunk_games=PILOT_CHUNK)
    # Speed from the first finished chunk to the last (worker start-up excluded).
    (t0, g0), (t1, g1) = times[0], times[-1]
    rate = (g1 - g0) / (t1 - t0) if g1 > g0 and t1 > t0 else res.games / res.seconds
    if len(scenarios) == 1:
        r = ratio(res.sums, j)
        se, value = r.se, {"a": r.value}
        se_independent = None
    else:
        d = difference(res.sums, j, 0, 1)
        se, value = d.se, {"a": d.a.value, "b": d.b.value, "diff": d.diff}
        se_independent = d.se_independent
    n_needed = games_for_power(se, res.games, detect, alpha, power) if se else res.games
    out = {"variants": res.names, "metric": metric, "detect": detect, "power": power,
           "alpha": alpha, "pilot_games": res.games, "pilot": value,
           "pilot_half_width": Z95 * se if se is not None else None,
           "games_needed": n_needed, "workers": res.workers,
           "games_per_second": round(rate, 1), "seconds_needed": round(n_needed / rate, 1)}
    if se_independent:
        out["games_needed_independent"] = games_for_power(se_independent, res.games, detect,
                                                          alpha, power)
    return out


def _duration(s: float) -> str:
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def plan_text(p: dict) -> str:
    what = " vs ".join(p["variants"])
    kind = "a paired comparison" if len(p["variants"]) == 2 else "a run"
    lines = [f"plan for {kind} of {what}, metric {p['metric']}:",
             f"  pilot: {p['pilot_games']} games, "
             + ", ".join(f"{k} {v:.5f}" for k, v in p["pilot"].items() if v is not None)
             + (f", 95% half-width {p['pilot_half_width']:.5f}" if p["pilot_half_width"] else ""),
             f"  to detect a true difference of {p['detect']} with power {p['power']} at "
             f"alpha = {p['alpha']} (two-sided): {p['games_needed']:,} games"
             + (" per variant" if len(p["variants"]) == 2 else ""),
             f"  at the measured {p['games_per_second']:,.0f} games/s on {p['workers']} "
             f"worker(s): about {_duration(p['seconds_needed'])}"]
    if "games_needed_independent" in p:
        lines.append(f"  (independent runs would need {p['games_needed_independent']:,} games "
                     f"each: the pairing saves "
                     f"{p['games_needed_independent'] / max(p['games_needed'], 1):.1f}x)")
    lines.append("  Note: a test over many metrics at once (compare's Holm adjustment) needs "
                 "more; use --metrics to compare only the ones that matter.")
    return "\n".join(lines)
