"""The check every family passes (pgx's ``api_test``): what the harness relies on, tried once.

:func:`check_family` runs, on every given scenario (default: the family's bundled ones):

- **contracts** (:func:`check_contracts`): every metric's numerator and denominator is a quantity
  ``game_quantities`` returns; every histogram the simulator counts is declared in
  ``HISTOGRAMS`` (and the reverse); every ``BREAKDOWN_METRICS`` entry is a catalogue metric and
  ``breakdown_codes`` gives the ``BREAKDOWNS``; every ``GAME_DTYPES``/``ROUND_DTYPES``/
  ``GAME_CODES`` key is a record field and every dtype an integer type; every declared rule key
  or prefix (``CONDITIONAL_KEYS``, ``POINT_VALUE_PREFIXES``, the policies'
  ``reads``/``ignores``, the worst cases' keys) is a key of the scenario; a family's code that
  reads a rule key the scenario lacks is named (family, scenario, key) instead of a bare KeyError;
- **bots** (:func:`check_policy_branches`): every policy of ``POLICIES`` has its own branch in
  the bots package's ``decide`` (else it silently plays the fallback); a family without a
  ``decide`` to read: no two registered policies play every checked game identically;
- **debug play** of every scenario with every policy: as many game records as games, the saved
  tables give back the chunk's values; a kernel writing past its round or game buffer is named
  (the Simulator's guard rows, :func:`simcore.family.chunks.check_guard`);
- **storage** (:func:`check_storage`): the records fit their Parquet dtypes under the default
  scenario and with each numeric rule key that the family's worst cases grow with (or every
  numeric key) pushed to the largest value the schema accepts, played for a few games;
- **replays** (:func:`check_replay`): the logged replay plays the very games of the run, has one
  round per round record (and the game record's ``rounds``), and its ledger lines give back each
  round's and the game's final seat scores;
- payloads round-trip; every rule key changes what the engine is given; 1 and 2 workers give
  identical sums; the catalogue holds the seat metrics for the family's most seats; summaries,
  replays and the hand commands of the default scenario run.

Every failure is a :class:`ConformanceError` of one line naming the family and what is wrong.
A new family runs it on its first day (tests/harness/test_conformance.py runs it on every
registered family and on a fake four-seat one; tests/harness/test_conformance_catches.py shows
each check refusing a deliberately broken family of tests/broken_families.py).

What this implementation simplifies: a rule key is changed one at a time to one other value
(a flipped bool, an integer one up or down, another choice), and "reaches the engine" means
the simulator's arrays differ; keys whose changed value the schema refuses are skipped. The
storage check pushes one key at a time (not every combination) and plays a few games, within a
time budget; the replay check reads seat scores from the replay's text (the numbers of each
round's last ledger line), which is all a family's replay shares; a bots package's branches are
read from ``decide``'s source (``policy_id == P_NAME: return ..._policy(``).
"""

from __future__ import annotations

import numpy as np

from simcore.family.chunks import game_values
from simcore.family.metrics import seat_metric_names
from simcore.family.players import with_players
from simcore.family.replay import game_replay_text
from simcore.family.scenario.files import nested
from simcore.family.summary import summarize, summary_table
from simcore.family.tables import (ROUND_DTYPE_DEFAULT, flat, game_table, round_table,
                                   values_from_tables, waits_table)


class ConformanceError(AssertionError):
    pass


def _require(ok, what: str) -> None:
    if not ok:
        raise ConformanceError(what)


def check_family(fam, scenarios=None, games: int = 24, seed: int = 11, rule_keys: int = 400,
                 say=None, policies=None) -> list[str]:
    """Run the conformance check on ``fam`` (a :class:`~simcore.family.base.Family`); raises
    :class:`ConformanceError` naming the first failure, else returns what it checked.
    ``policies``: the bots of the debug play (default: every registered one)."""
    from simcore.family import registry as families
    say = say or (lambda text: None)
    done = []
    if scenarios is None:
        scenarios = [fam.SCENARIOS.load(n) for n in families.bundled_names_of(fam.NAME)]
    _require(scenarios, f"{fam.NAME}: no scenario to check")
    _check_catalogue(fam)
    done.append("catalogue")
    check_declarations(fam, scenarios[0])
    branches = check_policy_branches(fam)
    done += ["declarations", "policy branches"]
    idx = np.arange(games)
    same = None   # pairs of policies that played alike in every scenario so far
    for sc in scenarios:
        played = {}
        for policy in list(policies or fam.POLICIES.names):
            batch = played[policy] = debug_play(fam, sc, policy, idx, seed)
            _require(len(batch.games) == games, f"{sc.name} {policy}: {len(batch.games)} game "
                     f"records for {games} games")
            check_contracts(fam, batch, f"{sc.name} {policy}")
            check_fits(fam, batch, f"{sc.name} {policy}")
            _check_tables(fam, batch, f"{sc.name} {policy}")
        same = alike_policies(played, same)
        say(f"{fam.NAME}: {sc.name} plays with {', '.join(played)}")
        _check_payload(fam, sc)
        check_replay(fam, sc, seed)
    if not branches:   # no decide to read: policies that play alike everywhere fall back
        check_distinct_policies(fam, same, games, len(scenarios))
    done += ["debug play", "contracts", "tables", "payloads", "replays"]
    n = check_storage(fam, scenarios[0], seed)
    done.append(f"storage of {n} extreme keys")
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


