"""The emoji mahjong scenario schema: every rule option of the spec (emoji.md §13), with type,
range, default and tag. Tags: ``R`` stated by the source, ``I`` our reading (an option), ``X``
reconstructed (editable), ``T`` a setting of the tool. A scenario groups the spec's flat option
names (``tsumo_payment`` is ``settlement.tsumo_payment``); :data:`SPEC_OPTIONS` maps each.
"""

from __future__ import annotations

from simcore.family.scenario import schema as schema_common
from simcore.family.scenario.schema import Field
from simcore.family.standard import RuleSlots
from .scoring import DEFAULT_MULTIPLIERS, YAKU
from .tiles import HONOUR_NAMES, N_NUMBER_KINDS

GAME = "emoji"
_int = schema_common.int_field
_bool = schema_common.bool_field
_enum = schema_common.enum_field   # an [I] reading by default: its choices, the default first


def _choice(default, choices, doc, tag="I"):
    return Field("enum", default, doc, tag, choices=tuple(choices))


def _number(default, doc, tag="R", lo=0.0):
    return Field("number", default, doc, tag, min=lo)


# the multipliers the source gives (spec §8.3): machibuse x2, nakayoshi (all_runs) x1.5
GIVEN = ("machibuse", "all_runs")
YAKU_DOCS = {
    "machibuse": "まちぶせ: won after declaring riichi",
    "debana_machibuse": "でばなまちぶせ: riichi declared in turn 1",
    "all_runs": "なかよし (our reading): both sets runs",
    "tanyao": "all 8 tiles number tiles of rank 2-8",
    "tsumo": "won on one's own draw",
    "four_pairs": "the four-pairs shape",
    "chanta": "both sets hold a 1 or a 9 (an honour triplet does not count)",
    "last_tile": "さいごのいちまい: won in the last turn",
    "half_flush": "one number suit plus at least one honour",
    "full_flush": "いろぞろい: all 8 tiles number tiles of one suit",
    "tenhou": "complete as dealt: a tsumo in turn 1",
    "honor_triplet": "at least one set an honour triplet",
    "all_triplets": "both sets triplets",
    "twin_runs": "the two sets the same run",
    "sangen": "さんげんそろい: triplets of two honours and a pair of the third",
    "three_suit": "triplets of rank n in two suits and a pair of rank n in the third",
}

