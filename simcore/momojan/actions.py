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

Observation (int64 array of ``OBS_LEN``; masks are uint64 bit patterns stored as int64): see the
``OBS_*`` constants. Hand masks use the layout of :mod:`simcore.momojan.cards`; ``*_DISCARDS`` are
kind sets.
"""

N_KIND = 41
MAX_SET_ROWS = 256

DISCARD = 0
DISCARD_RIICHI = DISCARD + N_KIND
TSUMO = DISCARD_RIICHI + N_KIND
RON = TSUMO + 1
DRAW = RON + 1
DRAW_THREE = DRAW + 1
KAI = DRAW_THREE + 1
CALL = KAI + MAX_SET_ROWS
KAN_CLOSED = CALL + MAX_SET_ROWS
KAN_OPEN = KAN_CLOSED + N_KIND
KAN_ADDED = KAN_OPEN + 1
MAX_REVEALED = 10
N_ACTIONS = KAN_ADDED + MAX_REVEALED

# Phases of a decision.
PH_START = 0          # turn start: ron, call (Pon/Chi/open kan) or draw
PH_AFTER_DRAW = 1     # after a one-card (or kan replacement) draw: tsumo, Kai, kan, discard
PH_AFTER_REVEAL = 2   # after Kai/Pon/Chi: draw three or discard
PH_AFTER_DRAW3 = 3    # after a three-card draw: tsumo (if allowed), Kai again, discard
PHASE_NAMES = ("start", "after_draw", "after_reveal", "after_draw_three")

(OBS_HAND, OBS_OWN_REVEALED, OBS_OPP_REVEALED, OBS_OWN_N_REVEALED, OBS_OPP_N_REVEALED,
 OBS_OWN_DISCARDS, OBS_OPP_DISCARDS, OBS_DORA_INDICATOR, OBS_STOCK, OBS_OWN_SCORE, OBS_OPP_SCORE,
 OBS_POT, OBS_OWN_RIICHI, OBS_OPP_RIICHI, OBS_PHASE, OBS_LAST_DISCARD, OBS_SEAT, OBS_DEALER,
 OBS_DRAWN, OBS_OPP_HAND_SIZE, OBS_TURN, OBS_TENPAI_CHECKED, OBS_SEEN) = range(23)
OBS_LEN = 23
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
    return f"added kan on group {a - KAN_ADDED}"
