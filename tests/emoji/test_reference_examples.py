"""The pure-Python emoji reference (simcore.emoji.reference) against every concrete fact of the spec.

Facts are quoted from shared/rules/emoji.md by section. The whole-population facts (counts of
winning and tenpai hands, frequencies, calibration) use an enumeration of the winning hands built
here from sets and pairs, independently of the reference's decomposition search, and cross-checked
against ``is_winning``.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import pytest

from simcore.emoji import reference as R


# ---------------------------------------------------------------- helpers

SUIT_LETTERS = {"k": 0, "m": 1, "h": 2}


def parse(text):
    """Compact notation (§1): digits then a suit letter k/m/h/z; spaces ignored. -> 30 counts."""
    counts = [0] * R.N_KINDS
    digits = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits += ch
            continue
        assert digits, f"letter {ch!r} without ranks"
        for d in digits:
            r = int(d)
            if ch == "z":
                assert 1 <= r <= 3, f"bad honour {d}z"
                counts[27 + r - 1] += 1
            else:
                assert 1 <= r <= 9, f"bad rank {d}{ch}"
                counts[SUIT_LETTERS[ch] * 9 + r - 1] += 1
        digits = ""
    assert not digits, "ranks without a suit letter"
    assert max(counts) <= 3 + 1  # a 4th copy only for the "4th copy" probes
    return tuple(counts)


def kind(text):
    c = parse(text)
    assert sum(c) == 1
    return c.index(1)


def plus(counts, k, n=1):
    c = list(counts)
    c[k] += n
    return tuple(c)


def all_sets(wrap):
    """Every set as a sorted kind tuple, written out directly from §2 (not via is_set)."""
    out = [(k, k, k) for k in range(30)]
    for s in range(3):
        out += [(9 * s + r, 9 * s + r + 1, 9 * s + r + 2) for r in range(7)]
        if wrap:
            out += [(9 * s, 9 * s + 7, 9 * s + 8), (9 * s, 9 * s + 1, 9 * s + 8)]  # 891, 912
    return out


@lru_cache(maxsize=None)
def enumerate_winning(wrap=False, cap=3):
    """(basic hands, four-pairs hands) as sets of count tuples, built from pair + 2 sets / 4 pairs."""
    basic = set()
    for p in range(30):
        for a, b in combinations_with_replacement(all_sets(wrap), 2):
            c = [0] * 30
            c[p] += 2
            for k in a + b:
                c[k] += 1
            if max(c) <= cap:
                basic.add(tuple(c))
    four = set()
    for ks in combinations(range(30), 4):
        c = [0] * 30
        for k in ks:
            c[k] = 2
        four.add(tuple(c))
    return frozenset(basic), frozenset(four)


@lru_cache(maxsize=None)
def winning():
    b, f = enumerate_winning()
    return tuple(sorted(b | f))


@lru_cache(maxsize=None)
def decs_of_winning():
    return {h: R.decompositions(h) for h in winning()}


@lru_cache(maxsize=None)
def wait_map():
    """7-tile tenpai hand -> its waits, by removing one tile from each winning hand (§6)."""
    m = {}
    for h in winning():
        for k in range(30):
            if h[k]:
                m.setdefault(plus(h, k, -1), set()).add(k)
    return m


def draw(rng, n):
    """n tiles drawn uniformly from the 90-tile wall, as counts."""
    c = [0] * 30
    for k in rng.sample([k for k in range(30) for _ in range(3)], n):
        c[k] += 1
    return tuple(c)


def weight(h):
    """§8.4: a multiset's number of physical 8-tile draws, prod C(3, c_i)."""
    return math.prod(math.comb(3, c) for c in h)


NEUTRAL = {"riichi_turn": 0, "tsumo": False, "turn": 5}   # no situation yaku


@lru_cache(maxsize=None)
def neutral_scores():
    """score() of every winning hand with no situation yaku, non-dealer, dora bird."""
    return {h: R.score(h, next(k for k in range(30) if h[k]), NEUTRAL, 29, False)
            for h in winning()}


