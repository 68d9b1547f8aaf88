"""A throw-away multi-node Ray cluster on this machine (for the tests and the benchmarks).

``ray start --head`` on 127.0.0.1 with a free port and a private temp dir, plus worker nodes
(``ray start --address``), each with its own CPU count. ``ray start`` daemonises, so the nodes'
processes are not our children; every one is started with a tag in its environment, and
:meth:`LocalCluster.stop` kills exactly the tagged processes and their descendants (``ray stop
--force`` would also stop anybody else's Ray on a shared machine). Needs psutil (the ray extra).

A cluster never outlives the process that started it (issue 46): a watchdog process, started
first, waits for that process's pipe to close (however it ends: a test run killed by a CI
timeout included) and then stops the tagged processes as :meth:`LocalCluster.stop` does.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile

TAG = "MOMOJAN_RAY_CLUSTER_TAG"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_bin() -> str:
    return shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray") or "ray"


def tagged_processes(tag: str):
    """The processes started with ``TAG=tag`` in their environment, and their descendants."""
    import psutil
    found = set()
    for p in psutil.process_iter():
        try:
            if p.environ().get(TAG) == tag:
                found.add(p)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    for p in list(found):  # Ray's agents rewrite their environment: take descendants too
        try:
            found.update(p.children(recursive=True))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    found.discard(psutil.Process())
    return list(found)


def stop_tagged(tag: str) -> None:
    """Kill the processes of :func:`tagged_processes` and remove the cluster's temp dir."""
    import psutil
    procs = tagged_processes(tag)
    for p in procs:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(procs, timeout=10)
    shutil.rmtree(tag, ignore_errors=True)


# The watchdog: reads its stdin to the end (its starter closed it, or died), then stops the cluster.
_WATCHDOG = ("import sys\nsys.stdin.buffer.read()\n"
             "from simcore.runners.localcluster import stop_tagged\nstop_tagged(sys.argv[1])\n")


def start_watchdog(tag: str):
    """A process that stops the cluster tagged ``tag`` when this process is gone or closes its
    stdin; in its own session (a terminal's Ctrl-C leaves it to do its work)."""
    env = {k: v for k, v in os.environ.items() if k != TAG}
    return subprocess.Popen([sys.executable, "-c", _WATCHDOG, tag], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True)


class LocalCluster:
    def __init__(self, head_cpus: int = 1):
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.tmp = tempfile.mkdtemp(prefix="mjray", dir="/tmp")  # short: unix sockets go there
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0",
                        RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO="0", **{TAG: self.tmp})
        self.nodes = 0
        self._watchdog = start_watchdog(self.tmp)
        try:
            # the Ray Client server on a free port too (its default, 10001, would clash with
            # another cluster on the machine)
            self._start(["--head", "--port", str(self.port), "--include-dashboard=false",
                         "--ray-client-server-port", str(free_port()), "--temp-dir", self.tmp],
                        head_cpus)
        except BaseException:
            self.stop()
            raise

    def _start(self, args, cpus, extra=None):
        # no log monitor: drivers here run with log_to_driver=False, nobody reads what it sends
        r = subprocess.run([ray_bin(), "start", *args, "--num-cpus", str(cpus),
                            "--node-ip-address", "127.0.0.1", "--disable-usage-stats",
                            "--include-log-monitor=false"],
                           env={**self.env, **(extra or {})}, capture_output=True, text=True,
                           timeout=300)
        if r.returncode != 0:
            raise RuntimeError(f"ray start {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}")
        self.nodes += 1

    def add_node(self, cpus: int = 1):
        # Some Ray releases (2.5x) start the head with token authentication, writing its token to
        # ~/.ray/auth_token, and another node sends it when RAY_AUTH_MODE=token; later ones (2.60)
        # start without it, and a node told RAY_AUTH_MODE=token then refuses to start (no token).
        token = os.environ.get("RAY_AUTH_TOKEN") or os.path.exists(
            os.path.expanduser("~/.ray/auth_token"))
        self._start(["--address", self.address], cpus, {"RAY_AUTH_MODE": "token"} if token else {})

    def processes(self):
        return tagged_processes(self.tmp)

    def stop(self):
        stop_tagged(self.tmp)
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:   # nothing left to stop: it ends at once
            watchdog.stdin.close()
            try:
                watchdog.wait(timeout=30)
            except subprocess.TimeoutExpired:
                watchdog.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
