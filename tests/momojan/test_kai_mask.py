"""The engine's Kai mask (``_mask_kai``) walks only the rows whose lowest card is in the hand
(``EngineTables.rows_first_start``): it must mark exactly the rows a plain walk over every row
finds wholly in the hand, appended to ``legal`` in row order, for random hands of every size it
is asked about, in both editions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.momojan import engine as E
from simcore.momojan import scenario
from simcore.momojan.hand import picture_count
from simcore.momojan.simulate import Simulator

_TABLES = {}


def _tables(name):
    if name not in _TABLES:
        _TABLES[name] = Simulator(scenario.load(name)).ET
    return _TABLES[name]


def _plain_rows(et, hand):
    """Every row wholly in ``hand``, in row order: its number cards present and enough copies
    of its picture."""
    out = []
    for r in range(len(et.row_num)):
        num = int(et.row_num[r])
        if hand & num != num:
            continue
        if et.row_pic_n[r] and picture_count(np.uint64(hand), et.row_pic[r]) < et.row_pic_n[r]:
            continue
        out.append(r)
    return out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["new_edition", "old_edition"]), st.integers(0, 2 ** 32 - 1),
       st.integers(4, 11))
def test_kai_mask_marks_every_row_in_the_hand_in_row_order(name, seed, size):
    et = _tables(name)
    gen = np.random.default_rng(seed)
    hand = 0
    for k in gen.choice(et.deck, size, replace=False):
        hand += int(E._card_unit(int(k)))
    mask = np.zeros(E.N_ACTIONS, np.bool_)
    legal = np.zeros(E.N_ACTIONS, np.int64)
    st_ = np.zeros(E.N_ST, np.int64)
    found = E._mask_kai(np.uint64(hand), 0, 0, mask, legal, st_, et.row_num, et.row_pic,
                        et.row_pic_n, et.rows_first_start)
    want = [E.KAI + r for r in _plain_rows(et, hand)]
    assert list(legal[:st_[E.ST_N_LEGAL]]) == want
    assert sorted(np.flatnonzero(mask)) == want
    assert found == bool(want)


@pytest.mark.parametrize("name", ["new_edition", "old_edition"])
def test_every_row_is_found_in_a_hand_of_its_own_cards(name):
    """Each row in a hand of its own cards and one more (the deck's last kind the row lacks:
    ``_mask_kai`` offers nothing below four cards) is marked."""
    et = _tables(name)
    for r in range(len(et.rows)):
        hand = sum(int(E._card_unit(int(k))) for k in et.rows[r])
        mask = np.zeros(E.N_ACTIONS, np.bool_)
        legal = np.zeros(E.N_ACTIONS, np.int64)
        st_ = np.zeros(E.N_ST, np.int64)
        pad = [k for k in et.deck if hand & int(E._card_unit(int(k))) == 0]
        hand += int(E._card_unit(int(pad[-1])))
        E._mask_kai(np.uint64(hand), 0, 0, mask, legal, st_, et.row_num, et.row_pic,
                    et.row_pic_n, et.rows_first_start)
        assert mask[E.KAI + r], (r, list(et.rows[r]))
