"""Playing a solve (the ``solve`` command's, and :func:`simcore.studies.solve_design`'s): the pilot, then the
design in a result directory of kind ``solve`` (resumable like any study), then the answer
(:mod:`simcore.studies.solve_design` has the method).

The directory is made once the pilot has chosen the design: its variants are the design's
values, and its options keep the rule, the target and the pilot's figures, so ``--resume``
continues the design without playing the pilot again. A solve interrupted during its pilot
(a few seconds of play) leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcore.errors import InputError
from simcore.stats.moments import Z95
from simcore.studies.solve_design import (PILOT_GAMES, PILOT_VALUES, Curve, RuleParam, pilot_seed, place_design, rule_param, set_half_width, solution, variants)
from simcore.family.chunks import rounds_played
from simcore.studies.notes import play_note


MAX_TARGET = 1e15   # larger than any metric of any family (points and margins included)


def parse_target(text: str | None, metric, n_seats: int) -> tuple[float, str]:
    """``(target, where it came from)``: ``--target`` as a number (a rate also as ``50%``),
    or the metric's fair value for ``n_seats`` seats."""
    if text is None or not str(text).strip():
        fair = metric.fair(n_seats)
        if fair is None:
            raise InputError(f"--target: {metric.name} has no fair value; give the value to "
                             f"reach (e.g. --target 0.5)")
        return float(fair), "its fair value"
    t = str(text).strip()
    pct = t.endswith("%")
    try:
        value = float(t[:-1] if pct else t)
    except ValueError:
        raise InputError(f"--target {text}: expected a number (a rate also as 50%)") from None
    if pct:
        if not metric.is_rate:
            raise InputError(f"--target {text}: {metric.name} is not a rate (give it in "
                             f"{metric.unit})")
        value /= 100
    if value != value or value in (float("inf"), float("-inf")):
        raise InputError(f"--target {text}: not a finite number")
    if abs(value) > MAX_TARGET:   # a QA trial: 1e300 played a whole design in overflow warnings
        raise InputError(f"--target {text}: beyond any value a metric takes (at most "
                         f"{MAX_TARGET:.0e} either side)")
    if metric.is_rate and not 0 <= value <= 1:
        raise InputError(f"--target {text}: {metric.name} is a rate (0 to 1, or 0% to 100%)")
    return value, "given"


@dataclass
class SolveSetup:
    """What a solve plays, before the design: the scenario, the rule, the metric, the
    target. :func:`setup` checks them all (one line on any bad input) before any game."""

    family: object
    scenario: object
    param: RuleParam
    metric: object
    metric_index: int
    target: float
    target_source: str
    name: str | None = None   # the scenario solved (a resumed solve's scenario is a design value)


def setup(fam, sc, key: str, metric_name: str | None, target_text: str | None,
          range_text: str | None) -> SolveSetup:
    from simcore.studies.compare import select_metrics
    name = select_metrics(metric_name or fam.HEADLINE, fam.CATALOGUE, "--metric")[0]
    names = [m.name for m in fam.CATALOGUE]
    metric = fam.CATALOGUE[names.index(name)]
    target, source = parse_target(target_text, metric, len(sc["players"]))
    param = rule_param(fam, sc, key, range_text)
    # every value of the range must be a valid scenario (a bound that another key limits)
    for x in (param.lo, param.hi):
        try:
            variants(fam, sc, param, [x])
        except InputError as exc:   # the loader says "--set KEY: ..."; here it was the range
            why = str(exc).split(": ", 2)[-1]
            raise InputError(f"--range {param.value(param.lo)},{param.value(param.hi)}: at "
                             f"{param.label(x)}, {why} (narrow the range)") from None
    return SolveSetup(fam, sc, param, metric, names.index(name), target, source)


