"""A killed or interrupted multi-worker run leaves whole chunks, marked incomplete; --resume
finishes it to the numbers of an uninterrupted run (issue 10 item 4)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from simcore.cli import main

CLI = [sys.executable, "-c", "from simcore.cli import main; main()"]
# --no-report: the numbers and tables are what is tested here (a report is seconds of figures)
ARGS = ["new_edition", "--games", "10000", "--seed", "11", "--workers", "2", "--quiet", "--no-report"]


def _summary(d):
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def _provenance(d):
    with open(os.path.join(d, "provenance.json")) as f:
        return json.load(f)


def _run_here(args):
    """The CLI in this process (its kernels are loaded once): for the runs nobody kills."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return r


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("ref") / "run")
    _run_here(["run", *ARGS, "--out", d, "--records"])
    return d


def _kill_after_chunks(d, sig, chunks=2):
    """Start the run in its own session, wait until ``chunks`` chunks are saved, send ``sig``
    (SIGKILL: to the parent alone, as a crash or the OOM killer would; SIGINT: to the group,
    as a terminal's Ctrl-C)."""
    # SIGINT at its default, as for a foreground command (tests/harness/test_interrupt.py says why).
    p = subprocess.Popen(CLI + ["run", *ARGS, "--out", d, "--records"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            done = [f for f in os.listdir(os.path.join(d, "chunks"))
                    if f.endswith(".json") and not f.startswith(".")] if os.path.isdir(os.path.join(d, "chunks")) else []
            if len(done) >= chunks or p.poll() is not None:
                break
            time.sleep(0.05)
        assert p.poll() is None, "the run ended before it could be interrupted"
        if sig == signal.SIGKILL:
            os.kill(p.pid, signal.SIGKILL)
            p.wait(timeout=30)
            # the workers die with their parent (issue 46): nothing holds its pipes, the read
            # below ends (tests/harness/test_signals.py checks that no worker is left)
        else:
            os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # orphaned workers of a killed parent
        except ProcessLookupError:
            pass
    return p.returncode, err


# Ctrl-C's own stop is tests/harness/test_interrupt.py's: its resume runs in the second tier
@pytest.mark.parametrize("sig", [signal.SIGKILL, pytest.param(signal.SIGINT,
                                                              marks=pytest.mark.second_tier)])
def test_interrupted_run_resumes_to_identical_numbers(reference, tmp_path, sig):
    d = str(tmp_path / "run")
    rc, err = _kill_after_chunks(d, sig)
    if sig == signal.SIGINT:
        assert rc == 130
        assert len(err.splitlines()) == 1 and "--resume" in err and d in err, err
    else:
        assert rc == -signal.SIGKILL
    prov = _provenance(d)
    assert prov["status"] == "incomplete"
    assert not os.path.exists(os.path.join(d, "summary.json"))
    saved = sorted(f for f in os.listdir(os.path.join(d, "chunks")) if f.endswith(".json")
                   and not f.startswith("."))
    assert 2 <= len(saved) < 5
    # whole chunks only: every saved chunk JSON is complete and in order from game 0
    starts = [json.load(open(os.path.join(d, "chunks", f)))["start"] for f in saved]
    assert starts == [2000 * i for i in range(len(saved))]

    _run_here(["run", "--resume", d, "--quiet", "--workers", "2", "--no-report"])
    assert _provenance(d)["status"] == "complete"
    assert _summary(d) == _summary(reference)
    # the tables too: the same games and rounds, once each
    from simcore.studies import results
    a, b = results.load(d, pandas=False), results.load(reference, pandas=False)
    for t in ("games", "rounds"):
        ta, tb = getattr(a, t), getattr(b, t)
        assert list(ta) == list(tb)
        for col in ta:
            assert (ta[col] == tb[col]).all(), (t, col)
    assert len(a.games["game"]) == 10000


def test_resume_refusals(reference, tmp_path):
    def one_line(args, *frags):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("momojan-sim: error: "), r.output
        for f in frags:
            assert f in lines[0], lines[0]
    one_line(["run", "--resume", reference], "already complete")
    one_line(["run", "--resume", str(tmp_path)], "not a result directory")
    one_line(["run", "--resume", str(tmp_path / "nope")], "not a directory")
    one_line(["run", "new_edition", "--resume", reference], "give no SCENARIO")
    one_line(["compare", "--resume", reference], "a run result")
    one_line(["run"], "Missing argument 'SCENARIO'")
    one_line(["compare", "new_edition"], "Missing argument 'B'")
    one_line(["sweep", "new_edition"], "Missing option '--set'")
