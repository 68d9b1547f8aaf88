"""Card ids, the uint64 hand encoding, and the card notation (spec §1).

Card kinds
----------
There are 41 card *kinds*, numbered so that sorting by id gives the canonical print order:

* ``0..35``  number cards ("fruits"): ``kind = fruit * 9 + (rank - 1)`` with fruit
  ``0 = momo (m), 1 = lemon (l), 2 = mikan (o), 3 = ichigo (i)``. One copy of each exists.
* ``36..40`` picture cards: dog, monkey, pheasant, sun, moon (``1z..5z``). Several copies each
  (4 in the new edition; sun and moon 3 in the old one).

Hand mask (uint64) -- a multiset of cards
-----------------------------------------
* bits ``0..35``: one bit per number card (bit = kind id).
* bits ``36..50``: five 3-bit counters, picture ``p`` (0 = dog .. 4 = moon) at bit ``36 + 3p``.
  A counter holds 0..7, enough for four copies.
* bits ``51..63``: always zero.

Kind set (uint64) -- a set of card kinds, e.g. a player's waits
-----------------------------------------------------------------
* bit ``k`` set for kind ``k`` (0..40). Unlike the hand mask, pictures take one bit each here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError

N_FRUITS = 4
N_RANKS = 9
N_NUMBER_KINDS = N_FRUITS * N_RANKS  # 36
N_PICTURES = 5
N_KINDS = N_NUMBER_KINDS + N_PICTURES  # 41

MOMO, LEMON, MIKAN, ICHIGO = 0, 1, 2, 3
DOG, MONKEY, PHEASANT, SUN, MOON = 0, 1, 2, 3, 4  # picture index p; kind = 36 + p
FIRST_PICTURE_KIND = N_NUMBER_KINDS

FRUIT_LETTERS = "mloi"
PICTURE_LETTER = "z"
FRUIT_NAMES = ("momo", "lemon", "mikan", "ichigo")
FRUIT_ALIASES = {"peach": MOMO, "orange": MIKAN, "strawberry": ICHIGO}
PICTURE_NAMES = ("dog", "monkey", "pheasant", "sun", "moon")
FRUIT_EMOJI = ("🍑", "🍋", "🍊", "🍓")
PICTURE_EMOJI = ("🐕", "🐒", "🐦", "☀️", "🌙")

# Hand-mask layout.
NUMBER_MASK = (1 << N_NUMBER_KINDS) - 1  # bits 0..35
PICTURE_SHIFT = 36
PICTURE_BITS = 3
PICTURE_FIELD = (1 << PICTURE_BITS) - 1
MOMO_KIND_SET = (1 << N_RANKS) - 1  # kinds 0..8: the momo cards
ALL_KIND_SET = (1 << N_KINDS) - 1

REVEALED_KINDS = ("kai", "pon", "chi", "kan")


def number_kind(fruit: int, rank: int) -> int:
    return fruit * N_RANKS + (rank - 1)


def picture_kind(p: int) -> int:
    return FIRST_PICTURE_KIND + p


def is_number(kind: int) -> bool:
    return kind < N_NUMBER_KINDS


def fruit_of(kind: int) -> int:
    return kind // N_RANKS


def rank_of(kind: int) -> int:
    return kind % N_RANKS + 1


def card_str(kind: int) -> str:
    """Canonical compact notation of one card: ``5m``, ``3l``, ``1z``."""
    if kind < N_NUMBER_KINDS:
        return f"{rank_of(kind)}{FRUIT_LETTERS[fruit_of(kind)]}"
    return f"{kind - FIRST_PICTURE_KIND + 1}{PICTURE_LETTER}"


def card_name(kind: int) -> str:
    """English name: ``lemon3``, ``dog``."""
    if kind < N_NUMBER_KINDS:
        return f"{FRUIT_NAMES[fruit_of(kind)]}{rank_of(kind)}"
    return PICTURE_NAMES[kind - FIRST_PICTURE_KIND]


def card_emoji(kind: int) -> str:
    if kind < N_NUMBER_KINDS:
        return f"{FRUIT_EMOJI[fruit_of(kind)]}{rank_of(kind)}"
    return PICTURE_EMOJI[kind - FIRST_PICTURE_KIND]


def format_cards(kinds) -> str:
    """Canonical compact notation of a multiset of cards, grouped by suit: ``5m 123l 11z``."""
    groups: list[str] = []
    last_letter = None
    digits = ""
    for k in sorted(int(x) for x in kinds):
        s = card_str(k)
        if s[-1] != last_letter and last_letter is not None:
            groups.append(digits + last_letter)
            digits = ""
        digits += s[:-1]
        last_letter = s[-1]
    if last_letter is not None:
        groups.append(digits + last_letter)
    return " ".join(groups)


# ---------------------------------------------------------------------------------------------
# Hand mask <-> kinds
# ---------------------------------------------------------------------------------------------

def mask_from_kinds(kinds) -> int:
    m = 0
    for k in kinds:
        k = int(k)
        if k < N_NUMBER_KINDS:
            m |= 1 << k
        else:
            m += 1 << (PICTURE_SHIFT + PICTURE_BITS * (k - FIRST_PICTURE_KIND))
    return m


def kinds_from_mask(mask: int) -> list[int]:
    mask = int(mask)
    out = [k for k in range(N_NUMBER_KINDS) if mask >> k & 1]
    for p in range(N_PICTURES):
        out += [FIRST_PICTURE_KIND + p] * ((mask >> (PICTURE_SHIFT + PICTURE_BITS * p)) & PICTURE_FIELD)
    return out


def kinds_from_kind_set(kset: int) -> list[int]:
    return [k for k in range(N_KINDS) if int(kset) >> k & 1]


def counts_from_kinds(kinds) -> np.ndarray:
    c = np.zeros(N_KINDS, dtype=np.int8)
    for k in kinds:
        c[int(k)] += 1
    return c


# ---------------------------------------------------------------------------------------------
# Notation parsing
# ---------------------------------------------------------------------------------------------

class NotationError(InputError):
    """A hand string that is not valid notation; the message names the bad token."""


_COMPACT = re.compile(r"([0-9]+)([a-zA-Z])")   # ASCII digits: no "²", "３" or "٣"
_NAMED = re.compile(r"([a-z]+)([0-9]*)")


@dataclass(frozen=True)
class RevealedGroup:
    kind: str  # "kai" | "pon" | "chi" | "kan"
    cards: tuple[int, ...]

    def __str__(self) -> str:
        """``pon:111z``, ``chi:123l``; a mixed group card by card in rank order: ``chi:1l2m3l``."""
        cards = sorted(self.cards, key=lambda k: (rank_of(k) if is_number(k) else 0, k))
        if len({card_str(k)[-1] for k in cards}) == 1:
            return f"{self.kind}:" + format_cards(cards)
        return f"{self.kind}:" + "".join(card_str(k) for k in cards)


@dataclass(frozen=True)
class Hand:
    """A parsed hand: the concealed cards and the revealed groups, as card kinds."""

    concealed: tuple[int, ...]
    revealed: tuple[RevealedGroup, ...] = ()

    @property
    def concealed_mask(self) -> int:
        return mask_from_kinds(self.concealed)

    @property
    def revealed_mask(self) -> int:
        return mask_from_kinds(k for g in self.revealed for k in g.cards)

    @property
    def n_revealed(self) -> int:
        return len(self.revealed)

    def __str__(self) -> str:
        parts = [str(g) for g in self.revealed]
        if self.concealed:
            parts.append(format_cards(self.concealed))
        return " ".join(parts)


def _parse_body(body: str, token: str) -> list[int]:
    """Cards of one group body: compact runs (``123l5m``) or English names (``dog``, ``lemon3``),
    optionally separated by commas."""
    kinds: list[int] = []
    for piece in body.split(","):
        if not piece:
            raise NotationError(f"empty card in {token!r}")
        low = piece.lower()
        named = _NAMED.fullmatch(low)
        if named and (named.group(1) in PICTURE_NAMES or named.group(1) in FRUIT_NAMES
                      or named.group(1) in FRUIT_ALIASES):
            kinds.append(_named_card(named.group(1), named.group(2), token))
            continue
        pos = 0
        for m in _COMPACT.finditer(piece):
            if m.start() != pos:
                raise NotationError(f"cannot read {piece[pos:m.start()]!r} in {token!r}")
            pos = m.end()
            kinds += _compact_cards(m.group(1), m.group(2), token)
        if pos != len(piece):
            raise NotationError(f"cannot read {piece[pos:]!r} in {token!r} "
                                "(expected digits followed by one of m l o i z, or a card name)")
    return kinds


def _named_card(name: str, digits: str, token: str) -> int:
    if name in PICTURE_NAMES:
        if digits:
            raise NotationError(f"picture card {name!r} takes no rank in {token!r}")
        return picture_kind(PICTURE_NAMES.index(name))
    fruit = FRUIT_NAMES.index(name) if name in FRUIT_NAMES else FRUIT_ALIASES[name]
    if not digits:
        raise NotationError(f"fruit card {name!r} needs a rank 1-9 in {token!r}")
    rank = int(digits)
    if not 1 <= rank <= N_RANKS:
        raise NotationError(f"rank {rank} out of range 1-9 in {token!r}")
    return number_kind(fruit, rank)


def _compact_cards(digits: str, letter: str, token: str) -> list[int]:
    letter_l = letter.lower()
    if letter_l == PICTURE_LETTER:
        out = []
        for d in digits:
            if not 1 <= int(d) <= N_PICTURES:
                raise NotationError(f"picture rank {d} out of range 1-5 in {token!r}")
            out.append(picture_kind(int(d) - 1))
        return out
    if letter_l not in FRUIT_LETTERS:
        raise NotationError(f"unknown suit letter {letter!r} in {token!r} (expected m l o i z)")
    fruit = FRUIT_LETTERS.index(letter_l)
    out = []
    for d in digits:
        if not 1 <= int(d) <= N_RANKS:
            raise NotationError(f"rank {d} out of range 1-9 in {token!r}")
        out.append(number_kind(fruit, int(d)))
    return out


def parse_hand(text: str, picture_copies, set_checker) -> Hand:
    """Parse the spec's notation into a :class:`Hand`.

    Parameters
    ----------
    text : str
        ``"kai:111z chi:789o 23o 44z"``; groups separated by spaces, revealed groups prefixed.
    picture_copies : sequence of 5 ints
        Copies of each picture in the deck (the rules' deck); more in the hand is an error.
    set_checker : callable(kind: str, cards: list[int]) -> str | None
        Returns why a revealed group is not a valid set of its kind (rules-dependent, e.g. old-edition
        rank-1 substitution), or None: :func:`simcore.momojan.analysis.parse_hand_for` passes the
        scenario's, :func:`simcore.momojan.shapes.new_edition_set_error` is the new edition's.
    """

    concealed: list[int] = []
    revealed: list[RevealedGroup] = []
    seen_numbers: dict[int, str] = {}
    picture_count = [0] * N_PICTURES
    tokens = text.split()
    if not tokens:
        raise NotationError("empty hand")
    for token in tokens:
        prefix, sep, body = token.partition(":")
        if sep:
            kind = prefix.lower()
            if kind not in REVEALED_KINDS:
                raise NotationError(f"unknown group prefix {prefix!r} in {token!r} "
                                    "(expected kai: pon: chi: kan:)")
            cards = _parse_body(body, token)
            why = set_checker(kind, cards)
            if why:
                raise NotationError(f"{token!r} is not a {kind}: {why}")
            revealed.append(RevealedGroup(kind, tuple(sorted(cards))))
        else:
            cards = _parse_body(token, token)
            concealed += cards
        for k in cards:
            if k < N_NUMBER_KINDS:
                if k in seen_numbers:
                    raise NotationError(f"{card_str(k)} appears twice (in {seen_numbers[k]!r} and "
                                        f"{token!r}); each number card exists once")
                seen_numbers[k] = token
            else:
                p = k - FIRST_PICTURE_KIND
                picture_count[p] += 1
                if picture_count[p] > picture_copies[p]:
                    raise NotationError(f"more {PICTURE_NAMES[p]} cards than the deck's "
                                        f"{picture_copies[p]} (at {token!r})")
    return Hand(tuple(sorted(concealed)), tuple(revealed))


def parse_card(text: str) -> int:
    """Parse exactly one card (``3l``, ``moon``)."""
    kinds = _parse_body(text.strip(), text.strip()) if text.strip() else []
    if len(kinds) != 1:
        raise NotationError(f"expected exactly one card, got {text!r}")
    return kinds[0]
