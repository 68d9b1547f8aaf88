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


def sweep_variants(fam, base, grid) -> tuple[list, list]:
    """Every combination of the grid as a validated scenario, and (label, settings) pairs."""
    scenarios, labels = [base], [(f"{base.name} (base)", {})]
    for combo in itertools.product(*[vals for _, vals in grid]):
        settings = {k: v for (k, _), v in zip(grid, combo)}
        over = {}
        for k, v in settings.items():
            over = deep_merge(over, nested(k, v))
        label = " ".join(f"{k}={json.dumps(v)}" for k, v in settings.items())
        scenarios.append(fam.SCENARIOS.with_overrides(base, over, f"{base.name} {label}"))
        labels.append((label, settings))
    _refuse_twins(fam, scenarios, labels)
    return scenarios, labels


def _refuse_twins(fam, scenarios, labels) -> None:
    """Two grid points that resolve to the same scenario (``--set k=36,36.0``, or values the
    loader reads alike) would be one variant played twice: one line naming both."""
    from simcore.errors import InputError
    from simcore.studies.results import sha256_of
    seen = {}
    for sc, (label, _) in zip(scenarios[1:], labels[1:]):
        data = {k: v for k, v in fam.SCENARIOS.payload(sc).items() if k not in ("name", "description")}
        h = sha256_of(data)
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
