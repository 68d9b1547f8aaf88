"""Solving for a rule value: which value of one numeric rule brings a metric to a target (any
game family; the ``solve`` command's and :func:`simcore.studies.solve_design`'s).

The method, in three steps (docs/statistics.md, "solve"):

1. **Pilot.** ``PILOT_VALUES`` values spread over the range, a few games each, on a seed of
   its own (independent of the design's games, so choosing the design from it biases nothing).
   Its generous (99.9%) confidence set for the root says where to look.
2. **Design.** Values concentrated on that set, all played on common random numbers: game i
   of every value draws from the same (seed, i) randomness, so the differences between
   neighbouring values are measured far more tightly than the values themselves. An integer
   rule's design is every whole value of its window, never a spread: its metric often moves in
   steps (MOMOJAN's first dealer: 51.24% at komi 0, 49.11% at 1, 49.02% at 2), and a design that
   skipped komi 1 would interpolate from 0 to 2 and put the root at 1.12 instead of 0.58. When
   the window holds more than ``MAX_INTEGER_DESIGN`` whole values, more pilot rounds (their own
   seeds) fill the gaps between the values played so far until it holds fewer
   (:func:`place_design`); a window of more than ``MAX_WHOLE_DESIGN`` after them is refused
   in one line (narrow --range, or more --pilot-games).
3. **Inversion.** Between design values the metric is read off the piecewise-linear
   interpolant m(x) = (1 - w) m_i + w m_(i+1). The 95% confidence set for the root is every x
   where the test of ``metric(x) = target`` is not rejected, |m(x) - t| <= z sd(m(x)), with the
   variance from the design's full covariance (delta method, the game as the unit). On each
   segment this is Fieller's (1954) interval for a ratio of two correlated normal quantities,
   a quadratic inequality solved exactly. The point estimate is where the isotonic
   (monotone) regression of the design's values crosses the target (scipy's
   ``isotonic_regression``, weights 1 / variance).

A monotone regression inverted this way needs no model of the metric's shape beyond
linearity between neighbouring design values (their spacing is what the design makes small);
a test-inversion set, unlike a delta-method interval for the root, stays honest when the slope
is weak: it widens, or is unbounded, instead of pretending.

What this implementation simplifies: one rule at a time; one pilot, one design (no further
rounds: a set that reaches the edge of the design says so instead of playing more values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcore.errors import InputError, cut
from simcore.family.scenario.files import nested
from simcore.stats.moments import MomentSums, Z95, ratio_covariance

PILOT_VALUES = 7          # values the pilot spreads over the range
PILOT_GAMES = 2000        # games per pilot value (one chunk)
Z_PILOT = 3.2905          # two-sided 99.9%: the pilot only has to keep the root in the design
MAX_INTEGER_DESIGN = 11   # an integer window of more whole values: more pilot rounds narrow it
MAX_WHOLE_DESIGN = 41     # the most whole values an integer design plays (all of its window)
MAX_PILOT_ROUNDS = 6      # pilot rounds in all (the first one and the ones that narrow)
DESIGN_VALUES = 7         # a continuous rule: values spread over the window
METHOD = ("piecewise-linear interpolation over a design on common random numbers; the interval "
          "inverts the test of metric(x) = target at each x (Fieller's method per segment); "
          "the estimate is the crossing of the isotonic regression")


@dataclass(frozen=True)
class RuleParam:
    """The rule solved for: its dotted key, whether it takes whole numbers, the range searched
    and the scenario's own value."""

    key: str
    integer: bool
    lo: float
    hi: float
    base: float

    def value(self, x: float):
        """``x`` as the rule's YAML value (an int for an integer rule)."""
        return int(round(x)) if self.integer else float(round(x, 9))

    def label(self, x: float) -> str:
        return f"{self.key}={self.value(x)}"


