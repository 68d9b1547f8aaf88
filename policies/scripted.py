"""The tests' scripted seat, for every family (contract: :mod:`simcore.family.policy`): the seat's
params row is a cursor (``params[0]``, starting at 0) and the actions (``params[1:]``), one per
decision. A family's ``scripted_policy`` plays :func:`scripted_action` when it is an action and
lets its fallback bot decide on -1 (or past the end of the row); an entry of ``ASK`` stops the
game at that decision (:class:`simcore.family.policy.HumanToPlay`: a human seat's turn)."""

import numba as nb
import numpy as np

from simcore.family.policy import ASK, HumanToPlay


@nb.njit(cache=True, inline="always")
def scripted_action(params):
    """The next scripted entry (advancing the cursor), or -1 past the end of the row; raises
    HumanToPlay at an ``ASK`` entry."""
    i = np.int64(params[0]) + 1
    if i < params.shape[0]:
        if params[i] == ASK:
            raise HumanToPlay("a human seat is to decide")
        params[0] += 1
        return np.int64(params[i])
    return np.int64(-1)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
