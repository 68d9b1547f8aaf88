"""P-style hand kernels (simcore.ptrump.hand) against the brute-force reference (reference.py).

- Exhaustive: every concealed hand (rank counts within the deck) of 1, 2 cards (k = 2), 4, 5 cards
  (k = 1), 7 and 8 cards (k = 0): win_mask (7-3k), is_complete and decompositions (8-3k), with the
  default shapes; shanten on all hands of up to 5 cards and on a pinned-seed sample of 4,000 7- and
  8-card hands (the reference takes ~0.2 ms a hand).
- The same for three other shape settings on a pinned sample.
- Properties over all 7- and 8-card hands (kernels only): shanten of an 8-card hand = the best
  shanten after a discard; -1 iff complete; 0 iff a live wait; useful_mask against trying each draw.
- Known hands in notation (spec §5, §8).
"""

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcore.ptrump import hand as H
from simcore.ptrump import reference as ref
from simcore.ptrump.cards import (
    N_CARDS, RANK_COPIES, format_rank_mask, format_ranks, parse_hand, rank_counts,
)

HR = H.hand_rules_array()          # one array for the module: tables built once
DEFAULT = ref.ShapeRules()
VARIANTS = [
    ref.ShapeRules(sutoitsu_same_pairs=False),
    ref.ShapeRules(sutoitsu=False, paaren=False, kokushi=False, chinroutou=False),
    ref.ShapeRules(sutoitsu=False, sutoitsu_same_pairs=False, kokushi=False),
]


@lru_cache(maxsize=None)
def hr_of(rules: ref.ShapeRules):
    return H.hand_rules_array(sutoitsu_same_pairs=rules.sutoitsu_same_pairs,
                              sutoitsu=rules.sutoitsu, paaren=rules.paaren, kokushi=rules.kokushi,
                              chinroutou=rules.chinroutou)


def all_hands(n):
    """int64[m, 14]: every rank-count vector of n cards within the deck's copies."""
    rows = np.zeros((1, 0), np.int64)
    for cap in RANK_COPIES:
        rows = np.hstack([np.repeat(rows, cap + 1, axis=0),
                          np.tile(np.arange(cap + 1), rows.shape[0])[:, None]])
        rows = rows[rows.sum(axis=1) <= n]
    return rows[rows.sum(axis=1) == n]


_HANDS = {}


def hands(n):
    if n not in _HANDS:
        _HANDS[n] = all_hands(n)
    return _HANDS[n]


def batch(fn, V, k, hr, dtype=np.int64):
    out = np.zeros(len(V), dtype)
    fn(V, np.full(len(V), k, np.int64), hr, out)
    return out


def sample(V, m, seed):
    rng = np.random.default_rng(seed)
    return V[rng.choice(len(V), size=min(m, len(V)), replace=False)]


def test_layout():
    assert HR.dtype == np.int64 and HR.shape == (H.HR_LEN,)
    assert H.N_NUM_VECTORS == 22330 and H.N_HON_VECTORS == 815
    assert list(H.READING_KINDS) == ["regular", "sutoitsu", "paaren", "kokushi", "chinroutou"]
    assert [H.RK_REGULAR, H.RK_SUTOITSU, H.RK_PAAREN, H.RK_KOKUSHI, H.RK_CHINROUTOU] == \
        [ref.REGULAR, ref.SUTOITSU, ref.PAAREN, ref.KOKUSHI, ref.CHINROUTOU]


def test_part_lookup_finds_each_vector():
    """START + SUB give each number-part vector its dense (lexicographic) index, the one the
    tables were filled in, and the over-copy / over-size hands are refused."""
    vecs = H._part_vectors(H.NUM_CAPS)
    for j in range(0, len(vecs), 53):
        low = int((vecs[j, :5] * 5 ** np.arange(5)).sum())
        high = int((vecs[j, 5:] * 5 ** np.arange(4)).sum())
        left = 8 - int(vecs[j, :5].sum())
        assert HR[H.HR_NUM_START + low] + HR[H.HR_NUM_SUB + left * H.HIGH_CODES + high] == j
    assert H.shanten(np.array([5] + [0] * 13), 2, HR) == 98
    assert H.win_mask(np.array([2] * 5 + [0] * 9), 0, HR) == 0        # 10 cards


# -- exhaustive against the reference ---------------------------------------------------------

