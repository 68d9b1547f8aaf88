"""The check every family passes (pgx's ``api_test``): what the harness relies on, tried once.

:func:`check_family` plays every given scenario (default: the family's bundled ones) in debug
mode with each of the family's policies, and checks that 1 and 2 workers give identical sums,
that the saved tables give back the chunk's sums, that payloads round-trip, that the catalogue
holds the seat metrics for the family's most seats, that summaries, replays and the hand
commands of the default scenario run, and that every rule key changes what the engine is given.
A new family runs it on its first day (tests/harness/test_conformance.py runs it on every registered
family and on a fake four-seat one).

What this implementation simplifies: a rule key is changed one at a time to one other value
(a flipped bool, an integer one up or down, another choice), and "reaches the engine" means
the simulator's arrays differ; keys whose changed value the schema refuses are skipped.
"""

from __future__ import annotations

import numpy as np

from simcore.family.chunks import game_values
from simcore.family.metrics import seat_metric_names
from simcore.family.players import with_players
from simcore.family.replay import game_replay_text
from simcore.family.scenario.files import nested
from simcore.family.summary import summarize, summary_table
from simcore.family.tables import flat
from simcore.family.tables import game_table, round_table, values_from_tables, waits_table


class ConformanceError(AssertionError):
    pass


def _require(ok, what: str) -> None:
    if not ok:
        raise ConformanceError(what)


def check_family(fam, scenarios=None, games: int = 24, seed: int = 11, rule_keys: int = 400,
                 say=None) -> list[str]:
    """Run the conformance check on ``fam`` (a :class:`~simcore.family.base.Family`); raises
    :class:`ConformanceError` naming the first failure, else returns what it checked."""
    from simcore.family import registry as families
    say = say or (lambda text: None)
    done = []
    if scenarios is None:
        scenarios = [fam.SCENARIOS.load(n) for n in families.bundled_names_of(fam.NAME)]
    _require(scenarios, f"{fam.NAME}: no scenario to check")
    _check_catalogue(fam)
    done.append("catalogue")
    idx = np.arange(games)
    for sc in scenarios:
        for policy in list(fam.POLICIES.names):
            seated = with_players(fam, sc, policy)
            batch = fam.SIMULATOR(seated).play(idx, seed, debug=True)
            _require(len(batch.games) == games, f"{sc.name} {policy}: {len(batch.games)} game "
                     f"records for {games} games")
            _check_tables(fam, batch, f"{sc.name} {policy}")
        say(f"{fam.NAME}: {sc.name} plays with {', '.join(list(fam.POLICIES.names))}")
        _check_payload(fam, sc)
    done += ["debug play", "tables", "payloads"]
    n = _check_rule_keys(fam, scenarios[0], rule_keys)
    done.append(f"{n} rule keys")
    sums = _check_workers(fam, scenarios[0], games, seed)
    done.append("1 and 2 workers")
    _check_outputs(fam, scenarios[0], seed, sums)
    done.append("summary, replay, hands")
    return done


def _check_catalogue(fam) -> None:
    names = [m.name for m in fam.CATALOGUE]
    _require(len(names) == len(set(names)), f"{fam.NAME}: a metric name appears twice")
    for name in seat_metric_names(fam.SEATS[1]):
        _require(name in names, f"{fam.NAME}: the catalogue lacks {name}")
    for name in (fam.HEADLINE, fam.ROUNDS_METRIC, *fam.SWEEP_METRICS):
        _require(name in names, f"{fam.NAME}: {name} is not in the catalogue")
    _require(fam.SEATS[0] >= 2 and fam.SEATS[1] >= fam.SEATS[0], f"{fam.NAME}: SEATS")


def _check_tables(fam, batch, what: str) -> None:
    idx = np.arange(len(batch.games), dtype=np.int64)
    num, den = game_values(fam, idx, batch.games, batch.rounds)
    games_cols = game_table(fam, batch, 0)
    rounds_cols = round_table(fam, batch)
    num2, den2 = values_from_tables(fam, games_cols, rounds_cols)
    _require(np.array_equal(num, num2) and np.array_equal(den, den2),
             f"{what}: the saved tables do not give back the chunk's values")
    _require(np.all(den >= 0), f"{what}: a negative denominator")


def _check_payload(fam, sc) -> None:
    back = fam.SCENARIOS.from_payload(fam.SCENARIOS.payload(sc))
    _require(back.to_dict() == sc.to_dict(), f"{sc.name}: the payload does not round-trip")


def _check_workers(fam, sc, games: int, seed: int):
    """The sums of 1 and 2 workers, which must be identical (returns them)."""
    from simcore.studies.study import run_study
    runs = [run_study(fam, [sc], seed, games, workers=w, chunk_games=max(1, games // 3)).sums
            for w in (1, 2)]
    a, b = runs
    _require(a.n == b.n == games and np.array_equal(a.s, b.s) and np.array_equal(a.c, b.c),
             f"{sc.name}: 1 and 2 workers give different sums")
    return a


def _check_outputs(fam, sc, seed: int, sums) -> None:
    text = summary_table(fam, summarize(fam, sc, seed, sums))
    _require(sc.name in text, f"{sc.name}: the summary does not name its scenario")
    _require(game_replay_text(fam, sc, seed, 0).strip(), f"{sc.name}: empty replay")
    _require(fam.scenario_yaml(sc, sc.name).strip(), f"{sc.name}: empty scenario YAML")
    for hand, opts in fam.EXAMPLE_HANDS:
        report = fam.waits_json(hand, sc)
        _require(report.get("input") == hand, f"waits {hand}: no report")
        waits_table([fam.waits_json(hand, sc)])
        if opts is not None:
            _require(fam.score_json(hand, sc, **opts), f"score {hand}: no score")
            fam.score_text(hand, sc, **opts)


def _changed(value, field_choices):
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, float):
        return [value * 2 if value else 1.0, value / 2]
    if isinstance(value, str) and field_choices:
        return [c for c in field_choices if c != value][:1]
    return []


def _check_rule_keys(fam, sc, limit: int) -> int:
    """Every rule key that can take another value changes what the engine is given."""
    base = fam.engine_inputs(sc)
    keys = list(flat(fam.SCENARIOS.rules_data(sc.to_dict())).items())[:limit]
    checked = 0
    for key, value in keys:
        for new in _changed(value, fam.SCENARIOS.rule_choices(key)):
            try:
                other = fam.SCENARIOS.with_overrides(sc, nested(key, new), sc.name)
            except Exception:   # the schema refuses this value (out of range, inconsistent)
                continue
            if _same(base, fam.engine_inputs(other)):
                _require(key.startswith(tuple(fam.CONDITIONAL_KEYS)),
                         f"{sc.name}: rule key {key} ({value} -> {new}) does not reach the "
                         f"engine")
            else:
                checked += 1
            break
    return checked


def _same(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not (np.shape(x) == np.shape(y) and np.array_equal(x, y)):
                return False
        elif x != y:
            return False
    return True
