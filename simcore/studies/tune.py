"""``tune``: search a policy's declared style parameters for the best win rate against a field.

Each trial is a two-entrant duplicate tournament (:func:`simcore.studies.tournament.run_tournament`):
the candidate against the field, every deal in both seatings, and every trial on the same deals
(the tuning seed), so two candidates differ by their play, not by their luck (common random
numbers). The search is Optuna's TPE sampler (Bergstra et al. 2011; seeded, one trial after
another, so a tune is reproducible), the policy's defaults enqueued as the first trial. The
best candidate on the tuning deals is optimistic (it won the search on those deals), so the
answer is measured again on *fresh* deals (another seed): the tuned policy's win share against
the field with a 95% interval that takes the deal as the unit (both seatings of one deal are one
observation), and the default policy's on the same fresh deals for comparison.

Why Optuna: a maintained, seeded implementation of a sampler built for noisy, mixed
(float / int / bool) parameter spaces of a few dimensions, the shape of a bot's style
parameters; the Tabletop Games framework's NTBEA is the game-agent counterpart.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

from scipy import stats as _st

from simcore.errors import InputError
from simcore.family.players import with_players

# parameters a tune leaves at their defaults unless asked (randomisation does not win games)
NOT_TUNED = ("temperature",)


@dataclass
class TuneResult:
    scenario: str
    policy: str
    against: str
    params: dict                    # the tuned parameters (every declared one)
    defaults: dict
    tuned_entry: str                # the --players entry that seats the tuned policy
    trials: list = field(default_factory=list)   # {"number", "params", "win_share"}
    games: int = 0                  # games per seating per trial
    seed: int = 0
    fresh: dict = field(default_factory=dict)    # tuned vs field on fresh deals
    fresh_default: dict | None = None            # default vs field on the same fresh deals
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"scenario": self.scenario, "policy": self.policy, "against": self.against,
                "params": self.params, "defaults": self.defaults,
                "tuned_entry": self.tuned_entry, "games_per_trial": self.games,
                "seed": self.seed, "budget": len(self.trials), "trials": self.trials,
                "fresh": self.fresh, "fresh_default": self.fresh_default,
                "seconds": round(self.seconds, 2)}


def entry(policy: str, values: dict, defaults: dict) -> str:
    """The ``--players`` entry of ``policy`` with the values that differ from its defaults
    (``value:call=0.8:riichi_gain=0.3``)."""
    from simcore.family.players import entry_text
    return entry_text(policy, values, defaults)


def tuned_names(spec, names=None, option: str = "--params") -> list:
    """The declared parameters a tune searches: ``names`` (checked) or all but NOT_TUNED."""
    declared = [p.name for p in spec.params]
    if not declared:
        raise InputError(f"{'tune' if option == '--params' else '--tuned'}: {spec.name} "
                         f"declares no parameters to tune")
    if names is None:
        return [n for n in declared if n not in NOT_TUNED]
    for n in names:
        if n not in declared:
            raise InputError(f"{option}: {spec.name} has no parameter {n!r} "
                             f"(it takes: {', '.join(declared)})")
    return list(names)


def _suggest(trial, p):
    if p.kind == "bool":
        return trial.suggest_categorical(p.name, [False, True])
    if p.kind == "int":
        lo, hi = p.search_range()
        return trial.suggest_int(p.name, int(lo), int(hi))
    lo, hi = (float(x) for x in p.search_range())
    step = 0.01 if hi - lo <= 1 else (0.05 if hi - lo <= 5 else 0.1)
    n = math.floor((hi - lo) / step + 1e-9)
    return trial.suggest_float(p.name, lo, lo + n * step, step=step)


def fresh_seed(seed: int) -> int:
    """The seed of the fresh deals: derived from the tuning seed, never one a user would pick
    next (seed + 1)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:tune-fresh".encode()).digest()[:8],
                          "little") >> 1


def deal_share(t) -> dict:
    """Entrant 0's share of finishes ahead against entrant 1 in a two-entrant tournament, with
    a 95% t interval over deals (one deal: both seatings, the unit the results depend on)."""
    sums = t.study.sums
    j = sums.s.shape[0] - 1          # the deal row (simcore.studies.tournament.DEAL_METRIC)
    n = float(sums.n)
    per_deal = float(sums.s[j, 1]) / n   # comparisons x SHARE per deal
    s, c = float(sums.s[j, 0]), float(sums.c[j, 0, 0])
    mean = s / (n * per_deal)
    var = max(0.0, (c / per_deal ** 2 - n * mean ** 2) / (n - 1)) if n > 1 else float("inf")
    half = _st.t.ppf(0.975, max(n - 1, 1)) * math.sqrt(var / n)
    return {"win_share": round(mean, 6), "ci": [round(max(0.0, mean - half), 6),
                                                 round(min(1.0, mean + half), 6)],
            "deals": int(n), "games": int(2 * n)}


