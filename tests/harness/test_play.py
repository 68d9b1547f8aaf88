"""``play``: a human seat on the compiled engine (simcore.studies.play, simcore.cli.play).
The session replays the human's decisions and stops at the next one; a whole game driven
through a pty; the saved game goes on with --resume and replays to the same records; bad input
is one line."""

import json
import os
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.studies.play import Finished, PlaySession, Turn
from tests.play_checks import assert_saved_game_replays


def _first_legal_to_the_end(session):
    while True:
        t = session.step()
        if isinstance(t, Finished):
            return t
        session.play(t.actions[0][0], t)


def test_a_whole_game_and_its_replay_from_the_saved_decisions(tmp_path):
    s = PlaySession.open("new_edition", seat=1, seed=5)
    fin = _first_legal_to_the_end(s)
    assert len(s.decisions) > 20 and len(fin.rounds) >= 1
    assert_saved_game_replays(s, fin, tmp_path / "g.json")


@pytest.mark.plays("sparrow")
def test_a_whole_sparrow_game_from_its_seat_view():
    """A second family through the same session: its view shows the discards of every seat."""
    s = PlaySession.open("sparrow", seat=2, seed=4)
    t = s.step()
    assert isinstance(t, Turn) and "your hand" in "\n".join(t.lines)
    assert all(label.startswith(("discard", "take", "decline")) for _, label in t.actions)
    fin = _first_legal_to_the_end(s)
    assert isinstance(fin, Finished) and len(fin.rounds) >= 1


def test_the_bot_seat_plays_as_in_run_and_the_human_sees_only_its_own_hand():
    """With the human taking what the scenario's bot would take, the game is run's game: the
    human seat's first decision shows its own hand and legal actions only."""
    s = PlaySession.open("new_edition", seat=0, seed=5)
    t = s.step()
    assert isinstance(t, Turn) and t.actions
    text = "\n".join(t.lines)
    assert "hand" in text and "bot:" in text and "cards in hand" in text


def test_undo_takes_back_the_last_choice_and_the_forced_moves_after_it():
    s = PlaySession.open("new_edition", seat=0, seed=5)
    chosen = None
    while chosen is None:
        t = s.step()
        s.play(t.actions[-1][0], t)
        if len(t.actions) > 1:
            chosen = len(s.decisions)
    t = s.step()
    if len(t.actions) == 1:
        s.play(t.actions[0][0], t)
    assert s.undo()
    assert len(s.decisions) == chosen - 1
    assert not PlaySession.open("new_edition", seat=0, seed=5).undo()


