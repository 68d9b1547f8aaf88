"""Restricted play (``momojan-sim mechanics``, :mod:`simcore.studies.mechanics`): a family's best
bot deciding from a legal-action mask with one kind of decision taken away, or forced.

A restricted seat has the policy id :data:`simcore.family.policy.RESTRICTED` and a params row
``(kind, shift, lo_0, hi_0, lo_1, hi_1, lo_2, hi_2)`` naming the actions ``lo_i <= a < hi_i``.
Kind :data:`NEVER`: they are removed from the mask the bot decides from (unless nothing would be
left). Kind :data:`ALWAYS`: the bot decides from the whole mask (a bot may count on a plain
discard being legal wherever a riichi discard is), then where one of them is legal and its choice
``a`` is not one, the seat plays ``a + shift`` if that is one of them and legal (the same
discard with riichi), else the lowest legal one.
"""

from __future__ import annotations

import numba as nb
import numpy as np

NEVER, ALWAYS = 0, 1
N_RANGES = 3
ROW = 2 + 2 * N_RANGES   # the params row's length


@nb.njit(cache=True)
def _inside(params, a) -> bool:
    for r in range(N_RANGES):
        if np.int64(params[2 + 2 * r]) <= a < np.int64(params[3 + 2 * r]):
            return True
    return False


@nb.njit(cache=True)
def restricted_mask(mask, params):
    """The mask the restricted bot decides from (module docstring)."""
    out = mask.copy()
    if params[0] != NEVER:
        return out
    keep = 0
    for a in range(mask.shape[0]):
        out[a] = mask[a] and not _inside(params, a)
        keep += out[a]
    return out if keep else mask.copy()


@nb.njit(cache=True)
def restricted_action(a, mask, params):
    """The action the restricted seat plays when its bot chose ``a`` (module docstring)."""
    if params[0] != ALWAYS or _inside(params, a):
        return a
    b = a + np.int64(params[1])
    if 0 <= b < mask.shape[0] and mask[b] and _inside(params, b):
        return b
    for c in range(mask.shape[0]):
        if mask[c] and _inside(params, c):
            return c
    return a


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
