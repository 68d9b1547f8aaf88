"""Planning a run or a comparison: games needed for a given power, from a pilot (any family).

A short pilot estimates the standard error of the metric (of the paired difference, for two
variants) and the speed of this machine; the standard error shrinks as 1 / sqrt(games), so the
games needed for a two-sided z-test at ``alpha`` to detect a true difference ``detect`` with
probability ``power`` follow: n = n_pilot (z_{1-alpha/2} + z_power)^2 se^2 / detect^2.

``compare`` tests every metric with data and adjusts by Holm's method, whose first step tests
the smallest p-value at alpha / m: a plan for a comparison is also sized at alpha / m for the m
metrics the pilot's compare tests (what the default compare needs), and both figures are given.
For equivalence (``--equivalence M``): games until the two one-sided tests conclude
``equivalent`` within +-M with the given power when the true difference is 0 (Chow, Shao &
Wang, Sample Size Calculations in Clinical Research, 2008, sec. 3.2):
n = n_pilot (z_{1-alpha} + z_{1-(1-power)/2})^2 se^2 / M^2.
"""

from __future__ import annotations

import math

from simcore.errors import InputError
from simcore.stats.moments import Z95, difference, games_for_equivalence, games_for_power, ratio
from simcore.studies.study import run_study

PILOT_CHUNK = 1000


def parse_size(text, metric, option: str) -> float:
    """A difference or margin for ``metric`` from ``--detect``/``--equivalence``: a number in
    the metric's unit (a rate's as a share: 0.005), or ``0.5pp`` for a rate; a rate's must lie
    in (0, 1)."""
    raw = str(text).strip()
    scale = 1.0
    if raw.endswith("pp"):
        if not metric.is_rate:
            raise InputError(f"{option} {raw}: pp (percentage points) is for rates; "
                             f"{metric.name} is in {metric.unit}")
        raw, scale = raw[:-2].strip(), 0.01
    try:
        value = float(raw) * scale
    except ValueError:
        raise InputError(f"{option} {str(text)[:40]!r}: not a number (e.g. 0.005, or 0.5pp "
                         f"for a rate)") from None
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"{option} {str(text)[:40]}: must be a positive number")
    if value < 1e-6:
        raise InputError(f"{option} {str(text)[:40]}: below 1e-6 (no run could resolve it)")
    if value > 1e15:   # a QA trial: 1e300 planned "0 games"
        raise InputError(f"{option} {str(text)[:40]}: beyond any difference a metric shows "
                         f"(at most 1e15)")
    if metric.is_rate and value >= 1:
        raise InputError(f"{option} {str(text)[:40]}: {metric.name} is a rate: a difference "
                         f"lies in (0, 1) (0.01 = 1 percentage point, or write 1pp)")
    return value


def _tested_metrics(family, scenarios, sums, alpha) -> int:
    """How many metrics the pilot's compare tests (what Holm's adjustment counts)."""
    from simcore.studies.compare import pair_metric_names, scenario_pair_rows
    a, b = scenarios
    rows, _ = scenario_pair_rows(family, sums, a, b, pair_metric_names(family, None, a, b),
                                 alpha=alpha)
    return max(1, sum(r["p"] is not None for r in rows))


