"""Explicit, splittable RNG for kernels: xoshiro256** seeded by splitmix64 from a key.

Randomness derives only from (scenario seed, game index, round, purpose), never from global state,
so the same seed gives the same games whatever the batch size, order or number of workers, and
round r of a game starts from the same random state under any rule variant.
"""

import numba as nb
import numpy as np

_U = np.uint64


@nb.njit(cache=True)
def _splitmix(x):
    x = (x + _U(0x9E3779B97F4A7C15))
    z = x
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return x, z ^ (z >> _U(31))


@nb.njit(cache=True)
def seed_keyed(seed, game, rnd, purpose, state):
    """Fill ``state`` for one purpose (the shuffle, a seat's policy) of round ``rnd`` of game
    ``game`` of base seed ``seed``. Each key is mixed in by its own splitmix step, so keys never
    collide by arithmetic, and round r's streams do not depend on how rounds before it went:
    two rule variants played on the same seed start every round from the same random state."""
    x = _U(seed) * _U(0xD1342543DE82EF95) ^ _U(0x243F6A8885A308D3)
    _, x = _splitmix(x ^ _U(game))  # the mixed output, not the counter: keys must not cancel
    _, x = _splitmix(x ^ _U(rnd))
    _, x = _splitmix(x ^ _U(purpose))
    for i in range(4):
        x, z = _splitmix(x)
        state[i] = z


@nb.njit(cache=True)
def _rotl(x, k):
    return (x << _U(k)) | (x >> _U(64 - k))


@nb.njit(cache=True)
def next_u64(state):
    result = _rotl(state[1] * _U(5), np.int64(7)) * _U(9)
    t = state[1] << _U(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], np.int64(45))
    return result


@nb.njit(cache=True)
def randint(state, n):
    """Uniform integer in [0, n) (Lemire's multiply-shift; bias < n / 2**32, immaterial here)."""
    return np.int64(((next_u64(state) >> _U(32)) * _U(n)) >> _U(32))


@nb.njit(cache=True)
def shuffle(state, arr, n):
    """Fisher-Yates over ``arr[:n]``."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
