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

Games needed are proportional to the per-game variance the pilot estimates, and that estimate
has its own error: each figure carries a 95% interval from the spread of the variance over the
pilot's chunks (at least 8 of them; batch means, a t interval on their mean), the same share of
the figure at either end.
"""

from __future__ import annotations

import math

from simcore.errors import InputError
from simcore.stats.moments import Z95, difference, games_for_equivalence, games_for_power, ratio
from simcore.studies.study import run_study

PILOT_CHUNK = 1000
PILOT_MIN_CHUNKS = 8   # the pilot's chunks whose variances give its figures' interval


def pilot_chunk(pilot_games: int) -> int:
    """Games per chunk of the pilot: 1,000, fewer for a pilot under 8,000 games, so that it
    has at least 8 chunks (the sums, and so the pilot's figures, do not depend on it)."""
    return max(1, min(PILOT_CHUNK, pilot_games // PILOT_MIN_CHUNKS))


def per_game_variance(sums, j: int, variants: int) -> tuple | None:
    """``(games, variance)``: the per-game variance of metric ``j`` (its difference, for two
    variants) in ``sums``, n se^2 (what the games needed are proportional to), times
    n / (n - 1) (the delta method's own is the biased one, 1/n low: 2% at a chunk of 50 games);
    None where it is undefined."""
    est = ratio(sums, j) if variants == 1 else difference(sums, j, 0, 1)
    if est.se is None or sums.n < 2:
        return None
    return sums.n, sums.n * est.se ** 2 * sums.n / (sums.n - 1)


def variance_share_bounds(chunk_variances, pilot_variance: float) -> tuple | None:
    """The 95% interval of the per-game variance, as shares of ``pilot_variance`` (the whole
    pilot's estimate), from the variances of the pilot's chunks (``(games, variance)`` pairs:
    batch means, Student's t on their games-weighted mean, K - 1 degrees of freedom; about
    +-3% for 8 chunks of 1,000 games of a 0/1 metric). None with fewer than 3 chunks or no
    variance. ``tests/harness/test_plan.py`` checks its coverage."""
    vs = [v for v in chunk_variances if v is not None]
    k = len(vs)
    if k < 3 or not pilot_variance or pilot_variance <= 0:
        return None
    games = sum(n for n, _ in vs)
    mean = sum(n * v for n, v in vs) / games
    from scipy.special import stdtrit
    sd = math.sqrt(sum((v - mean) ** 2 for _, v in vs) / (k - 1))
    half = float(stdtrit(k - 1, 0.975)) * sd / math.sqrt(k)
    return max(0.0, mean - half) / pilot_variance, (mean + half) / pilot_variance


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
    chunk_variances = []

    def tick(done, planned, res=None):
        import time
        times.append((time.perf_counter(), done))
        if res is not None and getattr(res, "sums", None) is not None:
            chunk_variances.append(per_game_variance(res.sums, j, len(scenarios)))
        if progress:
            progress(done, planned)

    # A short warm-up outside the timing: loading compiled kernels and building tables, in this
    # process (local workers inherit it); on a cold cache, unless one worker was asked for, it
    # compiles them in two local worker processes (simcore.nb.compile_plan) and the pilot's workers
    # load them from the cache. The pilot runs on the selected backend.
    from simcore.runners.local import ChunkRunner
    run_study(family, scenarios, seed, 50, workers, runner=ChunkRunner)
    res = run_study(family, scenarios, seed, pilot_games, workers, progress=tick, notice=notice,
                    chunk_games=pilot_chunk(pilot_games))
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
    # the chunks' variances are of the plain sums: their interval is taken as shares of the
    # plain pilot's, and those shares applied to the figures (luck-corrected, where they are)
    raw = getattr(res.sums, "raw", None)
    plain = per_game_variance(raw if raw is not None else res.sums, j, len(scenarios))
    share = variance_share_bounds(chunk_variances, plain[1]) if se and plain else None
    out["pilot_chunks"] = len(chunk_variances)
    out["variance_share_ci"] = None if share is None else [round(share[0], 4), round(share[1], 4)]
    for key in ("games_needed", "games_needed_one_metric", "games_needed_holm",
                "games_needed_independent", "seconds_needed"):
        if key in out:
            out[key + "_ci"] = (None if share is None else
                                [_scaled(out[key], share[0], key), _scaled(out[key], share[1], key)])
    return out


def _scaled(x, share, key):
    """A figure proportional to the variance, at ``share`` of the pilot's variance."""
    return round(x * share, 1) if key.startswith("seconds") else int(math.ceil(x * share))


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
    def games(key, each=""):
        ci = p.get(key + "_ci")
        return f"{p[key]:,} games{each}" + ("" if not ci else f" [{ci[0]:,}, {ci[1]:,}]")
    if "games_needed_holm" in p:
        lines += [f"  {goal}:",
                  f"    as compare tests it (Holm over the {p['metrics_tested']} metrics the "
                  f"pilot's compare tests, more at more games: alpha {p['alpha']} / "
                  f"{p['metrics_tested']} = {p['alpha_holm']:.4g}): "
                  f"{games('games_needed_holm', per)}",
                  f"    this metric alone (compare --metrics {p['metric']}, alpha "
                  f"{p['alpha']}): {games('games_needed_one_metric', per)}"]
    else:
        lines.append(f"  {goal} at alpha = {p['alpha']}: {games('games_needed')}")
    secs = p.get("seconds_needed_ci")
    lines.append(f"  at the measured {p['games_per_second']:,.0f} games/s on {p['workers']} "
                 f"worker(s): about {_duration(p['seconds_needed'])}"
                 + (f" [{_duration(secs[0])}, {_duration(secs[1])}]" if secs else "")
                 + (" (the Holm figure)" if "games_needed_holm" in p else ""))
    if "games_needed_independent" in p and p["pilot_half_width"]:
        lines.append(f"  (independent runs would need {games('games_needed_independent', ' each')}"
                     f": the pairing saves "
                     f"{p['games_needed_independent'] / max(p['games_needed'], 1):.1f}x)")
    if p.get("variance_share_ci"):
        lo, hi = p["variance_share_ci"]
        lines.append(f"  [95% intervals]: the games needed are proportional to the variance "
                     f"the pilot estimates, known from the spread of its {p['pilot_chunks']} "
                     f"chunks to {100 * (lo - 1):+.1f}% / {100 * (hi - 1):+.1f}%; the time "
                     f"assumes the pilot's speed")
    elif p["pilot_half_width"]:
        lines.append(f"  (no interval on these figures: the pilot had {p.get('pilot_chunks', 0)} "
                     f"chunks with a spread, 3 are needed)")
    return "\n".join(lines)
