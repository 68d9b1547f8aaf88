"""``python -m benchmarks`` writes one JSON record and fails only when a benchmark crashes."""

import json
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