@lru_cache(maxsize=None)
def best_yaku_weights():
    """Weighted frequency of each shape yaku under the decomposition ``score`` picks."""
    freq, total, none = {}, 0, 0
    for h, r in neutral_scores().items():
        ys = r["yaku"]
        w = weight(h)
        total += w
        none += w if not ys else 0
        for y in ys:
            freq[y] = freq.get(y, 0) + w
    return freq, total, none


def shape_patterns(options=None):
    """Group the winning hands by (shape-yaku readings, holds a triplet): few distinct patterns."""
    pats = {}
    for h, ds in decs_of_winning().items():
        readings = tuple(sorted((tuple(sorted(R.shape_yaku(d, h, options))), R.honor_triplets(d))
                                for d in ds))
        key = (readings, max(h) == 3)
        pats[key] = pats.get(key, 0) + 1
    return pats


@lru_cache(maxsize=None)
def default_patterns():
    return shape_patterns()


def pattern_b(readings, mult, options=None):
    """B(h) of §8.4: the best shape product over the readings of a pattern."""
    per_set = (options or {}).get("honor_triplet_per_set", False)
    best = 0
    for ys, n_ht in readings:
        p = 1.0
        for y in ys:
            if mult.get(y) is not None:
                p *= mult[y] ** n_ht if (y == "honor_triplet" and per_set) else mult[y]
        best = max(best, p)
    return best


def feasible_situations():
    """All situation-yaku sets reachable by the rules of §4 and §7: a riichi declared in turn r is in
    force for that turn's ron check, a tsumo comes before the turn's discards."""
    out = set()
    for turn in range(1, 16):
        for tsumo in (False, True):
            for rt in range(turn + 1):
                if tsumo and rt >= turn:
                    continue
                out.add(frozenset(R.situation_yaku({"riichi_turn": rt, "tsumo": tsumo,
                                                    "turn": turn})))
    return out


def calibration_passes(mult, options=None):
    """§8.4 validation (a), (b), (c) for a table."""
    prod_of = lambda ys: math.prod(mult[y] for y in ys if mult.get(y) is not None)
    s_star = max(prod_of(s) for s in feasible_situations())
    pats = default_patterns() if not options else shape_patterns(options)
    bs = [(pattern_b(r, mult, options), trip) for (r, trip) in pats]
    a = abs(max(b for b, _ in bs) * s_star - 1215) < 1e-6
    b_ok = abs(prod_of(["machibuse", "debana_machibuse", "tsumo", "last_tile"]) - s_star) < 1e-9
    c = all(R.round_value(150 * b * s_star) + 300 <= 182450 for b, trip in bs if trip)
    return a and b_ok and c


# ---------------------------------------------------------------- §1, §2: tiles and sets

def test_kind_ids_and_notation():
    assert R.N_KINDS == 30 and R.COPIES == 3
    assert kind("1k") == 0 and kind("9k") == 8 and kind("1m") == 9 and kind("9h") == 26
    assert (kind("1z"), kind("2z"), kind("3z")) == (27, 28, 29)     # cat, fish, bird
    assert sum(parse("234k 55m 111z")) == 8


def test_is_set_examples():
    assert R.is_set(parse_kinds("123k")) and R.is_set(parse_kinds("789h"))
    assert R.is_set(parse_kinds("555m")) and R.is_set(parse_kinds("111z"))
    assert not R.is_set(parse_kinds("123z"))            # honours form no runs
    assert not R.is_set(parse_kinds("1k2m3h"))          # runs are one suit
    assert not R.is_set(parse_kinds("124k"))
    assert not R.is_set(parse_kinds("891k")) and not R.is_set(parse_kinds("912k"))
    assert R.is_set(parse_kinds("891k"), wrap_runs=True) and R.is_set(parse_kinds("912k"), True)
    assert not R.is_set(parse_kinds("89k 1m"), True)    # no wrap across suits


def parse_kinds(text):
    return tuple(R.tiles_of(parse(text)))


@pytest.mark.parametrize("wrap", [False, True])
def test_is_set_matches_the_written_out_list(wrap):
    # every multiset of 3 kinds: is_set iff it is one of the 51 (57 with wrap) sets of §2
    expected = set(all_sets(wrap))
    got = {t for t in combinations_with_replacement(range(30), 3) if R.is_set(t, wrap)}
    assert got == expected
    assert len(expected) == (30 + 21 + (6 if wrap else 0))


