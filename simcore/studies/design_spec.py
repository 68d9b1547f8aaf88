"""What ``design`` is asked: the targets a rule set must meet and the rules it may change, read
from the designer's YAML file and checked before any game (one line naming the key on any
error).

A targets file::

    targets:
      first_dealer_win_rate: {tolerance: 0.5pp}        # the fair value (50%) +- 0.5 pp
      draw_rate: {at_most: today}                       # no higher than the scenario's own
      mean_rounds_per_game: {value: today, tolerance: 0.5}
      yaku_kerai_share: {at_least: 1%}
      seat0_win_share: {range: [45%, 55%]}
    rules:
      compensation.komi: {range: [-3, 3]}               # a whole-number rule: every value
      scoring.ron_bonus: {range: [0, 3], step: 1}
      game.tie_break: {choices: [first_dealer, draw]}   # or `choices: all`
      riichi.enabled: {}                                # a choice or boolean rule: all values

A target is a metric of the family's catalogue with ``value`` and ``tolerance`` (``value``
defaults to the metric's fair value), a ``range: [lo, hi]``, ``at_most`` or ``at_least``; a
number may be ``today`` (the scenario's own value, measured on the same deals as the search) and
a rate's may be written ``50%`` (a tolerance ``0.5pp``). A rule is a numeric rule with a
``range`` (and a ``step``; a whole-number rule's is 1, a float rule without one is searched
continuously) or a choice or boolean rule (``choices``, default every value it allows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from simcore.errors import InputError, cut

TARGET_KINDS = ("value", "range", "at_most", "at_least")
TARGET_KEYS = {"value", "tolerance", "range", "at_most", "at_least"}
RULE_KEYS = {"range", "step", "choices"}
MAX_VALUES = 1000       # values of one discrete numeric rule


@dataclass(frozen=True)
class Target:
    """One target: ``metric``'s band [lo, hi] (either end may be None: open, or ``today``
    until the scenario's own value is known), and the scale violations are measured in."""

    metric: str
    kind: str
    lo: object
    hi: object
    scale: float
    text: str               # as the designer wrote it, for the report
    centre: object = None   # a value target's value (may be "today")
    tolerance: float | None = None

    def band(self, today: float | None) -> tuple:
        """(lo, hi) with ``today`` (the scenario's own value) put in."""
        def one(x, offset=0.0):
            if x is None:
                return None
            if x == "today":
                return None if today is None else today + offset
            return x
        if self.kind == "value":
            c = one(self.centre)
            return (None, None) if c is None else (c - self.tolerance, c + self.tolerance)
        return one(self.lo), one(self.hi)

    def violation(self, m: float | None, today: float | None) -> float:
        """How far ``m`` lies outside the band, in units of the target's scale (0 inside)."""
        if m is None or (isinstance(m, float) and math.isnan(m)):
            return math.inf
        if self.needs_today and today is None:
            return math.inf                       # no today to measure against: not met
        lo, hi = self.band(today)
        out = 0.0
        if lo is not None and m < lo:
            out = lo - m
        if hi is not None and m > hi:
            out = m - hi
        return out / self.scale

    def status_against_today(self, m, ci, d, d_ci) -> str:
        """:meth:`status` of a target with a ``today`` bound: that bound judged by the paired
        difference ``d`` (interval ``d_ci``) from the scenario on the same deals, an absolute
        bound by the estimate ``m`` (interval ``ci``); the worse of the two sides."""
        if self.kind == "value":                  # value: today +- tolerance, all relative
            return Target(self.metric, "range", -self.tolerance, self.tolerance, self.scale,
                          self.text).status(d, d_ci, None)
        sides = []
        for bound, which in ((self.lo, "lo"), (self.hi, "hi")):
            if bound is None:
                continue
            one = Target(self.metric, "range", 0.0 if bound == "today" else bound, None,
                         self.scale, self.text) if which == "lo" else \
                Target(self.metric, "range", None, 0.0 if bound == "today" else bound,
                       self.scale, self.text)
            sides.append(one.status(d, d_ci, None) if bound == "today"
                         else one.status(m, ci, None))
        order = ("misses surely", "misses", "meets", "meets surely")
        return min(sides, key=order.index) if sides else "meets surely"

    def status(self, m, ci, today) -> str:
        """``meets surely`` (the whole 95% interval inside the band), ``meets`` (the estimate
        inside, the interval reaching out), ``misses`` (the estimate outside) or ``misses
        surely`` (the whole interval outside)."""
        if m is None:
            return "misses"
        lo, hi = self.band(today)

        def inside(x):
            return (lo is None or x >= lo) and (hi is None or x <= hi)
        if inside(m):
            return "meets surely" if ci[0] is not None and inside(ci[0]) and inside(ci[1]) \
                else "meets"
        outside = ci[0] is not None and ((hi is not None and ci[0] > hi)
                                         or (lo is not None and ci[1] < lo))
        return "misses surely" if outside else "misses"

    @property
    def needs_today(self) -> bool:
        return "today" in (self.lo, self.hi, self.centre)

    def to_json(self) -> dict:
        return {"metric": self.metric, "kind": self.kind, "lo": self.lo, "hi": self.hi,
                "centre": self.centre, "tolerance": self.tolerance, "scale": self.scale,
                "text": self.text}


