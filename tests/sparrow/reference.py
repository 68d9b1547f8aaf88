"""An independent, deliberately plain reference model of Sparrow mahjong's hand analysis and
scoring, written from the specification (../shared/rules/sparrow.md, beside the project) alone.
It is a test oracle for the fast implementation: clarity over speed, standard library only.

Conventions
-----------
- Kinds 0..8 are bamboo 1s..9s, 9 is G (green dragon), 10 is R (red dragon).
- A hand is a list/tuple of 11 counts, each 0..4.
- A set is ("run", k) = kinds k, k+1, k+2 (bamboo only, k in 0..6, no wrap) or ("triplet", k)
  for any kind k in 0..10. Dragons form triplets only.
- A reading is a sorted pair (set, set) of two sets whose tiles are exactly the 6-tile hand.

Choices where the spec/brief leaves room (see also the report that came with this file):
- The specials (chinyao, all_green, super_red) are decided by their *conditions*, not by their
  point values: a chinyao hand never scores chanta and, under specials="alone", a hand meeting
  any special's condition scores its specials only, even when an option sets a value to 0.
- Ties between readings of equal points: the first reading in sorted order is reported.
- parse: a token is one or more groups written back to back; a group is digits 1-9 (each may
  carry one `*`) followed by `s`, or a run of `G`/`R` letters (mixing them, `GR`, is accepted).
"""
from __future__ import annotations

import re

N_KINDS = 11
BAMBOO = range(0, 9)          # kinds 0..8 = 1s..9s
G, R = 9, 10
DRAGONS = (G, R)
TERMINALS_AND_DRAGONS = frozenset({0, 8, G, R})          # 1s, 9s, G, R
GREEN_KINDS = frozenset({1, 2, 3, 5, 7, G})              # 2s 3s 4s 6s 8s G
SIMPLE_KINDS = frozenset({1, 2, 3, 4, 5, 6, 7})          # 2s..8s
MAX_COPIES = 4
HAND_SIZE = 6

DEFAULT_OPTS = {
    "run": 1,
    "triplet": 2,
    "tanyao": 1,
    "chanta": 2,
    "chinyao": 15,
    "all_green": 10,
    "super_red": 20,
    "red": 1,
    "dora": 1,
    "dealer_bonus": 0,
    "specials": "add",
}


# --------------------------------------------------------------------------------------------
# sets
# --------------------------------------------------------------------------------------------

def _all_sets():
    sets = [("run", k) for k in range(0, 7)]
    sets += [("triplet", k) for k in range(N_KINDS)]
    return sets


ALL_SETS = _all_sets()


def set_kinds(s) -> list[int]:
    """The three kinds of a set, e.g. ("run", 0) -> [0, 1, 2], ("triplet", 9) -> [9, 9, 9]."""
    shape, k = s
    if shape == "run":
        return [k, k + 1, k + 2]
    if shape == "triplet":
        return [k, k, k]
    raise ValueError(f"bad set {s!r}")


def _counts_of_sets(sets) -> list[int]:
    counts = [0] * N_KINDS
    for s in sets:
        for k in set_kinds(s):
            counts[k] += 1
    return counts


def _check_counts(counts) -> list[int]:
    counts = list(counts)
    if len(counts) != N_KINDS:
        raise ValueError(f"a hand has {N_KINDS} counts, got {len(counts)}")
    for k, c in enumerate(counts):
        if not isinstance(c, int) or isinstance(c, bool):
            c = int(c)                 # tolerate numpy integers without importing numpy
            counts[k] = c
        if c < 0 or c > MAX_COPIES:
            raise ValueError(f"count of kind {k} is {c}, outside 0..{MAX_COPIES}")
    return counts


# Every pair of sets whose tiles fit the deck (no kind more than 4 times), with its counts.
def _all_winning_pairs():
    pairs = []
    for i in range(len(ALL_SETS)):
        for j in range(i, len(ALL_SETS)):
            pair = tuple(sorted((ALL_SETS[i], ALL_SETS[j])))
            counts = _counts_of_sets(pair)
            if max(counts) <= MAX_COPIES:
                pairs.append((pair, counts))
    return pairs


WINNING_PAIRS = _all_winning_pairs()
# The distinct winning 6-tile count vectors.
WINNING_HANDS = sorted({tuple(c) for _, c in WINNING_PAIRS})


# --------------------------------------------------------------------------------------------
# hand analysis
# --------------------------------------------------------------------------------------------

