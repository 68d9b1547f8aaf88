"""P-style trump scoring (spec §5, §8): the worked examples A-F, each yaku and additive item with
a near miss, and every scoring option shown to bite (the same hand under the default and the
option). Hands are in the spec's notation; a suit-less card is never one-colour."""

import numpy as np
import pytest

from simcore.ptrump import scenario
from simcore.ptrump.cards import CardError, parse_cards
from simcore.ptrump.rules_array import N_SLOTS, SLOT, build_hand_rules, build_rules_array
from simcore.ptrump.scoring import (
    BD_COUNT, BD_POINTS, CTX_TSUMO, F_TSUMO, REV_NONE, REV_PON, SK_PON, score_text, score_win,
    score_win_ctx,
)

_SC = {}


def sc(**over):
    """The default scenario with ``over`` = {"key.path": value} applied (cached)."""
    key = tuple(sorted(over.items()))
    if key not in _SC:
        raw = {}
        for path, value in over.items():
            node = raw
            parts = path.split(".")
            for k in parts[:-1]:
                node = node.setdefault(k, {})
            node[parts[-1]] = value
        _SC[key] = scenario.from_dict(raw, name="t")
    return _SC[key]


def total(text, **over):
    r = score_text(text, sc(**over))
    return r["total"] if r["valid"] else None


def items(text, **over):
    r = score_text(text, sc(**over))
    return {**r["items"], **r["deductions"]}


# --- the spec's worked examples (§8) ---------------------------------------------------------

def test_example_a_tsumo_tanyao_pinfu():
    r = score_text("234 67 55 +8 tsumo dora:K", sc())
    assert r["items"] == {"tsumo": 1, "tanyao": 1, "pinfu": 1} and r["total"] == 3
    assert r["valid"] and r["has_yaku"] and r["reading"] == "55 234 678"


def test_example_b_naki_tan_is_zero_and_legal():
    r = score_text("pon:555 34 66 +2 ron dora:9", sc())
    assert r["items"] == {"tanyao": 1} and r["deductions"] == {"pon": -1}
    assert (r["total"], r["valid"], r["has_yaku"]) == (0, True, True)
    assert total("pon:555 34 66 +2 ron dora:1") == 1                  # the 2 is dora


def test_example_b_two_pons_floor_at_zero():
    r = score_text("pon:111 pon:999 5 +5 ron dora:7", sc())
    assert r["items"] == {"ryankoutsu": 1} and r["deductions"] == {"pon": -2}
    assert (r["subtotal"], r["total"], r["counts"]["floor"]) == (-1, 0, 1)


def test_example_c_eleven():
    r = score_text("nuki:X 111 TTT 9 +9 tsumo riichi ippatsu dora:9 ura:X", sc())
    assert r["items"] == {"tsumo": 1, "ryankoutsu": 1, "chanta": 1, "yakuhai": 1, "riichi": 1,
                          "ippatsu": 1, "dora": 3, "ura_joker": 1, "nukidora": 1}
    assert r["total"] == 11


def test_example_d_nuki_unseen_and_ura_joker_any_win():
    r = score_text("nuki:X 234 678 5 +5 ron dora:K ura:X", sc())
    assert r["items"] == {"tanyao": 1, "nukidora": 1} and r["total"] == 2
    assert total("nuki:X 234 678 5 +5 ron dora:K ura:X",
                 **{"scoring.additive.ura_joker.when": "any_win"}) == 3


def test_example_e_kakan_keeps_the_pon_penalty():
    r = score_text("kakan:7777 234 5 +5 tsumo rinshan dora:K", sc())
    assert r["items"] == {"tanyao": 1, "rinshan": 1} and r["deductions"] == {"pon": -1}
    assert r["total"] == 1
    assert total("kakan:7777 234 5 +5 tsumo rinshan dora:K",
                 **{"scoring.deductions.kakan_keeps_pon_penalty": False}) == 2


