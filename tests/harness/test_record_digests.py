"""Every bundled scenario under every policy of its family plays exactly the records pinned in
tests/data/record_digests.json (tests/record_digests.py says how they are made and when to
rewrite them): a change meant to leave play alone leaves every record bit-identical."""

import json
from pathlib import Path

import pytest

from record_digests import digest
from simcore.family import registry as families

PINNED = json.loads((Path(__file__).parents[1] / "data" / "record_digests.json").read_text())


def _changed(name: str, search: bool) -> list:
    bundled = {n for n, _, _ in families.bundled()}
    assert name in bundled, f"{name}: pinned but no longer bundled (rewrite the digests)"
    return [k for k, v in PINNED.items() if k.split()[0] == name
            and (k.split()[1] == "search") == search and digest(name, k.split()[1]) != v]


@pytest.mark.parametrize("name", sorted({k.split()[0] for k in PINNED}))
def test_records_are_bit_identical_to_the_pinned_digests(name):
    changed = _changed(name, search=False)
    assert not changed, f"records changed: {changed} (tests/record_digests.py)"


@pytest.mark.second_tier   # the search kernels compile apart (a minute a family)
@pytest.mark.parametrize("name", sorted({k.split()[0] for k in PINNED if k.endswith(" search")}))
def test_search_records_are_bit_identical_to_the_pinned_digests(name):
    changed = _changed(name, search=True)
    assert not changed, f"records changed: {changed} (tests/record_digests.py)"


def missing_pins(pinned: dict) -> str:
    """What the pinned file lacks or has too many of, per family, and the command that pins a
    family's own digests (empty when nothing is missing)."""
    from record_digests import _policy_names
    want = {f"{n} {p}": fam for n, fam, _ in families.bundled() for p in _policy_names(fam)}
    lacking = sorted({fam for k, fam in want.items() if k not in pinned})
    extra = sorted(k for k in pinned if k not in want)
    out = []
    for fam in lacking:
        keys = sorted(k for k, f in want.items() if f == fam and k not in pinned)
        out.append(f"family {fam}: {len(keys)} scenario/policy pairs have no pinned digest "
                   f"({', '.join(keys[:3])}{', ...' if len(keys) > 3 else ''}); pin them, and "
                   f"only them, with `python -m tests.record_digests --family {fam}` "
                   f"(docs/families.md, 'Pinning your family's record digests')")
    if extra:
        out.append(f"pinned but no longer bundled: {', '.join(extra[:3])}"
                   f"{', ...' if len(extra) > 3 else ''} (re-pin their family with "
                   f"`python -m tests.record_digests --family NAME`)")
    return "; ".join(out)


def test_every_bundled_scenario_and_policy_is_pinned():
    """Every bundled scenario x policy has a pinned digest; a new family's failure says how to
    pin its own digests without recomputing the others."""
    problem = missing_pins(PINNED)
    assert not problem, problem


def test_a_missing_family_is_named_with_the_command_that_pins_it():
    fam = next(f for _, f, _ in families.bundled() if f != "momojan")
    ours = set(families.bundled_names_of(fam))   # once: each call reads every bundled file
    without = {k: v for k, v in PINNED.items() if k.split()[0] not in ours}
    text = missing_pins(without)
    assert f"family {fam}: " in text and f"python -m tests.record_digests --family {fam}" in text
    assert "\n" not in text and "momojan" not in text


def test_pinning_one_family_leaves_every_other_entry_byte_identical(tmp_path, monkeypatch):
    """``--family NAME`` rewrites only NAME's entries: pinning a family whose entries were
    dropped gives back the very file (here each digest is looked up, not recomputed)."""
    import record_digests
    source = Path(__file__).parents[1] / "data" / "record_digests.json"
    fam = next(f for _, f, _ in families.bundled() if f != "momojan")
    ours = set(families.bundled_names_of(fam))
    path = tmp_path / "digests.json"
    path.write_text(record_digests.dumps({k: v for k, v in PINNED.items()
                                          if k.split()[0] not in ours}))
    monkeypatch.setattr(record_digests, "digest", lambda name, policy: PINNED[f"{name} {policy}"])
    keys = record_digests.pin_family(fam, path)
    assert keys and all(k.split()[0] in ours for k in keys)
    assert path.read_bytes() == source.read_bytes()
    assert record_digests.main(["--family", fam, "--out", str(path)]) == 0
    assert path.read_bytes() == source.read_bytes()


def test_pinning_a_family_with_no_bundled_scenario_says_where_it_looked(tmp_path, monkeypatch,
                                                                         capsys):
    """A new family's scenarios that the installed package cannot see (another checkout is
    installed) pin nothing: one line naming the folder, exit 2, no file written."""
    import record_digests
    fam = next(f for _, f, _ in families.bundled() if f != "momojan")
    everything = families.bundled()
    monkeypatch.setattr(families, "bundled", lambda: [b for b in everything if b[1] != fam])
    path = tmp_path / "digests.json"
    assert record_digests.main(["--family", fam, "--out", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"family {fam} has no bundled scenario in" in err
    assert "pip install" in err and not path.exists()