def rule_param(fam, sc, key: str, range_text: str | None = None) -> RuleParam:
    """The numeric rule ``key`` of ``sc``'s family, with the range to search (``"LO,HI"``;
    default: the scenario's value +- max(10, |value|), within the rule's bounds). Refuses, in
    one line naming it, a key that does not exist or is not numeric, and a bad range."""
    key = (key or "").strip()
    if not key:
        raise InputError("--param: an empty key (a dotted scenario key, e.g. compensation.komi)")
    top = key.split(".")[0]
    if top in fam.SCENARIOS.RUNNER_KEYS:
        raise InputError(f"--param {key}: not a rule (the scenario's {top}: section is not "
                         f"played differently by its value); solve takes a rule")
    try:
        value = sc.get(key)
    except (KeyError, TypeError):
        raise InputError(f"--param {key}: no such key in {sc.name} (momojan-sim show "
                         f"{sc.name} lists them)") from None
    spec = fam.SCENARIOS.numeric_rule(key)
    if spec is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        shown = ("a table of keys" if hasattr(value, "keys") else "a list"
                 if isinstance(value, (list, tuple)) else repr(value)[:40])
        raise InputError(f"--param {key}: not a numeric rule (its value is {shown}); solve "
                         f"takes a rule with a number as its value")
    integer, lo_bound, hi_bound = spec
    span = max(10.0, abs(float(value)))
    lo, hi = float(value) - span, float(value) + span
    if range_text is not None:
        parts = [p.strip() for p in str(range_text).split(",")]
        try:
            if len(parts) != 2:
                raise ValueError
            lo, hi = (float(p) for p in parts)
        except ValueError:
            raise InputError(f"--range {range_text}: expected LO,HI (two numbers, e.g. "
                             f"-10,10)") from None
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise InputError(f"--range {cut(range_text)}: not two finite numbers (nan, inf and "
                             f"numbers past 1e308 are none)")
        if lo >= hi:
            raise InputError(f"--range {range_text}: LO must be below HI")
        if integer and (lo != int(lo) or hi != int(hi)):
            raise InputError(f"--range {range_text}: {key} takes whole numbers")
        for b, name in ((lo_bound, "minimum"), (hi_bound, "maximum")):
            if b is not None and not (lo >= b if name == "minimum" else hi <= b):
                raise InputError(f"--range {range_text}: outside {key}'s {name} {b}")
    else:
        lo = max(lo, lo_bound) if lo_bound is not None else lo
        hi = min(hi, hi_bound) if hi_bound is not None else hi
    if integer:
        lo, hi = math.ceil(lo), math.floor(hi)
        if hi - lo < 1:
            raise InputError(f"--range: {key} needs at least two whole values to search")
    return RuleParam(key, integer, lo, hi, value)


def spread(lo: float, hi: float, k: int, integer: bool) -> list:
    """``k`` values evenly over [lo, hi] (an integer rule: distinct integers, every one when
    there are at most ``k``)."""
    if integer:
        lo_i, hi_i = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
        if hi_i - lo_i + 1 <= k:
            return list(range(lo_i, hi_i + 1))
        return sorted({int(round(x)) for x in np.linspace(lo_i, hi_i, k)})
    return [float(round(x, 9)) for x in np.linspace(lo, hi, k)]


def variants(fam, sc, param: RuleParam, values) -> tuple[list, list]:
    """The scenario at each value (validated like YAML) and its (label, settings)."""
    scenarios, labels = [], []
    for x in values:
        v = param.value(x)
        scenarios.append(fam.SCENARIOS.with_overrides(sc, nested(param.key, v), f"{sc.name} {param.key}={v}"))
        labels.append((param.label(x), {param.key: v}))
    return scenarios, labels


def pilot_seed(seed: int, round_: int = 0) -> int:
    """The seed of the pilot's round ``round_`` (0: the first): independent of the design's
    (seed) and of each other."""
    key = [seed, 0x501E] if round_ == 0 else [seed, 0x501E, round_]
    return int(np.random.SeedSequence(key).generate_state(1, np.uint64)[0])


