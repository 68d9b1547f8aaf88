"""Chance for every family's bots: ``random`` (uniform over the legal actions) and ``uniform``
(a float from a seat's stream). Both draw from the seat's own RNG stream only, so a seat's
choices never shift another seat's randomness."""

import numba as nb
import numpy as np

from simcore.nb.rng import next_u64, randint


@nb.njit(cache=True, inline="always")
def uniform(rng):
    """A float in [0, 1) from the seat's stream."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True)
def random_policy(obs, mask, params, rng, core, ra):
    """Uniform over the legal actions of ``mask`` (one draw of the seat's stream); -1 if none."""
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


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