def _play(fam, sc, a: str, b: str, games: int, seed: int, workers: int):
    from simcore.studies.tournament import run_tournament
    return run_tournament(sc, [a, b], games, seed, family=fam, workers=workers)


def check_inputs(fam, sc, policy: str, against: str, names=None,
                 option: str = "--params") -> tuple:
    """(the policy's spec, the parameters to tune), or one line naming the bad option."""
    specs = fam.POLICIES.by_name
    if policy not in specs:
        raise InputError(f"--policy: unknown policy {policy!r} (known: {', '.join(specs)})")
    if "," in against:   # --players would read it as seats, the tune's play as one name
        raise InputError(f"--against {against}: one entry (a policy with optional "
                         f":name=value parameters), not a list: tune measures the policy "
                         f"against one field entry (to rank several: tournament --policies)")
    with_players(fam, sc, against, option="--against")   # an unknown policy or parameter
    return specs[policy], tuned_names(specs[policy], names, option)


def tune(fam, sc, policy: str, against: str, *, budget: int = 40, games: int = 1000,
         check_games: int = 10000, seed: int = 1, workers: int = 0, names=None,
         progress=None) -> TuneResult:
    """Tune ``policy``'s parameters (``names``, default all but NOT_TUNED) for the best win share
    against the ``against`` entry under ``sc``: ``budget`` trials of ``games`` games per seating
    on the tuning seed, then the best and the defaults against the field on ``check_games``
    fresh deals. ``progress(text)`` gets one line per trial."""
    import optuna
    spec, tuned = check_inputs(fam, sc, policy, against, names)
    defaults = {p.name: p.default for p in spec.params}
    declared = {p.name: p for p in spec.params}
    started = time.perf_counter()
    trials = []

    def share(values) -> float:
        cand = entry(policy, values, defaults)
        if cand == against:
            return 0.5
        t = _play(fam, sc, cand, against, games, seed, workers)
        return float(t.wins[0, 1] / t.played[0, 1])

    def objective(trial):
        values = dict(defaults)
        for n in tuned:
            values[n] = _suggest(trial, declared[n])
        w = share(values)
        trials.append({"number": trial.number, "params": {n: values[n] for n in tuned},
                       "win_share": round(w, 6)})
        if progress:
            best = max(x["win_share"] for x in trials)
            progress(f"trial {trial.number + 1}/{budget}: {100 * w:.2f}% "
                     f"(best {100 * best:.2f}%) {entry(policy, values, defaults)}")
        return w

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    study.enqueue_trial({n: defaults[n] for n in tuned})
    # Optuna logs an exception out of a trial (Ctrl-C, SIGTERM, a bad input) as a warning with
    # its traceback before raising it again: the command reports it as one line itself.
    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    try:
        # ask and tell, not study.optimize: the trials are the same (optimize asks, runs the
        # objective and tells), but a Ctrl-C or SIGTERM that lands in optimize's bookkeeping
        # after a trial (Optuna 5.1's _run_trial) came out as UnboundLocalError ('updated_state'
        # read in a finally clause), exit 1 and a traceback; here it stays an interrupt
        for _ in range(budget):
            trial = study.ask()
            study.tell(trial, objective(trial))
    except KeyboardInterrupt as exc:
        exc.kept = _kept_trials(trials, budget, policy, defaults)
        raise
    finally:
        optuna.logging.set_verbosity(verbosity)
    best = dict(defaults)
    best.update(study.best_params)
    best = {n: (float(v) if declared[n].kind == "float" else v) for n, v in best.items()}
    tuned_entry = entry(policy, best, defaults)
    fresh = fresh_seed(seed)
    if progress and tuned_entry != against:
        progress(f"checking {tuned_entry} against {against} on {check_games:,} fresh deals")
    res = TuneResult(sc.name, policy, against, best, defaults, tuned_entry, trials, games, seed)
    try:
        res.fresh = (deal_share(_play(fam, sc, tuned_entry, against, check_games, fresh, workers))
                     if tuned_entry != against else _level(check_games))
        res.fresh["seed"] = fresh
        default_entry = entry(policy, defaults, defaults)
        if default_entry != tuned_entry:
            res.fresh_default = (deal_share(_play(fam, sc, default_entry, against, check_games,
                                                  fresh, workers))
                                 if default_entry != against else _level(check_games))
    except KeyboardInterrupt as exc:   # the search is done: its answer is the tuned entry
        exc.kept = (f"during the check on fresh deals; the {len(trials)} trials found "
                    f"{tuned_entry} at {100 * study.best_value:.2f}% on the tuning deals")
        raise
    res.seconds = time.perf_counter() - started
    return res


