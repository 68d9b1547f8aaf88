import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # tests/handgen.py

from simcore.momojan.hand import HandAnalyzer  # noqa: E402
from simcore.momojan.shapes import NEW_EDITION, OLD_EDITION  # noqa: E402

EDITIONS = {"new": NEW_EDITION, "old": OLD_EDITION}


@pytest.fixture(scope="session", params=sorted(EDITIONS))
def analyzer(request):
    """One analyzer per edition for the whole session (tables are built once)."""
    return _analyzer(request.param)


_CACHE = {}


def _analyzer(name):
    if name not in _CACHE:
        _CACHE[name] = HandAnalyzer(EDITIONS[name])
    return _CACHE[name]


@pytest.fixture(scope="session")
def new_analyzer():
    return _analyzer("new")


@pytest.fixture(scope="session")
def old_analyzer():
    return _analyzer("old")
