"""numba's cache saved by several processes at once (simcore/nb/cache_lock.py): every entry kept
and each signature's data its own; the data written before the index that names it."""

import multiprocessing
import os

from numba.core import caching

from simcore.nb import cache_lock

cache_lock.install()   # as every compiled module does (simcore.nb.unliteral)


def _saves(folder, writer):
    f = caching.IndexDataCacheFile(folder, "fn", ("stamp", 1))
    for j in range(20):
        f.save((writer, j), ("machine code of", writer, j))


def test_eight_processes_saving_at_once_keep_every_entry_with_its_own_data(tmp_path):
    """numba's own save (no lock) kept 38-51 of these 160 entries, and sent 128-147 of the
    signatures to missing or other signatures' data."""
    procs = [multiprocessing.get_context("fork").Process(target=_saves, args=(str(tmp_path), w))
             for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    f = caching.IndexDataCacheFile(str(tmp_path), "fn", ("stamp", 1))
    assert len(f._load_index()) == 160
    assert all(f.load((w, j)) == ("machine code of", w, j) for w in range(8) for j in range(20))


def test_the_data_is_on_disk_before_the_index_names_it(tmp_path, monkeypatch):
    f = caching.IndexDataCacheFile(str(tmp_path), "fn", ("stamp", 1))
    seen = []
    real = f._save_index

    def save_index(overloads):
        seen.extend(os.path.exists(os.path.join(tmp_path, name)) for name in overloads.values())
        real(overloads)
    monkeypatch.setattr(f, "_save_index", save_index)
    f.save(("a",), 1)
    f.save(("b",), 2)
    f.save(("a",), 3)   # a new compile of a known signature: its data replaced, same name
    assert seen == [True, True, True] and f.load(("a",)) == 3 and f.load(("b",)) == 2
