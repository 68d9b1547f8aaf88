"""Summaries, comparisons and sweeps from streamed sums: intervals, tests, verdicts in words.

Game-agnostic: reads a family's metric catalogue (:class:`simcore.family.metrics.Metric`) and a
:class:`simcore.studies.study.StudyResult`, never the family's records.

A comparison of variant b against variant a, per metric: ``diff = b - a`` with a 95% interval that
uses the pairing (delta method, :func:`simcore.stats.moments.difference`), the z-test's p-value, the
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

from simcore.family.metrics import by_name, singular
from simcore.stats.luck import narrowing_of, narrowing_text
from simcore.stats.summary import metric_summary, target_line
from simcore.stats.verdicts import FLOOR, compare_rows  # noqa: F401  (compare_rows: this module's API)

VERDICTS = ("different", "equivalent", "inconclusive")


# ---------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------

def parse_margins(items, catalogue) -> dict:
    """``["METRIC=VALUE", ...]`` -> {metric: (margin, relative)}; errors name the bad item.

    VALUE is in the metric's unit (a rate's as a share, 0.01, or in percentage points, ``1pp``),
    or relative to a's value with ``%`` (``20%``: b within 20% of a)."""
    from simcore.errors import InputError

    names = by_name(catalogue)
    out = {}
    for item in items or ():
        key, sep, val = item.partition("=")
        if not sep:
            raise InputError(f"--margin {item}: expected METRIC=VALUE")
        if key not in names:
            raise InputError(f"--margin {item}: unknown metric {key!r}" + _hint(key, names))
        text, relative, scale = val.strip(), False, 1.0
        if text.endswith("%"):
            text, relative, scale = text[:-1], True, 0.01
        elif text.endswith("pp"):
            if not names[key].is_rate:
                raise InputError(f"--margin {item}: pp (percentage points) is for rates; "
                                 f"{key} is in {names[key].unit}")
            text, scale = text[:-2], 0.01
        try:
            if "_" in text:
                raise ValueError
            value = float(text) * scale
        except ValueError:
            raise InputError(f"--margin {item}: {val!r} is not a number") from None
        if not value > 0 or math.isinf(value):
            raise InputError(f"--margin {item}: the margin must be a positive number")
        if names[key].is_rate and not relative and value >= 1:
            raise InputError(f"--margin {item}: a rate's margin must be below 1 (100 pp); "
                             f"write 1pp or 0.01 for one percentage point")
        if key in out:
            raise InputError(f"--margin {item}: a second margin for {key}")
        out[key] = (value, relative)
    return out


def select_metrics(spec: str | None, catalogue, option: str = "--metrics") -> list:
    """Metric names from a comma-separated ``--metrics`` value (None: the whole catalogue);
    errors name ``option``."""
    from simcore.errors import InputError

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
    most seats a family allows; ``seat2_win_share`` means nothing in a 2-player game), and in a
    2-seat game less the ones another metric already says: seat 1's share is 1 - seat 0's, and
    seat 0 finishing ahead of seat 1 is seat 0's share."""
    import re
    out = [n for n in names if all(int(s) < n_seats for s in re.findall(r"seat(\d+)", n))]
    if n_seats == 2 and "seat0_win_share" in out:
        out = [n for n in out if n != "seat1_win_share" and "_ahead_of_" not in n]
    return out


def pair_metric_names(fam, spec, sc_a, sc_b) -> list:
    """The metrics a comparison of ``sc_a`` with ``sc_b`` shows: ``--metrics`` as asked, else
    the catalogue for the seats both games have."""
    names = select_metrics(spec, fam.CATALOGUE)
    if not spec:   # a named metric is shown as asked
        names = seats_present(names, min(len(sc_a["players"]), len(sc_b["players"])))
    return names


def scenario_pair_rows(fam, sums, sc_a, sc_b, names, margins=None, alpha=0.05, paired=True,
                       pairs=((0, 1),)) -> tuple:
    """(rows, off): :func:`compare_rows` of variants of ``sc_a`` against ``sc_b`` (``pairs``
    of variant indices), ``names`` less what the rules switch off in both (``off``), with fair
    values where both games have the same seats (1/3 against 1/2 is not one fair value)."""
    from simcore.family.scenario.diff import off_in_both
    off = off_in_both(fam, sc_a, sc_b, names, sums, pairs)
    n = len(sc_a["players"])
    rows = compare_rows(fam.CATALOGUE, sums, list(pairs), [x for x in names if x not in off],
                        margins, alpha, paired, n if len(sc_b["players"]) == n else None)
    return rows, off


