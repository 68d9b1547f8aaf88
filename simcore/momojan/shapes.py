"""What counts as a set and a head under a rules setting (spec §1, §2, §10), as catalogues.

The catalogues are built once in Python from the rules and handed to the kernels as small int16
arrays, so the kernels need no knowledge of momo or of the old edition's rank-1 substitution.

Set catalogue ``SETS`` (int16, shape (n, 7)); one row per way a set can be read:
    ``[card0, card1, card2, type, fruit, rank, picture]`` with
    type ``SET_RUN`` (fruit = the run's fruit, momo only if all three are momo; rank = first rank),
    ``SET_SAME`` (rank = the shared rank), ``SET_PICTURE`` (picture = 0..4; with rank-1
    substitution a sun/moon set may hold rank-1 number cards). Unused fields are -1.
    The same three cards can appear in several rows (``1l 1o 1i`` is a same-number set and, in the
    old edition, also a sun set): the rows are readings, and scoring picks the best.
Head catalogue ``HEADS`` (int16, shape (n, 4)): ``[card0, card1, type, rank_or_picture]``,
    type ``HEAD_NUMBER`` or ``HEAD_PICTURE``.
Partial catalogue ``PARTIALS`` (int16, shape (n, 2)): two cards that one more card turns into a set.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields

import numpy as np

from .cards import (
    FIRST_PICTURE_KIND, MOMO, N_FRUITS, N_PICTURES, N_RANKS, PICTURE_NAMES, SUN, MOON,
    number_kind, picture_kind, is_number, fruit_of, rank_of, card_str, mask_from_kinds,
)

SET_RUN, SET_SAME, SET_PICTURE = 0, 1, 2
HEAD_NUMBER, HEAD_PICTURE = 0, 1


@dataclass(frozen=True)
class HandRules:
    """The part of the rules that decides hand shapes (spec §1).

    momo_wild : momo cards may stand for any fruit of the same rank in runs.
    rank1_substitutes : picture indices (SUN, MOON) that any rank-1 number card may stand for in a
        set or head (old edition); empty in the new edition.
    picture_copies : copies of dog, monkey, pheasant, sun, moon in the deck.
    fruits, ranks : the number cards in the deck (fruit indices; ranks 1..ranks).
    """

    momo_wild: bool = True
    rank1_substitutes: tuple[int, ...] = ()
    picture_copies: tuple[int, int, int, int, int] = (4, 4, 4, 4, 4)
    fruits: tuple[int, ...] = (0, 1, 2, 3)
    ranks: int = 9

    def __post_init__(self):
        # The reference's caches hash the rules on every predicate call: hash them once.
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name)
                                                     for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash

    def in_deck(self, kind: int) -> bool:
        if is_number(kind):
            return fruit_of(kind) in self.fruits and rank_of(kind) <= self.ranks
        return self.picture_copies[kind - FIRST_PICTURE_KIND] > 0

    @property
    def deck_number_mask(self) -> int:
        return sum(1 << number_kind(f, r) for f in self.fruits for r in range(1, self.ranks + 1))


NEW_EDITION = HandRules()
OLD_EDITION = HandRules(rank1_substitutes=(SUN, MOON), picture_copies=(4, 4, 4, 3, 3))

RANK1_KINDS = tuple(number_kind(f, 1) for f in range(N_FRUITS))


def _run_rows(momo_wild: bool):
    rows = set()
    for fruit in range(N_FRUITS):
        for start in range(1, N_RANKS - 1):
            fills = itertools.product((False, True), repeat=3) if (momo_wild and fruit != MOMO) \
                else [(False, False, False)]
            for fill in fills:
                cards = tuple(number_kind(MOMO if f else fruit, start + i) for i, f in enumerate(fill))
                # A run filled entirely by momo reads as the momo run.
                read_fruit = MOMO if all(fill) else fruit
                rows.add((*sorted(cards), SET_RUN, read_fruit, start, -1))
    return rows


def build_sets(rules: HandRules) -> np.ndarray:
    rows = _run_rows(rules.momo_wild)
    for rank in range(1, N_RANKS + 1):
        for fruits in itertools.combinations(range(N_FRUITS), 3):
            rows.add((*sorted(number_kind(f, rank) for f in fruits), SET_SAME, -1, rank, -1))
    for p in range(N_PICTURES):
        pool = [picture_kind(p)] * 3 + (list(RANK1_KINDS) if p in rules.rank1_substitutes else [])
        for combo in set(itertools.combinations(sorted(pool), 3)):
            if combo.count(picture_kind(p)) <= rules.picture_copies[p]:
                rows.add((*combo, SET_PICTURE, -1, -1, p))
    return np.array(sorted(rows), dtype=np.int16).reshape(-1, 7)


def build_heads(rules: HandRules) -> np.ndarray:
    rows = set()
    for rank in range(1, N_RANKS + 1):
        for a, b in itertools.combinations(range(N_FRUITS), 2):
            rows.add((number_kind(a, rank), number_kind(b, rank), HEAD_NUMBER, rank))
    for p in range(N_PICTURES):
        pool = [picture_kind(p)] * 2 + (list(RANK1_KINDS) if p in rules.rank1_substitutes else [])
        for combo in set(itertools.combinations(sorted(pool), 2)):
            rows.add((*combo, HEAD_PICTURE, p))
    return np.array(sorted(rows), dtype=np.int16).reshape(-1, 4)


def build_partials(sets: np.ndarray) -> np.ndarray:
    rows = set()
    for row in sets:
        c = sorted(int(x) for x in row[:3])
        for pair in ((c[0], c[1]), (c[0], c[2]), (c[1], c[2])):
            rows.add(pair)
    return np.array(sorted(rows), dtype=np.int16).reshape(-1, 2)


def index_by_first_card(rows: np.ndarray, n_kinds: int) -> np.ndarray:
    """Offsets so that rows ``start[k]:start[k+1]`` are those whose lowest card is kind k
    (rows must be sorted by their first column, which holds the lowest card)."""
    first = rows[:, 0].astype(np.int64)
    return np.searchsorted(first, np.arange(n_kinds + 1)).astype(np.int32)


def number_group_masks(rows: np.ndarray, n_cards: int) -> np.ndarray:
    """uint64 hand masks of the catalogue rows made only of number cards."""
    out = [mask_from_kinds(r[:n_cards]) for r in rows if all(is_number(int(k)) for k in r[:n_cards])]
    return np.array(sorted(set(out)), dtype=np.uint64)


# ---------------------------------------------------------------------------------------------
# Revealed groups (parsing and validation)
# ---------------------------------------------------------------------------------------------

def _is_run(cards, momo_wild=True) -> bool:
    if len(cards) != 3 or not all(is_number(k) for k in cards):
        return False
    ranks = sorted(rank_of(k) for k in cards)
    if ranks[1] != ranks[0] + 1 or ranks[2] != ranks[0] + 2:
        return False
    fruits = {fruit_of(k) for k in cards} - ({MOMO} if momo_wild else set())
    return len(fruits) <= 1 if momo_wild else len({fruit_of(k) for k in cards}) == 1


def _is_same_number(cards) -> bool:
    return len(cards) == 3 and all(is_number(k) for k in cards) and len({rank_of(k) for k in cards}) == 1


def _picture_read(cards, n, rules: HandRules):
    """The picture the group reads as (n cards of one picture, rank-1 stand-ins allowed), or None."""
    if len(cards) != n:
        return None
    pics = {k - FIRST_PICTURE_KIND for k in cards if not is_number(k)}
    nums = [k for k in cards if is_number(k)]
    if len(pics) == 1:
        p = next(iter(pics))
        if not nums or (p in rules.rank1_substitutes and all(rank_of(k) == 1 for k in nums)):
            return p
    return None


def new_edition_set_error(kind: str, cards) -> str | None:
    """:func:`revealed_group_error` under the new edition (no rank-1 stand-ins, kans allowed):
    the set checker for :func:`simcore.momojan.cards.parse_hand` where no scenario is given."""
    return revealed_group_error(kind, cards, rank1_substitutes=(), kan_allowed=True)


def parse_new_edition_hand(text: str):
    """A hand in notation with the new edition's set rules and deck (where no scenario says
    otherwise: tests, examples)."""
    from .cards import parse_hand
    return parse_hand(text, (4, 4, 4, 4, 4), new_edition_set_error)


def revealed_group_error(kind: str, cards, rank1_substitutes=(), kan_allowed=True, momo_wild=True):
    """Why ``cards`` is not a valid revealed group of ``kind``, or None if it is."""
    rules = HandRules(momo_wild=momo_wild, rank1_substitutes=tuple(rank1_substitutes))
    shown = "".join(card_str(k) for k in sorted(cards))
    if kind == "kan":
        if not kan_allowed:
            return "kan is not played under these rules"
        if len(cards) != 4:
            return f"a kan has 4 cards, got {len(cards)} ({shown})"
        # Rank-1 stand-ins may fill a sun or moon kan (kan.rank1_stand_ins, checked by the scorer).
        if _picture_read(cards, 4, rules) is not None or (
                all(is_number(k) for k in cards) and len({rank_of(k) for k in cards}) == 1):
            return None
        return f"{shown} is not four of one picture or the four cards of one rank"
    if len(cards) != 3:
        return f"a set has 3 cards, got {len(cards)} ({shown})"
    run = _is_run(cards, momo_wild)
    same = _is_same_number(cards) or _picture_read(cards, 3, rules) is not None
    if kind == "chi":
        return None if run else f"{shown} is not a run"
    if kind == "pon":
        return None if same else f"{shown} is not a same-number or picture set"
    return None if (run or same) else f"{shown} is not a set"


def picture_name(p: int) -> str:
    return PICTURE_NAMES[p]
