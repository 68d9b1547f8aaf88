"""``scripted``: a seat that plays a given list of actions, for engine tests that set up one exact
situation (a stacked wall plus scripted decisions). Not a registered policy: the engine dispatches
to it on the policy id ``SCRIPTED``, outside the registry, so no scenario can seat it.

``params`` is the seat's row: ``params[0]`` is a cursor (start at 0) that the policy advances,
``params[1:]`` the actions, one per decision. An entry of -1, or running past the end, lets the
``baseline`` policy decide that one; an entry of ``ASK`` stops the game there for a human seat
(:mod:`simcore.family.policy`).
"""

import numba as nb

from policies.scripted import scripted_action
from simcore.family.policy import SCRIPTED  # noqa: F401  (the id; tests import it from here too)

from .baseline import baseline_policy


@nb.njit(cache=True)
def scripted_policy(obs, mask, params, rng, T, ra):
    a = scripted_action(params)
    return a if a >= 0 else baseline_policy(obs, mask, params, rng, T, ra)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