def _hint(key, names):
    import difflib
    close = difflib.get_close_matches(key, list(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else " (see `momojan-sim metrics`)"


ROW_FIELDS = ("a", "a_ci", "b", "b_ci", "diff", "ci", "p", "p_adj", "margin", "margin_relative",
              "verdict",
              "negligible", "p_equivalence", "p_equivalence_adj", "se", "se_independent",
              "narrowing", "correlation", "per", "unit", "method", "differing",
              "differing_bound", "relative", "fair", "luck_narrowing")

UNITS_NOTE = ("rates (unit pp) are shares of 1 here: x100 gives % for a, b and pp (percentage "
              "points) for diff and its interval; relative: b / a - 1; other metrics are in "
              "their unit")


SETTLE_POWER = 0.8


def settle(row, games: int, alpha: float, tested: int) -> tuple:
    """``(games per variant, verdict)`` that would settle an ``inconclusive`` row if the
    difference seen is the true one, with 80% power at alpha / ``tested`` (Holm's first step):
    the fewer of the games to show it ``different`` (``plan``'s formula,
    :func:`simcore.stats.moments.games_for_power`) and, inside the margin, to show it
    ``equivalent`` (the two one-sided tests, bound by the nearer margin: n (z_{1-a} +
    z_power)^2 se^2 / (margin - |diff|)^2; Chow, Shao & Wang 2008, sec. 3.2). ``(None, None)``
    when the row is not inconclusive or has no standard error."""
    from simcore.stats.moments import _norm_ppf, games_for_power
    if row["verdict"] != "inconclusive" or not row.get("se") or row.get("diff") is None:
        return None, None
    a = alpha / max(1, tested)
    options = []
    margin = _margin_abs(row)
    if margin and abs(row["diff"]) < margin:
        z = _norm_ppf(1 - a) + _norm_ppf(SETTLE_POWER)
        options.append((int(math.ceil(games * (z * row["se"] / (margin - abs(row["diff"])))
                                      ** 2)), "equivalent"))
    if row["diff"] != 0:
        binary = str(row.get("method") or "").startswith("score (Tango)")
        options.append((games_for_power(row["se"], games, abs(row["diff"]), a, SETTLE_POWER,
                                        binary), "different"))
    if not options:
        return None, None
    n, verdict = min(options)
    return max(games, n), verdict


def _margin_abs(row) -> float | None:
    m = row.get("margin")
    if not m:
        return None
    return m * abs(row.get("a") or 0) if row.get("margin_relative") else m


def _settle(row, games, alpha, tested) -> dict:
    n, verdict = settle(row, games, alpha, tested)
    return {"games_to_settle": n, "settles_to": verdict}


def per_variant(result, rows, catalogue) -> list:
    """Each variant for itself: ``[{"name", "metrics": {metric: {"value", "ci", "n", "per"[,
    "reference", "contains_reference"]}}}]`` for the metrics of ``rows``, the fair value where
    the comparison has one (both variants with the same seats)."""
    idx = {m.name: j for j, m in enumerate(catalogue)}
    out = []
    for v, name in enumerate(result.names[:2]):
        metrics = {}
        for r in rows:
            j = idx[r["metric"]]
            s = metric_summary(catalogue[j], result.sums, j, v)
            s.pop("reference", None)
            s.pop("contains_reference", None)
            fair = (r.get("fair") or {}).get("value")
            if fair is not None and s["value"] is not None and s["ci"][0] is not None:
                s["reference"] = fair
                s["contains_reference"] = s["ci"][0] <= fair <= s["ci"][1]
            metrics[r["metric"]] = s
        out.append({"name": name, "metrics": metrics})
    return out


def fair_lines(variants, rows, catalogue) -> list:
    """``each variant for itself`` lines: every metric with a fair value, each variant's value,
    95% interval and whether the interval holds the fair value."""
    metrics = by_name(catalogue)
    lines = []
    for r in rows:
        if (r.get("fair") or {}).get("value") is None:
            continue
        m = metrics[r["metric"]]
        parts = []
        for k, pv in zip("ab", variants):
            s = pv["metrics"].get(r["metric"])
            if not s or s["value"] is None:
                continue
            inside = ("fair inside" if s.get("contains_reference") else "fair OUTSIDE") \
                if "contains_reference" in s else "no interval"
            parts.append(f"{k} {_fmt_value(s['value'], m)} {_ci_text(s['ci'], m)} {inside}")
        if parts:
            lines.append(f"  {r['metric']} (fair {_fmt_value(r['fair']['value'], m)}): "
                         + "; ".join(parts))
    if lines:
        lines.insert(0, "each variant for itself (95% intervals; is the fair value inside?):")
    return lines


def comparison_json(result, rows, alpha, rules_differ=None, off_in_both=(),
                    catalogue=None) -> dict:
    """The comparison as plain data; with ``catalogue``, each variant's own values
    (``per_variant``: :func:`per_variant`) and, for an inconclusive metric, the games per
    variant that would settle it (``games_to_settle``)."""
    a, b = result.names[0], result.names[1]
    tested = sum(r["p"] is not None for r in rows)
    out = {"a": a, "b": b, "games": result.games, "seed": result.seed,
           **({"games_b": result.games_b, "seed_b": result.seed_b}
              if hasattr(result, "games_b") else {}),
           "paired": result.paired,
           "alpha": alpha, "units": UNITS_NOTE,
           "metrics": {r["metric"]: {**{k: r[k] for k in ROW_FIELDS}, **_settle(r, result.games,
                                                                              alpha, tested)}
                       for r in rows},
           "off_in_both": list(off_in_both)}
    if catalogue is not None:
        out["per_variant"] = per_variant(result, rows, catalogue)
    if rules_differ is not None:
        out["rules_differ"] = [{"key": k, "a": va, "b": vb} for k, va, vb in rules_differ]
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


def value_with_ci(row, side: str, metric) -> str:
    """Variant ``side``'s value (``"a"``, ``"b"``) with its own 95% interval where the row
    has one: ``15.43% [13.93, 17.08]`` (the sentences, the report's table)."""
    ci = _bare_ci(row.get(f"{side}_ci"), metric)
    value = _fmt_value(row[side], metric)
    return value if ci == "-" else f"{value} {ci}"


def _bare_ci(ci, metric) -> str:
    """A variant's own 95% interval in the metric's numbers, no unit: ``[13.93, 17.08]``."""
    lo, hi = ci or (None, None)
    if lo is None:
        return "-"
    f = (lambda x: f"{100 * x:.2f}") if metric.is_rate else (lambda x: f"{x:.3f}")
    return f"[{f(lo)}, {f(hi)}]"


def _fmt_diff(x, metric, sign=True) -> str:
    """A difference as a number in the metric's difference unit (pp for rates), no unit."""
    if x is None:
        return "-"
    if metric.is_rate:
        nd = 2 if x == 0 or abs(x) >= 0.001 else 3
        return f"{100 * x:+.{nd}f}" if sign else f"{100 * x:.{nd}f}"
    return f"{x:+.3f}" if sign else f"{x:.3f}"


def _with_unit(text: str, metric) -> str:
    return f"{text} {metric.diff_unit}"


def _fmt_margin(row, metric) -> str:
    if row.get("margin_relative"):
        return f"±{100 * row['margin']:.0f}%"
    return "±" + _with_unit(_fmt_diff(row["margin"], metric, False), metric)


def _fmt_rel(x) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.1f}%" if abs(x) < 0.095 else f"{100 * x:+.0f}%"


def fmt_p(p) -> str:
    """A p-value as the text and the report show it (``< 0.0001`` below that)."""
    if p is None:
        return "-"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _differing_text(row, n, words: str = "games") -> str:
    k = (row.get("differing") or {}).get("games")
    bound = row.get("differing_bound")
    out = f"{k} of {n} {words} differ" if k is not None else "too few events"
    if bound is not None:
        out += f" (95%: at most {100 * bound:.1f}% of {words} would)"
    return out


def sentence(row, metric, b_name, games=None) -> str:
    """The designer's sentence for one row: what b does to the metric, how sure, the verdict."""
    if row["verdict"] == "never happened":
        return f"{metric.name}: never happened in either variant."
    if row["verdict"].startswith("not defined in"):
        side = row["verdict"][-1]
        return (f"{metric.name}: not defined in {side} (it counts per {metric.per}, and {side} "
                f"had none), so nothing to compare.")
    if row["verdict"] in ("identical", "too few differing games"):
        g = metric.game_word
        why = (f"no {singular(g)} differed" if row["verdict"] == "identical" else
               f"fewer than {FLOOR} {g} differed")
        return (f"{metric.name}: {_differing_text(row, games, g)}: {why}, so no interval and no "
                f"verdict ({_fmt_value(row['a'], metric)} -> {_fmt_value(row['b'], metric)}).")
    diff = row["diff"]
    what = metric.description
    lo, hi = row["ci"]
    ci = _with_unit(f"[{_fmt_diff(lo, metric)}, {_fmt_diff(hi, metric)}]", metric)
    if row.get("luck_narrowing"):
        ci += f" ({narrowing_text(row['luck_narrowing'])})"
    rel = row.get("relative")
    rel_text = ""
    if rel is not None:
        rci = rel["ci"]
        rel_text = (f", {_fmt_rel(rel['value'])}" + (f" [{_fmt_rel(rci[0])}, {_fmt_rel(rci[1])}]"
                                                     if rci[0] is not None else "") + " relative")
    if row["verdict"] == "equivalent":
        return (f"{b_name} leaves {metric.name} ({what}) unchanged within "
                f"{_fmt_margin(row, metric)}: {_with_unit(_fmt_diff(diff, metric), metric)} "
                f"{ci}{rel_text}: equivalent.")
    verb = "raises" if diff > 0 else "lowers" if diff < 0 else "leaves"
    size = "" if diff == 0 else " by " + _with_unit(_fmt_diff(abs(diff), metric, False), metric)
    small = (f" (real but inside the {_fmt_margin(row, metric)} margin: negligible)"
             if row.get("negligible") else "")
    return (f"{b_name} {verb} {metric.name} ({what}){size} "
            f"({value_with_ci(row, 'a', metric)} -> {value_with_ci(row, 'b', metric)}{rel_text}), "
            f"95% interval of the change {ci}, {_p_eq(row['p'])}, "
            f"adjusted {_p_eq(row['p_adj'])}: {row['verdict']}{small}.")


def fair_sentence(row, metric, b_name) -> str | None:
    """Whether b moves the metric towards its fair value, with the interval of the change in
    the distance from fair (|b - fair| - |a - fair|; 95%, not adjusted)."""
    f = row.get("fair")
    if not f:
        return None
    lo, hi = f["ci"]
    ci = "" if lo is None else f" [{_fmt_diff(lo, metric)}, {_fmt_diff(hi, metric)}]"
    change = _with_unit(_fmt_diff(f["distance_change"], metric) + ci, metric)
    how = {"closer to fair": f"{b_name} is closer to fair",
           "further from fair": f"{b_name} is further from fair"}.get(
        f["verdict"], "no detectable change in the distance from fair")
    return (f"{metric.name} (fair {_fmt_value(f['value'], metric)}): {how}: "
            f"{value_with_ci(row, 'a', metric)} -> {value_with_ci(row, 'b', metric)}, distance "
            f"{change}.")


def _p_eq(p) -> str:
    return "p < 0.0001" if p is not None and p < 1e-4 else f"p = {fmt_p(p)}"


def rules_differ_lines(rules_differ, limit: int = 12) -> list:
    """``rules that differ: key: a -> b`` lines (the resolved scenarios' flattened values)."""
    if rules_differ is None:
        return []
    if not rules_differ:
        return ["rules that differ: none (the same rules: only the players, decks or names)"]
    lines = [f"rules that differ ({len(rules_differ)}):"]
    for key, va, vb in rules_differ[:limit]:
        lines.append(f"  {key}: {_short_value(va)} -> {_short_value(vb)}")
    if len(rules_differ) > limit:
        lines.append(f"  ... and {len(rules_differ) - limit} more (--json lists them all)")
    return lines


def _short_value(v) -> str:
    from simcore.errors import cut
    import json
    return cut(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False), 60)


