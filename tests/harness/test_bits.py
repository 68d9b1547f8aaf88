"""simcore.nb.bits.sum_at_bits (the emoji and riichi2p bots' useful-tile counts) against a
plain sum over the set bits."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.nb.bits import sum_at_bits


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 40 - 1), st.integers(0, 40),
       st.lists(st.integers(-5, 9), min_size=80, max_size=80))
def test_sum_at_bits_sums_the_entries_at_the_set_bits(bits, start, values):
    ary = np.array(values, np.int64)
    want = sum(int(ary[start + k]) for k in range(40) if bits >> k & 1)
    assert sum_at_bits(np.int64(bits), ary, start) == want
