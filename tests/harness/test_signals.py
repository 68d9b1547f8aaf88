"""Process lifetime and signals (issue 46, "Hangs"): the worker processes of a command end when
their parent ends, however it ends (SIGKILL included: they once lived for ever in ``recv``,
holding the parent's stdout and stderr, so ``| tee``, ``capture_output`` and CI steps waited for
ever); SIGTERM and SIGHUP stop a command as Ctrl-C does (the chunks played are kept, one line,
exit 143 and 129); Ctrl-C in ``tune`` is one line, not Optuna's logged traceback.

No fixed sleep assumes a speed: every wait polls for what it needs, with generous deadlines (the
machine may be loaded)."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simcore.runners import signals as stop_signals

psutil = pytest.importorskip("psutil", reason="psutil (the test extra) finds the workers")

CLI = [sys.executable, "-c", "from simcore.cli import main; main()"]
ROOT = Path(__file__).resolve().parents[2]
START_S = 600      # a cold start or a loaded machine: only a bound against a hang
GONE_S = 20        # "within a few seconds", with room for a loaded machine


def _foreground():
    """In the child: SIGINT and SIGHUP at their defaults, as for a command typed at a terminal.
    A test run started under nohup (or by a supervisor that ignores SIGHUP) would otherwise hand
    its children an ignored SIGHUP, which a command rightly keeps ignoring
    (test_stop_signals_respect_nohup_and_restore_the_handlers_before): its SIGHUP cases failed
    so, beside a CPU load started with nohup."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _start(args, **kw):
    # Its own session (the test signals it as a terminal or a supervisor would), SIGINT at its
    # default as for a foreground command (tests/harness/test_interrupt.py says why).
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_foreground, **kw)


