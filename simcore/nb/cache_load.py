"""numba's cached functions loaded without first setting up its compiler.

Before it loads a function from its on-disk cache, numba refreshes the target context
(``Cache.load_overload``): it imports and registers every implementation its compiler could use
(``numba.np.linalg``, the random generators, typed containers, ...) and refreshes the typing
context, about 0.26 s of every process, though a cached function's machine code needs none of
it: only the runtime (NRT) its code calls into. :func:`install` makes a load initialise the
runtime alone; whatever compiles later in the process refreshes both contexts first as before
(``compiler.CompilerBase``), so nothing compiled sees a context less set up. Every command, and
each of its worker processes, starts that much sooner (docs/performance.md).
"""

from __future__ import annotations

from numba.core import caching
from numba.core.runtime import rtsys


def _load_overload(self, sig, target_context):
    """``Cache.load_overload`` with the runtime initialised instead of the whole context."""
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


def install() -> bool:
    """Put the lighter load in place (once); True when it was not yet."""
    if caching.Cache.load_overload is _load_overload:
        return False
    caching.Cache.load_overload = _load_overload
    return True
