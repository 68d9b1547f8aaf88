"""The riichi2p scenario schema: every option of the spec's table (riichi2p.md §12), flat and
under the spec's names, with type, default and tag. Tags: ``R`` stated by the source, ``I`` our
reading (an option), ``X`` reconstructed (editable), ``G`` the source's option with a guessed
default (its table marked defaults by a colour that is lost), ``T`` a setting of the tool.
"""

from __future__ import annotations

from simcore.family.scenario import schema as schema_common
from simcore.family.scenario.schema import Field
from simcore.family.standard import RuleSlots

GAME = "riichi2p"
_int = schema_common.int_field
_bool = schema_common.bool_field


def _enum(default, choices, doc, tag="I"):
    return Field("enum", default, doc, tag, choices=tuple(choices))


def _points(default, doc, tag="R", lo=0):
    """A whole number of points, a multiple of 100."""
    return Field("points", default, doc, tag, min=lo, max=10 ** 9)


SCHEMA = {
    "game": Field("game", GAME, "names the game family", "R"),
    "name": Field("str", None, "scenario name (defaults to the file name)", "T"),
    "description": Field("str", "", "what this variant is for", "T"),
    "players": Field("players", [{"policy": "greedy", "params": {}}] * 2,
                     "the two seats in order, each {policy: NAME, params: {NAME: number}}", "I"),
    # setup
    "start_points": Field("start_points", [25000, 25000], "points at the start, the first "
                          "dealer's seat first (003 sets them by the COM's level)", "X"),
    "first_dealer": _enum("random", ("random", 0, 1), "who deals E1: drawn from the game's "
                          "seed, or seat 0 or 1"),
    "live_wall": _int(36, "tiles that can be drawn in a hand, the dealer's first draw "
                      "included (18 draws each); 96 is the whole wall", "X", min=1, max=96),
    "seat_winds": _enum("east_south", ("east_south", "east_west"), "the non-dealer's seat "
                        "wind: South, or West (facing each other)"),
    # 基本
    "atozuke": _bool(True, "後付け: a yaku may come from the last tile or a later call", "R"),
    "atozuke_first_call": _enum("discard_call", ("discard_call", "literal"), "with atozuke "
                                "false: which call is the first (discard_call: chi, pon, "
                                "daiminkan; literal: chi, pon, kakan)"),
    "atozuke_whole_hand_yaku": _enum("count", ("count", "ignore"), "with atozuke false: "
                                     "whether whole-hand yaku (tanyao, honitsu ...) include the "
                                     "first called tile"),
    "kuikae": _enum("forbid", ("allow", "genbutsu_only", "forbid"), "喰い替え right after a "
                    "chi or pon: allow; genbutsu_only bans the called kind; forbid bans it and "
                    "the suji tile (usual online: forbid)", "G"),
    "ryanhan_shibari": _bool(False, "二飜縛り: from shibari_honba honba on, a win needs 2 han "
                             "of yaku", "R"),
    "shibari_honba": _int(5, "the honba from which the 2-han minimum applies", "R", min=1,
                          max=1000),
    "noten_dealer_passes": _enum("always", ("always", "east_only", "never"), "a noten dealer "
                                 "at an exhaustive draw passes the deal: always, only in the "
                                 "East round, never", "R"),
    "suukaikan": _bool(True, "四槓散了: four kans by both players end the hand", "R"),
    "kyuushu": _bool(True, "九種九牌: nine yaochu kinds on the first turn may abort the hand",
                     "R"),
    "noten_penalty": _points(1500, "罰符 a noten player pays when the other is tenpai (003: "
                             "3000, 1500 or 0)"),
    "noten_penalty_to": _enum("transfer", ("transfer", "damage_only"), "the noten penalty goes "
                              "to the tenpai player, or only is lost"),
    "honba_value": _points(300, "points per honba, paid by the loser (003: 1500, 300 or 0)"),
    "honba_after_draw": _enum("add", ("add", "reset_on_pass"), "after an exhaustive draw honba "
                              "+1 always, or reset when the deal passes"),
    "yakuman_stacking": _bool(True, "役満の重複: different yakuman in a hand add up", "R"),
    # 得点計算
    "kazoe_yakuman": _bool(True, "数え役満: 13+ han is a yakuman (false: sanbaiman cap)", "R"),
    "kiriage": _bool(False, "切り上げ満貫: 4 han 30 fu and 3 han 60 fu are mangan (usual "
                     "online: off)", "G"),
    "double_wind_pair_fu": Field("enum", 4, "fu of a double-wind pair (usual online 4, "
                                 "competition 2)", "G", choices=(2, 4)),
    "open_pinfu_fu": _bool(True, "平和加符: an open hand with no fu won by ron scores 30 fu",
                           "R"),
    # ドラ
    "ura_dora": _bool(True, "裏ドラ at a win", "R"),
    "kan_dora": _bool(True, "カンドラ: each kan turns an indicator at once", "R"),
    "kan_ura_dora": _bool(True, "カン裏: the ura under each kan indicator count too", "R"),
    "ura_needs_riichi": _bool(True, "ura count only on a riichi win (the standard rule)", "I"),
    "red_fives": _bool(False, "赤五牌: one red five per suit, each +1 han (usual online: on)",
                       "G"),
    # 各役のルール
    "kuitan": _bool(True, "喰いタン: tanyao with calls", "R"),
    "pinfu_tsumo": _bool(True, "平和ツモ: pinfu on tsumo (20 fu, no tsumo fu)", "R"),
    "chiitoitsu": _enum("25fu2han", ("25fu2han", "50fu1han"), "七対子's value", "R"),
    "honroutou_han": Field("enum", 2, "混老頭's han (usual 2)", "G", choices=(2, 3)),
    "ryanpeikou_han": Field("enum", 3, "二盃口's han (usual 3)", "G", choices=(2, 3)),
    "double_yakuman": _bool(False, "13-sided kokushi, pure chuuren, suuankou tanki, daisuushii "
                            "and suukantsu count double (Tenhou false, Mahjong Soul true)", "G"),
    "ryuuiisou_without_hatsu": _bool(True, "緑一色 needs no hatsu (usual and 002: true)", "G"),
    "chuuren_suits": _enum("any", ("any", "man_only"), "九連宝燈 in any suit, or in man only",
                           "G"),
    "kokushi_ankan_ron": _bool(False, "a kokushi may ron the opponent's ankan", "R"),
    # 役の有無
    "ippatsu": _bool(True, "一発: 1 han for a win within one go-round of riichi", "R"),
    "isshoku_sanjun": _bool(False, "一色三順: three identical runs, 2 han (1 open)", "G"),
    "sanrenkou": _bool(False, "三連刻: three consecutive triplets of one suit, 2 han", "G"),
    "suurenkou": _bool(False, "四連刻: four consecutive triplets, yakuman", "G"),
    "daisharin": _bool(False, "大車輪: pin pairs in a row, yakuman", "G"),
    "sanrenkou_open_han": Field("enum", 2, "三連刻 in an open hand", "I", choices=(2, 1)),
    "daisharin_ranks": _enum("2to8", ("2to8", "any7"), "大車輪 is 22334455667788p, or any "
                             "seven consecutive pin pairs"),
    "renhou": _enum("none", ("none", "mangan", "baiman"), "人和: the non-dealer's ron before "
                    "its first draw, a flat 8000 or 16000", "G"),
    "paarenchan": _bool(False, "八連荘: the 8th consecutive win is a yakuman", "G"),
    "paarenchan_value": _int(1, "八連荘's yakuman multiplier", "X", min=1, max=6),
    "paarenchan_counts": _enum("dealer_wins", ("dealer_wins", "player_wins"), "which wins "
                               "count: consecutive wins as dealer, or by one player"),
    "paarenchan_draw": _enum("reset", ("reset", "pause"), "a drawn hand breaks the run, or "
                             "neither counts nor breaks it"),
    "shiisan_puutaa": _bool(False, "十三不塔: 13 unconnected kinds and one pair on the first "
                            "draw, yakuman", "G"),
    "shiisan_puutaa_value": _int(1, "十三不塔's yakuman multiplier", "X", min=1, max=6),
    "nagashi_mangan": _enum("none", ("none", "plain", "void_if_called"), "流し満貫 at an "
                            "exhaustive draw: the opponent loses a mangan (usual online: "
                            "void_if_called)", "G"),
    "nagashi_void_on": _enum("discard_called", ("discard_called", "own_call", "any_call"),
                             "with void_if_called: what voids it"),
    "nagashi_honba": _bool(False, "the nagashi payment carries honba", "I"),
    # riichi, furiten, tenpai
    "riichi_deposit": _points(1000, "リーチ供託料, into the pool"),
    "riichi_min_points": _points(1000, "points needed to declare riichi (900 or less: no)"),
    "riichi_min_wall": _int(2, "live tiles left needed to declare riichi", "R", min=0,
                            max=96),
    "riichi_pass_win": _enum("furiten", ("furiten", "forced"), "a riichi player letting a win "
                             "pass is furiten for the hand, or must take every win"),
    "riichi_ankan_drawn_only": _bool(True, "an ankan in riichi uses the tile just drawn", "I"),
    "tenpai_all_four_in_hand": _bool(False, "a kind the player holds all four of is a wait",
                                     "I"),
    "tenpai_declaration": _enum("auto", ("auto", "choose"), "at an exhaustive draw the engine "
                                "judges tenpai (choose: not built yet)"),
    "riichi_pot": _enum("to_winner", ("to_winner", "vanish"), "the pool goes to the next "
                        "winner; vanish: a designer variant, deposits are lost", "R"),
    # game end
    "bust": _enum("at_or_below_zero", ("at_or_below_zero", "below_zero"), "a player with 0 "
                  "points has lost, or only below 0"),
    "both_bust": _enum("higher_score", ("higher_score", "draw"), "both out in one "
                       "settlement: the higher score wins (equal: a drawn game), or a draw"),
    "max_hands": _int(500, "safety cap: a game reaching it is unfinished, the leader wins", "I",
                      min=1, max=100000),
    "run": {
        "games": _int(10000, "games per run", "T", min=1, max=2 ** 63 - 1),
        "seed": _int(0, "base seed: everything of game i derives from (seed, i)", "T", min=0,
                     max=2 ** 64 - 1),
        "workers": _int(0, "worker processes (0: one per core)", "T", min=0),
    },
}

