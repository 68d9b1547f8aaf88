"""The compiled scorer (simcore.riichi2p.scoring) against the spec's worked examples (§9.6,
§9.7), the pure-Python reference on random wins under random rules, and the `mahjong` package
(spec §14) on the rules it can express. RIICHI2P_KERNEL_N sets the random sample (default
20,000 each)."""

from __future__ import annotations

import os
import random
import sys

import numpy as np
import pytest

from simcore.riichi2p import scoring as S
from simcore.riichi2p.reference import atozuke_legal, score
from simcore.riichi2p.rules_array import build_scoring_rules
from simcore.riichi2p.score_text import score_hand

sys.path.insert(0, os.path.dirname(__file__))
from kernel_adapter import kernel_score  # noqa: E402
from oracle import covered_rules, oracle_score, random_rules, random_win  # noqa: E402

N = int(os.environ.get("RIICHI2P_KERNEL_N", 20000))


def pay(text: str, **options) -> int | None:
    r = score_hand(text, build_scoring_rules(options))
    return r["pay"] if r["win"] else None


EXAMPLES = [   # (hand, options, P without honba): spec §9.7
    ("234567m 345p 67s 88p +8s tsumo seat:S", {}, 2600),                      # A
    ("234567m 345p 67s 88p +8s tsumo seat:E", {}, 3900),
    ("234567m 345p 67s 88p +8s tsumo seat:S", {"pinfu_tsumo": False}, 2000),
    ("chi:2'34m 78m 567p 234s 66s +6m ron seat:S", {}, 1000),                 # B
    ("chi:2'34m 78m 567p 234s 66s +6m ron seat:S", {"open_pinfu_fu": False}, 700),
    ("chi:2'34m 78m 567p 234s 66s +6m ron seat:S", {"kuitan": False}, None),
    ("pon:44'4p 777z 12m 567s 99s +3m ron seat:E", {}, 2000),                 # C
    ("1133m 5577p 99s 22z 6z +6z ron riichi seat:S", {}, 3200),               # D
    ("1133m 5577p 99s 22z 6z +6z ron riichi seat:S", {"chiitoitsu": "50fu1han"}, 3200),
    ("1133557799m 22z 6z +6z ron riichi seat:S", {}, 12000),
    ("1133557799m 22z 6z +6z ron riichi seat:S", {"chiitoitsu": "50fu1han"}, 8000),
    ("pon:11'1z 555z 666z 777z 2z +2z ron seat:S", {}, 64000),                # E
    ("pon:11'1z 555z 666z 777z 2z +2z ron seat:S", {"yakuman_stacking": False}, 32000),
    ("123456789s 234s 5s +5s tsumo riichi dora:4s seat:S", {}, 32000),        # F
    ("123456789s 234s 5s +5s tsumo riichi dora:4s seat:S", {"kazoe_yakuman": False}, 24000),
    ("222m 567m 345p 67s 44s +8s tsumo riichi dora:6s seat:S", {}, 7700),     # G
    ("222m 567m 345p 67s 44s +8s tsumo riichi dora:6s seat:E", {}, 11600),
    ("222m 567m 345p 67s 44s +8s tsumo riichi dora:6s seat:S", {"kiriage": True}, 8000),
    ("222m 567m 345p 67s 44s +8s tsumo riichi dora:6s seat:E", {"kiriage": True}, 12000),
    ("234m 999p 34567s 11z +2s ron riichi seat:E", {}, 2400),                 # H
    ("234m 999p 34567s 11z +2s ron riichi seat:E", {"double_wind_pair_fu": 2}, 2000),
    ("234567m 345p 67s 88p +8s ron riichi seat:S", {}, 3900),                 # I
    ("234567m 345p 67s 88p +8s ron first seat:S", {"renhou": "mangan"}, 8000),   # K
    ("234567m 345p 67s 88p +8s ron first seat:S", {"renhou": "baiman"}, 16000),
    ("chi:1'23s 555z 666z 77z 99m +7z ron seat:S", {}, 32000),                # L (atozuke on)
    ("chi:1'23s 555z 666z 77z 99m +9m ron seat:S", {}, 8000),
    ("19m19p19s1234567z +1m ron seat:S", {"double_yakuman": True}, 64000),    # 13-sided
    ("19m19p19s1234567z +1m ron seat:S", {}, 32000),
    ("1112345678999m +5m ron seat:S", {"double_yakuman": True}, 64000),       # pure chuuren
    ("1112345678999p +5p ron seat:S", {"chuuren_suits": "man_only"}, 12000),  # chinitsu haneman
]


@pytest.mark.parametrize("text,options,expected", EXAMPLES)
def test_worked_examples(text, options, expected):
    assert pay(text, **options) == expected


