"""A sweep's variants: every combination of a grid of rule values applied to a base scenario,
each validated like YAML (the ``sweep`` command's, and :func:`simcore.sweep`'s).

What this implementation simplifies: the grid is the full product of its keys' values, in the
order given (no sampling of large grids).
"""

from __future__ import annotations

import itertools
import json

from simcore.family.scenario.files import deep_merge, nested
from simcore.studies.notes import play_note


def sweep_variants(fam, base, grid, notice=None, merge: bool = True) -> tuple[list, list]:
    """Every combination of the grid as a validated scenario, and (label, settings) pairs. A
    grid point that resolves to the base scenario itself (``--set komi=0,1`` where the base's
    komi is 0) is the base row already: it is merged into it, not played twice, and
    ``notice`` says so; a grid of nothing but the base is refused. ``merge=False`` keeps such
    a point (a result directory saved before merging existed played it)."""
    from simcore.errors import InputError
    scenarios, labels = [base], [(f"{base.name} (base)", {})]
    base_hash, merged = _identity(fam, base), []
    for combo in itertools.product(*[vals for _, vals in grid]):
        settings = {k: v for (k, _), v in zip(grid, combo)}
        over = {}
        for k, v in settings.items():
            over = deep_merge(over, nested(k, v))
        label = " ".join(f"{k}={json.dumps(v)}" for k, v in settings.items())
        sc = fam.SCENARIOS.with_overrides(base, over, f"{base.name} {label}")
        if merge and _identity(fam, sc) == base_hash:
            merged.append(label)
            continue
        scenarios.append(sc)
        labels.append((label, settings))
    if merged and len(scenarios) == 1:
        raise InputError(f"--set: {', '.join(merged)} is what {base.name} already has: nothing "
                         f"to sweep (give values that change the rule)")
    if merged and notice:
        notice(f"--set {', '.join(merged)}: {base.name}'s own value{'s' if len(merged) > 1 else ''}"
               f", merged into the base row (not played twice)")
    _refuse_twins(fam, scenarios, labels)
    return scenarios, labels


def _identity(fam, sc) -> str:
    """A hash of what a scenario plays (its name and description left out)."""
    from simcore.studies.results import sha256_of
    return sha256_of({k: v for k, v in fam.SCENARIOS.payload(sc).items()
                      if k not in ("name", "description")})


def _refuse_twins(fam, scenarios, labels) -> None:
    """Two grid points that resolve to the same scenario (``--set k=36,36.0``, or values the
    loader reads alike) would be one variant played twice: one line naming both."""
    from simcore.errors import InputError
    seen = {}
    for sc, (label, _) in zip(scenarios[1:], labels[1:]):
        h = _identity(fam, sc)
        if h in seen:
            raise InputError(f"--set: {seen[h]} and {label} give the same scenario (each "
                             f"value of a sweep must make a different variant)")
        seen[h] = label


def sweep_result(fam, result, scenarios, labels, grid, names, alpha: float = 0.05):
    """``(rows, data)``: each variant of a played sweep against its base (variant 0), per metric
    of ``names``, and the sweep's JSON (``sweep_json`` plus the grid and the play note)."""
    from simcore.studies.compare import compare_rows, sweep_json
    pairs = [(0, v) for v in range(1, len(scenarios))]
    rows = compare_rows(fam.CATALOGUE, result.sums, pairs, names, None, alpha)
    data = sweep_json(result, fam.CATALOGUE, labels, rows, names, alpha)
    data["grid"] = [[k, v] for k, v in grid]
    note = play_note(fam, scenarios)
    if note:
        data["note"] = note
    return rows, data
