"""The games loop of a family's kernel, and the match most small mahjongs play, compiled once in
the kit and handed the family's round as a compiled function.

Every family's kernel plays games ``game_indices`` of a seed into round rows and one game row
each, every game from (seed, its index) alone, and returns the round rows written, or -1 when
``rounds_out`` is too short (the caller grows it and plays the chunk again). Each round row
begins ``("game", "round", ...)`` (:data:`ROUND_HEAD`), written by :func:`open_round`, which also
seeds the round's streams: stream ``p`` of round ``r`` of game ``g`` is keyed by (seed, g, r, p).

:func:`rotation_games` is the whole match of a game whose seats pass the deal round the table
(Sparrow mahjong; any family whose game is "each seat starts with the same points, a random
first dealer, ``match.laps`` laps of dealers, the top points win"). Its options are declared
once, in :func:`simcore.family.standard.rotation_rules`:

- ``start_points``: every seat's points at the start;
- ``match.dealer_repeat``: the dealer deals again never, after its win, or after its win or a
  draw (:data:`REPEAT_CHOICES`);
- ``match.laps``: the game ends when the deal has passed ``laps`` times round the table;
- ``match.bust_ends``: a seat below 0 after a round ends the game.

A family whose game has another shape writes ``play_game`` and hands it to :func:`games_loop`
(emoji's regular and West rounds, two-player riichi's hands to a bust).

For :func:`rotation_games` the family writes one round, ``play_round(ctx, params, rngs, rec) ->
int`` (``ctx``: a tuple of
its own, passed through; ``params`` the seats' parameter rows, copied for each game, so a
scripted seat starts over; ``rngs[0]`` the round's shuffle stream, ``rngs[1 + seat]`` each
seat's; ``rec`` the round's row), which settles into ``s.points`` and returns
``DEALER_WON | DRAWN`` bits (whether the dealer deals again). The state ``s`` has ``points``
(int64 per seat) and ``st`` (with the event log's two slots first, then ``ST_SEATS`` and
``ST_DEALER``: :data:`ST_SEATS`, :data:`ST_DEALER`). The game row is :data:`GAME_HEAD` then
each seat's final points.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.events import log
from simcore.nb.rng import randint, seed_keyed

ROUND_HEAD = ("game", "round")
GAME_HEAD = ("winners", "end_reason", "rounds", "seats", "first_dealer")   # then points per seat
END_REASONS = ("laps", "bust", "round_limit")
END_LAPS, END_BUST, END_ROUND_LIMIT = range(3)
REPEAT_CHOICES = ("none", "on_win", "on_win_or_draw")
ST_SEATS, ST_DEALER = 2, 3   # the state's ``st`` slots after the event log's two
DEALER_WON, DRAWN = 1, 2     # play_round's result bits


@nb.njit(cache=True, inline="always")
def open_round(seed, game, rnd, rngs, streams, rounds_out, n_out):
    """Round ``rnd`` of game ``game``: its ``streams`` streams seeded into ``rngs``, its row
    ``rounds_out[n_out]`` zeroed and headed (:data:`ROUND_HEAD`); that row."""
    for purpose in range(streams):
        seed_keyed(seed, game, np.int64(rnd), purpose, rngs[purpose])
    rec = rounds_out[n_out]
    rec[:] = 0
    rec[0], rec[1] = game, rnd
    return rec


@nb.njit(cache=True, inline="always")
def games_loop(play_game, ctx, game_indices, seed, params, rounds_out, games_out):
    """Games ``game_indices`` of ``seed``, each played by the family's ``play_game(ctx, game,
    seed, params, rounds_out, n_out, game_rec)``, which writes its rounds from row ``n_out`` and
    its game row and returns the new row count (-1: ``rounds_out`` is full); ``params`` copied
    for each game (a scripted seat's cursor starts over). The rows written, or -1."""
    rows = 0
    for i in range(game_indices.shape[0]):
        rows = play_game(ctx, game_indices[i], seed, params.copy(), rounds_out, rows,
                         games_out[i])
        if rows < 0:
            return -1
    return rows


@nb.njit(cache=True, inline="always")
def rotation_games(play_round, ctx, s, game_indices, seed, params, match, max_rounds,
                   ev_game_end, rounds_out, games_out):
    """Games ``game_indices`` of ``seed``, each a match of rounds ``play_round`` plays (module
    docstring); ``match``: ``(start_points, dealer_repeat, laps, bust_ends)`` as the rules
    array holds them; a game cut at ``max_rounds`` rounds ends by ``round_limit``. The game's
    end is logged as event ``ev_game_end`` (seat -1; a the winners' bits, b the end reason)."""
    start, repeat, laps, bust_ends = match
    n = s.st[ST_SEATS]
    rngs = np.zeros((1 + n, 4), np.uint64)
    rows = 0
    for i in range(game_indices.shape[0]):
        game, prm, game_rec = game_indices[i], params.copy(), games_out[i]
        s.points[:] = 0
        s.points[:n] = start
        seed_keyed(seed, game, np.int64(-1), 0, rngs[0])
        first = randint(rngs[0], n)
        s.st[ST_DEALER], passes, rnd, end = first, 0, 0, END_LAPS
        while True:
            if rows >= rounds_out.shape[0]:
                return -1
            rec = open_round(seed, game, rnd, rngs, 1 + n, rounds_out, rows)
            how = play_round(ctx, prm, rngs, rec)
            rows, rnd = rows + 1, rnd + 1
            if not ((repeat >= 1 and how & DEALER_WON) or (repeat == 2 and how & DRAWN)):
                s.st[ST_DEALER] = (s.st[ST_DEALER] + 1) % n
                passes += 1
            if bust_ends and s.points[:n].min() < 0:
                end = END_BUST
                break
            if passes >= laps * n:
                break
            if rnd >= max_rounds:
                end = END_ROUND_LIMIT
                break
        winners, top = 0, s.points[:n].max()
        for p in range(n):
            winners |= int(s.points[p] == top) << p
        game_rec[len(GAME_HEAD):len(GAME_HEAD) + n] = s.points[:n]
        game_rec[0], game_rec[1], game_rec[2], game_rec[3], game_rec[4] = \
            winners, end, rnd, n, first
        log(s, ev_game_end, -1, winners, end, 0, 0)
    return rows


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