# ---------------------------------------------------------------------------------------------
# What newcomers get wrong (issue 47): contracts, bots, storage, replays, buffers
# ---------------------------------------------------------------------------------------------

def debug_play(fam, sc, policy: str, idx, seed: int):
    """The debug play of ``sc`` with every seat on ``policy``; a rule key the family's code reads
    but the scenario lacks, or a kernel that overruns a buffer, as a one-line
    :class:`ConformanceError`."""
    from simcore.family.chunks import BufferOverrun
    from simcore.family.scenario.files import RuleKeyError
    what = f"{fam.NAME}: {sc.name} {policy}"
    # the search bot at two simulations a decision: every path of it (its deal, its resumed
    # rounds, its choice) in a fraction of the time; this checks contracts, not strength
    from simcore.family.policy import SEARCH
    seats = f"{policy}:sims=2" if policy == SEARCH else policy
    try:
        return fam.SIMULATOR(with_players(fam, sc, seats)).play(idx, seed, debug=True)
    except RuleKeyError as exc:
        raise ConformanceError(f"{what}: {exc}") from None
    except KeyError as exc:
        raise ConformanceError(f"{what}: KeyError {exc} while building or playing (a rule key "
                               f"or name the family's code looks up and does not have?)") from None
    except BufferOverrun as exc:
        raise ConformanceError(f"{what}: {exc}") from None


def check_contracts(fam, batch, what: str = "") -> None:
    """What the harness looks up by name in what the family returns: every metric's quantities,
    the histograms and the breakdowns."""
    where = f"{fam.NAME}: {what}: " if what else f"{fam.NAME}: "
    idx = np.arange(len(batch.games), dtype=np.int64)
    q = fam.game_quantities(idx, batch.games, batch.rounds)
    for m in fam.CATALOGUE:
        for role, name in (("numerator", m.numerator), ("denominator", m.denominator)):
            _require(name in q, f"{where}metric {m.name} names {role} {name!r}, which "
                     f"game_quantities does not return (it returns {', '.join(sorted(q))})")
    for name, v in q.items():
        _require(np.shape(v) == (len(idx),), f"{where}game_quantities' {name!r} has shape "
                 f"{np.shape(v)} for {len(idx)} games")
    declared = fam.SIMULATOR.HISTOGRAMS
    counted = fam.SIMULATOR.histogram_values(batch)
    for name in counted:
        _require(name in declared, f"{where}histogram {name!r} is counted by "
                 f"histogram_values but not declared in HISTOGRAMS")
    for name in declared:
        _require(name in counted, f"{where}histogram {name!r} is declared in HISTOGRAMS but "
                 f"histogram_values does not count it")
    if fam.BREAKDOWNS:
        codes = fam.breakdown_codes(idx, batch.games, batch.rounds)
        for name, (_, labels) in fam.BREAKDOWNS.items():
            _require(name in codes, f"{where}breakdown {name!r} has no codes from "
                     f"breakdown_codes")
            c = np.asarray(codes[name])
            _require(not len(c) or (c.min() >= 0 and c.max() < len(labels)),
                     f"{where}breakdown {name!r}: a code outside 0..{len(labels) - 1}")


