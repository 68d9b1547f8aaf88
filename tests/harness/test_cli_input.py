"""Bad input on the command line: one line ``momojan-sim: error: ...``, exit 2, never a traceback,
and a finished run is never lost (issue 7 items 9, 10, 12)."""

import json
import os
import tempfile

import pytest
from click.testing import CliRunner

from simcore import cli
from simcore.cli import main


def _one_error_line(result, *fragments):
    """Exit 2 and a single ``momojan-sim: error:`` line holding every fragment."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("momojan-sim: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# --- integers the engine cannot hold (OverflowError before) ---

@pytest.mark.parametrize("args, option", [
    (["run", "new_edition", "--seed", str(2**64)], "--seed"),
    (["run", "new_edition", "--seed", "-1"], "--seed"),
    (["replay", "new_edition", "--seed", str(2**64)], "--seed"),
    (["replay", "new_edition", "--game", str(2**64)], "--game"),
    (["replay", "new_edition", "--game", str(2**63)], "--game"),
    (["run", "new_edition", "--games", str(2**63)], "--games"),
])
def test_integers_beyond_the_engine_types_are_one_line(args, option):
    line = _one_error_line(CliRunner().invoke(main, args), option)
    assert "is not in the range" in line


def test_click_usage_errors_are_one_line_too():
    _one_error_line(CliRunner().invoke(main, ["run"]), "Missing argument 'SCENARIO'")
    _one_error_line(CliRunner().invoke(main, ["no_such_command"]), "No such command")
    _one_error_line(CliRunner().invoke(main, ["score", "1l", "--win", "2l", "--by", "x"]), "--by")


def test_bare_command_still_shows_the_help():
    r = CliRunner().invoke(main, [])
    assert r.output.startswith("Usage: ") and "Commands:" in r.output
    assert "momojan-sim: error" not in r.output


# --- files that are not UTF-8 text (UnicodeDecodeError before) ---

def test_binary_scenario_for_run_is_one_line(tmp_path):
    path = tmp_path / "blob.yaml"
    path.write_bytes(bytes(range(256)))
    _one_error_line(CliRunner().invoke(main, ["run", str(path), "--games", "1"]),
                    "blob.yaml: not a UTF-8 text file")


def test_non_utf8_hand_file_is_one_line(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_bytes(b"123l 456l 7l\n12\xe9l\n")
    _one_error_line(CliRunner().invoke(main, ["waits", "--file", str(path)]),
                    f"--file: {path} is not UTF-8 text (byte 0xe9 at offset 15)")


def test_non_utf8_stdin_is_one_line():
    _one_error_line(CliRunner().invoke(main, ["waits", "--file", "-"], input=b"\xff\xfe1l\n"),
                    "--file: stdin is not UTF-8 text")


# --- a directory where a scenario file is expected ---

def test_scenario_path_that_is_a_directory(tmp_path):
    _one_error_line(CliRunner().invoke(main, ["run", str(tmp_path)]),
                    f"{tmp_path}: is a directory, not a scenario file")
    _one_error_line(CliRunner().invoke(main, ["waits", "--rules", str(tmp_path), "1l"]),
                    "is a directory")


# --- --out: refused before the run if it cannot be written; a finished run is never lost ---

def _no_run(monkeypatch):
    """Make sure a refused --out stops before any game is played."""
    import importlib

    def refuse(*args, **kwargs):
        raise AssertionError("the run started although --out cannot be written")
    for module, name in (("simcore.studies.study", "run_study"), ("simcore.momojan.simulate", "run_games")):
        try:
            monkeypatch.setattr(importlib.import_module(module), name, refuse)
        except (ImportError, AttributeError):
            pass


def test_out_in_an_unwritable_directory_is_refused_before_the_run(monkeypatch):
    _no_run(monkeypatch)
    # /proc refuses new files even for root (a chmod 555 directory does not stop root)
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out", "/proc/summary.json"]),
                    "--out: cannot write /proc/summary.json")


def test_out_in_a_read_only_directory_is_refused_before_the_run(monkeypatch, tmp_path):
    _no_run(monkeypatch)

    real_open = os.open

    def read_only(path, flags, *args, **kwargs):   # what a read-only folder does
        if str(path).startswith(str(tmp_path)) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)
    monkeypatch.setattr(os, "open", read_only)
    line = _one_error_line(
        CliRunner().invoke(main, ["run", "new_edition", "--out", str(tmp_path / "s.json")]),
        f"--out: cannot write {tmp_path / 's.json'}: Permission denied")
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a chmod 555 directory")
def test_out_in_a_chmod_555_directory(monkeypatch, tmp_path):
    _no_run(monkeypatch)
    tmp_path.chmod(0o555)
    try:
        _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out",
                                                  str(tmp_path / "s.json")]), "--out: cannot write")
    finally:
        tmp_path.chmod(0o755)


def test_out_other_refusals(monkeypatch, tmp_path):
    _no_run(monkeypatch)
    # --out DIR is a result directory now: an existing one must be empty (nothing is overwritten)
    (tmp_path / "keep.txt").write_text("mine")
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out", str(tmp_path)]),
                    "exists and is not empty")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out",
                                              str(tmp_path / "keep.txt")]), "is a file")
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out",
                                              str(tmp_path / "nowhere" / "dir")]),
                    "does not exist")
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out",
                                              str(tmp_path / "x.json" / "s.json")]),
                    "does not exist")
    _one_error_line(CliRunner().invoke(main, ["run", "new_edition", "--out",
                                              str(tmp_path / "nowhere" / "s.json")]),
                    "does not exist")


def test_out_that_fails_after_the_run_still_prints_the_summary(monkeypatch, tmp_path):
    """Bug: a PermissionError after the whole run lost it. Now: summary first, then the error."""
    monkeypatch.setattr(cli, "check_writable", lambda path: None)  # it passed, then the disk changed
    out = tmp_path / "gone" / "s.json"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "4", "--workers", "1", "--json",
                                  "--out", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert json.loads(r.stdout)["games"] == 4   # the summary, on stdout
    error_line = r.stderr.strip().splitlines()[-1]  # after any progress lines
    assert error_line.startswith("momojan-sim: error: --out: finished (the summary above) but")
    assert r.output.rstrip().endswith(error_line)   # printed after the summary
    assert not out.exists()


def test_out_writes_the_summary(tmp_path):
    out = tmp_path / "s.json"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "4", "--workers", "1",
                                  "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["games"] == 4
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # the writability probe is gone


def test_small_things_a_qa_trial_found(tmp_path, capsys):
    """A byte-order mark before the first hand of --file (an editor's) is not part of the
    hand; run --resume refuses --debug as it refuses --records (it was ignored without a
    word); python -m simcore.precompile --help answers."""
    f = tmp_path / "hands.txt"
    f.write_bytes("\ufeffkai:111z chi:789o 23o 44z\n".encode("utf-8"))
    r = CliRunner().invoke(main, ["waits", "--file", str(f)])
    assert r.exit_code == 0 and "1m 4m 1o 4o" in r.output, r.output
    r = CliRunner().invoke(main, ["run", "--resume", str(tmp_path), "--debug"])
    assert r.exit_code == 2 and "--debug" in r.stderr
    from simcore import precompile
    assert precompile.main(["--help"]) == 0
    assert "usage: python -m simcore.precompile" in capsys.readouterr().out
