"""Bad input, round four (issue 46, "Nothing lost, nothing wrong"): hand text the parsers of
MOMOJAN, P-style and emoji mahjong misread (digits that are not ASCII, ``turn:`` values, a tile
more often than the deck holds, a second ``dora:`` or win tile), ``--file`` inputs that are not
hands in text (``/dev/zero``), and a corpus of bad options across the commands. The promise is
the one of the earlier rounds: one line ``momojan-sim: error: ...`` naming the problem and the
token, exit 2, no traceback, nothing written."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from simcore.cli import main
from harness.test_cli_input import _one_error_line


def invoke(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch working directory that is also the default results root."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MOMOJAN_SIM_RESULTS", str(tmp_path / "results"))
    return tmp_path


# --- item 1: hand text ------------------------------------------------------------------------

EMOJI_WIN = "123k 123k 99k tsumo"
MOMOJAN_WIN = ["kai:111z kai:456o chi:789o 23o 44z", "--win", "1o", "--by", "ron"]


@pytest.mark.parametrize("args, fragment", [
    # superscript, full-width and Arabic-Indic digits: "²".isdigit() is true but int("²") fails,
    # and int("３") or int("٣") read a digit the notation does not have
    (["score", "--game", "emoji", "123²k 123k 99k tsumo"], "'123²k'"),
    (["score", "--game", "emoji", "🌿² 123k 99k tsumo"], "🌿"),
    (["waits", "--game", "emoji", "３３３4567m"], "'３３３4567m'"),
    (["waits", "--game", "emoji", "٣٣٣4567m"], "'٣٣٣4567m'"),
    (["waits", "--game", "momojan", "123²o 456o 7o"], "'123²o'"),
    (["waits", "--game", "momojan", "１２３o 456o 7o"], "'１２３o'"),
    (["score", "--game", "momojan", *MOMOJAN_WIN[:2], "１o"], "--win"),
    (["waits", "--game", "ptrump", "234 67 5²"], "'5²'"),
    (["score", "--game", "ptrump", "nuki:X 111 TTT 9 +9² tsumo"], "'+9²'"),
])
def test_hand_text_with_digits_that_are_not_ascii_is_one_line(args, fragment):
    _one_error_line(invoke(*args), fragment)


@pytest.mark.parametrize("turn, fragment", [
    ("abc", "not a turn number"), ("²", "not a turn number"), ("٣", "not a turn number"),
    ("-3", "not a turn number"), ("", "not a turn number"), ("0", "out of range"),
    ("16", "out of range"), ("99999999999999999999999", "out of range"),
    ("9" * 400, "out of range"),
], ids=["abc", "superscript", "arabic-indic", "negative", "empty", "zero", "past-last",
        "past-64-bits", "400-digits"])
def test_emoji_turn_that_is_not_a_turn_of_the_scenario_is_one_line(turn, fragment):
    line = _one_error_line(invoke("score", "--game", "emoji", f"{EMOJI_WIN} turn:{turn}"),
                           "turn:", fragment)
    assert len(line) < 300


def test_emoji_turn_within_the_scenario_still_scores():
    r = invoke("score", "--game", "emoji", "--json", f"{EMOJI_WIN} turn:15")
    assert r.exit_code == 0 and '"turn": 15' in r.output


@pytest.mark.parametrize("args, fragments", [
    # the hand holds all three 9k, and `indicator: removed` sets a fourth aside
    (["score", "--game", "emoji", "123k 999k 55k tsumo", "--dora-indicator", "9k"],
     ["--dora-indicator 9k", "3 of each"]),
    (["score", "--game", "emoji", "123k 999k 55k tsumo dora:1k"], ["dora:1k", "9k"]),
    (["score", "--game", "emoji", f"{EMOJI_WIN} dora:9k dora:1k"], ["a second dora:"]),
    (["score", "--game", "emoji", f"{EMOJI_WIN} dora:99k"], ["dora", "one tile"]),
    (["score", "--game", "emoji", f"{EMOJI_WIN} dora:9k", "--dora-indicator", "8k"],
     ["dora given twice"]),
    (["score", "--game", "emoji", "123k 123k 99k +5m"], ["5m is not among the 8 tiles"]),
    (["score", "--game", "emoji", "123k 123k 9k +9k +9k"], ["a second winning tile"]),
    (["score", "--game", "emoji", "123k 123k 9k +9k", "--win", "5m"], ["given twice"]),
    (["score", "--game", "ptrump", "nuki:X 111 TTT 9 +9 tsumo dora:1 ura:1"], ["'ura:1'"]),
    ([*["score", "--game", "momojan"], *MOMOJAN_WIN, "--dora-indicator", "1o"],
     ["--dora-indicator", "1o"]),
])
def test_cards_beyond_the_deck_or_given_twice_are_one_line(args, fragments):
    _one_error_line(invoke(*args), *fragments)


def test_emoji_indicator_in_the_wall_may_be_a_third_copy(tmp_path):
    """Under `indicator: in_wall` the indicator stays drawable: the hand may hold all 3."""
    sc = tmp_path / "in_wall.yaml"
    sc.write_text("extends: emoji\ngame: emoji\nwall:\n  indicator: in_wall\n")
    r = invoke("score", "--game", "emoji", "--rules", sc, "--json", "123k 999k 55k tsumo",
               "--dora-indicator", "9k")
    assert r.exit_code == 0, r.output
    assert '"dora": "1k"' in r.output


@pytest.mark.parametrize("content", [
    b"\0" * 10_000, b"1l" * 100_000, b"\xff\xfe1l 2l\n", b"123o\n\x80\n",
])
def test_waits_file_that_is_not_hands_in_text_is_one_line(tmp_path, content):
    f = tmp_path / "hands.txt"
    f.write_bytes(content)
    _one_error_line(invoke("waits", "--file", f), "--file", "hands.txt")


def test_waits_file_dev_zero_is_refused_at_once():
    """/dev/zero never ends and has no newline: read in bounded pieces, refused after the
    first (before: read into memory for ever)."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    _one_error_line(invoke("waits", "--file", "/dev/zero"), "/dev/zero", "NUL byte")