def _kept_trials(trials: list, budget: int, policy: str, defaults: dict) -> str:
    """What an interrupted search keeps, as the interrupt's line says it: the trials played and
    the best entry among them (tune saves no partial result: the line is all there is)."""
    if not trials:
        return f"no trial of {budget} finished"
    best = max(trials, key=lambda t: t["win_share"])
    return (f"after {len(trials)} of {budget} trials; best so far "
            f"{entry(policy, {**defaults, **best['params']}, defaults)} at "
            f"{100 * best['win_share']:.2f}% on the tuning deals")


def _level(games: int) -> dict:
    """The same entrant on both sides: 1/2 exactly, no games needed."""
    return {"win_share": 0.5, "ci": [0.5, 0.5], "deals": games, "games": 0,
            "note": "the same policy on both sides"}


def tune_text(d: dict) -> str:
    """The answer in words (``d``: :meth:`TuneResult.to_json`)."""
    f = d["fresh"]
    changed = {k: v for k, v in d["params"].items() if v != d["defaults"].get(k)}
    lines = [f"tune of {d['policy']} against {d['against']} under {d['scenario']}: "
             f"{d['budget']} trials of {d['games_per_trial']:,} games per seating (seed "
             f"{d['seed']}, the same deals for every trial)",
             "tuned parameters: " + (", ".join(f"{k}={_shown(v)} (default {_shown(d['defaults'][k])})"
                                               for k, v in changed.items()) or
                                     "the defaults (no trial beat them)"),
             f"tuned against the field on {f['deals']:,} fresh deals (both seatings): "
             f"{_pct(f)}"]
    fd = d.get("fresh_default")
    if fd:
        lines.append(f"default {d['policy']} on the same fresh deals: {_pct(fd)}"
                     + (" (the same policy on both sides: exactly half)" if fd.get("note")
                        else ""))
    lines.append(f"seat it: --players {d['tuned_entry']},{d['against']}")
    return "\n".join(lines)


def _shown(v) -> str:
    from simcore.family.players import value_text
    return value_text(v)


def _pct(f) -> str:
    lo, hi = f["ci"]
    return f"{100 * f['win_share']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}] wins"


def seat_entry(fam, sc) -> str:
    """The one ``--players`` entry every seat of ``sc`` holds, or an error naming the seats
    (a variant's play is adapted by tuning its one policy)."""
    from simcore.family.players import seat_entries
    entries = seat_entries(sc, fam.POLICIES.by_name)
    if len(set(entries)) != 1:
        raise InputError(f"--tuned tunes the one policy of every seat, and {sc.name} seats "
                         f"{', '.join(entries)}: give --players with one entry")
    return entries[0]


@dataclass
class TunedVariant:
    scenario: object        # the variant with the adopted entry in every seat
    entry: str              # that entry (the seats' own where the tune was not adopted)
    adopted: bool
    tune: TuneResult

    def to_json(self) -> dict:
        return {"scenario": self.tune.scenario, "entry": self.entry, "adopted": self.adopted,
                "tune": self.tune.to_json()}


def tune_variant(fam, sc, *, budget: int = 20, games: int = 1000, seed: int = 1,
                 workers: int = 0, names=None, progress=None) -> TunedVariant:
    """Play adapted to ``sc``: tune its seats' one policy (``names``: the parameters, default
    as :func:`tune`) against those seats (``games`` per
    seating per trial, the tune's fresh check on as many deals), and seat the tuned entry in
    every seat where it beats the seats' own entry on the fresh deals beyond its interval
    (its 95% interval's low end above 1/2, the seats' own entry against itself); else keep
    the seats as they are, so noise found by the search never changes a verdict."""
    field_entry = seat_entry(fam, sc)
    policy = field_entry.split(":", 1)[0]
    res = tune(fam, sc, policy, field_entry, budget=budget, games=games, check_games=games,
               seed=seed, workers=workers, names=names, progress=progress)
    adopted = bool(res.tuned_entry != field_entry and res.fresh["ci"][0] > 0.5)
    chosen = res.tuned_entry if adopted else field_entry
    return TunedVariant(with_players(fam, sc, chosen) if adopted else sc, chosen, adopted, res)


def tuned_variant_text(t: dict) -> str:
    """One line per variant (``t``: :meth:`TunedVariant.to_json`)."""
    d = t["tune"]
    f = d["fresh"]
    if t["adopted"]:
        return (f"{t['scenario']}: seats {t['entry']} (tuned, {d['budget']} trials; against "
                f"{d['against']} on {f['deals']:,} fresh deals {_pct(f)})")
    why = ("no trial beat them" if d["tuned_entry"] == d["against"] else
           f"the best trial, {d['tuned_entry']}, won {_pct(f)} against them on "
           f"{f['deals']:,} fresh deals: not above 50% beyond its interval")
    return f"{t['scenario']}: seats {t['entry']} as they were ({why})"