@dataclass(frozen=True)
class Rule:
    """One rule the design may change: a numeric range (``step``: None for a continuous float
    rule) or the ``choices`` of a choice or boolean rule."""

    key: str
    integer: bool = False
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    choices: tuple = ()

    @property
    def values(self) -> list | None:
        """Every value of a discrete rule (None: a continuous one)."""
        if self.choices:
            return list(self.choices)
        if self.step is None:
            return None
        n = int(math.floor((self.hi - self.lo) / self.step + 1e-9))
        vals = [self.lo + i * self.step for i in range(n + 1)]
        return [int(round(v)) if self.integer else round(v, 9) for v in vals]

    def to_json(self) -> dict:
        return {"key": self.key, "integer": self.integer, "lo": self.lo, "hi": self.hi,
                "step": self.step, "choices": list(self.choices)}


@dataclass
class DesignSpec:
    targets: list
    rules: list
    source: str = ""
    raw: dict = field(default_factory=dict)

    @property
    def space_size(self) -> float:
        """How many rule sets the space holds (inf with a continuous rule)."""
        n = 1.0
        for r in self.rules:
            v = r.values
            if v is None:
                return math.inf
            n *= len(v)
        return n


def _fail(where: str, what: str):
    raise InputError(f"{where}: {what}")


def _number(text, metric, where: str, allow_today: bool = True, size: bool = False):
    """A target's number: ``today``, a plain number, ``50%`` for a rate, or (``size``: a
    tolerance) ``0.5pp``."""
    if allow_today and isinstance(text, str) and text.strip() == "today":
        return "today"
    if isinstance(text, bool) or text is None:
        _fail(where, f"expected a number, got {cut(repr(text), 40)}")
    if isinstance(text, (int, float)):
        try:
            x = float(text)
        except OverflowError:
            _fail(where, f"{cut(repr(text), 40)}: too large a number")
    else:
        t = str(text).strip()
        scale = 1.0
        if t.endswith("pp" if size else "%"):
            if not metric.is_rate:
                _fail(where, f"{t}: {'pp' if size else '%'} is for rates; {metric.name} is in "
                             f"{metric.unit}")
            t, scale = t[:-2 if size else -1].strip(), 0.01
        try:
            x = float(t) * scale
        except (ValueError, OverflowError):
            _fail(where, f"{cut(repr(text), 40)}: not a number"
                         + (" (or today)" if allow_today else ""))
    if not math.isfinite(x):
        _fail(where, f"{cut(repr(text), 40)}: not a finite number")
    if metric.is_rate and not size and not 0 <= x <= 1:
        _fail(where, f"{cut(repr(text), 40)}: {metric.name} is a rate (0 to 1, or 0% to 100%)")
    return x


def _entry(body, where: str, keys: set, shapes: str, what: str) -> dict:
    """A target's or a rule's mapping (empty when null), refusing another shape or a key not
    in ``keys`` in one line."""
    if body is None:
        return {}
    if not isinstance(body, dict):
        _fail(where, f"expected a mapping ({shapes}), got {cut(repr(body), 40)}")
    unknown = sorted(str(k) for k in set(body) - keys)
    if unknown:
        _fail(f"{where}.{unknown[0]}", f"not a {what}")
    return body