def test_waits_file_of_stdin_and_a_directory(tmp_path):
    _one_error_line(invoke("waits", "--file", tmp_path), "Is a directory")
    _one_error_line(invoke("waits", "--file", "-", input=b"\0\0\0"), "stdin", "NUL")
    r = invoke("waits", "--game", "emoji", "--file", "-", input="# c\n\n3334567m\r\n")
    assert r.exit_code == 0 and "2m 4m 5m 7m 8m" in r.output


def test_replay_variant_that_is_a_superscript_digit_is_one_line():
    from simcore.errors import InputError
    from simcore.report.replays import _variant_index
    for v in ("²", "٣", "9" * 5000):
        with pytest.raises(InputError, match="--variant"):
            _variant_index(["a", "b"], v, "r")
    assert _variant_index(["a", "b"], "1", "r") == 1


# --- item 2: scenario messages name the user's file; no thousand-character key lists ---------

def _write(path, text):
    path.write_text(text)
    return path


@pytest.mark.parametrize("family, head", [
    ("emoji", "extends: emoji\ngame: emoji\n"),
    ("ptrump", "extends: ptrump_2p\ngame: ptrump\n"),
    ("riichi2p", "extends: riichi2p\ngame: riichi2p\n"),
    ("momojan", "extends: new_edition\n"),
])
def test_a_fault_in_a_base_names_the_users_file_too(here, family, head):
    """user.yaml extends mid.yaml extends base.yaml, whose key is wrong: the line named
    base.yaml alone, as if the user had given it."""
    _write(here / "base.yaml", head + "zork_key: 1\n")
    _write(here / "mid.yaml", "extends: base.yaml\n")
    _write(here / "user.yaml", "extends: mid.yaml\ndescription: mine\n")
    for cmd in (["validate", "user.yaml"], ["run", "user.yaml", "--games", 1, "--no-save"]):
        line = _one_error_line(invoke(*cmd), "base.yaml, extended by ", "user.yaml",
                               "zork_key: unknown key")
        assert line.startswith("momojan-sim: error: in ")
    assert not (here / "results").exists()
    # a fault in the user's own file is named as before
    _write(here / "own.yaml", head + "zork_key: 1\n")
    line = _one_error_line(invoke("validate", "own.yaml"), "own.yaml: zork_key: unknown key")
    assert "extended by" not in line


