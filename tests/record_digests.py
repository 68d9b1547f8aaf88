"""Digests of the engine records of every bundled scenario under every policy of its family.

``python tests/record_digests.py [--out FILE]`` prints (or writes) a JSON object
``{"<scenario> <policy>": sha256 of the games and rounds records}``: 150 games of seed 7, every
seat the same policy. ``tests/harness/test_record_digests.py`` compares the engine against the digests in
``tests/data/record_digests.json``, so that a refactoring that must not change play (the family
kit, a faster kernel) is shown to leave every record bit-identical; a rule change that alters
play rewrites the file (``--out tests/data/record_digests.json``) and says in its commit which
digests changed and why.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

GAMES = 150
SEED = 7


def _policy_names(fam_name: str) -> list[str]:
    from simcore.family import registry as families
    return list(families.get(fam_name).POLICIES.names)


def digest(scenario_name: str, policy: str) -> str:
    """sha256 of the records of GAMES games of SEED with every seat playing ``policy``."""
    import numpy as np
    from simcore.family import registry as families
    fam, sc = families.load(scenario_name)
    data = sc.to_dict()
    data["players"] = [{"policy": policy, "params": {}} for _ in data["players"]]
    batch = fam.SIMULATOR(fam.SCENARIOS.from_dict(data, name=scenario_name)).play(np.arange(GAMES), SEED)
    h = hashlib.sha256()
    for arr in (batch.games, batch.rounds):
        h.update(np.ascontiguousarray(arr, np.int64).tobytes())
    return h.hexdigest()


def all_digests() -> dict[str, str]:
    from simcore.family import registry as families
    out = {}
    for name, fam_name, _ in families.bundled():
        for policy in _policy_names(fam_name):
            out[f"{name} {policy}"] = digest(name, policy)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the JSON here (default: print it)")
    args = ap.parse_args(argv)
    text = json.dumps(all_digests(), indent=1, sort_keys=True) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
