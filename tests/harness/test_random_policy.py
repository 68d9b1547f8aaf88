"""policies.random_policy (every family's `random` bot) reads its mask eight entries a load: it
must pick what the plain entry-by-entry walk picks, from the same draw, for every mask length
(whole words and a tail) and density, the empty mask included. ``random_pick``, given the count
by a round loop that kept it, picks the same from the same draw."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.random_policy import random_pick, random_policy
from simcore.nb.rng import randint


def _plain_pick(mask, rng):
    pick = int(randint(rng, int(mask.sum())))
    for a in range(len(mask)):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 80), st.floats(0.0, 1.0), st.integers(0, 2 ** 63 - 1))
def test_random_policy_picks_as_the_plain_walk(size, density, seed):
    gen = np.random.default_rng(seed)
    mask = gen.random(size) < density
    state = gen.integers(1, 2 ** 63, 4, dtype=np.int64).astype(np.uint64)
    a_state, b_state = state.copy(), state.copy()
    got = random_policy(np.zeros(1, np.int64), mask, np.zeros(1), a_state, 0, 0)
    assert got == _plain_pick(mask, b_state)
    assert (a_state == b_state).all()        # one draw of the stream, as before


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 80), st.floats(0.0, 1.0), st.integers(0, 2 ** 63 - 1), st.booleans())
def test_random_pick_given_the_count_picks_as_random_policy(size, density, seed, told):
    """Told the count (MOMOJAN's round loop keeps it) or not (0: counted), the same action from
    the same draw."""
    gen = np.random.default_rng(seed)
    mask = gen.random(size) < density
    state = gen.integers(1, 2 ** 63, 4, dtype=np.int64).astype(np.uint64)
    a_state, b_state = state.copy(), state.copy()
    n = int(mask.sum()) if told else 0
    assert random_pick(mask, n, a_state) == random_policy(np.zeros(1, np.int64), mask,
                                                          np.zeros(1), b_state, 0, 0)
    assert (a_state == b_state).all()


def test_every_legal_action_of_a_long_mask_is_picked():
    """A MOMOJAN-sized mask (705 entries) with legal actions in its first word, its tail and
    between: every one is picked, and nothing else."""
    mask = np.zeros(705, np.bool_)
    legal = [0, 7, 8, 63, 64, 350, 695, 696, 703, 704]
    mask[legal] = True
    rng = np.array([1, 2, 3, 4], np.uint64)
    picks = {random_policy(np.zeros(1, np.int64), mask, np.zeros(1), rng, 0, 0)
             for _ in range(2000)}
    assert picks == set(legal)


def test_a_mask_byte_other_than_one_counts_once():
    """Bytes of a legal mask seen through a uint8 view that are neither 0 nor 1 (3, 255, 7) are
    one legal action each, as an entry-by-entry ``if mask[a]`` reads them."""
    raw = np.zeros(43, np.uint8)
    raw[[0, 9, 33, 41]] = (3, 255, 1, 7)      # 41: in the tail after the last whole word
    rng = np.array([5, 6, 7, 8], np.uint64)
    picks = {random_policy(np.zeros(1, np.int64), raw, np.zeros(1), rng, 0, 0)
             for _ in range(500)}
    assert picks == {0, 9, 33, 41}
