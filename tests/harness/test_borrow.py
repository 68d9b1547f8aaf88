"""``simcore.nb.borrow.borrowed``: views without an owner, for compiled loops over caller-owned arrays."""

from collections import namedtuple

import numba as nb
import numpy as np

from simcore.nb.borrow import borrowed

Pair = namedtuple("Pair", ["counts", "table"])


@nb.njit
def _write_through(pair, extra):
    pair, extra = borrowed(pair), borrowed(extra)
    for i in range(pair.counts.shape[0]):
        pair.counts[i] += pair.table[i, 1] + extra[0]
    return pair.table.sum(), pair.counts.shape[0], pair.table.shape


def test_borrowed_arrays_read_and_write_the_callers_memory():
    counts = np.arange(4, dtype=np.int64)
    table = np.arange(12, dtype=np.int64).reshape(4, 3)
    total, n, shape = _write_through(Pair(counts, table), np.array([10], np.int64))
    assert (total, n, shape) == (66, 4, (4, 3))
    assert counts.tolist() == [11, 15, 19, 23]
    # the caller's arrays still own their memory after the call
    assert counts.flags.owndata and table.base is not None and table.base.flags.owndata
    counts[:] = 0
    assert _write_through(Pair(counts, table), np.array([0], np.int64))[0] == 66


@nb.njit
def _scalar_and_nested(x, t):
    return borrowed(x), borrowed(t)[1][0].sum()


def test_borrowed_leaves_other_values_alone():
    assert _scalar_and_nested(7, (1.5, (np.ones(3), 2))) == (7, 3.0)
