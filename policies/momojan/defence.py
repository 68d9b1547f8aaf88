"""The defence part shared by the playing bots: is the opponent a threat, and how dangerous is a card.

- A threat is an opponent that can win at all (spec §5: a hand with too few revealed sets for its
  size cannot, so nothing is dangerous against it) and either declared riichi or shows a fast hand
  (at least two revealed sets and at most 4 concealed cards).
- Danger of discarding kind k, from what the seat can see (``OBS_SEEN``): 0 if the opponent
  discarded k itself (it would be furiten, spec §6), except momo, which is never safe; otherwise the
  number of waiting shapes the opponent could hold that k completes, with every card of the shape
  unseen: a set two of whose cards it would hold (1 each), a head (tanki, 1/2 each).

What this implementation simplifies: no reading of the opponent's discards beyond furiten (no
suji-like inference), temporary furiten is not used, and old-edition rank-1 stand-ins are not
counted as picture shapes.
"""

import numba as nb
import numpy as np

from simcore.momojan.actions import (
    OBS_OPP_DISCARDS, OBS_OPP_HAND_SIZE, OBS_OPP_N_REVEALED, OBS_OPP_RIICHI, OBS_SEEN,
)
from simcore.momojan.cards import N_NUMBER_KINDS
from simcore.momojan.hand import CORE_RULES, HR_COPIES, picture_count
from simcore.momojan.rules_array import RA_FURITEN_ENABLED, RA_FURITEN_MOMO_EXEMPT
from simcore.momojan.shanten import CORE_SH_GROUP_START, CORE_SH_GROUPS, G_HEAD, G_SET, MASK36

N_MOMO = 9  # kinds 0..8 are momo cards


@nb.njit(cache=True, inline="always")
def opponent_can_win(obs):
    """The opponent's hand and revealed sets can make 3 sets at a win (between turns, 3k+1 cards)."""
    return (obs[OBS_OPP_HAND_SIZE] - 1) // 3 + obs[OBS_OPP_N_REVEALED] >= 3


@nb.njit(cache=True, inline="always")
def threatened(obs):
    """The opponent can win and has declared riichi or shows a fast hand (module doc)."""
    if not opponent_can_win(obs):
        return False
    return obs[OBS_OPP_RIICHI] != 0 or (obs[OBS_OPP_N_REVEALED] >= 2 and obs[OBS_OPP_HAND_SIZE] <= 4)


@nb.njit(cache=True)
def danger(obs, core, ra, k):
    """How dangerous discarding kind k is against the opponent (module doc); 0 is safe.

    Parameters
    ----------
    obs : int64[OBS_LEN], the seat's observation (OBS_SEEN, OBS_OPP_DISCARDS).
    core : uint64[CORE_LEN]. ra : int64[RULES_LEN]. k : card kind 0..40.
    """
    if not opponent_can_win(obs):
        return 0.0
    momo = k < N_MOMO and ra[RA_FURITEN_MOMO_EXEMPT] != 0
    if ra[RA_FURITEN_ENABLED] and not momo and (np.uint64(obs[OBS_OPP_DISCARDS]) >> np.uint64(k)) & np.uint64(1):
        return 0.0
    seen = np.uint64(obs[OBS_SEEN])
    if k >= N_NUMBER_KINDS:
        p = k - N_NUMBER_KINDS
        unseen = np.int64(core[CORE_RULES + HR_COPIES + p]) - picture_count(seen, p)
        return (1.0 if unseen >= 2 else 0.0) + (0.5 if unseen >= 1 else 0.0)
    d = 0.0
    for e in range(np.int64(core[CORE_SH_GROUP_START + k]), np.int64(core[CORE_SH_GROUP_START + k + 1])):
        entry = core[CORE_SH_GROUPS + e]
        others = entry & MASK36 & ~(np.uint64(1) << np.uint64(k))
        if others & seen:
            continue
        if entry & G_SET:
            d += 1.0
        elif entry & G_HEAD:
            d += 0.5
    return d


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
