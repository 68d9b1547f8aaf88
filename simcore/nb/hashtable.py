"""Open-addressing uint64 -> uint64 hash table in one flat array, usable from njit code.

Layout: ``table[2 i]`` is slot i's key, ``table[2 i + 1]`` its value, so a lookup touches one cache
line. Keys are arbitrary uint64 except ``EMPTY`` (all ones). Linear probing, multiplicative hashing
(Knuth), power-of-two capacity. Values are OR-ed on insert, which is what the table builders need
(each insert adds wait bits or flags to an entry).
"""

import numba as nb
import numpy as np

EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_FILTER_MULT = np.uint64(0xC2B2AE3D27D4EB4F)
FILTER_LOG2_BITS = 23  # 1 MiB presence filter: fits in L2, where the table does not


def new_table(log2_capacity: int):
    """Empty table and its ``shift = 64 - log2_capacity`` (passed to every call)."""
    table = np.zeros(2 << log2_capacity, dtype=np.uint64)
    table[0::2] = EMPTY
    return table, np.uint64(64 - log2_capacity)


@nb.njit(cache=True)
def _slot(key, shift):
    return np.int64((np.uint64(key) * _GOLDEN) >> shift)


@nb.njit(cache=True)
def insert_or(table, key, val, shift):
    """``table[key] |= val``; returns False if the table is full."""
    n = table.shape[0] // 2
    mask = n - 1
    i = _slot(key, shift)
    for _ in range(n):
        k = table[2 * i]
        if k == key:
            table[2 * i + 1] |= val
            return True
        if k == EMPTY:
            table[2 * i] = key
            table[2 * i + 1] = val
            return True
        i = (i + 1) & mask
    return False


# A presence filter (one-hash Bloom filter) in front of the table: most lookups in practice are for
# absent keys, and a bit in a 1 MiB array is much cheaper to test than a probe in the table.

def new_filter():
    return np.zeros(1 << (FILTER_LOG2_BITS - 6), dtype=np.uint64)


@nb.njit(cache=True)
def _filter_bit(key):
    h = (np.uint64(key) * _FILTER_MULT) >> np.uint64(64 - FILTER_LOG2_BITS)
    return np.int64(h >> np.uint64(6)), np.uint64(1) << (h & np.uint64(63))


@nb.njit(cache=True)
def filter_table(table, filt):
    """Set the filter bit of every key in ``table``."""
    for i in range(table.shape[0] // 2):
        if table[2 * i] != EMPTY:
            w, b = _filter_bit(table[2 * i])
            filt[w] |= b


@nb.njit(cache=True)
def lookup_filtered_at(arr, table_base, filter_base, log2_capacity, key):
    """Value stored for ``key`` (0 if absent) in a table and its filter that live inside the larger
    array ``arr`` at the given offsets (so that a kernel receives one array instead of several).
    The filter has no false negatives, so an absent bit answers without probing the table."""
    w, b = _filter_bit(key)
    if not (arr[filter_base + w] & b):
        return np.uint64(0)
    mask = (np.int64(1) << log2_capacity) - 1
    i = _slot(key, np.uint64(64 - log2_capacity))
    while True:
        k = arr[table_base + 2 * i]
        if k == key:
            return arr[table_base + 2 * i + 1]
        if k == EMPTY:
            return np.uint64(0)
        i = (i + 1) & mask


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