def check_declarations(fam, sc) -> None:
    """Every name a family declares refers to something that exists: the metrics its breakdowns
    and sweeps name, the record fields its storage types and codes name, the rule keys its
    conditional keys, point values, numeric rules, policies' reads and worst cases name."""
    from simcore.family.tables import flat
    names = {m.name for m in fam.CATALOGUE}
    for m in fam.BREAKDOWN_METRICS:
        _require(m in names, f"{fam.NAME}: BREAKDOWN_METRICS names metric {m!r}, which is not "
                 f"in the catalogue")
    _require(not fam.BREAKDOWN_METRICS or fam.BREAKDOWNS,
             f"{fam.NAME}: BREAKDOWN_METRICS without BREAKDOWNS")
    game_fields, round_fields = fam.SIMULATOR.GAME_FIELDS, fam.SIMULATOR.ROUND_FIELDS
    for table, fields, types, default in (
            ("GAME_DTYPES", game_fields, fam.GAME_DTYPES, fam.GAME_DTYPE_DEFAULT),
            ("ROUND_DTYPES", round_fields, fam.ROUND_DTYPES, ROUND_DTYPE_DEFAULT)):
        for key, dtype in [*types.items(), (f"{table[:-7]}_DTYPE_DEFAULT", default)]:
            try:
                ok = np.issubdtype(np.dtype(dtype), np.integer)
            except TypeError:
                ok = False
            _require(ok, f"{fam.NAME}: {table} {key}: {dtype!r} is not an integer dtype")
        for key in types:
            _require(key in fields, f"{fam.NAME}: {table} names column {key!r}, which is no "
                     f"record field of {fam.SIMULATOR.__name__} ({', '.join(fields)})")
    for key in fam.GAME_CODES:
        _require(key in game_fields, f"{fam.NAME}: GAME_CODES names column {key!r}, which is "
                 f"no game record field")
    keys = list(flat(fam.SCENARIOS.rules_data(sc.to_dict())))

    def known(prefix: str, what: str) -> None:
        _require(any(k.startswith(prefix) for k in keys),   # the families' prefix reading
                 f"{fam.NAME}: {what} names rule key {prefix!r}, which scenario {sc.name} does "
                 f"not have")
    for prefix in fam.CONDITIONAL_KEYS:
        known(prefix, "CONDITIONAL_KEYS")
    for prefix in fam.POINT_VALUE_PREFIXES:
        known(prefix, "POINT_VALUE_PREFIXES")
    for spec in fam.POLICIES.specs:
        for prefix in (*spec.reads, *spec.ignores):
            known(prefix, f"policy {spec.name}'s reads/ignores")
    worst = fam.SCENARIOS.WORST_CASES
    for w in (worst(sc.to_dict()) if worst else ()):
        for key in w.keys:
            known(key, f"the worst case {w.what!r}")


def check_policy_branches(fam, bots=None) -> int:
    """Every policy of ``fam.POLICIES`` has its own branch in its bots package's ``decide``
    (``policy_id == P_NAME: return ..._policy(...)`` with ``P_NAME`` its registry id), and no
    branch names an id the registry lacks; ``bots``: the package (default: the registry's
    ``packages(fam.NAME)[1]``). A family without a ``decide`` (the fake one plays in NumPy) is
    left to :func:`check_distinct_policies`. Returns the branches checked."""
    import importlib
    import inspect
    import re
    if bots is None:
        from simcore.family import registry as families
        if fam.NAME not in families.names():
            return 0
        try:
            bots = importlib.import_module(families.packages(fam.NAME)[1])
        except ImportError:
            return 0
    decide = getattr(bots, "decide", None)
    if decide is None:
        return 0
    name = f"{bots.__name__}.decide"
    source = inspect.getsource(getattr(decide, "py_func", decide))
    branches = re.findall(r"policy_id\s*==\s*(\w+)\s*:\s*\n\s*return\s+(\w+)\s*\(", source)
    ids = {}
    from simcore.family.policy import RESERVED_IDS
    branches = [(c, k) for c, k in branches if getattr(bots, c, None) not in RESERVED_IDS]
    for const, kernel in branches:
        value = getattr(bots, const, None)
        _require(isinstance(value, (int, np.integer)), f"{fam.NAME}: {name} branches on "
                 f"{const}, which is not an integer constant of {bots.__name__}")
        _require(int(value) not in ids, f"{fam.NAME}: {name} has two branches for id "
                 f"{int(value)} ({ids.get(int(value), ('?',))[0]} and {const})")
        ids[int(value)] = (const, kernel)
    for policy in fam.POLICIES.names:
        pid = fam.POLICIES.id(policy)
        _require(pid in ids, f"{fam.NAME}: policy {policy!r} (id {pid}) has no branch in "
                 f"{name}: its seats silently play the fallback")
    registered = {fam.POLICIES.id(p) for p in fam.POLICIES.names}
    for pid, (const, kernel) in ids.items():
        _require(pid in registered, f"{fam.NAME}: {name} branches on {const} = {pid}, which is "
                 f"no registered policy's id")
    kernels = [k for k, _ in (v[::-1] for v in ids.values())]
    _require(len(set(kernels)) == len(kernels), f"{fam.NAME}: two policies of {name} call the "
             f"same kernel")
    return len(ids)