# ---------------------------------------------------------------------------------------------
# The metric along the rule, and its inversion
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Curve:
    """A metric at design values ``xs`` (ascending): values ``m`` and their covariance."""

    xs: np.ndarray
    m: np.ndarray
    cov: np.ndarray

    @classmethod
    def from_sums(cls, xs, sums: MomentSums, j: int) -> "Curve":
        v = sums.variants
        num = np.array([sums.s[j, 2 * a] for a in range(v)], float)
        den = np.array([sums.s[j, 2 * a + 1] for a in range(v)], float)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
        return cls(np.asarray(xs, float), m, ratio_covariance(sums, j))

    def merge(self, other: "Curve") -> "Curve":
        """This curve and ``other``, played on independent seeds, as one (ascending values;
        the covariance block-diagonal)."""
        xs = np.concatenate([self.xs, other.xs])
        m = np.concatenate([self.m, other.m])
        n, k = len(self.xs), len(other.xs)
        cov = np.zeros((n + k, n + k))
        cov[:n, :n], cov[n:, n:] = self.cov, other.cov
        order = np.argsort(xs, kind="stable")
        return Curve(xs[order], m[order], cov[np.ix_(order, order)])

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def compatible(self, target: float, z: float = Z95) -> np.ndarray:
        """Per design value: its own interval holds the target (a direct test, no model)."""
        return np.abs(self.m - target) <= z * self.se

    def root_set(self, target: float, z: float = Z95) -> list:
        """The confidence set for the root within [xs[0], xs[-1]]: disjoint [lo, hi] pieces."""
        pieces = []
        for i in range(len(self.xs) - 1):
            mi, mj = self.m[i], self.m[i + 1]
            vii, vij, vjj = self.cov[i, i], self.cov[i, i + 1], self.cov[i + 1, i + 1]
            if not np.all(np.isfinite([mi, mj, vii, vij, vjj])):
                continue
            c, a, z2 = mi - target, mj - mi, z * z
            # (c + a w)^2 - z^2 Var((1 - w) m_i + w m_j) <= 0, a quadratic in w on [0, 1]
            q = (a * a - z2 * (vii - 2 * vij + vjj), 2 * a * c - 2 * z2 * (vij - vii),
                 c * c - z2 * vii)
            x0, h = self.xs[i], self.xs[i + 1] - self.xs[i]
            pieces += [(x0 + w0 * h, x0 + w1 * h) for w0, w1 in _nonpositive(q)]
        return _merge(pieces)

    def estimate(self, target: float) -> float | None:
        """Where the isotonic regression of ``m`` (weights 1 / variance, the direction of the
        data) crosses ``target`` (linear between design values); None when it does not."""
        from scipy.optimize import isotonic_regression
        ok = np.isfinite(self.m)
        xs, m = self.xs[ok], self.m[ok]
        if len(xs) < 2:
            return None
        w = 1.0 / np.maximum(np.diag(self.cov)[ok], 1e-12)
        rising = np.polyfit(xs, m, 1, w=np.sqrt(w))[0] >= 0
        f = isotonic_regression(m, weights=w, increasing=bool(rising)).x
        g = f - target
        for i in range(len(xs) - 1):
            if g[i] == 0 and g[i + 1] == 0:
                k = i + 1
                while k + 1 < len(xs) and g[k + 1] == 0:
                    k += 1
                return float((xs[i] + xs[k]) / 2)   # flat at the target: the middle of it
            if g[i] == 0:
                return float(xs[i])
            if g[i] * g[i + 1] < 0:
                return float(xs[i] + (xs[i + 1] - xs[i]) * g[i] / (g[i] - g[i + 1]))
        return float(xs[-1]) if g[-1] == 0 else None


def _nonpositive(q) -> list:
    """Sub-intervals of [0, 1] where a w^2 + b w + c <= 0 (single points included)."""
    a, b, c = q

    def f(w):
        return (a * w + b) * w + c

    cuts = {0.0, 1.0}
    if abs(a) > 1e-300:
        disc = b * b - 4 * a * c
        if disc >= 0:
            r = math.sqrt(disc)
            cuts |= {(-b - r) / (2 * a), (-b + r) / (2 * a)}
    elif abs(b) > 1e-300:
        cuts.add(-c / b)
    cuts = sorted(w for w in cuts if 0.0 <= w <= 1.0)
    out = [[lo, hi] for lo, hi in zip(cuts, cuts[1:]) if f((lo + hi) / 2) <= 0]
    out += [[w, w] for w in cuts if f(w) <= 0 and not any(lo <= w <= hi for lo, hi in out)]
    return _merge(out)


def _merge(pieces) -> list:
    out = []
    for lo, hi in sorted(pieces):
        if out and lo <= out[-1][1] + 1e-12:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def set_half_width(curve: Curve, target: float, param: RuleParam, z: float = Z95) -> float:
    """What ``--target-ci`` watches: half the width of the 95% set's hull; inf while it reaches
    an end of the design that is not an end of the range (the root could lie beyond), 0 when
    it is empty (no value in the design reaches the target: more games would not find one)."""
    pieces = curve.root_set(target, z)
    if not pieces:
        return 0.0
    if any(open_edges(pieces, curve.xs, param)[0]):
        return math.inf
    return (pieces[-1][1] - pieces[0][0]) / 2