def play_pilot(su: SolveSetup, seed: int, games: int, workers: int, progress=None,
               notice=None, say=None) -> dict:
    """The pilot (its own seeds): values over the range, ``games`` each, and for an integer
    rule whose window is wide, further rounds that narrow it (:func:`simcore.studies.solve_design.place_design`;
    ``say`` prints their one-line notes). Plain data: the values, their metric and covariance,
    and the design chosen from them."""
    from simcore.studies.study import run_study
    seeds, rounds = [], [0]

    def play(values, round_):
        scenarios, _ = variants(su.family, su.scenario, su.param, values)
        s = pilot_seed(seed, round_)
        res = run_study(su.family, scenarios, s, games, workers, progress=progress,
                        notice=notice)
        seeds.append(s)
        rounds[0] += sum(rounds_played(su.family, res.sums, v) for v in range(len(values)))
        return Curve.from_sums(values, res.sums, su.metric_index)

    curve, window, design, n_rounds = place_design(su.param, su.target, play, say,
                                                   su.metric.name)
    out = {"values": [su.param.value(x) for x in curve.xs], "games": games,
           "seed": seeds[0], "metric": [_f(x) for x in curve.m],
           "cov": [[_f(x) for x in row] for row in curve.cov],
           "window": [su.param.value(window[0]), su.param.value(window[1])],
           "design": [su.param.value(x) for x in design],
           "rounds": rounds[0]}
    if n_rounds > 1:
        out["round_seeds"] = seeds
    return out


def _f(x):
    x = float(x)
    return None if x != x else x


def options_of(su: SolveSetup, pilot: dict) -> dict:
    """The solve's options as saved in provenance.json (what ``--resume`` rebuilds from)."""
    p = su.param
    return {"param": {"key": p.key, "integer": p.integer, "lo": p.lo, "hi": p.hi,
                      "base": p.base},
            "metric": su.metric.name, "target": su.target, "target_source": su.target_source,
            "scenario": su.scenario.name, "pilot": pilot}


def from_options(fam, sc, opts: dict) -> SolveSetup:
    """The setup of a saved solve (``--resume``, ``show``, ``report``)."""
    p = opts["param"]
    param = RuleParam(p["key"], p["integer"], p["lo"], p["hi"], p["base"])
    names = [m.name for m in fam.CATALOGUE]
    j = names.index(opts["metric"])
    # the scenario's own name (issue 46): ``sc`` is the first design value's variant, named
    # "<scenario> <key>=<value>"; a directory saved before the name was kept is read back so
    name = opts.get("scenario")
    if not isinstance(name, str):
        name = sc.name.rsplit(f" {p['key']}=", 1)[0]
    return SolveSetup(fam, sc, param, fam.CATALOGUE[j], j, opts["target"],
                      opts["target_source"], name)


def target_measure(su: SolveSetup, values):
    """The ``--target-ci`` measure: the solution's interval half-width from the sums."""
    def measure(sums):
        return set_half_width(Curve.from_sums(values, sums, su.metric_index), su.target,
                              su.param)
    return measure


def answer(su: SolveSetup, values, result, pilot: dict) -> dict:
    """The solve's JSON: the solution, the pilot, the games."""
    curve = Curve.from_sums(values, result.sums, su.metric_index)
    sol = solution(su.param, su.metric, su.target, curve, Z95)
    games = result.sums.n
    data = {"scenario": su.name or su.scenario.name, "seed": result.seed, "games": games,
            "target_source": su.target_source, **sol,
            "pilot": {k: pilot[k] for k in ("values", "games", "seed", "metric", "window")}
            | {"ci": _pilot_ci(pilot)},
            "games_total": games * len(values) + pilot["games"] * len(pilot["values"])}
    if result.reached:
        hw = result.reached.get("half_width")
        data["target_ci"] = {"target": result.reached["target"],
                             "half_width": None if hw is None or hw == float("inf") else hw,
                             "reached": bool(hw is not None and hw <= result.reached["target"]),
                             "max_games": result.reached.get("max_games")}
    return data


