"""MOMOJAN as seen by the game-agnostic harness (``simcore.study``, ``simcore.compare``).

The harness needs: load a scenario (by path or bundled name), apply overrides with the same
validation as YAML, the picklable payload a worker rebuilds a scenario from, the metric
catalogue, and the pure chunk function. Issue 13 turns this into the interface every family
implements.
"""

from __future__ import annotations

from . import scenario as _scenario
from .metrics import CATALOGUE, HEADLINE  # noqa: F401  (part of the interface)
from .simulate import chunk_stats  # noqa: F401

NAME = "momojan"

# The metrics a sweep tabulates unless told otherwise.
SWEEP_METRICS = ("first_dealer_win_rate", "dealer_round_win_rate", "draw_rate",
                 "mean_winning_points", "mean_rounds_per_game")


def load(ref):
    return _scenario.load(ref)


def payload(sc) -> dict:
    """Resolved scenario data (plain, picklable): a worker rebuilds the scenario from it."""
    return sc.to_dict()


def run_defaults(sc) -> tuple[int, int, int]:
    """(games, seed, workers) the scenario's ``run:`` section asks for."""
    return sc.get("run.games"), sc.get("run.seed"), sc.get("run.workers")


def with_overrides(sc, overrides: dict, name: str):
    """``sc`` with ``overrides`` (nested mapping) applied, validated like a YAML file.

    Errors name the key path, e.g. ``--set scoring.ron_bonus: expected an integer >= 0, got
    "x"``.
    """
    data = sc.to_dict()
    merged = _deep_merge(data, overrides)
    merged["name"] = name
    try:
        return _scenario.from_dict(merged, name=name)
    except _scenario.ScenarioError as exc:
        msg = str(exc)
        _, _, rest = msg.partition(": ")  # drop the "<scenario>" placeholder file name
        raise _scenario.ScenarioError(f"--set {rest or msg}") from None


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out