def open_edges(pieces, xs, param: RuleParam) -> tuple:
    """``((low, high) the set reaches a design end inside the range: the root could lie
    beyond, (low, high) it reaches an end of the range))``."""
    at_lo = bool(pieces) and pieces[0][0] <= xs[0] + 1e-12
    at_hi = bool(pieces) and pieces[-1][1] >= xs[-1] - 1e-12
    return ((at_lo and xs[0] > param.lo, at_hi and xs[-1] < param.hi),
            (at_lo and xs[0] <= param.lo, at_hi and xs[-1] >= param.hi))


def design_window(param: RuleParam, pilot: Curve, target: float) -> tuple:
    """Where the design goes: the pilot's 99.9% set for the root, widened by a quarter of its
    width each side (at least four steps of an integer rule, a twentieth of the range
    otherwise), within the range; the whole range when the pilot's set is empty. An integer
    rule's window also reaches out to the pilot values either side of the set: between two
    pilot values the pilot interpolates, and a metric that moves in steps can cross the
    target anywhere between them, not where the line does."""
    pieces = pilot.root_set(target, Z_PILOT)
    if not pieces:
        return param.lo, param.hi
    lo, hi = set_lo, set_hi = pieces[0][0], pieces[-1][1]
    pad = (hi - lo) / 4
    lo, hi = lo - pad, hi + pad
    least = 4.0 if param.integer else (param.hi - param.lo) / 20
    if hi - lo < least:
        mid = (lo + hi) / 2
        lo, hi = mid - least / 2, mid + least / 2
    if param.integer:
        xs = pilot.xs[np.isfinite(pilot.m)]
        below, above = xs[xs <= set_lo + 1e-9], xs[xs >= set_hi - 1e-9]
        lo = min(lo, below.max()) if below.size else lo
        hi = max(hi, above.min()) if above.size else hi
    lo, hi = max(lo, param.lo), min(hi, param.hi)
    if param.integer:
        lo, hi = math.floor(lo + 1e-9), math.ceil(hi - 1e-9)
    return lo, hi


def whole_values(window) -> int:
    """How many whole values an integer window [lo, hi] holds."""
    return int(window[1] - window[0]) + 1


def gap_values(window, played, k: int) -> list:
    """Up to ``k`` whole values of ``window`` not in ``played``, each in the middle of the
    widest gap left (the window's ends first): where a further pilot round looks."""
    lo, hi = int(window[0]), int(window[1])
    pts = sorted({int(p) for p in played if lo <= p <= hi})
    new = [e for e in sorted({lo, hi}) if e not in pts][:k]
    pts = sorted(set(pts) | set(new))
    while len(new) < k:
        gaps = [(b - a, a, b) for a, b in zip(pts, pts[1:]) if b - a >= 2]
        if not gaps:
            break
        _, a, b = max(gaps, key=lambda g: (g[0], -g[1]))
        mid = (a + b) // 2
        new.append(mid)
        pts = sorted(pts + [mid])
    return sorted(new)


def place_design(param: RuleParam, target: float, play, notice=None,
                 metric_name: str = "the metric") -> tuple:
    """The pilot: ``play(values, round)`` returns the :class:`Curve` of ``values`` played on
    the pilot's seed of that round. ``(pilot curve, window, design values, rounds)``.

    The first round spreads ``PILOT_VALUES`` values over the range. An integer rule's design is
    every whole value of the window; while that is more than ``MAX_INTEGER_DESIGN``, a further
    round plays whole values in the widest gaps of the window (at most ``MAX_PILOT_ROUNDS``
    rounds in all, and none after a round that did not narrow it; the rounds' curves merge,
    independent seeds). A window that still holds more than ``MAX_WHOLE_DESIGN`` whole values
    is refused in one line (InputError) rather than played at spread values, which could skip
    the one that matters. (A pilot whose set is empty has no root to place: its window is the
    whole range, spread when it is that wide.)"""
    values = spread(param.lo, param.hi, PILOT_VALUES, param.integer)
    curve = play(values, 0)
    window = design_window(param, curve, target)
    rounds = 1
    while (param.integer and whole_values(window) > MAX_INTEGER_DESIGN
           and rounds < MAX_PILOT_ROUNDS and curve.root_set(target, Z_PILOT)):
        more = gap_values(window, curve.xs, PILOT_VALUES)
        if not more:
            break
        if notice:
            notice(f"pilot: {param.key} in [{window[0]}, {window[1]}] holds "
                   f"{whole_values(window)} whole values; {len(more)} more to narrow it")
        curve = curve.merge(play(more, rounds))
        rounds += 1
        before, window = window, design_window(param, curve, target)
        if whole_values(window) >= whole_values(before):
            break   # the metric hardly moves here: more rounds would not narrow it either
    if param.integer:
        n = whole_values(window)
        if n > MAX_WHOLE_DESIGN and curve.root_set(target, Z_PILOT):
            raise InputError(
                f"solve: the pilot places the root of {metric_name} = {target:g} only within "
                f"{param.key} in [{window[0]}, {window[1]}], {n:,} whole values, more than the "
                f"design plays ({MAX_WHOLE_DESIGN}: every whole value, none skipped); give "
                f"--range inside it or more --pilot-games")
    return curve, window, design_values(param, window), rounds