# ---------------------------------------------------------------- §2, §6: shapes

def test_decomposition_examples():
    two_basic = R.decompositions(parse("11123444k"))
    assert two_basic == [("basic", ((0, 0, 0), (1, 2, 3)), 3), ("basic", ((0, 1, 2), (3, 3, 3)), 0)]
    assert R.decompositions(parse("112233k 99k")) == [
        ("basic", ((0, 1, 2), (0, 1, 2)), 8), ("four_pairs", (0, 1, 2, 8))]
    three = R.decompositions(parse("11223344k"))          # 2 basic + 1 four pairs (§6, §12)
    assert [d[0] for d in three] == ["basic", "basic", "four_pairs"]
    assert R.decompositions(parse("11z 22z 33z 99k")) == [("four_pairs", (8, 27, 28, 29))]
    assert R.decompositions(parse("1223334k 5k")) == []
    assert not R.is_winning(parse("11z 22z 33z 9k 1k"))


def test_enumeration_counts():
    # §12: "The 62,259 winning keys (71,148 with wrap_runs)" ... "35,403 basic, 27,405 four pairs,
    # 549 both"
    b, f = enumerate_winning()
    assert (len(b), len(f), len(b & f), len(b | f)) == (35403, 27405, 549, 62259)
    bw, fw = enumerate_winning(wrap=True)
    assert len(bw | fw) == 71148


def test_is_winning_agrees_with_enumeration_on_one_suit_exhaustively():
    win = set(winning())
    n = 0
    for c9 in product(range(4), repeat=9):
        if sum(c9) != 8:
            continue
        for s in range(3):
            h = [0] * 30
            h[9 * s: 9 * s + 9] = c9
            h = tuple(h)
            assert R.is_winning(h) == (h in win), R.tiles_of(h)
            n += 1
    assert n > 0


def test_is_winning_agrees_with_enumeration_on_samples():
    rng = random.Random(20240604)
    win = set(winning())
    hands = [draw(rng, 8) for _ in range(3000)]   # random draws of 8 of the 90 tiles
    ws = list(win)
    for _ in range(3000):                      # near misses: a winning hand with one tile changed
        h = list(rng.choice(ws))
        out = rng.choice([k for k in range(30) if h[k]])
        inn = rng.choice([k for k in range(30) if h[k] < 3 and k != out])
        h[out] -= 1
        h[inn] += 1
        hands.append(tuple(h))
    for h in rng.sample(ws, 3000):
        hands.append(h)
    for h in hands:
        assert R.is_winning(h) == (h in win), R.tiles_of(h)
    for h in rng.sample(sorted(enumerate_winning(wrap=True)[0] | enumerate_winning(wrap=True)[1]),
                        2000):
        assert R.is_winning(h, wrap_runs=True)


def test_every_enumerated_hand_decomposes_and_max_decomp_is_3():
    # §6 "at most 3: 2 basic + 1 four pairs"; §12 MAX_DECOMP 3
    decs = decs_of_winning()
    assert all(decs.values())
    assert max(len(d) for d in decs.values()) == 3
    assert max(sum(x[0] == "basic" for x in d) for d in decs.values()) == 2
    assert max(sum(x[0] == "four_pairs" for x in d) for d in decs.values()) == 1
    for ds in decs.values():
        assert len(set(ds)) == len(ds)


def test_max_decomp_one_suit_exhaustive():
    worst = 0
    for c9 in product(range(4), repeat=9):
        if sum(c9) == 8:
            worst = max(worst, len(R.decompositions(c9 + (0,) * 21)))
    assert worst == 3


# ---------------------------------------------------------------- §6: tenpai and waits

FOURTH_COPY = ["1223334k", "1223334m", "1223334h", "6777889k", "6777889m", "6777889h"]


@pytest.mark.parametrize("hand", FOURTH_COPY)
def test_fourth_copy_hands_are_not_tenpai(hand):
    # §6 "Six hands complete only with a 4th copy (1223334 and 6777889, in each suit). They are not
    # tenpai."
    h = parse(hand)
    assert R.waits(h) == []
    triple = h.index(3)
    assert R.is_winning(plus(h, triple))       # the 4th copy would complete the shape