def test_example_f_iipeikou_reading_beats_sutoitsu():
    r = score_text("223344 5 +5 ron dora:K", sc())
    assert r["items"] == {"tanyao": 1, "pinfu": 1, "iipeikou": 1} and r["total"] == 3
    assert r["reading"] == "22 345 345"
    assert total("223344 5 +5 ron dora:K", **{"scoring.yaku.iipeikou.enabled": False}) == 2


# --- the 1-point yaku: a hand with it, a near miss without it --------------------------------

@pytest.mark.parametrize("text, key, has", [
    ("234 678 5 +5 tsumo", "tsumo", True),
    ("pon:777 234 5 +5 tsumo", "tsumo", False),                    # not menzen
    ("234 678 5 +5 ron", "tanyao", True),
    ("234 678 9 +9 ron", "tanyao", False),
    ("234 67 TT +8 ron", "pinfu", True),                           # a 10 head is fine
    ("234 67 XX +8 ron", "pinfu", True),                           # so is a joker head
    ("234 67 JJ +8 ron", "pinfu", False),                          # J/Q/K head is not
    ("234 68 55 +7 ron", "pinfu", False),                          # closed wait
    ("234 89 55 +7 ron", "pinfu", False),                          # edge wait 89-7
    ("12 345 55 +3 ron", "pinfu", True),                           # 123 + 45 waiting 3-6
    ("234 234 5 +5 ron", "iipeikou", True),
    ("234 345 5 +5 ron", "iipeikou", False),
    ("2255 77 9 +9 ron", "sutoitsu", True),
    ("2222 55 7 +7 ron", "sutoitsu", True),                        # four of a rank: two pairs
    ("pon:111 pon:999 5 +5 ron", "ryankoutsu", True),
    ("kan:7777 333 5 +5 ron", "ryankoutsu", True),                 # a kan is a triplet
    ("ankan:7777 ankan:3333 5 +5 tsumo", "ryankantsu", True),
    ("123 789 9 +9 ron", "chanta", True),
    ("123 789 5 +5 ron", "chanta", False),
    ("TTT QQQ 5 +5 ron", "yakuhai", True),
    ("555 QQ 23 +4 ron", "yakuhai", False),                        # a pair is no set
    ("ankan:7777 234 5 +5 rinshan", "rinshan", True),
    ("ankan:7777 234 5 +5 tsumo", "rinshan", False),
])
def test_each_yaku_and_its_near_miss(text, key, has):
    assert (key in items(text)) is has, (text, items(text))


def test_yakuhai_counts_per_set_and_jqk():
    assert items("TTT QQQ 5 +5 ron") == {"ryankoutsu": 1, "yakuhai": 2}
    assert items("JJJ QQQ K +K ron") == {"ryankoutsu": 1, "yakuhai": 2, "jqk": 1}


# --- additive items --------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("234 678 5 +5 ron riichi", {"tanyao": 1, "riichi": 1}),
    ("234 678 5 +5 ron wriichi", {"tanyao": 1, "double_riichi": 2}),
    ("234 678 5 +5 ron riichi ippatsu", {"tanyao": 1, "riichi": 1, "ippatsu": 1}),
    ("234s 678s X +X ron", {"chinitsu": 1}),                        # jokers never break a colour
    ("234 678 5 +5 ron first", {"tanyao": 1, "renhou": 1}),
    ("234 678 5 +5 tsumo first dealer", {"tsumo": 1, "tanyao": 1, "tenhou": 8}),
    ("234 678 5 +5 tsumo first", {"tsumo": 1, "tanyao": 1, "chiihou": 8}),
    ("pon:777 234 5 +5 tsumo first", {"tanyao": 1, "pon": -1}),    # a call ends the first turn
    ("234 678 5 +5 ron nagashi", {"tanyao": 1, "nagashi": 1}),
    ("234 678 5 +5 tsumo last", {"tsumo": 1, "tanyao": 1, "haitei": 1}),
    ("234 678 5 +5 ron last", {"tanyao": 1, "houtei": 1}),
    ("kan:7777 234 5 +5 ron dora:6", {"tanyao": 1, "dora": 4}),      # revealed sets count
    ("234 678 5 +5 ron riichi ura:1 dora:4", {"tanyao": 1, "riichi": 1, "ura": 1, "dora": 2}),
    ("234 678 5 +5 ron ura:1", {"tanyao": 1}),                      # no riichi: no ura
    ("234 678 5 +5 ron riichi dora:K", {"tanyao": 1, "riichi": 1}),  # K -> A: none here
    ("123 678 5 +5 ron dora:K", {"dora": 1}),                       # K -> A
    ("nuki:XX 234 678 5 +5 ron", {"tanyao": 1, "nukidora": 2}),
])
def test_additive_items(text, expected):
    r = score_text(text, sc())
    got = {**r["items"], **r["deductions"]}
    assert got == expected, (text, got)


