"""Solving over a choice or boolean rule (``solve --param game.tie_break``): a rule that is a
choice, not a number, has no root to find; every value it allows is played on the same deals
(common random numbers) and ranked by its distance to the target, each with its interval.

For each value v: the metric m_v and its 95% interval (:func:`simcore.stats.summary.metric_summary`,
the game as the unit); its distance to the target |m_v - t| with the interval that is the image
of m_v's interval under x -> |x - t| (a monotone map on each side of t, so it holds |mu_v - t|
whenever m_v's interval holds mu_v); whether the interval holds the target; and the paired
difference from the scenario's own value (:func:`simcore.stats.moments.difference`, the same
deals), with the interval ``compare`` gives it (:func:`simcore.stats.verdicts.difference_row`:
Tango's score interval for a share of games, else the delta method with Student's t, and no
interval below ten differing games). The closest value is "clearly closest" when every other
value is surely farther: where both lie on one side of the target, by that interval of their
paired difference (the same deals make it far tighter than either value's own); across the
target, or where the games differ too seldom for a paired interval, by their distance
intervals.

What this implementation simplifies: the ranking's claim is per value (each interval at 95%),
not simultaneous over all values; a rule with many choices widens nothing for it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from simcore.errors import InputError
from simcore.family.scenario.files import nested
from simcore.stats.verdicts import difference_row
from simcore.stats.summary import metric_summary
from simcore.studies.notes import play_note

METHOD = ("every allowed value played on common random numbers; each value's 95% interval of "
          "the metric (the game as the unit), its distance to the target with the interval's "
          "image under |x - target|, and the paired difference from the scenario's own value")


@dataclass
class ChoiceSetup:
    family: object
    scenario: object
    key: str
    values: tuple
    metric: object
    metric_index: int
    target: float
    target_source: str
    own: object = None        # the scenario's own value of the rule
    name: str = ""            # the scenario's name (a resumed solve's scenarios are its values)


def choice_setup(fam, sc, key: str, metric_name, target_text, values: tuple) -> ChoiceSetup:
    """Checks before any game: the metric and the target (as a numeric solve's)."""
    from simcore.studies.compare import select_metrics
    from simcore.studies.solve import parse_target
    name = select_metrics(metric_name or fam.HEADLINE, fam.CATALOGUE, "--metric")[0]
    names = [m.name for m in fam.CATALOGUE]
    metric = fam.CATALOGUE[names.index(name)]
    target, source = parse_target(target_text, metric, len(sc["players"]))
    return ChoiceSetup(fam, sc, key, tuple(values), metric, names.index(name), target, source,
                       sc.get(key), sc.name)


def label(key: str, v) -> str:
    import json
    return f"{key}={json.dumps(v)}"


def choice_variants(cs: ChoiceSetup) -> tuple[list, list]:
    """The scenario under every allowed value (its own value under its own name), and
    (label, settings) pairs; a value the scenario's other rules refuse is one line."""
    scenarios, labels = [], []
    for v in cs.values:
        if v == cs.own:
            sc = cs.scenario
        else:
            try:
                sc = cs.family.SCENARIOS.with_overrides(cs.scenario, nested(cs.key, v),
                                                        f"{cs.scenario.name} {label(cs.key, v)}")
            except InputError as exc:
                raise InputError(f"--param {cs.key}: the value {v!r} does not make a valid "
                                 f"scenario: {str(exc).split(': ', 1)[-1]}") from None
        scenarios.append(sc)
        labels.append((label(cs.key, v), {cs.key: v}))
    return scenarios, labels


def options_of(cs: ChoiceSetup) -> dict:
    return {"param": cs.key, "values": list(cs.values), "metric": cs.metric.name,
            "target": cs.target, "target_source": cs.target_source, "own": cs.own,
            "scenario": cs.name}


def from_options(fam, sc, opts: dict) -> ChoiceSetup:
    names = [m.name for m in fam.CATALOGUE]
    j = names.index(opts["metric"])
    return ChoiceSetup(fam, sc, opts["param"], tuple(opts["values"]), fam.CATALOGUE[j], j,
                       opts["target"], opts["target_source"], opts["own"], opts["scenario"])


def _distance_ci(ci, t):
    lo, hi = ci
    if lo is None:
        return [None, None]
    if lo <= t <= hi:
        return [0.0, max(t - lo, hi - t)]
    return sorted([abs(lo - t), abs(hi - t)])


def _farther(paired, t, b, best, v, row) -> bool:
    """Whether value ``v`` is surely farther from the target t than the best value ``b``.
    With c = mu_v - t surely below 0 (v's interval below t) and a = mu_b - t, the gain
    D = |c| - |a| is -delta for a <= 0 and -delta - 2a above, delta = mu_v - mu_b the paired
    difference (the same deals: far tighter than either value's own interval): D's lower bound
    is -delta_hi - 2 max(0, a_hi); the mirror above t. A ``v`` whose interval holds t: by the
    two distance intervals. ``paired(a, b)``: compare's row of b against a."""
    lo_v, hi_v = row["ci"]
    lo_b, hi_b = best["ci"]
    if None not in (lo_v, hi_v, lo_b, hi_b) and (hi_v < t or lo_v > t):
        d_lo, d_hi = paired(b, v)["ci"]
        if d_lo is not None:
            if hi_v < t:
                return -d_hi - 2 * max(0.0, hi_b - t) > 0
            return d_lo - 2 * max(0.0, t - lo_b) > 0
    lo, hi = row["distance_ci"][0], best["distance_ci"][1]
    return lo is not None and hi is not None and hi < lo


def _vs(d: dict) -> dict:
    """The JSON of a paired difference: its value and interval, or why there is none."""
    out = {"diff": d["diff"], "ci": d["ci"], "method": d["method"]}
    if d["ci"][0] is None:
        k = (d.get("differing") or {}).get("games")
        out["no_interval"] = d["verdict"] + (f" ({k} differ)" if k is not None else "")
    return out


def ranking(cs: ChoiceSetup, sums) -> dict:
    """The solve's JSON from the played sums (variant v: the value ``cs.values[v]``)."""
    j, t = cs.metric_index, cs.target
    own = cs.values.index(cs.own) if cs.own in cs.values else None

    @functools.cache
    def paired(a: int, b: int) -> dict:
        """The paired difference of value b from value a: compare's row."""
        return difference_row(cs.metric, sums, j, a, b)
    rows = []
    for v, value in enumerate(cs.values):
        s = metric_summary(cs.metric, sums, j, v)
        row = {"value": value, "metric": s["value"], "ci": s["ci"], "n": s["n"]}
        if s["value"] is None:
            row.update(distance=None, distance_ci=[None, None], target_inside=None)
        else:
            row.update(distance=abs(s["value"] - t), distance_ci=_distance_ci(s["ci"], t),
                       target_inside=(s["ci"][0] is not None
                                      and s["ci"][0] <= t <= s["ci"][1]))
        if own is not None and v != own and s["value"] is not None:
            d = paired(own, v)
            if d["diff"] is not None:
                row["vs_scenario"] = _vs(d)
        rows.append(row)
    ranked = sorted((r for r in rows if r["distance"] is not None), key=lambda r: r["distance"])
    for i, r in enumerate(ranked):
        r["rank"] = i + 1
    best = ranked[0] if ranked else None
    clearly = bool(best and len(ranked) > 1 and all(
        _farther(paired, t, cs.values.index(best["value"]), best, cs.values.index(r["value"]),
                 r) for r in ranked[1:]))
    data = {"rule_kind": "choice", "scenario": cs.name, "param": cs.key,
            "scenario_value": cs.own, "metric": cs.metric.name, "target": t,
            "target_source": cs.target_source, "games": sums.n, "choices": rows,
            "best": None if best is None else best["value"], "clearly_closest": clearly,
            "reaching": [r["value"] for r in ranked if r["target_inside"]],
            "method": METHOD}
    data["verdict"] = verdict(data, cs.metric)
    return data


def verdict(data: dict, metric) -> str:
    from simcore.studies.solve_design import fmt_value
    key, t = data["param"], fmt_value(metric, data["target"])
    rows = {repr(r["value"]): r for r in data["choices"]}
    if data["best"] is None:
        return f"{metric.name} was not defined under any value of {key} (nothing to rank)"
    b = rows[repr(data["best"])]
    shown = (f"{fmt_value(metric, b['metric'])} [{fmt_value(metric, b['ci'][0])}, "
             f"{fmt_value(metric, b['ci'][1])}]")
    where = ("clearly the closest (every other value is farther, by the paired difference "
             "on the same deals or by the distance intervals)" if data["clearly_closest"] else
             "not clearly closer than every other value at these games")
    others = [v for v in data["reaching"] if v != data["best"]]
    if b["target_inside"]:
        also = (f"; also compatible with the target: {', '.join(map(str, others))}"
                if others else "")
        return (f"{key}: {data['best']} brings {metric.name} to {t}: {shown} holds the target; "
                f"{where}{also}")
    if others:   # the closest estimate's interval misses the target, another's holds it
        return (f"{key}: {data['best']} comes closest to {t}: {shown}, the target outside its "
                f"interval; {where}; compatible with the target: {', '.join(map(str, others))}")
    return (f"{key}: no allowed value reaches {t}; {data['best']} comes closest: {shown}; "
            f"{where}. A rule that is a number, or another rule, has to move the rest")


def choice_text(data: dict, metric) -> str:
    from simcore.studies.solve_design import fmt_value
    key = data["param"]
    lines = [f"solve {key} for {metric.name} = {fmt_value(metric, data['target'])} "
             f"({data['target_source']}) in {data['scenario']}",
             f"  a choice rule: each of its {len(data['choices'])} values x {data['games']:,} "
             f"games on the same deals; the scenario has {data['scenario_value']}", "",
             f"  {data['verdict']}", "",
             f"  {'rank':>4}  {key:>22}  {metric.name:>22}  {'95% interval':<22}"
             f"{'distance':>9}  {'95% interval':<20} vs the scenario's"]
    for r in sorted(data["choices"], key=lambda r: r.get("rank", 99)):
        if r["metric"] is None:
            lines.append(f"  {'-':>4}  {str(r['value']):>22}  {'not defined':>22}")
            continue
        ci = f"[{fmt_value(metric, r['ci'][0])}, {fmt_value(metric, r['ci'][1])}]"
        dci = f"[{_fd(r['distance_ci'][0], metric)}, {_fd(r['distance_ci'][1], metric)}]"
        vs = r.get("vs_scenario")
        vs_text = "(the scenario's own)" if r["value"] == data["scenario_value"] else \
            vs_shown(vs, metric)
        mark = " target inside" if r["target_inside"] else ""
        lines.append(f"  {r['rank']:>4}  {str(r['value']):>22}  "
                     f"{fmt_value(metric, r['metric']):>22}  {ci:<22}"
                     f"{_fd(r['distance'], metric):>9}  {dci:<20} {vs_text}{mark}")
    unit = "pp" if metric.is_rate else metric.unit
    lines.append(f"  (distance: |value - target|, in {unit}; vs the scenario's: the paired "
                 f"difference from its own value, same deals)")
    if data.get("luck_narrowing"):
        lines.append(f"  luck-corrected: intervals {data['luck_narrowing']:.2f}x narrower "
                     f"(--no-luck-correction for plain ones)")
    lines.append(f"  games: {data['games'] * len(data['choices']):,} in all; method: "
                 f"{data['method']}")
    return "\n".join(lines)


def vs_shown(vs, metric) -> str:
    """A paired difference from the scenario's own value as text: the difference and its
    interval, or why there is no interval."""
    if not vs:
        return "-"
    if vs["ci"][0] is None:
        return f"{_fd(vs['diff'], metric, True)} (no interval: {vs.get('no_interval', '')})"
    return (f"{_fd(vs['diff'], metric, True)} [{_fd(vs['ci'][0], metric, True)}, "
            f"{_fd(vs['ci'][1], metric, True)}]")


def _fd(x, metric, sign=False) -> str:
    if x is None:
        return "-"
    if metric.is_rate:
        return f"{100 * x:+.2f}" if sign else f"{100 * x:.2f}"
    return f"{x:+.3f}" if sign else f"{x:.3f}"


def target_measure(cs: ChoiceSetup):
    """``--target-ci``: the widest half-width among the values' intervals."""
    def measure(sums):
        widths = []
        for v in range(len(cs.values)):
            s = metric_summary(cs.metric, sums, cs.metric_index, v)
            if s["ci"][0] is None:
                return float("inf")
            widths.append((s["ci"][1] - s["ci"][0]) / 2)
        return max(widths)
    return measure


def play_choices(cs: ChoiceSetup, scenarios, seed: int, games: int, workers: int,
                 target_ci: float | None = None, max_games: int | None = None, **study):
    """Play every value on the same deals (``study``: :func:`run_study`'s ``sink``,
    ``progress``, ``notice``); ``(result, the solve's JSON)``."""
    from simcore.stats.luck import narrowing_of
    from simcore.studies.study import Target, run_study
    target, cap = None, games
    if target_ci is not None:
        cap = max_games or max(1_000_000, games)
        target = Target(cs.metric.name, target_ci, target_measure(cs),
                        f"every value of {cs.key}")
    result = run_study(cs.family, scenarios, seed, games, workers, target=target,
                       max_games=cap, **study)
    data = ranking(cs, result.sums)
    data["seed"] = result.seed
    luck = narrowing_of(result.sums, cs.metric_index)
    if luck:
        data["luck_narrowing"] = round(luck, 3)
    if result.reached:
        hw = result.reached.get("half_width")
        data["target_ci"] = {"target": result.reached["target"], "half_width": hw,
                             "reached": bool(result.reached.get("reached")),
                             "max_games": result.reached.get("max_games")}
    note = play_note(cs.family, scenarios)
    if note:
        data["note"] = note
    return result, data