def readings(counts) -> list:
    """Every distinct way a 6-tile hand is two sets, as sorted (set, set) pairs, sorted;
    [] when the hand is not 6 tiles or not a win."""
    counts = _check_counts(counts)
    if sum(counts) != HAND_SIZE:
        return []
    found = {pair for pair, c in WINNING_PAIRS if c == counts}
    return sorted(found)


def is_win(counts) -> bool:
    """6 tiles that are two sets."""
    return len(readings(counts)) > 0


def waits(counts) -> set:
    """For a 5-tile hand, the kinds k (with counts[k] < 4) such that adding one k wins.
    The empty set for a hand of any other size."""
    counts = _check_counts(counts)
    if sum(counts) != HAND_SIZE - 1:
        return set()
    result = set()
    for k in range(N_KINDS):
        if counts[k] >= MAX_COPIES:
            continue
        after = list(counts)
        after[k] += 1
        if is_win(after):
            result.add(k)
    return result


def distance(counts) -> int:
    """For a 5- or 6-tile hand: the fewest tiles to add (discarding as many) to reach a win,
    i.e. min over winning count vectors W of sum_k max(W[k] - counts[k], 0)."""
    counts = _check_counts(counts)
    if sum(counts) not in (HAND_SIZE - 1, HAND_SIZE):
        raise ValueError(f"distance is defined for 5 or 6 tiles, got {sum(counts)}")
    best = None
    for w in WINNING_HANDS:
        missing = 0
        for k in range(N_KINDS):
            if w[k] > counts[k]:
                missing += w[k] - counts[k]
        if best is None or missing < best:
            best = missing
    return best


# --------------------------------------------------------------------------------------------
# scoring
# --------------------------------------------------------------------------------------------

def _merge_opts(opts):
    merged = dict(DEFAULT_OPTS)
    if opts:
        unknown = set(opts) - set(DEFAULT_OPTS)
        if unknown:
            raise ValueError(f"unknown scoring options {sorted(unknown)}")
        merged.update(opts)
    if merged["specials"] not in ("add", "alone"):
        raise ValueError(f"specials must be 'add' or 'alone', got {merged['specials']!r}")
    return merged


def _set_has_terminal_or_dragon(s) -> bool:
    return any(k in TERMINALS_AND_DRAGONS for k in set_kinds(s))


def _score_reading(counts, reading, reds, dora_kind, dealer, o):
    """The parts of one reading (zero parts dropped) and their sum."""
    present = [k for k in range(N_KINDS) if counts[k] > 0]

    n_runs = sum(1 for s in reading if s[0] == "run")
    n_triplets = sum(1 for s in reading if s[0] == "triplet")

    is_tanyao = all(k in SIMPLE_KINDS for k in present)
    is_chinyao = all(k in TERMINALS_AND_DRAGONS for k in present)
    is_chanta = all(_set_has_terminal_or_dragon(s) for s in reading) and not is_chinyao
    is_all_green = all(k in GREEN_KINDS for k in present)
    is_super_red = reds == HAND_SIZE

    specials = {}
    if is_chinyao:
        specials["chinyao"] = o["chinyao"]
    if is_all_green:
        specials["all_green"] = o["all_green"]
    if is_super_red:
        specials["super_red"] = o["super_red"]

    if o["specials"] == "alone" and specials:
        parts = dict(specials)
    else:
        parts = {
            "run": o["run"] * n_runs,
            "triplet": o["triplet"] * n_triplets,
            "tanyao": o["tanyao"] if is_tanyao else 0,
            "chanta": o["chanta"] if is_chanta else 0,
        }
        parts.update(specials)
        parts["red"] = o["red"] * reds
        parts["dora"] = o["dora"] * counts[dora_kind] if dora_kind >= 0 else 0
        parts["dealer_bonus"] = o["dealer_bonus"] if dealer else 0

    parts = {name: value for name, value in parts.items() if value != 0}
    return sum(parts.values()), parts


def points(counts, reds, dora_kind, dealer, opts=None) -> dict:
    """The points of a winning 6-tile hand under its best reading.

    reds: red tiles among the six (0..6); dora_kind: 0..10 or -1 for none; dealer: bool.
    Returns {"points": int, "parts": {name: points (nonzero only)}, "reading": the reading}."""
    counts = _check_counts(counts)
    o = _merge_opts(opts)
    if not 0 <= reds <= HAND_SIZE:
        raise ValueError(f"reds must be 0..6, got {reds}")
    if not -1 <= dora_kind < N_KINDS:
        raise ValueError(f"dora_kind must be -1..10, got {dora_kind}")
    all_readings = readings(counts)
    if not all_readings:
        raise ValueError(f"not a winning hand: {counts}")
    best = None
    for reading in all_readings:
        total, parts = _score_reading(counts, reading, reds, dora_kind, bool(dealer), o)
        if best is None or total > best["points"]:
            best = {"points": total, "parts": parts, "reading": reading}
    return best


