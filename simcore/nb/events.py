"""The replay event log every engine can share: rows of ``(type, seat, a, b, c, d)`` int64 in the
state's ``ev`` array, kept only when the state's ``st[ST_LOG]`` is set (a replay), counted in
``st[ST_N_EV]``. A family puts ``log`` and ``n_ev`` first in its ``st`` layout (so the kit's
``Simulator.ST_LOG``/``ST_N_EV`` of 0 and 1 hold) and sizes ``ev`` with :func:`ev_shape`."""

from __future__ import annotations

import numba as nb

ST_LOG, ST_N_EV = 0, 1
EV_WIDTH = 6


def ev_shape(max_events: int):
    """The ``ev`` array's shape for :func:`simcore.nb.layout.state_spec`: ``max_events`` rows
    when logging, else one."""
    return lambda log: (max_events if log else 1, EV_WIDTH)


@nb.njit(cache=True)
def log_event(st, ev, typ, seat, a, b, c, d):
    """Append one event when logging (a full log stays full: the kit's replay reports a game too long)."""
    if st[ST_LOG] == 0:
        return
    i = st[ST_N_EV]
    if i < ev.shape[0]:
        ev[i, 0] = typ
        ev[i, 1] = seat
        ev[i, 2] = a
        ev[i, 3] = b
        ev[i, 4] = c
        ev[i, 5] = d
        st[ST_N_EV] = i + 1


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
