"""Metrics within parts of the games ("domains"), and other ratios of per-game sums that a
chunk streams beside its :class:`simcore.stats.moments.MomentSums` (any game family).

A domain is a set of games picked by a per-game code: how the game ended, how many rounds it
lasted, the score gap at its end. Within a domain a metric is again a ratio of per-game sums,
R = sum x / sum y over its games, so six integers per domain and metric are all its interval
needs: ``[n, Sx, Sy, Sxx, Sxy, Syy]`` (games, the sums, and the sums of products). They add
over chunks exactly, like the moment sums. The interval is the delta method's with the game as
the unit (:func:`simcore.stats.moments.ratio`, Cochran 1977 sec. 6.4, for a domain: the games of the
domain are the sample); a domain's share of games is Wilson's.

What this implementation simplifies: a domain's count of games is taken as fixed (the
interval is conditional on it), as a designer reads "of the games that ended this way".
"""

from __future__ import annotations

import math

import numpy as np

from simcore.stats.moments import Z95, rate_bounds, wilson

N_FIELDS = 6   # n, Sx, Sy, Sxx, Sxy, Syy
TOO_FEW = 10   # games a domain needs before it gets an interval


def ratio_sums(x, y, codes, n_codes: int) -> np.ndarray:
    """int64[n_codes, k, 6]: per code and column of ``x``/``y`` (int64[n, k]), the sums."""
    x, y = np.asarray(x, np.int64), np.asarray(y, np.int64)
    x, y = (x[:, None] if x.ndim == 1 else x), (y[:, None] if y.ndim == 1 else y)
    codes = np.asarray(codes, np.int64)
    out = np.zeros((n_codes, x.shape[1], N_FIELDS), np.int64)
    for c in range(n_codes):
        sel = codes == c
        if not sel.any():
            continue
        xs, ys = x[sel], y[sel]
        out[c, :, 0] = sel.sum()
        out[c, :, 1], out[c, :, 2] = xs.sum(axis=0), ys.sum(axis=0)
        out[c, :, 3], out[c, :, 4] = (xs * xs).sum(axis=0), (xs * ys).sum(axis=0)
        out[c, :, 5] = (ys * ys).sum(axis=0)
    return out


def estimate(row, is_rate: bool = True, z: float = Z95, nonnegative: bool = False) -> dict:
    """``{"value", "ci", "n"}`` of R = Sx / Sy from one ``[n, Sx, Sy, Sxx, Sxy, Syy]`` row;
    no interval under :data:`TOO_FEW` games. A rate gets Wilson's interval on its effective
    count (:func:`simcore.stats.moments.rate_bounds`; with no spread, all or none, on the
    domain's units), so no printed interval has zero width."""
    n, sx, sy, sxx, sxy, syy = (int(v) for v in row)
    if n == 0 or sy == 0:
        return {"value": None, "ci": [None, None], "n": n}
    r = sx / sy
    if n < TOO_FEW:
        return {"value": round(r, 6), "ci": [None, None], "n": n}
    # sum (x - r y)^2 exactly in integers, scaled by sy^2
    q = sxx * sy * sy - 2 * sx * sxy * sy + sx * sx * syy
    var = q * n / ((n - 1) * sy ** 4)
    half = z * math.sqrt(max(var, 0.0))
    if is_rate:   # Wilson's on the effective count (no spread: on the domain's units)
        lo, hi = rate_bounds(r, math.sqrt(max(var, 0.0)), sy, z)
    else:
        lo, hi = r - half, r + half
    if nonnegative and not is_rate:
        lo = max(lo, 0.0)
    return {"value": round(r, 6), "ci": [round(lo, 6), round(hi, 6)], "n": n}


def bin_codes(values, edges) -> np.ndarray:
    """Code i for values in [edges[i], edges[i+1]) (the last bin open above; below edges[0]:
    bin 0)."""
    return np.clip(np.searchsorted(np.asarray(edges), values, side="right") - 1, 0,
                   len(edges) - 1)


def bin_labels(edges) -> tuple:
    """``("0", "1-4", ..., "40+")`` for integer ``edges``."""
    out = []
    for i, lo in enumerate(edges):
        if i + 1 == len(edges):
            out.append(f"{lo}+")
        else:
            hi = edges[i + 1] - 1
            out.append(str(lo) if hi == lo else f"{lo}-{hi}")
    return tuple(out)


