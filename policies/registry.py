"""The policy registry: names -> ids, and one compiled dispatcher.

Every policy is an njit function with one signature::

    policy(obs: int64[OBS_LEN], mask: bool[N_ACTIONS], params: float64[:], rng: uint64[4],
           core: uint64[CORE_LEN], ra: int64[RULES_LEN]) -> int action

``core`` (``HandTables.core``: the waits table and friends in one array, layout in
``simcore.momojan.hand``) lets bots ask for waits without rebuilding anything. Every argument is a
plain array because numba reference-counts each array a call receives, atomically.
``decide`` dispatches on the policy id with a plain branch, so the engine calls the policy directly
inside compiled code: no Python, no function-pointer indirection (``benchmarks/bench_engine.py``
measures the dispatch cost against the policies themselves).

Every policy also declares the parameters it reads (``PolicySpec.params``, a tuple of
:class:`policies.params.Param`: name, kind int/float/bool, default, range, one-line doc). Scenario
validation refuses any other name in a seat's ``params:``, checks types and ranges and fills in the
defaults; the engine hands the policy ``params`` as float64 in declared order
(:func:`param_row`), so the policy reads ``params[param_index(MY_PARAMS, "name")]``.

To add a policy: write ``my_policy`` and its ``MY_PARAMS`` in its own module, append a
``PolicySpec`` to ``POLICIES`` and a branch to ``decide`` (policy id = position in ``POLICIES``).
"""

from typing import Mapping, NamedTuple

import numba as nb

from .baseline import baseline_policy
from .defensive import DEFENSIVE_PARAMS, defensive_policy
from .greedy import GREEDY_PARAMS, greedy_policy
from .params import Param, check_declaration, param_vector
from .random_policy import random_policy
from .value import VALUE_PARAMS, value_policy


class PolicySpec(NamedTuple):
    """What the registry knows of a policy besides its kernel."""

    name: str                  # what a seat's ``policy:`` says
    doc: str                   # one line, for listings
    params: tuple[Param, ...]  # the parameters it reads, in the order of its params row
    # Whether its decisions read point values from the rules (yaku points, bonuses, dora per
    # card, the doubling threshold): when no seated policy does, a change of point values
    # alone leaves every decision of a round unchanged (run/compare/sweep say so).
    reads_point_values: bool = False


POLICIES = (
    PolicySpec(name="random", doc="uniform over the legal actions", params=()),
    PolicySpec(name="baseline", doc="wins when it can, Kai when it can, never calls, riichi when "
               "it may, discards towards tenpai", params=()),
    PolicySpec(name="greedy", doc="plays for the fastest win: distance to tenpai, useful cards, "
               "calls and draws three when they help, riichi when tenpai", params=GREEDY_PARAMS),
    PolicySpec(name="value", doc="plays for points: weighs speed against dora, picture-set yaku "
               "and set-count bonuses read from the rules",
               params=VALUE_PARAMS, reads_point_values=True),
    PolicySpec(name="defensive", doc="greedy that folds to the least dangerous card against a "
               "riichi or fast opponent", params=DEFENSIVE_PARAMS),
)
POLICY_NAMES = tuple(spec.name for spec in POLICIES)
POLICY_IDS = {name: i for i, name in enumerate(POLICY_NAMES)}
POLICY_SPECS = {spec.name: spec for spec in POLICIES}
for _spec in POLICIES:
    check_declaration(_spec.name, _spec.params)


def param_row(policy: str, values: Mapping) -> list[float]:
    """The ``params`` values the engine passes to ``policy``: declared order, defaults filled."""
    return param_vector(POLICY_SPECS[policy].params, values)


# inline: a plain branch the engine writes into its round loop; as a function of its own it would
# compile and optimise every policy's code once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def decide(policy_id, obs, mask, params, rng, T, ra):
    if policy_id == 0:
        return random_policy(obs, mask, params, rng, T, ra)
    if policy_id == 1:
        return baseline_policy(obs, mask, params, rng, T, ra)
    if policy_id == 2:
        return greedy_policy(obs, mask, params, rng, T, ra)
    if policy_id == 3:
        return value_policy(obs, mask, params, rng, T, ra)
    return defensive_policy(obs, mask, params, rng, T, ra)