COUNTED = ("different", "equivalent", "inconclusive", "too few differing games", "identical")



def seats_line(seats) -> str:
    """Who sat where (``seats``: per variant, its seats' ``--players`` entries)."""
    def one(entries):
        return ", ".join(f"P{i} {e}" for i, e in enumerate(entries))
    if all(s == seats[0] for s in seats):
        return f"seats: {one(seats[0])}"
    return "seats: " + "; ".join(f"{k}: {one(s)}" for k, s in zip("ab", seats))


def comparison_text(result, rows, catalogue, alpha, rules_differ=None, off_in_both=(),
                    seats=None) -> str:
    """The rules that differ, sentences for the decided metrics, then the full table."""
    metrics = by_name(catalogue)
    a, b = result.names[0], result.names[1]
    tested = [r for r in rows if r["p"] is not None or r["p_equivalence"] is not None]
    counts = {v: sum(r["verdict"] == v for r in rows) for v in COUNTED}
    g = catalogue[0].game_word if catalogue else "games"
    runs = (f"{result.games} {g} each, seed {result.seed}"
            if (getattr(result, "games_b", result.games), getattr(result, "seed_b", result.seed))
            == (result.games, result.seed) else
            f"a {result.games} {g}, seed {result.seed}; b {result.games_b} {g}, seed "
            f"{result.seed_b}")
    head = (f"compare {a} (a) with {b} (b): {runs}, "
            f"{'paired (same deals where the decks agree)' if result.paired else 'independent'}"
            f"; {len(tested)} metrics tested, Holm-adjusted at alpha = {alpha}")
    lines = [head] + ([seats_line(seats)] if seats else []) + rules_differ_lines(rules_differ)
    lines += [f"verdicts: {counts['different']} different, {counts['equivalent']} "
              f"equivalent, {counts['inconclusive']} inconclusive, "
              f"{counts['too few differing games']} with too few differing {g}, "
              f"{counts['identical']} identical", ""]
    lucky = [r for r in rows if r.get("luck_narrowing")]
    if lucky:
        best = max(lucky, key=lambda r: r["luck_narrowing"])
        lines += [f"luck-corrected: {len(lucky)} metrics (the draws' luck subtracted; intervals "
                  f"up to {best['luck_narrowing']:.2f}x narrower, {best['metric']}); "
                  f"--no-luck-correction for the plain ones", ""]
    if result.reached:
        lines += [target_line(result.reached, difference_of=True), ""]
    decided = sorted((r for r in tested if r["verdict"] == "different"),
                     key=lambda r: (r["negligible"], r["p"]))
    for r in decided:
        lines.append("- " + sentence(r, metrics[r["metric"]], b))
    if not decided:
        lines.append(f"- no metric differs at alpha = {alpha} after the Holm adjustment.")
    for r in rows:
        fs = fair_sentence(r, metrics[r["metric"]], b)
        if fs:
            lines.append("- " + fs)
    few = [r for r in rows if r["verdict"] == "too few differing games"]
    if few:
        lines.append(f"- too few differing {g} for an interval (fewer than {FLOOR}; no "
                     f"verdict): " + ", ".join(f"{r['metric']} ({_few_count(r)})" for r in few))
    same = [r["metric"] for r in rows if r["verdict"] == "identical"]
    if same:
        lines.append(f"- identical in every game (no game differed: no interval, no verdict): "
                     + ", ".join(same))
    undefined = [f"{r['metric']} ({r['verdict']})" for r in rows
                 if r["verdict"].startswith("not defined in")]
    if undefined:
        lines.append("- nothing to compare (no denominator in one variant, e.g. no wins): "
                     + ", ".join(undefined))
    inconclusive = [r for r in tested if r["verdict"] == "inconclusive"]
    if inconclusive:
        lines.append(f"- inconclusive (play more {g} or widen --margin); the {g} per variant "
                     f"that would settle each if the difference seen is the true one (80% "
                     f"power):")
        m_tested = sum(x["p"] is not None for x in rows)
        for r in inconclusive:
            n, to = settle(r, result.games, alpha, m_tested)
            lines.append(f"    {r['metric']}: " + (f"about {n:,}, to show it {to}"
                                                   if n else "no estimate"))
    never = [r["metric"] for r in rows if r["verdict"] == "never happened"]
    if never:
        lines.append(f"- never happened in either variant: {', '.join(never)}")
    if off_in_both:
        lines.append(f"- off in both variants (not compared): {', '.join(off_in_both)}")
    own = fair_lines(per_variant(result, rows, catalogue), rows, catalogue)
    if own:
        lines += [""] + own
    lines += ["", _table(rows, metrics), "",
              "a, b: the metric under each variant, each beside its own 95% interval (a 95%, "
              "b 95%: the variant alone, in the metric's numbers); diff = b - a, in pp "
              "(percentage points) for rates, else in the metric's unit; 95% interval of diff using the pairing; rel: "
              "b / a - 1 for rare rates; p, p_adj: the test of no difference and its Holm "
              "adjustment; margin: the equivalence margin (% = relative to a; `equivalent` needs the "
              "Holm-adjusted p of the two one-sided tests, p_equivalence_adj in --json); narrow: how many "
              f"times narrower than independent runs' interval; corr: per-{singular(g)} "
              f"correlation between a and b; differ: {g} where a and b differ."]
    return "\n".join(lines)


