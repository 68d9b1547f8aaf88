"""numba's on-disk cache written safely by several processes at once.

numba saves a compiled function (``IndexDataCacheFile.save``) by reading the function's index,
taking the first data file name the index does not use, writing the index and then the data, with
no lock. Two processes saving two signatures of one function at once (two families' compiles
sharing a ``simcore.nb`` helper, two commands started together on a cold cache) can both take
``<name>.1.nbc``: the index then sends one signature to the other's machine code. And between
the index and the data, a reader can load an old data file of that name (numba numbers data files
again when the source changes, and leaves the old ones).

:func:`install` makes every save hold an exclusive lock on the cache folder (``flock``: released
by the kernel when its process dies, however it dies), read the index under it, and write the
data before the index that names it. Loads take no lock: each file is replaced whole
(``os.replace``), so a reader sees an index entry only once its data is there. Where the folder
cannot be locked (a file system without ``flock``) a save goes on unlocked, as numba's own did.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os

from numba.core import caching


@contextlib.contextmanager
def _folder_locked(path: str):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)   # closing releases the lock


def _save(self, key, data):
    """``IndexDataCacheFile.save``: the entry's data, then the index naming it, under a lock."""
    with _folder_locked(self._cache_path):
        overloads = self._load_index()
        data_name = overloads.get(key)
        if data_name is None:
            existing = set(overloads.values())
            data_name = next(name for name in map(self._data_name, itertools.count(1))
                             if name not in existing)
        self._save_data(data_name, data)
        if overloads.get(key) != data_name:
            overloads[key] = data_name
            self._save_index(overloads)


def install() -> bool:
    """Put the locked save in place (once); True when it was not yet."""
    if caching.IndexDataCacheFile.save is _save:
        return False
    caching.IndexDataCacheFile.save = _save
    return True