def test_a_base_that_is_not_yaml_names_the_users_file_too(here):
    _write(here / "base.yaml", "extends: emoji\ngame: emoji\nscoring: [\n")
    _write(here / "user.yaml", "extends: base.yaml\ngame: emoji\n")
    _one_error_line(invoke("validate", "user.yaml"), "base.yaml, extended by ", "user.yaml",
                    "not valid YAML")
    _write(here / "lost.yaml", "extends: no_such_scenario_zz\ngame: emoji\n")
    _write(here / "child.yaml", "extends: lost.yaml\ngame: emoji\n")
    _one_error_line(invoke("validate", "child.yaml"), "lost.yaml, extended by ", "child.yaml",
                    "no_such_scenario_zz: no such scenario")


@pytest.mark.parametrize("text, fragments", [
    # riichi2p's top level has about 70 keys: the line printed them all (1,000 characters)
    ("extends: riichi2p\ngame: riichi2p\nqqqq: 1\n", ["qqqq: unknown key", "keys known here"]),
    ("extends: riichi2p\ngame: riichi2p\nscoring:\n  yaku: {qqqq: 1}\n", ["unknown key"]),
    ("extends: emoji\ngame: emoji\nscoring:\n  yaku: {qqqq: 1}\n", ["unknown key"]),
    ("extends: emoji\ngame: emoji\nscoring:\n  supersedes: {qqqq: []}\n", ["unknown yaku"]),
    ("extends: ptrump_2p\ngame: ptrump\nqqqq: 1\n", ["qqqq: unknown key"]),
    ("extends: new_edition\nscoring:\n  yaku: {qqqq: {points: 1}}\n", ["unknown key"]),
    # a close match is still suggested
    ("extends: riichi2p\ngame: riichi2p\nstart_point: 1\n", ["did you mean 'start_points'?"]),
    ("extends: emoji\ngame: emoji\nscoring:\n  supersedes: {tanyo: []}\n",
     ["did you mean 'tanyao'?"]),
    ("extends: riichi2_p\n", ["did you mean 'riichi2p'?"]),
])
def test_an_unknown_key_gets_a_close_match_or_a_count_not_the_whole_list(here, text,
                                                                          fragments):
    _write(here / "s.yaml", text)
    line = _one_error_line(invoke("validate", "s.yaml"), *fragments)
    assert len(line.replace(str(here), "")) < 300, line


def test_known_hint_lists_a_short_list_and_counts_a_long_one():
    from simcore.family.scenario.files import known_hint
    assert known_hint("x", ["a", "b"]) == " (expected one of: a, b)"
    assert known_hint("tanyo", ["tanyao", "tsumo"]) == " (did you mean 'tanyao'?)"
    many = [f"key_number_{i}" for i in range(70)]
    hint = known_hint("qqqq", many, "keys", "see the docs")
    assert hint == " (none of the 70 keys known here is close; see the docs)"


# --- item 3: a corpus of bad command lines ---------------------------------------------------
# Found by probing every command with empty strings, huge and negative numbers, non-ASCII
# digits, missing files, devices and directories (issue 46). Each case was a traceback, an exit
# status other than 2, or an empty value silently read as "the default" (exit 0).

PLAY = ["--games", 2, "--workers", 1, "--quiet", "--no-save"]


