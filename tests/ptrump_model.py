"""Independent pure-Python model of P-style trump mahjong hands and scoring (tests only).

Written from the specification (/work/shared/rules/ptrump.md, sections 1, 2, 5 and 8) alone, without
reading the production code, so that the two implementations can be compared.  Clarity over speed:
shapes are found by plain recursion, shanten by comparing against every complete hand.

Ranks are indices 0..13: 0 = A (1), 1..8 = 2..9, 9 = 10 (``T``), 10 = J, 11 = Q, 12 = K, 13 = joker
(``X``).  Runs use indices 0..8 only, without wrap.

Public functions:

- ``parse(text)``                    -> ``Win`` (own small parser of the spec's notation)
- ``is_complete(counts, k, **shape)`` -> bool (counts: 14 rank counts incl. the win card)
- ``waits(counts, k, **shape)``       -> set of ranks completing a (7 - 3k)-card hand
- ``shanten(counts, k, **shape)``     -> distance to tenpai (0 = tenpai, -1 = complete)
- ``score(text, **options)``          -> {total, raw, items, has_yaku, yakuman, legal, reading}

What this model simplifies: no engine state; the context words of the notation are taken at their
word (``first`` means the first own draw/discard window, ``nagashi`` that the discards qualify).
"""

from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

RANK_CHARS = "A23456789TJQKX"
JOKER = 13
TEN, JACK, QUEEN, KING = 9, 10, 11, 12
SUITS = "shdc"
RED_SUITS = "hd"
N_RANKS = 14
TERMINALS = (0, 8)
HONOURS = (TEN, JACK, QUEEN, KING, JOKER)
KOKUSHI_RANKS = (0, 8, TEN, JACK, QUEEN, KING, JOKER)
PAAREN_RANKS = (tuple(range(0, 8)), tuple(range(1, 9)))


def copies(rank):
    return 2 if rank == JOKER else 4


# ----------------------------------------------------------------------------------------- options

DEFAULTS = dict(
    one_colour="suit",  # suit | red_black | numbers | off
    koutsu_counts_kans=True,
    yaochu_honours=True,
    open_kan_breaks_menzen=True,
    sutoitsu_same_pairs=True,
    additive_are_yaku=True,
    best_decomposition=True,
    negative_win="floor_zero",  # floor_zero | literal | forbidden
    ryankantsu_stacks=True,
    chanta_needs_terminal=True,
    chanta_on_pairs=False,
    yakuhai_per_set=True,
    rinshan_on_nukidora=False,
    renhou=True,
    nagashi="at_win",  # at_win | at_draw | off
    haitei_on_replacement=True,
    first_draw_excludes_replacement=True,
    dora_value=1,
    ura_joker="riichi_only",  # riichi_only | any_win
    pon_penalty="win_only",  # win_only | always
    kakan_keeps_pon_penalty=True,
    yakuman_exclusive=True,
    paaren_one_colour=True,
    kokushi=True,
    kokushi_double=True,
    double_riichi_stacks=False,
    open_riichi=False,
    nuki_in_content_checks=False,
    beginner=False,
    yaku_required=None,  # None: not beginner
    # shape switches (H-hand's hand_rules_array has them too)
    sutoitsu=True,
    paaren=True,
)

SHAPE_KEYS = ("sutoitsu_same_pairs", "sutoitsu", "paaren", "kokushi")


def options(**kw):
    unknown = set(kw) - set(DEFAULTS)
    if unknown:
        raise TypeError(f"unknown option(s): {sorted(unknown)}")
    o = dict(DEFAULTS)
    o.update(kw)
    if o["yaku_required"] is None:
        o["yaku_required"] = not o["beginner"]
    return o


# ------------------------------------------------------------------------------------------ shapes


