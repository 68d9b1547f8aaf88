"""The flat int64 rules array the kernels read, built from a validated :class:`Scenario`.

Index constants are module-level ints (numba folds them in). Enumerations are coded as below.
Hand-shape rules (deck, momo, rank-1 substitution) travel separately in
:class:`simcore.momojan.hand.HandTables`.

Score slots (the breakdown arrays ``yaku_out`` of :func:`simcore.momojan.scoring.score_hand`, and
bit i of the engine's yaku bit field): the fixed yaku in :data:`YAKU_KEYS` order, then the four
set-count slots (yaku in the old edition), then up to :data:`MAX_NEW_YAKU` picture-set yaku a
scenario adds under new names, in scenario order. Fixed slots never move;
:func:`simcore.momojan.yaku_conditions.score_slot_names` names the slots of one scenario.

Picture-set yaku (spec §8: their conditions are data) are a table of up to :data:`MAX_DATA_YAKU`
rows: the score slot (-1: unused row), the number of requirements, and up to
:data:`MAX_REQUIREMENTS` requirements, each a 5-bit mask of the pictures that may meet it (bit p =
``PICTURES[p]``) plus :data:`REQ_KAN` when only a kan meets it (``kans_of``).
"""

from __future__ import annotations

import numpy as np

from simcore.nb.layout import define_fields
from .schema import (
    DECLINED_RON, DRAW_ROUNDING, KOMI_AT, LEFTOVER_POT, PICTURES, SET_BONUS_NAMES, TIE_BREAK, YAKU,
)

YAKU_KEYS = tuple(YAKU)  # the fixed yaku, breakdown order
N_YAKU = len(YAKU_KEYS)
SLOT_SET_COUNT = N_YAKU                               # 4 slots: 4, 5, 6, 7+ sets
SLOT_NEW_YAKU = SLOT_SET_COUNT + len(SET_BONUS_NAMES)
MAX_NEW_YAKU = 8                                      # picture-set yaku a scenario may add
N_SCORE_SLOTS = SLOT_NEW_YAKU + MAX_NEW_YAKU
assert N_SCORE_SLOTS <= 63, "the engine's yaku bit field is one int64"

DATA_YAKU_KEYS = tuple(k for k, fields in YAKU.items() if "sets_of" in fields)
MAX_DATA_YAKU = len(DATA_YAKU_KEYS) + MAX_NEW_YAKU
MAX_REQUIREMENTS = 6          # a hand holds at most 6 picture sets (old edition, stand-ins)
REQ_KAN = 1 << len(PICTURES)  # requirement flag: only a kan meets it
Y = {k: i for i, k in enumerate(YAKU_KEYS)}
Y_RIICHI, Y_IPPATSU, Y_DOG, Y_MONKEY, Y_PHEASANT, Y_SUN, Y_MOON = (Y[k] for k in (
    "riichi", "ippatsu", "dog", "monkey", "pheasant", "sun", "moon"))
Y_ITTSU, Y_KIBIDANGO, Y_KERAI, Y_TAKARAMONO, Y_CHINITSU, Y_OSHIMAI = (Y[k] for k in (
    "ittsu", "kibidango", "kerai", "takaramono", "chinitsu", "oshimai"))
Y_TANYAO, Y_TOITOI, Y_SANSHOKU, Y_HONITSU, Y_HAITEI, Y_HOUTEI = (Y[k] for k in (
    "tanyao", "toitoi", "sanshoku", "honitsu", "haitei", "houtei"))
Y_KAN, Y_RINSHAN, Y_YONSHOKU = Y["kan"], Y["rinshan"], Y["yonshoku"]

# Enum codes the kernels compare against, by name (the code is the index in the schema's choices).
ROUND_CEIL, ROUND_FLOOR = (DRAW_ROUNDING.index(n) for n in ("ceil", "floor"))
DECLINED_NONE, DECLINED_RIICHI_REST = (DECLINED_RON.index(n)
                                       for n in ("none", "riichi_rest_of_round"))
TIE_FIRST_DEALER, TIE_SECOND_DEALER, TIE_DRAW = (TIE_BREAK.index(n)
                                                 for n in ("first_dealer", "second_dealer", "draw"))
POT_TO_WINNER, POT_TO_NOBODY = (LEFTOVER_POT.index(n) for n in ("winner", "nobody"))
KOMI_AT_START, KOMI_AT_END = (KOMI_AT.index(n) for n in ("start", "end"))

