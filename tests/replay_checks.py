"""What every family's replay-model tests share (tests/<family>/test_replay_model.py): a bundled
scenario with some options changed, recorded games replayed through the family's independent
``check_game``, copies of a game's records to tamper with, and a tampered game refused."""

from __future__ import annotations

import types

import numpy as np
import pytest


def variant(fam, base: str, edits: dict, name: str = "replay_variant"):
    """Bundled scenario ``base`` of family ``fam`` with ``edits`` ({"dotted.key": value}: a key
    without a dot is a top-level one) applied."""
    d = fam.SCENARIOS.load(base).to_dict()
    for key, value in edits.items():
        node = d
        *path, last = key.split(".")
        for part in path:
            node = node[part]
        node[last] = value
    return fam.SCENARIOS.from_dict(d, name=name)


def replay_all(sim, sc, check, games: int, seed: int, **kw) -> list:
    """Games 0..games-1 of ``seed`` replayed through ``check(sc, events, batch, **kw)``; what each
    call returned. A refusal names the seed and the game."""
    out = []
    for game in range(games):
        events, batch = sim.replay_events(seed, game)
        try:
            out.append(check(sc, events, batch, **kw))
        except AssertionError as e:
            raise AssertionError(f"seed {seed}, game {game}: {e}") from None
    return out


def copied_batch(batch):
    """A game's round and game records, copied: to tamper with."""
    return types.SimpleNamespace(rounds=np.array(batch.rounds, copy=True),
                                 games=np.array(batch.games, copy=True))


def refused(check, sc, events, batch, match: str, **kw) -> None:
    """``check`` refuses the (tampered) game with a message matching ``match``."""
    with pytest.raises(AssertionError, match=match):
        check(sc, events, batch, **kw)


def refused_records(check, sc, events, batch, changes, **kw) -> None:
    """Each change ``(table, fields, name, change)`` alone, on a copy of the records: ``table``
    ``"rounds"`` or ``"games"`` (whose columns are ``fields``), its first row's ``name`` column
    replaced by ``change(value)``; ``check`` refuses it, naming the record and the column."""
    for table, fields, name, change in changes:
        b = copied_batch(batch)
        rows, j = getattr(b, table), fields.index(name)
        rows[0, j] = change(rows[0, j])
        refused(check, sc, events, b, f"{table[:-1]} record {name}", **kw)


def game_with(sim, sc, check, seed: int, want, games: int = 60, **kw):
    """``(events, batch)`` of the first of games 0..games-1 of ``seed`` whose event log
    ``want(events)`` accepts, checked by ``check`` first (a tampering test starts from a game
    the model passes)."""
    for game in range(games):
        events, batch = sim.replay_events(seed, game)
        if want(events):
            check(sc, events, batch, **kw)
            return events, batch
    raise AssertionError(f"no such game in {games}")


def describe_event(e, names) -> str:
    """An event row of a log as a replay model's message shows it (``names``: the family's
    ``EV_TYPES``); None: the log has ended."""
    if e is None:
        return "nothing (the events end)"
    t = names[e[0]] if 0 <= e[0] < len(names) else f"type {e[0]}"
    return f"{t}{tuple(e[1:])}"
