"""Designing against several targets at once (the ``design`` command's, and
:func:`simcore.design`'s): search the rules a targets file lets change for a rule set that meets
every target, narrow with more games near the best candidates, and confirm on fresh deals.

Three stages, each played on common random numbers (every rule set of a stage on the same
deals, so rule sets are compared on their rules, not their luck):

1. **Search** (half the game budget): Optuna asks for rule sets in batches; each batch is played
   ``search_games`` games a rule set on the search seed, and every trial's score is the sum of
   its targets' violations (how far each metric lies outside its band, in units of the
   target's tolerance; 0 when every target is met). When the rule space is discrete and no
   larger than the trials the budget allows, every rule set is played once (nothing to model,
   nothing missed; the scenario's own first); otherwise Optuna's TPE sampler
   (multivariate, so rules that act together are modelled together; the kit's ``tune`` uses it
   too; it handles whole-number, float and categorical rules in one space). Each batch reseeds
   the sampler from (seed, batch), so a resumed design asks exactly what an uninterrupted one
   would. The scenario itself is played beside the first batch: its values are ``today``.
2. **Narrow** (a fifth of the budget), on deals of its own (the search's shared luck shifts
   every rule set alike, and chose the candidates): a wide round of every rule set compatible
   with the targets at the search's precision (up to ``NARROW_WIDE``, rule sets that played
   every game alike counted once), then a close round of the best ``NARROW`` of it and its
   trade-offs, with more games each.
3. **Confirm** (the rest): the ``CONFIRM`` best after narrowing, and the scenario itself, on
   fresh deals (a seed derived from the design's, never the search's): each target's estimate
   and 95% interval (the game as the unit; a target relative to ``today`` by the paired
   difference from the scenario on the same deals), and whether the rule set meets it surely
   (the whole interval inside the band), meets it (the estimate inside), or misses it.

The answer: the rule sets that meet every target on the fresh deals; or, where the targets
conflict, the non-dominated trade-offs among the confirmed rule sets and which targets bind
(a target binds when some rule set meets every other target but not it).

What this implementation simplifies: a trial's score is a sum of scaled violations, not a
multi-objective search (the trade-offs are read from the trials afterwards); the confirmation's
intervals are per target at 95%, not simultaneous over targets or rule sets; an interrupted
search batch is played again on resume (a batch is a few seconds of play).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

import numpy as np

from simcore.family.scenario.files import deep_merge, nested
from simcore.stats.moments import Z95, difference
from simcore.stats.summary import metric_summary

SEARCH_SHARE, NARROW_SHARE = 0.5, 0.2
NARROW_WIDE, NARROW, CONFIRM = 12, 4, 3
BATCH = 4
BUDGET_GAMES = 600_000
SEARCH_GAMES = 2_000
MIN_STAGE_GAMES = 200


def derived_seed(seed: int, what: str) -> int:
    """A seed of its own for a stage (never one a user would pick next, seed + 1)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:design-{what}".encode()).digest()[:8],
                          "little") >> 1


@dataclass
class Plan:
    """How the budget is spent: trials x search games, and the games of the narrowing and
    the confirmation in all (split among their rule sets, and the scenario, when they play)."""

    trials: int
    search_games: int
    narrow_total: int
    confirm_total: int
    narrow_games: int = 0
    confirm_games: int = 0

    def to_json(self) -> dict:
        return dict(self.__dict__)


