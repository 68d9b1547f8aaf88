"""The flat int64 rules array the P-style trump kernels read, built from a validated Scenario.

One source of truth: the schema. Every rule option has a slot in schema order
(:class:`simcore.family.standard.RuleSlots`), named by its key (``RA_CARDS_ONE_COLOUR`` for
``cards.one_colour``: ints numba folds in), then the seat count and the score items' arrays.
Enumerations are stored as their code, the index of the value in the schema's choices; the code
constants below carry their names (compare ``ra[RA_CARDS_ONE_COLOUR] == ONE_COLOUR_SUIT``,
never ``== 0``).

Score items (the breakdown of :func:`simcore.ptrump.scoring.score_win`) occupy :data:`N_SLOTS`
slots named by :data:`SLOTS` (``SL_<NAME>`` constants): the 1-point yaku, the additive items, the
pon deduction, the yakuman, and ``floor`` (what ``negative_win: floor_zero`` adds back). Per slot
the array holds whether the item is enabled (``RA_ITEM_ENABLED + slot``) and its points
(``RA_ITEM_POINTS + slot``; the pon slot holds the points subtracted per pon, as a positive
number).

Hand-shape options travel separately, in H-hand's ``hr`` array: :func:`build_hand_rules` (a special
shape is a winning shape when its yaku or yakuman is enabled).

What this implementation simplifies: ``ura`` has no points of its own (each ura dora is worth
``scoring.additive.dora.points``, the spec's one ``dora_value``); the nagashi slot is enabled only
under ``nagashi.when: at_win`` (an ``at_draw`` bonus is the engine's: ``RA_NAGASHI_ENABLED``,
``RA_NAGASHI_POINTS``); the open_riichi slot only with ``riichi.open_riichi: on``.
"""

from __future__ import annotations

import re

import numpy as np

from simcore.family.standard import RuleSlots
from simcore.nb.layout import define_fields
from .schema import (
    ADDITIVE, DEPOSITS, FURITEN, IPPATSU_WINDOW, MULTIPLE_RON, NAGASHI, NEGATIVE_WIN, NEXT_DEALER,
    NOTEN_DECLARATION, NUKIDORA_MODE, ONE_COLOUR, OPEN_KAN_FROM, OPEN_RIICHI, PON_PENALTY,
    RENHOU_WINDOW, RIICHI_MIN_STOCK, ROB_NUKIDORA, SCHEMA, TARGET_TIE, URA_JOKER, YAKU,
)

# --- score slots ------------------------------------------------------------------------------
YAKU_KEYS = tuple(YAKU)                       # the 1-point yaku (is_yaku always)
ADDITIVE_KEYS = tuple(ADDITIVE)               # bonuses
NOT_YAKU_ADDITIVE = ("dora", "ura", "ura_joker", "nukidora", "nagashi")  # never satisfy the yaku rule
YAKUMAN_KEYS = ("paaren", "chinroutou", "kokushi", "kokushi_double")
SLOTS = YAKU_KEYS + ADDITIVE_KEYS + ("pon",) + YAKUMAN_KEYS + ("floor",)
YAKU_SLOTS = SLOTS                            # the name the contract uses
N_SLOTS = len(SLOTS)
SLOT = {name: i for i, name in enumerate(SLOTS)}
define_fields(globals(), "SL", SLOTS)        # SL_TSUMO, ..., SL_FLOOR
SL_FIRST_ADDITIVE = SLOT[ADDITIVE_KEYS[0]]
SL_FIRST_YAKUMAN = SLOT[YAKUMAN_KEYS[0]]

# --- enum codes (index in the schema's choices) ------------------------------------------------
ONE_COLOUR_SUIT, ONE_COLOUR_RED_BLACK, ONE_COLOUR_NUMBERS, ONE_COLOUR_OFF = (
    ONE_COLOUR.index(n) for n in ("suit", "red_black", "numbers", "off"))
FIRST_DEALER_RANDOM = -1                       # else the seat number
NEXT_DEALER_ROTATE, NEXT_DEALER_WINNER = (NEXT_DEALER.index(n) for n in ("rotate", "winner"))
OPEN_KAN_ANY, OPEN_KAN_PREVIOUS_ONLY = (OPEN_KAN_FROM.index(n) for n in ("any", "previous_only"))
NUKIDORA_REPLACE, NUKIDORA_INSTEAD_OF_DISCARD = (
    NUKIDORA_MODE.index(n) for n in ("replace", "instead_of_discard"))
ROB_NUKI_KOKUSHI_ONLY, ROB_NUKI_ANY_JOKER_WAIT = (
    ROB_NUKIDORA.index(n) for n in ("kokushi_only", "any_joker_wait"))
MULTIPLE_RON_HEAD_BUMP, MULTIPLE_RON_ALL = (MULTIPLE_RON.index(n) for n in ("head_bump", "all"))
NOTEN_DECLARATION_AUTO = NOTEN_DECLARATION.index("auto")
NEGATIVE_FLOOR_ZERO, NEGATIVE_LITERAL, NEGATIVE_FORBIDDEN = (
    NEGATIVE_WIN.index(n) for n in ("floor_zero", "literal", "forbidden"))
FURITEN_FULL, FURITEN_DISCARD_ONLY, FURITEN_NONE = (
    FURITEN.index(n) for n in ("full", "discard_only", "none"))
DEPOSITS_CARRY, DEPOSITS_LOST_AT_DRAW = (DEPOSITS.index(n) for n in ("carry", "lost_at_draw"))
RIICHI_MIN_STOCK_PLAYERS, RIICHI_MIN_STOCK_ONE = (
    RIICHI_MIN_STOCK.index(n) for n in ("players", "one"))