def test_bonuses_that_are_not_yaku():
    assert total("123 567 9 +9 ron nagashi") is None        # nagashi alone: no yaku
    assert total("123 567 9 +9 ron dora:8") is None          # dora alone: no yaku
    r = score_text("123 567 9 +9 ron nuki:X", sc())
    assert (r["valid"], r["has_yaku"], r["reason"]) == (False, False, "no yaku")
    assert total("123 567 9 +9 ron riichi") == 1             # riichi is a yaku here


# --- yakuman ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, key, value", [
    ("1234567s +8s ron", "paaren", 13),
    ("2345678h +9h tsumo", "paaren", 13),
    ("1111 999 +9 ron", "chinroutou", 13),
    ("19TJQK X +1 ron", "kokushi", 13),
    ("19TJQK X +X ron", "kokushi", 13),                      # suit-less: never one colour
    ("19TJQKs X +X ron", "kokushi_double", 26),
    ("19TJQKs X +1h ron", "kokushi", 13),                    # the head is no joker pair
])
def test_yakuman(text, key, value):
    r = score_text(text, sc())
    assert r["items"] == {key: value} and r["total"] == value, r


def test_yakuman_exclusive_option():
    assert total("1234567s +8s tsumo first dealer") == 13
    # not exclusive: 13 + tsumo + tenhou 8 + chinitsu
    assert total("1234567s +8s tsumo first dealer",
                 **{"scoring.yakuman.exclusive": False}) == 23


# --- every option bites ----------------------------------------------------------------------

