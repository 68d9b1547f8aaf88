"""Per-metric comparison rows: the interval, the tests and the verdict of b against a.

Game-agnostic: reads a metric catalogue (:class:`simcore.family.metrics.Metric`) and streamed
:class:`simcore.stats.moments.MomentSums`. Which method gives the interval depends on what the games
can tell (everything about a paired difference is in the games where a and b differ):

- a 0/1 rate of games (the same games counted in both): Tango's score interval, the exact
  McNemar p-value under :data:`simcore.stats.proportions.EXACT_BELOW` differing games (else the score
  test), the two one-sided score tests at +-margin (:mod:`simcore.stats.proportions`); valid at every
  count of differing games, zero included. From independent games: Newcombe's interval.
- any other metric (rates of rounds or wins, shares out of 6, means): the delta method on the
  per-game sums (:func:`simcore.stats.moments.difference`) with Student's t on K - 1 degrees of freedom,
  K the games that differ (its variance is estimated from them), and no interval, test or
  verdict below :data:`FLOOR` differing games (``too few differing games``, with the count and
  an exact upper bound on the share of games that differ; ``identical`` when none did). For a
  rate, K is the smaller of the games whose numerator differs and those whose complement
  (denominator - numerator) differs: both carry its variance.

A rate below :data:`RARE` in both variants is also compared as a ratio (b / a - 1, delta method
on the log scale); a metric whose margin is relative is tested for equivalence on that scale.
A metric with a fair value also gets the change in its distance from fair.

Holm's adjustment runs over the tests that can reject: a 0/1 rate on K <= 5 differing games has
an exact p-value of at least 2^(1-K) > 0.05 whatever happens, so it is left out of the family
(Tarone 1990) instead of diluting it.
"""

from __future__ import annotations

import math

from simcore.stats.luck import is_corrected, plain
from simcore.stats.moments import combination_se, difference, holm, log_ratio, ratio
from simcore.stats.summary import metric_summary
from simcore.stats.proportions import (discordant_upper, mcnemar_exact_p, newcombe_equivalence_p, newcombe_interval, paired_equivalence_p, paired_p, paired_score_interval)

FLOOR = 10     # differing games (each of numerator and complement) before a delta-method verdict
RARE = 0.05    # a rate below this in either variant is also shown as a ratio
COMMON_MARGIN = 0.01   # the absolute margin (1 pp) of a relative-margin share that is not rare


def _r(x, nd=6):
    return None if x is None else round(float(x), nd)


def _unit_weight(s, c, x: int, y: int):
    """w when every game's denominator is 0 or w and its numerator 0 or the denominator (a 0/1
    outcome counted w times, as a share out of 6 without ties); else None."""
    if s[y] == 0:
        return None
    w, rem = divmod(int(c[y, y]), int(s[y]))
    if rem or w < 1 or c[x, x] != w * s[x] or c[x, y] != w * s[x]:
        return None
    return w


def binary_table(sums, j: int, a: int, b: int):
    """(only_a, only_b, games) when metric ``j`` is a 0/1 outcome per game (possibly counted w
    times) with the same denominator in both variants (every game counts in both, or in
    neither); else None."""
    s, c = sums.s[j], sums.c[j]
    xa, ya, xb, yb = 2 * a, 2 * a + 1, 2 * b, 2 * b + 1
    w = _unit_weight(s, c, xa, ya)
    if w is None or _unit_weight(s, c, xb, yb) != w:
        return None
    if not (c[ya, yb] == c[ya, ya] == c[yb, yb]) or s[ya] != s[yb]:
        return None         # the variants count different games
    both = int(c[xa, xb]) // (w * w)
    return int(s[xa]) // w - both, int(s[xb]) // w - both, int(s[ya]) // w


def binary_counts(sums, j: int, v: int):
    """(successes, games) when metric ``j`` of variant ``v`` is a 0/1 outcome per game
    (possibly counted w times); else None."""
    s, c = sums.s[j], sums.c[j]
    w = _unit_weight(s, c, 2 * v, 2 * v + 1)
    if w is None:
        return None
    return int(s[2 * v]) // w, int(s[2 * v + 1]) // w