def test_exactly_six_hands_need_a_fourth_copy():
    b4, _ = enumerate_winning(cap=4)
    tenpai = wait_map()
    found = set()
    for h in b4:
        if max(h) == 4:
            h7 = plus(h, h.index(4), -1)
            if h7 not in tenpai:
                found.add(h7)
    assert found == {parse(x) for x in FOURTH_COPY}


def test_3334567m_waits_on_five_kinds():
    # §12 MAX_WAITS: "5 kinds (measured; e.g. 3334567m waits on 2, 4, 5, 7, 8)"
    assert R.waits(parse("3334567m")) == [kind(f"{r}m") for r in (2, 4, 5, 7, 8)]


def test_tenpai_population_and_max_waits():
    # §12 "There are 217,566 tenpai 7-multisets, out of 8,198,880."; MAX_WAITS 5
    m = wait_map()
    assert len(m) == 217566
    poly = [1]
    for _ in range(30):                        # (1 + x + x^2 + x^3)^30
        new = [0] * (len(poly) + 3)
        for i, c in enumerate(poly):
            for j in range(4):
                new[i + j] += c
        poly = new
    assert poly[7] == 8198880
    assert max(len(v) for v in m.values()) == 5
    five = [h for h, v in m.items() if len(v) == 5]
    for h in five:
        assert R.waits(h) == sorted(m[h])


def test_waits_agree_with_the_wait_map_on_samples():
    rng = random.Random(7)
    m = wait_map()
    hands = rng.sample(sorted(m), 1500) + [draw(rng, 7) for _ in range(1500)]
    for h in hands:
        assert R.waits(h) == sorted(m.get(h, ()))


# ---------------------------------------------------------------- §8.3: yaku

@pytest.mark.parametrize("hand, expected", [
    ("234k 567m 88h", {"all_runs", "tanyao"}),
    ("789k 99k 111z", {"half_flush", "honor_triplet"}),          # §15.2: no chanta from 111z
    ("123k 999m 11z", {"chanta"}),
    ("111k 999k 55m", {"chanta", "all_triplets"}),
    ("345k 345k 11z", {"all_runs", "twin_runs", "half_flush"}),   # (+ a four-pairs reading)
    ("111z 222z 33z", {"honor_triplet", "all_triplets", "sangen"}),
    ("555k 555m 55h", {"all_triplets", "three_suit", "tanyao"}),
    ("111k 111m 11h", {"all_triplets", "three_suit", "chanta"}),
    ("456m 111z 99h", {"honor_triplet"}),
    ("567h 888k 33z", set()),                                      # §15.6: no yaku
    ("11z 22z 33z 99k", {"four_pairs", "half_flush"}),
    ("234h 678h 55h", {"all_runs", "tanyao", "full_flush"}),
    ("111z 22z 123m", {"honor_triplet", "half_flush"}),
])
def test_shape_yaku_examples(hand, expected):
    h = parse(hand)
    ds = R.decompositions(h)
    assert ds[0][0] == ("four_pairs" if "four_pairs" in expected else "basic")
    assert len(ds) == (2 if "twin_runs" in expected else 1)
    assert R.shape_yaku(ds[0], h) == expected


def test_shape_yaku_options():
    h = parse("11k 99k 99m 11h")
    (d,) = R.decompositions(h)
    assert "chanta" not in R.shape_yaku(d, h)
    assert "chanta" in R.shape_yaku(d, h, {"chanta_four_pairs": True})
    h = parse("11k 99k 99m 11z")                                   # an honour pair holds no 1 or 9
    (d,) = R.decompositions(h)
    assert "chanta" not in R.shape_yaku(d, h, {"chanta_four_pairs": True})
    h = parse("111z 222z 33z")
    (d,) = R.decompositions(h)
    assert "half_flush" not in R.shape_yaku(d, h)
    assert "half_flush" in R.shape_yaku(d, h, {"half_flush_needs_number": False})
    assert R.honor_triplets(d) == 2
    # wrap runs: 891k is a run, and it holds a 1 and a 9
    h = parse("891k 891k 55m")
    ds = R.decompositions(h, wrap_runs=True)
    assert ("basic", ((0, 7, 8), (0, 7, 8)), 13) in ds
    assert {"all_runs", "twin_runs", "chanta"} <= R.shape_yaku(
        ("basic", ((0, 7, 8), (0, 7, 8)), 13), h, {"wrap_runs": True})


