"""Pure-Python reference for emoji mahjong hands and scoring: slow, brute force, from the spec's words.

Written only from ``shared/rules/emoji.md`` (cited as §n) to serve as a test oracle for the fast
kernels. It shares nothing with them but the kind ids of §1:

* number tiles ``suit*9 + rank-1`` with suits kusa k=0, minori m=1, hoshi h=2 (kinds 0-26);
* honours cat 27, fish 28, bird 29.

A hand is a sequence of 30 counts (0..3). Definitions:

* a **set** is a triplet of one kind, or a run of three consecutive ranks of one suit; honours never
  run; with ``wrap_runs`` 8-9-1 and 9-1-2 are runs too (§2);
* a **decomposition** of 8 tiles is ``("basic", (set1, set2), pair_kind)`` (each set a sorted tuple of
  kinds, the two sets sorted) or ``("four_pairs", (k1, k2, k3, k4))`` (sorted, 4 distinct kinds) (§2, §6);
* **waits** of 7 tiles are the kinds k held at most twice whose addition makes a winning hand (§6);
* **value** = R(base * product of multipliers * dealer factor) + dora_points * n_dora (§8.1), over the
  best decomposition (§6 ``decomposition: best``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations

N_KINDS = 30
COPIES = 3
CAT, FISH, BIRD = 27, 28, 29
HONOURS = (CAT, FISH, BIRD)

# §8.3, in the source's order (most frequent first).
YAKU_KEYS = (
    "machibuse", "debana_machibuse", "all_runs", "tanyao", "tsumo", "four_pairs", "chanta",
    "last_tile", "half_flush", "full_flush", "tenhou", "honor_triplet", "all_triplets", "twin_runs",
    "sangen", "three_suit",
)
SITUATION_KEYS = ("machibuse", "debana_machibuse", "tsumo", "last_tile", "tenhou")
SHAPE_KEYS = tuple(k for k in YAKU_KEYS if k not in SITUATION_KEYS)

# §8.3 table, column "×" (machibuse and all_runs [R], the rest [X] reconstructed).
DEFAULT_MULTIPLIERS = {
    "machibuse": 2, "debana_machibuse": 3, "all_runs": 1.5, "tanyao": 1.5, "tsumo": 1.5,
    "four_pairs": 2, "chanta": 2, "last_tile": 3, "half_flush": 2, "full_flush": 3, "tenhou": 10,
    "honor_triplet": 2, "all_triplets": 2, "twin_runs": 5, "sangen": 10, "three_suit": 10,
}

# §6, §8, §13.2 defaults of the options this module reads.
DEFAULT_OPTIONS = {
    "wrap_runs": False,                 # §2
    "chanta_four_pairs": False,         # §8.3
    "half_flush_needs_number": True,    # §8.3
    "honor_triplet_per_set": False,     # §8.3
    "decomposition": "best",            # §6; alternative "basic_first"
    "supersedes": {},                   # §8.2; e.g. {"debana_machibuse": ["machibuse"]}
    "rounding": "half_up",              # §8.1; alternatives "floor", "ceil"
    "base": 100, "dealer_factor": 1.5, "dora_points": 100,   # §8.1 [R]
    "dora_includes_win_tile": True,     # §8.1
    "require_yaku": False,              # §6
}


# ---------------------------------------------------------------- tiles (§1)

def is_honour(k):
    return k >= 27


def suit(k):
    """0, 1, 2 for number tiles; None for honours (§1)."""
    return None if is_honour(k) else k // 9


def rank(k):
    """1..9 for number tiles; None for honours (§1)."""
    return None if is_honour(k) else k % 9 + 1


def tiles_of(counts):
    """The hand as a sorted list of kinds, one entry per tile."""
    return [k for k in range(N_KINDS) for _ in range(counts[k])]


# ---------------------------------------------------------------- sets (§2)

def is_triplet(kinds3):
    return len(set(kinds3)) == 1


def is_run(kinds3, wrap_runs=False):
    """§2: three consecutive ranks of one suit; honours never run; wrap 8-9-1, 9-1-2 optional."""
    if any(is_honour(k) for k in kinds3) or len({suit(k) for k in kinds3}) != 1:
        return False
    ranks = sorted(rank(k) for k in kinds3)
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[0] + 2:
        return True
    return wrap_runs and ranks in ([1, 8, 9], [1, 2, 9])


def is_set(kinds3, wrap_runs=False):
    """§2: a triplet or a run."""
    return len(kinds3) == 3 and (is_triplet(kinds3) or is_run(kinds3, wrap_runs))


@lru_cache(maxsize=None)
def _is_set_cached(kinds3, wrap_runs):
    """is_set memoised (speed only; kinds3 a tuple)."""
    return is_set(kinds3, wrap_runs)


# ---------------------------------------------------------------- shapes (§2, §6)

def decompositions(counts, wrap_runs=False):
    """§2/§6: every distinct reading of 8 tiles as 2 sets + 1 pair, or as 4 pairs of distinct kinds."""
    assert sum(counts) == 8, "a complete hand has 8 tiles"
    found = set()
    # basic shape: pick the pair, then split the 6 other tiles into two sets. The set holding the
    # smallest remaining tile takes two of the other five tiles (by position; duplicates are
    # removed by the set of results).
    for p in range(N_KINDS):
        if counts[p] < 2:
            continue
        rest = list(counts)
        rest[p] -= 2
        t = tiles_of(rest)
        for i, j in combinations(range(1, 6), 2):
            s1 = (t[0], t[i], t[j])
            if not _is_set_cached(s1, wrap_runs):
                continue
            s2 = tuple(t[x] for x in range(1, 6) if x not in (i, j))
            if _is_set_cached(s2, wrap_runs):
                sets = tuple(sorted((tuple(sorted(s1)), tuple(sorted(s2)))))
                found.add(("basic", sets, p))
    # four pairs: exactly four kinds, two tiles each (no 3-tile group)
    held = [k for k in range(N_KINDS) if counts[k] > 0]
    if len(held) == 4 and all(counts[k] == 2 for k in held):
        found.add(("four_pairs", tuple(held)))
    return sorted(found)


def is_winning(counts, wrap_runs=False):
    """§6: 8 tiles forming the basic shape or four pairs."""
    return sum(counts) == 8 and len(decompositions(counts, wrap_runs)) > 0


def waits(counts7, wrap_runs=False):
    """§6: kinds k held at most twice such that the 7 tiles + k win. Empty list = not tenpai."""
    assert sum(counts7) == 7, "a hand has 7 tiles"
    out = []
    for k in range(N_KINDS):
        if counts7[k] <= COPIES - 1:
            c8 = list(counts7)
            c8[k] += 1
            if is_winning(c8, wrap_runs):
                out.append(k)
    return out


def is_tenpai(counts7, wrap_runs=False):
    return len(waits(counts7, wrap_runs)) > 0


# ---------------------------------------------------------------- shape yaku (§8.3)

def _opt(options, name):
    return (options or {}).get(name, DEFAULT_OPTIONS[name])


def _has_terminal(kinds):
    return any(rank(k) in (1, 9) for k in kinds)


def honor_triplets(decomposition):
    """§8.3 honor_triplet: how many of the basic shape's sets are honour triplets (0 for four pairs)."""
    if decomposition[0] != "basic":
        return 0
    return sum(1 for s in decomposition[1] if is_triplet(s) and is_honour(s[0]))


