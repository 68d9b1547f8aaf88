"""numba's on-disk cache knows a compiled function's own source file only: a kernel cached in
``engine.py`` keeps the code of the bots, hand analysis or search it called when it was compiled,
after those files change (a contributor edits a bot, and the next run plays the old one). This
guard keeps, per game package, a digest of every source its kernels can reach (the package, its
bots package, the shared ``policies`` modules and ``simcore.nb``); when a run finds it changed,
it deletes the package's and its bots' cached machine code, so that the kernels compile again.

A package without a digest yet (a fresh install, whose build compiled the kernels from the
sources it ships) is trusted and given one. Errors (a read-only install) are ignored: the guard
only ever costs a compile.
"""

from __future__ import annotations

import glob
import hashlib
import importlib
import os

MARKER = "numba_sources.sha1"
_checked: set = set()


def _dirs(package: str) -> list:
    game = os.path.dirname(importlib.import_module(package).__file__)
    bots = os.path.join(os.path.dirname(os.path.dirname(game)), "policies",
                        os.path.basename(game))
    shared = os.path.join(os.path.dirname(bots))
    nb = os.path.dirname(os.path.abspath(__file__))
    return [d for d in (game, bots, shared, nb) if os.path.isdir(d)]


def sources_digest(package: str) -> str:
    """sha1 of the ``.py`` files a family's kernels can reach (their paths below the project's
    root, and their contents: a checkout moved or copied whole, mtimes kept, keeps its cache)."""
    h = hashlib.sha1()
    dirs = _dirs(package)
    root = os.path.dirname(os.path.dirname(dirs[0]))   # simcore/<family>'s project
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.py"))):
            h.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def check(package: str) -> bool:
    """Once per process and game package (``simcore.momojan``): drop its and its bots' cached
    machine code when their sources changed since it was compiled. True when it dropped."""
    if package in _checked or not package.startswith("simcore."):
        return False
    _checked.add(package)
    try:
        dirs = _dirs(package)
        marker = os.path.join(dirs[0], "__pycache__", MARKER)
        digest = sources_digest(package)
        if os.path.exists(marker):
            with open(marker) as f:
                if f.read().strip() == digest:
                    return False
            for d in dirs[:2]:
                for path in glob.glob(os.path.join(d, "__pycache__", "*.nb[ic]")):
                    os.remove(path)
            dropped = True
        else:
            dropped = False
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        tmp = f"{marker}.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(digest + "\n")
        os.replace(tmp, marker)
        return dropped
    except Exception:   # noqa: BLE001  (an unusual layout or a read-only install: no guard)
        return False
