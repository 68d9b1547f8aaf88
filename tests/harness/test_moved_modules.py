"""The module names of release 0.1 still import, for one release (issue 47 moved them into
layers): each gives its new module, the same object, with a DeprecationWarning naming it."""

import importlib
import subprocess
import sys

import pytest

from simcore._moved import MOVED


def test_every_old_module_name_gives_its_new_module():
    """In a fresh process (an old name imports once): each old name warns, naming its new home,
    and is the new module."""
    code = ("import importlib, warnings\n"
            "from simcore._moved import MOVED\n"
            "for old, new in sorted(MOVED.items()):\n"
            "    with warnings.catch_warnings(record=True) as said:\n"
            "        warnings.simplefilter('always')\n"
            "        module = importlib.import_module(old)\n"
            "    print(old, module is importlib.import_module(new),\n"
            "          [str(w.message) for w in said if w.category is DeprecationWarning])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == [f"{old} True ['{old} moved to {new} (issue 47); the old name goes in the "
                   f"next release']" for old, new in sorted(MOVED.items())]


def test_from_imports_of_old_names_work():
    with pytest.warns(DeprecationWarning):
        from simcore.results import load   # noqa: F401  (the old spelling of a documented import)
    from simcore.studies.results import load as new
    assert load is new


def test_every_new_home_exists():
    for new in MOVED.values():
        importlib.import_module(new)