def test_default_multipliers_are_the_spec_table():
    assert R.DEFAULT_MULTIPLIERS == {
        "machibuse": 2, "debana_machibuse": 3, "all_runs": 1.5, "tanyao": 1.5, "tsumo": 1.5,
        "four_pairs": 2, "chanta": 2, "last_tile": 3, "half_flush": 2, "full_flush": 3,
        "tenhou": 10, "honor_triplet": 2, "all_triplets": 2, "twin_runs": 5, "sangen": 10,
        "three_suit": 10}
    assert len(R.YAKU_KEYS) == 16                                   # §12 N_YAKU


def test_feasible_situation_sets():
    # §8.3 "The feasible situation sets are: {}, {M}, {M,D}, {T}, {M,T}, {M,D,T}, {L}, {M,L},
    # {M,D,L}, {T,L}, {M,T,L}, {M,D,T,L}; {H,T}, or {H} if tenhou_is_tsumo: false."
    names = {"M": "machibuse", "D": "debana_machibuse", "T": "tsumo", "L": "last_tile",
             "H": "tenhou"}
    listed = ["", "M", "MD", "T", "MT", "MDT", "L", "ML", "MDL", "TL", "MTL", "MDTL", "HT"]
    assert feasible_situations() == {frozenset(names[c] for c in s) for s in listed}
    assert R.situation_yaku({"tsumo": True, "turn": 1, "tenhou_is_tsumo": False}) == {"tenhou"}
    assert R.situation_yaku({"tsumo": False, "turn": 12, "last_turn": 12}) == {"last_tile"}
    assert R.situation_yaku({"riichi_turn": 1, "tsumo": False, "turn": 1}) == {
        "machibuse", "debana_machibuse"}


# ---------------------------------------------------------------- §15: worked examples

def win(hand7, tile):
    return plus(parse(hand7), kind(tile))


def test_example_1_non_dealer_ron():
    r = R.score(win("234k 567m 8h", "8h"), kind("8h"), {"turn": 5}, kind("5m"), False)
    assert r["yaku"] == {"all_runs": 1.5, "tanyao": 1.5} and r["product"] == 2.25
    assert (r["value"], r["n_dora"]) == (325, 1)


def test_example_2_dealer_riichi_tsumo():
    r = R.score(win("789k 9k 111z", "9k"), kind("9k"),
                {"riichi_turn": 3, "tsumo": True, "turn": 8}, kind("9k"), True)
    assert r["yaku"] == {"machibuse": 2, "tsumo": 1.5, "half_flush": 2, "honor_triplet": 2}
    assert (r["product"], r["n_dora"], r["value"]) == (12, 3, 2100)
    assert divmod(2100, 3) == (700, 0)


def test_example_3_double_ron_last_turn():
    h = win("223344k 5m", "5m")
    r = R.score(h, kind("5m"), {"turn": 15}, kind("3k"), True)
    assert r["decomposition"] == ("basic", ((1, 2, 3), (1, 2, 3)), kind("5m"))
    assert set(r["yaku"]) == {"all_runs", "twin_runs", "tanyao", "last_tile"}
    assert r["product"] == 33.75 and r["value"] == 5263
    fp = [d for d in R.decompositions(h) if d[0] == "four_pairs"][0]
    assert R.product(R.yaku_multipliers(fp, h, NEUTRAL)) == 3          # "beats four pairs at ×3"
    r2 = R.score(win("46m 111z 99h", "5m"), kind("5m"), {"turn": 15}, kind("3k"), False)
    assert r2["yaku"] == {"last_tile": 3, "honor_triplet": 2} and r2["value"] == 600
    assert r["value"] + r2["value"] == 5863


def test_example_4_simultaneous_tsumo():
    r = R.score(win("345k 678m 2h", "2h"), kind("2h"), {"tsumo": True, "turn": 6}, kind("6m"),
                False)
    assert r["product"] == 3.375 and r["value"] == 438 and divmod(438, 3) == (146, 0)
    r = R.score(win("11z 22z 33z 9k", "9k"), kind("9k"), {"tsumo": True, "turn": 6},
                kind("6m"), False)
    assert r["yaku"] == {"four_pairs": 2, "tsumo": 1.5, "half_flush": 2} and r["value"] == 600