def alike_policies(played: dict, pairs=None) -> set:
    """The pairs of policies (of ``pairs``, default every pair) whose records in ``played``
    (policy -> Batch of the same games) are identical."""
    names = list(played)
    if pairs is None:
        pairs = {(a, b) for i, a in enumerate(names) for b in names[i + 1:]}

    def equal(x, y):
        return (x.games.shape == y.games.shape and np.array_equal(x.games, y.games)
                and x.rounds.shape == y.rounds.shape and np.array_equal(x.rounds, y.rounds))
    return {(a, b) for a, b in pairs if equal(played[a], played[b])}


def check_distinct_policies(fam, same: set, games: int, n_scenarios: int) -> None:
    """No two registered policies play every checked game identically (one of them falls back
    to another's play: a bot the simulator does not tell apart). Used where no ``decide`` can be
    read: two real bots may well play alike in a scenario or two (MOMOJAN's greedy and
    defensive do, without a threat to defend against)."""
    for a, b in sorted(same or ()):
        raise ConformanceError(f"{fam.NAME}: policies {a!r} and {b!r} play {games} games of "
                               f"each of {n_scenarios} scenarios identically (is each told "
                               f"apart, with its own branch?)")


def check_fits(fam, batch, what: str) -> None:
    """Every record column fits the dtype it is stored as: one line naming the family, the
    column, the dtype and the value that does not fit."""
    from simcore.family.tables import game_dtype, round_dtype
    for table, rows, fields, dtype_of in (
            ("per-game", batch.games, fam.SIMULATOR.GAME_FIELDS,
             lambda name: game_dtype(fam, name)),
            ("per-round", batch.rounds, fam.SIMULATOR.ROUND_FIELDS,
             lambda name: round_dtype(fam, name))):
        if not len(rows):
            continue
        for j, name in enumerate(fields):
            dtype = dtype_of(name)
            info = np.iinfo(dtype)
            col = rows[:, j]
            lo, hi = int(col.min()), int(col.max())
            bad = lo if lo < info.min else hi if hi > info.max else None
            _require(bad is None, f"{fam.NAME}: {what}: {table} column {name} ({dtype}) gets "
                     f"{bad}, outside {info.min}..{info.max}")


STORAGE_GAMES = 6       # games played per extreme key
STORAGE_BUDGET = 6.0    # seconds the storage check may play for, per family
STORAGE_MAX = 2 ** 40   # no key is pushed further (a bound left open by the schema)


def _largest_allowed(fam, sc, key: str, value, integer: bool, hi):
    """The largest value of ``key`` the family's loader accepts (given ``sc``'s other values),
    and that scenario; ``(None, None)`` when no larger one is accepted."""
    def accepted(v):
        try:
            return fam.SCENARIOS.with_overrides(sc, _nested(key, int(v) if integer else float(v)),
                                      f"{sc.name} {key}={v}")
        except Exception:   # the schema or a worst case refuses it
            return None
    if hi is not None:
        got = accepted(hi)
        if got is not None:
            return hi, got
    best, best_sc = None, None
    v = max(abs(value) if value else 1, 1)
    top = hi if hi is not None else STORAGE_MAX
    lo_bad = None
    while v < top:                     # grow x16 until refused
        v = min(v * 16, top)
        got = accepted(v)
        if got is None:
            lo_bad = v
            break
        best, best_sc = v, got
    if lo_bad is not None:             # then halve the gap a few times
        good = best if best is not None else value
        for _ in range(6):
            mid = (good + lo_bad) // 2 if integer else (good + lo_bad) / 2
            if mid <= good:
                break
            got = accepted(mid)
            if got is None:
                lo_bad = mid
            else:
                good, best, best_sc = mid, mid, got
    return best, best_sc


def _nested(key: str, value) -> dict:
    from simcore.family.scenario.files import nested
    return nested(key, value)


