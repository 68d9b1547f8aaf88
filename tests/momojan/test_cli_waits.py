"""The ``waits`` command: JSON and table output, files and stdin, bad lines."""

import json

from click.testing import CliRunner

from simcore.cli import main


def test_json_one_object_per_hand_in_order():
    r = CliRunner().invoke(main, ["waits", "--json", "kai:111z chi:789o 23o 44z 123l",
                                  "kai:111z kai:456o chi:789o 23o 44z 1o"])
    assert r.exit_code == 0, r.output
    first, second = [json.loads(line) for line in r.output.splitlines()]
    assert first == {"input": "kai:111z chi:789o 23o 44z 123l", "concealed": 7, "revealed": 2,
                     "tenpai": True, "waits": ["1m", "4m", "1o", "4o"], "complete": False,
                     "shanten": 0}
    assert second["complete"] is True and second["waits"] == [] and second["shanten"] == -1


def test_file_from_stdin_and_table(tmp_path):
    r = CliRunner().invoke(main, ["waits", "--file", "-"],
                           input="# a comment\nkai:111z 123l 456l 7l\n\n123l 456l 7l\n")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("hand") and len(lines) == 3
    assert "1m 4m 7m" in lines[1] and lines[2].rstrip().endswith("-")
    path = tmp_path / "hands.txt"
    path.write_text("kai:111z 123l 456l 1o\n")
    r = CliRunner().invoke(main, ["waits", "--file", str(path), "--rules", "old_edition", "--json"])
    assert json.loads(r.output)["waits"] == ["1m", "4m", "7m", "7l", "1i", "4z", "5z"]


def test_bad_line_exit_2_names_line_and_token_and_prints_nothing_else():
    r = CliRunner().invoke(main, ["waits", "--file", "-"],
                           input="kai:111z 123l 456l 7l\n12x 3l\n")
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        "momojan-sim: error: line 2: unknown suit letter 'x' in '12x' (expected m l o i z)"]
    r = CliRunner().invoke(main, ["waits", "1l", "--file", "x"])
    assert r.exit_code == 2 and "not both" in r.output
    r = CliRunner().invoke(main, ["waits", "--file", "/nonexistent/hands.txt"])
    assert r.exit_code == 2 and "cannot read" in r.output