IPPATSU_NEXT_DISCARD = IPPATSU_WINDOW.index("next_discard")
OPEN_RIICHI_OFF, OPEN_RIICHI_ON = (OPEN_RIICHI.index(n) for n in ("off", "on"))
RENHOU_OWN_FIRST_DRAW, RENHOU_FIRST_GO_AROUND = (
    RENHOU_WINDOW.index(n) for n in ("own_first_draw", "first_go_around"))
NAGASHI_AT_WIN, NAGASHI_AT_DRAW, NAGASHI_OFF = (NAGASHI.index(n) for n in ("at_win", "at_draw", "off"))
URA_JOKER_RIICHI_ONLY, URA_JOKER_ANY_WIN = (URA_JOKER.index(n) for n in ("riichi_only", "any_win"))
PON_PENALTY_WIN_ONLY, PON_PENALTY_ALWAYS = (PON_PENALTY.index(n) for n in ("win_only", "always"))
TARGET_TIE_SHARED, TARGET_TIE_PLAY_ON = (TARGET_TIE.index(n) for n in ("shared", "play_on"))

# --- one slot per rule option, in schema order (simcore.family.standard.RuleSlots) --------------
# RA_CARDS_ONE_COLOUR, RA_MATCH_TARGET_SCORE, ...; the score items' enabled flags and points are
# read per score slot from the arrays after them (RA_ITEM_ENABLED, RA_ITEM_POINTS; nagashi's two
# are rules of the engine's too, at a draw); match.first_dealer is the seat, or -1: random.
_ITEM = re.compile(r"scoring\.(yaku|additive|yakuman)\.\w+\.(enabled|points)$")
RULE_SLOTS = RuleSlots(
    SCHEMA, encode={"match.first_dealer": (1, lambda v: [FIRST_DEALER_RANDOM if v == "random"
                                                          else int(v)])},
    apart=lambda k: bool(_ITEM.match(k)) and ".nagashi." not in k)
N_RULE_SLOTS = RULE_SLOTS.define(globals())
RA_N_PLAYERS = N_RULE_SLOTS                    # 2 or 3: the number of seats (not a rule)
RA_ITEM_ENABLED = RA_N_PLAYERS + 1             # N_SLOTS entries, by score slot
RA_ITEM_POINTS = RA_ITEM_ENABLED + N_SLOTS     # N_SLOTS entries, by score slot
RULES_LEN = RA_ITEM_POINTS + N_SLOTS
SCALAR_NAMES = tuple(n.upper() for n in RULE_SLOTS.names) + ("N_PLAYERS",)


def _item_path(slot_name: str) -> tuple[str, str | None]:
    """(enabled key path, points key path) of a score slot; None where the schema has none."""
    if slot_name in YAKU:
        base = f"scoring.yaku.{slot_name}"
        return f"{base}.enabled", f"{base}.points"
    if slot_name in ADDITIVE:
        base = f"scoring.additive.{slot_name}"
        if slot_name == "ura":   # one dora_value for dora and ura (spec §8)
            return f"{base}.enabled", "scoring.additive.dora.points"
        return f"{base}.enabled", f"{base}.points"
    if slot_name == "pon":
        return None, "scoring.deductions.pon"
    if slot_name in YAKUMAN_KEYS:
        pts = "scoring.yakuman.double_points" if slot_name == "kokushi_double" \
            else "scoring.yakuman.points"
        return f"scoring.yakuman.{slot_name}.enabled", pts
    return None, None   # floor


def build_rules_array(scenario) -> np.ndarray:
    """int64[RULES_LEN] for ``scenario`` (a validated :class:`simcore.ptrump.scenario.Scenario`)."""
    ra = np.zeros(RULES_LEN, dtype=np.int64)
    ra[:N_RULE_SLOTS] = RULE_SLOTS.array(scenario)
    ra[RA_N_PLAYERS] = len(scenario.get("players"))
    for slot, name in enumerate(SLOTS):
        en, pts = _item_path(name)
        ra[RA_ITEM_ENABLED + slot] = 1 if en is None else int(scenario.get(en))
        ra[RA_ITEM_POINTS + slot] = 0 if pts is None else int(scenario.get(pts))
    if scenario.get("scoring.additive.nagashi.when") != "at_win":
        ra[RA_ITEM_ENABLED + SLOT["nagashi"]] = 0   # a draw bonus (at_draw) or off: not at a win
    if scenario.get("riichi.open_riichi") == "off":
        ra[RA_ITEM_ENABLED + SLOT["open_riichi"]] = 0
    return ra


def build_hand_rules(scenario) -> np.ndarray:
    """H-hand's shape-rules array ``hr`` (:func:`simcore.ptrump.hand.hand_rules_array`) for
    ``scenario``: a special shape is a winning shape when its yaku is enabled."""
    from .hand import hand_rules_array

    return hand_rules_array(
        sutoitsu_same_pairs=scenario.get("hand.sutoitsu_same_pairs"),
        sutoitsu=scenario.get("scoring.yaku.sutoitsu.enabled"),
        paaren=scenario.get("scoring.yakuman.paaren.enabled"),
        kokushi=scenario.get("scoring.yakuman.kokushi.enabled"),
        chinroutou=scenario.get("scoring.yakuman.chinroutou.enabled"),
    )


def rules_summary(ra) -> dict:
    """``{RA name: value}`` of the rule slots and the seat count (for debugging and tests)."""
    return {name: int(ra[i]) for i, name in enumerate(SCALAR_NAMES)}
