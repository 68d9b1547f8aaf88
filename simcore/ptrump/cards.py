"""Card ids, rank counts and the hand notation of P-style trump mahjong (spec §1 "Notation").

Card ids (int, 0..53)
---------------------
* ``c < 52``: a suited playing card. Rank index ``r = c // 4`` (0 = A/1, 1..8 = 2..9, 9 = 10 ``T``,
  10 = J, 11 = Q, 12 = K); suit ``c % 4`` (0 = s, 1 = h, 2 = d, 3 = c).
* ``52, 53``: the two jokers (``X``), rank index 13 (:data:`JOKER`); they have no suit.

``c // 4`` is the rank index for every id, jokers included. Shapes (sets, heads, waits) use rank
indices only: ``rank_counts(ids)`` is the int64[14] vector the kernels in
:mod:`simcore.ptrump.hand` take.

Notation
--------
Ranks ``1``-``9`` (``A`` = 1), ``T``, ``J``, ``Q``, ``K``, ``X`` (joker). An optional lowercase suit
``s h d c`` applies to the ranks written since the previous suit letter: ``234s`` is 2s 3s 4s,
``5h5d`` is 5h 5d, ``234s67`` is 2s 3s 4s and a suit-less 6 and 7. Spaces separate groups.

* unprefixed tokens: the concealed hand;
* ``pon:555``, ``kan:7777`` (open), ``kakan:7777`` (added to one's pon), ``ankan:QQQQ``: revealed sets;
* ``nuki:X`` / ``nuki:XX``: jokers set aside;
* ``+8``: the winning card (one card; written last by convention);
* context words ``tsumo`` | ``ron``, ``riichi`` | ``wriichi``, ``ippatsu``, ``rinshan``, ``last``,
  ``first``, ``nagashi``, ``dealer`` (the winner is the dealer: tenhou rather than chiihou);
  indicators ``dora:K``, ``ura:X``.

A card written without a suit still needs an id: it gets the lowest copy of its rank that no
suited card of the whole string (hand, sets, win card, indicators) uses, and is recorded in
:attr:`ParsedHand.suitless`. The one-colour rules must treat a suit-less non-joker as matching no
suit (spec: such a hand is never one-colour); jokers have no suit and never break one colour.

What this implementation simplifies
-----------------------------------
* Copies are counted over everything the string shows, indicators included (they are physical
  cards too): at most 4 of a rank, 2 jokers, 1 of a suited card.
* Rank letters are upper case only; ``10`` is written ``T`` (``0`` is an unknown character).
* Context words are not checked against each other beyond ``tsumo``/``ron`` and
  ``riichi``/``wriichi`` being exclusive (scoring decides what a combination means).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError

N_RANKS = 14            # rank indices 0..13
N_CARDS = 54            # card ids 0..53
N_SUITS = 4
N_NUMBER_RANKS = 9      # rank indices 0..8 (A..9) form runs
JOKER = 13              # rank index of the jokers
FIRST_JOKER = 52        # card ids 52, 53
TEN, JACK, QUEEN, KING = 9, 10, 11, 12
NO_SUIT = -1            # suit_of(joker)
RANK_COPIES = (4,) * 13 + (2,)   # copies of each rank in the deck

RANK_CHARS = "123456789TJQKX"    # canonical character of each rank index
SUIT_CHARS = "shdc"
RANK_ALIASES = {"A": 0}          # accepted on input besides RANK_CHARS

REVEALED_KINDS = ("pon", "kan", "kakan", "ankan")
SET_SIZE = {"pon": 3, "kan": 4, "kakan": 4, "ankan": 4}
FLAG_WORDS = ("tsumo", "ron", "riichi", "wriichi", "ippatsu", "rinshan", "last", "first", "nagashi",
              "dealer")
INDICATOR_WORDS = ("dora", "ura")
EXCLUSIVE = (("tsumo", "ron"), ("riichi", "wriichi"))


class CardError(InputError):
    """Notation that cannot be read; the one-line message names the offending token."""


# ---------------------------------------------------------------------------------------------
# ids, ranks, suits
# ---------------------------------------------------------------------------------------------

def card_id(rank: int, suit: int) -> int:
    """Id of the card of rank index ``rank`` (0..12) and suit ``suit`` (0..3); for the joker rank
    (13) ``suit`` 0 or 1 picks the copy."""
    return rank * N_SUITS + suit


def rank_of(c: int) -> int:
    """Rank index 0..13 of card id ``c`` (jokers: 13)."""
    return int(c) // N_SUITS


def suit_of(c: int) -> int:
    """Suit 0..3 (s h d c) of card id ``c``; :data:`NO_SUIT` for a joker."""
    return NO_SUIT if int(c) >= FIRST_JOKER else int(c) % N_SUITS


def is_joker(c: int) -> bool:
    return int(c) >= FIRST_JOKER


def rank_char(r: int) -> str:
    return RANK_CHARS[r]


def card_str(c: int, suited: bool = True) -> str:
    """``5h``, ``T``, ``X``: the card with its suit (unless ``suited`` is False or a joker)."""
    r = rank_of(c)
    if r == JOKER or not suited:
        return RANK_CHARS[r]
    return RANK_CHARS[r] + SUIT_CHARS[suit_of(c)]


def rank_counts(ids) -> np.ndarray:
    """int64[14]: how many of the cards have each rank index."""
    cnt = np.zeros(N_RANKS, np.int64)
    for c in ids:
        cnt[int(c) // N_SUITS] += 1
    return cnt


def format_ranks(cnt) -> str:
    """A rank-count vector as ranks in order: ``2345TTX``."""
    return "".join(RANK_CHARS[r] * int(cnt[r]) for r in range(N_RANKS))


def format_rank_mask(mask: int) -> str:
    """The ranks of a rank bit mask (bit r = rank index r), in order: ``58X``."""
    return "".join(RANK_CHARS[r] for r in range(N_RANKS) if int(mask) >> r & 1)


def format_cards(ids, suitless=(), sep: str = " ") -> str:
    """Canonical notation of a multiset of cards, read back exactly by :func:`parse_cards`.

    Suited cards come first, one group per suit (s h d c) with the ranks in order, then the
    suit-less ones (ids in ``suitless``, and jokers) in rank order: ``234s 5h 67X``. ``sep`` joins
    the groups (``""`` gives one token, as in ``pon:5s5h5``); a suit-less group must come last
    because a suit letter applies to every rank written before it.
    """
    suitless = {int(c) for c in suitless}
    groups = []
    for s in range(N_SUITS):
        ranks = sorted(rank_of(c) for c in ids if int(c) not in suitless and suit_of(c) == s)
        if ranks:
            groups.append("".join(RANK_CHARS[r] for r in ranks) + SUIT_CHARS[s])
    rest = sorted(rank_of(c) for c in ids if int(c) in suitless or is_joker(c))
    if rest:
        groups.append("".join(RANK_CHARS[r] for r in rest))
    return sep.join(groups)


# ---------------------------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RevealedSet:
    kind: str                 # "pon" | "kan" | "kakan" | "ankan"
    cards: tuple[int, ...]    # card ids, sorted

    @property
    def rank(self) -> int:
        return rank_of(self.cards[0])


@dataclass(frozen=True)
class ParsedHand:
    """A hand in notation, as card ids. Every id appears once in the whole object."""

    concealed: tuple[int, ...]                 # sorted card ids, the win card excluded
    revealed: tuple[RevealedSet, ...] = ()     # in the order written
    nuki: tuple[int, ...] = ()                 # joker ids set aside
    win: int | None = None                     # the winning card (``+8``), or None
    flags: frozenset[str] = frozenset()        # context words present (FLAG_WORDS)
    dora: int | None = None                    # indicator card ids
    ura: int | None = None
    suitless: frozenset[int] = field(default_factory=frozenset)  # ids written without a suit

    # -- what the kernels want --
    @property
    def k(self) -> int:
        """Revealed pons/kans (0..2)."""
        return len(self.revealed)

    @property
    def counts(self) -> np.ndarray:
        """int64[14] rank counts of the concealed hand (win card excluded)."""
        return rank_counts(self.concealed)

    @property
    def full_counts(self) -> np.ndarray:
        """int64[14] rank counts of the concealed hand plus the win card (if any)."""
        return rank_counts(self.concealed + ((self.win,) if self.win is not None else ()))

    @property
    def suited(self) -> dict[int, bool]:
        """Card id -> written with a suit (jokers: False), for every card of the string."""
        return {c: (c not in self.suitless and not is_joker(c)) for c in self.all_cards}

    def is_suited(self, c: int) -> bool:
        return int(c) not in self.suitless and not is_joker(c)

    @property
    def all_cards(self) -> tuple[int, ...]:
        """Every card id in the string: hand, revealed sets, nuki, win card, indicators."""
        out = list(self.concealed)
        for g in self.revealed:
            out += g.cards
        out += self.nuki
        out += [c for c in (self.win, self.dora, self.ura) if c is not None]
        return tuple(out)

    def has(self, word: str) -> bool:
        return word in self.flags

    @property
    def tsumo(self) -> bool:
        return "tsumo" in self.flags

    @property
    def ron(self) -> bool:
        return "ron" in self.flags

    def __str__(self) -> str:
        sl = self.suitless
        parts = [f"{g.kind}:" + format_cards(g.cards, sl, "") for g in self.revealed]
        if self.nuki:
            parts.append("nuki:" + "X" * len(self.nuki))
        if self.concealed:
            parts.append(format_cards(self.concealed, sl))
        if self.win is not None:
            parts.append("+" + format_cards([self.win], sl, ""))
        parts += [w for w in FLAG_WORDS if w in self.flags]
        for name, c in (("dora", self.dora), ("ura", self.ura)):
            if c is not None:
                parts.append(f"{name}:" + format_cards([c], sl, ""))
        return " ".join(parts)


def _read_body(body: str, token: str) -> list[tuple[int, int]]:
    """(rank index, suit or NO_SUIT) of each card of a token body such as ``234s67``."""
    out: list[tuple[int, int]] = []
    pending: list[int] = []
    for ch in body:
        if ch in SUIT_CHARS:
            if not pending:
                raise CardError(f"suit letter {ch!r} follows no rank in {token!r}")
            if JOKER in pending:
                raise CardError(f"a joker takes no suit ({ch!r}) in {token!r}")
            out += [(r, SUIT_CHARS.index(ch)) for r in pending]
            pending = []
        elif ch in RANK_ALIASES:
            pending.append(RANK_ALIASES[ch])
        elif ch in RANK_CHARS:
            pending.append(RANK_CHARS.index(ch))
        else:
            hint = " (10 is written T)" if ch == "0" else ""
            raise CardError(f"unknown character {ch!r} in {token!r}{hint}")
    out += [(r, NO_SUIT) for r in pending]
    if not out:
        raise CardError(f"no cards in {token!r}")
    return out


class _Assigner:
    """Gives ids to (rank, suit) cards: suited cards their own id, suit-less cards the lowest
    free copy of their rank after all suited cards are placed. Counts copies, naming tokens."""

    def __init__(self):
        self.items: list[tuple[int, int, str]] = []   # (rank, suit, token) in order

    def add(self, cards, token):
        start = len(self.items)
        self.items += [(r, s, token) for r, s in cards]
        return list(range(start, len(self.items)))

    def assign(self) -> tuple[list[int], set[int]]:
        ids: list[int | None] = [None] * len(self.items)
        used: dict[int, str] = {}
        per_rank = [0] * N_RANKS
        for i, (r, s, token) in enumerate(self.items):
            per_rank[r] += 1
            if per_rank[r] > RANK_COPIES[r]:
                what = "jokers" if r == JOKER else f"copies of rank {RANK_CHARS[r]}"
                raise CardError(f"more than {RANK_COPIES[r]} {what} (at {token!r})")
            if s != NO_SUIT:
                c = card_id(r, s)
                if c in used:
                    raise CardError(f"{card_str(c)} appears twice (in {used[c]!r} and {token!r}); "
                                    "each suited card exists once")
                used[c] = token
                ids[i] = c
        suitless = set()
        for i, (r, s, token) in enumerate(self.items):
            if s == NO_SUIT:
                c = next(card_id(r, t) for t in range(RANK_COPIES[r]) if card_id(r, t) not in used)
                used[c] = token
                ids[i] = c
                if r != JOKER:
                    suitless.add(c)
        return ids, suitless


def parse_card(text: str) -> int:
    """Exactly one card (``8``, ``5h``, ``X``, ``A``) as an id (suit-less: the lowest copy)."""
    token = text.strip()
    cards = _read_body(token, token) if token else []
    if len(cards) != 1:
        raise CardError(f"expected exactly one card, got {text!r}")
    r, s = cards[0]
    return card_id(r, 0 if s == NO_SUIT else s)


def parse_cards(text: str) -> list[int]:
    """A plain multiset of cards (``234s 67 X``), ids as :func:`parse_hand` gives them; no size or
    set checks beyond copies."""
    a = _Assigner()
    for token in text.split():
        a.add(_read_body(token, token), token)
    return a.assign()[0]


def parse_hand(text: str, allow_drawn: bool = False) -> ParsedHand:
    """Read the spec's notation (module docstring) into a :class:`ParsedHand`.

    Parameters
    ----------
    text : str
        e.g. ``"pon:555 34 66 +2 ron dora:9"``.
    allow_drawn : bool
        Also accept a concealed hand of 8 - 3k cards without a win card (a hand after its draw).

    Raises
    ------
    CardError
        Unknown characters or words, too many copies, a malformed revealed set, two win cards or
        indicators, exclusive context words together, or a concealed count other than 7 - 3k
        (8 - 3k with the win card counted), k = revealed pons/kans.
    """
    tokens = text.split()
    if not tokens:
        raise CardError("empty hand")
    a = _Assigner()
    concealed: list[int] = []           # indices into a.items
    revealed: list[tuple[str, list[int]]] = []
    nuki: list[int] = []
    win = dora = ura = None
    win_token = None
    flags: set[str] = set()
    for token in tokens:
        low = token.lower()
        if low in FLAG_WORDS:
            if low in flags:
                raise CardError(f"{token!r} given twice")
            for pair in EXCLUSIVE:
                if low in pair and (set(pair) - {low}) & flags:
                    raise CardError(f"{token!r} contradicts {(set(pair) - {low}).pop()!r}")
            flags.add(low)
            continue
        if token.startswith("+"):
            if win is not None:
                raise CardError(f"a second win card {token!r} (the first is {win_token!r})")
            cards = _read_body(token[1:], token)
            if len(cards) != 1:
                raise CardError(f"the win card {token!r} must be exactly one card")
            win, win_token = a.add(cards, token)[0], token
            continue
        prefix, sep, body = token.partition(":")
        if not sep:
            concealed += a.add(_read_body(token, token), token)
            continue
        kind = prefix.lower()
        cards = _read_body(body, token) if body else []
        if not cards:
            raise CardError(f"no cards in {token!r}")
        ranks = {r for r, _ in cards}
        if kind in INDICATOR_WORDS:
            if len(cards) != 1:
                raise CardError(f"the indicator {token!r} must be exactly one card")
            if (dora if kind == "dora" else ura) is not None:
                raise CardError(f"a second {kind} indicator {token!r}")
            i = a.add(cards, token)[0]
            if kind == "dora":
                dora = i
            else:
                ura = i
        elif kind == "nuki":
            if ranks != {JOKER}:
                raise CardError(f"only jokers can be set aside, not {token!r}")
            nuki += a.add(cards, token)
        elif kind in REVEALED_KINDS:
            n = SET_SIZE[kind]
            if len(cards) != n or len(ranks) != 1:
                raise CardError(f"{token!r} is not a {kind}: it needs {n} cards of one rank")
            if JOKER in ranks:
                raise CardError(f"{token!r} is not a {kind}: jokers form no sets")
            revealed.append((kind, a.add(cards, token)))
        else:
            raise CardError(f"unknown prefix {prefix!r} in {token!r} (expected pon: kan: kakan: "
                            "ankan: nuki: dora: ura:)")
    k = len(revealed)
    want = 7 - 3 * k
    if want < 1:
        raise CardError(f"{k} revealed sets: at most 2 (the concealed hand would have {want} "
                        "cards)")
    n = len(concealed)
    ok = n == want or (win is None and allow_drawn and n == want + 1)
    if not ok:
        with_win = " besides the win card" if win is not None else ""
        raise CardError(f"the concealed hand has {n} cards{with_win}; with {k} revealed set(s) it "
                        f"must have {want}" + (f" (or {want + 1})" if allow_drawn and win is None
                                               else ""))
    ids, suitless = a.assign()
    return ParsedHand(
        concealed=tuple(sorted(ids[i] for i in concealed)),
        revealed=tuple(RevealedSet(kind, tuple(sorted(ids[i] for i in idx)))
                       for kind, idx in revealed),
        nuki=tuple(sorted(ids[i] for i in nuki)),
        win=None if win is None else ids[win],
        flags=frozenset(flags),
        dora=None if dora is None else ids[dora],
        ura=None if ura is None else ids[ura],
        suitless=frozenset(suitless),
    )
