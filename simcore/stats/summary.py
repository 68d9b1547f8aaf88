"""One variant's metrics with their 95% intervals, from streamed sums (no game in here).

Wilson's interval for a game-level rate (a binomial count of games); for a rate of rounds or
wins (clustered in games) Wilson's on the effective count the delta method's variance gives
(:func:`clustered_wilson`); the delta method otherwise, and on the luck-corrected numerators
where a family has them (:mod:`simcore.stats.luck`); and a study's stop rule in words.
"""

from __future__ import annotations

from simcore.stats.luck import is_corrected, narrowing_of, plain
from simcore.stats.moments import Ratio, rate_bounds, ratio, ratio_ci, wilson


def _r(x, nd=6):
    return None if x is None else round(float(x), nd)


def metric_summary(metric, sums, j: int, v: int = 0, n_seats: int | None = None) -> dict:
    """Value and 95% interval of one metric: Wilson for a game-level rate (a binomial count of
    games), Wilson on the effective count for a rate of rounds or wins (clustered in games), the
    delta method otherwise."""
    r = ratio(sums, j, v)
    lucky = is_corrected(sums, j)
    if metric.kind == "game_rate" and not lucky:
        out = wilson(*_wilson_counts(sums, j, v))
    elif metric.is_rate and r.den and not lucky:
        out = clustered_wilson(r)
    elif metric.is_rate and r.den and r.num in (0, r.den):
        # none (or all) of the rounds or wins: the delta method's interval would have zero
        # width; Wilson's on the counted rounds or wins does not
        out = wilson(r.num, r.den)
    else:
        lo, hi = ratio_ci(r)
        if metric.is_rate and lo is not None:
            lo, hi = max(0.0, lo), min(1.0, hi)
        out = {"value": _r(r.value), "ci": [_r(lo), _r(hi)], "n": r.den}
    out["per"] = metric.per
    if lucky:   # the delta method on the luck-corrected numerators (simcore.stats.luck)
        out["luck_narrowing"] = round(narrowing_of(sums, j), 3)
        if metric.kind == "game_rate":
            out["n"] = _wilson_counts(plain(sums), j, v)[1]   # games, as Wilson's would say
    fair = metric.fair(n_seats)
    if fair is not None and out["value"] is not None:
        out["reference"] = round(fair, 6)
        out["contains_reference"] = out["ci"][0] <= fair <= out["ci"][1]
    return out


def clustered_wilson(r: Ratio) -> dict:
    """A rate of rounds or wins ``r`` with its interval (:func:`simcore.stats.moments.rate_bounds`:
    Wilson's on the effective count)."""
    lo, hi = rate_bounds(r.value, r.se, r.den)
    return {"value": _r(r.value), "ci": [_r(lo), _r(hi)], "n": r.den}


def _wilson_counts(sums, j: int, v: int = 0):
    """(successes, games) for the Wilson interval of game-level rate ``j``: the plain counts when
    every game's denominator is 0 or 1; otherwise (a share out of 6 per game, a tournament's
    seat shares) the effective game count (sum y)^2 / sum y^2 and the rate times it."""
    num, den = int(sums.s[j, 2 * v]), int(sums.s[j, 2 * v + 1])
    den_sq = int(sums.c[j, 2 * v + 1, 2 * v + 1])
    if den_sq == den or den == 0:
        return num, den
    n_eff = den * den / den_sq
    if abs(n_eff - round(n_eff)) < 1e-9:
        n_eff = int(round(n_eff))
    return num / den * n_eff, n_eff


def summarize_run(catalogue, sums, v: int = 0, n_seats: int | None = None) -> dict:
    """``{metric name: {"value", "ci", "n", "per"[, "reference", "contains_reference"]}}``
    (the reference: the fair value, for ``n_seats`` seats where it is 1/n)."""
    return {m.name: metric_summary(m, sums, j, v, n_seats) for j, m in enumerate(catalogue)}


def target_line(reached, difference_of=False) -> str:
    """A study's stop rule in words: whether the target half-width was reached."""
    what = "the difference in " if difference_of else ""
    m = reached["metric"]
    if reached.get("no_variation"):
        return (f"target NOT reached: {what}{m} never varied in {reached['games']} games (a "
                f"half-width of 0 is no interval); pick another --target-metric.")
    if reached["reached"]:
        return (f"target reached: {what}{m} has a 95% half-width of {reached['half_width']:.5f} "
                f"<= {reached['target']} after {reached['games']} games.")
    return (f"target NOT reached: {what}{m} has a 95% half-width of {reached['half_width']:.5f} "
            f"> {reached['target']} after {reached['games']} games (--max-games "
            f"{reached['max_games']}).")