def regular_readings(counts, n_sets):
    """Every way to split ``counts`` into one head and ``n_sets`` sets.

    Yields (head_rank, sets) with sets a sorted tuple of ("t", rank) triplets / ("r", low) runs.
    """
    counts = list(counts)
    found = []
    for head in range(N_RANKS):
        if counts[head] >= 2:
            counts[head] -= 2
            for sets in _sets(counts, n_sets):
                found.append((head, tuple(sorted(sets))))
            counts[head] += 2
    return found


def _sets(counts, n):
    if n == 0:
        if not any(counts):
            yield []
        return
    lowest = next((r for r in range(N_RANKS) if counts[r]), None)
    if lowest is None:
        return
    r = lowest
    if counts[r] >= 3 and r != JOKER:  # a triplet of the lowest card (jokers: only a head or nuki)
        counts[r] -= 3
        for rest in _sets(counts, n - 1):
            yield [("t", r)] + rest
        counts[r] += 3
    if r <= 6 and counts[r + 1] and counts[r + 2]:  # a run starting at it
        for x in (r, r + 1, r + 2):
            counts[x] -= 1
        for rest in _sets(counts, n - 1):
            yield [("r", r)] + rest
        for x in (r, r + 1, r + 2):
            counts[x] += 1


def is_sutoitsu(counts, same_pairs=True):
    if sum(counts) != 8:
        return False
    allowed = (0, 2, 4) if same_pairs else (0, 2)
    return all(c in allowed for c in counts)


def is_paaren(counts):
    return any(all(counts[r] == (1 if r in span else 0) for r in range(N_RANKS)) for span in PAAREN_RANKS)


def is_kokushi(counts):
    return (
        sum(counts) == 8
        and all(counts[r] >= 1 for r in KOKUSHI_RANKS)
        and all(counts[r] == 0 for r in range(N_RANKS) if r not in KOKUSHI_RANKS)
    )


def is_chinroutou(counts):
    return counts[0] == 4 and counts[8] == 4 and sum(counts) == 8


def special_shapes(counts, k, sutoitsu_same_pairs=True, sutoitsu=True, paaren=True, kokushi=True):
    """Names of the menzen-only special shapes ``counts`` (8 cards, k == 0) forms."""
    if k != 0 or sum(counts) != 8:
        return []
    out = []
    if sutoitsu and is_sutoitsu(counts, sutoitsu_same_pairs):
        out.append("sutoitsu")
    if paaren and is_paaren(counts):
        out.append("paaren")
    if kokushi and is_kokushi(counts):
        out.append("kokushi")
    if is_chinroutou(counts):
        out.append("chinroutou")
    return out


def is_complete(counts, k, **shape):
    counts = list(counts)
    if sum(counts) != 8 - 3 * k:
        return False
    if regular_readings(counts, 2 - k):
        return True
    return bool(special_shapes(counts, k, **shape))


def waits(counts, k, **shape):
    """Ranks r such that the (7 - 3k)-card hand plus one r is complete (shape only)."""
    out = set()
    for r in range(N_RANKS):
        c = list(counts)
        c[r] += 1
        if is_complete(c, k, **shape):
            out.add(r)
    return out


@lru_cache(maxsize=None)
def complete_hands(k, sutoitsu_same_pairs=True, sutoitsu=True, paaren=True, kokushi=True):
    """Every physically possible complete (8 - 3k)-card rank multiset, as count tuples."""
    n = 8 - 3 * k
    units = [("t", r) for r in range(JOKER)] + [("r", r) for r in range(7)]
    found = set()
    for head in range(N_RANKS):
        for sets in combinations_with_replacement(units, 2 - k):
            c = [0] * N_RANKS
            c[head] += 2
            for kind, r in sets:
                if kind == "t":
                    c[r] += 3
                else:
                    for x in (r, r + 1, r + 2):
                        c[x] += 1
            if all(c[r] <= copies(r) for r in range(N_RANKS)):
                found.add(tuple(c))
    if k == 0:
        # special shapes: enumerate candidates directly
        pair_ranks = range(N_RANKS)
        for combo in combinations_with_replacement(pair_ranks, 4):
            c = [0] * N_RANKS
            for r in combo:
                c[r] += 2
            if all(c[r] <= copies(r) for r in range(N_RANKS)) and special_shapes(
                c, 0, sutoitsu_same_pairs, sutoitsu, paaren, kokushi
            ):
                found.add(tuple(c))
        for span in PAAREN_RANKS:
            c = [1 if r in span else 0 for r in range(N_RANKS)]
            if special_shapes(c, 0, sutoitsu_same_pairs, sutoitsu, paaren, kokushi):
                found.add(tuple(c))
        for extra in KOKUSHI_RANKS:
            c = [1 if r in KOKUSHI_RANKS else 0 for r in range(N_RANKS)]
            c[extra] += 1
            if special_shapes(c, 0, sutoitsu_same_pairs, sutoitsu, paaren, kokushi):
                found.add(tuple(c))
        c = [0] * N_RANKS
        c[0] = c[8] = 4
        found.add(tuple(c))
    found = [c for c in found if sum(c) == n]
    return tuple(found)