@pytest.mark.parametrize("han,fu,nondealer,dealer", [
    (1, 30, 1000, 1500), (1, 40, 1300, 2000), (1, 50, 1600, 2400), (1, 60, 2000, 2900),
    (2, 20, 1300, 2000), (2, 25, 1600, 2400), (2, 30, 2000, 2900), (2, 40, 2600, 3900),
    (3, 30, 3900, 5800), (3, 60, 7700, 11600), (4, 30, 7700, 11600), (4, 40, 8000, 12000),
])
def test_check_values(han, fu, nondealer, dealer):
    sr = build_scoring_rules()
    b, _ = S.base_points(han, fu, sr)
    assert (S.payment(b, False), S.payment(b, True)) == (nondealer, dealer)


def _explain(win, rules, ref, res) -> str:
    names = [S.YAKU[i] for i in range(len(S.YAKU)) if (int(res[S.R_YAKU]) >> i) & 1]
    return f"{win}\n rules {rules}\n reference {ref}\n kernel pay {res[S.R_PAY]} han " \
           f"{res[S.R_HAN]} fu {res[S.R_FU]} {names}"


def test_kernel_against_the_reference():
    rng = random.Random(2026)
    for _ in range(N):
        win, rules = random_win(rng), random_rules(rng)
        ref = score(win, rules)
        res = kernel_score(win, rules)
        want = ref.payment if ref is not None and ref.legal else -1
        assert res[S.R_PAY] == want, _explain(win, rules, ref, res)
        if want > 0 and ref.limit != "renhou" and not ref.yakuman:
            assert (res[S.R_HAN], res[S.R_FU]) == (ref.han, ref.fu), _explain(win, rules, ref, res)


def test_kernel_against_the_reference_without_atozuke():
    """atozuke: false (§5.5) on the same random wins: the kernel refuses exactly the wins the
    reference's atozuke_legal refuses, under both readings of its two [I] keys."""
    rng = random.Random(2027)
    refused = with_calls = 0
    for _ in range(N // 2):
        win = random_win(rng)
        rules = {**random_rules(rng), "atozuke": False,
                 "atozuke_first_call": rng.choice(("discard_call", "literal")),
                 "atozuke_whole_hand_yaku": rng.choice(("count", "ignore"))}
        ref = score(win, rules)
        legal = ref is not None and ref.legal and atozuke_legal(win, rules)
        res = kernel_score(win, rules)
        want = ref.payment if legal else -1
        assert res[S.R_PAY] == want, _explain(win, rules, ref, res)
        with_calls += bool(win.melds)
        refused += ref is not None and ref.legal and not legal
    assert refused > N // 200 and with_calls > N // 10      # the cases that matter are reached


def test_kernel_against_the_package():
    """0 disagreements with the `mahjong` package on the rules it expresses (§14's adapters in
    tests/riichi2p/oracle.py)."""
    rng = random.Random(3031)
    compared = 0
    for _ in range(N):
        win, rules = random_win(rng), covered_rules(random_rules(rng))
        want = oracle_score(win, rules)
        res = kernel_score(win, rules)
        assert (res[S.R_PAY] if res[S.R_PAY] > 0 else None) == \
            (want.payment if want is not None else None), _explain(win, rules, want, res)
        compared += want is not None
    assert compared > N // 2


def test_no_winning_shape_and_no_yaku_are_told_apart():
    r = score_hand("123m 456p 789s 11z 23m +9s ron seat:S", build_scoring_rules())
    assert not r["win"] and r["why"] == "no winning shape"
    r = score_hand("chi:2'34m 78m 567p 234s 66s +6m ron seat:S",
                   build_scoring_rules({"kuitan": False}))
    assert not r["win"] and r["why"] == "no yaku"


def test_rules_array_covers_every_scoring_option():
    assert len(build_scoring_rules()) == S.N_SR
    assert np.array_equal(build_scoring_rules(), S.new_rules())


@pytest.mark.parametrize("text,options,pays", [
    # (a): the 9s would give no yaku; (c) a tsumo stands; riichi gives every wait a yaku
    ("234m 555p 345s 88p 78s +6s ron seat:S", {}, False),
    ("234m 555p 345s 88p 78s +6s tsumo seat:S", {}, True),
    ("234m 555p 345s 88p 78s +6s ron riichi seat:S", {}, True),
    # (b1) through a whole-hand yaku: only while they count
    ("chi:2'34m 567p 234s 66s 57m +6m ron seat:S", {}, True),
    ("chi:2'34m 567p 234s 66s 57m +6m ron seat:S", {"atozuke_whole_hand_yaku": "ignore"}, False),
    # (b1) through the first call: a daiminkan is one only under discard_call
    ("minkan:5'555z chi:1'23s 666z 77z 99m +7z ron seat:S", {}, True),
    ("minkan:5'555z chi:1'23s 666z 77z 99m +7z ron seat:S", {"atozuke_first_call": "literal"},
     False),
])
def test_each_atozuke_key_decides_a_win(text, options, pays):
    """Each of atozuke's keys changes whether the compiled scorer pays (spec §5.5)."""
    assert (pay(text, atozuke=False, **options) is not None) is pays
    assert pay(text, **options) is not None          # with atozuke (the default) each one pays