def test_example_5_two_possible_payers():
    on1 = R.score(win("23m 456k 88h", "1m"), kind("1m"), {"turn": 5}, kind("8h"), False)
    on4 = R.score(win("23m 456k 88h", "4m"), kind("4m"), {"turn": 5}, kind("8h"), False)
    assert (on1["value"], on4["value"]) == (350, 425)


def test_example_6_riichi_ronned_cross_ron_yakuless():
    r = R.score(win("123m 456m 9k", "9k"), kind("9k"), {"riichi_turn": 4, "turn": 4},
                kind("5m"), False)
    assert r["yaku"] == {"machibuse": 2, "all_runs": 1.5} and r["value"] == 400
    void = R.score(win("123m 456m 9k", "9k"), kind("9k"), {"riichi_turn": 0, "turn": 4},
                   kind("5m"), False)
    assert void["value"] == 250
    r = R.score(win("56h 888k 33z", "7h"), kind("7h"), {"turn": 4}, kind("5m"), False)
    assert r["yaku"] == {} and r["product"] == 1 and r["value"] == 100
    assert R.score(win("56h 888k 33z", "7h"), kind("7h"), {"turn": 4}, kind("5m"), False,
                   options={"require_yaku": True}) is None


def test_example_7_not_tenpai():
    assert R.waits(parse("1223334k")) == []
    assert divmod(80, 3) == (26, 2)


MAX_SITUATION = {"riichi_turn": 1, "tsumo": True, "turn": 15}


def test_example_8_source_maximum():
    # §8.4 / §15.8: ×1,215 → 182,250; + 200 = 182,450; + 80 + 100 = 182,630
    r = R.score(win("112233k 9k", "9k"), kind("9k"), MAX_SITUATION, kind("2k"), True)
    assert set(r["yaku"]) == {"machibuse", "debana_machibuse", "tsumo", "last_tile", "all_runs",
                              "full_flush", "twin_runs", "chanta"}
    assert r["product"] == 1215 and r["n_dora"] == 2
    assert r["value"] == 182450 and r["value"] + 80 + 100 == 182630
    assert r["decomposition"][0] == "basic"
    q, rem = divmod(r["value"], 3)
    assert [q + 1] * rem + [q] * (3 - rem) == [60817, 60817, 60816]
    assert r["value"] + 180 - 20 - 100 == 182510


def test_supersedes_equivalents():
    # §8.2 "Equivalent values when superseding are debana 6, and twin_runs 7.5 if it supersedes
    # all_runs."
    h = win("112233k 9k", "9k")
    m = dict(R.DEFAULT_MULTIPLIERS, debana_machibuse=6)
    r = R.score(h, kind("9k"), MAX_SITUATION, kind("2k"), True, m,
                {"supersedes": {"debana_machibuse": ["machibuse"]}})
    assert "machibuse" not in r["yaku"] and r["product"] == 1215
    m = dict(R.DEFAULT_MULTIPLIERS, twin_runs=7.5)
    r = R.score(h, kind("9k"), MAX_SITUATION, kind("2k"), True, m,
                {"supersedes": {"twin_runs": ["all_runs"]}})
    assert "all_runs" not in r["yaku"] and r["product"] == 1215


def test_decomposition_choice_and_ties():
    h = win("223344k 5m", "5m")                                     # basic 11.25 vs four pairs 3
    m = dict(R.DEFAULT_MULTIPLIERS, four_pairs=10)                  # now four pairs 15
    w = kind("5m")
    assert R.score(h, w, NEUTRAL, 29, False, m)["decomposition"][0] == "four_pairs"
    assert R.score(h, w, NEUTRAL, 29, False, m, {"decomposition": "basic_first"}
                   )["decomposition"][0] == "basic"
    m = dict(R.DEFAULT_MULTIPLIERS, four_pairs=7.5)                 # 11.25 each: basic wins the tie
    assert R.score(h, w, NEUTRAL, 29, False, m)["decomposition"][0] == "basic"
    r = R.score(parse("11123444k"), 0, NEUTRAL, 29, False)          # two basic at ×3: lowest sets
    assert r["decomposition"] == ("basic", ((0, 0, 0), (1, 2, 3)), 3) and r["product"] == 3