def shanten(counts, k, **shape):
    """Distance to tenpai, counting only physically possible complete hands (<= 4 copies, 2 jokers).

    For a (7 - 3k)-card hand: 0 = tenpai, 1 = one exchange away, ...  For an (8 - 3k)-card hand: -1
    when complete, else the best value after one discard.
    """
    counts = tuple(counts)
    n = sum(counts)
    full = 8 - 3 * k
    if n not in (full, full - 1):
        raise ValueError(f"{n} cards with {k} revealed sets")
    key = tuple(shape.get(s, True) for s in SHAPE_KEYS)
    targets = _target_matrix(k, key)
    overlap = np.minimum(targets, np.array(counts)).sum(axis=1).max()  # most cards kept
    missing = full - int(overlap)  # cards still to draw (as many to discard)
    if n == full and missing == 0:
        return -1
    return missing - 1


@lru_cache(maxsize=None)
def _target_matrix(k, key):
    return np.array(complete_hands(k, *key), dtype=np.int64)


# ------------------------------------------------------------------------------------------ parser


class Card:
    __slots__ = ("rank", "suit")

    def __init__(self, rank, suit=None):
        self.rank = rank
        self.suit = suit

    def __repr__(self):
        return RANK_CHARS[self.rank] + (self.suit or "")


class Win:
    """A parsed winning hand: concealed cards, revealed sets, nuki jokers, win card, context."""

    def __init__(self):
        self.concealed = []  # Card
        self.revealed = []  # (kind, [Card]) kind in pon, kan, kakan, ankan
        self.nuki = []  # Card (jokers)
        self.win = None  # Card
        self.flags = set()
        self.dora = None  # indicator Card
        self.ura = None  # indicator Card


CONTEXT = {"tsumo", "ron", "riichi", "wriichi", "ippatsu", "rinshan", "last", "first", "nagashi", "dealer"}
REVEALED = {"pon": 3, "kan": 4, "kakan": 4, "ankan": 4}


def _cards(token, text):
    """Cards of a group like ``234s``, ``5h5d``, ``TTT``, ``XX`` (``A`` = 1)."""
    out = []
    pending = []
    for ch in text:
        if ch in RANK_CHARS or ch == "1":
            pending.append(Card(0 if ch == "1" else RANK_CHARS.index(ch)))
        elif ch in SUITS:
            if not pending:
                raise ValueError(f"suit without rank in {token!r}")
            for c in pending:
                if c.rank != JOKER:  # jokers have no suit
                    c.suit = ch
            out.extend(pending)
            pending = []
        else:
            raise ValueError(f"unknown character {ch!r} in {token!r}")
    out.extend(pending)
    if not out:
        raise ValueError(f"empty group {token!r}")
    return out