def differing_games(sums, metric, j: int, a: int, b: int):
    """(K, counts) of a paired comparison from the streamed counts (None when not streamed)."""
    if sums.g is None:
        return None, None
    g = sums.g[j]
    up = [int(g[q, a, b]) for q in range(3)]      # b above a
    down = [int(g[q, b, a]) for q in range(3)]
    num, comp = up[0] + down[0], up[1] + down[1]
    k = min(num, comp) if metric.is_rate else num
    counts = {"games": k, "numerator": num, "b_higher": up[0], "a_higher": down[0]}
    if metric.is_rate:
        counts["complement"] = comp
    return k, counts


def _t(alpha: float, df):
    from scipy.special import stdtrit            # scipy.stats' t.ppf, bit for bit
    from simcore.stats.moments import _norm_ppf
    return _norm_ppf(1 - alpha / 2) if df is None else float(stdtrit(df, 1 - alpha / 2))


def _sf(x: float, df) -> float:
    from scipy.special import stdtr            # scipy.stats' t.sf, bit for bit
    from simcore.stats.moments import _norm_sf
    return _norm_sf(x) if df is None else float(stdtr(df, -x))


def _blank(metric, name, a, b, ra, rb, margin, relative) -> dict:
    return {"metric": name, "a_index": a, "b_index": b, "a": _r(ra.value), "b": _r(rb.value),
            "diff": None, "ci": [None, None], "p": None, "p_adj": None, "p_equivalence": None,
            "p_equivalence_adj": None, "margin": margin, "margin_relative": relative,
            "verdict": "not tested", "se": None, "se_independent": None, "narrowing": None,
            "correlation": None, "per": metric.per, "unit": metric.diff_unit,
            "negligible": False, "method": None, "differing": None, "differing_bound": None,
            "relative": None, "fair": None, "testable": False, "luck_narrowing": None}


def compare_rows(catalogue, sums, pairs, metrics=None, margins=None, alpha=0.05,
                 paired=True, n_seats=None) -> list:
    """One row per (variant pair, metric), Holm-adjusted across all rows that can reject.

    ``pairs``: list of (a, b) variant indices; ``metrics``: names (default all); ``margins``:
    {name: (margin, relative)} overriding the catalogue's; ``n_seats``: the game's seats (for
    fair values of 1/n).
    """
    names = metrics or [m.name for m in catalogue]
    index = {m.name: j for j, m in enumerate(catalogue)}
    margins = margins or {}
    rows = []
    own = {}   # (metric, variant) -> its own interval: a sweep's base is in every pair

    def own_ci(j, v):
        if (j, v) not in own:
            own[j, v] = metric_summary(catalogue[j], sums, j, v)["ci"]
        return list(own[j, v])   # a row of its own (nothing shares it)
    for a, b in pairs:
        for name in names:
            j = index[name]
            row = _row(catalogue[j], name, sums, j, a, b, paired, alpha, margins.get(name),
                       n_seats)
            # each variant's own value carries its interval too (run's: stats.summary)
            row["a_ci"], row["b_ci"] = own_ci(j, a), own_ci(j, b)
            rows.append(row)
    p_adj = holm([r["p"] if r["testable"] else None for r in rows])
    e_adj = holm([r["p_equivalence"] for r in rows])
    for r, pa, ea in zip(rows, p_adj, e_adj):
        if r["p"] is None and r["p_equivalence"] is None:
            continue
        r["p_adj"], r["p_equivalence_adj"] = _r(pa, 8), _r(ea, 8)
        different = pa is not None and pa < alpha
        equivalent = ea is not None and ea < alpha
        r["verdict"] = "different" if different else "equivalent" if equivalent else "inconclusive"
        # A detected change that is also inside the margin matters to nobody: say so.
        r["negligible"] = different and equivalent
        r["p"], r["p_equivalence"] = _r(r["p"], 8), _r(r["p_equivalence"], 8)
    for r in rows:
        del r["testable"]
    return rows


