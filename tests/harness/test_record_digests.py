"""Every bundled scenario under every policy of its family plays exactly the records pinned in
tests/data/record_digests.json (tests/record_digests.py says how they are made and when to
rewrite them): a change meant to leave play alone leaves every record bit-identical."""

import json
from pathlib import Path

import pytest

from record_digests import digest
from simcore.family import registry as families

PINNED = json.loads((Path(__file__).parents[1] / "data" / "record_digests.json").read_text())


@pytest.mark.parametrize("name", sorted({k.split()[0] for k in PINNED}))
def test_records_are_bit_identical_to_the_pinned_digests(name):
    bundled = {n for n, _, _ in families.bundled()}
    assert name in bundled, f"{name}: pinned but no longer bundled (rewrite the digests)"
    changed = [k for k, v in PINNED.items() if k.split()[0] == name
               and digest(name, k.split()[1]) != v]
    assert not changed, f"records changed: {changed} (tests/record_digests.py)"


def test_every_bundled_scenario_and_policy_is_pinned():
    from record_digests import _policy_names
    want = {f"{n} {p}" for n, fam, _ in families.bundled() for p in _policy_names(fam)}
    assert want == set(PINNED)