def play_design(su: SolveSetup, pilot: dict, scenarios, seed: int, games: int, workers: int,
                target_ci: float | None = None, max_games: int | None = None, **study):
    """Play the design the pilot chose (``scenarios``: its values) on common random numbers,
    in batches until the solution's half-width is ``target_ci`` when given; ``(result,
    the solve's JSON with the play note)``. ``study`` goes to :func:`simcore.studies.study.run_study`
    (``sink``, ``progress``, ``notice``, ...)."""
    from simcore.studies.study import Target, run_study
    values = pilot["design"]
    target, cap = None, games
    if target_ci is not None:
        cap = max_games or max(1_000_000, games)
        target = Target(su.metric.name, target_ci, target_measure(su, values),
                        f"solution of {su.param.key}")
    result = run_study(su.family, scenarios, seed, games, workers, target=target,
                       max_games=cap, **study)
    data = answer(su, values, result, pilot)
    from simcore.stats.luck import narrowing_of
    j = [m.name for m in su.family.CATALOGUE].index(su.metric.name)
    luck = narrowing_of(result.sums, j)
    if luck:
        data["luck_narrowing"] = round(luck, 3)
    if not data.get("compatible_values") and result.extras is not None:
        pointer = breakdown_pointer(su, values, data, result)
        if pointer:
            data["points_to"] = pointer
            data["verdict"] += ". " + pointer["text"]
    note = play_note(su.family, scenarios)
    if note:
        data["note"] = note
    return result, data


def breakdown_pointer(su: SolveSetup, values, data: dict, result) -> dict | None:
    """Where the gap to the target comes from when no value of the rule reaches it: in the
    run's breakdowns of the design value nearest the target (how games ended, how long they
    lasted, the score gap at the end), the part of at least 0.5% of the games whose own value
    lies furthest from the target on the gap's side, its 95% interval excluding the target
    (MOMOJAN's level games, 100% to the first dealer, not the long games at 54% that hold more
    of the gap by their number); its pull, share x (its value - target); and the rules the
    family says act on it (``BREAKDOWN_RULES``). None when the family has no breakdown of the
    metric or no part stands out."""
    fam = su.family
    rows = [(i, d) for i, d in enumerate(data["design"]) if d["metric"] is not None]
    if not rows or su.metric.name not in getattr(fam, "BREAKDOWN_METRICS", ()):
        return None
    v, near = min(rows, key=lambda r: abs(r[1]["metric"] - su.target))
    gap = near["metric"] - su.target
    if gap == 0:
        return None
    breakdowns = result.extras.to_json(fam, fam.CATALOGUE, v).get("breakdown") or {}
    best = None
    for name, b in breakdowns.items():
        for part in b.get("parts", []):
            m = (part.get("metrics") or {}).get(su.metric.name) or {}
            share = (part.get("share") or {}).get("value")
            ci = m.get("ci") or [None, None]
            if m.get("value") is None or not share or share < 0.005 or ci[0] is None:
                continue
            off = m["value"] - su.target
            beyond = ci[0] > su.target if gap > 0 else ci[1] < su.target
            if off * gap > 0 and beyond and (best is None or abs(off) > abs(best[0])):
                best = (off, name, b.get("what", name), part["label"], share, m["value"])
    if best is None:
        return None
    off, name, what, label, share, value = best
    pull = share * off
    from simcore.studies.solve_design import fmt_value
    rules = list(getattr(fam, "BREAKDOWN_RULES", {}).get((name, label), ()))
    unit = "pp" if su.metric.is_rate else su.metric.unit
    k = 100 if su.metric.is_rate else 1
    # a part's pull on the whole is its share of the metric's denominator times its distance:
    # the share of games for a per-game metric (a per-round or per-win metric's parts weigh
    # by their rounds or wins, which the breakdown does not give: no pull then)
    per_game = su.metric.kind == "game_rate" or su.metric.per == "games"
    text = (f"The breakdown points to {what}: {label} ({100 * share:.1f}% of the games at "
            f"{su.param.key} = {values[v]}), where {su.metric.name} is "
            f"{fmt_value(su.metric, value)}"
            + (f", pulls it {k * pull:+.2f} {unit} of the {k * gap:+.2f} {unit} from the "
               f"target" if per_game else f" ({k * gap:+.2f} {unit} from the target overall)")
            + (f"; rules that act there: {', '.join(rules)}" if rules else ""))
    if not per_game:
        pull = None
    return {"breakdown": name, "part": label, "share": share, "value": value,
            "pull": pull, "gap": gap, "at": values[v], "rules": rules, "text": text}