def parse_target(name: str, body, catalogue, n_seats: int, where: str) -> Target:
    from simcore.studies.compare import _hint
    metrics = {m.name: m for m in catalogue}
    if name not in metrics:
        _fail(where, f"unknown metric{_hint(name, metrics)}")
    m = metrics[name]
    body = _entry(body, where, TARGET_KEYS, "{tolerance: ...}, {range: [lo, hi]}, "
                  "{at_most: ...} or {at_least: ...}", "target key (value, tolerance, range, "
                  "at_most, at_least)")
    kinds = [k for k in ("range", "at_most", "at_least") if k in body]
    if "value" in body or "tolerance" in body:
        kinds.append("value")
    if len(kinds) != 1:
        _fail(where, "give one of value/tolerance, range, at_most or at_least"
              if not kinds else f"give one of {', '.join(kinds)}, not several")
    kind = kinds[0]
    text = ", ".join(f"{k}: {v}" for k, v in body.items())
    scale_default = m.margin if not m.margin_relative else 0.01
    if kind == "value":
        if "tolerance" not in body:
            _fail(where, "a value target needs its tolerance (e.g. tolerance: 0.5pp)")
        tol = _number(body["tolerance"], m, f"{where}.tolerance", False, size=True)
        if tol <= 0:
            _fail(f"{where}.tolerance", "must be above 0")
        if "value" in body:
            centre = _number(body["value"], m, f"{where}.value")
        else:
            fair = m.fair(n_seats)
            if fair is None:
                _fail(where, f"{name} has no fair value: give its value (or value: today)")
            centre = float(fair)
            text = f"value: fair ({fair:g}), " + text
        return Target(name, "value", None, None, tol, text, centre, tol)
    if kind == "range":
        r = body["range"]
        if not isinstance(r, list) or len(r) != 2:
            _fail(f"{where}.range", f"expected [lo, hi], got {cut(repr(r), 40)}")
        lo = _number(r[0], m, f"{where}.range")
        hi = _number(r[1], m, f"{where}.range")
        if ("today" not in (lo, hi) and lo >= hi) or lo == hi == "today":
            _fail(f"{where}.range", "lo must be below hi")
        scale = (hi - lo) / 2 if "today" not in (lo, hi) else scale_default
        return Target(name, "range", lo, hi, scale, text)
    x = _number(body[kind], m, f"{where}.{kind}")
    return Target(name, kind, x if kind == "at_least" else None,
                  x if kind == "at_most" else None, scale_default, text)


