"""Open-addressing uint64 -> uint64 hash table as two flat arrays, usable from njit code.

Keys are arbitrary uint64 except ``EMPTY`` (all ones). Linear probing, multiplicative hashing
(Knuth), power-of-two capacity. Values are OR-ed on insert, which is what the table builders need
(each insert adds wait bits or flags to an entry).
"""

import numba as nb
import numpy as np

EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def new_table(log2_capacity: int):
    """Empty table: (keys, vals, shift) where ``shift = 64 - log2_capacity`` is passed to lookups."""
    keys = np.full(1 << log2_capacity, EMPTY, dtype=np.uint64)
    vals = np.zeros(1 << log2_capacity, dtype=np.uint64)
    return keys, vals, np.uint64(64 - log2_capacity)


@nb.njit(cache=True, inline="always")
def _slot(key, mask, shift):
    return np.int64((np.uint64(key) * _GOLDEN) >> shift) & mask


@nb.njit(cache=True)
def insert_or(keys, vals, key, val, shift):
    """``table[key] |= val``; returns False if the table is full.
    ``shift = 64 - log2(capacity)``."""
    n = keys.shape[0]
    mask = n - 1
    i = _slot(key, mask, shift)
    for _ in range(n):
        k = keys[i]
        if k == key:
            vals[i] |= val
            return True
        if k == EMPTY:
            keys[i] = key
            vals[i] = val
            return True
        i = (i + 1) & mask
    return False


@nb.njit(cache=True, inline="always")
def lookup(keys, vals, key, shift):
    """Value stored for ``key``, or 0 if absent. ``shift = 64 - log2(capacity)``."""
    mask = keys.shape[0] - 1
    i = _slot(key, mask, shift)
    while True:
        k = keys[i]
        if k == key:
            return vals[i]
        if k == EMPTY:
            return np.uint64(0)
        i = (i + 1) & mask