@pytest.mark.parametrize("args, fragment", [
    # empty values that were ignored or read as the default, exit 0
    (["run", "new_edition", *PLAY, "--players", ""], "'--players': an empty value"),
    (["run", "new_edition", *PLAY, "--address", ""], "'--address': an empty value"),
    (["compare", "new_edition", "no_ron_bonus", *PLAY, "--metrics", ""], "'--metrics'"),
    (["compare", "new_edition", "no_ron_bonus", *PLAY, "--pairings", ""], "'--pairings'"),
    (["sweep", "new_edition", "--set", "ante.base=1,2", *PLAY, "--metrics", ""], "'--metrics'"),
    (["replay", "new_edition", "--html", ""], "'--html': an empty value"),
    (["replay", "new_edition", "--players", ""], "'--players': an empty value"),
    (["waits", "123l 456l 7l", "--file", ""], "'--file': an empty value"),
    (["metrics", "--game", ""], "'--game': an empty value"),
    (["metrics", ""], "an empty value"),
    (["plan", "new_edition", "", "--detect", "0.01", "--quiet"], "'[B]': an empty value"),
    (["compare", "new_edition", "", *PLAY], "'B': an empty value"),
    (["score", ""], "'HAND': an empty value"),
    (["report", ""], "'DIR': an empty value"),
    # scenario references that are no file: a traceback (OSError) or "no such scenario"
    (["run", "a" * 5000, *PLAY], "File name too long"),
    (["validate", "a" * 5000], "File name too long"),
    (["show", "a" * 5000], "File name too long"),
    (["replay", "a" * 5000], "File name too long"),
    (["run", "/dev/null", *PLAY], "/dev/null: not a regular file"),
    (["validate", "/dev/zero"], "/dev/zero: not a regular file"),
    (["replay", "/dev/null"], "/dev/null: not a regular file"),
    (["run", " ", *PLAY], "'SCENARIO': an empty value"),
    (["validate", " "], "' ': an empty scenario name"),
    (["waits", "--rules", " ", "123l"], "'--rules': an empty value"),
    # solve's --range with no finite bounds said "LO must be below HI"
    (["solve", "new_edition", "--param", "ante.base", "--target", "0.5", "--range", "nan,1",
      "--no-save"], "not two finite numbers"),
    (["solve", "new_edition", "--param", "ante.base", "--target", "0.5", "--range", "1,inf",
      "--no-save"], "not two finite numbers"),
])
def test_bad_command_lines_are_one_line_and_write_nothing(here, args, fragment):
    if any(isinstance(a, str) and a.startswith("/dev/") for a in args) and \
            not os.path.exists("/dev/null"):
        pytest.skip("no /dev")
    line = _one_error_line(invoke(*args), fragment)
    assert len(line) < 400, line
    assert not (here / "results").exists() and sorted(os.listdir(here)) == []


@pytest.mark.parametrize("args, fragment", [
    (["run", "new_edition", "--games", 2, "--out", "a\0b"], "'--out': a NUL byte"),
    (["waits", "1l\0 2l"], "a NUL byte"),
    (["validate", "x\0.yaml"], "a NUL byte"),
    (["replay", "new_edition", "--html", "r\0.html"], "a NUL byte in an argument"),
])
def test_a_nul_byte_in_a_value_is_one_line(here, args, fragment):
    """`--out 'a\0b'` (from Python: no command line holds one) was a ValueError traceback."""
    _one_error_line(invoke(*args), fragment)
    assert sorted(os.listdir(here)) == []


def test_show_diff_alone_still_means_the_base():
    """The generic empty-value check leaves an option whose bare form stands for a value."""
    r = invoke("show", "no_ron_bonus", "--diff")
    assert r.exit_code == 0 and "differs" in r.output


@pytest.mark.parametrize("deck, hand, indicator, fragment", [
    # ranks 1-8: a 9 is in no hand and no dead wall (it was accepted and scored as a dora)
    ("deck: {ranks: 8}", "kai:111z kai:456o chi:678l 23o 44z", "9l", "9l is not in this"),
    # two dogs in the deck, both in the hand: the indicator would be a third
    ("deck: {picture_copies: {dog: 2}}", "kai:222z kai:456o chi:678l 23o 11z", "1z",
     "(2 of the deck's 2)"),
])
def test_momojan_dora_indicator_beyond_the_scenarios_deck_is_one_line(here, deck, hand,
                                                                       indicator, fragment):
    _write(here / "d.yaml", f"extends: new_edition\n{deck}\n")
    _one_error_line(invoke("score", "--rules", "d.yaml", hand, "--win", "1o",
                           "--dora-indicator", indicator), "--dora-indicator", fragment)