def _few_count(r) -> str:
    d = r.get("differing") or {}
    if d.get("games") is not None:
        return f"{d['games']} differ"
    return f"{d.get('events_counted', 0)} events"


# the comparison table's columns: header, alignment, the usual width, the spaces before it. A
# wider cell widens its column, so a large value (a margin of 1000.000 points beside a p_adj
# of 0.119) never runs into its neighbour: a right-aligned cell keeps a space before it, a
# left-aligned one a space after it.
_COLUMNS = (("metric", "<", 30, 0), ("a", ">", 10, 0), ("a 95%", "<", 16, 1),
            ("b", ">", 10, 0), ("b 95%", "<", 16, 1), ("diff", ">", 9, 0),
            ("95% interval", "<", 19, 2), ("rel", ">", 6, 0), ("p", ">", 9, 0),
            ("p_adj", ">", 9, 0), ("margin", ">", 8, 0), ("verdict", "<", 13, 2),
            ("narrow", ">", 7, 0), ("corr", ">", 6, 0), ("differ", ">", 7, 0))


def _table(rows, metrics) -> str:
    cells = [_row_cells(r, metrics[r["metric"]]) for r in rows]
    heads = [name for name, _, _, _ in _COLUMNS]
    widths = [max(len(str(c[i])) + 1 for c in cells + [heads]) for i in range(len(_COLUMNS))]
    widths = [max(w, width) for w, (_, _, width, _) in zip(widths, _COLUMNS)]

    def line(values):
        return "".join(" " * gap + f"{v:{align}{w}}" for v, (_, align, _, gap), w in
                       zip(values, _COLUMNS, widths))
    head = line(heads)
    return "\n".join([head, "-" * len(head)] + [line(c) for c in cells])