def design_values(param: RuleParam, window) -> list:
    """The design: every whole value of an integer rule's window (spread only over a window
    of more than ``MAX_WHOLE_DESIGN`` that the pilot found no root in), ``DESIGN_VALUES``
    values over a continuous rule's."""
    lo, hi = window
    if param.integer:
        if whole_values(window) <= MAX_WHOLE_DESIGN:
            return list(range(int(lo), int(hi) + 1))
        return spread(lo, hi, DESIGN_VALUES + 2, True)
    return spread(lo, hi, DESIGN_VALUES, False)


# ---------------------------------------------------------------------------------------------
# The answer
# ---------------------------------------------------------------------------------------------

def solution(param: RuleParam, metric, target: float, curve: Curve, z: float = Z95) -> dict:
    """The solve result as plain data: the estimate, the 95% set, the design with each
    value's own interval and whether it is compatible, the nearest allowed values, and a
    verdict in words (:func:`verdict`)."""
    pieces = curve.root_set(target, z)
    est = curve.estimate(target)
    xs = curve.xs
    compatible = curve.compatible(target, z)
    inside, at_range_end = open_edges(pieces, xs, param)
    design = [{"value": param.value(x), "metric": _num(m), "ci": [_num(m - z * s),
                                                                   _num(m + z * s)],
               "compatible": bool(c)}
              for x, m, s, c in zip(xs, curve.m, curve.se, compatible)]
    ci = [float(pieces[0][0]), float(pieces[-1][1])] if pieces else None
    if param.integer and ci is not None:
        ci = [round(ci[0], 3), round(ci[1], 3)]
    out = {
        "param": param.key, "integer": param.integer, "range": [param.value(param.lo),
                                                              param.value(param.hi)],
        "scenario_value": param.base, "metric": metric.name, "target": target,
        "estimate": None if est is None else round(est, 4),
        "ci": ci, "pieces": [[round(a, 4), round(b, 4)] for a, b in pieces],
        "open": [bool(e) for e in inside],
        "reaches_range_end": [bool(e) for e in at_range_end],
        "half_width": None if ci is None else round((ci[1] - ci[0]) / 2, 4),
        "design": design,
        "compatible_values": [d["value"] for d in design if d["compatible"]],
        "nearest": _nearest(param, est, design),
        "method": METHOD,
    }
    steps = effect_steps(param, curve)
    if steps:
        out["steps"] = steps
    out["verdict"] = verdict(out, metric)
    return out