def next_dora(indicator_kind, mode) -> int:
    """The dora kind for an indicator: mode "same" -> itself; "next" -> the next kind
    (bamboo wraps 9s -> 1s, G -> R, R -> G)."""
    if not 0 <= indicator_kind < N_KINDS:
        raise ValueError(f"bad indicator kind {indicator_kind}")
    if mode == "same":
        return indicator_kind
    if mode == "next":
        if indicator_kind == G:
            return R
        if indicator_kind == R:
            return G
        return (indicator_kind + 1) % 9
    raise ValueError(f"bad dora mode {mode!r}")


# --------------------------------------------------------------------------------------------
# payment and furiten
# --------------------------------------------------------------------------------------------

def settle(points, winner, discarder, n_seats, tsumo_mode) -> list[int]:
    """Score change per seat for one win. Ron (discarder a seat): the discarder pays `points`.
    Tsumo (discarder None): every other seat pays ceil/floor(points / (n_seats-1)) or `points`."""
    if n_seats < 2:
        raise ValueError("at least 2 seats")
    if not 0 <= winner < n_seats:
        raise ValueError(f"bad winner {winner}")
    delta = [0] * n_seats
    if discarder is not None:
        if not 0 <= discarder < n_seats or discarder == winner:
            raise ValueError(f"bad discarder {discarder}")
        delta[discarder] -= points
        delta[winner] += points
        return delta
    others = n_seats - 1
    if tsumo_mode == "split_ceil":
        each = -(-points // others)
    elif tsumo_mode == "split_floor":
        each = points // others
    elif tsumo_mode == "each_full":
        each = points
    else:
        raise ValueError(f"bad tsumo mode {tsumo_mode!r}")
    for seat in range(n_seats):
        if seat != winner:
            delta[seat] -= each
            delta[winner] += each
    return delta


def furiten(own_discard_kinds, waiting_kinds, ron_kind, mode) -> bool:
    """True when ron on ron_kind is forbidden. "waits": some waiting kind is among one's own
    discards; "tile": ron_kind is among them; "none": never."""
    discards = set(own_discard_kinds)
    if mode == "waits":
        return any(k in discards for k in waiting_kinds)
    if mode == "tile":
        return ron_kind in discards
    if mode == "none":
        return False
    raise ValueError(f"bad furiten mode {mode!r}")


# --------------------------------------------------------------------------------------------
# notation
# --------------------------------------------------------------------------------------------

_BAMBOO_GROUP = r"(?:[1-9]\*?)+s"
_DRAGON_GROUP = r"[GR]+"
_TOKEN = re.compile(rf"(?:{_BAMBOO_GROUP}|{_DRAGON_GROUP})+")
_GROUP = re.compile(rf"{_BAMBOO_GROUP}|{_DRAGON_GROUP}")
_TILE_IN_BAMBOO = re.compile(r"([1-9])(\*?)")


def parse(text) -> tuple[list[int], int]:
    """Parse spec §1 notation, e.g. "123s 45*6s GGG R", into (counts, reds). Red dragons are
    always red; a `*` after a bamboo digit marks that rank's red copy (at most one per rank)."""
    counts = [0] * N_KINDS
    red_bamboo = [0] * 9
    for token in text.split():
        if not _TOKEN.fullmatch(token):
            raise ValueError(f"bad token {token!r}")
        for group in _GROUP.findall(token):
            if group.endswith("s"):
                tiles = [(int(d) - 1, star == "*") for d, star in _TILE_IN_BAMBOO.findall(group)]
            else:
                tiles = [(G if ch == "G" else R, False) for ch in group]
            for kind, red in tiles:
                counts[kind] += 1
                if counts[kind] > MAX_COPIES:
                    raise ValueError(f"bad token {token!r}: more than {MAX_COPIES} of a kind")
                if red:
                    red_bamboo[kind] += 1
                    if red_bamboo[kind] > 1:
                        raise ValueError(f"bad token {token!r}: more than one red {kind + 1}s")
    reds = sum(red_bamboo) + counts[R]
    return counts, reds


def hand(text) -> list[int]:
    """The counts of a notation string (the reds dropped): a convenience for tests."""
    return parse(text)[0]


# The hand-derived checks of this model are tests/sparrow/test_reference_selfcheck.py.
