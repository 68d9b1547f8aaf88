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

To add a policy: write ``my_policy`` in its own module, append its name to ``POLICY_NAMES`` and a
branch to ``decide``.
"""

import numba as nb

from .baseline import baseline_policy
from .random_policy import random_policy

POLICY_NAMES = ("random", "baseline")
POLICY_IDS = {name: i for i, name in enumerate(POLICY_NAMES)}


@nb.njit(cache=True)
def decide(policy_id, obs, mask, params, rng, T, ra):
    if policy_id == 0:
        return random_policy(obs, mask, params, rng, T, ra)
    return baseline_policy(obs, mask, params, rng, T, ra)
