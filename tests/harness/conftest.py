"""Fixtures the harness tests share."""

import pytest

from simcore.family import registry as families


def _fake_scenario(path, text):
    """The fake family registered while a test uses ``path`` (written with ``text``)."""
    families.register("fake", "fake_family")
    path.write_text(text)
    yield path
    families.unregister("fake")


@pytest.fixture
def fake(tmp_path):
    """The fake family of tests/fake_family.py registered, and a four-seat scenario of it (a
    test module with a fake scenario of its own defines its own ``fake``)."""
    yield from _fake_scenario(tmp_path / "fake4.yaml", "game: fake\nname: fake4\nplayers: "
                              "[{policy: weak}, {policy: medium}, {policy: strong}, "
                              "{policy: weak}]\n")


@pytest.fixture
def fake2(tmp_path):
    """The fake family registered, and a two-seat scenario of two weak seats (seat 0's share
    has the exact formula ``fake_family.true_share`` of its ``edge``)."""
    yield from _fake_scenario(tmp_path / "fake.yaml", "game: fake\nname: fake\nplayers: "
                              "[{policy: weak}, {policy: weak}]\nrun: {games: 400, seed: 5}\n")
