"""The build compiles the default game family's kernel into numba's on-disk cache.

Everything else about the package is in ``pyproject.toml``. A cold kernel is 65-90 s of CPU to
compile on its first use; compiled here, at install time as for any package with compiled code,
the README's main command gives its first result a few seconds after ``pip install`` (README,
"Performance": cold start). An editable install compiles into the source tree's ``__pycache__``
folders, a wheel carries the compiled cache in its own. Numba checks every entry when it loads
it (numba's version, a content hash of the file defining the function, the machine's CPU), so an
install on another machine or numba version simply compiles on first use, as before.

A wheel built from a checkout whose cache is fresh (compiled after its last source change, by the
numba version the build uses: an editable install's compile, as CI's) starts from that cache
instead of compiling it again; numba's own checks then decide what is still to compile.

``MOMOJAN_SIM_PRECOMPILE`` chooses: ``default`` (unset: the default family), ``all`` (every
family), ``none`` (nothing: a quick install for development); any other value fails the build,
naming the variable. A compile that fails or hangs never fails the install: it is reported, and
the kernel compiles on first use.
"""

import os
import pickle
import shutil
import signal
import subprocess
import sys

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py
from setuptools.errors import OptionError

HERE = os.path.dirname(os.path.abspath(__file__))
CHOICES = {"default": [], "all": ["--all"], "none": None}
PACKAGES = ("simcore", "policies")  # the trees holding numba-compiled code
GUARD_S = 2400  # not a timing: only stops a hung compile from hanging the install


def packages() -> list:
    """Every package under simcore/ and policies/ (a new family's folders included, no list to
    edit), and the bundled scenarios, which pyproject.toml maps from the top-level scenarios/."""
    found = find_packages(HERE, include=[f"{p}" for p in PACKAGES] + [f"{p}.*" for p in PACKAGES])
    return sorted(found) + ["simcore.scenarios"]


def _precompile_args():
    value = os.environ.get("MOMOJAN_SIM_PRECOMPILE", "default").strip().lower() or "default"
    if value not in CHOICES:
        raise OptionError(f"MOMOJAN_SIM_PRECOMPILE={value!r}: expected one of "
                          f"{', '.join(CHOICES)}")
    return CHOICES[value]


def _stale_cache_files(root):
    """numba's cache files under ``root``: a wheel's build folder outlives a build, and numba
    stamps an entry with the source of its own function only (not of callees in other files),
    so what an earlier build compiled must not ship again."""
    for folder, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith((".nbi", ".nbc")):
                yield os.path.join(folder, name)


def _numba_version():
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("numba")
    except PackageNotFoundError:
        return None


def _index_version(path):
    """The numba version that wrote a cache index (its file begins with it, pickled)."""
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # unreadable: not reusable
        return None


def _reusable_cache(src, numba_version):
    """Paths (relative to ``src``) of the numba cache files of ``src``'s packages that a build
    may start from: none unless every index was written by ``numba_version`` and after the last
    change of any source file (numba stamps an entry with its own file's content only, so an
    edited callee elsewhere must void them all)."""
    sources, caches = [], []
    for top in PACKAGES:
        for folder, _dirs, files in os.walk(os.path.join(src, top)):
            for name in files:
                if name.endswith(".py"):
                    sources.append(os.path.join(folder, name))
                elif name.endswith((".nbi", ".nbc")):
                    caches.append(os.path.join(folder, name))
    indexes = [p for p in caches if p.endswith(".nbi")]
    if not indexes or numba_version is None:
        return []
    newest_source = max((os.stat(p).st_mtime for p in sources), default=0.0)
    if any(os.stat(p).st_mtime <= newest_source or _index_version(p) != numba_version
           for p in indexes):
        return []
    return [os.path.relpath(p, src) for p in caches]


def _copy_cache(paths, src, dst):
    """Copy the cache files ``paths`` (relative) from ``src`` to ``dst``, those of packages the
    build holds; the ones copied."""
    copied = []
    for rel in paths:
        folder = os.path.join(dst, os.path.dirname(rel))   # a package's __pycache__
        if os.path.isdir(os.path.dirname(folder)):
            os.makedirs(folder, exist_ok=True)
            shutil.copy2(os.path.join(src, rel), os.path.join(dst, rel))
            copied.append(rel)
    return copied


def _child_env(root, editable):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",  # no .pyc files in the wheel
               PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    if not editable:  # a wheel's cache must go beside its sources, not into the user's cache dir
        env.pop("NUMBA_CACHE_DIR", None)
    return env


def _run_compile(args, root, env):
    """The compile's exit status, or the reason it has none; a hung one is stopped with every
    process it started (its own session)."""
    try:
        proc = subprocess.Popen([sys.executable, "-m", "simcore.precompile", *args], cwd=root,
                                env=env, start_new_session=True)
    except OSError as exc:
        return exc
    try:
        return proc.wait(timeout=GUARD_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return f"stopped after {GUARD_S} s"


class BuildPyWithKernels(build_py):
    """``build_py``, then the kernel compile on the tree it built."""

    def run(self):
        args = _precompile_args()  # a bad value fails before anything is built
        super().run()
        if args is None:
            return
        editable = bool(getattr(self, "editable_mode", False))
        root = HERE if editable else os.path.abspath(self.build_lib)
        reused = []
        if not editable:
            for path in _stale_cache_files(root):
                os.remove(path)
            reused = _copy_cache(_reusable_cache(HERE, _numba_version()), HERE, root)
        if reused:
            print(f"momojan-sim: starting from the source tree's fresh kernel cache ({len(reused)} "
                  f"files); compiling what it lacks", file=sys.stderr, flush=True)
        else:
            print("momojan-sim: compiling the game kernel into numba's cache (about a minute on "
                  "2 cores; MOMOJAN_SIM_PRECOMPILE=none skips it)", file=sys.stderr, flush=True)
        # The compile imports the package from the tree just built (the wheel's build folder, or
        # the source tree of an editable install), in every process it starts: its working
        # directory and first path entry.
        status = _run_compile(args, root, _child_env(root, editable))
        if status != 0:
            print(f"momojan-sim: the kernel compile did not finish ({status}); it compiles on "
                  f"first use instead", file=sys.stderr, flush=True)


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(cmdclass={"build_py": BuildPyWithKernels}, packages=packages())