@pytest.mark.parametrize("text, over, default, changed", [
    # cards.one_colour
    ("234s 678c X +X ron", {"cards.one_colour": "red_black"}, None, 1),
    ("234s 678h 5d +5c ron", {"cards.one_colour": "numbers"}, 1, 2),
    ("234s 678s X +X ron", {"cards.one_colour": "off"}, 1, None),
    ("19TJs QKc X +X ron", {"cards.one_colour": "red_black"}, 13, 26),
    ("1234567s +8h ron", {"cards.one_colour": "off"}, None, 13),      # paaren any colour
    ("1234567s +8h ron", {"cards.one_colour": "numbers"}, None, 13),
    ("234 678 5 +5 ron", {"cards.one_colour": "numbers"}, 1, 2),      # numbers ignore suits
    # a joker (the head too) is no number 1-9: it breaks `numbers`, never `suit` (spec §1)
    ("234s 678s X +X ron", {"cards.one_colour": "numbers"}, 1, None),
    ("111 TTT 9 +9 ron", {"cards.yaochu_honours": False}, 3, 2),
    # hand
    ("kan:7777 333 5 +5 ron", {"hand.koutsu_counts_kans": False}, 2, 1),
    ("2222 55 7 +7 ron", {"hand.sutoitsu_same_pairs": False}, 2, None),
    ("kan:7777 234 5 +5 tsumo", {"hand.open_kan_breaks_menzen": False}, 1, 2),
    # yaku options
    ("ankan:7777 ankan:3333 5 +5 tsumo", {"scoring.yaku.ryankantsu.stacks": False}, 4, 3),
    ("TTT JJJ Q +Q ron", {"scoring.yaku.chanta.needs_terminal": False}, 3, 4),
    ("11 99 TT J +J ron", {"scoring.yaku.chanta.on_pairs": True}, 1, 2),
    ("TTT QQQ 5 +5 ron", {"scoring.yaku.yakuhai.per_set": False}, 3, 2),
    ("nuki:X 234 678 5 +5 rinshan", {"scoring.yaku.rinshan.on_nukidora": True}, 3, 4),
    ("2255 77 9 +9 ron", {"scoring.yaku.sutoitsu.enabled": False}, 1, None),
    ("234 678 5 +5 tsumo", {"scoring.yaku.tanyao.points": 3}, 2, 4),
    # additive options
    ("234 678 5 +5 ron wriichi", {"scoring.additive.double_riichi.stacks": True}, 3, 4),
    ("234 678 5 +5 ron nagashi", {"scoring.additive.nagashi.when": "at_draw"}, 2, 1),
    ("ankan:7777 234 5 +5 rinshan last", {"scoring.additive.haitei.on_replacement": False},
     4, 3),
    ("nuki:X 234 678 5 +5 rinshan first dealer",
     {"scoring.additive.chiihou.excludes_replacement": False}, 3, 11),
    ("234 678 5 +5 ron dora:1", {"scoring.additive.dora.points": 2}, 2, 3),
    ("234 678 5 +5 ron riichi ura:1", {"scoring.additive.dora.points": 2}, 3, 4),  # ura too
    ("nuki:X 234 678 5 +5 ron", {"nukidora.in_content_checks": True}, 2, None),
    ("123 567 9 +9 ron riichi", {"scoring.additive_are_yaku": False}, 1, None),
    ("123 567 9 +9 ron", {"scoring.yaku_required": False}, None, 0),
    ("123 567 9 +9 ron", {"beginner": True}, None, 0),
    # deductions, negative wins, readings
    ("pon:555 34 66 +2 ron", {"scoring.deductions.pon_penalty": "always"}, 0, 1),
    ("pon:555 34 66 +2 ron", {"scoring.deductions.pon": 0}, 0, 1),
    ("pon:111 pon:999 5 +5 ron", {"scoring.negative_win": "literal"}, 0, -1),
    ("pon:111 pon:999 5 +5 ron", {"scoring.negative_win": "forbidden"}, 0, None),
    ("233445 5 +2 ron", {"scoring.best_decomposition": False}, 3, 2),
    # yakuman switches
    ("1234567s +8h ron", {"scoring.yakuman.paaren.one_colour": False}, None, 13),
    ("1234567s +8s ron", {"scoring.yakuman.paaren.enabled": False}, 13, None),
    ("1111 999 +9 ron", {"scoring.yakuman.chinroutou.enabled": False}, 13, 1),
    ("1111 999 +9 ron", {"hand.sutoitsu_same_pairs": False}, 13, 13),
    ("19TJQKs X +X ron", {"scoring.yakuman.kokushi_double.enabled": False}, 26, 13),
    ("19TJQKs X +X ron", {"scoring.yakuman.double_points": 39}, 26, 39),
    ("19TJQK X +1 ron", {"scoring.yakuman.kokushi.enabled": False,
                         "scoring.yakuman.kokushi_double.enabled": False}, 13, None),
])
def test_option_bites(text, over, default, changed):
    assert total(text) == default, (text, score_text(text, sc()))
    assert total(text, **over) == changed, (text, over, score_text(text, sc(**over)))


def test_open_riichi_replaces_riichi_point():
    s = sc(**{"riichi.open_riichi": "on"})
    r = score_text("234 678 5 +5 ron riichi", s, open_riichi=True)
    assert r["items"] == {"tanyao": 1, "open_riichi": 2} and r["total"] == 3
    assert score_text("234 678 5 +5 ron riichi", sc(), open_riichi=True)["total"] == 2