def shape_yaku(decomposition, counts8, options=None):
    """§8.3: the shape yaku satisfied by this decomposition of the 8 tiles ``counts8``.

    honor_triplet is reported once whatever the number of honour triplets; ``score`` applies
    ``honor_triplet_per_set`` with :func:`honor_triplets`.
    """
    tiles = tiles_of(counts8)
    numbers = [k for k in tiles if not is_honour(k)]
    suits = {suit(k) for k in numbers}
    n_honour = len(tiles) - len(numbers)
    y = set()

    # depending on the 8 tiles only
    if n_honour == 0 and all(2 <= rank(k) <= 8 for k in tiles):
        y.add("tanyao")                                   # all 2-8 number tiles, any shape
    if n_honour == 0 and len(suits) == 1:
        y.add("full_flush")                               # 8 number tiles of one suit
    if n_honour >= 1 and len(suits) <= 1:
        if len(suits) == 1 or not _opt(options, "half_flush_needs_number"):
            y.add("half_flush")                           # one suit + >= 1 honour

    if decomposition[0] == "four_pairs":
        pairs = decomposition[1]
        y.add("four_pairs")
        if _opt(options, "chanta_four_pairs") and all(_has_terminal([k]) for k in pairs):
            y.add("chanta")                               # alternative: every pair a 1 or 9
        return y

    _, (s1, s2), pair = decomposition
    wrap = _opt(options, "wrap_runs")
    runs = [is_run(s, wrap) for s in (s1, s2)]
    trips = [is_triplet(s) for s in (s1, s2)]
    if all(runs):
        y.add("all_runs")                                 # both sets runs, any pair
    if all(_has_terminal(s) for s in (s1, s2)):
        y.add("chanta")                                   # both sets hold a 1 or 9 number tile
    if honor_triplets(decomposition) >= 1:
        y.add("honor_triplet")                            # >= 1 honour triplet
    if all(trips):
        y.add("all_triplets")                             # both sets triplets, any pair
    if all(runs) and s1 == s2:
        y.add("twin_runs")                                # the same run twice
    if all(trips) and all(is_honour(s[0]) for s in (s1, s2)) and is_honour(pair) \
            and len({s1[0], s2[0], pair}) == 3:
        y.add("sangen")                                   # two honour triplets + pair of the third
    if all(trips) and not any(is_honour(k) for k in (s1[0], s2[0], pair)) \
            and rank(s1[0]) == rank(s2[0]) == rank(pair) \
            and len({suit(s1[0]), suit(s2[0]), suit(pair)}) == 3:
        y.add("three_suit")                               # rank n triplets in 2 suits + pair in the 3rd
    return y