@pytest.mark.parametrize("args, fragment", [
    (["play", "new_edition", "--seat", "2"], "--seat 2: the scenario has seats 0 to 1"),
    (["play", "--resume", "nowhere.json"], "nowhere.json: not a saved game"),
    (["play", "new_edition", "--resume", "x.json"], "give no SCENARIO"),
])
def test_bad_play_input_is_one_line(args, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and fragment in r.output and "Traceback" not in r.output
    assert not (tmp_path / "results").exists()   # nothing written


def test_a_family_without_a_seat_view_is_refused_before_anything_is_written(tmp_path,
                                                                            monkeypatch):
    from simcore.family import registry
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(type(registry.get("momojan")), "SEAT_VIEW", "")
    r = CliRunner().invoke(main, ["play", "new_edition"])
    assert r.exit_code == 2 and "draws no table for a human seat yet" in r.output
    assert not (tmp_path / "results").exists()


def test_an_unwritable_save_is_refused_before_play(tmp_path):
    (tmp_path / "a_file").write_text("")
    r = CliRunner().invoke(main, ["play", "new_edition", "--save",
                                  str(tmp_path / "a_file" / "g.json")])
    assert r.exit_code == 2 and "cannot write" in r.output and "Traceback" not in r.output


def _spawn(pexpect, command, args, **kw):
    """The command in a pty. Each answer is sent once the prompt it answers is read (click's
    prompt reads a line and flushes nothing), so pexpect's default pause of 0.05 s before every
    send is left out: a whole game is some hundred of them."""
    child = pexpect.spawn(command, args, encoding="utf-8", timeout=300, **kw)
    child.delaybeforesend = None
    return child


def test_a_whole_terminal_game_through_a_pty(tmp_path):
    """pexpect drives the real command: a bad key is answered, undo and the rules work, the
    game is played to its end with the first choice each time, q and --resume carry on."""
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "game"   # a result directory
    cmd = [sys.executable, "-m", "simcore.cli", "play", "new_edition", "--seat", "0",
           "--seed", "9", "--save", str(save)]
    child = _spawn(pexpect, cmd[0], cmd[1:], env={**os.environ, "COLUMNS": "120"})
    child.expect(r"your move \[1-\d+, h, u, \?, q\]")
    child.sendline("h")
    child.expect(r"baseline\s+would ")
    child.sendline("zz")
    child.expect("is not a choice")
    child.sendline("?")
    child.expect(r"your move")
    child.sendline("1")
    child.expect(r"your move")
    child.sendline("u")
    child.expect("undone")
    child.expect(r"your move")
    child.sendline("q")
    child.expect("momojan-sim play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert json.loads((save / "play.json").read_text())["decisions"]
    assert (save / "scenario.yaml").is_file()
    child = _spawn(pexpect, cmd[0], [*cmd[1:4], "--resume", str(save)])
    while True:
        i = child.expect([r"your move \[1-\d+", "game over", pexpect.EOF])
        if i == 0:
            child.sendline("1")
        else:
            break
    assert i == 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    fin = PlaySession.load(save).step()
    assert isinstance(fin, Finished)


def test_a_port_that_cannot_be_had_is_one_line_and_nothing_is_written(tmp_path, monkeypatch):
    import socket
    monkeypatch.chdir(tmp_path)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        r = CliRunner().invoke(main, ["play", "new_edition", "--web", "--port", str(port)])
    finally:
        taken.close()
    assert r.exit_code == 2 and f"--port {port}: cannot listen" in r.output
    assert not (tmp_path / "results").exists()


@pytest.mark.browser
def test_a_whole_browser_game_in_headless_chromium(tmp_path):
    """play --web: the page in headless Chromium plays the game to its end (autoplay clicks the
    first action each time, through the page's own buttons and requests); a connection that
    breaks off mid-request does not stop the server; the saved game replays to its end."""
    import socket
    import subprocess
    import urllib.request
    from tests.plot_checks import chromium
    browser = chromium()
    if browser is None:
        if os.environ.get("MOMOJAN_REQUIRE_BROWSER_TEST"):
            pytest.fail("headless Chromium is required here (.ci/run installs it)")
        pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium)")
    save = tmp_path / "web.json"
    proc = subprocess.Popen([sys.executable, "-m", "simcore.cli", "play", "new_edition", "--web",
                             "--seed", "4", "--save", str(save)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for line in proc.stdout:
            if "playing at http://127.0.0.1:" in line:
                url = line.split("playing at ")[1].split()[0]
                break
        assert url, "no address printed"
        host, port = url.split("//")[1].rstrip("/").split(":")
        with socket.create_connection((host, int(port))) as s:   # a request cut short
            s.sendall(b"GET /sta")
        hints = json.loads(urllib.request.urlopen(url + "hints", timeout=120).read())["hints"]
        assert {b for b, _ in hints} >= {"random", "baseline"}
        page = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                               "--virtual-time-budget=120000", "--dump-dom", url + "?autoplay=1"],
                              capture_output=True, text=True, timeout=300)
        assert "game over after" in page.stdout, page.stderr[-2000:]
        assert "how the last round ended" in page.stdout
        req = urllib.request.Request(url + "quit", data=b"{}", method="POST")
        assert json.loads(urllib.request.urlopen(req, timeout=30).read())["stopped"]
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    fin = PlaySession.load(save).step()
    assert isinstance(fin, Finished) and len(json.loads(save.read_text())["decisions"]) > 20


def test_a_played_game_replays_with_the_replay_command(tmp_path):
    s = PlaySession.open("new_edition", seat=1, seed=6)
    _first_legal_to_the_end(s)
    s.save(tmp_path / "g.json")
    r = CliRunner().invoke(main, ["replay", str(tmp_path / "g.json"), "--round", "1"])
    assert r.exit_code == 0, r.output
    assert "P1 (played by you)" in r.output and "── round 1" in r.output
    r = CliRunner().invoke(main, ["replay", str(tmp_path / "g.json"), "--seed", "3"])
    assert r.exit_code == 2 and "a played game names its seed" in r.output


@pytest.mark.parametrize("name", ["new_edition", "sparrow", "ptrump_2p", "emoji", "riichi2p"])
def test_hints_name_a_legal_action_for_every_bot(name):
    """h: each registered bot asked at the human's decision through the family's decide."""
    s = PlaySession.open(name, seat=0, seed=2)
    t = s.step()
    while len(t.actions) < 2:
        s.play(t.actions[0][0], t)
        t = s.step()
    hints = s.hints(t)
    labels = {label for _, label in t.actions}
    assert [b for b, _ in hints] == list(s.fam.POLICIES.names)
    assert all(label in labels or label.startswith("leave it to the default")
               for _, label in hints)
    assert sum(label in labels for _, label in hints) >= 2   # the bots that choose, choose


def test_played_compares_your_games_with_the_bot_in_your_seat_on_the_same_deals(tmp_path):
    """played: your games, each against the scenario's bot in your seat on the same deal (the
    human here follows the bot's hints, which break ties with their own random stream, so the
    games need not be the bot's); unfinished games are left out and said so."""
    from simcore.studies.play import played_summary
    files = []
    for seed in (21, 22, 23):
        s = PlaySession.open("new_edition", seat=0, seed=seed)
        while True:   # play as the seat's own bot would: the hint of the scenario's bot
            t = s.step()
            if isinstance(t, Finished):
                break
            bot = s.sc["players"][0]["policy"]
            choice = dict(s.hints(t))[bot]
            s.play(next(a for a, label in t.actions if label == choice), t)
        files.append(tmp_path / f"g{seed}.json")
        s.save(files[-1])
    unfinished = PlaySession.open("new_edition", seat=0, seed=24)
    unfinished.save(tmp_path / "open.json")
    out = played_summary([*files, tmp_path / "open.json"])
    assert out["games"] == 3 and out["unfinished"] == [str(tmp_path / "open.json")]
    assert all(0 <= r["yours"] <= 1 for r in out["games_list"])
    r = CliRunner().invoke(main, ["played", *map(str, files)])
    assert r.exit_code == 0 and "3 games: your share of wins" in r.output
    r = CliRunner().invoke(main, ["played", str(tmp_path / "open.json")])
    assert r.exit_code == 2 and "no finished game" in r.output


def test_a_game_is_saved_as_a_result_directory_that_replay_and_played_read(tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["play", "new_edition", "--seed", "8"], input="1\nq\n")
    assert r.exit_code == 130, r.output
    (d,) = (tmp_path / "results").glob("play-new_edition-*")
    assert (d / "play.json").is_file() and (d / "scenario.yaml").is_file()
    assert "momojan-sim play --resume results/play-new_edition-" in r.output
    r = CliRunner().invoke(main, ["replay", str(d)])
    assert r.exit_code == 2 and "the game is not finished" in r.output
    r = CliRunner().invoke(main, ["played", str(d)])
    assert r.exit_code == 2 and "no finished game" in r.output
    r = CliRunner().invoke(main, ["play", "--resume", str(d)], input="1\n" * 400)
    assert "game over after" in r.output
    r = CliRunner().invoke(main, ["replay", str(d), "--round", "1"])
    assert r.exit_code == 0 and "(played by you)" in r.output


@pytest.mark.parametrize("name", ["new_edition", "ptrump_2p", "ptrump_3p", "emoji", "riichi2p",
                                  "sparrow"])
def test_a_whole_game_of_every_family_through_a_pty(name, tmp_path):
    """The terminal command played to the game's end through a pty, always the first choice;
    the game it saved replays to its end."""
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "game"
    child = _spawn(pexpect, sys.executable, ["-m", "simcore.cli", "play", name, "--seat", "0",
                                             "--seed", "5", "--save", str(save)])
    import io
    child.logfile_read = seen = io.StringIO()
    moves = 0
    while True:
        i = child.expect([r"your move \[1-\d+", "game over after", pexpect.EOF])
        if i != 0:
            break
        child.sendline("1")
        moves += 1
    assert i == 1 and moves > 3, child.before[-2000:]
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    r = CliRunner().invoke(main, ["replay", str(save), "--round", "1"])
    assert r.exit_code == 0 and "played by you" in r.output
    # every round's end was shown as the replay prints it (its title and its ledger lines)
    replay = PlaySession.load(save).replay()
    out = seen.getvalue()
    for rnd in replay.rounds:
        assert rnd.title in out
        ends = [t for k, t in rnd.lines if k in ("win", "draw_end", "ledger")]
        assert ends and all(t in out for t in ends), rnd.title


def test_game_and_seed_choose_the_deal_and_played_json_is_the_summary(tmp_path, monkeypatch):
    """--game and --seed pick game G of seed S (the saved record says so, and a different game
    is a different deal); played --json prints the summary as JSON."""
    monkeypatch.chdir(tmp_path)
    for g in (0, 2):
        r = CliRunner().invoke(main, ["play", "new_edition", "--seed", "3", "--game", str(g),
                                      "--save", f"g{g}"], input="q\n")
        assert r.exit_code == 130, r.output
        rec = json.loads((tmp_path / f"g{g}" / "play.json").read_text())
        assert (rec["seed"], rec["game"]) == (3, g)
    firsts = [PlaySession.load(tmp_path / f"g{g}").step().lines for g in (0, 2)]
    assert firsts[0] != firsts[1]
    s = PlaySession.open("new_edition", seat=0, seed=3)
    _first_legal_to_the_end(s)
    s.save(tmp_path / "done")
    r = CliRunner().invoke(main, ["played", str(tmp_path / "done"), "--json"])
    out = json.loads(r.output)
    assert r.exit_code == 0 and out["games"] == 1 and out["difference"]["ci"] == [None, None]


def test_played_intervals_cover_the_true_difference_at_their_stated_rate():
    """Coverage of played's interval (studies.play.mean_interval) on games whose truth is
    known: 20 games a study, your win 40% and the bot's 50% independently (true difference
    -10 pp), 3000 studies with a pinned seed: the 95% interval covers -0.1 in 93-97% of them."""
    from simcore.studies.play import mean_interval
    rng = np.random.default_rng(20261205)
    covered = 0
    for _ in range(3000):
        d = (rng.random(20) < 0.4).astype(float) - (rng.random(20) < 0.5).astype(float)
        lo, hi = mean_interval(d, -1.0)
        covered += lo is not None and lo <= -0.1 <= hi
    assert 0.93 <= covered / 3000 <= 0.97, covered / 3000


def test_save_never_writes_into_another_result_or_saved_game(tmp_path):
    """A QA trial: ``play --save RUN_DIR`` added a play.json to a finished run, whose replay
    then said the game was not finished. --save takes a new path or an empty directory; a
    saved game is gone on with by --resume, never overwritten by a new one."""
    run = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "20", "--workers", "1",
                                  "--quiet", "--no-report", "--out", str(run)])
    assert r.exit_code == 0, r.output
    before = sorted(p.name for p in run.iterdir())
    r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(run)], input="1\nq\n")
    assert r.exit_code == 2 and "exists and is not empty" in r.output, r.output
    assert sorted(p.name for p in run.iterdir()) == before
    game = tmp_path / "game"
    r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(game)], input="1\nq\n")
    assert r.exit_code == 130, r.output
    saved = (game / "play.json").read_text()
    r = CliRunner().invoke(main, ["play", "new_edition", "--seed", "9", "--save", str(game)],
                           input="q\n")
    assert r.exit_code == 2 and f"play --resume {game}" in r.output, r.output
    assert (game / "play.json").read_text() == saved
    other = tmp_path / "other.json"
    other.write_text("{}")
    r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(other)], input="q\n")
    assert r.exit_code == 2 and "not a game play saved" in r.output
    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(tmp_path / "empty")],
                           input="q\n")
    assert r.exit_code == 130 and (tmp_path / "empty" / "play.json").exists()
    # a review: the file form of --save reached into the run's folder the same way
    for name in ("play.json", "mine.json"):
        r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(run / name)],
                               input="q\n")
        assert r.exit_code == 2 and "another command's result" in r.output, r.output
    assert sorted(p.name for p in run.iterdir()) == before
    r = CliRunner().invoke(main, ["play", "new_edition", "--seed", "9", "--save",
                                  str(game / "play.json")], input="q\n")
    assert r.exit_code == 2 and "holds a saved game" in r.output, r.output
    # going on with a game names it either way: its folder or its play.json
    for resume, save in ((game, game / "play.json"), (game / "play.json", game)):
        r = CliRunner().invoke(main, ["play", "--resume", str(resume), "--save", str(save)],
                               input="q\n")
        assert r.exit_code == 130, r.output


