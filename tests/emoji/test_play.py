"""``play`` on emoji mahjong (simcore.emoji.seat_view): a whole game through the session with the
first legal action each time, its saved decisions replaying to the same records; the seat's view
shows its own tiles and the public table only (every seat's discards as the event log has them),
and the terminal prompt answers a bad key and stops at q."""

import re

import numpy as np
from click.testing import CliRunner

from simcore.cli import main
from simcore.emoji.engine import EV_DEAL, EV_DISCARD, EV_DRAW, EV_ROUND_START, N_SEATS
from simcore.emoji.tiles import HONOUR_EMOJI, N_KINDS, SUIT_EMOJI, format_counts, tile_str
from simcore.studies.play import Finished, PlaySession, Turn
from tests.play_checks import assert_saved_game_replays

_EMOJI_TILE = re.compile("(" + "|".join(SUIT_EMOJI) + ")([1-9])|(" + "|".join(HONOUR_EMOJI) + ")")


def _emoji_counts(text: str) -> np.ndarray:
    """The tiles a text shows in emoji notation, as counts."""
    c = np.zeros(N_KINDS, np.int64)
    for suit, rank, honour in _EMOJI_TILE.findall(text):
        k = SUIT_EMOJI.index(suit) * 9 + int(rank) - 1 if suit else 27 + HONOUR_EMOJI.index(honour)
        c[k] += 1
    return c


def _discards_this_round(events) -> dict:
    start = max(i for i, e in enumerate(events) if e[0] == EV_ROUND_START)
    out = {s: [] for s in range(N_SEATS)}
    for e in events[start:]:
        if e[0] == EV_DISCARD:
            out[int(e[1])].append(tile_str(int(e[2])) + ("*" if e[3] else ""))
    return out


def test_a_whole_emoji_game_from_the_seat_view_and_its_replay(tmp_path):
    """The first legal action each time to the game's end; at every decision each seat's
    discard line is that seat's discards this round in the event log; the saved game replays to
    the same events and records."""
    s = PlaySession.open("emoji", seat=1, seed=3)
    turns = 0
    while True:
        t = s.step()
        if isinstance(t, Finished):
            break
        turns += 1
        assert t.actions and all(label.startswith("discard") for _, label in t.actions)
        disc = _discards_this_round(t.events)
        for seat in range(N_SEATS):
            line = next(ln for ln in t.lines if ln.strip().startswith(f"P{seat}")
                        and "discarded" in ln)
            shown = line.split("discarded ")[1].split("  ·")[0].split()
            assert shown == (disc[seat] or ["-"]), (seat, line, disc[seat])
        s.play(t.actions[0][0], t)
    assert turns > 20 and len(t.rounds) >= 8 and len(s.decisions) == turns
    assert_saved_game_replays(s, t, tmp_path / "g.json")


def test_the_first_view_shows_the_seats_own_tiles_and_no_other_hand():
    """At turn 1 the view shows exactly the seat's dealt 7 tiles, its draw and the dora (in the
    event log of the deal); no other seat's hand."""
    seat = 2
    s = PlaySession.open("emoji", seat=seat, seed=7)
    t = s.step()
    assert isinstance(t, Turn)
    ev = t.events
    dealt = np.zeros((N_SEATS, N_KINDS), np.int64)
    for e in ev[ev[:, 0] == EV_DEAL]:
        dealt[e[1], e[2]] += 1
    drawn = int(ev[(ev[:, 0] == EV_DRAW) & (ev[:, 1] == seat)][-1, 2])
    dora = int(ev[ev[:, 0] == EV_ROUND_START][-1, 2])
    text = "\n".join(t.lines)
    assert f"your hand {format_counts(dealt[seat])} " in text
    assert f"drew {tile_str(drawn)}" in text
    mine = dealt[seat].copy()
    mine[drawn] += 1
    mine[dora] += 1
    np.testing.assert_array_equal(_emoji_counts(text), mine)   # nothing else is shown
    for other in set(range(N_SEATS)) - {seat}:
        assert format_counts(dealt[other]) not in text
    assert sorted(a for a, _ in t.actions) == [a for a, _ in t.actions]
    assert {a for a, _ in t.actions} >= {k for k in range(N_KINDS) if mine[k] - (k == dora) > 0}


def test_the_play_command_answers_a_bad_key_and_stops_at_q(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "g.json"
    r = CliRunner().invoke(main, ["play", "emoji", "--seat", "0", "--save", str(save)],
                           input="zz\n1\nq\n")
    assert r.exit_code == 130, r.output
    assert "'zz' is not a choice" in r.output and "your hand" in r.output
    assert "round E1 · turn 2 of 15" in r.output and "Traceback" not in r.output
    s = PlaySession.load(save)
    assert len(s.decisions) == 1 and s.fam.NAME == "emoji"