def parse(text):
    w = Win()
    for token in text.split():
        low = token.lower()
        if low in CONTEXT:
            w.flags.add(low)
        elif token.startswith("+"):
            cards = _cards(token, token[1:])
            if len(cards) != 1 or w.win is not None:
                raise ValueError(f"bad win card {token!r}")
            w.win = cards[0]
        elif ":" in token:
            head, _, body = token.partition(":")
            head = head.lower()
            cards = _cards(token, body)
            if head in REVEALED:
                ranks = {c.rank for c in cards}
                if len(cards) != REVEALED[head] or len(ranks) != 1 or JOKER in ranks:
                    raise ValueError(f"malformed {head} {token!r}")
                w.revealed.append((head, cards))
            elif head == "nuki":
                if any(c.rank != JOKER for c in cards):
                    raise ValueError(f"nuki of a non-joker {token!r}")
                w.nuki.extend(cards)
            elif head in ("dora", "ura"):
                if len(cards) != 1:
                    raise ValueError(f"bad indicator {token!r}")
                setattr(w, head, cards[0])
            else:
                raise ValueError(f"unknown token {token!r}")
        else:
            w.concealed.extend(_cards(token, token))
    if w.win is None:
        raise ValueError("no winning card (+x)")
    k = len(w.revealed)
    if len(w.concealed) != 7 - 3 * k:
        raise ValueError(f"concealed count {len(w.concealed)} with {k} revealed sets")
    every = w.concealed + [w.win] + [c for _, cs in w.revealed for c in cs] + w.nuki
    every += [c for c in (w.dora, w.ura) if c is not None]
    for r in range(N_RANKS):
        mine = [c for c in every if c.rank == r]
        if len(mine) > copies(r):
            raise ValueError(f"too many copies of {RANK_CHARS[r]}")
        suits = [c.suit for c in mine if c.suit]
        if len(suits) != len(set(suits)):
            raise ValueError(f"duplicate suited card of {RANK_CHARS[r]}")
    return w


# ----------------------------------------------------------------------------------------- scoring


def next_rank(r):
    """Dora from its indicator: 1 -> 2 ... 9 -> 10 -> J -> Q -> K -> 1; a joker indicator: none."""
    if r == JOKER:
        return None
    return 0 if r == KING else r + 1


def one_colour(cards, mode):
    """Are the (non-nuki) ``cards`` one colour under the ``one_colour`` mode (jokers never break it)?"""
    real = [c for c in cards if c.rank != JOKER]
    if mode == "off":
        return False
    if mode == "numbers":            # every card a number 1-9: a joker breaks it (spec §1)
        return all(c.rank <= 8 for c in cards)
    if any(c.suit is None for c in real):
        return False
    if mode == "suit":
        return len({c.suit for c in real}) <= 1
    if mode == "red_black":
        return len({c.suit in RED_SUITS for c in real}) <= 1
    raise ValueError(f"one_colour {mode!r}")


def _run_wait_two_sided(low, win_rank):
    """Does completing run (low, low+1, low+2) with ``win_rank`` make a two-sided wait?"""
    if win_rank == low:
        return low + 3 <= 8  # waited (low+1, low+2): also low+3 must exist
    if win_rank == low + 2:
        return low >= 1  # waited (low, low+1): also low-1 must exist
    return False  # middle: closed wait