def test_the_end_of_input_keeps_the_game_as_q_does(tmp_path):
    """A QA trial: end of input printed click's 'Aborted!' with exit 1 and no resume line
    (click's prompt turns Ctrl-C and SIGTERM into the same Abort: the pty test below stops a
    game by Ctrl-C); a later one: it said "interrupted", exit 130, as if Ctrl-C had stopped it."""
    d = tmp_path / "g"
    r = CliRunner().invoke(main, ["play", "new_edition", "--save", str(d)], input="1\n")
    assert r.exit_code == 1, r.output
    assert r.stdout.endswith("q]: \n"), r.output   # the prompt's line ended first
    assert r.stderr.strip() == (f"momojan-sim: the input ended before the game did (the game so far is in "
                    f"{d}: momojan-sim play --resume {d})"), r.output
    assert "Aborted" not in r.output and "interrupted" not in r.output
    assert PlaySession.is_saved_game(d)


@pytest.mark.parametrize("sig, status, says", [("SIGINT", 130, "interrupted"),
                                               ("SIGTERM", 143, "stopped by SIGTERM")])
def test_a_signal_at_the_prompt_keeps_the_game_and_says_how_to_go_on(tmp_path, sig, status,
                                                                      says):
    """A QA trial: Ctrl-C and SIGTERM at the prompt printed 'Aborted!' with exit 1."""
    import signal as _signal
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "game"
    child = _spawn(pexpect, sys.executable, ["-m", "simcore.cli", "play", "new_edition",
                                             "--seed", "9", "--save", str(save)])
    child.expect(r"your move \[1-\d+")
    child.sendline("1")
    child.expect(r"your move \[1-\d+")
    child.kill(getattr(_signal, sig))
    child.expect(f"{says} \\(the game so far is in {save}: momojan-sim play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    assert json.loads((save / "play.json").read_text())["decisions"]


def test_an_edited_saved_game_is_refused_in_one_line(tmp_path):
    """A QA trial: decisions edited to [999, -5] reached the engine, whose assertion ended
    --resume with a traceback."""
    s = PlaySession.open("new_edition", seat=0, seed=5)
    t = s.step()
    s.play(t.actions[0][0], t)
    s.save(tmp_path / "g")
    rec = json.loads((tmp_path / "g" / "play.json").read_text())
    for decisions, says in (([999], "decision 1, action 999: not a legal action there"),
                            ([1, 2], "its seed, game or decisions are damaged")):
        rec.update(decisions=decisions, forced=[False])
        (tmp_path / "g" / "play.json").write_text(json.dumps(rec))
        for args in (["play", "--resume", str(tmp_path / "g")], ["replay", str(tmp_path / "g")]):
            r = CliRunner().invoke(main, args)
            assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, \
                r.output
    r = CliRunner().invoke(main, ["play", "new_edition", "--game", str(2 ** 70)])
    assert r.exit_code == 2 and "--game" in r.output


def test_a_terminal_closed_at_the_prompt_keeps_the_game_and_exits_129(tmp_path):
    """A review: the line break written before the stop's line met the closed terminal (EIO)
    and the command ended 'cannot write the output', exit 2, instead of as SIGHUP stops it."""
    import pty
    import select
    save, err = tmp_path / "game", tmp_path / "stderr"
    pid, fd = pty.fork()
    if pid == 0:   # the child: stdout on the terminal, stderr to a file to read afterwards
        try:
            os.dup2(os.open(str(err), os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
            os.execvp(sys.executable, [sys.executable, "-m", "simcore.cli", "play",
                                       "new_edition", "--seed", "9", "--save", str(save)])
        finally:
            os._exit(127)
    seen, waited = b"", 0.0
    try:   # the prompt: click writes it to stdout, the line editor (readline) to stderr
        while b"your move [" not in seen + (err.read_bytes() if err.exists() else b""):
            assert waited < 300, "no prompt in 300 s"
            if select.select([fd], [], [], 0.2)[0]:
                seen += os.read(fd, 65536)
            waited += 0.2
    finally:
        os.close(fd)   # the terminal hangs up: SIGHUP to the command
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    text = err.read_text()
    assert status == 129, (status, text)
    assert f"stopped by SIGHUP (the game so far is in {save}" in text, text
    assert "cannot write" not in text and PlaySession.is_saved_game(save)
