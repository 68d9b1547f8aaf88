"""Two of simcore.nb's mends of numba. simcore.nb.aliases: a store into a state unpacked from a
tuple survives numba's dead-code elimination (which runs after an inlined overload such as
``searching``), as it does when the state is an argument; without the mend the first tests
fail, the store dropped. simcore.nb.stack: a scratch array in the caller's frame."""

import numba as nb
import numpy as np

from simcore.nb.layout import state_spec
from simcore.nb.search import searching

State, new_state = state_spec("State", (("hand", (2, 6), np.int64, -1),), __name__)


@nb.njit(inline="always")
def _store(s, i, v, sx):
    s.hand[i, 5] = v
    return 1 if searching(sx) else 0


@nb.njit
def _unpacked(ctx, i, v):
    s, _ = ctx
    return _store(s, i, v, s)


@nb.njit
def _unpacked_twice(ctx, i, v):
    inner, _ = ctx
    s, _ = inner
    return _store(s, i, v, s)


@nb.njit
def _argument(s, i, v):
    return _store(s, i, v, s)


@nb.njit
def _array_unpacked(ctx, i, v):
    a, _ = ctx
    a[i] = v
    return 1 if searching(a) else 0


def test_a_store_into_a_state_unpacked_from_a_tuple_is_kept():
    s = new_state()
    _unpacked((s, 1), 1, 7)
    assert s.hand[1].tolist() == [-1] * 5 + [7]


def test_a_store_through_two_unpacks_is_kept():
    s = new_state()
    _unpacked_twice(((s, 1), 2), 0, 9)
    assert s.hand[0, 5] == 9


def test_a_store_into_an_argument_and_an_unpacked_array_are_kept():
    s = new_state()
    _argument(s, 0, 3)
    a = np.zeros(4, np.int64)
    _array_unpacked((a, 1), 2, 5)
    assert s.hand[0, 5] == 3 and a.tolist() == [0, 0, 5, 0]


# simcore.nb.stack: a scratch array in the caller's frame
from simcore.nb.stack import stack_empty  # noqa: E402

_N = 12


@nb.njit
def _sum_of_squares(x):
    a = stack_empty(_N, np.int64)
    for i in range(_N):
        a[i] = (x + i) * (x + i)
    t = 0
    for i in range(_N):
        t += a[i]
    return t


def test_a_stack_array_holds_what_is_written_to_it():
    for x in (-3, 0, 7):
        assert _sum_of_squares(x) == sum((x + i) ** 2 for i in range(_N))