SLOTS = RuleSlots(SCHEMA)   # the engine's rules array: one slot per option, in this order

# dependent keys: key -> (parent key, the parent's values under which it matters)
DEPENDS = {
    "atozuke_first_call": ("atozuke", (False,)),
    "atozuke_whole_hand_yaku": ("atozuke", (False,)),
    "shibari_honba": ("ryanhan_shibari", (True,)),
    "sanrenkou_open_han": ("sanrenkou", (True,)),
    "daisharin_ranks": ("daisharin", (True,)),
    "paarenchan_value": ("paarenchan", (True,)),
    "paarenchan_counts": ("paarenchan", (True,)),
    "paarenchan_draw": ("paarenchan", (True,)),
    "shiisan_puutaa_value": ("shiisan_puutaa", (True,)),
    "nagashi_void_on": ("nagashi_mangan", ("void_if_called",)),
    "nagashi_honba": ("nagashi_mangan", ("plain", "void_if_called")),
    "kan_ura_dora": ("ura_dora", (True,)),
    "ura_needs_riichi": ("ura_dora", (True,)),
}


def field_at(path: str) -> Field:
    node = SCHEMA
    for k in path.split("."):
        node = node[k]
    return node


def worst_cases(d: dict) -> list:
    """What the engine forms from riichi2p's numbers and what stores it (simcore.family.scenario.bounds):
    a hand's payment (yakuman at most 6 x 8000 a yakuman, every yakuman doubled and stacked
    with 八連荘 and 十三不塔, plus a honba payment for each hand the game can last: the records'
    pay column, 32-bit) and a seat's score or the pool (no seat holds more than the start
    points together, §10.2, and the game ends once one is out, so a score falls at most one
    hand's payment, noten penalty and deposit below 0: the records' score and pool columns,
    32-bit)."""
    from simcore.family.scenario.bounds import INT32_MAX, Worst
    from .scoring import YAKUMAN

    def pay(d):
        most_yakuman = 2 * len(YAKUMAN) + d["paarenchan_value"] + d["shiisan_puutaa_value"]
        return 6 * 8000 * most_yakuman + d["max_hands"] * d["honba_value"]

    def score(d):
        return sum(d["start_points"]) + pay(d) + d["noten_penalty"] + d["riichi_deposit"]

    pay_keys = ("honba_value", "max_hands", "paarenchan_value", "shiisan_puutaa_value")
    return [Worst("a hand's payment", pay, pay_keys, INT32_MAX, "the records' pay column",
                  "points"),
            Worst("a seat's score (or the pool)", score,
                  ("start_points", "noten_penalty", "riichi_deposit", *pay_keys), INT32_MAX,
                  "the records' score and pool columns", "points")]
