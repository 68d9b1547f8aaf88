"""The replay event log every engine can share: rows of ``(type, seat, a, b, c, d)`` int64 in the
state's ``ev`` array, kept only when the state's ``st[ST_LOG]`` is set (a replay), counted in
``st[ST_N_EV]``. A family puts ``log`` and ``n_ev`` first in its ``st`` layout (so the kit's
``Simulator.ST_LOG``/``ST_N_EV`` of 0 and 1 hold) and sizes ``ev`` with :func:`ev_shape`."""

from __future__ import annotations

import numba as nb

ST_LOG, ST_N_EV = 0, 1
EV_WIDTH = 6


def ev_shape(max_events: int, width: int = EV_WIDTH):
    """The ``ev`` array's shape for :func:`simcore.nb.layout.state_spec`: ``max_events`` rows
    when logging, else one."""
    return lambda log: (max_events if log else 1, width)


@nb.njit(cache=True, inline="always")
def log_event(st, ev, typ, seat, a, b, c, d, e=0, f=0):
    """Append one event when logging (a full log stays full: the kit's replay says the game is
    too long); ``e`` and ``f`` go to a log two columns wider (riichi2p's)."""
    if st[ST_LOG] and st[ST_N_EV] < ev.shape[0]:
        i = st[ST_N_EV]
        ev[i, 0], ev[i, 1], ev[i, 2], ev[i, 3], ev[i, 4], ev[i, 5] = typ, seat, a, b, c, d
        if ev.shape[1] > EV_WIDTH:
            ev[i, 6], ev[i, 7] = e, f
        st[ST_N_EV] = i + 1


@nb.njit(cache=True, inline="always")
def log(s, typ, seat, a, b, c, d, e=0, f=0):
    """:func:`log_event` into a state structref's ``st`` and ``ev`` (passing the state costs one
    reference count where its two arrays cost two at every call, logged or not)."""
    st = s.st
    if st[ST_LOG]:
        log_event(st, s.ev, typ, seat, a, b, c, d, e, f)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
