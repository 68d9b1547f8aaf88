"""The engine's fixed action space, decision phases and observation layout (policy interface).

Actions (int, index into the legal-action mask of length ``N_ACTIONS``):
    ``DISCARD + k``         discard card kind k (0..40)
    ``DISCARD_RIICHI + k``  discard k and declare riichi
    ``TSUMO``, ``RON``      win on the drawn card / on the opponent's last discard
    ``DRAW``                start of turn: take no call and draw one (the round ends if the stock
                            is empty: an exhaustive draw)
    ``DRAW_THREE``          after a Kai/Pon/Chi: draw three instead of discarding
    ``KAI + r``             reveal set-catalogue row r (``EngineTables.sets``) from the hand
    ``CALL + r``            Pon (r a same-number or picture set) or Chi (r a run) on the last
                            discard, forming row r with two hand cards
    ``KAN_CLOSED + k``      old edition: four cards of kind k's kan group from the hand
                            (k = picture 36..40, or the rank-1 card of a rank, 0..8 -> rank k + 1)
    ``KAN_OPEN``            old edition: three hand cards plus the last discard
    ``KAN_ADDED + g``       old edition: the drawn fourth card onto own revealed group g
    ``KAN_OPEN_AS + p``     old edition, ``kan.rank1_stand_ins``: an open kan of picture p
                            (0..4) on a discarded rank-1 card standing in for it, with three
                            hand cards of that picture's kan group (at least one real copy)
    ``KAN_ADDED_AS + p * MAX_REVEALED + g``  the same: a real copy of picture p added onto own
                            revealed rank-1 same-number set g, which the kan fixes as picture p
                            (spec §10; ``KAN_ADDED + g`` there adds the fourth rank-1 fruit)

Observation (int64 array of ``OBS_LEN``; masks are uint64 bit patterns stored as int64): see the
``OBS_*`` constants. Hand masks use the layout of :mod:`simcore.momojan.cards`; ``*_DISCARDS`` are
kind sets.
"""

from .cards import N_KINDS, N_PICTURES
from simcore.nb.layout import define_fields

N_KIND = N_KINDS  # alias of cards.N_KINDS (still imported by policies/play.py)
MAX_SET_ROWS = 256

DISCARD = 0
DISCARD_RIICHI = DISCARD + N_KINDS
TSUMO = DISCARD_RIICHI + N_KINDS
RON = TSUMO + 1
DRAW = RON + 1
DRAW_THREE = DRAW + 1
KAI = DRAW_THREE + 1
CALL = KAI + MAX_SET_ROWS
KAN_CLOSED = CALL + MAX_SET_ROWS
KAN_OPEN = KAN_CLOSED + N_KINDS
KAN_ADDED = KAN_OPEN + 1
MAX_REVEALED = 10  # revealed groups per player (scoring imports it)
KAN_OPEN_AS = KAN_ADDED + MAX_REVEALED
KAN_ADDED_AS = KAN_OPEN_AS + N_PICTURES
N_ACTIONS = KAN_ADDED_AS + N_PICTURES * MAX_REVEALED

# Phases of a decision.
PH_START = 0          # turn start: ron, call (Pon/Chi/open kan) or draw
PH_AFTER_DRAW = 1     # after a one-card (or kan replacement) draw: tsumo, Kai, kan, discard
PH_AFTER_REVEAL = 2   # after Kai/Pon/Chi: draw three or discard
PH_AFTER_DRAW3 = 3    # after a three-card draw: tsumo (if allowed), Kai again, discard
PHASE_NAMES = ("start", "after_draw", "after_reveal", "after_draw_three")

# Observation fields, in order; defines OBS_HAND, OBS_OWN_REVEALED, ... (OBS_WORK and OBS_LEN below).
OBS_FIELDS = (
    "hand",             # uint64 hand mask of the concealed hand
    "own_revealed",     # uint64 hand mask of own revealed groups
    "opp_revealed",     # uint64 hand mask of the opponent's revealed groups
    "own_n_revealed",   # own revealed groups
    "opp_n_revealed",
    "own_discards",     # uint64 kind set of own discards (furiten)
    "opp_discards",     # uint64 kind set of the opponent's discards
    "dora_indicator",   # kind
    "stock",            # cards left in the stock
    "own_score",
    "opp_score",
    "pot",
    "own_riichi",       # 1 once declared
    "opp_riichi",
    "phase",            # PH_*
    "last_discard",     # kind of the opponent's discard on offer (-1: none)
    "seat",
    "dealer",
    "drawn",            # kind of the card drawn this turn (-1: none)
    "opp_hand_size",
    "turn",             # turns played this round (both seats), from 1
    "tenpai_checked",   # see below
    "seen",             # uint64 hand mask, see below
    "n_legal",          # how many actions the mask allows (random_pick reads it)
)
OBS_WORK = define_fields(globals(), "OBS", OBS_FIELDS)
OBS_LEN = OBS_WORK + 2 * N_KIND
# OBS_WORK: 2 x N_KIND slots after the fields, a bot's scratch within one decision (the engine
# never reads them and no bot reads them across decisions): a decision allocates nothing.
# OBS_SEEN: hand mask of every card the seat can see (own hand, both players' revealed sets and
# uncalled discards, the dora indicator); unseen copies of kind k = deck copies - count in it.
# OBS_TENPAI_CHECKED = 1: the engine checked every discard for riichi, so the legal
# DISCARD_RIICHI actions are exactly the discards that leave the hand tenpai.


def action_name(a: int) -> str:
    from .cards import card_str
    if a < DISCARD_RIICHI:
        return f"discard {card_str(a - DISCARD)}"
    if a < TSUMO:
        return f"riichi discarding {card_str(a - DISCARD_RIICHI)}"
    names = {TSUMO: "tsumo", RON: "ron", DRAW: "draw", DRAW_THREE: "draw three", KAN_OPEN: "open kan"}
    if a in names:
        return names[a]
    if a < CALL:
        return f"kai row {a - KAI}"
    if a < KAN_CLOSED:
        return f"call row {a - CALL}"
    if a < KAN_OPEN:
        return f"closed kan {card_str(a - KAN_CLOSED)}"
    if a < KAN_OPEN_AS:
        return f"added kan on group {a - KAN_ADDED}"
    from .cards import FIRST_PICTURE_KIND
    if a < KAN_ADDED_AS:
        return f"open kan of {card_str(FIRST_PICTURE_KIND + a - KAN_OPEN_AS)} (a rank-1 stand-in)"
    p, g = divmod(a - KAN_ADDED_AS, MAX_REVEALED)
    return f"added kan of {card_str(FIRST_PICTURE_KIND + p)} on group {g}"