def score(text, **kw):
    o = options(**kw)
    w = parse(text)
    flags = w.flags
    tsumo = "tsumo" in flags or "rinshan" in flags
    riichi = "riichi" in flags or "wriichi" in flags
    k = len(w.revealed)
    kinds = [kind for kind, _ in w.revealed]
    n_pons = kinds.count("pon")
    n_kakan = kinds.count("kakan")
    n_kans = sum(kind in ("kan", "kakan", "ankan") for kind in kinds)
    menzen = n_pons == 0 and n_kakan == 0 and not (o["open_kan_breaks_menzen"] and "kan" in kinds)

    hand = w.concealed + [w.win]
    revealed_cards = [c for _, cs in w.revealed for c in cs]
    seen = hand + revealed_cards  # content tests: never the nuki jokers
    # ... unless nuki_in_content_checks: then tanyao and jqk see them too (jokers break both)
    content = seen + (w.nuki if o["nuki_in_content_checks"] else [])
    counts = [0] * N_RANKS
    for c in hand:
        counts[c.rank] += 1
    yaochu = TERMINALS + HONOURS if o["yaochu_honours"] else TERMINALS
    is_yaochu = yaochu.__contains__
    colour = one_colour(seen, o["one_colour"])

    # ----- items not depending on the reading
    common = {}
    common_yaku = set()

    def add(key, pts, yaku):
        if pts:
            common[key] = common.get(key, 0) + pts
            if yaku:
                common_yaku.add(key)

    if menzen and tsumo:
        add("tsumo", 1, True)
    if all(1 <= c.rank <= 7 for c in content):
        add("tanyao", 1, True)
    if n_kans >= 2:
        add("ryankantsu", 1, True)
    if "rinshan" in flags:
        from_kan = n_kans > 0
        from_nuki = not from_kan and len(w.nuki) > 0
        if from_kan or (from_nuki and o["rinshan_on_nukidora"]):
            add("rinshan", 1, True)
    ay = o["additive_are_yaku"]
    if "wriichi" in flags:
        if o["double_riichi_stacks"]:
            add("riichi", 1, ay)
        add("double_riichi", 2, ay)
    elif "riichi" in flags:
        if o["open_riichi"]:  # the model's riichi is open whenever open riichi is allowed
            add("open_riichi", 2, ay)  # "worth 2 replacing 1"
        else:
            add("riichi", 1, ay)
    if "ippatsu" in flags and riichi:
        add("ippatsu", 1, ay)
    if one_colour(content, o["one_colour"]):   # seen nuki jokers break `numbers` only
        add("chinitsu", 1, ay)
    if "first" in flags and not tsumo and o["renhou"] and k == 0:
        add("renhou", 1, ay)
    if all(c.rank in (JACK, QUEEN, KING) for c in content):
        add("jqk", 1, ay)
    if "nagashi" in flags and o["nagashi"] == "at_win":
        add("nagashi", 1, False)
    if "last" in flags:
        if tsumo:
            if "rinshan" not in flags or o["haitei_on_replacement"]:
                add("haitei", 1, ay)
        else:
            add("houtei", 1, ay)
    first_draw = "first" in flags and tsumo and k == 0
    if first_draw and "rinshan" in flags and o["first_draw_excludes_replacement"]:
        first_draw = False
    if first_draw:
        add("tenhou" if "dealer" in flags else "chiihou", 8, ay)
    if w.dora is not None:
        d = next_rank(w.dora.rank)
        add("dora", o["dora_value"] * sum(c.rank == d for c in seen), False)
    if w.ura is not None:
        if w.ura.rank == JOKER:
            if riichi or o["ura_joker"] == "any_win":
                add("ura_joker", 1, False)
        elif riichi:
            u = next_rank(w.ura.rank)
            add("ura", o["dora_value"] * sum(c.rank == u for c in seen), False)
    add("nukidora", len(w.nuki), False)
    if o["pon_penalty"] == "win_only":
        pons = n_pons + (n_kakan if o["kakan_keeps_pon_penalty"] else 0)
        add("pon", -pons, False)

    # ----- readings
    readings = []  # (name, items dict, yaku set, yakuman points)
    revealed_sets = [("t", cs[0].rank, kind) for kind, cs in w.revealed]
    for head, sets in regular_readings(counts, 2 - k):
        # where the win card sits: the head, or any concealed set holding its rank
        places = []
        if head == w.win.rank:
            places.append(("head", None))
        for i, (kind, r) in enumerate(sets):
            span = (r,) if kind == "t" else (r, r + 1, r + 2)
            if w.win.rank in span:
                places.append(("set", i))
        for place in dict.fromkeys(places):
            items, yaku = {}, set()
            runs = [r for kind, r in sets if kind == "r"]
            if k == 0 and len(runs) == 2 and head not in (JACK, QUEEN, KING) and place[0] == "set":
                kind, r = sets[place[1]]
                if kind == "r" and _run_wait_two_sided(r, w.win.rank):
                    items["pinfu"] = 1
            if menzen and len(runs) == 2 and runs[0] == runs[1]:
                items["iipeikou"] = 1
            triplets = [r for kind, r in sets if kind == "t"]
            trip_all = triplets + [r for _, r, kind in revealed_sets]
            n_trip = len(triplets) + sum(
                1 for _, r, kind in revealed_sets if kind == "pon" or o["koutsu_counts_kans"]
            )
            if n_trip >= 2 and not (n_kans >= 2 and not o["ryankantsu_stacks"]):
                items["ryankoutsu"] = 1
            honour_sets = [r for r in trip_all if r in (TEN, JACK, QUEEN, KING)]
            if honour_sets:
                items["yakuhai"] = len(honour_sets) if o["yakuhai_per_set"] else 1
            groups = [(head,)] + [
                (r,) if kind == "t" else (r, r + 1, r + 2) for kind, r in sets
            ] + [(r,) for _, r, _ in revealed_sets]
            if _chanta(groups, seen, is_yaochu, o):
                items["chanta"] = 1
            yaku.update(items)
            readings.append((("regular", head, sets, place), items, yaku, 0))
    if k == 0:
        for shape in special_shapes(counts, 0, *(o[key] for key in SHAPE_KEYS)):
            items = {}
            if shape == "sutoitsu":
                items["sutoitsu"] = 1
                pairs = [(r,) for r in range(N_RANKS) for _ in range(counts[r] // 2)]
                if o["chanta_on_pairs"] and _chanta(pairs, seen, is_yaochu, o):
                    items["chanta"] = 1
                readings.append((("sutoitsu",), items, set(items), 0))
            elif shape == "paaren":
                if not o["paaren_one_colour"] or o["one_colour"] in ("off", "numbers") or colour:
                    readings.append((("paaren",), {"paaren": 13}, {"paaren"}, 13))
            elif shape == "kokushi":
                real = [c for c in hand if c.rank != JOKER]
                double = (
                    o["kokushi_double"]
                    and counts[JOKER] == 2
                    and o["one_colour"] in ("suit", "red_black")
                    and one_colour(real, o["one_colour"])
                )
                if double:
                    readings.append((("kokushi_double",), {"kokushi_double": 26}, {"kokushi_double"}, 26))
                else:
                    readings.append((("kokushi",), {"kokushi": 13}, {"kokushi"}, 13))
            elif shape == "chinroutou":
                readings.append((("chinroutou",), {"chinroutou": 13}, {"chinroutou"}, 13))
    if not readings:
        # e.g. 12345678 of several colours under paaren_one_colour: no winning shape at all
        return dict(total=0, raw=0, items={}, has_yaku=False, yakuman=0, legal=False, reading=None,
                    complete=False)

    results = []
    for reading, items, yaku, yakuman in readings:
        if yakuman and o["yakuman_exclusive"]:
            total_items = dict(items)
        else:
            total_items = dict(common)
            for key, v in items.items():
                total_items[key] = total_items.get(key, 0) + v
        has_yaku = bool(yaku) or bool(common_yaku)
        raw = sum(total_items.values())
        results.append(dict(raw=raw, items=total_items, has_yaku=has_yaku, yakuman=yakuman, reading=reading,
                            complete=True))
    # 高点法: the highest value; a reading with a yaku before one without at the same value
    best = max(results, key=lambda r: (r["raw"], r["has_yaku"]))
    raw = best["raw"]
    total = max(raw, 0) if o["negative_win"] == "floor_zero" else raw
    forbidden = o["negative_win"] == "forbidden" and raw < 0
    legal = (best["has_yaku"] or not o["yaku_required"]) and not forbidden
    best.update(total=total, legal=legal)
    return best


def _chanta(groups, seen, is_yaochu, o):
    if not all(any(is_yaochu(r) for r in g) for g in groups):
        return False
    if o["chanta_needs_terminal"] and not any(c.rank in TERMINALS for c in seen):
        return False
    return True