_SCALARS = [
    ("START_POINTS", "starting_points"), ("HAND_SIZE", "hand_size"), ("DEAD_WALL", "dead_wall"),
    ("ANTE_BASE", "ante.base"), ("ANTE_PER_REPEAT", "ante.per_repeat"),
    ("DRAW3_ENABLED", "draw_three.enabled"), ("DRAW3_MIN_STOCK", "draw_three.min_stock"),
    ("TSUMO_AFTER_DRAW3", "tsumo_after_draw_three"), ("WIN_AFTER_KAI", "win_right_after_kai"),
    ("KAI_OPTIONAL", "kai_optional"),
    ("RIICHI_ENABLED", "riichi.enabled"), ("RIICHI_MIN_STOCK", "riichi.min_stock"),
    ("IPPATSU_LOST_ON_CALL", "riichi.ippatsu_lost_on_call"),
    ("FURITEN_ENABLED", "furiten.enabled"), ("MOMO_EXEMPT", "furiten.momo_exempt"),
    ("DECLINED_RON", "furiten.declined_ron"),
    ("DRAW_KAI_POINTS", "exhaustive_draw.kai_set_points"),
    ("DRAW_CALL_POINTS", "exhaustive_draw.call_set_points"),
    ("DRAW_ROUNDING", "exhaustive_draw.rounding"),
    ("TENPAI_NEEDS_YAKU", "exhaustive_draw.tenpai_requires_yaku"),
    ("DEALERSHIPS", "game.dealerships_each"), ("STREAK_WIN", "game.dealer_streak_win"),
    ("BUST_BELOW", "game.bust_below"), ("TIE_BREAK", "game.tie_break"),
    ("LEFTOVER_POT", "game.leftover_pot"), ("POT_CARRY", "pot.carry_over"),
    ("DOUBLE_THRESHOLD", "scoring.double_threshold"), ("DOUBLE_FACTOR", "scoring.double_factor"),
    ("DORA_PER_CARD", "scoring.dora_per_card"), ("RON_BONUS", "scoring.ron_bonus"),
    ("SET_BONUS_IS_YAKU", "scoring.set_count_is_yaku"),
    ("KIBIDANGO_KAI_IS_CALL", "scoring.yaku.kibidango.kai_counts_as_call"),
    ("KIBIDANGO_RON_IN_SET", "scoring.yaku.kibidango.ron_may_complete_set"),
    ("OSHIMAI_ENDS", "scoring.yaku.oshimai.ends_game"),
    ("KAN_ENABLED", "kan.enabled"), ("KAN_CLOSED", "kan.closed"), ("KAN_OPEN", "kan.open"),
    ("KAN_ADDED", "kan.added"), ("KAN_RANK1_STAND_INS", "kan.rank1_stand_ins"),
    ("RANKS", "deck.ranks"), ("MOMO_WILD", "deck.wild_fruit"),
    ("START_BONUS_FD", "compensation.start_bonus.first_dealer"),
    ("START_BONUS_SD", "compensation.start_bonus.second_dealer"),
    ("KOMI", "compensation.komi"), ("KOMI_AT", "compensation.komi_at"),
]
_ENUMS = {"exhaustive_draw.rounding": DRAW_ROUNDING, "furiten.declined_ron": DECLINED_RON,
          "game.tie_break": TIE_BREAK, "game.leftover_pot": LEFTOVER_POT,
          "deck.wild_fruit": (None, "momo"), "compensation.komi_at": KOMI_AT}

define_fields(globals(), "RA", tuple(n for n, _ in _SCALARS))   # RA_START_POINTS, ...
RA_SET_BONUS = len(_SCALARS)                            # 4 entries: 4, 5, 6, 7+ sets
RA_YAKU_ENABLED = RA_SET_BONUS + len(SET_BONUS_NAMES)   # N_SCORE_SLOTS entries, by score slot
RA_YAKU_POINTS = RA_YAKU_ENABLED + N_SCORE_SLOTS        # (the set-count slots stay 0 in both)
RA_DATA_YAKU_SLOT = RA_YAKU_POINTS + N_SCORE_SLOTS      # MAX_DATA_YAKU rows: score slot, -1 unused
RA_DATA_YAKU_N_REQ = RA_DATA_YAKU_SLOT + MAX_DATA_YAKU  # requirements per row
RA_DATA_YAKU_REQ = RA_DATA_YAKU_N_REQ + MAX_DATA_YAKU   # MAX_DATA_YAKU x MAX_REQUIREMENTS masks
RULES_LEN = RA_DATA_YAKU_REQ + MAX_DATA_YAKU * MAX_REQUIREMENTS


def requirement_mask(requirement, kan: bool) -> int:
    """One requirement (a picture name or a list of them) as a picture mask, + REQ_KAN for kans."""
    names = [requirement] if isinstance(requirement, str) else requirement
    mask = 0
    for name in names:
        mask |= 1 << PICTURES.index(name)
    return mask | (REQ_KAN if kan else 0)


def build_rules_array(scenario) -> np.ndarray:
    ra = np.zeros(RULES_LEN, dtype=np.int64)
    for i, (_, path) in enumerate(_SCALARS):
        v = scenario.get(path)
        ra[i] = _ENUMS[path].index(v) if path in _ENUMS else int(v)
    for j, name in enumerate(SET_BONUS_NAMES):
        ra[RA_SET_BONUS + j] = scenario.get(f"scoring.set_count_bonus.{name}")
    table = scenario.get("scoring.yaku")
    new_names = [k for k in table if k not in YAKU]
    slots = [(Y[k], k) for k in YAKU_KEYS] + [(SLOT_NEW_YAKU + j, k) for j, k in enumerate(new_names)]
    ra[RA_DATA_YAKU_SLOT:RA_DATA_YAKU_SLOT + MAX_DATA_YAKU] = -1
    row = 0
    for slot, key in slots:
        ra[RA_YAKU_ENABLED + slot] = int(table[key]["enabled"])
        ra[RA_YAKU_POINTS + slot] = table[key]["points"]
        if "sets_of" not in table[key]:
            continue
        reqs = [requirement_mask(r, False) for r in table[key]["sets_of"] or ()]
        reqs += [requirement_mask(r, True) for r in table[key]["kans_of"] or ()]
        ra[RA_DATA_YAKU_SLOT + row] = slot
        ra[RA_DATA_YAKU_N_REQ + row] = len(reqs)
        base = RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS
        ra[base:base + len(reqs)] = reqs
        row += 1
    return ra