def test_dora_options_and_rounding():
    h = win("345k 678m 2h", "2h")
    assert R.score(h, kind("2h"), NEUTRAL, kind("2h"), False)["n_dora"] == 2
    assert R.score(h, kind("2h"), NEUTRAL, kind("2h"), False,
                   options={"dora_includes_win_tile": False})["n_dora"] == 1
    t = {"tsumo": True, "turn": 6}
    assert R.score(h, kind("2h"), t, 29, False)["value"] == 338                 # 337.5 half up
    assert R.score(h, kind("2h"), t, 29, False, options={"rounding": "floor"})["value"] == 337
    assert R.round_value(337.5) == 338 and R.round_value(5062.5) == 5063


# ---------------------------------------------------------------- §8.4: calibration

def test_maximum_shape_product_and_the_36_hands():
    # §8.4.3: max B(h) · S* = 1215; "There are 36 such hands, all with at most 2 of a kind."
    s_star = max(math.prod(R.DEFAULT_MULTIPLIERS[y] for y in s) for s in feasible_situations())
    assert s_star == 2 * 3 * 1.5 * 3                                 # (b): {M, D, T, L}
    best = neutral_scores()
    top = max(r["product"] for r in best.values())
    assert top * s_star == 1215
    tops = [h for h, r in best.items() if r["product"] == top]
    assert len(tops) == 36 and all(max(h) <= 2 for h in tops)
    for h in tops:
        ys = set(best[h]["yaku"])
        assert ys == {"all_runs", "full_flush", "twin_runs", "chanta"}
        (s1, s2), _ = best[h]["decomposition"][1:]
        assert s1 == s2 and R.rank(s1[0]) in (1, 7)                   # 123 123 or 789 789


def test_best_triplet_hand_is_1080():
    # §8.4: "Its best hand with a triplet is ×1,080 (111k 111m 11h, three-suit)."
    pats = default_patterns()
    b_trip = max(pattern_b(r, R.DEFAULT_MULTIPLIERS) for r, trip in pats if trip)
    assert b_trip * 27 == 1080
    r = R.score(parse("111k 111m 11h"), 0, MAX_SITUATION, 29, False)
    assert r["product"] == 1080 and "three_suit" in r["yaku"]
    # (c): every triplet hand stays at or below the source's maximum
    assert R.round_value(150 * b_trip * 27) + 300 <= 182450


def test_sangen_reaches_80_under_per_set_or_honour_only_half_flush():
    # §8.4: "the sangen hand 111z 222z 33z reaches ×80 shape, ×2,160 in all. Such a scenario must
    # lower sangen to ≤ 5."
    h = parse("111z 222z 33z")
    for opts in ({"honor_triplet_per_set": True}, {"half_flush_needs_number": False}):
        r = R.score(h, 27, NEUTRAL, 0, False, options=opts)
        assert r["product"] == 80
        assert R.score(h, 27, MAX_SITUATION, 0, False, options=opts)["product"] == 2160
        assert not calibration_passes(R.DEFAULT_MULTIPLIERS, opts)
        assert calibration_passes(dict(R.DEFAULT_MULTIPLIERS, sangen=5), opts)


def test_default_table_passes_validation():
    assert calibration_passes(R.DEFAULT_MULTIPLIERS)


def test_300_assignments_and_15_consistent_tables():
    # §8.4.3: "On the grid {1.5, 2, 3, 5, 10}, 300 assignments satisfy it. With the other values at
    # their defaults, 15 give fully consistent tables. The defaults are one of them."
    pinned = ["debana_machibuse", "tsumo", "last_tile", "full_flush", "twin_runs", "chanta"]
    grid = [1.5, 2, 3, 5, 10]
    sat = [v for v in product(grid, repeat=6) if abs(math.prod(v) - 405) < 1e-9]
    assert len(sat) == 300
    ok = [v for v in sat if calibration_passes(dict(R.DEFAULT_MULTIPLIERS, **dict(zip(pinned, v))))]
    assert len(ok) == 15
    assert tuple(R.DEFAULT_MULTIPLIERS[y] for y in pinned) in ok
    assert all(dict(zip(pinned, v))["tsumo"] == 1.5 for v in ok)   # "1.5 in every consistent fit"


