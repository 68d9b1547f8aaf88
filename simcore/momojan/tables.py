"""The hand-core array and the Python face of hand analysis (MOMOJAN).

:func:`build_hand_tables` builds, per :class:`~simcore.momojan.shapes.HandRules`, the arrays the
kernels read: the shape catalogues and the one uint64 ``core`` array whose regions
:mod:`simcore.momojan.hand` (completeness, waits) and :mod:`simcore.momojan.shanten` (distance to
tenpai) lay out. :class:`HandAnalyzer` answers questions about parsed hands with those kernels.

Its own module so that ``hand`` and ``shanten`` do not import each other: ``shanten`` reads
``hand``'s layout, and this module joins the two.

What this implementation simplifies: tables are cached per rules value for the life of the
process (a handful of rule sets in any run), never evicted.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simcore.nb.hashtable import filter_table, new_filter, new_table
from .cards import (
    N_KINDS, N_NUMBER_KINDS, N_PICTURES, Hand, counts_from_kinds, kinds_from_kind_set,
    mask_from_kinds,
)
from .hand import (
    CORE_LEN, HAND_RULES_LEN, HR_COPIES, HR_DECK_NUMBERS, HR_MOMO_WILD, HR_N_SUBS, HR_SUB0,
    MAX_DECOMPOSITIONS, SET_ROW_SLOTS, TABLE_LOG2, HandTables, decompositions, fill_number_table,
    is_complete, picture_info_table, shanten_counts, useful_cards, waits,
)
from .shanten import MAX_CARDS, shanten as table_shanten, shanten_core_regions
from .shapes import (
    HandRules, build_heads, build_partials, build_sets, index_by_first_card, number_group_masks,
)


@lru_cache(maxsize=None)
def build_hand_tables(rules: HandRules = HandRules()) -> HandTables:
    """Catalogues and the number-part table for a rules setting (cached per setting)."""
    sets = build_sets(rules)
    heads = build_heads(rules)
    shape_sets = np.unique(sets[:, :3], axis=0).astype(np.int16)
    partials = build_partials(sets)
    table, shift = new_table(TABLE_LOG2)
    fill_number_table(table, shift, number_group_masks(sets, 3), number_group_masks(heads, 2))
    filt = new_filter()
    filter_table(table, filt)
    subs = list(rules.rank1_substitutes)
    hr = np.zeros(HAND_RULES_LEN, dtype=np.int64)
    hr[HR_MOMO_WILD] = int(rules.momo_wild)
    hr[HR_N_SUBS] = len(subs)
    for i, p in enumerate(subs):
        hr[HR_SUB0 + i] = p
    hr[HR_COPIES:HR_COPIES + N_PICTURES] = rules.picture_copies
    hr[HR_DECK_NUMBERS] = rules.deck_number_mask
    pic_info = picture_info_table()
    related = _related_kinds(partials, heads)
    set_rows = np.zeros(SET_ROW_SLOTS, np.uint64)
    assert len(shape_sets) <= SET_ROW_SLOTS
    set_rows[:len(shape_sets)] = [mask_from_kinds(r) for r in shape_sets]
    core = np.concatenate([table, filt, pic_info, related, hr.astype(np.uint64),
                           shanten_core_regions(sets, heads, partials), set_rows])
    assert len(core) == CORE_LEN
    return HandTables(
        hr,
        sets, index_by_first_card(sets, N_KINDS), heads, index_by_first_card(heads, N_KINDS),
        shape_sets, index_by_first_card(shape_sets, N_KINDS),
        partials, index_by_first_card(partials, N_KINDS),
        core,
    )


def _related_kinds(partials, heads) -> np.ndarray:
    """For each kind, the kinds it can share a partial set or a head with (bots' connectivity)."""
    rel = np.zeros(N_KINDS, np.uint64)
    for a, b in [tuple(r[:2]) for r in partials] + [tuple(r[:2]) for r in heads]:
        rel[a] |= np.uint64(1) << np.uint64(b)
        rel[b] |= np.uint64(1) << np.uint64(a)
    return rel



class HandAnalyzer:
    """Hand analysis under one rules setting, on parsed :class:`~simcore.momojan.cards.Hand` s."""

    def __init__(self, rules: HandRules = HandRules()):
        self.rules = rules
        self.tables = build_hand_tables(rules)

    def is_complete(self, hand: Hand) -> bool:
        return bool(is_complete(np.uint64(hand.concealed_mask), hand.n_revealed, self.tables.core))

    def waits(self, hand: Hand) -> list[int]:
        w = waits(np.uint64(hand.concealed_mask), np.uint64(hand.revealed_mask), hand.n_revealed,
                  self.tables.core)
        return kinds_from_kind_set(int(w))

    def shanten(self, hand: Hand) -> int:
        if len(hand.concealed) <= MAX_CARDS:
            return int(table_shanten(np.uint64(hand.concealed_mask), hand.n_revealed, self.tables.core))
        c = counts_from_kinds(hand.concealed).astype(np.int64)
        return int(shanten_counts(c, hand.n_revealed, self.tables))

    def useful_cards(self, hand: Hand, unseen=None) -> tuple[int, list[int]]:
        """Useful cards; ``unseen`` defaults to every copy not in this hand or its revealed sets."""
        if unseen is None:
            unseen = unseen_counts(self.rules, hand)
        total, kset = useful_cards(np.uint64(hand.concealed_mask), hand.n_revealed,
                                   np.asarray(unseen, np.int64), self.tables)
        return int(total), kinds_from_kind_set(int(kset))

    def decompositions(self, hand: Hand) -> list[tuple[list[int], int]]:
        k = max(len(hand.concealed) // 3, 0)
        out = np.full((MAX_DECOMPOSITIONS, k + 1), -1, np.int32)
        n = decompositions(np.uint64(hand.concealed_mask), self.tables, out)
        return [([int(s) for s in row[:-1] if s >= 0], int(row[-1])) for row in out[:min(n, len(out))]]


def unseen_counts(rules: HandRules, hand: Hand) -> np.ndarray:
    """Copies of each kind in the deck not in ``hand``'s concealed cards or revealed groups."""
    deck = np.ones(N_KINDS, np.int64)
    deck[N_NUMBER_KINDS:] = rules.picture_copies
    held = counts_from_kinds(list(hand.concealed) + [k for g in hand.revealed for k in g.cards])
    return np.maximum(deck - held, 0)
