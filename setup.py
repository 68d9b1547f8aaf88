"""The build compiles the default game family's kernel into numba's on-disk cache.

Everything else about the package is in ``pyproject.toml``. A cold kernel is 65-90 s of CPU to
compile on its first use; compiled here, at install time as for any package with compiled code,
the README's main command gives its first result a few seconds after ``pip install`` (README,
"Performance": cold start). An editable install compiles into the source tree's ``__pycache__``
folders, a wheel carries the compiled cache in its own. Numba checks every entry when it loads
it (numba's version, the source's content hash, the machine's CPU), so an install on another
machine or numba version simply compiles on first use, as before.

``MOMOJAN_SIM_PRECOMPILE`` chooses: ``default`` (unset: the default family), ``all`` (every
family), ``none`` (nothing: a quick install for development). A compile that fails or hangs
never fails the install: it is reported, and the kernel compiles on first use.
"""

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import OptionError

HERE = os.path.dirname(os.path.abspath(__file__))
CHOICES = {"default": [], "all": ["--all"], "none": None}
GUARD_S = 2400  # not a timing: only stops a hung compile from hanging the install


def _precompile_args():
    value = os.environ.get("MOMOJAN_SIM_PRECOMPILE", "default").strip().lower() or "default"
    if value not in CHOICES:
        raise OptionError(f"MOMOJAN_SIM_PRECOMPILE={value!r}: expected one of "
                          f"{', '.join(CHOICES)}")
    return CHOICES[value]


class BuildPyWithKernels(build_py):
    """``build_py``, then the kernel compile on the tree it built."""

    def run(self):
        args = _precompile_args()  # a bad value fails before anything is built
        super().run()
        if args is None:
            return
        root = HERE if getattr(self, "editable_mode", False) else os.path.abspath(self.build_lib)
        print("momojan-sim: compiling the game kernel into numba's cache (about a minute on 2 "
              "cores; MOMOJAN_SIM_PRECOMPILE=none skips it)", file=sys.stderr, flush=True)
        # The compile imports the package from the tree just built (the wheel's build folder, or
        # the source tree of an editable install), in every process it starts: its working
        # directory and first path entry.
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p))
        try:
            status = subprocess.run([sys.executable, "-m", "simcore.precompile", *args], cwd=root,
                                    env=env, timeout=GUARD_S).returncode
        except (OSError, subprocess.TimeoutExpired) as exc:
            status = exc
        if status != 0:
            print(f"momojan-sim: the kernel compile did not finish ({status}); it compiles on "
                  f"first use instead", file=sys.stderr, flush=True)


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(cmdclass={"build_py": BuildPyWithKernels})