SCHEMA = {
    "game": Field("game", GAME, "names the game family", "R"),
    "name": Field("str", None, "scenario name (defaults to the file name)", "T"),
    "description": Field("str", "", "what this variant is for", "T"),
    "players": Field("players", [{"policy": "greedy", "params": {}}] * 4,
                     "the four seats in order, each {policy: NAME, params: {NAME: number}}", "I"),
    "chips": {
        "start": _int(5000, "chips each seat starts with (S26)", min=0, max=10 ** 9),
        "ante": _int(20, "put into the pot by every seat before each round (S26)", min=0,
                     max=10 ** 9),
        "riichi_deposit": _int(100, "paid into the pot with a riichi declaration (S73's 供託100)",
                               "I", min=0, max=10 ** 9),
    },
    "game_length": {
        "regular_rounds": _int(8, "rounds E1-S4 (S74)", min=1, max=12),
        "west_rounds": _int(4, "West rounds played when the chips are close after S4 (S74)",
                            min=0, max=4),
        "west_gap": _int(1000, "top minus bottom at most this many chips: West is played (S74)",
                         min=0, max=10 ** 9),
        "west_mode": _enum(("all_four", "sudden_death"),
                           "all_four: W1-W4 all played; sudden_death: end after a West round once "
                           "the gap is over west_gap"),
        "bust_check": _enum(("round_end", "any_time"),
                            "round_end: below 0 after the settlement makes that round the last; "
                            "any_time: at any moment of the round (an ante, a deposit)"),
        "first_dealer": _enum(("seat0", "random"),
                              "seat0: round r's dealer is seat r mod 4; random: E1's dealer drawn "
                              "from the game's seed"),
        "rank_ties": _enum(("shared", "dealer_order"),
                           "shared: equal top chips share the win; dealer_order: the first of them "
                           "in E1's seat order wins"),
        "pot_at_game_end": _enum(("discard", "to_top"), "a pot left at the end: discarded, or to "
                                 "the first-ranked seat"),
    },
    "wall": {
        "indicator": _enum(("removed", "in_wall"),
                           "removed: wall[28] is set aside (61 live tiles); in_wall: a uniformly "
                           "chosen live tile that stays drawable"),
        "dora_next": _enum(("per_suit", "global"),
                           "per_suit: rank + 1 within the suit, 9 -> 1; global: the next kind id "
                           "mod 30"),
        "honor_cycle": Field("honours", ["cat", "fish", "bird"], "the honours' dora order "
                             "(the one after the last is the first)", "I"),
        "turns": Field("turns", "auto", "auto: floor(live tiles / 4) = 15; or fewer turns "
                       "(1-15)", "I"),
    },
    "shapes": {
        "wrap_runs": _bool(False, "8-9-1 and 9-1-2 are runs too", "I"),
        "decomposition": _choice("best", ("best", "basic_first"), "best: the decomposition of "
                                 "highest value counts; basic_first: a basic one whenever one "
                                 "exists"),
        "tenpai": _enum(("shape", "live_wait"),
                        "at the draw, shape: a wait by "
                        "shape; live_wait: a wait with an unseen copy"),
        "require_yaku": _bool(False, "a completion with no yaku is no win", "I"),
        "furiten": _enum(("none", "discards"),
                         "none: the source has none; discards: no ron while a wait is among one's "
                         "own discards"),
    },
    "turn": {
        "tsumo_ends_turn": _bool(True, "a tsumo ends the turn before the discards (false: the "
                                 "others' discards and rons settle with it)", "I"),
        "simultaneous_wins": _enum(("all", "first_from_dealer"), "all: every completing seat wins; "
                                   "first_from_dealer: only the first in dealer order"),
        "invalid_action": _enum(("default", "error"), "default: an illegal or no answer is the "
                                "drawn tile; error: raise (tests)"),
        "wait_count_info": _enum(("public", "wall"), "public: the bots count unseen copies from "
                                 "public information; wall: the copies left in the live wall "
                                 "(experiments only: it leaks the others' hands)"),
    },
    "riichi": {
        "min_chips": _int(0, "chips a seat needs to declare riichi", "I", min=0, max=10 ** 9),
        "last_turn": _bool(True, "riichi may be declared in the last turn", "I"),
        "if_ronned": _enum(("stands", "void"), "stands: a ronned riichi discard keeps its "
                           "deposit in the pot; void: cancelled, the deposit returned"),
    },
    "settlement": {
        "tsumo_payment": _enum(("split", "each_full"), "split: the three others pay a third each; "
                               "each_full: each pays the whole value"),
        "tsumo_split_rounding": _enum(("exact", "ceil"), "exact: floor thirds, the first "
                                      "payers after the winner pay the remainder; ceil"),
        "tsumo_winners_pay_each_other": _bool(True, "several tsumo winners pay each other",
                                              "I"),
        "ron_source": _enum(("best_for_winner", "nearest_seat", "split", "each_full"),
                            "a seat that could ron several discards: best_for_winner, "
                            "nearest_seat, split, each_full"),
        "multi_winner_pot": _enum(("split", "first_in_dealer_order"),
                                  "split among the winners, or all to the first in dealer order"),
        "pot_remainder": _enum(("dealer_order", "carry"),
                               "a split pot's remainder: to the first winner in dealer order, or "
                               "carried"),
        "draw_no_tenpai_pot": _enum(("carry", "discard", "split_all"),
                                    "a draw with nobody tenpai: the pot carries, is discarded, or "
                                    "splits among all four"),
        "payments": _enum(("uncapped", "cap_at_balance"),
                          "uncapped: chips may go negative; cap_at_balance: a payer pays at most "
                          "its balance"),
    },
    "scoring": {
        "base": _number(100, "chips of a x1 win (S30)"),
        "dealer_factor": _number(1.5, "the dealer's win multiplied by this (S33)", lo=1.0),
        "dora_points": _number(100, "chips per dora tile among the 8, after the multipliers "
                               "(S28, S73)"),
        "rounding": _choice("half_up", ("half_up", "floor", "ceil"), "how the multiplied "
                            "value is rounded, once, before the dora"),
        "dora_includes_win_tile": _bool(True, "the winning tile counts as dora", "I"),
        "half_flush_needs_number": _bool(True, "half flush needs a number tile (false: an "
                                         "all-honour hand counts)", "I"),
        "honor_triplet_per_set": _bool(False, "the honour triplet multiplies once per honour "
                                       "triplet", "I"),
        "chanta_four_pairs": _bool(False, "chanta also on four pairs that all hold a 1 or 9",
                                   "I"),
        "tenhou_seats": _enum(("any", "dealer_only"), "any seat's turn-1 tsumo is tenhou, or the "
                              "dealer's only"),
        "tenhou_is_tsumo": _bool(True, "a tenhou counts the tsumo yaku too", "I"),
        "last_tile_scope": _enum(("whole_turn", "drawn_tile"),
                                 "whole_turn: any win in the last turn; drawn_tile: the winning "
                                 "tile itself was drawn in it"),
        "supersedes": Field("supersedes", {}, "literal stacking ({}) or a map of yaku to the "
                            "yaku each supersedes, e.g. {debana_machibuse: [machibuse]}", "I"),
        "nakayoshi": _choice("all_runs", ("all_runs", "four_pairs", "twin_runs"), "which yaku "
                             "the source's なかよし x1.5 is: its multiplier must be 1.5"),
        "calibration": _choice("source_max", ("source_max", "free"), "source_max: refuse a "
                               "multiplier table that misses the source's x1,215 maximum "
                               "(spec §8.4); free: no check"),
        "yaku": {name: Field("multiplier", DEFAULT_MULTIPLIERS[name],
                             f"{YAKU_DOCS[name]}: its multiplier (off: not counted)",
                             "R" if name in GIVEN else "X") for name in YAKU},
    },
    "run": {
        "games": _int(10000, "games per run", "T", min=1, max=2 ** 63 - 1),
        "seed": _int(0, "base seed: everything of game i derives from (seed, i)", "T", min=0,
                     max=2 ** 64 - 1),
        "workers": _int(0, "worker processes (0: one per core)", "T", min=0),
    },
}



