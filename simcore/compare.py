"""Summaries, comparisons and sweeps from streamed sums: intervals, tests, verdicts in words.

Game-agnostic: reads a family's metric catalogue (:class:`simcore.metrics.Metric`) and a
:class:`simcore.study.StudyResult`, never the family's records.

A comparison of variant b against variant a, per metric: ``diff = b - a`` with a 95% interval that
uses the pairing (delta method, :func:`simcore.stats.difference`), the z-test's p-value, the
Holm-adjusted p-value across every metric (and, in a sweep, every variant) compared, and a
verdict:

- ``different``: adjusted p < alpha (family-wise error rate alpha across the comparison);
- ``equivalent``: the two one-sided tests against the metric's margin reject at alpha after the
  same Holm adjustment (for one metric: the 90% interval lies inside +-margin);
- ``inconclusive``: neither; more games would tell.

Metrics that never happened in either variant (all numerators 0, or no denominators) are listed
but not tested, so they do not dilute the adjustment; so are, in a paired comparison, metrics on
which no game differed between the variants (``identical``: the normal interval would have zero
width, and declare ``equivalent`` with certainty the games cannot give; the sentence gives the
rule-of-three bound on the share of games that could differ instead).
"""

from __future__ import annotations

import math

from .metrics import by_name
from .stats import difference, holm, ratio, ratio_ci, tost_p, two_sided_p, wilson

VERDICTS = ("different", "equivalent", "inconclusive")


def _r(x, nd=6):
    return None if x is None else round(float(x), nd)


# ---------------------------------------------------------------------------------------------
# One variant
# ---------------------------------------------------------------------------------------------

def metric_summary(metric, sums, j: int, v: int = 0) -> dict:
    """Value and 95% interval of one metric: Wilson for a game-level rate (a binomial count of
    games), the delta method otherwise (rounds and wins are clustered in games)."""
    r = ratio(sums, j, v)
    if metric.kind == "game_rate":
        out = wilson(*_wilson_counts(sums, j, v))
    else:
        lo, hi = ratio_ci(r)
        if metric.is_rate and lo is not None:
            lo, hi = max(0.0, lo), min(1.0, hi)
        out = {"value": _r(r.value), "ci": [_r(lo), _r(hi)], "n": r.den}
    out["per"] = metric.per
    if metric.reference is not None and out["value"] is not None:
        out["reference"] = metric.reference
        out["contains_reference"] = out["ci"][0] <= metric.reference <= out["ci"][1]
    return out


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


def summarize_run(catalogue, sums, v: int = 0) -> dict:
    """``{metric name: {"value", "ci", "n", "per"[, "reference", "contains_reference"]}}``."""
    return {m.name: metric_summary(m, sums, j, v) for j, m in enumerate(catalogue)}


# ---------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------

def parse_margins(items, catalogue) -> dict:
    """``["METRIC=VALUE", ...]`` -> {metric: value}; errors name the bad item."""
    from .errors import InputError

    names = by_name(catalogue)
    out = {}
    for item in items or ():
        key, sep, val = item.partition("=")
        if not sep:
            raise InputError(f"--margin {item}: expected METRIC=VALUE")
        if key not in names:
            raise InputError(f"--margin {item}: unknown metric {key!r}" + _hint(key, names))
        try:
            out[key] = float(val)
        except ValueError:
            raise InputError(f"--margin {item}: {val!r} is not a number") from None
        if not out[key] > 0 or math.isinf(out[key]):
            raise InputError(f"--margin {item}: the margin must be a positive number")
    return out


def select_metrics(spec: str | None, catalogue, option: str = "--metrics") -> list:
    """Metric names from a comma-separated ``--metrics`` value (None: the whole catalogue);
    errors name ``option``."""
    from .errors import InputError

    names = by_name(catalogue)
    if not spec:
        return list(names)
    chosen = [s.strip() for s in spec.split(",") if s.strip()]
    for s in chosen:
        if s not in names:
            raise InputError(f"{option}: unknown metric {s[:60]!r}" + _hint(s, names))
    if not chosen:
        raise InputError(f"{option}: no metric given")
    return list(dict.fromkeys(chosen))


def seats_present(names, n_seats: int) -> list:
    """``names`` less the seat metrics of seats the game does not have (a catalogue covers the
    most seats a family allows; ``seat2_win_share`` means nothing in a 2-player game)."""
    import re
    return [n for n in names
            if all(int(s) < n_seats for s in re.findall(r"seat(\d+)", n))]


