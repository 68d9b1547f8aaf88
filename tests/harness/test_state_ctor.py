"""A kit state built from Python through numba's cache (simcore/nb/state_ctor.py) is the state
numba's own constructor builds: the same numba type, over the very arrays given, which compiled
code reads and writes; a cache that predates a renaming of the fields is not trusted."""

import numba as nb
import numpy as np
from numba.experimental import structref

from simcore.nb import state_ctor
from simcore.nb.layout import state_spec

Pair, new_pair = state_spec("Pair", (("hand", (2, 3), np.int64, -1),
                                     ("score", (2,), np.float64, 0.0),
                                     ("log", lambda log: (8 if log else 1,), np.int16, 0)),
                            __name__)


@nb.njit
def _play(s):
    s.hand[1, 2] = 7
    s.score[0] += 1.5
    return s.hand.sum() + s.log.shape[0]


def _numbas_own(*arrays):
    return structref.StructRefProxy.__new__(Pair, *arrays)


def test_the_cached_build_is_numbas_own_state():
    arrays = (np.full((2, 3), -1, np.int64), np.zeros(2), np.zeros(8, np.int16))
    ours, theirs = Pair(*arrays), _numbas_own(*arrays)
    assert type(ours) is Pair and ours._type == theirs._type
    assert tuple(ours._type.field_dict)[:3] == ("hand", "score", "log")
    for name, array in zip(("hand", "score", "log"), arrays):
        assert getattr(ours, name) is array   # Python reads the arrays it gave, not copies


def test_compiled_code_reads_and_writes_the_given_arrays():
    hand, score, log = np.full((2, 3), -1, np.int64), np.zeros(2), np.zeros(1, np.int16)
    s = Pair(hand, score, log)
    assert _play(s) == -5 + 7 + 1
    assert hand[1, 2] == 7 and score[0] == 1.5 and s.score[0] == 1.5
    fresh = new_pair(True)
    assert fresh.log.shape == (8,) and (fresh.hand == -1).all() and _play(fresh) == 2 + 8


def test_a_cache_older_than_the_field_names_falls_back_to_numbas_constructor():
    arrays = (np.zeros((2, 3), np.int64), np.zeros(2), np.zeros(1, np.int16))
    # the cached build knows the names hand, score, log; a caller expecting others (the fields
    # renamed since the cache was written) gets numba's own constructor's state instead
    built = state_ctor.construct(build_Pair, Pair, type(Pair(*arrays)._type),  # noqa: F821
                                 ("renamed", "score", "log"), arrays)
    assert type(built) is Pair and built._type == _numbas_own(*arrays)._type
    assert built.hand is arrays[0]


def test_each_state_type_has_its_own_cached_functions_bound_in_its_module():
    """One cache index per state type (an index of all of them would name every family's
    engine, and reading it would import them all), and bound where the compile plan finds them."""
    from simcore.nb.compile_plan import dispatcher
    for fn in (build_Pair, owners_Pair):  # noqa: F821 (bound by state_spec)
        assert fn._cache._cache_file._index_name.startswith(
            f"state_ctor.{__name__.replace('.', '_')}_{fn.py_func.__name__}-")
        assert dispatcher(__name__, fn.py_func.__qualname__) is fn