def difference_row(metric, sums, j: int, a: int, b: int, alpha: float = 0.05,
                   n_seats=None) -> dict:
    """:func:`compare_rows`' row of one metric, b against a on the same games, alone (no Holm
    adjustment, so no verdict beyond the row's own): its ``diff``, its interval ``ci`` by the
    method compare uses ([None, None] with ``verdict`` "too few differing games" or "identical"
    below :data:`FLOOR` differing games) and ``differing``."""
    row = _row(metric, metric.name, sums, j, a, b, True, alpha, None, n_seats)
    del row["testable"]
    return row


def _row(m, name, sums, j, a, b, paired, alpha, margin_given, n_seats) -> dict:
    ra, rb = ratio(sums, j, a), ratio(sums, j, b)
    margin, relative = margin_given or (m.margin, m.margin_relative)
    if relative and margin_given is None and ra.value is not None and rb.value is not None \
            and min(ra.value, rb.value) >= RARE:
        # the catalogue's relative margin is for rare shares: 20% of a common one (89% of
        # wins with riichi) would call +-18 pp equivalent
        margin, relative = COMMON_MARGIN, False
    row = _blank(m, name, a, b, ra, rb, margin, relative)
    if (ra.value is None) != (rb.value is None):
        row["verdict"] = f"not defined in {'a' if ra.value is None else 'b'}"
        return row      # e.g. no wins at all under one variant: nothing to compare per win
    if ra.value is None or (ra.num == 0 and rb.num == 0):
        row["verdict"] = "never happened"
        return row
    d = difference(sums, j, a, b, paired)
    row.update(diff=_r(d.diff), se=_r(d.se, 9), se_independent=_r(d.se_independent, 9),
               correlation=_r(d.correlation, 4))
    # a luck-corrected metric is no longer 0/1 per game: the delta method below
    binary = m.kind == "game_rate" and not is_corrected(sums, j)
    table = binary_table(sums, j, a, b) if binary and paired else None
    counts = ((binary_counts(sums, j, a), binary_counts(sums, j, b))
              if binary and not paired else (None, None))
    z = _t(alpha, None)
    df, k = None, None
    if table is not None:
        only_a, only_b, n = table
        k = only_a + only_b
        row["differing"] = {"games": k, "b_higher": only_b, "a_higher": only_a}
        lo, hi = paired_score_interval(only_a, only_b, n, z)
        p, method = paired_p(only_a, only_b, n)
        row.update(ci=[_r(lo), _r(hi)], p=p, method=f"score (Tango), {method}",
                   testable=k >= 25 or mcnemar_exact_p(0, k) < alpha)
        if not relative:
            row["p_equivalence"] = paired_equivalence_p(only_a, only_b, n, margin)
        df = k - 1 if k > 1 else None
    elif counts[0] is not None and counts[1] is not None:
        (xa, na), (xb, nb) = counts
        lo, hi = newcombe_interval(xa, na, xb, nb, z)
        row.update(ci=[_r(lo), _r(hi)], p=_pooled_p(xa, na, xb, nb), method="Newcombe score",
                   testable=True)
        if not relative:
            row["p_equivalence"] = newcombe_equivalence_p(xa, na, xb, nb, margin)
    else:
        if paired:
            k, row["differing"] = differing_games(sums, m, j, a, b)
        elif m.is_rate:
            pa, pb = ratio(plain(sums), j, a), ratio(plain(sums), j, b)   # counts of events
            events = pa.num + pb.num
            k = min(events, pa.den - pa.num + pb.den - pb.num)
            row["differing"] = {"games": None, "events_counted": k, "events": events}
        if k is not None and k < FLOOR or d.se is None or d.se == 0:
            n = sums.n
            same = paired and d.diff == 0 and not d.se
            row["verdict"] = "identical" if same else "too few differing games"
            if paired and k is not None:
                row["differing_bound"] = _r(discordant_upper(k, n))
            _relative(row, m, sums, j, a, b, paired, alpha, None, k)
            return row
        df = k - 1 if paired and k is not None else None
        q = _t(alpha, df)
        row.update(ci=[_r(d.diff - q * d.se), _r(d.diff + q * d.se)],
                   p=min(1.0, 2 * _sf(abs(d.diff) / d.se, df)),
                   method="delta, t" if df is not None else "delta, z", testable=True)
        if not relative:
            row["p_equivalence"] = max(_sf((d.diff + margin) / d.se, df),
                                       _sf((margin - d.diff) / d.se, df))
    if is_corrected(sums, j) and d.se:
        se_plain = difference(plain(sums), j, a, b, paired).se
        row["luck_narrowing"] = round(se_plain / d.se, 3) if se_plain else None
    if (k is None or k >= FLOOR) and ra.se and rb.se and d.se and d.narrowing is not None \
            and not math.isinf(d.narrowing):
        row["narrowing"] = round(d.narrowing, 3)
    _relative(row, m, sums, j, a, b, paired, alpha, df, k)
    _fairness(row, m, sums, j, a, b, paired, alpha, df, n_seats)
    return row


