"""``baseline``: wins whenever it can, otherwise keeps its hand as close to tenpai as it cheaply can.

- Ron and tsumo whenever offered.
- Never calls Pon or Chi (nor open kan). Old edition: a closed or added kan whenever offered.
  It does Kai a complete set whenever it can: a hand with
  nothing revealed can never win (spec §5), so a bot that never revealed would never win at all.
  After a Kai it draws three only when discarding instead would leave a hand too small to win with
  its revealed sets (a smaller hand is closer to tenpai). It declares riichi whenever it may (often
  its only yaku).
- Discards: a discard that leaves the hand tenpai, with the most waits, if there is one; otherwise
  the card with the fewest partners in hand (cards it could share a set or head with), a fast proxy
  for the distance to tenpai. Ties go to the lowest card id, so the bot is deterministic.

Parameters: none.
"""

import numba as nb
import numpy as np

from simcore.nb.bits import popcount
from simcore.momojan.actions import (
    CALL, DISCARD, DISCARD_RIICHI, DRAW, DRAW_THREE, KAI, KAN_ADDED, KAN_CLOSED, KAN_OPEN, OBS_HAND,
    OBS_OWN_N_REVEALED, OBS_OWN_REVEALED, OBS_TENPAI_CHECKED, RON, TSUMO,
)
from simcore.momojan.cards import (
    N_KINDS, N_NUMBER_KINDS, N_PICTURES, NUMBER_MASK, PICTURE_BITS, PICTURE_FIELD, PICTURE_SHIFT,
)
from simcore.momojan.hand import CORE_RELATED, hand_size, waits

_NUM = np.uint64(NUMBER_MASK)
_FIELD = np.uint64(PICTURE_FIELD)


@nb.njit(cache=True, inline="always")
def _unit(k):
    if k < N_NUMBER_KINDS:
        return np.uint64(1) << np.uint64(k)
    return np.uint64(1) << np.uint64(PICTURE_SHIFT + PICTURE_BITS * (k - N_NUMBER_KINDS))


@nb.njit(cache=True, inline="always")
def _kinds_present(hand):
    out = np.uint64(hand) & _NUM
    for p in range(N_PICTURES):
        if (np.uint64(hand) >> np.uint64(PICTURE_SHIFT + PICTURE_BITS * p)) & _FIELD:
            out |= np.uint64(1) << np.uint64(N_NUMBER_KINDS + p)
    return out


@nb.njit(cache=True, inline="always")
def _tenpai_discard(obs, mask, core):
    """The discard (kind) leaving the hand tenpai with the most waits, or -1."""
    hand = np.uint64(obs[OBS_HAND])
    rev = np.uint64(obs[OBS_OWN_REVEALED])
    n_rev = obs[OBS_OWN_N_REVEALED]
    if (hand_size(hand) - 2) // 3 + n_rev < 3:
        return -1  # too few sets at this size: never tenpai
    known = obs[OBS_TENPAI_CHECKED] != 0  # then riichi discards are exactly the tenpai ones
    best_k = -1
    best_w = 0
    for k in range(N_KINDS):
        if mask[DISCARD_RIICHI + k] if known else mask[DISCARD + k]:
            w = popcount(waits(hand - _unit(k), rev, n_rev, core))
            if w > best_w:
                best_w = w
                best_k = k
    return best_k


@nb.njit(cache=True, inline="always")
def _loosest_card(obs, mask, core):
    """The discardable kind with the fewest partners in hand."""
    hand = np.uint64(obs[OBS_HAND])
    present = _kinds_present(hand)
    fewest = 1 << 30
    best_k = -1
    for k in range(N_KINDS):
        if mask[DISCARD + k]:
            partners = popcount(core[CORE_RELATED + k] & present)
            if k >= N_NUMBER_KINDS and ((hand >> np.uint64(
                    PICTURE_SHIFT + PICTURE_BITS * (k - N_NUMBER_KINDS))) & _FIELD) >= 2:
                partners += 2  # a picture pair or triple
            if partners < fewest:
                fewest = partners
                best_k = k
    return best_k


@nb.njit(cache=True)
def baseline_policy(obs, mask, params, rng, core, ra):
    if mask[RON]:
        return RON
    if mask[TSUMO]:
        return TSUMO
    if mask[DRAW]:
        return DRAW
    # A closed or added kan (old edition) whenever offered: a set, a replacement draw, a kan yaku.
    for a in range(KAN_CLOSED, KAN_OPEN):
        if mask[a]:
            return a
    for a in range(KAN_ADDED, mask.shape[0]):
        if mask[a]:
            return a
    for a in range(KAI, CALL):
        if mask[a]:
            return a
    if mask[DRAW_THREE]:
        # Discarding now leaves hand_size - 1 cards: (that - 1) // 3 concealed sets at a win.
        if (hand_size(np.uint64(obs[OBS_HAND])) - 2) // 3 + obs[OBS_OWN_N_REVEALED] < 3:
            return DRAW_THREE
    k = _tenpai_discard(obs, mask, core)
    if k >= 0:
        return DISCARD_RIICHI + k if mask[DISCARD_RIICHI + k] else DISCARD + k
    return DISCARD + _loosest_card(obs, mask, core)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