def check_storage(fam, sc, seed: int, games: int = STORAGE_GAMES,
                  budget: float = STORAGE_BUDGET) -> int:
    """The records fit their dtypes under extreme allowed option values: each numeric rule key
    the family's worst cases grow with (else every numeric key) is
    pushed to the largest value the loader accepts and ``games`` games are played
    (:func:`check_fits`); within ``budget`` seconds, counted from after a first game of ``sc``
    (so a cold kernel's compile does not use it up). Returns the keys checked."""
    import contextlib
    import io
    import time
    from simcore.family.tables import flat
    worst = fam.SCENARIOS.WORST_CASES
    data = sc.to_dict()
    rules = flat(fam.SCENARIOS.rules_data(data))
    if worst:
        keys = list(dict.fromkeys(k for w in worst(data) for k in w.keys))
    else:
        keys = list(rules)
    idx = np.arange(games)
    fam.SIMULATOR(sc).play(idx[:1], seed)   # compiles or loads the kernel
    start, checked = time.monotonic(), 0
    for key in keys:
        if time.monotonic() - start > budget:
            break
        value = rules.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        integer, _, hi = fam.SCENARIOS.numeric_rule(key) or (isinstance(value, int), None, None)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            big, big_sc = _largest_allowed(fam, sc, key, value, integer, hi)   # warnings: quiet
        if big_sc is None:
            continue
        batch = fam.SIMULATOR(big_sc).play(idx, seed)
        check_fits(fam, batch, f"{sc.name} with {key}={big} (the largest allowed)")
        checked += 1
    return checked


REPLAY_GAMES = 3
SEAT_SCORE = r"^(score|chips|points)(\d+)$"   # per-seat score columns of a record


def _numbers(text: str) -> list:
    import re
    return [int(x) for x in re.findall(r"(?<![\w+.])-?\d+(?![\w.])", text.replace(",", ""))]


def _subsequence(want: list, have: list) -> bool:
    it = iter(have)
    return all(any(w == h for h in it) for w in want)


def _seat_columns(fields, n_seats: int) -> list:
    import re
    out = {}
    for j, f in enumerate(fields):
        m = re.match(SEAT_SCORE, f)
        if m and int(m.group(2)) < n_seats:
            out.setdefault(m.group(1), []).append(j)
    return next(iter(out.values()), [])


def check_replay(fam, sc, seed: int, games: int = REPLAY_GAMES) -> None:
    """The replay of a game is the game the run played, and adds up to its records: the logged
    play gives the same records as the plain one, the replay has one round per round record
    (and the game record's ``rounds``), and each round's last ledger line holds that round's
    seat scores (the round record's), and the footer (the game's end) or the last ledger line
    the game's final scores."""
    sim = fam.SIMULATOR(sc)
    n_seats = len(sc["players"])
    g_fields, r_fields = sim.GAME_FIELDS, sim.ROUND_FIELDS
    g_seats, r_seats = _seat_columns(g_fields, n_seats), _seat_columns(r_fields, n_seats)
    for g in range(games):
        where = f"{fam.NAME}: {sc.name} game {g} of seed {seed}"
        rec = sim.play([g], seed)
        if sim.MAX_EVENTS > 0:
            _, logged = sim.replay_events(seed, g)
            for table, a, b, fields in (("game", rec.games, logged.games, g_fields),
                                        ("round", rec.rounds, logged.rounds, r_fields)):
                _require(a.shape == b.shape, f"{where}: the logged replay has {len(b)} {table} "
                         f"records, the run {len(a)}")
                diff = np.argwhere(a != b)
                _require(not len(diff), f"{where}: the logged replay's {table} record differs "
                         f"from the run's" + (f" in {fields[diff[0][1]]} ({b[tuple(diff[0])]} "
                                               f"against {a[tuple(diff[0])]})" if len(diff) else ""))
        replay = fam.replay(sc, seed, g)
        n_rounds = len(rec.rounds)
        _require(len(replay.rounds) == n_rounds, f"{where}: the replay has "
                 f"{len(replay.rounds)} rounds, the records {n_rounds}")
        if "rounds" in g_fields:
            said = int(rec.games[0, g_fields.index("rounds")])
            _require(said == n_rounds, f"{where}: the game record says {said} rounds, the round "
                     f"records are {n_rounds}")
        for i, rnd in enumerate(replay.rounds):
            ledger = [text for kind, text in rnd.lines if kind == "ledger"]
            want = [int(rec.rounds[i, j]) for j in r_seats]
            if i == n_rounds - 1 and g_seats:   # the game's end (its footer), or the last ledger
                final = [int(rec.games[0, j]) for j in g_seats]
                ends = [" ".join(replay.footer)] + ledger[-1:]
                _require(any(_subsequence(final, _numbers(t)) for t in ends),
                         f"{where}: neither the replay's footer nor its last ledger line "
                         f"({ledger[-1] if ledger else 'none'}) ends at the game record's final "
                         f"scores {final}")
            if want:
                _require(ledger and _subsequence(want, _numbers(ledger[-1])),
                         f"{where} round {i + 1}: the replay's ledger "
                         f"({ledger[-1] if ledger else 'none'}) does not give the round "
                         f"record's scores {want}")
