"""``random``: uniform over the legal actions."""

import numba as nb

from simcore.rng import randint


@nb.njit(cache=True)
def random_policy(obs, mask, params, rng, core, ra):
    n = 0
    for a in range(mask.shape[0]):
        n += mask[a]
    pick = randint(rng, n)
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1