def expected_win_masks(k, rules=DEFAULT):
    """{hand (tuple of 14): mask} from the reference's complete shapes: a hand waits on r iff hand
    + r is one of them (the definition of ``reference.win_mask``, inverted to run in bulk)."""
    out = {}
    for shape in ref.complete_shapes(k, rules):
        for r in range(14):
            if shape[r]:
                hand = list(shape)
                hand[r] -= 1
                out[tuple(hand)] = out.get(tuple(hand), 0) | (1 << r)
    return out


def test_inverted_reference_agrees():
    want = expected_win_masks(0)
    for v in sample(hands(7), 300, seed=1):
        assert want.get(tuple(v.tolist()), 0) == ref.win_mask(v, 0)


@pytest.mark.parametrize("n,k", [(1, 2), (4, 1), (7, 0)])
def test_win_mask_every_hand(n, k):
    V = hands(n)
    got = batch(H.win_mask_batch, V, k, HR)
    want = expected_win_masks(k)
    bad = [(format_ranks(v), format_rank_mask(g)) for v, g in zip(V, got)
           if g != want.get(tuple(v.tolist()), 0)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("n,k", [(2, 2), (5, 1), (8, 0)])
def test_complete_and_decompositions_every_hand(n, k):
    V = hands(n)
    got = batch(H.complete_batch, V, k, HR, np.bool_)
    shapes = ref.complete_shapes(k, DEFAULT)
    want = np.array([tuple(v) in shapes for v in V.tolist()])
    assert np.array_equal(got, want), [format_ranks(v) for v in V[got != want][:5]]
    for v in V[got]:
        assert set(H.readings(v, k, HR)) == ref.decompositions(v, k), format_ranks(v)
    for v in V[~got][:500]:
        assert H.readings(v, k, HR) == []


@pytest.mark.parametrize("n,k", [(1, 2), (2, 2), (4, 1), (5, 1)])
def test_shanten_every_small_hand(n, k):
    V = hands(n)
    got = batch(H.shanten_batch, V, k, HR)
    bad = [format_ranks(v) for v, g in zip(V, got) if g != ref.shanten(v, k)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("n", [7, 8])
def test_shanten_sample(n):
    V = sample(hands(n), 4000, seed=n)
    got = batch(H.shanten_batch, V, 0, HR)
    want = [ref.shanten(v, 0) for v in V]
    bad = [(format_ranks(v), g, w) for v, g, w in zip(V, got, want) if g != w]
    assert not bad, bad[:5]


@pytest.mark.parametrize("n,k", [(7, 0), (8, 0), (4, 1), (5, 1)])
def test_shanten_of_codes_moved_a_card_at_a_time_is_shanten(n, k):
    """The greedy bot's shanten from table codes (hand_codes, then code_step a card less and a
    card more) is shanten of the hand so changed, wherever that hand is within the copies."""
    for v in sample(hands(n), 400, seed=10 * n + k):
        codes = H.hand_codes(v)
        for r in np.flatnonzero(v):
            less = H.code_step(*codes, r, -1)
            w = v.copy()
            w[r] -= 1
            assert H.shanten_of_codes(*less, k, HR) == H.shanten(w, k, HR), format_ranks(w)
            for q in range(len(v)):
                if w[q] + 1 > RANK_COPIES[q]:
                    continue
                w[q] += 1
                got = H.shanten_of_codes(*H.code_step(*less, q, 1), k, HR)
                assert got == H.shanten(w, k, HR), format_ranks(w)
                w[q] -= 1


@pytest.mark.parametrize("rules", VARIANTS, ids=["no-same-pairs", "regular-only", "paaren-only"])
def test_shape_settings(rules):
    hr = hr_of(rules)
    V7 = np.vstack([sample(hands(7), 3000, seed=71), _special_neighbourhood(7)])
    got = batch(H.win_mask_batch, V7, 0, hr)
    assert [format_ranks(v) for v, g in zip(V7, got) if g != ref.win_mask(v, 0, rules)] == []
    sh = batch(H.shanten_batch, V7[:1500], 0, hr)
    assert [format_ranks(v) for v, g in zip(V7, sh) if g != ref.shanten(v, 0, rules)] == []
    V8 = np.vstack([sample(hands(8), 3000, seed=81), _special_neighbourhood(8)])
    got = batch(H.complete_batch, V8, 0, hr, np.bool_)
    for v, g in zip(V8, got):
        assert g == ref.is_complete(v, 0, rules), format_ranks(v)
        if g:
            assert set(H.readings(v, 0, hr)) == ref.decompositions(v, 0, rules), format_ranks(v)


def _special_neighbourhood(n):
    """Hands near the special shapes (pairs, 1-8/2-9, kokushi ranks, AAAA9999), which random
    samples rarely reach."""
    rng = np.random.default_rng(n)
    out = []
    pools = [
        [r for r in range(14) for _ in range(RANK_COPIES[r])],                    # any
        [r for r in (0, 8, 9, 10, 11, 12, 13) for _ in range(RANK_COPIES[r])],    # kokushi ranks
        list(range(9)) * 2,                                                       # paaren-ish
        [0] * 4 + [8] * 4 + [1, 7],                                               # chinroutou-ish
    ]
    for pool in pools:
        for _ in range(300):
            v = np.zeros(14, np.int64)
            for r in rng.choice(pool, size=n, replace=False):
                v[r] += 1
            out.append(v)
    for _ in range(300):                                                          # pairs
        v = np.zeros(14, np.int64)
        for r in rng.choice(14, size=4, replace=True):
            v[r] += 2
        if all(v[r] <= RANK_COPIES[r] for r in range(14)):
            if n == 7:
                v[rng.choice(np.flatnonzero(v))] -= 1
            out.append(v)
    return np.array(out, np.int64)


# -- properties over every 7- and 8-card hand (kernels only) ----------------------------------

def test_shanten_properties_every_hand():
    V8 = hands(8)
    s8 = batch(H.shanten_batch, V8, 0, HR)
    c8 = batch(H.complete_batch, V8, 0, HR, np.bool_)
    assert np.array_equal(s8 == -1, c8)
    V7 = hands(7)
    s7 = batch(H.shanten_batch, V7, 0, HR)
    w7 = batch(H.win_mask_batch, V7, 0, HR)
    live = np.array([w & ~H.held_out_mask(v) for v, w in zip(V7, w7)])
    assert np.array_equal(s7 == 0, live != 0)
    assert s7.min() == 0 and s8.max() <= 4
    # the 8-card value is the best value after a discard
    out = np.zeros(14, np.int64)
    for v, s in zip(V8[::11], s8[::11]):
        assert H.discard_shanten(v, 0, HR, out) == max(s, 0) or s == -1, format_ranks(v)


def test_useful_mask_against_reference():
    for v in sample(hands(7), 150, seed=7):
        assert H.useful_mask(v, 0, HR) == ref.useful_mask(v, 0), format_ranks(v)
    for v in sample(hands(4), 150, seed=4):
        assert H.useful_mask(v, 1, HR) == ref.useful_mask(v, 1), format_ranks(v)


@settings(max_examples=150)
@given(st.lists(st.integers(0, N_CARDS - 1), min_size=7, max_size=7, unique=True),
       st.sampled_from(VARIANTS + [DEFAULT]))
def test_random_deals_against_reference(ids, rules):
    hr = HR if rules == DEFAULT else hr_of(rules)
    cnt = rank_counts(ids)
    assert H.win_mask(cnt, 0, hr) == ref.win_mask(cnt, 0, rules)
    assert H.shanten(cnt, 0, hr) == ref.shanten(cnt, 0, rules)
    assert H.useful_mask(cnt, 0, hr) == ref.useful_mask(cnt, 0, rules)


# -- known hands ------------------------------------------------------------------------------

def waits(text, hr=HR):
    h = parse_hand(text)
    return format_rank_mask(H.win_mask(h.counts, h.k, hr))


def kinds(text, hr=HR):
    h = parse_hand(text)
    return sorted(H.READING_KINDS[r[H.RD_KIND]] for r in H.readings(h.full_counts, h.k, hr))


def test_known_waits():
    assert waits("2345567") == "258"                  # spec example A
    assert waits("1234567") == "1478"                 # 8: paaren 1-8
    assert waits("2345678") == "12589"                # 1, 9: paaren
    assert waits("A9TJQKX") == "19TJQKX"              # kokushi, 13-sided (7 ranks)
    assert waits("A9TJQKK") == "X"
    assert waits("TJQKXX1") == "9"                    # one missing, the joker pair
    assert waits("TJQKXX5") == ""
    assert waits("1119TTT") == "9"
    assert waits("XX11122") == "12"                   # joker pair head; not 3 jokers
    assert waits("XX1122T") == "T"                    # sutoitsu with the joker pair
    assert waits("X112233") == "X"                    # tanki on a joker (sutoitsu / head)
    assert waits("89TJQK5") == ""                     # no run through 10 or the pictures
    assert waits("TJQ1234") == ""
    assert waits("pon:555 234 7") == "7"
    assert waits("pon:555 ankan:QQQQ X") == "X"       # joker head
    assert waits("1111999") == "19"                   # 9: AAAA9999; 1: AAA + 99 ...
    assert waits("1111999", H.hand_rules_array(sutoitsu_same_pairs=False)) == "19"
    assert waits("1111999", H.hand_rules_array(sutoitsu_same_pairs=False, chinroutou=False)) == "1"
    assert waits("5555678") == "58"                   # 5 is a fifth copy: shape only
    assert H.shanten(parse_hand("5555678").counts, 0, HR) == 0     # the 8 is live
    assert waits("5555777") == "567"                  # 555 55 777 (dead), 55 567 57.., 5555 7777
    assert H.shanten(parse_hand("5555777").counts, 0, HR) == 0
    assert waits("5555666") == "4567"
    assert H.shanten(parse_hand("5555 666", allow_drawn=False).counts if False else
                     parse_hand("5555666").counts, 0, HR) == 0


def test_known_readings():
    assert kinds("223344 5 +5") == ["regular", "regular", "sutoitsu"]      # spec example F
    assert kinds("A9TJQK X +X") == ["kokushi"]
    assert kinds("1234567 +8") == ["paaren"]
    assert kinds("1111 999 +9") == ["chinroutou", "sutoitsu"]              # 111 999 19: no
    assert kinds("1111 999 +9", H.hand_rules_array(sutoitsu_same_pairs=False)) == ["chinroutou"]
    neither = H.hand_rules_array(chinroutou=False, sutoitsu_same_pairs=False)
    assert kinds("1111 999 +9", neither) == []
    h = parse_hand("kakan:7777 234 5 +5")
    assert H.readings(h.full_counts, h.k, HR) == [(H.RK_REGULAR, 4, 1, 1, -1, -1)]
    h = parse_hand("pon:111 pon:999 5 +5")
    assert H.readings(h.full_counts, h.k, HR) == [(H.RK_REGULAR, 4, -1, -1, -1, -1)]
    # sets in (rank, is_run) order: a triplet before a run of the same rank
    h = parse_hand("1111 23 X +X")
    assert H.readings(h.full_counts, 0, HR) == [(H.RK_REGULAR, 13, 0, 0, 1, 0)]


def test_pairs_of_four():
    same = H.hand_rules_array(sutoitsu_same_pairs=True)
    no_same = H.hand_rules_array(sutoitsu_same_pairs=False)
    h = parse_hand("5555 TT J +J")
    assert H.is_complete(h.full_counts, 0, same) and not H.is_complete(h.full_counts, 0, no_same)
    assert waits("5555 TT J", no_same) == ""
    # a joker pair is a pair
    assert waits("XX 1 22 33") == "14"                # 1: sutoitsu; 4: XX 123 234


def test_benchmark_runs():
    """benchmarks/ptrump/bench_hand.py (the suite's ``ptrump_hand`` section) on a few hands."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.ptrump import bench_hand as bench_ptrump_hand
    r = bench_ptrump_hand.measure(hands=2000, repeats=1)
    assert set(r["jobs"]) >= {"wait detections (7 cards)", "distance to tenpai (7 cards)"}
    assert all(j["per_s"] > 0 for j in r["jobs"].values()) and 0 < r["tenpai_share"] < 0.5


def test_analyse_report():
    r = H.analyse(parse_hand("1111999"), HR)
    assert (r["shanten"], r["waits"], r["live_waits"], r["useful"]) == (0, "19", "9", "9")
    r = H.analyse(parse_hand("223344 5 +5"), HR)
    assert r["complete"] and r["shanten"] == -1
    assert r["readings"] == ["22 345 345", "55 234 234", "sutoitsu"]
    assert H.analyse(parse_hand("A9TJQK X +X"), HR)["readings"] == ["kokushi XX"]
    r = H.analyse(parse_hand("pon:555 5 234 +7"), HR)     # the pon's copies count as held
    assert not r["complete"] and r["readings"] == []
    r = H.analyse(parse_hand("pon:555 5 234"), HR)
    assert (r["waits"], r["live_waits"]) == ("25", "2")