def _wait_until(what, cond, p, timeout=START_S, poll=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        if p.poll() is not None:
            pytest.fail(f"exited before {what}: rc {p.returncode}: {p.stderr.read()}")
        time.sleep(poll)
    pytest.fail(f"not {what} in {timeout} s")


def _workers(p, n=2):
    """The worker processes of ``p`` once ``n`` of them exist."""
    parent = psutil.Process(p.pid)

    def found():
        try:
            kids = parent.children()
        except psutil.NoSuchProcess:
            return None
        return kids if len(kids) >= n else None
    return _wait_until(f"{n} workers started", found, p)


def _alive(proc) -> bool:
    """Whether ``proc`` still runs (a dead child of init that nobody reaped yet is a zombie: it
    holds no pipe and no memory)."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _assert_gone(procs, timeout=GONE_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [w.pid for w in procs if _alive(w)]
        if not left:
            return
        time.sleep(0.1)
    for w in procs:   # do not leave them to the next test
        try:
            w.kill()
        except psutil.NoSuchProcess:
            pass
    pytest.fail(f"worker processes {left} outlived their parent by {timeout} s")


def _saved_chunks(d):
    chunks = os.path.join(d, "chunks")
    if not os.path.isdir(chunks):
        return []
    return sorted(f for f in os.listdir(chunks) if f.endswith(".json") and not f.startswith("."))


def _cleanup(p, workers=()):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for w in workers:
        try:
            w.kill()
        except psutil.NoSuchProcess:
            pass


# -- the runner alone: every command's local workers are ChunkRunner's ------------------------

RUNNER_SCRIPT = """
import os, sys, time
from simcore.runners.local import ChunkRunner
import simcore.runners.local as parallel
if sys.argv[2] == "no-pdeathsig":
    parallel.die_with_parent = lambda pid: None   # only the pipe's end-of-file is left
mark = sys.argv[1]

def slow(t):
    open(mark + ".busy", "w").close()
    time.sleep(t)
    return t

with ChunkRunner(2) as r:
    print(" ".join(str(p.pid) for p in r._procs), flush=True)
    for _ in r.map(slow, [float(sys.argv[3])]):   # one worker busy in a chunk, one idle
        pass
"""


@pytest.mark.parametrize("how", ["pdeathsig", "no-pdeathsig"])
def test_workers_busy_or_idle_end_when_their_parent_is_killed(how, tmp_path):
    # With PR_SET_PDEATHSIG the kernel kills both at once; without it (not Linux) the idle one
    # reads end-of-file (it no longer holds copies of the parent's pipe ends) and the busy one
    # ends when its chunk (3 s here) is done and nobody is left to take it.
    mark = str(tmp_path / "m")
    chunk_s = "600" if how == "pdeathsig" else "3"
    p = _start([sys.executable, "-c", RUNNER_SCRIPT, mark, how, chunk_s], cwd=ROOT)
    workers = []
    try:
        pids = _wait_until("workers listed", lambda: p.stdout.readline().split(), p)
        workers = [psutil.Process(int(x)) for x in pids]
        _wait_until("a chunk started", lambda: os.path.exists(mark + ".busy"), p)
        os.kill(p.pid, signal.SIGKILL)
        # nothing holds the parent's stdout or stderr: reading them ends
        p.communicate(timeout=GONE_S + float(chunk_s) if how != "pdeathsig" else GONE_S)
        _assert_gone(workers)
    finally:
        _cleanup(p, workers)


PRECOMPILE_SCRIPT = """
import subprocess, time
from simcore.family import compiling
child = compiling._python("import time; time.sleep(600)\\n", subprocess.DEVNULL)
print(child.pid, flush=True)
time.sleep(600)
"""


def test_a_compile_child_ends_when_its_parent_is_killed():
    # simcore.precompile's children (the install, the test suite's cold start, `python -m
    # simcore.precompile`) compiled on for a minute after their parent was killed
    p = _start([sys.executable, "-c", PRECOMPILE_SCRIPT], cwd=ROOT)
    child = []
    try:
        pid = _wait_until("the child started", lambda: p.stdout.readline().strip(), p)
        child = [psutil.Process(int(pid))]
        # killed before the child has asked for its death signal or after: it ends either way
        os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=GONE_S)
        _assert_gone(child)
    finally:
        _cleanup(p, child)


CLUSTER_SCRIPT = """
import os, subprocess, sys, time
from simcore.runners.localcluster import TAG, start_watchdog
tag = sys.argv[1]
start_watchdog(tag)
# a daemonised node as `ray start` leaves it: its own session, found by its tag
node = subprocess.Popen(["sleep", "600"], env=dict(os.environ, **{TAG: tag}),
                        start_new_session=True)
print(node.pid, flush=True)
time.sleep(600)
"""


def test_a_test_clusters_nodes_end_when_its_starter_is_killed(tmp_path):
    # LocalCluster (the Ray tests, the scaling benchmark) daemonises its nodes: a test run
    # killed by a CI timeout left a Ray cluster running; its watchdog now stops it
    tag = str(tmp_path / "cluster")
    os.mkdir(tag)
    p = _start([sys.executable, "-c", CLUSTER_SCRIPT, tag], cwd=ROOT)
    node = []
    try:
        pid = _wait_until("the node started", lambda: p.stdout.readline().strip(), p)
        node = [psutil.Process(int(pid))]
        os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=GONE_S)
        _assert_gone(node, timeout=60)   # the watchdog starts Python and scans every process
        deadline = time.monotonic() + 60
        while os.path.exists(tag) and time.monotonic() < deadline:   # then removes its dir
            time.sleep(0.1)
        assert not os.path.exists(tag)
    finally:
        _cleanup(p, node)


# -- a real command --------------------------------------------------------------------------

# run, and a command of another shape (many seatings, one result directory) on the same runner
@pytest.mark.parametrize("command", [["run", "new_edition"],
                                     ["tournament", "new_edition", "--policies", "greedy,value"]],
                         ids=["run", "tournament"])
def test_sigkill_of_a_command_leaves_no_worker_and_no_open_pipe(command, tmp_path):
    d = str(tmp_path / "run")
    p = _start(CLI + command + ["--games", "2000000", "--workers", "2", "--seed", "3",
                                "--out", d, "--quiet", "--no-report"])
    workers = []
    try:
        workers = _workers(p)
        _wait_until("a chunk saved", lambda: _saved_chunks(d), p)
        os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=GONE_S)   # used to wait for ever: the workers held the pipes
        assert p.returncode == -signal.SIGKILL
        _assert_gone(workers)
    finally:
        _cleanup(p, workers)
    # whole chunks only, marked incomplete: `run --resume` finishes it (test_resume.py)
    with open(os.path.join(d, "provenance.json")) as f:
        assert json.load(f)["status"] == "incomplete"


def _stop_a_run_midway(d, games, stop):
    """A 2-worker run into ``d`` stopped by ``stop(p, workers)`` once a chunk is saved:
    (the process, its stdout, its stderr), every worker gone."""
    p = _start(CLI + ["run", "new_edition", "--games", str(games), "--workers", "2",
                      "--seed", "5", "--out", d, "--quiet", "--no-report"])
    workers = []
    try:
        workers = _workers(p)
        _wait_until("a chunk saved", lambda: _saved_chunks(d), p)
        assert p.poll() is None, "the run ended before it could be stopped"
        stop(p, workers)
        out, err = p.communicate(timeout=60)
        _assert_gone(workers)
    finally:
        _cleanup(p, workers)
    return p, out, err


@pytest.mark.parametrize("sig", [signal.SIGTERM, pytest.param(signal.SIGHUP,
                                                               marks=pytest.mark.second_tier)],
                         ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_a_run_as_ctrl_c_does(sig, tmp_path):
    """Sent to the main process alone (``kill PID``, a supervisor, a closed terminal's shell):
    the workers are stopped, the chunks played are kept, one line says how to resume, exit
    128 + the signal; the run then resumes to its end."""
    d = str(tmp_path / "run")
    games = 10000
    p, out, err = _stop_a_run_midway(d, games, lambda p, workers: os.kill(p.pid, sig))
    assert p.returncode == 128 + sig
    name = signal.Signals(sig).name
    assert err.splitlines() == [err.strip()], err        # one line
    assert err.startswith(f"momojan-sim: stopped by {name} (") and "saved in" in err, err
    assert f"momojan-sim run --resume {d}" in err, err
    assert out == ""
    with open(os.path.join(d, "provenance.json")) as f:
        assert json.load(f)["status"] == "incomplete"
    saved = _saved_chunks(d)
    assert 1 <= len(saved) < games // 2000
    starts = [json.load(open(os.path.join(d, "chunks", f)))["start"] for f in saved]
    assert starts == [2000 * i for i in range(len(saved))]
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["run", "--resume", d, "--quiet", "--workers", "2",
                                  "--no-report", "--json"])
    assert r.exit_code == 0, r.output
    with open(os.path.join(d, "provenance.json")) as f:
        assert json.load(f)["status"] == "complete"
    with open(os.path.join(d, "summary.json")) as f:
        assert json.load(f)["games"] == games


def test_a_worker_killed_alone_is_one_line_that_says_how_to_resume(tmp_path):
    """A QA trial: `kill -9` of one worker (what the out-of-memory killer does) ended the run
    with a 43-line traceback and no word of the chunks saved. Now: one line naming the chunk
    and the signal, and the --resume command; exit 1; the other worker gone."""
    d = str(tmp_path / "run")
    p, _, err = _stop_a_run_midway(d, 400000, lambda p, workers: workers[0].kill())
    assert p.returncode == 1, err
    assert err.splitlines() == [err.strip()], err        # one line
    # busy (playing a chunk) or idle (waiting for the next): either is said
    assert err.startswith("momojan-sim: error: a worker process died "), err
    assert "killed by SIGKILL" in err and f"momojan-sim run --resume {d}" in err, err


def _need_ray():
    import importlib.util
    if importlib.util.find_spec("ray") is not None:
        return
    reason = "Ray is not installed (pip install 'momojan-sim[ray]')"
    if os.environ.get("MOMOJAN_REQUIRE_RAY_TEST"):
        pytest.fail(f"the Ray tests must run here but cannot: {reason}")
    pytest.skip(reason)


@pytest.mark.ray
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_private_ray_instance_ends_with_its_command(sig, tmp_path):
    """``--backend ray`` without ``--address`` starts a private Ray instance: its dashboard and
    runtime-env agents once outlived a ``kill -9`` of the command, and Ray's driver answered
    SIGTERM with a C++ stack trace and an abort (exit -6) instead of the command's clean stop."""
    _need_ray()
    d = str(tmp_path / "run")
    p = _start(CLI + ["run", "new_edition", "--games", "2000000", "--workers", "2",
                      "--backend", "ray", "--seed", "7", "--out", d, "--quiet", "--no-report"])
    procs = []
    try:
        _wait_until("a chunk saved", lambda: _saved_chunks(d), p)
        procs = psutil.Process(p.pid).children(recursive=True)
        assert any("raylet" in " ".join(x.cmdline()) for x in procs)
        os.kill(p.pid, sig)
        out, err = p.communicate(timeout=60)
        _assert_gone(procs)
    finally:
        _cleanup(p, procs)
    if sig == signal.SIGKILL:
        assert p.returncode == -signal.SIGKILL
    else:
        assert p.returncode == 143, err
        assert err.startswith("momojan-sim: stopped by SIGTERM (") and "--resume" in err, err
        assert "SIGTERM received" not in err and len(err.splitlines()) == 1, err


class _Lines:
    """A process's stderr read line by line in a thread (the test waits for a line)."""

    def __init__(self, stream):
        self.lines = []
        self._t = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._t.start()

    def _read(self, stream):
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def join(self, timeout):
        self._t.join(timeout)
        assert not self._t.is_alive(), "stderr still open"
        return self.lines


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_in_tune_is_one_line_not_optunas_traceback(sig):
    p = _start(CLI + ["tune", "new_edition", "--games", "10", "--budget", "10000",
                      "--check-games", "10", "--workers", "1", "--no-save"])
    err = _Lines(p.stderr)
    try:
        _wait_until("two trials played",
                    lambda: any(x.startswith("momojan-sim: trial 2/") for x in err.lines), p)
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)     # a terminal's Ctrl-C: the whole group
        else:
            os.kill(p.pid, sig)
        out = p.stdout.read()
        p.wait(timeout=60)
        lines = err.join(GONE_S)
    finally:
        _cleanup(p)
    assert p.returncode == 128 + sig, "\n".join(lines)   # what it said, when it says otherwise
    assert out == ""
    text = "\n".join(lines)
    assert "Traceback" not in text and "failed" not in text, text
    *before, last = lines
    assert all(x.startswith(("momojan-sim: trial ", "momojan-sim: tuning ")) for x in before), text
    word = "interrupted" if sig == signal.SIGINT else "stopped by SIGTERM"
    # what is kept: the trials played and the best entry among them
    assert last.startswith(f"momojan-sim: {word} (after "), last
    assert "of 10000 trials; best so far value" in last and "on the tuning deals)" in last, last


def _catches(pid, sig) -> bool:
    """Whether process ``pid`` has a handler for ``sig`` (Linux: SigCgt in /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            mask = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(mask >> (sig - 1) & 1)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_command_that_plays_nothing_stops_with_one_line_too(sig):
    # `waits --file -` blocks reading stdin. Ctrl-C once gave click's "Aborted!" and exit 1,
    # SIGTERM and SIGHUP a silent death: now one line and 128 + the signal, like a run.
    p = _start(CLI + ["waits", "--file", "-"], stdin=subprocess.PIPE)
    try:
        # the command is running once it has its SIGTERM handler (no sleep guessing a speed)
        _wait_until("the command started", lambda: _catches(p.pid, signal.SIGTERM), p)
        os.kill(p.pid, sig)
        out, err = p.communicate(timeout=60)
    finally:
        _cleanup(p)
    word = "interrupted" if sig == signal.SIGINT else f"stopped by {signal.Signals(sig).name}"
    assert (p.returncode, out, err) == (128 + sig, "", f"momojan-sim: {word}\n")


# -- the handlers themselves -----------------------------------------------------------------

def test_stop_signals_respect_nohup_and_restore_the_handlers_before():
    before = {s: signal.getsignal(s) for s in stop_signals.STOP_SIGNALS}
    try:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)     # as nohup starts a command
        with stop_signals.stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is stop_signals._handler
            with pytest.raises(stop_signals.Stopped) as info:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)   # the handler raises at once; this only waits for delivery
            assert info.value.signum == signal.SIGTERM
            assert stop_signals.received() == signal.SIGTERM
            os.kill(os.getpid(), signal.SIGTERM)   # a second one does not cut the clean-up short
        assert stop_signals.received() is None     # the next command starts afresh
        assert signal.getsignal(signal.SIGTERM) == before[signal.SIGTERM]
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        for s, h in before.items():
            signal.signal(s, h)
    assert isinstance(stop_signals.Stopped(signal.SIGHUP), KeyboardInterrupt)
    assert stop_signals.exit_status(KeyboardInterrupt()) == 130
    assert stop_signals.exit_status(stop_signals.Stopped(signal.SIGTERM)) == 143
    assert stop_signals.exit_status(stop_signals.Stopped(signal.SIGHUP)) == 129
    assert stop_signals.what(stop_signals.Stopped(signal.SIGHUP)) == "stopped by SIGHUP"


def test_stop_signals_survive_a_library_that_takes_them_over():
    # ray.init sets its own SIGTERM handler (and its driver a C++ one that aborts): the
    # command's stop is put back after it; a KeyboardInterrupt a library raised in place of the
    # command's Stopped (Ray's ray.wait does) still counts as the signal that came.
    before = signal.getsignal(signal.SIGTERM)
    try:
        with stop_signals.stop_on_signals():
            with stop_signals.handlers_kept():
                signal.signal(signal.SIGTERM, lambda *a: sys.exit(15))
            assert signal.getsignal(signal.SIGTERM) is stop_signals._handler
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
            assert stop_signals.exit_status(KeyboardInterrupt()) == 143
            assert stop_signals.what(KeyboardInterrupt()) == "stopped by SIGTERM"
    finally:
        signal.signal(signal.SIGTERM, before)


def test_every_place_that_starts_a_process_is_one_whose_children_end_with_it():
    """Every command's worker processes are :class:`ChunkRunner`'s (they die with their parent)
    or Ray's (a private instance shares its driver's fate: Ray starts it so). A new way of
    starting processes must be looked at here before it ships."""
    import re
    allowed = {
        "simcore/runners/local.py",               # the workers: die_with_parent
        "simcore/runners/localcluster.py",  # tests/benchmarks: a cluster stopped by its owner
        "simcore/runners/raycluster.py",    # the private Ray instance's watchdog (_REAPER)
        "simcore/family/compiling.py",       # compile children: die_with_parent too
        "simcore/studies/results.py",                # `git rev-parse`: returns at once
    }
    pattern = re.compile(r"\b(multiprocessing|subprocess|os\.fork|ProcessPoolExecutor|"
                         r"os\.spawn|os\.posix_spawn|Popen)\b")
    found = set()
    for top in ("simcore", "policies"):
        for path in (ROOT / top).rglob("*.py"):
            if pattern.search(path.read_text()):
                found.add(path.relative_to(ROOT).as_posix())
    assert found <= allowed, sorted(found - allowed)