@pytest.mark.parametrize("yaku, top, above", [
    ("tanyao", 2, 2.5),          # bounded 1–2
    ("four_pairs", 10, 10.5),    # free 1–10
    ("half_flush", 3, 3.5),      # bounded 1–3
    ("tenhou", 18, 18.5),        # free 1–18
    ("honor_triplet", 2, 2.5),   # bounded (≤ 2 with sangen 10)
    ("all_triplets", 2, 2.5),    # bounded (≤ 2 with sangen and three-suit 10)
    ("sangen", 11, 11.5),        # bounded ≤ 11
    ("three_suit", 11, 11.5),    # bounded ≤ 11
])
def test_bounded_ranges(yaku, top, above):
    # §8.3 confidence column: each range taken with the others at their defaults
    assert calibration_passes(dict(R.DEFAULT_MULTIPLIERS, **{yaku: 1}))
    assert calibration_passes(dict(R.DEFAULT_MULTIPLIERS, **{yaku: top}))
    assert not calibration_passes(dict(R.DEFAULT_MULTIPLIERS, **{yaku: above}))


@pytest.mark.parametrize("changes", [
    # §13.3 emoji_fit_monotone, emoji_nakayoshi_pairs, emoji_nakayoshi_twins: "passes §8.4"
    {"debana_machibuse": 2, "chanta": 3, "last_tile": 3, "half_flush": 3, "full_flush": 3,
     "honor_triplet": 3, "all_triplets": 3, "twin_runs": 5, "sangen": 5, "three_suit": 5},
    {"four_pairs": 1.5},
    {"twin_runs": 1.5, "full_flush": 10},
])
def test_bundled_scenarios_pass(changes):
    assert calibration_passes(dict(R.DEFAULT_MULTIPLIERS, **changes))


# ---------------------------------------------------------------- §8.4, §6: frequencies

FREQ = [  # §8.4 "all_runs 74%, tanyao 29%, ..., three-suit 6·10⁻⁶, sangen 1·10⁻⁶" (as fractions)
    ("all_runs", 0.74, 0.005), ("tanyao", 0.29, 0.005), ("four_pairs", 0.16, 0.005),
    ("chanta", 0.066, 0.0005), ("half_flush", 0.031, 0.0005), ("full_flush", 0.030, 0.0005),
    ("honor_triplet", 0.011, 0.0005), ("twin_runs", 0.0033, 0.00005),
    ("all_triplets", 0.0027, 0.00005), ("three_suit", 6e-6, 0.5e-6),
    ("sangen", 1e-6, 0.5e-6),   # 9 / 13,406,967 = 6.7e-7: "1" only in units of 1e-6
]


@pytest.mark.parametrize("yaku, stated, tol", FREQ)
def test_shape_yaku_frequency(yaku, stated, tol):
    freq, total, _ = best_yaku_weights()
    assert abs(freq[yaku] / total - stated) < tol + 1e-12


def test_frequency_order_and_no_yaku_share():
    freq, total, none = best_yaku_weights()
    order = sorted(freq, key=lambda y: -freq[y])
    source = ["all_runs", "tanyao", "four_pairs", "chanta", "half_flush", "full_flush",
              "honor_triplet", "all_triplets", "twin_runs", "sangen", "three_suit"]
    # "the source's order except for two near-ties"
    swapped = list(source)
    swapped[7], swapped[8] = swapped[8], swapped[7]
    swapped[9], swapped[10] = swapped[10], swapped[9]
    assert order == swapped
    assert freq["sangen"] == 9 and freq["three_suit"] == 81
    assert abs(none / total - 0.042) < 0.0005          # §6 "Only 4.2% ... have no shape yaku"


def test_tenhou_probability():
    # §8.4 "Tenhou (P ≈ 1/5,782 per seat and deal)": 8 uniform tiles of 90 form a winning hand
    _, total, _ = best_yaku_weights()
    assert total == sum(weight(h) for h in winning())
    assert round(math.comb(90, 8) / total) == 5782