def test_confirmed_only_has_no_kokushi():
    r = score_text("19TJQKs X +X ron", scenario.load("ptrump_confirmed_only"))
    assert not r["valid"] and r["reason"] == "not a winning shape"


def test_notation_errors_name_the_problem():
    with pytest.raises(CardError, match="tsumo or ron"):
        score_text("234 678 5 +5", sc())
    with pytest.raises(CardError, match="must have 7"):
        score_text("234 678 5 5 ron", sc())
    with pytest.raises(CardError, match="ippatsu"):
        score_text("234 678 5 +5 ron ippatsu", sc())


# --- the kernel the engine calls -------------------------------------------------------------

def test_score_win_kernel_breakdown_sums_to_the_value():
    s = sc()
    ra, hr = build_rules_array(s), build_hand_rules(s)
    hand = np.full(8, -1, np.int64)
    hand[:4] = parse_cards("3s4h6d6c")
    rev_kind = np.array([REV_PON, REV_NONE], np.int64)
    rev_cards = np.full((2, 4), -1, np.int64)
    rev_cards[0, :3] = parse_cards("5s5h5d")
    bd = np.zeros((2, N_SLOTS), np.int64)
    win = parse_cards("2c")[0]
    value, has_yaku, ok = score_win(hand, rev_kind, rev_cards, 0, win, F_TSUMO, -1, -1, ra, hr, bd)
    assert (value, has_yaku, ok) == (0, True, True)
    assert bd[BD_POINTS, SLOT["tanyao"]] == 1 and bd[BD_POINTS, SLOT["pon"]] == -1
    assert bd[BD_COUNT, SLOT["pon"]] == 1 and bd[BD_POINTS].sum() == value
    # not complete: ok False, nothing scored
    hand[3] = parse_cards("9c")[0]
    value, has_yaku, ok = score_win(hand, rev_kind, rev_cards, 0, win, F_TSUMO, -1, -1, ra, hr, bd)
    assert (value, has_yaku, ok) == (0, False, False) and not bd.any()


def test_score_win_ctx_the_engine_view():
    s = sc()
    ra, hr = build_rules_array(s), build_hand_rules(s)
    sets = np.full((2, 4), -1, np.int64)
    sets[0, :3] = parse_cards("1h1d1c")
    sets[1, :3] = parse_cards("9s9d9c")
    kinds = np.array([SK_PON, SK_PON], np.int64)
    out = np.zeros(N_SLOTS, np.int64)
    conc = np.array(parse_cards("1s"), np.int64)
    value, raw, has_yaku = score_win_ctx(conc, sets, kinds, 2, 0, parse_cards("9h")[0],
                                         CTX_TSUMO, -1, -1, ra, hr, out)
    assert (value, raw, has_yaku) == (0, 0, False)           # 1s + 9h: no head, no win
    conc = np.array(parse_cards("5s"), np.int64)
    value, raw, has_yaku = score_win_ctx(conc, sets, kinds, 2, 0, parse_cards("5h")[0],
                                         CTX_TSUMO, -1, -1, ra, hr, out)
    assert (value, raw, has_yaku) == (0, -1, True)           # ryankoutsu 1 - 2 pons, floored
    assert out[SLOT["ryankoutsu"]] == 1 and out[SLOT["pon"]] == -2 and out[SLOT["floor"]] == 1


@pytest.mark.parametrize("in_content, expected", [
    (False, 3),     # tanyao, chinitsu, nukidora: the set-aside joker is unseen
    (True, None),   # seen: no tanyao, and a joker is no number: no chinitsu, so no yaku
])
def test_seen_nukidora_joker_breaks_numbers_chinitsu(in_content, expected):
    """Spec §1 ``numbers``: every card a number 1-9, a joker breaks it; §4
    ``nuki_in_content_checks``: whether the chinitsu test sees a set-aside joker."""
    assert total("nuki:X 234s 678s 5s +5h ron", **{
        "cards.one_colour": "numbers", "nukidora.in_content_checks": in_content}) == expected