def plan_budget(spec, budget_games: int, search_games: int) -> Plan:
    """Split ``budget_games`` among the stages (module docstring; the scenario itself plays
    beside the first search batch, the narrowing and the confirmation, and counts). A discrete
    space smaller than the trials the search share allows is played whole, and the rest of the
    search share goes to the later stages."""
    search = budget_games * SEARCH_SHARE
    trials = max(BATCH, int(search // search_games) - 1)
    leftover = 0.0
    if spec.space_size < trials:
        trials = int(spec.space_size)
        leftover = search - (trials + 1) * search_games
    narrow = int(budget_games * NARROW_SHARE + leftover * 0.4)
    confirm = int(budget_games - search - budget_games * NARROW_SHARE + leftover * 0.6)
    return Plan(trials, search_games, narrow, confirm)


def check_budget(budget_games: int, search_games: int) -> None:
    """A budget too small for one batch of the search and the stages after it is refused (the
    stages' floors would spend several times it)."""
    from simcore.errors import InputError
    need = int(2 * (BATCH + 1) * search_games / SEARCH_SHARE / 2)
    if budget_games < need:
        raise InputError(f"--budget-games {budget_games:,}: too small for --search-games "
                         f"{search_games:,} (at least {need:,}: a batch of {BATCH} rule sets "
                         f"and the scenario, then narrowing and confirmation)")


def stage_games(total: int, sets: int, floor: int = MIN_STAGE_GAMES) -> int:
    """Games per rule set when ``total`` is split among ``sets`` and the scenario."""
    return max(floor, int(total // (sets + 1)))


@dataclass
class Trial:
    number: int
    params: dict
    metrics: dict                 # metric -> estimate (search / narrowing games)
    violations: list
    stage: str = "search"
    cis: dict = field(default_factory=dict)   # metric -> its own 95% interval

    @property
    def total(self) -> float:
        return sum(self.violations)

    def to_json(self) -> dict:
        return {"number": self.number, "params": self.params, "metrics": self.metrics,
                "violations": [None if math.isinf(v) else v for v in self.violations],
                "total": None if math.isinf(self.total) else self.total, "stage": self.stage,
                "cis": self.cis}

    @classmethod
    def from_json(cls, d) -> "Trial":
        return cls(d["number"], d["params"], d["metrics"],
                   [math.inf if v is None else v for v in d["violations"]], d["stage"],
                   d.get("cis") or {})


@dataclass
class DesignState:
    """What a design has played, as saved after every batch (``design.json``)."""

    plan: Plan
    today: dict = field(default_factory=dict)
    trials: list = field(default_factory=list)
    narrowed: list = field(default_factory=list)
    confirmed: dict | None = None
    games: int = 0
    batches: int = 0
    narrow_today: dict = field(default_factory=dict)
    told: list = field(default_factory=list)     # every (params, value, number) told to Optuna
    seconds: float = 0.0                         # of play, every session together

    def to_json(self) -> dict:
        return {"plan": self.plan.to_json(), "today": self.today,
                "trials": [t.to_json() for t in self.trials],
                "narrowed": [t.to_json() for t in self.narrowed], "confirmed": self.confirmed,
                "games": self.games, "batches": self.batches, "narrow_today": self.narrow_today,
                "told": self.told, "seconds": self.seconds}

    @classmethod
    def from_json(cls, d) -> "DesignState":
        return cls(Plan(**d["plan"]), d["today"], [Trial.from_json(t) for t in d["trials"]],
                   [Trial.from_json(t) for t in d["narrowed"]], d["confirmed"], d["games"],
                   d["batches"], d.get("narrow_today") or {}, d.get("told") or [],
                   d.get("seconds") or 0.0)


def _label(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


class Designer:
    """One design: ``spec`` (:class:`simcore.studies.design_spec.DesignSpec`) against
    scenario ``sc``. ``save(state)`` is called after every batch (a result directory's
    ``design.json``); ``say`` prints one line of progress."""

    def __init__(self, fam, sc, spec, seed: int, workers: int, plan: Plan, state=None,
                 save=None, say=None, progress=None, deadline: float | None = None):
        self.fam, self.sc, self.spec, self.seed, self.workers = fam, sc, spec, seed, workers
        self.state = state or DesignState(plan)
        self.plan = self.state.plan
        self.save = save or (lambda state: None)
        self.say = say or (lambda text: None)
        self.progress = progress
        self.deadline = deadline
        self.workers_used = workers
        names = [m.name for m in fam.CATALOGUE]
        self.index = {t.metric: names.index(t.metric) for t in spec.targets}
        self.metrics = {m.name: m for m in fam.CATALOGUE}

    # -- playing ----------------------------------------------------------------------------

    def scenario(self, params: dict, name: str):
        over = {}
        for k, v in params.items():
            over = deep_merge(over, nested(k, v))
        return self.fam.SCENARIOS.with_overrides(self.sc, over, name)

    def play(self, scenarios, seed: int, games: int):
        from simcore.studies.study import run_study
        p = self.progress() if self.progress else None
        t0 = time.perf_counter()
        res = run_study(self.fam, scenarios, seed, games, self.workers, paired=True,
                        progress=p)
        if p is not None:
            p.done()
        self.state.games += games * len(scenarios)
        self.state.seconds += time.perf_counter() - t0
        self.workers_used = res.workers
        return res

    def estimates(self, sums, v: int) -> tuple:
        """(metric -> estimate, metric -> its 95% interval) of variant ``v``: one summary
        of each target's metric serves both."""
        s = {name: metric_summary(self.metrics[name], sums, j, v)
             for name, j in self.index.items()}
        return {k: x["value"] for k, x in s.items()}, {k: x["ci"] for k, x in s.items()}

    def compatible(self, t: "Trial", today: dict) -> bool:
        """Whether every target's band meets the trial's own 95% interval (at the search's
        games the estimates share the search deals' luck: a rule set the luck put just
        outside a band stays a candidate)."""
        for tg in self.spec.targets:
            lo, hi = tg.band(today.get(tg.metric))
            ci = t.cis.get(tg.metric) or [None, None]
            if ci[0] is None:
                if t.violations[self.spec.targets.index(tg)] > 0:
                    return False
                continue
            if (hi is not None and ci[0] > hi) or (lo is not None and ci[1] < lo):
                return False
        return True

    def violations(self, metrics: dict) -> list:
        return [t.violation(metrics[t.metric], self.state.today.get(t.metric))
                for t in self.spec.targets]

    # -- the search -------------------------------------------------------------------------

    def _distributions(self):
        import optuna
        out = {}
        for r in self.spec.rules:
            if r.choices:
                out[r.key] = optuna.distributions.CategoricalDistribution(list(r.choices))
            elif r.integer:
                out[r.key] = optuna.distributions.IntDistribution(int(r.lo), int(r.hi),
                                                                  step=int(r.step or 1))
            else:
                out[r.key] = optuna.distributions.FloatDistribution(r.lo, r.hi, step=r.step)
        return out

    @property
    def exhaustive(self) -> bool:
        return self.spec.space_size <= self.plan.trials

    def sampler_name(self) -> str:
        return ("every rule set of the space once" if self.exhaustive
                else "Optuna's TPE sampler, multivariate")

    def _sampler(self, batch: int):
        import optuna
        s = derived_seed(self.seed, f"sampler-{batch}") % 2 ** 32
        return optuna.samplers.TPESampler(seed=s, multivariate=True,
                                          n_startup_trials=max(8, self.plan.trials // 5))

    def _grid(self) -> list:
        """Every rule set of a discrete space, the scenario's own first when it is one."""
        import itertools
        keys = [r.key for r in self.spec.rules]
        combos = [dict(zip(keys, c)) for c in itertools.product(*[r.values
                                                                  for r in self.spec.rules])]
        own = {k: self.sc.get(k) for k in keys}
        # a seeded order, not the product's: a time budget that stops the search early has
        # played rule sets from all over the space, not one corner of it
        order = np.random.default_rng(derived_seed(self.seed, "grid")).permutation(len(combos))
        combos = [combos[i] for i in order]
        return sorted(combos, key=lambda p: p != own)

    def _play_batch(self, fresh: list, seed: int, save: bool = True) -> list:
        """Play the rule sets ``fresh`` (and, the first time, the scenario: ``today``); the
        new trials. A rule set the scenario's rules refuse as a combination (each value loads
        alone, not together) is a trial of its own that meets nothing, and is not played."""
        from simcore.errors import InputError
        made, refused = [], {}
        for i, p in enumerate(fresh):
            try:
                made.append(self.scenario(p, f"{self.sc.name} design "
                                             f"{len(self.state.trials) + i}"))
            except InputError as exc:
                refused[i] = str(exc).split(": ", 1)[-1]
        first = not self.state.today
        scenarios = ([self.sc] if first else []) + made
        res = self.play(scenarios, seed, self.plan.search_games) if scenarios else None
        if first:
            self.state.today = self.estimates(res.sums, 0)[0]
        out, v = [], (1 if first else 0)
        for i, params in enumerate(fresh):
            if i in refused:
                t = Trial(len(self.state.trials), params, {n: None for n in self.index},
                          [math.inf] * len(self.spec.targets), "refused")
                self.say(f"search: {_label(params)} is not a valid scenario ({refused[i]})")
            else:
                m, cis = self.estimates(res.sums, v)
                t = Trial(len(self.state.trials), params, m, self.violations(m), cis=cis)
                v += 1
            self.state.trials.append(t)
            out.append(t)
        self.state.batches += 1
        if save:
            self.save(self.state)
        best = min(self.state.trials, key=lambda t: t.total)
        self.say(f"search: {len(self.state.trials)}/{self.plan.trials} trials; best so far "
                 f"{_label(best.params)} ({_score(best.total)})")
        return out

    def _out_of_time(self) -> bool:
        if self.deadline is not None and time.perf_counter() > self.deadline \
                and len(self.state.trials) >= BATCH:
            self.say(f"search: the time budget's share is spent after "
                     f"{len(self.state.trials)} trials")
            self.plan.trials = len(self.state.trials)
            return True
        return False

    def search(self):
        seed = derived_seed(self.seed, "search")
        if self.exhaustive:
            played = {repr(sorted(t.params.items())) for t in self.state.trials}
            todo = [p for p in self._grid() if repr(sorted(p.items())) not in played]
            while todo and not self._out_of_time():
                self._play_batch(todo[:BATCH], seed)
                todo = todo[BATCH:]
            return
        self._search_tpe(seed)

    def _search_tpe(self, seed: int):
        import optuna
        optuna.logging.set_verbosity(optuna.logging.ERROR)
        dists = self._distributions()
        study = optuna.create_study(direction="minimize")
        seen = {repr(sorted(t.params.items())): t for t in self.state.trials}
        # A resumed design: every answer Optuna was given (repeats and prunes too), in the
        # order of its trials' numbers, which is not the order of the answers (a repeat asked
        # in a batch is answered before the batch's rule sets asked ahead of it are played)
        # and matters to TPE (its weights ramp over the trials by age): so it asks what it
        # would have asked.
        told = sorted(enumerate(self.state.told),
                      key=lambda e: (e[1][2] if len(e[1]) > 2 else e[0], e[0]))
        for _, (params, value, *_number) in told:
            study.add_trial(optuna.trial.create_trial(
                params=params, distributions=dists, value=value,
                state=optuna.trial.TrialState.COMPLETE if value is not None
                else optuna.trial.TrialState.PRUNED))

        def tell(trial, value):
            if value is None:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, value)
            self.state.told.append([dict(trial.params), value, trial.number])
        own = {r.key: self.sc.get(r.key) for r in self.spec.rules}
        while len(self.state.trials) < self.plan.trials and not self._out_of_time():
            study.sampler = self._sampler(self.state.batches)
            want = min(BATCH, self.plan.trials - len(self.state.trials))
            asked, guard = [], 0
            while len(asked) < want and guard < 20 * BATCH:
                guard += 1
                if not asked and not self.state.trials and _inside(own, self.spec.rules):
                    study.enqueue_trial(own)      # the scenario's own rules first
                trial = study.ask(dists)
                key = repr(sorted(trial.params.items()))
                if key in seen:                   # a rule set played already: its score
                    tell(trial, min(seen[key].total, 1e12))
                    continue
                if any(key == repr(sorted(a.params.items())) for a in asked):
                    tell(trial, None)
                    continue
                asked.append(trial)
            if not asked:
                self.say(f"search: the sampler offers no new rule set after "
                         f"{len(self.state.trials)} trials")
                self.plan.trials = len(self.state.trials)
                break
            played = self._play_batch([dict(a.params) for a in asked], seed, save=False)
            for trial, t in zip(asked, played):
                seen[repr(sorted(t.params.items()))] = t
                tell(trial, min(t.total, 1e12))
            self.save(self.state)

    # -- narrowing and confirmation ----------------------------------------------------------

    def candidates(self, trials, k: int, today: dict, extra: int) -> list:
        """Up to ``k`` rule sets to narrow: those compatible with every target at the trials'
        precision first, then the rest, each by total violation; a rule set that played every
        game as another did (the same estimates: komi -1 and 0 when margins are even) is one
        candidate; then up to ``extra`` non-dominated trade-offs not among them."""
        trials = [t for t in trials if t.stage != "refused"]
        ranked = sorted(trials, key=lambda t: (not self.compatible(t, today), t.total,
                                               t.number))
        out, alike = [], set()
        for t in ranked:
            key = tuple(sorted(t.metrics.items()))
            if key in alike:
                continue
            alike.add(key)
            if len(out) < k:
                out.append(t)
        for t in pareto(sorted(trials, key=lambda t: (t.total, t.number))):
            key = tuple(sorted(t.metrics.items()))
            if len(out) >= k + extra:
                break
            if t not in out and not any(tuple(sorted(o.metrics.items())) == key for o in out):
                out.append(t)
        return out

    def _narrow_round(self, cands, stage: str, total: int) -> tuple:
        games = stage_games(total, len(cands), self.plan.search_games)
        self.say(f"narrowing ({'wide' if stage == 'narrow1' else 'close'}): {len(cands)} rule "
                 f"sets x {games:,} games on deals of their own")
        res = self.play([self.sc] + [self.scenario(t.params, f"{self.sc.name} design "
                                                             f"{t.number}") for t in cands],
                        derived_seed(self.seed, stage), games)
        today = self.estimates(res.sums, 0)[0]
        out = []
        for v, t in enumerate(cands, start=1):
            m, cis = self.estimates(res.sums, v)
            viol = [tg.violation(m[tg.metric], today.get(tg.metric))
                    for tg in self.spec.targets]
            out.append(Trial(t.number, t.params, m, viol, stage, cis))
        return out, today, games

    def narrow(self):
        """Two rounds on deals of their own (independent of the search's, whose shared luck
        shifts every rule set alike and so chose the candidates): a wide one of every rule set
        compatible with the targets at the search's precision (up to ``NARROW_WIDE``), then a
        close one of the best ``NARROW`` of it (and its trade-offs) with more games each."""
        if self.state.narrowed and self.state.narrowed[0].stage == "narrow":
            return
        if not self.state.narrowed:
            cands = self.candidates(self.state.trials, NARROW_WIDE, self.state.today, 0)
            wide, today, _ = self._narrow_round(cands, "narrow1", int(self.plan.narrow_total
                                                                      * 0.4))
            self.state.narrowed, self.state.narrow_today = wide, today
            self.save(self.state)
        cands = self.candidates(self.state.narrowed, NARROW, self.state.narrow_today, 2)
        self.state.narrowed, _, self.plan.narrow_games = self._narrow_round(
            cands, "narrow", int(self.plan.narrow_total * 0.6))
        self.save(self.state)

    def confirm(self):
        if self.state.confirmed is not None:
            return
        ranked = sorted(self.state.narrowed, key=lambda t: (t.total, t.number))
        finalists = ranked[:CONFIRM]
        for t in pareto(ranked):   # a trade-off is confirmed too when the targets conflict
            if len(finalists) >= CONFIRM + 2:
                break
            if t not in finalists and t.total > 0 and finalists[0].total > 0:
                finalists.append(t)
        seed = derived_seed(self.seed, "confirm")
        self.plan.confirm_games = stage_games(self.plan.confirm_total, len(finalists))
        self.say(f"confirming: {len(finalists)} rule sets and the scenario x "
                 f"{self.plan.confirm_games:,} games on fresh deals")
        scenarios = [self.sc] + [self.scenario(t.params, f"{self.sc.name} design {t.number}")
                                 for t in finalists]
        res = self.play(scenarios, seed, self.plan.confirm_games)
        today = {name: metric_summary(self.metrics[name], res.sums, j, 0)
                 for name, j in self.index.items()}
        rows = []
        for v, t in enumerate(finalists, start=1):
            checks = []
            for tg in self.spec.targets:
                j = self.index[tg.metric]
                s = metric_summary(self.metrics[tg.metric], res.sums, j, v)
                row = {"metric": tg.metric, "value": s["value"], "ci": s["ci"]}
                if tg.needs_today:   # against the scenario on the same deals: the difference
                    d = difference(res.sums, j, 0, v, True)
                    if d.diff is None or d.se is None:
                        row.update(status="misses", diff=None, diff_ci=[None, None])
                    else:
                        ci = [d.diff - Z95 * d.se, d.diff + Z95 * d.se]
                        row.update(diff=d.diff, diff_ci=ci, status=tg.status_against_today(
                            s["value"], s["ci"], d.diff, ci))
                else:
                    row["status"] = tg.status(s["value"], s["ci"], None)
                lo, hi = tg.band(today[tg.metric]["value"])
                row["band"] = [lo, hi]
                checks.append(row)
            m = {c["metric"]: c["value"] for c in checks}
            viol = [tg.violation(m[tg.metric], today[tg.metric]["value"])
                    for tg in self.spec.targets]
            rows.append({"number": t.number, "params": t.params, "targets": checks,
                         "violations": [None if math.isinf(x) else x for x in viol],
                         "meets_all": all(c["status"].startswith("meets") for c in checks),
                         "surely": sum(c["status"] == "meets surely" for c in checks)})
        self.state.confirmed = {"seed": seed, "games": self.plan.confirm_games,
                                "today": {k: {"value": v["value"], "ci": v["ci"]}
                                          for k, v in today.items()},
                                "rule_sets": rows}
        self.save(self.state)

    def run(self) -> dict:
        self.search()
        self.narrow()
        self.confirm()
        return answer(self.spec, self.state, self.sc, self.sampler_name())


def size_later_stages(designer: "Designer", seconds: float) -> None:
    """A time budget of ``seconds``: size narrowing and confirmation from the speed the search
    showed (its games over its seconds of play, every session of a resumed design together),
    to fill the time left of the budget (4 : 6)."""
    st = designer.state
    if st.narrowed or st.confirmed:               # sized (and begun) before a resume
        return
    rate = st.games / max(st.seconds, 1e-9)
    left = max(0.0, seconds - st.seconds) * rate
    designer.plan.narrow_total = int(left * 0.4)
    designer.plan.confirm_total = int(left * 0.6)


def _inside(values: dict, rules) -> bool:
    for r in rules:
        v = values.get(r.key)
        if r.choices:
            if v not in r.choices:
                return False
        elif v is None or not r.lo <= v <= r.hi or (
                r.step is not None and abs((v - r.lo) / r.step - round((v - r.lo) / r.step))
                > 1e-9):
            return False
    return True


def _score(total: float) -> str:
    return "every target met" if total == 0 else f"violation {total:.3g}"


def dominates(a: list, b: list) -> bool:
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def pareto(trials) -> list:
    """The trials no other dominates on the per-target violations (ties kept once)."""
    out, seen = [], set()
    for t in trials:
        if any(dominates(o.violations, t.violations) for o in trials if o is not t):
            continue
        key = tuple(t.violations)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def answer(spec, state: DesignState, sc, sampler: str) -> dict:
    """The design's JSON: the targets, the search, and the confirmed rule sets with their
    verdict in words."""
    conf = state.confirmed or {"rule_sets": []}
    rows = conf["rule_sets"]
    meeting = [r for r in rows if r["meets_all"]]
    binds = []
    if not meeting:
        for i, tg in enumerate(spec.targets):
            others = [r for r in rows if all(c["status"].startswith("meets")
                                             for k, c in enumerate(r["targets"]) if k != i)]
            if others:
                binds.append(tg.metric)
        if not binds and rows:   # no single target: those the closest rule set misses
            best = min(rows, key=lambda r: sum(math.inf if x is None else x
                                               for x in r["violations"]))
            binds = [c["metric"] for c in best["targets"] if not c["status"].startswith("meets")]
    trade = []
    if not meeting and rows:
        class _T:
            def __init__(self, r):
                self.r, self.violations = r, [math.inf if x is None else x
                                              for x in r["violations"]]
        trade = [t.r["number"] for t in pareto([_T(r) for r in rows])]
    data = {"scenario": sc.name, "targets": [t.to_json() for t in spec.targets],
            "rules": [r.to_json() for r in spec.rules], "plan": state.plan.to_json(),
            "sampler": sampler, "today": state.today, "games": state.games,
            "trials": [t.to_json() for t in state.trials],
            "narrowed": [t.to_json() for t in state.narrowed], "confirmed": conf,
            "meeting": [r["number"] for r in meeting], "trade_offs": trade, "binding": binds}
    data["verdict"] = verdict(data)
    return data


def verdict(data: dict) -> str:
    rows = {r["number"]: r for r in data["confirmed"]["rule_sets"]}
    n = len(data["targets"])
    if data["meeting"]:
        best = max((rows[k] for k in data["meeting"]), key=lambda r: r["surely"])
        more = len(data["meeting"]) - 1
        return (f"{_label(best['params'])} meets all {n} targets on fresh deals ({best['surely']}"
                f" of them surely: the whole 95% interval inside)"
                + (f"; {more} more rule set{'s' * (more != 1)} meet{'s' * (more == 1)} them "
                   f"too" if more else ""))
    if not rows:
        return "nothing was confirmed (no rule set played)"
    binds = ", ".join(data["binding"]) or "none singly"
    return (f"no rule set tried meets all {n} targets on fresh deals: the targets conflict "
            f"over the rules allowed, or need other rules; binding: {binds}. "
            f"The best trade-offs: " + "; ".join(_label(rows[k]["params"])
                                                for k in data["trade_offs"]))


def design_text(data: dict, catalogue) -> str:
    """The design as a designer reads it."""
    from simcore.studies.solve_design import fmt_value
    metrics = {m.name: m for m in catalogue}
    p = data["plan"]
    lines = [f"design of {data['scenario']}: {len(data['targets'])} targets, "
             f"{len(data['rules'])} rules; {len(data['trials'])} trials x "
             f"{p['search_games']:,} games ({data['sampler']}), {len(data['narrowed'])} "
             f"narrowed x {p['narrow_games']:,}, confirmed on fresh deals x "
             f"{p['confirm_games']:,}; {data['games']:,} games in all", "",
             f"  {data['verdict']}", ""]
    today = data["confirmed"].get("today", {})
    for r in data["confirmed"]["rule_sets"]:
        tag = ("meets every target" if r["meets_all"] else "misses "
               + ", ".join(c["metric"] for c in r["targets"]
                           if not c["status"].startswith("meets")))
        lines.append(f"  {_label(r['params'])}: {tag}")
        for c, tg in zip(r["targets"], data["targets"]):
            m = metrics[c["metric"]]
            ci = f"[{fmt_value(m, c['ci'][0])}, {fmt_value(m, c['ci'][1])}]"
            extra = ""
            if c.get("diff") is not None:
                sign = _signed(c["diff"], m)
                extra = (f", {sign} [{_signed(c['diff_ci'][0], m)}, "
                         f"{_signed(c['diff_ci'][1], m)}] from today")
            lines.append(f"    {c['metric']:<28} {fmt_value(m, c['value']):>12} {ci:<22} "
                         f"target {tg['text']}{extra}: {c['status']}")
    if today:
        lines += ["", "  today (the scenario itself, same fresh deals): " + "; ".join(
            f"{k} {fmt_value(metrics[k], v['value'])}" for k, v in today.items())]
    return "\n".join(lines)


def _signed(x, m) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.2f} pp" if m.is_rate else f"{x:+.3f} {m.unit}".strip()
