"""Sparrow's compiled hand analysis and scoring against the pure-Python reference written from the
spec alone (tests/sparrow/reference.py): every hand of 5 and 6 tiles exhaustively, and the
points of every winning hand under random reds, dora, dealer and point values."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from simcore.sparrow.hand import YAKU, best_win, distance, tables, waits
from simcore.sparrow.rules import POINTS
from tests.sparrow import reference as ref


def _hands(size):
    for combo in itertools.combinations_with_replacement(range(11), size):
        c = [0] * 11
        for k in combo:
            c[k] += 1
        if max(c) <= 4:
            yield c


def test_every_hand_of_five_and_six_tiles_matches_the_reference():
    t = tables()
    n = 0
    for size in (5, 6):
        for c in _hands(size):
            a = np.array(c, np.int64)
            assert distance(a, t) == ref.distance(c), c
            if size == 5:
                w = waits(a, t)
                assert {k for k in range(11) if (w >> k) & 1} == ref.waits(c), c
            else:
                assert (best_win(a, 0, 0, False, False, np.ones(10, np.int64))[0] >= 0) == \
                    ref.is_win(c), c
            assert a.tolist() == c   # analysis leaves the counts as it found them
            n += 1
    assert n == 10879


@settings(max_examples=400, deadline=None)
@given(hand=st.sampled_from(ref.WINNING_HANDS), reds=st.integers(0, 6),
       dora=st.integers(-1, 10), dealer=st.booleans(), alone=st.booleans(),
       values=st.lists(st.integers(0, 30), min_size=10, max_size=10))
def test_points_of_every_winning_hand_match_the_reference(hand, reds, dora, dealer, alone,
                                                            values):
    c = np.array(hand, np.int64)
    n_dora = int(c[dora]) if dora >= 0 else 0
    p, bits, runs = best_win(c, reds, n_dora, dealer, alone, np.array(values, np.int64))
    opts = dict(zip(POINTS, values), specials="alone" if alone else "add")
    want = ref.points(list(hand), reds, dora, dealer, opts)
    assert p == want["points"]
    parts = set(want["parts"])
    for i, y in enumerate(YAKU):
        name = "dealer_bonus" if y == "dealer" else y
        if values[POINTS.index(name)] > 0:
            assert bool((bits >> i) & 1) == (name in parts), (y, want)