def test_momojan_scenario_naming_its_family_is_told_what_game_holds(here):
    """`game: momojan`, as the other families write theirs, read 'game: expected a mapping,
    got "momojan"'."""
    _write(here / "g.yaml", "extends: new_edition\ngame: momojan\n")
    for cmd in (["validate", "g.yaml"], ["run", "g.yaml", *PLAY]):
        _one_error_line(invoke(*cmd), "g.yaml: game: a family name", "remove `game: momojan`")
    _write(here / "g2.yaml", "extends: new_edition\ngame: momojan\nzork: 1\n")
    r = invoke("validate", "g2.yaml")   # every error of the file, the game one first
    assert r.exit_code == 2 and "game: a family name" in r.output and "zork" in r.output


@pytest.mark.parametrize("args, fragment", [
    (["compare", "new_edition", "emoji", *PLAY], "emoji an emoji one"),
    (["waits", "--game", "momojan", "--rules", "emoji", "1l"], "an emoji scenario, not a momojan"),
    (["show", "new_edition", "--diff", "emoji"], "an emoji scenario"),
    (["validate", "x.yaml"], "but it extends emoji.yaml, an emoji scenario"),
])
def test_family_names_take_their_article(here, args, fragment):
    """'a emoji scenario' read wrong in every message naming two families."""
    _write(here / "x.yaml", "game: riichi2p\nextends: emoji\n")
    _one_error_line(invoke(*args), fragment)


# --- the hand parsers never fail any other way ------------------------------------------------

_TOKENS = {
    "momojan": ["kai:111z", "kai:456o", "chi:789o", "23o", "44z", "123l", "7l", "1o", "pon:555m",
                "kan:1111i", "dog", "moon", "lemon3", "99i", "5z", "kai:", "1²o", "３l", "+1o"],
    "emoji": ["123k", "99k", "9k", "+9k", "+5m", "456m", "789h", "11z", "tsumo", "ron", "riichi",
              "riichi1", "dealer", "last", "turn:1", "turn:15", "turn:-3", "turn:²", "turn:",
              "dora:9k", "dora:", "dora:99k", "🌿1", "⭐²", "🐱", "1²k", "٣m"],
    "ptrump": ["234", "67", "55", "+8", "111", "TTT", "9", "nuki:X", "X", "pon:555", "kan:7777",
               "ankan:8888", "dora:K", "ura:X", "tsumo", "ron", "riichi", "ippatsu", "dealer",
               "5h", "234s", "dora:9", "ura:9", "turn:abc", "²"],
}


@pytest.mark.parametrize("family", sorted(_TOKENS))
def test_hand_text_of_any_tokens_is_read_or_refused_as_bad_input(family):
    """Hands built from real tokens and the ones the probes broke with: waits and score read
    them or raise InputError (one line, exit 2), never anything else (ValueError of
    int('²'), numba's OverflowError of a turn past 64 bits)."""
    from simcore.errors import InputError
    from simcore.family import registry as families
    fam = families.get(family)
    sc = fam.SCENARIOS.load(fam.DEFAULT_SCENARIO)
    opts = {"win": "1o"} if family == "momojan" else {}

    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from(_TOKENS[family]), min_size=1, max_size=9))
    def check(tokens):
        text = " ".join(tokens)
        for fn, kw in ((fam.waits_json, {}), (fam.score_json, opts)):
            try:
                fn(text, sc, **kw)
            except InputError:
                pass

    check()