def _row_cells(r, m) -> list:
    """The text of one row's cells, in :data:`_COLUMNS` order."""
    lo, hi = r["ci"]
    ci = "-" if lo is None else f"[{_fmt_diff(lo, m)}, {_fmt_diff(hi, m)}]"
    narrow = "-" if r["narrowing"] is None else f"{r['narrowing']:.1f}x"
    corr = "-" if r["correlation"] is None else f"{r['correlation']:.2f}"
    rel = "-" if r.get("relative") is None else _fmt_rel(r["relative"]["value"])
    margin = (f"{100 * r['margin']:.0f}%" if r.get("margin_relative")
              else _fmt_diff(r["margin"], m, False))
    verdict = "too few" if r["verdict"] == "too few differing games" else r["verdict"]
    k = (r.get("differing") or {}).get("games")
    return [r["metric"], _fmt_value(r["a"], m), _bare_ci(r.get("a_ci"), m),
            _fmt_value(r["b"], m), _bare_ci(r.get("b_ci"), m), _fmt_diff(r["diff"], m), ci, rel,
            fmt_p(r["p"]), fmt_p(r["p_adj"]), margin,
            verdict, narrow, corr, "-" if k is None else str(k)]


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
                      "verdict": r["verdict"], "narrowing": r["narrowing"], "unit": r["unit"],
                      "differing": r["differing"], "relative": r["relative"]})
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
    g = catalogue[0].game_word if catalogue else "games"
    nv, nt = len(labels) - 1, sum(r['p'] is not None for r in rows)
    lines = [f"sweep of {result.names[0]}: {nv} variant{'s' * (nv != 1)}, {result.games} {g} "
             f"each, seed {result.seed}, common random numbers; each variant against the base, "
             f"Holm-adjusted across {nt} test{'s' * (nt != 1)} at alpha = {alpha}"]
    width = max(len(lab) for lab, _ in labels) + 2
    for name, m in cat.items():
        j = [c.name for c in catalogue].index(name)
        luck = narrowing_of(result.sums, j)
        luck_text = f"; {narrowing_text(luck)}" if luck else ""
        lines += ["", f"{name}: {m.description} (per {m.per}; diff in {m.diff_unit}{luck_text})",
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
                         f"{fmt_p(r['p_adj']):>9}  {r['verdict']}")
    return "\n".join(lines)


def _ci_text(ci, m) -> str:
    if ci[0] is None:
        return "-"
    return f"[{_fmt_value(ci[0], m)}, {_fmt_value(ci[1], m)}]"
