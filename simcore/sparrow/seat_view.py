"""What a human seat sees at a Sparrow decision (``momojan-sim play``): its hand and the tile it
drew, every seat's discards this round (public, from the event log), the dora and the points;
its legal actions are the discards of each tile, or, asked about a win, taking or declining it."""

from __future__ import annotations

from .engine import EV_DISCARD, EV_ROUND_START, RA_DECK_RED_BAMBOO
from .layout import (DECLINE, OBS_DEALER, OBS_DORA, OBS_HAND, OBS_PHASE, OBS_POINTS, OBS_SEATS,
                     OBS_WIN_POINTS, PHASE_WIN, TAKE)
from .tiles import kind_str, tile_str


def seat_view(sim, seat: int, obs, mask, events):
    """(lines, [(action, label)]) of the decision in ``obs`` / ``mask``."""
    o = [int(x) for x in obs]
    red, n = int(sim.ra[RA_DECK_RED_BAMBOO]), o[OBS_SEATS]
    starts = [i for i, e in enumerate(events) if e[0] == EV_ROUND_START]
    discards = {s: [] for s in range(n)}
    for e in events[starts[-1] if starts else 0:]:
        if e[0] == EV_DISCARD:
            discards[int(e[1])].append(tile_str(int(e[2]), red))

    def who(s):
        return ("you" if s == seat else f"seat {s}") + (" (dealer)" if s == o[OBS_DEALER] else "")
    hand = [t for t in o[OBS_HAND:OBS_HAND + 6] if t >= 0]
    lines = [f"dora {kind_str(o[OBS_DORA])} · points: " + ", ".join(
                 f"{who(s)} {o[OBS_POINTS + s]}" for s in range(n))]
    lines += [f"   {who(s)} discarded {' '.join(discards[s]) or '-'}" for s in range(n)]
    lines.append("   your hand " + " ".join(tile_str(t, red) for t in sorted(hand[:5]))
                 + (f" · drew {tile_str(hand[5], red)}" if len(hand) == 6 else ""))
    if o[OBS_PHASE] == PHASE_WIN:
        lines.append(f"   a win worth {o[OBS_WIN_POINTS]} points")
    labels = {TAKE: f"take the win ({o[OBS_WIN_POINTS]} points)", DECLINE: "decline it"}
    legal = sorted((int(a) for a in mask.nonzero()[0]),
                   key=lambda a: (a >= TAKE, o[OBS_HAND + a] if a < TAKE else a))
    return lines, [(a, labels.get(a) or f"discard {tile_str(o[OBS_HAND + a], red)}")
                   for a in legal]
