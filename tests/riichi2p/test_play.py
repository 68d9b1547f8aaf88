"""``play`` on two-player riichi (simcore.riichi2p.seat_view): a whole game through the session
with the first legal action each time and its saved record replayed; the first view shows the
seat's own hand and nothing of the other seat's concealed tiles; the red fives the view follows
from the log are the engine's; the terminal command answers a bad key and stops at q."""

import re

import numpy as np
from click.testing import CliRunner

from simcore.cli import main
from simcore.family.policy import HumanToPlay
from simcore.riichi2p import engine as E
from simcore.riichi2p.seat_view import _table, _this_hand
from simcore.riichi2p.tiles import counts_of, format_counts, parse_tiles, tile_str
from simcore.studies.play import Finished, PlaySession, Turn
from tests.play_checks import assert_saved_game_replays


def _first_legal_to_the_end(session):
    n_turns = 0
    while True:
        t = session.step()
        if isinstance(t, Finished):
            return t, n_turns
        assert t.actions and len({a for a, _ in t.actions}) == len(t.actions)
        n_turns += 1
        session.play(t.actions[0][0], t)


def test_a_whole_game_with_the_first_legal_action_and_its_replay(tmp_path):
    s = PlaySession.open("riichi2p", seat=1, seed=3)
    fin, n_turns = _first_legal_to_the_end(s)
    assert n_turns > 20 and len(fin.rounds) >= 1
    assert fin.games[0, E.GF_ROUNDS] == len(fin.rounds)
    assert_saved_game_replays(s, fin, tmp_path / "g.json")


def _dealer_session(seed):
    """A session seated at the first dealer of game 0 of ``seed``: its first decision is its
    first turn of the first hand (13 dealt tiles and the first draw, nobody has discarded)."""
    s = PlaySession.open("riichi2p", seat=0, seed=seed)
    t = s.step()
    dealer = int(t.events[0, 1])
    assert t.events[0, 0] == E.EV_HAND_START
    if dealer != 0:
        s = PlaySession.open("riichi2p", seat=dealer, seed=seed)
        t = s.step()
    return s, t


def test_the_first_view_shows_the_own_hand_and_no_concealed_tile_of_the_other_seat():
    s, t = _dealer_session(11)
    me, other = s.seat, 1 - s.seat
    ev = t.events
    dealt = {p: [int(e[2]) // 4 for e in ev if e[0] == E.EV_DEAL and e[1] == p] for p in (0, 1)}
    drawn = [int(e[2]) // 4 for e in ev if e[0] == E.EV_DRAW]
    assert len(dealt[me]) == len(dealt[other]) == 13 and len(drawn) == 1
    assert not any(e[0] == E.EV_DISCARD for e in ev)
    text = "\n".join(t.lines)
    mine = f"hand {format_counts(counts_of(dealt[me]))} · drew {tile_str(drawn[0])}"
    assert mine in text
    assert format_counts(counts_of(dealt[other])) not in text
    # every tile the view names is the seat's own or public (the dora indicator, its dora),
    # while the other seat holds kinds that are neither
    public = [int(e[2]) // 4 for e in ev if e[0] == E.EV_INDICATOR]
    public += [int(E.dora_of(k)) for k in public]
    named = set(parse_tiles(" ".join(re.findall(r"\b[0-9]+[mpsz]\b", text))))
    assert named <= set(dealt[me] + drawn + public)
    assert set(dealt[other]) - set(dealt[me] + drawn + public)
    # the same view whatever the other seat was dealt: it is never read
    fake = ev.copy()
    rows = (fake[:, 0] == E.EV_DEAL) & (fake[:, 1] == other)
    fake[rows, 2] = (fake[rows, 2] + 4 * 7) % 136
    obs = t.obs
    mask = np.zeros(E.N_ACTIONS, np.bool_)
    mask[[a for a, _ in t.actions]] = True
    from simcore.riichi2p.seat_view import seat_view
    lines, actions = seat_view(s.sim, me, obs, mask, fake)
    assert lines == t.lines and actions == t.actions
    # the legal actions: a discard of every kind in the hand, in tile order
    kinds = sorted(set(dealt[me] + drawn))
    discards = [a for a, label in t.actions if label.startswith("discard")]
    assert discards == [E.A_DISCARD + k for k in kinds]


def _state(session):
    """The engine state at the session's next decision (as PlaySession.step replays it)."""
    sim = session.sim
    sim.params = session._params()
    rs = sim.new_state(True)
    rs.st[sim.ST_LOG] = 1
    rounds = np.zeros((sim.replay_rounds(), sim.N_RF), np.int64)
    games = np.zeros((1, sim.N_GF), np.int64)
    try:
        sim.kernel(np.array([session.game], np.int64), np.uint64(session.seed), rs, False,
                   rounds, games)
    except HumanToPlay:
        return rs
    return None


def test_the_calls_and_red_fives_the_view_follows_are_the_engines():
    """With red fives on and a seat that calls whatever it may: the seat's concealed red fives
    and every seat's calls, as the view reads them from the log, are the engine state's."""
    s = PlaySession.open("riichi2p_online", seat=0, seed=2)
    checked = calls_seen = 0
    while True:
        t = s.step()
        if isinstance(t, Finished):
            break
        calls = [a for a, label in t.actions if label.startswith("call")]
        if calls or checked < 5 or len(s.decisions) % 10 == 0:
            rs = _state(s)
            ev = rs.ev[:int(rs.st[E.ST_N_EV])]
            _, _, melds, red = _table(_this_hand(ev), s.seat, True)
            assert red == rs.red_conc[s.seat]
            for p in (0, 1):
                assert [m.kind for m in melds[p]] == list(rs.melds[p, :rs.n_melds[p], 1])
            assert bool(rs.red_meld[s.seat]) == any(m.red for m in melds[s.seat])
            checked += 1
            calls_seen += len(melds[0]) + len(melds[1])
        s.play(calls[0] if calls else t.actions[-1][0], t)
    assert checked > 10 and calls_seen > 0


def test_the_terminal_answers_a_bad_key_and_stops_at_q(tmp_path):
    save = tmp_path / "g.json"
    r = CliRunner().invoke(main, ["play", "riichi2p", "--seat", "0", "--save", str(save)],
                           input="zz\n1\nq\n")
    assert r.exit_code == 130, r.output
    assert "'zz' is not a choice" in r.output and "Traceback" not in r.output
    assert "   hand " in r.output and "discard" in r.output
    s = PlaySession.load(save)
    assert s.decisions and isinstance(s.step(), Turn)
