"""A run's summary for any family: every catalogue metric with its interval, grouped as text.

What this implementation simplifies: metrics are grouped by their names (``end_*``, ``yaku_*``,
the rest); yaku that never scored are listed once at the end instead of as rows of zeros.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from simcore.stats.luck import narrowing_text
from simcore.stats.moments import MomentSums
import functools
from simcore.family.chunks import game_values, rounds_played


def sums_of_batch(batch, game_values: Callable, first_game: int = 0) -> MomentSums:
    """Sums of a Batch holding games ``first_game, first_game + 1, ...`` (``run_games``'s), by
    the family's ``game_values(idx, games, rounds) -> (num, den)``."""
    idx = np.arange(first_game, first_game + len(batch.games), dtype=np.int64)
    num, den = game_values(idx, batch.games, batch.rounds)
    return MomentSums.from_values(np.stack([num, den], axis=2))


def metric_cell(m: dict, metric) -> str:
    """One summary metric as ``value  [interval]  of N per`` (``-`` when it has no value)."""
    if m["value"] is None:
        return "-"
    if m["ci"][0] is None:   # one game: a value, no interval
        value = f"{100 * m['value']:7.2f}%" if metric.is_rate else f"{m['value']:8.3f}"
        return f"{value + '  [no interval: 1 game]':<28} of {m['n']} {m['per']}"
    if metric.is_rate:
        text = f"{100 * m['value']:7.2f}%  [{100 * m['ci'][0]:6.2f}, {100 * m['ci'][1]:6.2f}]"
    else:
        text = f"{m['value']:8.3f}  [{m['ci'][0]:.3f}, {m['ci'][1]:.3f}]"
    return f"{text:<28} of {m['n']} {m['per']}"


def drop_absent_seats(metrics: dict, n_seats: int, max_seats: int) -> None:
    """Leave out of ``metrics`` the seat metrics (``seat{s}_win_share``,
    ``seat{s}_ahead_of_seat{t}``) of the seats ``n_seats`` .. ``max_seats - 1``: the family's
    catalogue has them for ``max_seats`` seats, a scenario may have fewer. In a 2-seat game seat 0
    finishing ahead of seat 1 is seat 0's share of the wins, shown once (as compare does)."""
    for s in range(n_seats, max_seats):
        metrics.pop(f"seat{s}_win_share", None)
        for t in range(max_seats):
            metrics.pop(f"seat{min(s, t)}_ahead_of_seat{max(s, t)}", None)
    if n_seats == 2:
        metrics.pop("seat0_ahead_of_seat1", None)


def end_reasons(metrics: dict, field: str) -> dict:
    """``{reason: metric[field]}`` of the ``end_REASON_rate`` metrics that happened."""
    return {n[len("end_"):-len("_rate")]: m[field] for n, m in metrics.items()
            if n.startswith("end_") and m["value"]}


def summarize(fam, sc, seed: int, data, reached: dict | None = None, v: int = 0) -> dict:
    """The run summary of family ``fam`` from streamed sums (one variant's ``MomentSums``, or a
    ``Batch`` of records): every catalogue metric with its 95% interval, yaku shares of wins,
    end-reason shares of games.

    ``{"scenario", "games", "rounds", "seed", "metrics": {name: {"value", "ci", "n", "per"}},
    "yaku": {name: share of wins}, "end_reasons": {name: share of games}, "intervals",
    "yaku_names"}``; ``n`` is the metric's denominator (games, rounds or wins).
    """
    from simcore.stats.summary import summarize_run
    sums = data if isinstance(data, MomentSums) else sums_of_batch(data, functools.partial(game_values, fam))
    max_seats = fam.SEATS[1]
    n_seats = len(sc["players"]) if sc is not None else None
    metrics = summarize_run(fam.CATALOGUE, sums, v, n_seats=n_seats)
    drop_absent_seats(metrics, n_seats or max_seats, max_seats)
    names = fam.metric_display_names(sc) if sc is not None else {}
    for name in fam.hidden_in_summary(sc) if sc is not None else ():
        if name in metrics and not metrics[name]["value"]:
            metrics.pop(name)

    def yaku_name(metric):
        return names.get(metric, metric[len("yaku_"):-len("_share")])
    scored = {n: m for n, m in metrics.items() if n.startswith("yaku_") and m["value"]}
    out = {"scenario": sc.name if sc is not None else "", "games": sums.n,
           "rounds": rounds_played(fam, sums, v), "seed": seed, "metrics": metrics,
           "yaku": {yaku_name(n): m["value"] for n, m in scored.items()},
           "end_reasons": end_reasons(metrics, "value"),
           "intervals": {"yaku": {yaku_name(n): m["ci"] for n, m in scored.items()},
                         "end_reasons": end_reasons(metrics, "ci")},
           "yaku_names": dict(names)}
    if sc is not None:
        from simcore.family.players import seat_entries
        out["seats"] = seat_entries(sc, fam.POLICIES.by_name)
    luck = luck_note(fam, sums)
    if luck:
        out["luck_correction"] = luck
    if reached:
        out["target"] = reached
    return out


def luck_note(fam, sums) -> dict | None:
    """What a result's JSON says of its luck correction (None where nothing was corrected):
    the controls, their means (exact by construction: nothing estimated from deals) and the
    corrected metrics."""
    done = getattr(sums, "corrected", None)
    if done is None or not done.any():
        return None
    return {"controls": list(fam.LUCK_CONTROLS),
            "control_means": "exactly 0 by construction: each draw's term is centred on the "
                             "stock the card came from (docs/statistics.md)",
            "corrected": [m.name for m, d in zip(fam.CATALOGUE, done) if d]}


def _cell(m: dict, metric) -> str:
    text = metric_cell(m, metric)
    if m.get("luck_narrowing"):
        text += f"; {narrowing_text(m['luck_narrowing'])}"
    if m["value"] is not None and "reference" in m:
        text += (f"; fair {100 * m['reference']:.0f}%: "
                 f"{'inside' if m['contains_reference'] else 'OUTSIDE'} the interval")
    return text


def summary_table(fam, summary: dict) -> str:
    """The run summary as a table: every metric that happened, grouped, with its interval."""
    from simcore.stats.summary import target_line
    cat = {m.name: m for m in fam.CATALOGUE}
    word, words = fam.GAME_WORDS
    round_words = fam.ROUND_WORDS[1]
    seats = summary.get("seats")
    lines = [f"scenario {summary['scenario']}: {summary['games']} {words}, {summary['rounds']} "
             f"{round_words}, seed {summary['seed']}"
             + (f"; seats: " + ", ".join(f"P{i} {e}" for i, e in enumerate(seats))
                if seats else "")]
    if summary.get("target"):
        lines.append(target_line(summary["target"]))
    lines += ["", f"{'metric':<30}value     [95% interval]"]
    groups = (("", lambda n: not n.startswith(("end_", "yaku_"))),
              (f"end reasons (share of {words})", lambda n: n.startswith("end_")),
              ("yaku and bonuses (share of wins)", lambda n: n.startswith("yaku_")))
    shown = summary.get("yaku_names", {})   # yaku a scenario names itself

    def label(n):
        return f"yaku_{shown[n]}_share (new)" if n in shown else n
    for title, keep in groups:
        # a summary written with an older catalogue may name a metric this one dropped
        rows = [(n, m) for n, m in summary["metrics"].items() if keep(n) and n in cat]
        if title:
            rows = sorted((r for r in rows if r[1]["value"]), key=lambda r: -r[1]["value"])
            lines += ["", title] if rows else []   # a group with nothing in it is left out
        for n, m in rows:
            lines.append(f"{label(n):<30}{_cell(m, cat[n])}")
    never = [shown.get(n, n[len("yaku_"):-len("_share")]) for n, m in summary["metrics"].items()
             if n.startswith("yaku_") and not m["value"]]
    if never:
        lines += ["", "never scored: " + ", ".join(never)]
    from simcore.stats.domains import breakdown_text, point_table_text
    if summary.get("breakdown") and fam.HEADLINE in cat:
        lines += ["", f"Where {fam.HEADLINE} comes from (every breakdown metric for every part "
                      f"is in the JSON and the report):"]
        lines += breakdown_text(summary["breakdown"], cat[fam.HEADLINE], words)
    if summary.get("yaku_table"):
        lines += point_table_text(summary["yaku_table"])
    lines += ["", f"Intervals: Wilson for shares of {words}; for shares of {round_words} and wins, "
                  f"Wilson on the count the {word}-level variance is worth; for means, the delta "
                  f"method; the {word} is the unit ({round_words} of a {word} are not "
                  f"independent)."]
    if any(m.get("luck_narrowing") for m in summary["metrics"].values()):
        lines.append(f"luck-corrected: the luck of the draws, measured in the engine, is "
                     f"subtracted (its mean is exactly 0, so nothing is biased) and the interval "
                     f"is the delta method's on what is left; --no-luck-correction for the "
                     f"plain ones (README: luck correction).")
    return "\n".join(lines)


def metric_groups(metric_names) -> dict:
    """The report's groups, by role: ``headline``, ``seats`` (seat shares and finishing order),
    ``ends`` (end reasons), ``yaku`` (yaku and bonuses); each a list of names."""
    names = list(metric_names)
    seats = [n for n in names if n.startswith("seat")]
    ends = [n for n in names if n.startswith("end_")]
    yaku = [n for n in names if n.startswith("yaku_") or n.endswith("_bonus_share")]
    rest = [n for n in names if n not in ends and n not in yaku and n not in seats]
    return {"headline": rest, "seats": seats, "ends": ends, "yaku": yaku}