def parse_rule(key: str, body, fam, sc, where: str) -> Rule:
    loader = fam.SCENARIOS
    top = key.split(".")[0]
    if key in ("players", "game", "name", "description") or top == "run" or (
            top in loader.RUNNER_KEYS and key == top):
        _fail(where, "not a rule (the design changes rules, not how the tool runs)")
    try:
        own = sc.get(key)
    except (KeyError, TypeError):
        own = None
    choices = loader.choice_rule(key)
    numeric = loader.numeric_rule(key)
    if own is None and not choices and not numeric:
        _fail(where, f"no such rule in {sc.name} (momojan-sim show {sc.name} lists them)")
    body = _entry(body, where, RULE_KEYS, "{range: [lo, hi]} or {choices: [...]}",
                  "rule key (range, step, choices)")
    if choices:
        if "range" in body or "step" in body:
            _fail(where, f"a choice rule takes choices, not a range "
                         f"({', '.join(map(str, choices))})")
        want = body.get("choices", "all")
        if want == "all":
            want = list(choices)
        if not isinstance(want, list) or len(want) < 2:
            _fail(f"{where}.choices", "expected a list of at least two of "
                                      f"{', '.join(map(str, choices))} (or all)")
        bad = [c for c in want if c not in choices]
        if bad:
            _fail(f"{where}.choices", f"{cut(repr(bad[0]), 30)} is not one of "
                                      f"{', '.join(map(str, choices))}")
        if len(set(map(repr, want))) != len(want):
            _fail(f"{where}.choices", "a value is given twice")
        return Rule(key, choices=tuple(want))
    if not numeric:
        _fail(where, f"not a number, choice or boolean rule (its value is "
                     f"{cut(repr(own), 40)})")
    integer, b_lo, b_hi = numeric
    if "choices" in body:
        _fail(where, "a numeric rule takes a range (and a step), not choices")
    if "range" not in body:
        _fail(where, "a numeric rule needs its range: [lo, hi]")
    r = body["range"]
    if (not isinstance(r, list) or len(r) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in r)):
        _fail(f"{where}.range", f"expected [lo, hi] (two numbers), got {cut(repr(r), 40)}")
    try:
        lo, hi = float(r[0]), float(r[1])
    except OverflowError:
        _fail(f"{where}.range", "too large a number")
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        _fail(f"{where}.range", "expected two finite numbers, lo below hi")
    if integer and (lo != int(lo) or hi != int(hi)):
        _fail(f"{where}.range", f"{key} takes whole numbers")
    if b_lo is not None and lo < b_lo:
        _fail(f"{where}.range", f"below {key}'s minimum {b_lo}")
    if b_hi is not None and hi > b_hi:
        _fail(f"{where}.range", f"above {key}'s maximum {b_hi}")
    step = body.get("step", 1 if integer else None)
    if step is not None:
        if isinstance(step, bool) or not isinstance(step, (int, float)) or not (
                -1e300 < float(step) < 1e300) or step <= 0:
            _fail(f"{where}.step", f"expected a number above 0, got {cut(repr(step), 30)}")
        if integer and step != int(step):
            _fail(f"{where}.step", f"{key} takes whole numbers")
        if step > hi - lo:
            _fail(f"{where}.step", "larger than the range")
        n = math.floor((hi - lo) / step + 1e-9)
        if n + 1 > MAX_VALUES:
            _fail(where, f"{n + 1:,} values in the range at step {step:g}: at most "
                         f"{MAX_VALUES:,} (a larger step, or no step for a float rule)")
        hi = lo + n * float(step)                 # the last value the step reaches
    return Rule(key, integer, lo, hi, None if step is None else float(step))


def parse_spec(text: str, fam, sc, source: str) -> DesignSpec:
    """The targets file's text as a :class:`DesignSpec`, checked against ``fam``'s catalogue
    and ``sc``'s rules (every value a rule may take is loaded once: a value the scenario's
    other rules refuse is one line here, not a failed trial later)."""
    import yaml
    from simcore.family.scenario.files import deep_merge, load_yaml, nested
    try:
        data = load_yaml(text)   # the scenarios' loader: a key given twice is an error
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 1})" if mark is not None else ""
        _fail(source, f"not valid YAML{at}: {getattr(exc, 'problem', None) or exc}")
    if not isinstance(data, dict):
        _fail(source, "expected a mapping with targets: and rules:")
    unknown = sorted(str(k) for k in set(data) - {"targets", "rules"})
    if unknown:
        _fail(f"{source}: {unknown[0]}", "not a key of a targets file (targets, rules)")
    for k in ("targets", "rules"):
        if not isinstance(data.get(k), dict) or not data.get(k):
            _fail(f"{source}: {k}", "expected a mapping of at least one entry")
    n = len(sc["players"])
    targets = [parse_target(str(k), v, fam.CATALOGUE, n, f"{source}: targets.{k}")
               for k, v in data["targets"].items()]
    rules = [parse_rule(str(k), v, fam, sc, f"{source}: rules.{k}")
             for k, v in data["rules"].items()]
    for r in rules:   # each choice and each end of a range loads alone (a bound another
        # rule limits, a choice it forbids); a refused combination is a refused trial later
        vals = list(r.choices) if r.choices else [r.values[0], r.values[-1]] if r.values \
            else [r.lo, r.hi]
        for v in vals:
            try:
                fam.SCENARIOS.with_overrides(sc, deep_merge({}, nested(r.key, v)), "check")
            except InputError as exc:
                _fail(f"{source}: rules.{r.key}", f"the value {v!r} does not make a valid "
                                                  f"scenario: {str(exc).split(': ', 1)[-1]}")
    return DesignSpec(targets, rules, source, data)
