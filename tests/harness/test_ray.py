"""The Ray backend against a real Ray cluster on this machine.

A head node on 127.0.0.1 (a free port, 1 CPU, no dashboard) and one more worker node (1 CPU) are
started with ``ray start`` in a private temp dir; a scenario runs through them and must give the
very same sums as the local backend, also when a Ray worker process is killed while it plays a
chunk (Ray retries the chunk; a chunk counts once, when its result is collected): one run does
both, the cluster's start-up being most of the file's time. The cluster is
stopped in a finalizer by killing exactly the processes started with its tag in their environment
and their descendants (``ray stop --force`` would also stop other people's Ray on a shared
machine): :class:`simcore.runners.localcluster.LocalCluster`.

Marked ``ray``. Skipped, with the reason, only where Ray is not installed (``pip install
'momojan-sim[ray]'``); ``.ci/run`` installs the extra and sets ``MOMOJAN_REQUIRE_RAY_TEST=1``,
which turns the skip into a failure. Start-up dominates (about 20-40 s on 2 busy cores).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time

import pytest

from simcore.errors import InputError
from simcore.runners import runner_factory

HAVE_RAY = importlib.util.find_spec("ray") is not None and importlib.util.find_spec("psutil")
CLI = [sys.executable, "-m", "simcore.cli"]
GAMES = 3000
SEED = 5


def _need_ray():
    if HAVE_RAY:
        return
    reason = "Ray is not installed (pip install 'momojan-sim[ray]')"
    if os.environ.get("MOMOJAN_REQUIRE_RAY_TEST"):
        pytest.fail(f"the Ray tests must run here but cannot: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def cluster():
    """HOST:PORT of a head (1 CPU) plus a worker node (1 CPU), stopped at the end."""
    _need_ray()
    from simcore.runners.localcluster import LocalCluster
    with LocalCluster(head_cpus=1) as c:
        c.add_node(cpus=1)
        yield c.address


RUN = ["run", "new_edition", "--games", str(GAMES), "--seed", str(SEED), "--json", "--quiet",
       "--no-save"]


def _kill_a_busy_worker(p, timeout=120):
    """Kill the first Ray worker seen playing a chunk (its process title is ray::chunk_stats)
    while the driver ``p`` runs; its pid, or None if none was seen."""
    import psutil
    deadline = time.monotonic() + timeout
    while p.poll() is None and time.monotonic() < deadline:
        for w in psutil.process_iter(["pid", "cmdline"]):
            try:
                cmd = " ".join(w.info["cmdline"] or ())
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if cmd.startswith("ray::chunk_stats"):
                w.kill()
                return w.info["pid"]
        time.sleep(0.05)
    return None


@pytest.mark.ray
def test_a_run_on_a_two_node_cluster_equals_local_though_a_worker_is_killed(cluster):
    """One run through the cluster (the driver in a process of its own: its ray.init must not
    outlive the command), a worker killed while it plays a chunk: Ray retries the chunk, and a
    chunk counts once, when its result is collected, so the numbers (games and rounds among them)
    are the local backend's, bit for bit; a chunk dropped or counted twice would change them.
    stdout is the JSON alone (Ray's driver once printed "A worker died ..." there)."""
    p = subprocess.Popen(CLI + RUN + ["--backend", "ray", "--address", cluster],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        killed = _kill_a_busy_worker(p)
        out, err = p.communicate(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert killed is not None, "no Ray worker was seen playing a chunk"
    # the local run in this process, whose kernels are loaded already
    from click.testing import CliRunner
    from simcore.cli import main
    local = CliRunner().invoke(main, RUN + ["--workers", "1"])
    assert local.exit_code == 0, local.output
    assert json.loads(out) == json.loads(local.stdout)
    # the luck-corrected numbers too: their sums cross Ray with the chunks (issue 32)
    assert json.loads(out)["luck_correction"]["corrected"]


def test_backend_ray_without_ray_says_how_to_install(monkeypatch):
    import simcore.runners as backends
    monkeypatch.setattr(backends, "ray_available", lambda: False)
    with pytest.raises(InputError, match=r"pip install 'momojan-sim\[ray\]'"):
        runner_factory("ray")
    with pytest.raises(InputError, match="--address needs --backend ray"):
        runner_factory("local", "auto")


def test_cli_backend_ray_without_ray_is_one_line_exit_2():
    # A Python in which ray cannot be found (find_spec says None for it).
    code = ("import sys, importlib.util\n"
            "f = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda n, *a: None if n == 'ray' else f(n, *a)\n"
            "from simcore.cli import main\n"
            "sys.argv = ['momojan-sim', 'run', 'new_edition', '--games', '10', '--no-save', "
            "'--backend', 'ray']\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines() == [
        "momojan-sim: error: --backend ray needs Ray, which is not installed: "
        "pip install 'momojan-sim[ray]'"]


FAKE_DRIVER = """
import json, sys
from simcore import families
from simcore.runners import runner_factory, use_runner
from simcore.studies.study import run_study
families.register("fake", "fake_family")
fam = families.get("fake")
sc = fam.SCENARIOS.load(sys.argv[2])
with use_runner(runner_factory("ray", sys.argv[1])):
    res = run_study(fam, [sc], 5, 6000, 2, chunk_games=1000)
print(json.dumps({"n": res.sums.n, "s": res.sums.s.tolist(), "c": res.sums.c.tolist()}))
"""


def _drive(script: str, cluster: str, path, cwd):
    """Run a driver script against the cluster from ``cwd`` (tests/, so Ray's workers import
    the fake family); its last line of stdout as JSON."""
    p = subprocess.run([sys.executable, "-c", script, cluster, str(path)], cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.ray
def test_the_fake_four_seat_family_runs_on_the_cluster(cluster, tmp_path):
    """Issue 28: a family that is not in simcore (tests/fake_family.py, 4 seats) plays its
    chunks on the Ray nodes (the pickled family is imported there by its module: the driver
    runs from tests/, which Ray puts on the workers' path) to the local backend's sums."""
    from pathlib import Path
    import numpy as np
    tests = Path(__file__).resolve().parents[1]
    path = tmp_path / "fake4.yaml"
    path.write_text("game: fake\nname: fake4\nplayers: [{policy: weak}, {policy: medium}, "
                    "{policy: strong}, {policy: weak}]\n")
    remote = _drive(FAKE_DRIVER, cluster, path, tests)
    from simcore.family import registry as families
    from simcore.studies.study import run_study
    families.register("fake", "fake_family")
    try:
        fam = families.get("fake")
        local = run_study(fam, [fam.SCENARIOS.load(path)], 5, 6000, 1, chunk_games=1000).sums
    finally:
        families.unregister("fake")
    assert remote["n"] == 6000
    assert np.array_equal(np.array(remote["s"]), local.s)
    assert np.array_equal(np.array(remote["c"]), local.c)


SOLVE_DRIVER = """
import json, sys
from simcore import families, solve_study as ss
from simcore.runners import runner_factory, use_runner
families.register("fake", "fake_family")
fam = families.get("fake")
sc = fam.SCENARIOS.load(sys.argv[2])
with use_runner(runner_factory("ray", sys.argv[1])):
    print(json.dumps(ss.solve(fam, sc, *SOLVE_ARGS, workers=2, **SOLVE_KW)))
"""
# the solve both sides play: the fake family's seat-0 edge for a 60% share
SOLVE_ARGS = ("edge", "seat0_win_share", "60%", "-1,1")
SOLVE_KW = dict(games=3000, seed=3, pilot_games=1000, chunk_games=1000)
SOLVE_DRIVER = SOLVE_DRIVER.replace("*SOLVE_ARGS", ", ".join(map(repr, SOLVE_ARGS))) \
    .replace("**SOLVE_KW", ", ".join(f"{k}={v!r}" for k, v in SOLVE_KW.items()))


@pytest.mark.ray
def test_a_solve_on_the_cluster_gives_the_local_answer(cluster, tmp_path):
    """Issue 29: solve's pilot and design play on the Ray nodes to the same answer, digit for
    digit, as on local processes."""
    from pathlib import Path
    tests = Path(__file__).resolve().parents[1]
    path = tmp_path / "fake2.yaml"
    path.write_text("game: fake\nname: fake2\nplayers: [{policy: weak}, {policy: weak}]\n")
    remote = _drive(SOLVE_DRIVER, cluster, path, tests)
    from simcore.family import registry as families
    from simcore.studies import solve as ss
    families.register("fake", "fake_family")
    try:
        fam = families.get("fake")
        local = ss.solve(fam, fam.SCENARIOS.load(path), *SOLVE_ARGS, workers=1, **SOLVE_KW)
    finally:
        families.unregister("fake")
    assert remote["ci"] == local["ci"] and remote["design"] == local["design"]
    assert remote["estimate"] == local["estimate"]