@pytest.mark.parametrize("line, shown, kind", [
    ("null: 3", "null", "null"), ("true: 1", "true", "a boolean"), ("1: 2", "1", "a number"),
    ('"": 1', '""', "an empty string"), ("scoring: {1: 2}", "scoring.1", "a number"),
])
def test_a_key_yaml_reads_as_no_name_is_named_as_written(here, line, shown, kind):
    """`null: 3` read 'None: unknown key', `"": 1` read ': unknown key'."""
    _write(here / "k.yaml", f"extends: emoji\ngame: emoji\n{line}\n")
    _one_error_line(invoke("validate", "k.yaml"), f"k.yaml: {shown}: not a key name",
                    f"reads it as {kind}")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["show", "new_edition"], ["waits", "--game", "emoji", "3334567m"]])
def test_stdout_that_cannot_be_written_is_one_line(args):
    """`> /dev/full` (a full disk under `> out.txt`) was an OSError traceback."""
    import subprocess
    import sys
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "simcore.cli", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert lines[0] == ("momojan-sim: error: cannot write the output to stdout: No space left "
                        "on device")


@pytest.mark.parametrize("hand, opts, fragment", [
    ("123k 123k 99k tsumo ron", [], "tsumo and ron both given"),
    ("123k 123k 99k tsumo", ["--by", "ron"], "--by ron contradicts the word tsumo"),
    ("123k 123k 99k ron", ["--by", "tsumo"], "--by tsumo contradicts the word ron"),
    ("123k 123k 99k riichi riichi1", [], "riichi and riichi1 both given"),
    ("123k 123k 99k tsumo tsumo", [], "the word tsumo given twice"),
])
def test_emoji_score_context_that_contradicts_itself_is_one_line(hand, opts, fragment):
    """Each was read silently (tsumo and riichi1 won)."""
    _one_error_line(invoke("score", "--game", "emoji", hand, *opts), fragment)


def test_emoji_score_context_that_agrees_still_scores():
    for hand, opts in (("123k 123k 99k tsumo", ["--by", "tsumo"]),
                       ("123k 123k 99k riichi1", ["--riichi"])):
        assert invoke("score", "--game", "emoji", hand, *opts).exit_code == 0


@pytest.mark.parametrize("hand, opts, fragment", [
    # a replacement card follows the winner's own kan: rinshan was scored without one
    ("kai:111z kai:456o chi:789o 23o 44z", [], "holds no kan: group"),
    # the winner draws the replacement card: it scored as a ron without the yaku
    ("kan:1111z kai:456o chi:789o 23o 44z", ["--by", "ron"], "not with --by ron"),
])
def test_momojan_rinshan_that_cannot_happen_is_one_line(hand, opts, fragment):
    _one_error_line(invoke("score", hand, "--win", "1o", "--rinshan", "--rules", "old_edition",
                           *opts), "--rinshan", fragment)


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n  \n"])
def test_waits_file_without_a_hand_is_one_line(tmp_path, content):
    """An empty --file drew an empty table: a TypeError traceback."""
    f = tmp_path / "hands.txt"
    f.write_text(content)
    _one_error_line(invoke("waits", "--file", f), "hands.txt holds no hand")
    _one_error_line(invoke("waits", "--json", "--file", "-", input=content), "stdin holds no hand")


def test_waits_file_of_a_closed_stdin_is_one_line():
    """`waits --file - <&-`: sys.stdin is None (an AttributeError traceback)."""
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "simcore.cli", "waits", "--file", "-"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip() == ("momojan-sim: error: --file -: stdin is closed (give the hands "
                                "on stdin or a file)")


@pytest.mark.parametrize("args, fragment", [
    # honba:/streak: are riichi2p's; the other notations refuse them by name, at any size
    (["score", "--game", "ptrump", f"nuki:X 111 TTT 9 +9 tsumo honba:{2 ** 64}"],
     f"'honba:{2 ** 64}'"),
    (["score", "--game", "emoji", f"123k 123k 99k tsumo streak:{2 ** 64}"],
     "unknown context 'streak:"),
    (["waits", "--game", "momojan", f"honba:{2 ** 64} 123l 456l 7l"], "'honba'"),
])
def test_honba_and_streak_outside_riichi2p_are_one_line(args, fragment):
    _one_error_line(invoke(*args), fragment)
