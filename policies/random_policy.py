"""``random``: uniform over the legal actions."""

import numba as nb
import numpy as np

from simcore.rng import randint


@nb.njit(cache=True)
def random_policy(obs, mask, params, rng, core, ra):
    n = np.int64(0)  # not a literal 0: randint compiles for one signature
    for a in range(mask.shape[0]):
        n += mask[a]
    pick = randint(rng, n)
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1