def _hint(key, names):
    import difflib
    close = difflib.get_close_matches(key, list(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else " (see `momojan-sim metrics`)"


def compare_rows(catalogue, sums, pairs, metrics=None, margins=None, alpha=0.05,
                 paired=True) -> list:
    """One row per (variant pair, metric), Holm-adjusted across all rows.

    ``pairs``: list of (a, b) variant indices; ``metrics``: names (default all).
    """
    names = metrics or [m.name for m in catalogue]
    index = {m.name: j for j, m in enumerate(catalogue)}
    margins = margins or {}
    from scipy.stats import norm  # here: a run (which needs only select_metrics) starts 1 s sooner
    z = norm.ppf(1 - alpha / 2)
    rows = []
    for a, b in pairs:
        for name in names:
            j = index[name]
            m = catalogue[j]
            d = difference(sums, j, a, b, paired)
            margin = margins.get(name, m.margin)
            row = {"metric": name, "a_index": a, "b_index": b, "a": _r(d.a.value),
                   "b": _r(d.b.value), "diff": _r(d.diff), "ci": [None, None], "p": None,
                   "p_adj": None, "p_equivalence": None, "p_equivalence_adj": None,
                   "margin": margin, "verdict": "not tested", "se": _r(d.se, 9),
                   "se_independent": _r(d.se_independent, 9),
                   "narrowing": None if d.narrowing is None or math.isinf(d.narrowing)
                   else round(d.narrowing, 3),
                   "correlation": _r(d.correlation, 4), "per": m.per, "negligible": False}
            never = d.diff is None or (d.a.num == 0 and d.b.num == 0)
            if not never and paired and d.se == 0 and d.diff == 0:
                # every game gave both variants the same value: a zero-width interval would
                # claim certainty the games cannot give, so no interval, no test, no verdict
                row["verdict"] = "identical"
            elif not never and d.se is not None:
                row["ci"] = [_r(d.diff - z * d.se), _r(d.diff + z * d.se)]
                row["p"] = two_sided_p(d.diff, d.se)
                row["p_equivalence"] = tost_p(d.diff, d.se, margin)
            elif never:
                row["verdict"] = "never happened"
            rows.append(row)
    p_adj = holm([r["p"] for r in rows])
    e_adj = holm([r["p_equivalence"] for r in rows])
    for r, pa, ea in zip(rows, p_adj, e_adj):
        if pa is None:
            continue
        r["p_adj"], r["p_equivalence_adj"] = pa, ea
        r["verdict"] = ("different" if pa < alpha else "equivalent" if ea < alpha
                        else "inconclusive")
        # A detected change that is also inside the margin matters to nobody: say so.
        r["negligible"] = pa < alpha and ea < alpha
        r["p"], r["p_adj"] = _r(r["p"], 8), _r(pa, 8)
        r["p_equivalence"], r["p_equivalence_adj"] = _r(r["p_equivalence"], 8), _r(ea, 8)
    return rows


def comparison_json(result, rows, alpha) -> dict:
    a, b = result.names[0], result.names[1]
    keep = ("a", "b", "diff", "ci", "p", "p_adj", "margin", "verdict", "negligible",
            "p_equivalence",
            "p_equivalence_adj", "se", "se_independent", "narrowing", "correlation", "per")
    out = {"a": a, "b": b, "games": result.games, "seed": result.seed, "paired": result.paired,
           "alpha": alpha, "metrics": {r["metric"]: {k: r[k] for k in keep} for r in rows}}
    if result.reached:
        out["target"] = result.reached
    return out


# ---------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------

def _fmt_value(x, metric) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if metric.is_rate else f"{x:.3f}"


def _fmt_diff(x, metric, sign=True) -> str:
    if x is None:
        return "-"
    if metric.is_rate:
        nd = 2 if x == 0 or abs(x) >= 0.001 else 3
        return f"{100 * x:+.{nd}f}" if sign else f"{100 * x:.{nd}f}"
    return f"{x:+.3f}" if sign else f"{x:.3f}"


def _fmt_p(p) -> str:
    if p is None:
        return "-"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def sentence(row, metric, b_name) -> str:
    """The designer's sentence for one row: what b does to the metric, how sure, the verdict."""
    if row["verdict"] == "never happened":
        return f"{metric.name}: never happened in either variant."
    if row["verdict"] == "identical":
        return (f"{metric.name}: every game gave {b_name} the same value as a: no game "
                f"differed, so no interval (95%: fewer than 3/n of games differ).")
    diff = row["diff"]
    unit = " points" if metric.is_rate else ""
    what = metric.description
    lo, hi = row["ci"]
    ci = f"[{_fmt_diff(lo, metric)}, {_fmt_diff(hi, metric)}]"
    if row["verdict"] == "equivalent":
        return (f"{b_name} leaves {metric.name} ({what}) unchanged within "
                f"±{_fmt_diff(row['margin'], metric, False)}{unit}: {_fmt_diff(diff, metric)} "
                f"{ci}: equivalent.")
    verb = "raises" if diff > 0 else "lowers" if diff < 0 else "leaves"
    size = "" if diff == 0 else f" by {_fmt_diff(abs(diff), metric, False)}{unit}"
    small = (f" (real but inside the ±{_fmt_diff(row['margin'], metric, False)}{unit} margin: "
             f"negligible)") if row.get("negligible") else ""
    return (f"{b_name} {verb} {metric.name} ({what}){size} "
            f"({_fmt_value(row['a'], metric)} -> {_fmt_value(row['b'], metric)}), "
            f"95% interval of the change {ci}, {_p_eq(row['p'])}, "
            f"adjusted {_p_eq(row['p_adj'])}: {row['verdict']}{small}.")


def _p_eq(p) -> str:
    return "p < 0.0001" if p is not None and p < 1e-4 else f"p = {_fmt_p(p)}"


def comparison_text(result, rows, catalogue, alpha) -> str:
    """Sentences for the decided metrics first, then the full table."""
    metrics = by_name(catalogue)
    a, b = result.names[0], result.names[1]
    tested = [r for r in rows if r["p"] is not None]
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    head = (f"compare {a} (a) with {b} (b): {result.games} games each, seed {result.seed}, "
            f"{'paired (same deals where the decks agree)' if result.paired else 'independent'}"
            f"; {len(tested)} metrics tested, Holm-adjusted at alpha = {alpha}")
    lines = [head, f"verdicts: {counts['different']} different, {counts['equivalent']} "
             f"equivalent, {counts['inconclusive']} inconclusive", ""]
    if result.reached:
        lines += [_target_line(result.reached, difference_of=True), ""]
    decided = sorted((r for r in tested if r["verdict"] == "different"),
                     key=lambda r: (r["negligible"], r["p"]))
    for r in decided:
        lines.append("- " + sentence(r, metrics[r["metric"]], b))
    if not decided:
        lines.append(f"- no metric differs at alpha = {alpha} after the Holm adjustment.")
    identical = [r["metric"] for r in rows if r["verdict"] == "identical"]
    if identical:
        lines.append(f"- identical in every game (no interval, no verdict: no game differed): "
                     f"{', '.join(identical)}")
    inconclusive = [r["metric"] for r in tested if r["verdict"] == "inconclusive"]
    if inconclusive:
        lines.append(f"- inconclusive (play more games or widen --margin): "
                     f"{', '.join(inconclusive)}")
    lines += ["", _table(rows, metrics), "",
              "a, b: the metric under each variant; diff = b - a (rates in percentage points); "
              "95% interval of diff using the pairing; p, p_adj: z-test and Holm-adjusted; "
              "margin: the equivalence margin; narrow: how many times narrower than independent "
              "runs' interval; corr: per-game correlation between a and b."]
    return "\n".join(lines)


def _table(rows, metrics) -> str:
    head = (f"{'metric':<30}{'a':>10}{'b':>10}{'diff':>9}  {'95% interval':<19}{'p':>9}"
            f"{'p_adj':>9}{'margin':>8}  {'verdict':<13}{'narrow':>7}{'corr':>7}")
    out = [head, "-" * len(head)]
    for r in rows:
        m = metrics[r["metric"]]
        lo, hi = r["ci"]
        ci = "-" if lo is None else f"[{_fmt_diff(lo, m)}, {_fmt_diff(hi, m)}]"
        narrow = "-" if r["narrowing"] is None or r["p"] is None else f"{r['narrowing']:.1f}x"
        corr = "-" if r["correlation"] is None else f"{r['correlation']:.2f}"
        out.append(f"{r['metric']:<30}{_fmt_value(r['a'], m):>10}{_fmt_value(r['b'], m):>10}"
                   f"{_fmt_diff(r['diff'], m):>9}  {ci:<19}{_fmt_p(r['p']):>9}"
                   f"{_fmt_p(r['p_adj']):>9}{_fmt_diff(r['margin'], m, False):>8}  "
                   f"{r['verdict']:<13}{narrow:>7}{corr:>7}")
    return "\n".join(out)


def _target_line(reached, difference_of=False) -> str:
    what = "the difference in " if difference_of else ""
    m = reached["metric"]
    if reached["reached"]:
        return (f"target reached: {what}{m} has a 95% half-width of {reached['half_width']:.5f} "
                f"<= {reached['target']} after {reached['games']} games.")
    return (f"target NOT reached: {what}{m} has a 95% half-width of {reached['half_width']:.5f} "
            f"> {reached['target']} after {reached['games']} games (--max-games "
            f"{reached['max_games']}).")


def target_line(reached, difference_of=False) -> str:
    return _target_line(reached, difference_of)


# ---------------------------------------------------------------------------------------------
# Sweeps
# ---------------------------------------------------------------------------------------------

def sweep_json(result, catalogue, labels, rows, names, alpha) -> dict:
    """``{"base", "games", "seed", "alpha", "variants": [{"label", "settings", "metrics":
    {name: {value, ci, diff, diff_ci, p, p_adj, verdict}}}]}``."""
    cat = {n: by_name(catalogue)[n] for n in names}
    base = {"label": labels[0][0], "settings": labels[0][1], "metrics": {}}
    variants = [base] + [{"label": lab, "settings": st, "metrics": {}} for lab, st in labels[1:]]
    for name, m in cat.items():
        base["metrics"][name] = summary_of(result, catalogue, name, 0)
    for r in rows:
        v = r["b_index"]
        entry = summary_of(result, catalogue, r["metric"], v)
        entry.update({"diff": r["diff"], "diff_ci": r["ci"], "p": r["p"], "p_adj": r["p_adj"],
                      "verdict": r["verdict"], "narrowing": r["narrowing"]})
        variants[v]["metrics"][r["metric"]] = entry
    out = {"base": result.names[0], "games": result.games, "seed": result.seed,
           "alpha": alpha, "variants": variants}
    if result.reached:
        out["target"] = result.reached
    return out


def summary_of(result, catalogue, name, v):
    j = [m.name for m in catalogue].index(name)
    return metric_summary(catalogue[j], result.sums, j, v)


def sweep_text(result, catalogue, labels, rows, names, alpha) -> str:
    cat = {n: by_name(catalogue)[n] for n in names}
    lines = [f"sweep of {result.names[0]}: {len(labels) - 1} variants, {result.games} games each, "
             f"seed {result.seed}, common random numbers; each variant against the base, "
             f"Holm-adjusted across {sum(r['p'] is not None for r in rows)} tests at alpha = "
             f"{alpha}"]
    width = max(len(lab) for lab, _ in labels) + 2
    for name, m in cat.items():
        lines += ["", f"{name}: {m.description} (per {m.per})",
                  f"  {'variant':<{width}}{'value':>10}  {'95% interval':<21}{'diff':>9}  "
                  f"{'95% interval':<19}{'p_adj':>9}  verdict"]
        s = summary_of(result, catalogue, name, 0)
        lines.append(f"  {labels[0][0]:<{width}}{_fmt_value(s['value'], m):>10}  "
                     f"{_ci_text(s['ci'], m):<21}{'':>9}  {'':<19}{'':>9}  (base)")
        for r in rows:
            if r["metric"] != name:
                continue
            v = r["b_index"]
            s = summary_of(result, catalogue, name, v)
            lo, hi = r["ci"]
            dci = "-" if lo is None else f"[{_fmt_diff(lo, m)}, {_fmt_diff(hi, m)}]"
            lines.append(f"  {labels[v][0]:<{width}}{_fmt_value(s['value'], m):>10}  "
                         f"{_ci_text(s['ci'], m):<21}{_fmt_diff(r['diff'], m):>9}  {dci:<19}"
                         f"{_fmt_p(r['p_adj']):>9}  {r['verdict']}")
    return "\n".join(lines)


def _ci_text(ci, m) -> str:
    if ci[0] is None:
        return "-"
    return f"[{_fmt_value(ci[0], m)}, {_fmt_value(ci[1], m)}]"
