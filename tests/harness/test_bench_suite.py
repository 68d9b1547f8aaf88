"""``python -m benchmarks`` writes one JSON record and fails only when a benchmark crashes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_suite_writes_one_record(tmp_path):
    out = tmp_path / "b.json"
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only", "scoring",
                        "--out", str(out)], cwd=REPO, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    rec = json.loads(out.read_text())
    assert rec["suite"] == "quick" and rec["machine"]["cores"] >= 1
    s = rec["sections"]["scoring"]
    assert s["ok"] and s["data"]["scores_per_s"] > 0 and "load_before" in s
    assert "wins scored" in r.stdout


def test_unknown_section_is_refused(tmp_path):
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "nope",
                        "--out", str(tmp_path / "b.json")], cwd=REPO, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "unknown section(s) nope" in r.stderr


def test_perf_profile_maps_the_compiled_kernels(tmp_path, capsys):
    # benchmarks/perf_profile.py names numba's functions for perf: the map holds the round loop
    sys.path.insert(0, str(REPO))
    from benchmarks import perf_profile
    assert perf_profile.main(["--games", "3"]) == 0
    assert "compiled symbols mapped" in capsys.readouterr().err
    path = tmp_path / "perf.map"
    assert perf_profile.write_perf_map(str(path)) > 0
    lines = path.read_text().splitlines()
    assert any(line.split()[2].endswith("play_round") for line in lines)
    assert all(int(line.split()[1], 16) > 0 for line in lines)
    Path(f"/tmp/perf-{os.getpid()}.map").unlink(missing_ok=True)
    assert perf_profile.main(["--scenario", "nosuch"]) == 2


def test_scaling_counts_take_turns_and_report_the_bare_ceiling():
    sys.path.insert(0, str(REPO))
    from benchmarks import bench_scaling
    # 6000 games in run's 2000-game chunks would be 3 chunks: 2 workers could reach only 75%
    assert bench_scaling.chunk_games_for(6000, 2) == 375
    assert bench_scaling.chunk_games_for(10**6, 2) == 2000 and bench_scaling.chunk_games_for(10, 4) == 50
    rows = bench_scaling.local("new_edition", 200, (1, 2))
    assert [r["workers"] for r in rows] == [1, 2] and all(r["identical"] for r in rows)
    assert rows[0]["efficiency"] == 1.0 and rows[0]["bare_efficiency"] == 1.0
    assert all(r["bare_rounds_per_s"] > 0 and r["seconds_with_startup"] > 0 for r in rows)


def test_engine_bench_refuses_another_family_in_one_line(capsys):
    # it plays MOMOJAN only: a P-style scenario was a ScenarioError traceback ("beginner: unknown key")
    sys.path.insert(0, str(REPO))
    from benchmarks.momojan import bench_engine
    assert bench_engine.main(["--scenario", "ptrump_2p"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "ptrump scenario" in err and "benchmarks/ptrump/bench_engine.py" in err


def test_every_issue_48_figure_is_printed_beside_its_target():
    sys.path.insert(0, str(REPO))
    from benchmarks.__main__ import target_lines
    record = {"sections": {
        "pairings": {"ok": True, "data": {"random": {"rounds_per_s": 50_000,
                                                     "cpu_rounds_per_s": 61_000},
                                          "greedy": {"rounds_per_s": 41_000,
                                                     "cpu_rounds_per_s": 39_000}}},
        "compile": {"ok": True, "data": {"first_run_compile_s": {"momojan": 19.0, "emoji": 38.0},
                                         "install_compile_all_s": 140.0}},
        "verdict": {"ok": False, "error": "boom"}}}
    text = "\n".join(target_lines(record))
    # the engines' rates are judged on CPU time (benchmarks/engine_rate.py), not wall time
    assert "MOMOJAN random rounds/s" in text and "61,000.0   target >= 60,000: met" in text
    assert "39,000.0   target >= 40,000: MISSED" in text
    assert "MOMOJAN value rounds/s" in text and "not measured" in text
    assert "momojan first-run compile, one core (s)" in text and "19.0   target <= 20: met" in text
    assert "38.0   target <= 20: MISSED" in text and "140.0   target <= 90: MISSED" in text
    assert "compare old/new --target-ci 0.002 (s)" in text


@pytest.mark.second_tier
@pytest.mark.parametrize("family", ["momojan", "ptrump", "emoji", "riichi2p", "sparrow"])
def test_each_engine_benchmark_runs_as_a_script_from_anywhere(tmp_path, family):
    # the docstrings say `python benchmarks/<family>/bench_engine.py`: from another folder, with
    # nothing on PYTHONPATH, its imports (benchmarks.engine_rate among them) must still resolve
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, str(REPO / "benchmarks" / family / "bench_engine.py"),
                        "--help"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and "usage:" in r.stdout, r.stderr
