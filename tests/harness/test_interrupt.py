"""Ctrl-C stops a real multi-worker run at once (one line, exit 130), every time; --workers is
clamped with a note. Issue 7 items 10-11: Ctrl-C once printed "InvalidStateError: CANCELLED" and
hung for ten minutes; 1000 workers once took 69 s and 4.7 GB for a 13 s job."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from simcore.runners.local import ChunkRunner, clamp_workers

CLI = [sys.executable, "-c", "from simcore.cli import main; main()"]
PLAYING = re.compile(r"momojan-sim: (\d+/\d+ games \(|still starting after)")


def _start(args):
    # A new session: the test signals the process group, as a terminal's Ctrl-C does. SIGINT
    # back to its default, as a shell gives a foreground command: pytest started in the
    # background of a script (`.ci/run &`) inherits SIGINT ignored, and so would the CLI.
    return subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_a_chunk(p, run_dir, timeout=600):
    """Wait until the run has saved its first chunk (the workers are playing; a progress line
    would come only after 5 s of play)."""
    chunks = run_dir / "chunks"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if p.poll() is not None:
            pytest.fail(f"exited before playing: rc {p.returncode}: {p.stderr.read()}")
        if chunks.is_dir() and any(f.suffix == ".json" for f in chunks.iterdir()):
            return
        time.sleep(0.05)
    pytest.fail("no chunk saved")


# "Every time": the bug was a race, so the same Ctrl-C is sent to more than one run (each is a
# whole CLI process, 4-8 s; a third run of the same command added little but time).
@pytest.mark.parametrize("command,attempt", [
    (["run", "new_edition"], 0), (["run", "new_edition"], 1),
    (["compare", "new_edition", "no_ron_bonus"], 0)])
def test_ctrl_c_stops_a_multi_worker_run_with_one_line_and_exit_130(command, attempt, tmp_path):
    run_dir = tmp_path / "run"
    p = _start(command + ["--games", "2000000", "--workers", "2", "--seed", str(attempt),
                          "--out", str(run_dir)])
    try:
        _wait_for_a_chunk(p, run_dir)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=10)  # "within a second or two"; 10 s on a busy CI box
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130
    # one line: "interrupted", and where the saved chunks are (result directories, issue 10);
    # before it only what a run says while it plays (on a busy machine a progress line, or the
    # slow-start notice, can come before the first chunk is saved)
    *before, last = err.splitlines()
    assert last.startswith("momojan-sim: interrupted"), err
    assert all(PLAYING.match(line) for line in before), err
    assert out == ""
    # The workers are gone too: nothing is left in the process group.
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(p.pid, 0)


def test_workers_above_cores_or_chunks_are_clamped_with_one_line():
    assert clamp_workers(1000, 50, cores=2) == (2, "--workers 1000 lowered to 2 (2 cores)")
    assert clamp_workers(8, 1, cores=4) == (1, "--workers 8 lowered to 1 (1 chunk of games)")
    assert clamp_workers(0, 50, cores=2) == (2, None)  # 0: one per core, nothing to say
    assert clamp_workers(2, 50, cores=2) == (2, None)
    from click.testing import CliRunner
    from simcore.cli import main
    try:
        runner = CliRunner(mix_stderr=False)   # click 8.1
    except TypeError:
        runner = CliRunner()                   # click >= 8.2 keeps stderr apart
    r = runner.invoke(main, ["compare", "new_edition", "new_edition", "--games", "50",
                             "--workers", "1000", "--json", "--quiet", "--no-save"])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == ["momojan-sim: --workers 1000 lowered to 1 "
                                     "(1 chunk of games)"]


def _boom(x):
    if x == 3:
        raise ValueError("chunk 3 is bad")
    return x * x


def _square(x):
    return x * x


def test_runner_delivers_in_order_and_reraises_worker_errors():
    with ChunkRunner(2) as r:
        seen = []
        assert list(r.map(_square, range(10), lambda t, res: seen.append(t))) == \
            [x * x for x in range(10)]
        assert seen == list(range(10))
        # stopping early leaves the runner usable
        for x in r.map(_square, range(10)):
            if x == 4:
                break
        assert list(r.map(_square, [5])) == [25]
    with pytest.raises(ValueError, match="chunk 3 is bad"):
        with ChunkRunner(2) as r:
            list(r.map(_boom, range(6)))


def _sleep_for(seconds):
    time.sleep(seconds)
    return seconds


def test_closing_the_map_after_its_workers_died_says_nothing():
    """A QA trial: `timeout -s TERM` (the signal to the whole process group) sometimes printed
    "Exception ignored in: <generator object ChunkRunner.map ...> EOFError" before the one
    stop line: the workers died of the same signal while the command was between two results,
    and closing the map collected the chunks still out from pipes whose other end was gone."""
    with ChunkRunner(2) as r:
        gen = r.map(_sleep_for, [0, 60, 60, 60])
        assert next(gen) == 0                # the map waits at its yield, chunks still out
        time.sleep(0.5)
        for p in list(r._procs):
            p.kill()
        gen.close()                          # raised EOFError before


def test_a_worker_that_died_idle_is_named_when_it_is_given_work():
    """Found beside a CPU load: a worker killed while idle was found dead when the runner sent
    it its next chunk, and the broken pipe, reaching the command, was taken by click for the
    command's own closed output: exit 1 with nothing said."""
    from simcore.runners.local import WorkerDied
    with pytest.raises(WorkerDied, match=r"died before it was given chunk \d+ \(killed by "
                                         r"SIGKILL"):
        with ChunkRunner(2) as r:
            r._procs[0].kill()
            r._procs[0].join()
            list(r.map(_sleep_for, [0.2] * 6))


def _pid_after(seconds):
    time.sleep(seconds)
    return os.getpid()


def _job(path):
    while not os.path.exists(path + ".go"):  # held until the test says go
        time.sleep(0.01)
    with open(path, "w") as f:
        f.write(str(os.getpid()))
    raise RuntimeError("a job's exception is dropped")


def test_a_start_job_holds_back_only_its_worker(tmp_path):
    # The cold-start compile share (simcore.nb.compile_plan): one worker runs a job first, the
    # others take chunks meanwhile, then it joins in; results stay in order.
    flag = tmp_path / "job"
    with ChunkRunner(2) as r:
        assert r.start_job(1, _job, str(flag))
        pids = list(r.map(_pid_after, [0.01] * 4))
        assert not flag.exists() and len(set(pids)) == 1  # the job's worker took none
        (tmp_path / "job.go").touch()
        pids = list(r.map(_pid_after, [0.3] * 8))
        assert flag.exists() and int(flag.read_text()) in pids and len(set(pids)) == 2
        assert list(r.map(_square, range(5))) == [0, 1, 4, 9, 16]
    assert not ChunkRunner(1).start_job(0, _job, str(flag))  # no worker processes: nothing


def _die(_arg):
    os._exit(1)


def test_a_worker_that_dies_in_its_job_is_dropped_and_the_others_play_on():
    with ChunkRunner(2) as r:
        assert r.start_job(1, _die)
        assert list(r.map(_square, range(8))) == [x * x for x in range(8)]
        gen = r.map(_square, range(3))
        next(gen)
        with pytest.raises(RuntimeError, match="while a map is active"):
            r.start_job(0, _die)
        assert list(gen) == [1, 4]
