"""numba's cached functions loaded without its compiler's registries (simcore/nb/cache_load.py):
a command that only loads compiled code never imports them, and a function compiled later in the
same process still finds every implementation (numba's compiler refreshes its context first)."""

import subprocess
import sys

from numba.core import caching

from simcore.nb import cache_load

RUN = ("from simcore.cli import main\n"
       "try: main(['run', 'new_edition', '--games', '3', '--no-save', '--quiet', "
       "'--workers', '1'])\n"
       "except SystemExit as e: assert e.code in (0, None), e.code\n")


def _python(code: str) -> list:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()


def test_installed_once_by_every_compiled_module():
    import simcore.nb.unliteral  # noqa: F401  (what every module of numba functions imports)
    assert caching.Cache.load_overload is cache_load._load_overload
    assert cache_load.install() is False


def test_a_run_loads_its_kernel_without_the_compilers_registries():
    """The run loads the MOMOJAN kernel from the cache (the tier compiled it first); numba's own
    refresh would have imported its typed containers and polynomials (its linear algebra a cached
    function's environment may import anyway)."""
    lines = _python("import sys\n" + RUN +
                    "print(sorted(m for m in ('numba.typed.typeddict', "
                    "'numba.np.polynomial.polynomial_core') if m in sys.modules))")
    assert lines[-1] == "[]"


def test_a_function_compiled_after_a_cached_load_sees_every_implementation():
    code = (RUN +
            "import numba as nb, numpy as np\n"
            "from numba.typed import Dict\n"
            "@nb.njit\n"
            "def f(a):\n"
            "    d = Dict.empty(nb.types.int64, nb.types.float64)\n"
            "    d[1] = np.linalg.norm(a)\n"
            "    return d[1]\n"
            "print(f(np.array([3.0, 4.0])))")
    assert _python(code)[-1] == "5.0"
