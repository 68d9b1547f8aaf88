"""``play`` with P-style: a human seat's view of the table (simcore.ptrump.seat_view) through
the generic session (simcore.studies.play) and the prompt (simcore.cli.play). A whole match is
played with the first legal action, its saved decisions replay to the same records, and no view
shows a card another seat holds concealed."""

import json
import re

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.ptrump.cards import JOKER, RANK_CHARS, SUIT_CHARS
from simcore.ptrump.engine import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_KAN, EV_NUKI, EV_PON, EV_ROUND_START,
)
from simcore.studies.play import Finished, PlaySession, Turn
from tests.play_checks import assert_saved_game_replays

pytestmark = pytest.mark.plays("ptrump")

_SUITED = re.compile(r"([1-9TJQK]+)([shdc])")


def _ids(mask):
    m = int(mask) & ((1 << 64) - 1)
    return {c for c in range(54) if (m >> c) & 1}


def _concealed(events, n):
    """Each seat's concealed cards now, from this round's log (the engine's own record)."""
    start = max(i for i, e in enumerate(events) if e[0] == EV_ROUND_START)
    hands = [set() for _ in range(n)]
    for e in events[start:]:
        typ, s, a, b, c = (int(x) for x in e[:5])
        if typ == EV_DEAL:
            hands[s] = _ids(a)
        elif typ == EV_DRAW:
            hands[s].add(a)
        elif typ in (EV_DISCARD, EV_NUKI):
            hands[s].discard(a)
        elif typ == EV_PON:
            hands[s] -= _ids(c) - {a}
        elif typ == EV_KAN:
            hands[s] -= _ids(c)
    return hands


def _suited_shown(text):
    """The suited cards the text writes (``28Th`` is 2h 8h Th; each suited card exists once)."""
    out = set()
    for ranks, suit in _SUITED.findall(text):
        out |= {RANK_CHARS.index(r) * 4 + SUIT_CHARS.index(suit) for r in ranks}
    return out


def _check_view(t, seat, n):
    """The seat's own hand is on its hand line, and no other seat's concealed card anywhere."""
    hands = _concealed(t.events, n)
    this_round = [line for line in t.lines if not line.startswith("last round:")]
    hand_line = next(line for line in t.lines if line.strip().startswith("your hand"))
    mine = hands[seat]
    assert _suited_shown(hand_line) == {c for c in mine if c // 4 != JOKER}
    assert hand_line.split("(ranks")[0].count("X") + hand_line.count("drew X") == \
        sum(c // 4 == JOKER for c in mine)
    for s in range(n):
        if s != seat:
            assert not _suited_shown("\n".join(this_round)) & hands[s], (s, t.lines)
    assert t.actions and len({a for a, _ in t.actions}) == len(t.actions)
    assert len({label for _, label in t.actions}) == len(t.actions)


@pytest.mark.parametrize("scenario, seat, seed", [("ptrump_2p", 1, 5), ("ptrump_3p", 2, 3)])
def test_a_whole_match_with_the_first_legal_action_and_its_replay(scenario, seat, seed,
                                                                   tmp_path):
    s = PlaySession.open(scenario, seat=seat, seed=seed)
    n = len(s.sc["players"])
    first = s.step()
    assert isinstance(first, Turn)
    text = "\n".join(first.lines)
    assert "your hand" in text and "scores:" in text and "dora indicator" in text
    turns = 0
    while True:
        t = s.step()
        if isinstance(t, Finished):
            break
        _check_view(t, seat, n)
        s.play(t.actions[0][0], t)
        turns += 1
    assert turns > 10 and len(t.rounds) >= 1
    assert_saved_game_replays(s, t, tmp_path / "g.json")


def test_the_first_view_shows_the_dealt_hand_and_not_the_other_seat():
    s = PlaySession.open("ptrump_2p", seat=0, seed=0)
    t = s.step()
    dealt = {int(e[1]): _ids(e[2]) for e in t.events if e[0] == EV_DEAL}
    hand_line = next(line for line in t.lines if "your hand" in line)
    mine = _concealed(t.events, 2)[0]
    assert dealt[0] <= mine and len(mine) - len(dealt[0]) <= 1   # the deal (and the draw)
    assert _suited_shown(hand_line) == {c for c in mine if c // 4 != JOKER}
    shown = _suited_shown("\n".join(t.lines))
    assert not shown & (dealt[1] - {int(e[2]) for e in t.events if e[0] == EV_DISCARD})
    order = ["discard", "pon", "open", "closed", "added", "nuki", "TSUMO", "RON", "riichi,",
             "pass"]
    kinds = [label.split()[0] for _, label in t.actions]
    assert kinds[0] == "discard" and kinds == sorted(kinds, key=order.index)


def test_the_terminal_prompt_answers_a_bad_key_and_keeps_the_game_at_q(tmp_path):
    save = tmp_path / "g.json"
    r = CliRunner().invoke(main, ["play", "ptrump_2p", "--seat", "0", "--save", str(save)],
                           input="zz\n1\nq\n")
    assert r.exit_code == 130, r.output
    assert "is not a choice" in r.output and "your hand" in r.output
    assert "Traceback" not in r.output
    rec = json.loads(save.read_text())
    assert rec["family"] == "ptrump" and len(rec["decisions"]) == 1
    assert isinstance(PlaySession.load(save).step(), Turn)