# ---------------------------------------------------------------- situation yaku (§8.3)

def situation_yaku(situation):
    """§8.3 "Situation flags". Keys of ``situation``:

    riichi_turn (0 = none, else the turn of the declaration; pass 0 for a riichi that is not in
    force, e.g. voided), tsumo (bool), turn (1..15), last_turn (default 15), tenhou_is_tsumo
    (default True), last_tile_scope ("whole_turn" default; "drawn_tile" also reads
    ``win_tile_drawn_last_turn``, true for any tsumo in the last turn).
    """
    riichi_turn = situation.get("riichi_turn", 0)
    tsumo = bool(situation.get("tsumo", False))
    turn = situation["turn"]
    last_turn = situation.get("last_turn", 15)
    scope = situation.get("last_tile_scope", "whole_turn")
    y = set()
    if riichi_turn >= 1:
        y.add("machibuse")                  # won after declaring riichi
    if riichi_turn == 1:
        y.add("debana_machibuse")           # riichi declared in turn 1
    if tsumo:
        y.add("tsumo")                      # won on one's own draw
    if scope == "whole_turn":
        if turn == last_turn:
            y.add("last_tile")              # won in the last turn, tsumo or ron
    elif scope == "drawn_tile":
        if turn == last_turn and (tsumo or situation.get("win_tile_drawn_last_turn", False)):
            y.add("last_tile")
    else:
        raise ValueError(f"unknown last_tile_scope {scope!r}")
    if tsumo and turn == 1:
        y.add("tenhou")                     # complete as dealt: a tsumo at turn 1
        if not situation.get("tenhou_is_tsumo", True):
            y.discard("tsumo")
    return y


# ---------------------------------------------------------------- value (§8.1, §8.2)

def round_value(x, mode="half_up"):
    """§8.1 R(x): half_up = floor(x + 0.5 + 1e-9). floor/ceil get the same 1e-9 guard (our choice)."""
    if mode == "half_up":
        return math.floor(x + 0.5 + 1e-9)
    if mode == "floor":
        return math.floor(x + 1e-9)
    if mode == "ceil":
        return math.ceil(x - 1e-9)
    raise ValueError(f"unknown rounding {mode!r}")


def yaku_multipliers(decomposition, counts8, situation, multipliers=DEFAULT_MULTIPLIERS,
                     options=None):
    """§8.2: {yaku: multiplier} of every satisfied yaku, in §8.3's order.

    A yaku whose multiplier is missing or None is off. ``supersedes`` drops implied yaku
    (default {}: literal stacking). With ``honor_triplet_per_set`` the honour-triplet entry is
    m ** (number of honour triplets).
    """
    names = shape_yaku(decomposition, counts8, options) | situation_yaku(situation)
    for y in list(names):
        for implied in _opt(options, "supersedes").get(y, ()):
            names.discard(implied)
    out = {}
    for y in YAKU_KEYS:
        if y in names and multipliers.get(y) is not None:
            m = multipliers[y]
            if y == "honor_triplet" and _opt(options, "honor_triplet_per_set"):
                m = m ** honor_triplets(decomposition)
            out[y] = m
    return out


def product(yaku):
    p = 1.0
    for m in yaku.values():
        p *= m
    return p


def score(counts8, win_kind, situation, dora_kind, dealer, multipliers=DEFAULT_MULTIPLIERS,
          options=None):
    """§8.1 value of a win, over the best decomposition (§6).

    Returns {"decomposition", "yaku": {key: multiplier}, "product", "value", "n_dora"}, or None if
    ``require_yaku`` is on and the win has no yaku (then it is no win, §6).
    ``decomposition: best``: the highest value; on a tie a basic one before four pairs, and among
    basic ones the lowest (sets, pair). ``basic_first``: only basic ones if any exist.
    """
    assert counts8[win_kind] >= 1, "the winning tile is one of the 8"
    decs = decompositions(counts8, _opt(options, "wrap_runs"))
    if not decs:
        raise ValueError("not a winning hand")
    if _opt(options, "decomposition") == "basic_first" and any(d[0] == "basic" for d in decs):
        decs = [d for d in decs if d[0] == "basic"]

    n_dora = counts8[dora_kind]
    if not _opt(options, "dora_includes_win_tile") and win_kind == dora_kind:
        n_dora -= 1
    factor = _opt(options, "dealer_factor") if dealer else 1

    results = []
    for d in decs:
        yk = yaku_multipliers(d, counts8, situation, multipliers, options)
        p = product(yk)
        v = round_value(_opt(options, "base") * p * factor, _opt(options, "rounding")) \
            + _opt(options, "dora_points") * n_dora
        results.append({"decomposition": d, "yaku": yk, "product": p, "value": v,
                        "n_dora": n_dora})
    best_value = max(r["value"] for r in results)
    tied = [r for r in results if r["value"] == best_value]
    # tie: basic first ("basic" < "four_pairs"), then the lowest sets and pair
    best = min(tied, key=lambda r: r["decomposition"])
    if _opt(options, "require_yaku") and not best["yaku"]:
        return None
    return best