def solve(fam, sc, key: str, metric_name: str | None = None, target_text: str | None = None,
          range_text: str | None = None, *, games: int, seed: int, workers: int = 1,
          pilot_games: int = PILOT_GAMES, **design) -> dict:
    """A whole solve of ``sc`` with nothing saved: the pilot, then the design; the JSON."""
    su = setup(fam, sc, key, metric_name, target_text, range_text)
    pilot = play_pilot(su, seed, pilot_games, workers)
    scenarios, _ = variants(fam, sc, su.param, pilot["design"])
    return play_design(su, pilot, scenarios, seed, games, workers, **design)[1]


def _pilot_ci(pilot: dict) -> list:
    out = []
    for i, m in enumerate(pilot["metric"]):
        v = pilot["cov"][i][i]
        out.append(None if m is None or v is None else
                   [m - Z95 * max(v, 0) ** 0.5, m + Z95 * max(v, 0) ** 0.5])
    return out


def solve_text(data: dict, metric) -> str:
    """The solve as a designer reads it: the verdict, the design table, the games."""
    from simcore.studies.solve_design import fmt_value
    key = data["param"]
    kind = "whole numbers" if data["integer"] else "any value"
    lines = [f"solve {key} for {metric.name} = {fmt_value(metric, data['target'])} "
             f"({data['target_source']}) in {data['scenario']}",
             f"  range [{data['range'][0]}, {data['range'][1]}] ({kind}); the scenario has "
             f"{data['scenario_value']}",
             f"  pilot: {len(data['pilot']['values'])} values x {data['pilot']['games']:,} games "
             f"(its own seed); design: {len(data['design'])} values around "
             f"[{data['pilot']['window'][0]}, {data['pilot']['window'][1]}] x "
             f"{data['games']:,} games each, on the same deals", "",
             f"  {data['verdict']}", "",
             f"  {key:>24}  {metric.name:>22}  95% interval           target"]
    near = {d["value"] for d in data["nearest"]}
    for d in data["design"]:
        ci = d["ci"]
        mark = "compatible" if d["compatible"] else ""
        lines.append(f"  {('> ' if d['value'] in near else '') + str(d['value']):>24}  "
                     f"{fmt_value(metric, d['metric']):>22}  "
                     f"[{fmt_value(metric, ci[0])}, {fmt_value(metric, ci[1])}]".ljust(74)
                     + f" {mark}")
    lines.append(f"  (> the allowed values next to the estimate; 'compatible': that value's own "
                 f"95% interval holds the target)")
    if "target_ci" in data:
        t = data["target_ci"]
        hw = "none (the interval is open)" if t["half_width"] is None else f"{t['half_width']:g}"
        lines.append(f"  --target-ci {t['target']:g}: "
                     + ("reached" if t["reached"] else f"not reached by --max-games "
                        f"{t['max_games']:,}") + f" (half-width {hw})")
    if data.get("luck_narrowing"):
        lines.append(f"  luck-corrected: the design values' intervals are "
                     f"{data['luck_narrowing']:.2f}x narrower than plain ones "
                     f"(--no-luck-correction for those)")
    lines.append(f"  games: {data['games_total']:,} in all (pilot included); method: "
                 f"{data['method']}")
    return "\n".join(lines)