def plan_games(family, scenarios, metric: str, detect: float | None, power: float,
               alpha: float, pilot_games: int, seed: int, workers: int, progress=None,
               notice=None, equivalence: float | None = None) -> dict:
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
    # compiles them in two local worker processes (simcore.nb.compile_plan) and the pilot's workers
    # load them from the cache. The pilot runs on the selected backend.
    from simcore.runners.local import ChunkRunner
    run_study(family, scenarios, seed, 50, workers, runner=ChunkRunner)
    res = run_study(family, scenarios, seed, pilot_games, workers, progress=tick, notice=notice,
                    chunk_games=PILOT_CHUNK)
    # Speed from the first finished chunk to the last (worker start-up excluded), where that
    # window is most of the pilot: with as many chunks as workers they finish together, and a
    # window of a few milliseconds gave millions of games/s.
    (t0, g0), (t1, g1) = times[0], times[-1]
    window = g1 > g0 and t1 - t0 >= 0.5 * res.seconds
    rate = (g1 - g0) / (t1 - t0) if window else res.games / res.seconds
    if len(scenarios) == 1:
        r = ratio(res.sums, j)
        se, value = r.se, {"a": r.value}
        se_independent = None
    else:
        d = difference(res.sums, j, 0, 1)
        se, value = d.se, {"a": d.a.value, "b": d.b.value, "diff": d.diff}
        se_independent = d.se_independent
    size = detect if equivalence is None else equivalence
    from simcore.stats.verdicts import binary_table
    table = binary_table(res.sums, j, 0, 1) if len(scenarios) == 2 else None

    def need(s_, a_):
        if equivalence is not None:
            return games_for_equivalence(s_, res.games, size, a_, power)
        n = games_for_power(s_, res.games, size, a_, power, table is not None)
        if table is not None:     # few differing games: the exact test's own power
            from simcore.stats.proportions import paired_binary_games
            n = paired_binary_games((table[0] + table[1]) / table[2], size, a_, power, n)
        return n
    n_single = need(se, alpha) if se else res.games
    out = {"variants": res.names, "metric": metric, "detect": detect,
           "equivalence": equivalence, "power": power, "alpha": alpha,
           "pilot_games": res.games, "pilot": value,
           "pilot_half_width": Z95 * se if se is not None else None,
           "games_needed_one_metric": n_single, "workers": res.workers,
           "games_per_second": round(rate, 1)}
    n_needed = n_single
    if len(scenarios) == 2:
        m = _tested_metrics(family, scenarios, res.sums, alpha)
        n_holm = need(se, alpha / m) if se else res.games
        out.update(metrics_tested=m, alpha_holm=alpha / m, games_needed_holm=n_holm)
        n_needed = n_holm
        if se_independent:
            out["games_needed_independent"] = need(se_independent, alpha / m)
    out["games_needed"] = n_needed
    out["seconds_needed"] = round(n_needed / rate, 1)
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
    unit = p.get("unit", "")

    def size(x):
        return f"{100 * x:g} pp" if p.get("is_rate") else f"{x:g}{unit}"
    goal = (f"to detect a true difference of {size(p['detect'])} with power {p['power']}"
            if p.get("equivalence") is None else
            f"to conclude `equivalent` within ±{size(p['equivalence'])} with power "
            f"{p['power']} (true difference 0)")
    per = " per variant" if len(p["variants"]) == 2 else ""
    def shown(x, width=False):
        """A rate's level in %, a width (a difference) in pp, as everywhere else."""
        if p.get("is_rate"):
            return f"{100 * x:.2f}{' pp' if width else '%'}"
        return f"{x:.4f}"
    lines = [f"plan for {kind} of {what}, metric {p['metric']}:",
             f"  pilot: {p['pilot_games']} games, "
             + ", ".join(f"{k} {shown(v, k == 'diff')}" for k, v in p["pilot"].items()
                         if v is not None)
             + (f", 95% half-width {shown(p['pilot_half_width'], True)}"
                if p["pilot_half_width"] else "")]
    if not p["pilot_half_width"]:
        lines.append(f"  the pilot's games never varied (or never differed) on {p['metric']}: "
                     f"no standard error to size from; the figures below are the pilot's own "
                     f"size, not a plan (a longer --pilot-games, or another --metric)")
    if "games_needed_holm" in p:
        lines += [f"  {goal}:",
                  f"    as compare tests it (Holm over the {p['metrics_tested']} metrics the "
                  f"pilot's compare tests, more at more games: alpha {p['alpha']} / "
                  f"{p['metrics_tested']} = {p['alpha_holm']:.4g}): "
                  f"{p['games_needed_holm']:,} games{per}",
                  f"    this metric alone (compare --metrics {p['metric']}, alpha "
                  f"{p['alpha']}): {p['games_needed_one_metric']:,} games{per}"]
    else:
        lines.append(f"  {goal} at alpha = {p['alpha']}: {p['games_needed']:,} games")
    lines.append(f"  at the measured {p['games_per_second']:,.0f} games/s on {p['workers']} "
                 f"worker(s): about {_duration(p['seconds_needed'])}"
                 + (" (the Holm figure)" if "games_needed_holm" in p else ""))
    if "games_needed_independent" in p and p["pilot_half_width"]:
        lines.append(f"  (independent runs would need {p['games_needed_independent']:,} games "
                     f"each: the pairing saves "
                     f"{p['games_needed_independent'] / max(p['games_needed'], 1):.1f}x)")
    return "\n".join(lines)
