"""Digests of the engine records of every bundled scenario under every policy of its family.

``python tests/record_digests.py [--out FILE]`` prints (or writes) a JSON object
``{"<scenario> <policy>": sha256 of the games and rounds records}``: 150 games of seed 7, every
seat the same policy (the ``search`` bot, which plays a few games a second: 4 games). ``tests/harness/test_record_digests.py`` compares the engine against the digests in
``tests/data/record_digests.json``, so that a refactoring that must not change play (the family
kit, a faster kernel) is shown to leave every record bit-identical; a rule change that alters
play rewrites the file (``--out tests/data/record_digests.json``) and says in its commit which
digests changed and why.

A new family pins its own digests without recomputing the others:
``python -m tests.record_digests --family NAME`` (from the repository root; or
:func:`pin_family`) adds only the entries of family NAME's bundled scenarios to
``tests/data/record_digests.json`` and leaves every other entry as it is, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

GAMES = 150
SEARCH_GAMES = 4   # the search bot's digests (docs/bots.md, "Search")
SEED = 7


def _policy_names(fam_name: str) -> list[str]:
    from simcore.family import registry as families
    return list(families.get(fam_name).POLICIES.names)


def digest(scenario_name: str, policy: str) -> str:
    """sha256 of the records of GAMES games (SEARCH_GAMES for ``search``) of SEED with every
    seat playing ``policy``."""
    import numpy as np
    from simcore.family import registry as families
    fam, sc = families.load(scenario_name)
    data = sc.to_dict()
    data["players"] = [{"policy": policy, "params": {}} for _ in data["players"]]
    games = SEARCH_GAMES if policy == "search" else GAMES
    batch = fam.SIMULATOR(fam.SCENARIOS.from_dict(data, name=scenario_name)).play(np.arange(games), SEED)
    h = hashlib.sha256()
    for arr in (batch.games, batch.rounds):
        h.update(np.ascontiguousarray(arr, np.int64).tobytes())
    return h.hexdigest()


PINNED_FILE = Path(__file__).parent / "data" / "record_digests.json"


def all_digests(family: str | None = None) -> dict[str, str]:
    """``{"<scenario> <policy>": digest}`` of every bundled scenario (of ``family`` alone when
    given)."""
    from simcore.family import registry as families
    out = {}
    for name, fam_name, _ in families.bundled():
        if family is not None and fam_name != family:
            continue
        for policy in _policy_names(fam_name):
            out[f"{name} {policy}"] = digest(name, policy)
    return out


def dumps(digests: dict) -> str:
    """The pinned file's text (sorted keys, one entry a line)."""
    return json.dumps(digests, indent=1, sort_keys=True) + "\n"


class NothingBundled(Exception):
    """The family has no bundled scenario where the installed package looks for them."""


def pin_family(family: str, path=PINNED_FILE) -> list[str]:
    """Add (or refresh) the digests of ``family``'s bundled scenarios in the pinned file at
    ``path``, leaving every other family's entries as they are; returns the keys written.
    A bundled scenario's entries are replaced whole (a policy the family no longer has drops
    out). :class:`NothingBundled`, and the file left as it was, when the family has no
    bundled scenario at all."""
    from simcore.family import registry as families
    families.get(family)   # an unknown name: the registry's one-line error
    path = Path(path)
    ours = {n for n, f, _ in families.bundled() if f == family}
    if not ours:
        from simcore.family.scenario.files import bundled_dir
        raise NothingBundled(
            f"family {family} has no bundled scenario in {bundled_dir()}: nothing pinned (is the "
            f"package installed from this checkout? MOMOJAN_SIM_PRECOMPILE=none pip install "
            f"--no-deps -e .)")
    pinned = json.loads(path.read_text()) if path.exists() else {}
    new = all_digests(family)
    kept = {k: v for k, v in pinned.items() if k.split()[0] not in ours}
    path.write_text(dumps({**kept, **new}))
    return sorted(new)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the JSON here (default: print it)")
    ap.add_argument("--family", help="add only this family's digests to the pinned file "
                    "(--out, default tests/data/record_digests.json); the others stay as they are")
    args = ap.parse_args(argv)
    if args.family:
        try:
            keys = pin_family(args.family, args.out or PINNED_FILE)
        except NothingBundled as exc:
            print(f"record_digests: {exc}", file=sys.stderr)
            return 2
        print(f"pinned {len(keys)} digests of family {args.family} in "
              f"{args.out or PINNED_FILE}")
        return 0
    text = dumps(all_digests())
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