def _honour_cycle(cycle) -> list:
    """wall.honor_cycle's three slots: slot i holds the kind of the honour after honour i."""
    out = [0, 0, 0]
    for i, h in enumerate(cycle):
        out[HONOUR_NAMES.index(h)] = N_NUMBER_KINDS + HONOUR_NAMES.index(cycle[(i + 1) % 3])
    return out


# the engine's rules array: a slot per option (wall.turns: 0 for auto); the scoring options of
# kinds number, multiplier and supersedes are the scoring array's (rules_array's sr)
SLOTS = RuleSlots(SCHEMA, encode={"wall.honor_cycle": (3, _honour_cycle),
                                  "wall.turns": (1, lambda v: [0 if v == "auto" else v])})


def field_at(path: str) -> Field:
    node = SCHEMA
    for k in path.split("."):
        node = node[k]
    return node


def worst_cases(d: dict) -> list:
    """What the engine forms from emoji's numbers and what stores it (simcore.family.scenario.bounds):
    a win's value (a float the engine rounds into 64-bit chips; the records' value columns are
    32-bit) and a seat's chips or the pot (the records' chips and pot columns, 32-bit). Chips
    and pot together stay 4 x start (spec §9.6); a seat at 0 or above before a round loses at
    most the ante, a deposit and three wins in it (each_full, or three winners) before the
    game ends on its negative balance, so no seat holds more than 4 x start + 3 such losses, and
    the pot, which every seat pays into, no more than 4 x start + 4 (the conformance check's
    storage play found a pot_taken of 4 antes past 32 bits under a bound of 3; issue 47)."""
    from simcore.family.scenario.bounds import INT32_MAX, Worst
    from .calibration import max_win_value
    value_keys = ("scoring.base", "scoring.dealer_factor", "scoring.dora_points",
                  *(f"scoring.yaku.{name}" for name in YAKU))

    def chips(d):
        c = d["chips"]
        return 4 * c["start"] + 4 * (c["ante"] + c["riichi_deposit"] + 3 * max_win_value(d))

    return [Worst("a win's value", max_win_value, value_keys, INT32_MAX,
                  "the records' value0..value3 columns", "chips"),
            Worst("a seat's chips (or the pot)", chips,
                  ("chips.start", "chips.ante", "chips.riichi_deposit", *value_keys), INT32_MAX,
                  "the records' chips and pot columns", "chips")]
