"""``python -m benchmarks`` writes one JSON record and fails only when a benchmark crashes."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


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
