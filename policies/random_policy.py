"""Chance for every family's bots: ``random`` (uniform over the legal actions) and ``uniform``
(a float from a seat's stream). Both draw from the seat's own RNG stream only, so a seat's
choices never shift another seat's randomness."""

import numba as nb
import numpy as np

from simcore.nb.bits import load_u64, popcount
from simcore.nb.rng import next_u64, randint

_LOW_BITS = np.uint64(0x0101010101010101)


@nb.njit(cache=True, inline="always")
def uniform(rng):
    """A float in [0, 1) from the seat's stream."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True, inline="always")
def _legal_in_word(w):
    """How many of a word's eight bytes are nonzero."""
    w |= w >> np.uint64(4)
    w |= w >> np.uint64(2)
    w |= w >> np.uint64(1)
    return popcount(w & _LOW_BITS)


@nb.njit(cache=True)
def random_policy(obs, mask, params, rng, core, ra):
    """Uniform over the legal actions of ``mask`` (one draw of the seat's stream); -1 if none.
    The mask is read eight one-byte entries a load (each byte folded to its lowest bit, so any
    nonzero byte counts once, as ``if mask[a]`` reads it), and entry by entry only in the word
    that holds the pick."""
    return _pick(mask, _count(mask), rng)


@nb.njit(cache=True)
def random_pick(mask, n, rng):
    """``random_policy`` for a caller that knows ``n``, how many entries of ``mask`` are set (a
    round loop that listed the legal actions as it set them): the same draw and the same
    action, without reading the whole mask to count them; ``n`` <= 0: counted here."""
    return _pick(mask, n if n > 0 else _count(mask), rng)


@nb.njit(cache=True, inline="always")
def _count(mask):
    size = mask.shape[0]
    whole = size - size % 8
    n = np.int64(0)  # not a literal 0: randint compiles for one signature
    for i in range(0, whole, 8):
        n += _legal_in_word(load_u64(mask, i))
    for a in range(whole, size):
        if mask[a]:
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def _pick(mask, n, rng):
    """The entry of ``mask`` that one draw of ``rng`` picks among its ``n`` set entries."""
    size = mask.shape[0]
    whole = size - size % 8
    pick = randint(rng, n)
    for i in range(0, whole, 8):
        c = _legal_in_word(load_u64(mask, i))
        if pick < c:
            for a in range(i, i + 8):
                if mask[a]:
                    if pick == 0:
                        return a
                    pick -= 1
        pick -= c
    for a in range(whole, size):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