def breakdown_json(breakdowns: dict, metrics, strata: dict, catalogue) -> dict:
    """Each metric of ``metrics`` by each breakdown: ``{breakdown: {"what", "parts": [{"label",
    "games", "share": {value, ci}, "metrics": {name: {value, ci, n}}}]}}``; empty parts are
    left out. ``breakdowns``: name -> (what it is, part labels); ``strata``: name ->
    int[parts, len(metrics), 6]."""
    cat = {m.name: m for m in catalogue}
    out = {}
    for name, (what, labels) in breakdowns.items():
        arr = np.asarray(strata.get(name, []), np.int64)
        if arr.size == 0:
            continue
        total = int(arr[:, 0, 0].sum())
        parts = []
        for c, label in enumerate(labels):
            g = int(arr[c, 0, 0])
            if g == 0:
                continue
            parts.append({"label": label, "games": g, "share": wilson(g, total),
                          "metrics": {m: estimate(arr[c, j], cat[m].is_rate)
                                      for j, m in enumerate(metrics)}})
        out[name] = {"what": what, "parts": parts}
    return out


def breakdown_text(breakdown: dict, metric, words: str) -> list:
    """Lines: ``metric`` in each part of each breakdown, with the part's share of games."""
    def pct(x):
        return "-" if x is None else (f"{100 * x:.1f}%" if metric.is_rate else f"{x:.2f}")
    lines = []
    for name, b in breakdown.items():
        lines += ["", f"{metric.name} by {b['what']} (share of {words} [95%]; {metric.name} "
                      f"[95%])"]
        for p in b["parts"]:
            s, m = p["share"], p["metrics"].get(metric.name)
            if m is None:
                continue
            ci = ("(too few to say)" if m["ci"][0] is None else
                  f"[{pct(m['ci'][0])}, {pct(m['ci'][1])}]")
            lines.append(f"  {p['label']:<22}{100 * s['value']:5.1f}% [{100 * s['ci'][0]:.1f}, "
                         f"{100 * s['ci'][1]:.1f}]   {pct(m['value']):>7} {ci}")
    return lines


RARE = 1e-3    # a source that fires in fewer wins than this is flagged rare


def point_table(sums: dict) -> list:
    """The yaku value table from a variant's point-source sums (``Family.point_sources``):
    per source its points, whether it is on, its share of wins, the points it adds per win
    and its share of all points scored, each with a 95% interval, and the flags
    ``never`` (on, never scored) and ``rare`` (under 1 in 1,000 wins)."""
    out = []
    for i, row in enumerate(sums["rows"]):
        fired = estimate(sums["fired"][i])
        per_win = _scaled(estimate(sums["per_win"][i], is_rate=False, nonnegative=True),
                          row.get("scale", 1))
        of_all = estimate(sums["of_all"][i])
        n_fired = int(sums["fired"][i][1])
        entry = {**row, "share_of_wins": fired, "points_per_win": per_win,
                 "share_of_points": of_all, "wins_scored": n_fired,
                 "never": bool(row["on"] and n_fired == 0),
                 "rare": bool(n_fired > 0 and fired["value"] is not None
                              and fired["value"] < RARE)}
        if "within_reach" in sums and sums.get("measured") and sums["measured"][i]:
            entry.update(_reach(sums, i, row["on"]))
        out.append(entry)
    return out


def _scaled(e: dict, scale: int) -> dict:
    """An estimate in a row's display unit: its sums are in 1/``scale`` of it (integers)."""
    if scale == 1 or e["value"] is None:
        return e
    return {**e, "value": round(e["value"] / scale, 6),
            "ci": [None if c is None else round(c / scale, 6) for c in e["ci"]]}


def value_unit(table: list) -> str:
    """The unit of the table's points per win: the rows' ``unit`` (emoji's doublings, for a
    value that multiplies), else points before any doubling."""
    return next((r["unit"] for r in table if r.get("unit")), "points")


SELDOM_REACHED = 1e-3    # in reach in fewer hands than this: "seldom in reach"
SELDOM_COMPLETED = 0.1   # fewer of its reaches completed than this: "seldom completed"


