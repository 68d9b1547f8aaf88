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

from simcore.family.standard import RuleSlots
from .cards import N_PICTURES
from .schema import (
    DECLINED_RON, DRAW_ROUNDING, KOMI_AT, LEFTOVER_POT, PICTURES, SCHEMA, SET_BONUS_NAMES,
    TIE_BREAK, YAKU,
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

# One slot per rule option, in schema order (simcore.family.standard.RuleSlots): RA_STARTING_POINTS,
# RA_GAME_TIE_BREAK, ... The yaku table and the set-count bonuses are read per score slot from
# the arrays after them (a scenario adds yaku the schema does not name); hand_size is a count and
# deck.wild_fruit is 1 where momo is wild (the kernels' reading of them).
SLOTS = RuleSlots(SCHEMA, encode={"hand_size": (1, lambda v: [int(v)]),
                                  "deck.wild_fruit": (1, lambda v: [int(v == "momo")])},
                  apart=lambda k: (k.startswith("scoring.yaku.") and k.endswith((".enabled",
                                                                                  ".points"))
                                   or k.startswith("scoring.set_count_bonus.")))
N_SLOTS = SLOTS.define(globals())
RA_SET_BONUS = N_SLOTS                                  # 4 entries: 4, 5, 6, 7+ sets
RA_YAKU_ENABLED = RA_SET_BONUS + len(SET_BONUS_NAMES)   # N_SCORE_SLOTS entries, by score slot
RA_YAKU_POINTS = RA_YAKU_ENABLED + N_SCORE_SLOTS        # (the set-count slots stay 0 in both)
RA_DATA_YAKU_SLOT = RA_YAKU_POINTS + N_SCORE_SLOTS      # MAX_DATA_YAKU rows: score slot, -1 unused
RA_DATA_YAKU_N_REQ = RA_DATA_YAKU_SLOT + MAX_DATA_YAKU  # requirements per row
RA_DATA_YAKU_REQ = RA_DATA_YAKU_N_REQ + MAX_DATA_YAKU   # MAX_DATA_YAKU x MAX_REQUIREMENTS masks
RA_PICTURE_VALUE = RA_DATA_YAKU_REQ + MAX_DATA_YAKU * MAX_REQUIREMENTS   # 4^5 values: below
RA_PICTURE_MET = RA_PICTURE_VALUE + 4 ** N_PICTURES                     # 4^5 bits, 64 a slot
RULES_LEN = RA_PICTURE_MET + 4 ** N_PICTURES // 64

# The value bot's estimate of the picture-set yaku (policies.momojan.worth) depends only on how
# many of each picture a hand holds, in four levels (none, one, two, three or more), each worth
# the share PICTURE_SHARES of a requirement it meets. The array ends with that estimate for each
# of the 4^5 levels (key: picture p's level in bits 2p, 2p+1): the points x share summed over the
# table's yaku, as a float64's bits, then whether some yaku is fully met.
PICTURE_SHARES = (0.0, 0.2, 0.5, 1.0)   # one card: three more copies may still make the set


def requirement_mask(requirement, kan: bool) -> int:
    """One requirement (a picture name or a list of them) as a picture mask, + REQ_KAN for kans."""
    names = [requirement] if isinstance(requirement, str) else requirement
    mask = 0
    for name in names:
        mask |= 1 << PICTURES.index(name)
    return mask | (REQ_KAN if kan else 0)


def build_rules_array(scenario) -> np.ndarray:
    ra = np.zeros(RULES_LEN, dtype=np.int64)
    ra[:N_SLOTS] = SLOTS.array(scenario)
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
    return fill_picture_table(ra)


def fill_picture_table(ra: np.ndarray) -> np.ndarray:
    """Write ``ra``'s picture-level table from its yaku slots (module comment above; call again
    after changing a yaku's points, its on/off or the data table's rows in ``ra``): per yaku of
    the data table that scores, each requirement takes the best picture not used by another
    (single-picture requirements first), its share the level's; the yaku adds points x the
    product of its requirements' shares.
    The float operations are the ones a per-hand loop would make, in the same order, so the
    estimate is the same to the bit."""
    key = np.arange(4 ** N_PICTURES)
    share = np.array(PICTURE_SHARES)[(key[:, None] >> (2 * np.arange(N_PICTURES))) & 3]
    value, met = np.zeros(key.size), np.zeros(key.size, bool)
    for row in range(MAX_DATA_YAKU):
        slot = ra[RA_DATA_YAKU_SLOT + row]
        if slot < 0:
            break
        pts = ra[RA_YAKU_POINTS + slot] if ra[RA_YAKU_ENABLED + slot] else 0
        if pts <= 0:
            continue
        base = RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS
        reqs = ra[base:base + ra[RA_DATA_YAKU_N_REQ + row]]
        low, used = np.ones(key.size), np.zeros(key.size, np.int64)
        for single in (True, False):
            for req in reqs:
                pics = int(req) & (REQ_KAN - 1)
                if (pics & (pics - 1) == 0) != single:
                    continue
                best, best_p = np.zeros(key.size), np.full(key.size, -1)
                for p in range(N_PICTURES):
                    if not req & REQ_KAN and (pics >> p) & 1:
                        better = ((used >> p) & 1 == 0) & (share[:, p] > best)
                        best, best_p = np.where(better, share[:, p], best), \
                            np.where(better, p, best_p)
                used |= np.where(best_p >= 0, 1 << np.maximum(best_p, 0), 0)
                low *= best
        value += np.float64(pts) * low
        met |= low >= 1.0
    ra[RA_PICTURE_VALUE:RA_PICTURE_MET] = value.view(np.int64)
    ra[RA_PICTURE_MET:RULES_LEN] = np.packbits(met, bitorder="little").view("<i8")
    return ra
