"""The draws' luck (simcore/momojan/luck.py): the race evaluator, terms of mean exactly 0, and
the per-game controls of whole games (issue 32)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcore.momojan import scenario
from simcore.momojan.cards import N_KINDS
from simcore.momojan.engine import ROUND_FIELDS
from simcore.momojan.family import FAMILY as family
from simcore.momojan.hand import can_ron_on
from simcore.momojan.luck import (
    GAME_CONTROLS, LK_DEALER, LK_OTHER, LK_RON, LK_TSUMO, LUCK_SCALE, N_LUCK, draw_luck,
    ron_kinds, race_table,
)
from simcore.family.players import with_players
from simcore.family.tables import game_table, luck_from_tables, round_table, values_from_tables

RACE = race_table()


def _race_by_enumeration(a, b, c, n):
    """The race of luck.py played over every order of a stock of n cards (a the drawer's
    outs, b the other's, c both), by brute force: (drawer wins, other wins)."""
    cards = ["A"] * a + ["B"] * b + ["C"] * c + ["-"] * (n - a - b - c)
    orders = set(itertools.permutations(cards))
    mine = theirs = 0
    for order in orders:
        for i, card in enumerate(order):
            drawer_is_first = i % 2 == 0
            if card in "AC" if drawer_is_first else card in "BC":
                mine += drawer_is_first
                theirs += not drawer_is_first
                break
            if card in "B" if drawer_is_first else card in "A":   # dealt into the other
                mine += not drawer_is_first
                theirs += drawer_is_first
                break
    return mine / len(orders), theirs / len(orders)


@pytest.mark.parametrize("a,b,c,n", [(1, 0, 0, 3), (0, 1, 0, 4), (1, 1, 0, 4), (2, 1, 0, 6),
                                     (1, 2, 1, 7), (0, 0, 1, 5), (1, 1, 1, 3), (0, 0, 0, 5),
                                     (3, 2, 0, 8)])
def test_race_table_is_the_race_played_over_every_order_of_the_stock(a, b, c, n):
    mine, theirs = _race_by_enumeration(a, b, c, n)
    assert RACE[a, b, c, n, 0] == pytest.approx(mine, abs=1e-12)
    assert RACE[a, b, c, n, 1] == pytest.approx(theirs, abs=1e-12)


def _kind_sets():
    """Kind sets of up to five kinds (waits, discards)."""
    return st.builds(lambda ks: sum(1 << k for k in set(ks)),
                     st.lists(st.integers(0, N_KINDS - 1), max_size=5))


def _draw_luck(wall, pos0, pos, mine, theirs, dealer, luck):
    """draw_luck of drawing wall[pos] from the stock wall[pos0:], its kinds counted."""
    wall = np.asarray(wall, np.int64)
    cnt = np.bincount(wall[pos0:], minlength=N_KINDS).astype(np.int64)
    draw_luck(wall, pos0, pos, len(wall), cnt, np.uint64(mine), np.uint64(theirs), RACE, dealer,
              luck)


@settings(max_examples=200, deadline=None)
@given(stock=st.lists(st.integers(0, N_KINDS - 1), min_size=3, max_size=40),
       drawn=st.integers(0, 2), mine=_kind_sets(), theirs=_kind_sets(), dealer=st.booleans())
def test_a_later_card_of_a_draw_of_three_is_valued_from_the_stock_left_before_it(
        stock, drawn, mine, theirs, dealer):
    """The luck of the (drawn + 1)-th card of a draw of three, counted from the stock before the
    three less the cards drawn before it, is to the bit the luck of drawing it from a stock that
    begins there (the engine counts the stock once, then takes each draw off)."""
    whole, after = np.zeros(N_LUCK), np.zeros(N_LUCK)
    _draw_luck(stock, 0, drawn, mine, theirs, dealer, whole)
    _draw_luck(stock[drawn:], 0, 0, mine, theirs, dealer, after)
    assert whole.tobytes() == after.tobytes()


@settings(max_examples=200, deadline=None)
@given(stock=st.lists(st.integers(0, N_KINDS - 1), min_size=1, max_size=40),
       mine=_kind_sets(), theirs=_kind_sets(), dealer=st.booleans())
def test_every_term_averages_exactly_zero_over_the_cards_the_stock_could_give(
        stock, mine, theirs, dealer):
    """The next card is uniform over the stock: each of the four terms, averaged over every
    card that could come first, is 0 (to rounding), whatever the outs."""
    total = np.zeros(N_LUCK)
    for first in range(len(stock)):
        order = [stock[first]] + stock[:first] + stock[first + 1:]
        luck = np.zeros(N_LUCK)
        _draw_luck(order, 0, 0, mine, theirs, dealer, luck)
        total += luck
    assert np.abs(total / len(stock)).max() < 1e-12


def test_a_drawn_winning_card_is_the_drawers_luck_and_a_feeding_card_the_others():
    stock = np.array([5, 7, 9, 11], np.int64)       # kind 5 wins for the drawer, 7 for the other
    luck = np.zeros(N_LUCK)
    _draw_luck(stock, 0, 0, 1 << 5, 1 << 7, True, luck)
    assert luck[LK_TSUMO] == pytest.approx(0.75) and luck[LK_RON] == pytest.approx(-0.25)
    assert luck[LK_DEALER] > 0 > luck[LK_OTHER]
    luck[:] = 0
    _draw_luck(stock[[1, 0, 2, 3]], 0, 0, 1 << 5, 1 << 7, False, luck)
    assert luck[LK_RON] == pytest.approx(0.75)
    assert luck[LK_DEALER] > 0 > luck[LK_OTHER]     # the drawer (not the dealer) dealt in


@settings(max_examples=300, deadline=None)
@given(waits=_kind_sets(), discards=_kind_sets(), momo=st.booleans(), other=st.booleans())
def test_ron_kinds_is_can_ron_on_for_every_wait(waits, discards, momo, other):
    got = int(ron_kinds(np.uint64(waits), np.uint64(discards), momo, other, True))
    want = sum(1 << k for k in range(N_KINDS)
               if can_ron_on(k, np.uint64(waits), np.uint64(discards), momo, other))
    assert got == want
    assert int(ron_kinds(np.uint64(waits), np.uint64(discards), momo, other, False)) == waits


@pytest.fixture(scope="module")
def many_games():
    """8,000 games of new_edition between the baseline bots (the terms' mean does not depend on
    the bots; these are the fastest), seed 321."""
    sc = with_players(family, scenario.load("new_edition"), "baseline,baseline")
    idx = np.arange(8000)
    batch = family.SIMULATOR(sc).play(idx, 321)
    return idx, batch


def test_the_games_luck_controls_have_mean_zero(many_games):
    """Issue 32 item 3, the A/A check: over 8,000 games each control's mean lies within its
    own 99.9% interval of 0 (six controls: a false alarm has chance 0.6%)."""
    idx, batch = many_games
    controls = family.luck_controls(idx, batch.games, batch.rounds)
    assert controls.shape == (len(idx), len(GAME_CONTROLS))
    mean = controls.mean(axis=0)
    se = controls.std(axis=0, ddof=1) / math.sqrt(len(idx))
    assert (se > 0).all()
    assert (np.abs(mean) < 3.29 * se).all(), list(zip(GAME_CONTROLS, mean, se))


def test_the_round_terms_have_mean_zero_and_say_what_happened(many_games):
    """Per round, the four terms have mean 0 (within 99.9%), and they point the right way:
    rounds the dealer won carry positive dealer luck, tsumo rounds positive tsumo luck."""
    _, batch = many_games
    rf = {name: i for i, name in enumerate(ROUND_FIELDS)}
    r = batch.rounds
    terms = r[:, [rf["luck_dealer"], rf["luck_other"], rf["luck_tsumo"], rf["luck_ron"]]] \
        / LUCK_SCALE
    mean = terms.mean(axis=0)
    se = terms.std(axis=0, ddof=1) / math.sqrt(len(r))
    assert (np.abs(mean) < 3.29 * se).all(), (mean, se)
    dealer_won = (r[:, rf["winner"]] == r[:, rf["dealer"]]) & (r[:, rf["outcome"]] != 2)
    assert terms[dealer_won, 0].mean() > 0.03 and terms[~dealer_won, 0].mean() < -0.015
    tsumo = r[:, rf["outcome"]] == 0
    assert terms[tsumo, 2].mean() > 0.2 and terms[~tsumo, 2].mean() < -0.1


def test_saved_tables_from_before_the_luck_columns_still_pair_and_carry_no_luck():
    """A result saved before the engine recorded the luck (its round tables lack gap_before and
    luck_*): compare of two saved runs reads its metrics as before (regression: it raised
    KeyError 'gap_before') and finds no luck controls to correct with."""
    sc = with_players(family, scenario.load("new_edition"), "baseline,baseline")
    batch = family.SIMULATOR(sc).play(np.arange(50), 4)
    games = game_table(family, batch, 0)
    rounds = round_table(family, batch)
    old = {k: v for k, v in rounds.items() if k != "gap_before" and not k.startswith("luck_")}
    assert len(old) == len(rounds) - 5
    num, den = values_from_tables(family, games, rounds)
    num_old, den_old = values_from_tables(family, games, old)
    assert np.array_equal(num, num_old) and np.array_equal(den, den_old)
    assert luck_from_tables(family, games, old) is None
    assert luck_from_tables(family, games, rounds).shape == (50, len(GAME_CONTROLS))