def _reach(sums: dict, i: int, on: bool) -> dict:
    """A row's reach: the share of hands within reach of it, the share of those reaches that
    won with it (each a 95% interval, the game as the unit), and which of the two makes a
    source that is on dead weight: ``reach_reading`` "seldom in reach" (under 1 in 1,000
    hands, the whole interval below it) or "seldom completed" (in reach, under 10% of the
    reaches won with it), else None."""
    within, done = estimate(sums["within_reach"][i]), estimate(sums["completed"][i])
    reached = int(sums["within_reach"][i][1])
    reading = None
    if on and (reached == 0 or (within["ci"][1] is not None and within["ci"][1] < SELDOM_REACHED)):
        reading = "seldom in reach"
    elif on and done["ci"][1] is not None and done["ci"][1] < SELDOM_COMPLETED:
        reading = "seldom completed"
    return {"within_reach": within, "reach_completed": done, "hands_reached": reached,
            "reach_reading": reading}


def point_table_text(table: list) -> list:
    """Lines of the yaku value table (the rows that are on, or that scored)."""
    def pct(e):
        if e["value"] is None:
            return "-"
        ci = "" if e["ci"][0] is None else f" [{100 * e['ci'][0]:.2f}, {100 * e['ci'][1]:.2f}]"
        return f"{100 * e['value']:.2f}%{ci}"

    def pts(e):
        if e["value"] is None:
            return "-"
        ci = "" if e["ci"][0] is None else f" [{e['ci'][0]:.3f}, {e['ci'][1]:.3f}]"
        return f"{e['value']:.3f}{ci}"
    unit = value_unit(table)
    lines = ["", f"yaku value table (points: the rule's value; per win: the {unit} it adds to "
                 "an average win)",
             f"  {'':<18}{'kind':<6}{'points':>9}  {'share of wins [95%]':<26}"
             f"{'per win [95%]':<26}{'share of all [95%]':<28}flags"]
    reach = any("within_reach" in r for r in table)
    for r in sorted(table, key=lambda r: -(r["points_per_win"]["value"] or 0)):
        if not r["on"] and not r["wins_scored"]:
            continue
        flags = ", ".join(f for f, on in (("on, never scored", r["never"]),
                                          ("rarer than 1 in 1,000 wins", r["rare"])) if on)
        lines.append(f"  {r['name']:<18}{r['kind']:<6}{str(r['points']):>9}  "
                     f"{pct(r['share_of_wins']):<26}{pts(r['points_per_win']):<26}"
                     f"{pct(r['share_of_points']):<28}{flags}")
    off = [r["name"] for r in table if not r["on"]]
    if off:
        lines.append("  off in this scenario: " + ", ".join(off))
    if reach:
        lines += ["", "is it worth chasing? (in reach: hands that were at some point tenpai with "
                      "a wait scoring it; completed: of those, the hands that won with it)",
                  f"  {'':<18}{'hands in reach [95%]':<28}{'reaches completed [95%]':<28}"
                  "reading"]
        for r in sorted(table, key=lambda r: -((r.get("within_reach") or {}).get("value") or 0)):
            if "within_reach" not in r or (not r["on"] and not r["wins_scored"]):
                continue
            lines.append(f"  {r['name']:<18}{pct(r['within_reach']):<28}"
                         f"{pct(r['reach_completed']):<28}{r['reach_reading'] or ''}")
    return lines


def game_end_breakdowns(word: str, end_names, round_edges, gap_edges, gap_what: str) -> dict:
    """The three breakdowns a family's run summary shows (``Family.BREAKDOWNS``): how the
    ``word`` ("game", "match") ended, the rounds it lasted, the score gap at its end."""
    return {"end_reason": (f"how the {word} ended", tuple(end_names)),
            "rounds": (f"rounds the {word} lasted", bin_labels(round_edges)),
            "score_gap": (gap_what, bin_labels(gap_edges))}


def game_end_codes(end_reason, rounds, gap, round_edges, gap_edges) -> dict:
    """Each game's part in :func:`game_end_breakdowns` (``Family.breakdown_codes``)."""
    return {"end_reason": np.asarray(end_reason, np.int64),
            "rounds": bin_codes(rounds, round_edges), "score_gap": bin_codes(gap, gap_edges)}