def _pooled_p(xa, na, xb, nb) -> float:
    """Two-sided p of the pooled score test of equal rates in independent games."""
    from simcore.stats.moments import _norm_sf
    p = (xa + xb) / (na + nb)
    var = p * (1 - p) * (1 / na + 1 / nb)
    if var <= 0:
        return 1.0
    return min(1.0, 2 * _norm_sf(abs(xb / nb - xa / na) / math.sqrt(var)))


def _relative(row, m, sums, j, a, b, paired, alpha, df, k) -> None:
    """The ratio b / a - 1 of a rare rate, and the equivalence test of a relative margin."""
    va, vb = row["a"], row["b"]
    enough = k is None or k >= FLOOR
    if not m.is_rate and not row["margin_relative"]:
        return
    rare = m.is_rate and min(va, vb) < RARE
    if va == 0:
        return          # no ratio to a's value: the difference says it all
    lr, se = log_ratio(sums, j, a, b, paired)
    if rare or row["margin_relative"]:
        ci = [None, None]
        if lr is not None and se and enough:
            q = _t(alpha, df)
            ci = [_r(math.exp(lr - q * se) - 1), _r(math.exp(lr + q * se) - 1)]
        row["relative"] = {"value": _r(vb / va - 1), "ci": ci}
    if row["margin_relative"] and enough and row["ci"][0] is not None:
        if vb == 0 or lr is None or not se:
            row["p_equivalence"] = 1.0
        else:
            lm = math.log1p(row["margin"])
            row["p_equivalence"] = max(_sf((lr + lm) / se, df), _sf((lm - lr) / se, df))


def _fairness(row, m, sums, j, a, b, paired, alpha, df, n_seats) -> None:
    """|b - fair| - |a - fair| with its 95% interval, and whether b is closer to fair."""
    fair = m.fair(n_seats)
    if fair is None or row["ci"][0] is None:
        return
    va, vb = row["a"], row["b"]
    sa, sb = _sign(va - fair), _sign(vb - fair)
    sa, sb = sa or sb or 1, sb or sa or 1
    change = abs(vb - fair) - abs(va - fair)
    if sa == sb:        # one side of fair: the difference's own interval, signed
        lo, hi = row["ci"]
        ci = [lo, hi] if sa > 0 else [-hi, -lo]
    else:
        se = combination_se(sums, j, a, b, -sa, sb, paired)
        q = _t(alpha, df)
        ci = [change - q * se, change + q * se] if se else [None, None]
        # across fair the distance cannot change by more than b - a does: clip to the
        # difference's own interval's reach
        reach = max(abs(row["ci"][0]), abs(row["ci"][1]))
        if ci[0] is not None:
            ci = [max(ci[0], -reach), min(ci[1], reach)]
    words = ("closer to fair" if ci[1] is not None and ci[1] < 0 else
             "further from fair" if ci[0] is not None and ci[0] > 0 else
             "no detectable change in the distance from fair")
    row["fair"] = {"value": _r(fair), "distance_change": _r(change),
                   "ci": [_r(ci[0]), _r(ci[1])], "verdict": words}


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)