def effect_steps(param: RuleParam, curve: Curve, z: float = 3.0) -> dict | None:
    """Whether the rule's effect moves in steps: neighbouring whole values between which the
    metric barely moves, alternating with values between which it jumps (MOMOJAN's komi
    counted at the end: final margins are mostly even, so komi 0 and -1 decide nearly the
    same games and 0 and 1 do not). A flat pair's difference is at most a quarter of the
    median of the larger half of the differences; every other difference must be a jump,
    beyond ``z`` of its paired standard errors (with many games a flat pair's small difference
    is significant too: flatness is relative, a jump is not noise). ``{"step":
    k, "groups": [[values alike], ...], "within": the largest flat difference}`` when the
    values played fall in such runs (k the most common run length, at least 2); None
    otherwise (a continuous rule, unevenly spaced values, or no pattern)."""
    if not param.integer or len(curve.xs) < 4 or np.any(np.diff(curve.xs) != 1):
        return None
    n = len(curve.xs)
    d = np.diff(curve.m)
    var = np.array([curve.cov[i, i] + curve.cov[i + 1, i + 1] - 2 * curve.cov[i, i + 1]
                    for i in range(n - 1)])
    if not np.all(np.isfinite(d)):
        return None
    se = np.sqrt(np.maximum(var, 0.0))
    size = np.abs(d)
    top = np.sort(size)[len(size) // 2:]        # the larger half of the differences
    flat = size <= 0.25 * np.median(top)
    jump = ~flat & (size > z * se)
    if jump.sum() < 2 or not flat.any() or np.any(~flat & ~jump):
        return None                              # no clear jumps, or a middling difference
    groups, cur = [], [0]
    for i in range(n - 1):
        if flat[i]:
            cur.append(i + 1)
        else:
            groups.append(cur)
            cur = [i + 1]
    groups.append(cur)
    inner = [len(g) for g in groups[1:-1]] or [len(g) for g in groups]
    step = max(set(inner), key=inner.count)
    if step < 2 or inner.count(step) < max(1, len(inner) // 2):
        return None
    return {"step": int(step), "groups": [[param.value(curve.xs[i]) for i in g] for g in groups],
            "within": float(np.max(np.abs(d[flat])))}


def _num(x):
    return None if x is None or not np.isfinite(x) else round(float(x), 6)


def _nearest(param, est, design) -> list:
    """The design rows of the allowed values next to the estimate (the integers either side,
    or the design values either side of a continuous rule's estimate)."""
    if est is None:
        return []
    vals = [d["value"] for d in design]
    if param.integer:
        want = sorted({math.floor(est), math.ceil(est)})
    else:
        below = [v for v in vals if v <= est]
        above = [v for v in vals if v >= est]
        want = sorted({*(below[-1:]), *(above[:1])})
    return [d for d in design if d["value"] in want]


def fmt_value(metric, x) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if metric.is_rate else f"{x:.3f} {metric.unit}".strip()


def verdict(s: dict, metric) -> str:
    """One sentence: the value that reaches the target, or that none in the range does."""
    key, t = s["param"], fmt_value(metric, s["target"])
    design = s["design"]
    if s["ci"] is None:
        vals = [d["metric"] for d in design if d["metric"] is not None]
        lo, hi = (fmt_value(metric, min(vals)), fmt_value(metric, max(vals))) if vals else ("-",
                                                                                            "-")
        return (f"no value of {key} in [{s['range'][0]}, {s['range'][1]}] brings "
                f"{metric.name} to {t}: over the values played it runs from {lo} to {hi}"
                + steps_text(s, key))
    if all(d["compatible"] for d in design):
        return (f"{metric.name} does not detectably depend on {key} over the values played: "
                f"every one is compatible with {t}; no value can be singled out (more games, or "
                f"a wider --range)")
    lo, hi = s["ci"]
    edges = []
    if s["open"][0]:
        edges.append(f"the interval reaches the lowest value played ({design[0]['value']}): "
                     f"the root could lie lower")
    if s["open"][1]:
        edges.append(f"the interval reaches the highest value played ({design[-1]['value']}): "
                     f"the root could lie higher")
    est = "" if s["estimate"] is None else f"{key} = {s['estimate']:g}, "
    text = f"{est}95% interval [{lo:g}, {hi:g}], brings {metric.name} to {t}"
    if len(s["pieces"]) > 1:
        text += f" (the set has {len(s['pieces'])} pieces: the metric is not monotone here)"
    if s["integer"]:
        comp = s["compatible_values"]
        text += ("; whole values compatible with the target: " + ", ".join(map(str, comp))
                 if comp else "; no whole value played is compatible with the target (it lies "
                              "between two of them)")
    vals = [d["value"] for d in design]
    if s["integer"] and any(b - a > 1 for a, b in zip(vals, vals[1:])):
        edges.append("whole values between those played were not played (the interval "
                     "interpolates across them): give --range around it to play each")
    return text + ("; " + "; ".join(edges) if edges else "") + steps_text(s, key)


def steps_text(s: dict, key: str) -> str:
    """The sentence on a rule whose effect moves in steps (:func:`effect_steps`), or ''."""
    st = s.get("steps")
    if not st:
        return ""
    alike = [g for g in st["groups"] if len(g) > 1]
    shown = ", ".join(f"{g[0]}..{g[-1]}" for g in alike[:4]) + (", ..." if len(alike) > 4
                                                                 else "")
    return (f". {key}'s effect moves in steps of {st['step']}: the metric barely moves within "
            f"{shown} and jumps between them, so whole values reach it only in steps (the "
            f"estimate between two steps is no value the game can play: a finer target needs "
            f"another rule, or a tie rule)")
