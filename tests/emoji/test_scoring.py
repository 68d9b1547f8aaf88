"""The compiled emoji scoring (simcore.emoji.scoring) against the pure-Python reference on random
winning hands, situations, multiplier tables and scoring options; and the spec's worked maxima."""

import itertools

import numpy as np
import pytest

from simcore.emoji import reference as ref
from simcore.emoji import scoring as S
from simcore.emoji.tiles import N_KINDS, kind_of, parse_hand

GRID = (1.0, 1.5, 2.0, 3.0, 5.0, 10.0)


def _winning_hands(rng, n):
    sets = [(k,) * 3 for k in range(N_KINDS)] + [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2)
                                                  for s in range(3) for r in range(7)]
    out = []
    while len(out) < n:
        c = np.zeros(N_KINDS, np.int64)
        if rng.random() < 0.2:
            c[rng.choice(N_KINDS, 4, replace=False)] = 2
        else:
            for i in rng.integers(len(sets), size=2):
                for k in sets[i]:
                    c[k] += 1
            c[rng.integers(N_KINDS)] += 2
        if c.max() <= 3:
            out.append(c)
    return out


def _situation(rng):
    tsumo = bool(rng.random() < 0.5)
    turn = int(rng.integers(1, 16))
    riichi = int(rng.integers(0, turn + 1)) if rng.random() < 0.5 else 0
    return {"tsumo": tsumo, "turn": turn, "riichi_turn": riichi, "last_turn": 15}


OPTION_SETS = [
    {},
    {"chanta_four_pairs": True, "half_flush_needs_number": False},
    {"honor_triplet_per_set": True, "rounding": "floor", "dora_includes_win_tile": False},
    {"rounding": "ceil", "decomposition": "basic_first", "dealer_factor": 2.0},
    {"tenhou_is_tsumo": False, "base": 70, "dora_points": 30},
    {"supersedes": {"debana_machibuse": ["machibuse"], "twin_runs": ["all_runs"],
                    "sangen": ["honor_triplet", "all_triplets"]}},
]


@pytest.mark.parametrize("opts", OPTION_SETS)
def test_random_wins_score_as_the_reference(opts):
    rng = np.random.default_rng(len(str(opts)))
    kernel_opts = {k: v for k, v in opts.items() if k != "tenhou_is_tsumo"}
    ref_opts = dict(ref.DEFAULT_OPTIONS, **kernel_opts)
    out = np.zeros(6, np.int64)
    for i, c in enumerate(_winning_hands(rng, 3000)):
        mult = dict(S.DEFAULT_MULTIPLIERS)
        if i % 3 == 0:
            mult = {k: float(rng.choice(GRID)) for k in S.YAKU}
        sr = S.scoring_rules(mult, tenhou_is_tsumo=opts.get("tenhou_is_tsumo", True),
                             **kernel_opts)
        sit = _situation(rng)
        win = int(rng.choice(np.flatnonzero(c)))
        dora = int(rng.integers(N_KINDS))
        dealer = bool(rng.random() < 0.25)
        v, p, m = S.score_win(c, win, sit["tsumo"], sit["riichi_turn"], sit["turn"], 15, dealer,
                              dora, sr, out)
        want = ref.score(list(c), win, dict(sit, tenhou_is_tsumo=opts.get("tenhou_is_tsumo",
                                                                          True)),
                         dora, dealer, mult, ref_opts)
        assert v == want["value"], (list(c), sit, mult, opts)
        assert {S.YAKU[j] for j in range(S.N_YAKU) if (m >> j) & 1} == set(want["yaku"])
        assert p == pytest.approx(want["product"])


def test_superseding_equivalents_keep_the_maximum():
    """Spec §8.2: under supersedes, debana 6 and twin_runs 7.5 give the same x1,215."""
    out = np.zeros(6, np.int64)
    c = parse_hand("123k 123k 99k", 8).astype(np.int64)
    sr = S.scoring_rules({"debana_machibuse": 6.0, "twin_runs": 7.5},
                         supersedes={"debana_machibuse": ["machibuse"],
                                     "twin_runs": ["all_runs"]})
    v, p, m = S.score_win(c, kind_of(9, "k"), True, 1, 15, 15, True, kind_of(9, "k"), sr, out)
    assert p == 1215.0 and not (m >> S.Y_MACHIBUSE) & 1 and not (m >> S.Y_ALL_RUNS) & 1


def test_the_sources_maximum():
    """Spec §8.4: dealer, riichi in turn 1, tsumo on the last tile, 123k 123k 99k with 9k as
    dora: x1,215, 100 x 1,215 x 1.5 + 200 = 182,450 (the source's 182,630 adds the pot 80 and
    the deposit 100)."""
    out = np.zeros(6, np.int64)
    c = parse_hand("123k 123k 99k", 8).astype(np.int64)
    v, p, _ = S.score_win(c, kind_of(9, "k"), True, 1, 15, 15, True, kind_of(9, "k"),
                          S.scoring_rules(), out)
    assert (v, p) == (182450.0, 1215.0)
    c = parse_hand("111k 111m 11h", 8).astype(np.int64)
    v, p, _ = S.score_win(c, kind_of(1, "h"), True, 1, 15, 15, True, 0, S.scoring_rules(), out)
    assert p == 1080.0   # the best hand with a triplet
