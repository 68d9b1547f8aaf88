"""The ``search`` bot (:mod:`simcore.nb.search`, docs/bots.md "Search") in every family that
has it: its choice rule, exactly the rollout bot's games when it never deviates, reproducible
however its games are split, and no weaker than its rollout bot in duplicate games."""

import numpy as np
import pytest

from simcore.family import registry as families
from simcore.family.chunks import game_values
from simcore.nb.search import choose

# (scenario, the family's rollout bot by default, duplicate games per seat order)
SEARCHING = [("new_edition", "value", 60), ("sparrow_2p", "greedy", 60)]


def _players(data, search: dict, other: str, seat: int = 0) -> list:
    players = [{"policy": other, "params": {}} for _ in data["players"]]
    players[seat] = {"policy": "search", "params": search}
    return players


def _play(name, players, games, seed=3):
    fam, sc = families.load(name)
    data = sc.to_dict()
    data["players"] = players
    return fam.SIMULATOR(fam.SCENARIOS.from_dict(data, name=name)).play(games, seed)


def test_choose_keeps_the_base_unless_a_gain_is_clear():
    gain = np.array([0.0, 2.0, 9.0, 0.0])       # sums over 4 simulations
    gain2 = np.array([0.0, 40.0, 21.0, 0.0])    # candidate 1: mean 0.5, sd large
    rng = np.zeros(4, np.uint64)
    assert choose(gain, gain2, 0, 4, 4, 2.0, 0.0, rng) == 2       # mean 2.25, se ~0.6
    assert choose(gain, gain2, 3, 4, 4, 100.0, 0.0, rng) == 3     # nothing clear enough
    assert choose(-gain, gain2, 0, 4, 4, 0.0, 0.0, rng) == 0      # all worse: the base
    assert choose(gain, gain2, 0, 4, 4, 0.0, 0.0, rng) == 2       # margin 0: the best mean
    same = np.array([0.0, 8.0]), np.array([0.0, 16.0])          # +2 in each of 4 simulations
    assert choose(*same, 0, 2, 4, 3.0, 0.0, rng) == 1             # 4 simulations > margin 3
    assert choose(*same, 0, 2, 4, 5.0, 0.0, rng) == 0             # but not > margin 5


@pytest.mark.second_tier
@pytest.mark.parametrize("name,rollout,_", SEARCHING)
def test_a_search_that_never_deviates_plays_its_rollout_bots_games(name, rollout, _):
    """With a margin no simulation can pass, every decision is the rollout bot's, drawn from
    the seat's own stream as that bot draws it: the records are the rollout bot's, bit for bit
    (the simulations run on a scratch state and never touch the game's)."""
    fam, sc = families.load(name)
    data = sc.to_dict()
    idx = np.arange(6)
    searched = _play(name, _players(data, {"margin": 10.0, "sims": 2}, rollout), idx)
    plain = _play(name, [{"policy": rollout, "params": {}} for _ in data["players"]], idx)
    assert np.array_equal(searched.games, plain.games)
    assert np.array_equal(searched.rounds, plain.rounds)


@pytest.mark.second_tier
@pytest.mark.parametrize("name,rollout,_", SEARCHING)
def test_search_games_do_not_depend_on_how_they_are_split(name, rollout, _):
    fam, sc = families.load(name)
    data = sc.to_dict()
    players = _players(data, {"sims": 3}, rollout)
    whole = _play(name, players, np.arange(4))
    parts = [_play(name, players, np.arange(a, b)) for a, b in ((0, 1), (1, 4))]
    assert np.array_equal(whole.games, np.concatenate([p.games for p in parts]))
    assert np.array_equal(whole.rounds, np.concatenate([p.rounds for p in parts]))


@pytest.mark.second_tier
@pytest.mark.parametrize("name,rollout,games", SEARCHING)
def test_search_is_no_weaker_than_its_rollout_bot_in_duplicate(name, rollout, games):
    """Duplicate games (each deal in every seat order), pinned seed, the default budget: the
    search's share of the game wins is at least its rollout bot's 50% less a tolerance of
    two standard errors of the pinned sample (docs/bots.md gives the measured figures)."""
    fam, sc = families.load(name)
    data = sc.to_dict()
    seats = len(data["players"])
    share = 0.0
    for seat in range(seats):
        b = _play(name, _players(data, {}, rollout, seat), np.arange(games), seed=21)
        num, den = game_values(fam, np.arange(games), b.games, b.rounds)
        i = [m.name for m in fam.CATALOGUE].index(f"seat{seat}_win_share")
        share += (num[:, i] / den[:, i]).sum()   # a shared win counts its share
    share /= games * seats
    tolerance = 2 * np.sqrt(0.25 / (games * seats))
    assert share >= 0.5 - tolerance, f"{name}: search won {share:.3f} against {rollout}"
