"""Result directories: what a run, comparison or sweep keeps on disk, resumable chunk by chunk.

Game-agnostic: the family supplies the scenario YAML, the rules, the seats, the tables and the
summaries (the family module :mod:`simcore.family.registry` finds). Layout of a result directory (schema in the README)::

    provenance.json         tool version, git commit, command line, seed, games, rules sha256,
                            seats, cores, workers, UTC start/end, rounds/s, "status"
    scenario.yaml           resolved scenario with tags (compare/sweep: scenario-0.yaml, ...)
    summary.json            the summary (what --json prints); written when the run completes
    report.md, report.html  the report (figures/ holds report.md's PNGs; the HTML inlines them)
    chunks/<start>.json     per finished chunk: its MomentSums and extras (whole chunks only)
    games/part-<start>.parquet   per-game table, one file per chunk
    rounds/part-<start>.parquet  per-round table (--records), one file per chunk
    variants.json           the resolved scenario data (what --resume rebuilds the run from)

Integrity (format 2): provenance.json holds the sha256 of variants.json as written; each chunk's
JSON holds the sha256 of its Parquet files, of variants.json, and of its own content. ``--resume``
checks them all before playing and refuses a directory whose files are not the ones it wrote
(edited rules, damaged or copied chunks), naming the file, so that a finished result never mixes
two rule sets or counts games twice.

Every file is written atomically (a temporary file in the same directory, then a rename), and a
chunk's Parquet files are written before its JSON: a chunk is done when its JSON exists. A killed
run leaves ``"status": "incomplete"`` and whole chunks; ``--resume DIR`` merges them and plays
the rest, and since the sums are exact integers merged in chunk order the result is identical to
an uninterrupted run's.

From Python: ``simcore.studies.results.load(DIR)`` (summary, provenance, tables).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from simcore.errors import InputError, cut, shell_word, shown
from simcore.family.chunks import rounds_played
from simcore.family.players import seated
from simcore.family.tables import game_table, round_table
from simcore.stats.moments import MomentSums

FORMAT = "momojan-sim result"
# 2: variants.json and every chunk carry sha256 hashes that --resume checks; 3: chunk sums carry
# the counts of games that differ between variants (simcore.stats.moments.MomentSums.g); 4: the seat
# metrics are the harness's (MOMOJAN's seat2_win_share row became seat0_ahead_of_seat1, and a
# tournament's chunks keep the ahead-of metrics), so a chunk of 3 does not add to one of 4
FORMAT_VERSION = 4
# why a directory of an older format cannot be resumed (read, shown and reported it still is)
_OLDER = {2: "its chunks lack the counts of games that differ, which compare's intervals need",
          3: "its chunks hold the seat metrics of an older catalogue"}
DEFAULT_ROOT_ENV = "MOMOJAN_SIM_RESULTS"   # default parent of result directories ("results")

_UMASK = os.umask(0)
os.umask(_UMASK)
_FILE_MODE = 0o666 & ~_UMASK   # what open() would give (mkstemp makes 0600)


# ---------------------------------------------------------------------------------------------
# Atomic files
# ---------------------------------------------------------------------------------------------

def atomic_write(path: str, data) -> None:
    """Write ``data`` (str or bytes) to ``path`` through a temporary file and a rename."""
    d = os.path.dirname(os.path.abspath(path))
    # the name's end, for a reader of the folder: a name near the file system's limit still
    # leaves room for the prefix and the random part
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=os.path.basename(path)[-64:])
    try:
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_json(path: str, obj) -> None:
    atomic_write(path, json.dumps(obj, indent=1, ensure_ascii=False) + "\n")


def _write_parquet(path: str, columns: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(v) for k, v in columns.items()})
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".parquet")
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ---------------------------------------------------------------------------------------------
# Provenance
# ---------------------------------------------------------------------------------------------

def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def tool_version() -> str:
    try:
        from importlib.metadata import version
        return version("momojan-sim")
    except Exception:
        return "unknown"


def git_commit() -> str | None:
    """The checkout's commit (with "+dirty" when files differ), or None outside a git checkout."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        sha = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5)
        if sha.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        return sha.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def sha256_of(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


# The provenance fields that define what a result's games are (which games, which seed, which
# rules, which analysis): their hash is in provenance.json and in every chunk.
RUN_FIELDS = ("kind", "family", "seed", "games", "options", "variants_sha256", "chunk_games")


def run_sha256(prov: dict) -> str:
    return sha256_of({k: prov.get(k) for k in RUN_FIELDS})


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def default_dir(name: str, root: str | None = None) -> str:
    """``results/<name>-<UTC timestamp>`` (``$MOMOJAN_SIM_RESULTS`` replaces ``results``),
    created empty here: two runs started in the same second (two shells, parallel test
    workers) each get their own, since ``os.mkdir`` refuses the second (``-2``, ``-3``, ...).
    Where it cannot be created the path is returned as is, for :func:`_make_dir` to say why."""
    root = root or os.environ.get(DEFAULT_ROOT_ENV) or "results"
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    safe = re.sub(r"[^A-Za-z0-9_.=-]+", "_", name).strip("_.")[:80] or "run"
    base = os.path.join(root, f"{safe}-{stamp}")
    _DEFAULTED.add(os.path.abspath(base))
    try:
        os.makedirs(root, exist_ok=True)
    except OSError:
        return base
    path, n = base, 1
    while True:
        try:
            os.mkdir(path)
            _MADE.add(os.path.abspath(path))
            return path
        except FileExistsError:
            n += 1
            path = f"{base}-{n}"
        except OSError:
            return path


# ---------------------------------------------------------------------------------------------
# The directory
# ---------------------------------------------------------------------------------------------

ACTIVE = None   # the ResultDir being written in this process (for the Ctrl-C line)
RESUMABLE = ("run", "compare", "sweep", "solve", "tournament", "design")   # the commands with --resume


class SaveError(InputError):
    """A result directory could not be written (a full disk...): one line, exit 2."""


_MADE: set = set()   # directories this process created (default_dir, create): its to remove
_DEFAULTED: set = set()   # paths default_dir chose (errors name $MOMOJAN_SIM_RESULTS, not --out)


def _where(path: str) -> str:
    """How an error names the place a result goes: --out, or the default results root."""
    if os.path.abspath(path) in _DEFAULTED or \
            os.path.abspath(re.sub(r"-\d+$", "", path)) in _DEFAULTED:
        env = os.environ.get(DEFAULT_ROOT_ENV)
        return f"${DEFAULT_ROOT_ENV}={env}" if env else "the results folder"
    return "--out"


class Pace:
    """The steady rounds/s of the chunks played in this process's study: each worker's rounds
    over its seconds of play, its first chunk left out (it may load or compile the kernels, or
    wait for a compile), summed over the workers (they play side by side). Measured where
    the chunks are played, so a run of a few chunks that end together is not credited with the
    rounds of chunks played mostly before the clock started (the rate from the first chunk's
    end to the last's gave 206,584 rounds/s for 4,000 games on 2 workers, four times the
    truth). None until some worker has played a second chunk."""

    def __init__(self):
        self.workers = {}   # worker -> [chunks seen, steady rounds, steady seconds]

    def add(self, worker, seconds, rounds: int) -> None:
        if worker is None or seconds is None:
            return
        w = self.workers.setdefault(worker, [0, 0, 0.0])
        w[0] += 1
        if w[0] > 1:
            w[1] += rounds
            w[2] += seconds

    def rate(self):
        rates = [r / s for _, r, s in self.workers.values() if s > 0 and r > 0]
        return sum(rates) if rates else None


class ResultDir:
    """A result directory being written (a study's ``sink``, see :func:`simcore.studies.study.run_study`)."""

    def __init__(self, path: str, family, provenance: dict):
        global ACTIVE
        ACTIVE = self
        self.path = path
        self.family = family
        self.prov = provenance
        self.records = True   # the per-game table is always kept
        self.round_records = bool(provenance["options"].get("records"))
        self.extras = Extras()
        self.rounds = 0
        self.pace = Pace()
        self.games_done = 0
        self.created = False   # made by this process: removed again if it fails before a chunk
        self._verified = None  # --resume: the checked chunks, (start, stop, sums, extras)
        self._lock_fd = None   # the directory's write lock (LOCK_FILE), held while writing

    def release(self) -> None:
        """Let go of the directory's write lock (a finished or abandoned write)."""
        _let_go(self._lock_fd)
        self._lock_fd = None

    def _clean_stale(self) -> None:
        """Remove what an interrupted write of this directory left (``.tmp-*`` files of its
        chunks and manifests). Only with the lock held: no other writer has files in flight
        here (``report`` writes its own files, in figures/ and replays/, left alone)."""
        if self._lock_fd is None:
            return
        for sub in _STALE_IN:
            d = os.path.join(self.path, sub)
            for f in os.listdir(d) if os.path.isdir(d) else ():
                if not f.startswith(".tmp-") or f.startswith(".tmp-probe-"):
                    continue
                if sub or f.endswith((".json", ".yaml")):
                    _remove(os.path.join(d, f))

    @contextlib.contextmanager
    def _saving(self, what: str):
        """A write that fails (a full disk, a directory made read-only, removed): one line
        naming the directory and the error, and what of the work is kept (issue 46)."""
        try:
            yield
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            kind = self.prov.get("kind", "run")
            words = getattr(self.family, "GAME_WORDS", ("game", "games"))[1]
            if self.games_done and kind in RESUMABLE:
                kept = (f"the {self.games_done:,} {words} before it are saved there: "
                        f"momojan-sim {kind} --resume {shell_word(self.path)} finishes it once it can be "
                        f"written")
            elif self.games_done and kind != "tune":   # a tune saves nothing before the end
                kept = f"the {self.games_done:,} {words} before it are saved there"
            else:
                kept = "nothing had been saved yet"
            raise SaveError(f"cannot save in {self.path}: {what} could not be written "
                            f"({why}); {kept}") from None

    # -- creating -------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str, family, kind: str, scenarios, seed: int, games: int,
               options: dict, workers: int, labels=None, argv=None) -> "ResultDir":
        """Make the directory (its parent must exist unless it is the default root) and write
        the scenario YAML, variants.json and an incomplete provenance.json. Refuses a path that
        exists and is not empty, or cannot be written, before any game is played."""
        fresh = not os.path.isdir(path) or os.path.abspath(path) in _MADE
        _make_dir(path)
        if fresh:
            _MADE.add(os.path.abspath(path))
        lock_fd = _RESERVED.pop(os.path.abspath(path), None)
        if lock_fd is None:
            lock_fd = _take_lock(path, _where(path))
        prov = {
            "format": FORMAT, "format_version": FORMAT_VERSION, "kind": kind,
            "status": "incomplete", "family": family.NAME,
            "tool": "momojan-sim", "version": tool_version(), "git_commit": git_commit(),
            "command_line": shlex.join(["momojan-sim", *(argv if argv is not None
                                                         else sys.argv[1:])]),
            "python": platform.python_version(), "platform": platform.platform(),
            "seed": seed, "games": games, "options": options,
            "cores": os.cpu_count(), "usable_cores": _usable_cores(), "workers": workers,
            "started_utc": utc_now(), "finished_utc": None, "seconds": None,
            "games_played": 0, "rounds_played": 0, "rounds_per_s": None,
            "chunk_games": options.get("chunk_games"), "batch_stop": None,
            "variants": [],
        }
        # made before the first write: a write that fails lets go of the lock, and the
        # half-made directory is removed (ACTIVE), like any later failure
        self = cls(path, family, prov)
        self.created = True
        self._lock_fd = lock_fd
        payloads = []
        for v, sc in enumerate(scenarios):
            fname = "scenario.yaml" if len(scenarios) == 1 else f"scenario-{v}.yaml"
            data = family.SCENARIOS.payload(sc)
            payloads.append(data)
            prov["variants"].append({
                "name": sc.name, "label": labels[v][0] if labels else sc.name,
                "settings": labels[v][1] if labels else {}, "file": fname,
                "source": str(sc.path) if getattr(sc, "path", None) else None,
                "rules_sha256": sha256_of(family.SCENARIOS.rules_data(data)),
                "scenario_sha256": sha256_of(data), "seats": seated(sc)})
            try:
                atomic_write(os.path.join(path, fname), family.scenario_yaml(
                    sc, f"{sc.name}: the resolved scenario of this result (momojan-sim show "
                        f"{fname} prints it; it loads back as a scenario)"))
            except OSError as exc:
                raise InputError(f"{_where(path)}: cannot write in {path}: "
                                 f"{exc.strerror}") from None
        with self._saving("variants.json"):
            atomic_json(os.path.join(path, "variants.json"), payloads)
            prov["variants_sha256"] = file_sha256(os.path.join(path, "variants.json"))
            prov["run_sha256"] = run_sha256(prov)
            for sub in ("chunks", "games") + (("rounds",) if options.get("records") else ()):
                os.makedirs(os.path.join(path, sub), exist_ok=True)
        self._save_provenance()
        return self

    def discard_if_unplayed(self) -> bool:
        """Remove the directory again if this process made it and no chunk was saved (a
        command that failed before it played leaves nothing behind). True if removed."""
        import shutil
        if not self.created or self.games_done or self.prov.get("status") == "complete":
            return False
        if os.path.abspath(self.path) not in _MADE:
            return False
        self.release()
        shutil.rmtree(self.path, ignore_errors=True)
        return True

    @classmethod
    def reopen(cls, path: str, family, kind: str) -> "ResultDir":
        """An incomplete result directory of command ``kind``, for ``--resume``: every file it
        resumes from is checked against the hashes it was written with (module docstring)."""
        prov = read_provenance(path, "--resume")
        if prov["kind"] != kind:
            raise InputError(f"--resume {path}: a {prov['kind']} result (resume it with "
                             f"momojan-sim {prov['kind']} --resume {shell_word(path)})")
        if prov["status"] == "complete" and \
                os.path.isfile(os.path.join(path, "summary.json")):
            raise InputError(f"--resume {path}: this result is already complete "
                             f"(momojan-sim show {shell_word(path)})")
        # complete without its summary.json (deleted, or lost with a disk): the resume plays
        # nothing and writes the summary again from the saved chunks
        if prov.get("format_version", 1) < 2 or not isinstance(prov.get("variants_sha256"), str):
            raise InputError(f"--resume {path}: written by an older momojan-sim, without the "
                             f"file hashes that prove its chunks are its own; play it again")
        if prov["format_version"] < FORMAT_VERSION:
            raise InputError(f"--resume {path}: written by an older momojan-sim (format "
                             f"{prov['format_version']}: {_OLDER[prov['format_version']]}); "
                             f"play it again")
        check_run_hash(path, prov, "--resume")
        stop = prov.get("batch_stop")
        if stop is not None and (isinstance(stop, bool) or not isinstance(stop, int)):
            raise InputError(f"--resume {path}: provenance.json: batch_stop is {shown(stop)} "
                             f"(damaged)")
        self = cls(path, family, prov)
        # the lock first: a directory that cannot be written, or that a live process writes,
        # is refused before anything is played; with it held, leftovers are provably stale
        self._lock_fd = _take_lock(path, "--resume")
        try:
            self._clean_stale()
            self._payloads = self._checked_variants()
            self._verified = self._checked_chunks()
            for sub in ("chunks", "games") + (("rounds",) if prov["options"].get("records")
                                              else ()):
                os.makedirs(os.path.join(path, sub), exist_ok=True)  # a deleted folder: replayed
                _probe_write(path, os.path.join(path, sub), "--resume")
            # the folder itself: provenance.json and summary.json are replaced in it at the end
            # (its lock file, which already exists, opens even where nothing can be created)
            _probe_write(path, path, "--resume")
        except OSError as exc:
            self.release()
            raise InputError(f"--resume {path}: cannot write in it ({exc.strerror})") from None
        except BaseException:
            self.release()
            raise
        return self

    def _checked_variants(self, what_cmd: str = "--resume") -> list:
        return checked_variants(self.path, self.prov, what_cmd)

    def _checked_chunks(self, what_cmd: str = "--resume") -> list:
        """(start, stop, sums, extras) of the saved chunks that run on from game 0, each checked;
        a damaged, edited or foreign chunk is refused, naming its file."""
        out, done = [], 0
        for start, path in self._chunk_files():
            if start != done:
                break               # a leftover past a gap: resume_point removes it
            d = _read_json(path, what_cmd)
            what = f"{what_cmd} {path}"
            if not isinstance(d, dict) or not {"start", "stop", "sums", "extras", "sha256",
                                               "variants_sha256", "files"} <= set(d):
                raise InputError(f"{what}: not a chunk this version wrote (keys missing)")
            body = {k: v for k, v in d.items() if k != "sha256"}
            if sha256_of(body) != d["sha256"]:
                raise InputError(f"{what}: the chunk was changed after it was written (its "
                                 f"sha256 does not match)")
            if d["variants_sha256"] != self.prov["variants_sha256"] or \
                    d.get("run_sha256") != self.prov.get("run_sha256"):
                raise InputError(f"{what}: a chunk of another result (other rules, seed or "
                                 f"settings)")
            if d["start"] != start:
                raise InputError(f"{what}: holds games from {d['start']}, not {start} (a chunk "
                                 f"copied or renamed: games would count twice)")
            try:
                sums = MomentSums.from_json(d["sums"])
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{what}: damaged sums ({type(exc).__name__})") from None
            if sums.n != d["stop"] - start or sums.n <= 0:
                raise InputError(f"{what}: its sums count {sums.n} games, not "
                                 f"{d['stop'] - start}")
            if sums.g is None and self.prov.get("format_version", 1) >= 3:
                raise InputError(f"{what}: damaged sums (no counts of differing games)")
            if out and (sums.s.shape != out[0][2].s.shape or sums.c.shape != out[0][2].c.shape):
                raise InputError(f"{what}: its sums do not fit the other chunks'")
            if not isinstance(d["files"], dict):
                raise InputError(f"{what}: damaged file list")
            for rel, sha in d["files"].items():
                fp = os.path.join(self.path, rel)
                if not os.path.isfile(fp):
                    raise InputError(f"{what_cmd} {self.path}: {rel} is missing (written with "
                                     f"{os.path.basename(path)})")
                if file_sha256(fp) != sha:
                    raise InputError(f"{what_cmd} {fp}: changed or damaged since it was "
                                     f"written (its sha256 differs from "
                                     f"{os.path.basename(path)}'s)")
            out.append((start, d["stop"], sums, d["extras"]))
            done = d["stop"]
        return out

    def scenarios(self) -> list:
        payloads = getattr(self, "_payloads", None)
        if payloads is None:
            payloads = _read_json(os.path.join(self.path, "variants.json"), "--resume")
        try:
            return [self.family.SCENARIOS.from_payload(d) for d in payloads]
        except InputError as exc:
            raise InputError(f"--resume {self.path}/variants.json: {exc}") from None

    # -- the sink interface (simcore.studies.study.run_study) --------------------------------------

    def resume_point(self):
        """Sums and extras of the chunks already saved (a contiguous run of chunks from game 0;
        anything else is a leftover of an interrupted write and is removed), and the stop of
        the batch they belong to."""
        sums = None
        checked = self._verified if self._verified is not None else self._checked_chunks()
        self.saved_chunk_sums = [(stop, s) for start, stop, s, extras in checked]
        for start, stop, s, extras in checked:
            sums = s if sums is None else sums.merge(s)
            self.extras.add(extras)
            self.rounds += _all_rounds(self.family, s)
        done = sums.n if sums else 0
        for start, path in self._chunk_files():
            if start >= done:
                _remove(path)       # past a gap: never written in order, played again
        for sub in ("games", "rounds"):  # Parquet of chunks whose JSON never came
            for start, path in _parts(os.path.join(self.path, sub)):
                if start >= done:
                    _remove(path)
        self.games_done = done
        return sums, self.prov.get("batch_stop")

    def batch(self, stop: int) -> None:
        self.prov["batch_stop"] = stop
        self._save_provenance()

    def chunk_done(self, res) -> None:
        with self._saving(f"the chunk of {self.family.GAME_WORDS[1]} {res.start:,}.."
                          f"{res.stop - 1:,}"):
            self._chunk_done(res)

    def _chunk_done(self, res) -> None:
        files = {}
        if res.batches:
            for v, b in enumerate(res.batches):
                cols = {"variant": np.full(len(b.games), v, np.int8)} if len(res.batches) > 1 \
                    else {}
                cols.update(game_table(self.family, b, res.start))
                rel = os.path.join("games", _part(res.start, v, res))
                _write_parquet(os.path.join(self.path, rel), cols)
                files[rel] = file_sha256(os.path.join(self.path, rel))
                if self.round_records:
                    rcols = {"variant": np.full(len(b.rounds), v, np.int8)} \
                        if len(res.batches) > 1 else {}
                    rcols.update(round_table(self.family, b))
                    rel = os.path.join("rounds", _part(res.start, v, res))
                    _write_parquet(os.path.join(self.path, rel), rcols)
                    files[rel] = file_sha256(os.path.join(self.path, rel))
        body = {"start": res.start, "stop": res.stop, "sums": res.sums.to_json(),
                "extras": res.extras, "variants_sha256": self.prov.get("variants_sha256"),
                "run_sha256": self.prov.get("run_sha256"), "files": files}
        # the hash of the JSON as it reads back (extras may hold tuples: lists once read)
        body = json.loads(json.dumps(body, ensure_ascii=False))
        atomic_json(os.path.join(self.path, "chunks", f"{res.start:015d}.json"),
                    {**body, "sha256": sha256_of(body)})
        self.extras.add(res.extras)
        rounds = _all_rounds(self.family, res.sums)
        self.rounds += rounds
        self.pace.add(getattr(res, "worker", None), getattr(res, "seconds", None), rounds)
        self.games_done = res.stop

    # -- finishing ----------------------------------------------------------------------

    def finish(self, summary: dict, seconds: float, workers: int) -> None:
        """summary.json, then provenance.json marked complete (with summary.json's sha256, so
        a reader tells a summary that is not this result's)."""
        sp = os.path.join(self.path, "summary.json")
        with self._saving("summary.json"):
            atomic_json(sp, summary)
            self.prov["summary_sha256"] = file_sha256(sp)
        steady = self.pace.rate()
        self.prov.update({"status": "complete", "finished_utc": utc_now(),
                          "games_played": self.games_done, "rounds_played": self.rounds,
                          "workers": workers,
                          "seconds": round(seconds, 3),
                          "rounds_per_s": round(steady, 1) if steady else None})
        try:
            self._save_provenance()
        except SaveError:
            self.prov["status"] = "incomplete"
            raise
        _remove(os.path.join(self.path, LOCK_FILE))   # complete: nothing writes it again
        self.release()

    def _save_provenance(self):
        self.prov["games_played"] = self.games_done
        self.prov["rounds_played"] = self.rounds
        with self._saving("provenance.json"):
            atomic_json(os.path.join(self.path, "provenance.json"), self.prov)

    def _chunk_files(self):
        return _scan(os.path.join(self.path, "chunks"), r"(\d{15})\.json")


def _all_rounds(family, sums) -> int:
    """Rounds of every variant in ``sums`` (a compare's or a sweep's rounds/s counts them
    all, not only the first variant's)."""
    return sum(rounds_played(family, sums, v) for v in range(sums.s.shape[1] // 2))


def saved_games(path: str) -> int:
    """Games an incomplete result directory holds: its chunks from game 0 on, as their files
    say (read only: ``show`` changes nothing; a damaged chunk ends the count)."""
    stops = {}
    d = os.path.join(path, "chunks")
    for f in os.listdir(d) if os.path.isdir(d) else ():
        m = re.fullmatch(r"(\d{15})\.json", f)
        if m:
            try:
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    stops[int(m.group(1))] = int(json.load(fh)["stop"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
    done = 0
    while done in stops:
        done = stops[done]
    return done


def _part(start: int, v: int, res) -> str:
    return f"part-{start:015d}" + (f"-v{v}" if len(res.batches) > 1 else "") + ".parquet"


def _parts(d: str):
    return _scan(d, r"part-(\d{15})(-v\d+)?\.parquet")


def _scan(d: str, pattern: str) -> list:
    """Sorted (first game, path) of the files in ``d`` named by ``pattern`` (group 1: the first
    game). Read only: a ``.tmp-*`` file may be a live writer's file in flight (issue 46); only
    the writer, holding the directory's lock, removes stale ones (:meth:`ResultDir._clean_stale`)."""
    out = []
    for f in os.listdir(d) if os.path.isdir(d) else ():
        m = re.fullmatch(pattern, f)
        if m:
            out.append((int(m.group(1)), os.path.join(d, f)))
    return sorted(out)


LOCK_FILE = ".lock"   # held (fcntl.lockf) by the one process writing a result directory
# where a writer's .tmp-* files go (the report writes its own, in figures/ and replays/)
_STALE_IN = ("", "chunks", "games", "rounds")


_HELD: dict = {}   # lock fd -> directory: the write locks this process holds


def _let_go(fd) -> None:
    """Give back a write lock :func:`_take_lock` took (None: none was taken)."""
    if fd is None:
        return
    _HELD.pop(fd, None)
    try:
        os.close(fd)
    except OSError:
        pass


def _take_lock(path: str, what: str):
    """The directory's write lock, or one line: it cannot be written (read-only), or another
    process is writing it now. A POSIX record lock: the kernel drops it when its process ends,
    however it ends, and forked workers do not inherit it."""
    import errno
    import fcntl
    lock = os.path.join(path, LOCK_FILE)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), _FILE_MODE)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot write in it ({exc.strerror}): a result "
                         f"directory is written where it is (copy it somewhere writable "
                         f"first)") from None
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EACCES, errno.EAGAIN):
            raise InputError(f"{what} {path}: another momojan-sim process is writing it now "
                             f"(wait for it to end, or stop it)") from None
        return None   # a file system without locks (some network mounts): written unlocked,
        #               and a resume then removes no leftovers (none is provably stale)
    _HELD[fd] = os.path.abspath(path)
    return fd


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _usable_cores():
    from simcore.runners.local import usable_cores
    return usable_cores()


def _refuse_taken(path: str) -> None:
    """A result directory goes only where nothing is: not onto a file, not into a non-empty
    directory."""
    if os.path.isfile(path):
        raise InputError(f"{_where(path)}: {path} is a file (give a directory for the result, "
                         f"or a name ending in .json for the summary alone)")
    if os.path.isdir(path) and [f for f in os.listdir(path) if not (
            f == LOCK_FILE and (os.path.abspath(path) in _RESERVED or not _lock_held(path)))]:
        raise InputError(f"{_where(path)}: {path} exists and is not empty{_taken_hint(path)}")


def _lock_held(path: str) -> bool:
    """Whether a live process holds ``path``'s write lock (a lone ``.lock`` left by a process
    that was killed while it held an empty directory does not take it)."""
    import fcntl
    if os.path.abspath(path) in _HELD.values():
        return True   # this process's own (testing it would drop it: POSIX locks)
    try:
        fd = os.open(os.path.join(path, LOCK_FILE), os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


_RESERVED: dict = {}   # --out directories made and locked before play (reserve_dir): path -> fd


def reserve_dir(path: str) -> None:
    """Make ``path`` (an --out directory) now and hold its write lock, before a command plays
    what it will save there only later (solve's pilot): another command cannot take it in the
    meantime. :func:`drop_reservations` gives back one the command never used."""
    check_out_dir(path)
    fresh = not os.path.isdir(path)
    _make_dir(path)
    if fresh:
        _MADE.add(os.path.abspath(path))
    _RESERVED[os.path.abspath(path)] = _take_lock(path, _where(path))


def drop_reservations(keep=()) -> None:
    """Give back the directories :func:`reserve_dir` made that no result was written in (the
    command failed or was stopped first): removed again if this process made them. ``keep``:
    paths reserved before the command started (another command's, in this process)."""
    for path in [p for p in _RESERVED if p not in keep]:
        _remove(os.path.join(path, LOCK_FILE))
        _let_go(_RESERVED.pop(path))
        if path in _MADE:
            try:
                os.rmdir(path)
            except OSError:
                pass


def _taken_hint(path: str) -> str:
    """What a taken directory holds: an unfinished result of a command with --resume says how
    to finish it; any other result (a tune, a finished one) says what it is, no --resume."""
    if not _is_result(path):
        return (" (another momojan-sim command has taken it for its result)"
                if os.listdir(path) == [LOCK_FILE] else "")
    try:
        with open(os.path.join(path, "provenance.json"), encoding="utf-8") as f:
            prov = json.load(f)
        kind, status = str(prov["kind"]), str(prov["status"])
    except (OSError, ValueError, KeyError, TypeError):
        return " (a result directory)"
    if status == "complete":
        return f" (a finished {kind} result: give another --out)"
    if _lock_held(path):
        if kind in RESUMABLE:   # a QA trial: the hint said to resume what is being written
            return (f" (an unfinished {kind} result that another {kind} is writing now: give "
                    f"another --out, or wait for it)")
        return (f" (an unfinished {kind} result that another {kind} is writing now; {kind} "
                f"has no --resume: give another --out)")
    if kind in RESUMABLE:
        return f"; finish it with momojan-sim {kind} --resume {path}"
    return (f" (an unfinished {kind} result whose command stopped before its end; {kind} has "
            f"no --resume: give another --out, or remove the folder)")


def check_out_dir(path: str) -> None:
    """Refuse an --out directory that :func:`_make_dir` would refuse, creating nothing (the
    directory is made only when play starts, after every other check)."""
    default_root = os.environ.get(DEFAULT_ROOT_ENV) or "results"
    parent = os.path.dirname(os.path.abspath(path))
    _refuse_taken(path)
    _refuse_file_above(path)
    if os.path.isdir(path):
        probe_in = path
    else:
        probe_in = parent
        while not os.path.isdir(probe_in):
            if os.path.abspath(parent) != os.path.abspath(default_root):
                raise InputError(f"{_where(path)}: directory {parent} does not exist")
            probe_in = os.path.dirname(probe_in)
    _probe_write(path, probe_in)


def _refuse_file_above(path: str) -> None:
    """One line when a folder the result would go in is a file (a ``results`` file where the
    default results folder goes)."""
    up = os.path.dirname(os.path.abspath(path))
    while up and not os.path.isdir(up):
        if os.path.lexists(up):
            raise InputError(f"{_where(path)}: {up} is a file, not a folder: the result cannot "
                             f"be saved there")
        nxt = os.path.dirname(up)
        if nxt == up:
            break
        up = nxt


def check_default_root() -> None:
    """Refuse, before anything is played, a default results folder (``results``, or
    ``$MOMOJAN_SIM_RESULTS``) where no result directory can be made."""
    root = os.environ.get(DEFAULT_ROOT_ENV) or "results"
    env = os.environ.get(DEFAULT_ROOT_ENV)
    where = f"${DEFAULT_ROOT_ENV}={env}" if env else "the results folder"
    if os.path.lexists(root) and not os.path.isdir(root):
        raise InputError(f"{where}: {root} is a file, not a folder: results cannot be saved "
                         f"there (remove or rename it)")
    up = os.path.abspath(root)
    while not os.path.isdir(up):
        if os.path.lexists(up):
            raise InputError(f"{where}: {up} is a file, not a folder: results cannot be saved "
                             f"there")
        up = os.path.dirname(up)
    try:
        fd, probe = tempfile.mkstemp(dir=up, prefix=".tmp-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{where}: cannot write in {up}: {exc.strerror}") \
            from None


MIN_FREE = 4 << 20   # bytes a result needs at the least: its first chunks, summary and report


def _probe_write(path: str, directory: str, what: str | None = None) -> None:
    """Refuse ``path`` (one line naming it) unless a file can be created in ``directory`` and
    its file system has :data:`MIN_FREE` bytes free (a QA trial: on a nearly full disk the
    first chunk was played, could not be saved, and was thrown away)."""
    try:
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".tmp-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{what or _where(path)}: cannot write in {directory}: "
                         f"{exc.strerror}") from None
    try:
        free = shutil.disk_usage(directory).free
    except OSError:
        return      # no figure to go by: the writes will say
    if free < MIN_FREE:
        raise InputError(f"{what or _where(path)}: {free // 1024:,} KiB free in {directory}, "
                         f"under the {MIN_FREE >> 20} MiB a result needs (its chunks, summary "
                         f"and report): free some space or save elsewhere")


def _make_dir(path: str) -> None:
    default_root = os.environ.get(DEFAULT_ROOT_ENV) or "results"
    parent = os.path.dirname(os.path.abspath(path))
    _refuse_taken(path)
    if not os.path.isdir(path) and not os.path.isdir(parent):
        if os.path.abspath(parent) == os.path.abspath(default_root):
            try:
                os.makedirs(parent, exist_ok=True)
            except OSError as exc:
                raise InputError(f"{_where(path)}: cannot create {parent}: {exc.strerror}") from None
        else:
            raise InputError(f"{_where(path)}: directory {parent} does not exist")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{_where(path)}: cannot write in {path}: {exc.strerror}") from None
    _probe_write(path, path)


def _is_result(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "provenance.json"))


def _read_json(path: str, what: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise InputError(f"{what}: {path} is missing") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{what}: cannot read {path}: {exc}") from None


def read_provenance(path: str, what: str = "result") -> dict:
    """provenance.json of a result directory, or one line saying why ``path`` is not one."""
    if not os.path.isdir(path):
        raise InputError(f"{what} {path}: not a directory")
    if not _is_result(path):
        raise InputError(f"{what} {path}: not a result directory (no provenance.json)")
    prov = _read_json(os.path.join(path, "provenance.json"), what)
    if not isinstance(prov, dict) or prov.get("format") != FORMAT:
        raise InputError(f"{what} {path}: provenance.json is not a momojan-sim result's")
    version = prov.get("format_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(f"{what} {path}: provenance.json has an unknown format_version "
                         f"{shown(version)}")
    if version > FORMAT_VERSION:
        raise InputError(f"{what} {path}: written by a newer momojan-sim (format {version}; "
                         f"this one reads 1..{FORMAT_VERSION})")
    for key, kind in _PROVENANCE_KEYS.items():
        if key not in prov:
            raise InputError(f"{what} {path}: provenance.json has no {key!r} (damaged)")
        if not isinstance(prov[key], kind) or isinstance(prov[key], bool) and kind is int:
            raise InputError(f"{what} {path}: provenance.json: {key} is {shown(prov[key])} "
                             f"(damaged)")
    if not prov["variants"] or not all(isinstance(v, dict) and isinstance(v.get("name"), str)
                                       for v in prov["variants"]):
        raise InputError(f"{what} {path}: provenance.json: variants is damaged")
    if not 0 <= prov["seed"] < 2 ** 64:    # run.seed's range: the engine takes a uint64
        raise InputError(f"{what} {path}: provenance.json: seed is {shown(prov['seed'])} "
                         f"(damaged)")
    return prov


def check_run_hash(path: str, prov: dict, what: str) -> None:
    """Refuse (one line) a provenance.json whose seed, games, options or rules were edited after
    it was written (their hash, ``run_sha256``, no longer matches)."""
    if prov.get("run_sha256") != run_sha256(prov):
        raise InputError(f"{what} {path}: provenance.json was edited (its seed, games, "
                         f"options or rules no longer match the hash it was written with)")


def checked_variants(path: str, prov: dict, what: str) -> list:
    """variants.json of a result directory, proved to be the one its games were played with
    where the result holds its sha256 (format 2 on), or one line: a resume must not mix rule
    sets, and a replay must not show a game the result never played."""
    vp = os.path.join(path, "variants.json")
    if not os.path.isfile(vp):
        raise InputError(f"{what} {path}: variants.json is missing")
    if isinstance(prov.get("variants_sha256"), str) and file_sha256(vp) != prov["variants_sha256"]:
        raise InputError(f"{what} {path}: variants.json is not the one this result was played "
                         f"with (its sha256 differs from provenance.json's); a result must not "
                         f"mix rule sets")
    payloads = _read_json(vp, what)
    if not isinstance(payloads, list) or len(payloads) != len(prov["variants"]) \
            or not all(isinstance(d, dict) for d in payloads):
        raise InputError(f"{what} {vp}: not the list of {len(prov['variants'])} scenarios "
                         f"provenance.json names")
    return payloads


# What every reader of provenance.json relies on, with its type.
_PROVENANCE_KEYS = {"kind": str, "status": str, "seed": int, "games": int, "options": dict,
                    "variants": list, "command_line": str, "started_utc": str}


@contextlib.contextmanager
def reading(path: str, what: str):
    """Turn what a damaged result directory makes the readers raise (a missing key, a wrong
    type, an unreadable Parquet file) into one line naming the directory."""
    try:
        yield
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OSError) as exc:
        if isinstance(exc, OSError) and _writing(exc):
            # a read-only folder or a full disk is no damage (a QA trial)
            if exc.filename is None:
                raise       # stdout (show > /dev/full): the CLI's own line says so
            raise InputError(f"{what} {path}: cannot write {exc.filename}: "
                             f"{exc.strerror}") from None
        detail = cut(str(exc).splitlines()[0] if str(exc) else "", 100)
        raise InputError(f"{what} {path}: damaged result directory ({type(exc).__name__}"
                         f"{': ' + detail if detail else ''})") from None


def _writing(exc: OSError) -> bool:
    """Whether ``exc`` is what writing raises where nothing can be written (a read-only file
    system, no space or quota left, a file over the size limit)."""
    import errno
    return exc.errno in (errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def verify_files(path: str, prov: dict, what: str) -> None:
    """For a reader that trusts a directory's chunks and tables (compare DIR DIR): refuse one
    whose files are not the ones it wrote (format 2 and later carry the hashes to tell)."""
    if prov.get("format_version", 1) < 2:
        return
    rd = ResultDir.__new__(ResultDir)   # the checks only: not the active result of --resume
    rd.path, rd.prov = path, prov
    rd._checked_variants(what)
    rd._checked_chunks(what)
    refuse_stray_parts(path, prov, what)


def refuse_stray_parts(path: str, prov: dict, what: str) -> None:
    """A complete result's games/ and rounds/ hold only the Parquet parts its chunks wrote
    (each chunk's JSON names its files): a part copied in, or left from another result, would
    be read as games of this one (a QA trial: one copied part made 6,000 game rows of a
    4,000-game run, and compare fell back to an unpaired comparison, giving a false reason).
    Older results, and incomplete ones (a part whose chunk never came is a leftover the next
    --resume removes), are not checked."""
    if prov.get("format_version", 1) < 2 or prov.get("status") != "complete":
        return
    named = set()
    for _, cp in _scan(os.path.join(path, "chunks"), r"(\d{15})\.json"):
        d = _read_json(cp, what)
        files = d.get("files") if isinstance(d, dict) else None
        if not isinstance(files, dict):
            raise InputError(f"{what} {cp}: damaged file list")
        named.update(os.path.normpath(rel) for rel in files)
    for sub in ("games", "rounds"):
        for _, pp in _parts(os.path.join(path, sub)):
            rel = os.path.join(sub, os.path.basename(pp))
            if rel not in named:
                raise InputError(f"{what} {path}: {rel} is a Parquet part no chunk of this "
                                 f"result wrote (copied in, or another result's): remove it")


def is_result_dir(path: str) -> bool:
    return os.path.isdir(path) and _is_result(path)


# ---------------------------------------------------------------------------------------------
# Extras: histograms, example games, trajectories, merged over chunks in order
# ---------------------------------------------------------------------------------------------

class Extras:
    EXAMPLES = 3

    def __init__(self):
        self.hist: dict = {}
        self.examples: list | None = None
        self.trajectories: list | None = None
        self.strata: dict = {}     # variant -> breakdown name -> int64[parts, metrics, 6]
        self.points: dict = {}     # variant -> {"rows", "fired", "per_win", "of_all", reach sums}

    def add(self, e: dict | None) -> None:
        if not e:
            return
        for name, per_variant in e.get("hist", {}).items():
            arr = np.asarray(per_variant, np.int64)
            self.hist[name] = arr if name not in self.hist else self.hist[name] + arr
        if e.get("examples"):
            if self.examples is None:
                self.examples = [[list(m) for m in v] for v in e["examples"]]
            else:
                for mine, theirs in zip(self.examples, e["examples"]):
                    for m, t in zip(mine, theirs):
                        m.extend(t[:max(0, self.EXAMPLES - len(m))])
        if e.get("trajectories"):
            self.trajectories = e["trajectories"]
        for v, part in enumerate(e.get("strata") or ()):
            mine = self.strata.setdefault(v, {})
            for name, arr in part.items():
                arr = np.asarray(arr, np.int64)
                mine[name] = arr if name not in mine else mine[name] + arr
        for v, part in enumerate(e.get("points") or ()):
            mine = self.points.setdefault(v, {"rows": None})
            if part.get("rows"):
                mine["rows"] = part["rows"]
            if part.get("measured"):
                mine["measured"] = part["measured"]
            for k in ("fired", "per_win", "of_all", "within_reach", "completed"):
                if k not in part:
                    continue
                arr = np.asarray(part[k], np.int64)
                mine[k] = arr if k not in mine else mine[k] + arr

    def to_json(self, family, catalogue, v: int = 0) -> dict:
        out = {"distributions": {}, "examples": {}, "trajectories": []}
        for name, arr in self.hist.items():
            what, per, _ = family.SIMULATOR.HISTOGRAMS[name]
            out["distributions"][name] = {"what": what, "per": per, "counts": arr[v].tolist(),
                                          "last_bin_is_at_least": int(arr.shape[1] - 1)}
        if self.examples is not None:
            out["examples"] = {m.name: g for m, g in zip(catalogue, self.examples[v]) if g}
        if self.trajectories:
            out["trajectories"] = self.trajectories[v]
        from simcore.stats.domains import breakdown_json, point_table
        if self.strata.get(v):
            out["breakdown"] = breakdown_json(family.BREAKDOWNS, family.BREAKDOWN_METRICS,
                                              self.strata[v], catalogue)
        if self.points.get(v, {}).get("rows"):
            out["yaku_table"] = point_table(self.points[v])
        return out


# ---------------------------------------------------------------------------------------------
# Reading a result back
# ---------------------------------------------------------------------------------------------

class Result:
    """A saved result: ``summary``, ``provenance`` (dicts), ``games`` and ``rounds`` tables
    (pandas DataFrames when pandas is installed, else dicts of numpy arrays; ``rounds`` is None
    without --records)."""

    def __init__(self, path, summary, provenance, games, rounds):
        self.path, self.summary, self.provenance = path, summary, provenance
        self.games, self.rounds = games, rounds

    @property
    def codes(self) -> dict:
        """What the per-game table's integer codes mean: column -> {code: name}
        (``Family.GAME_CODES``; e.g. ``end_reason``)."""
        from simcore.family.registry import of_result
        from simcore.family.tables import game_codes
        return game_codes(of_result(self.provenance))

    def game_names(self, column: str):
        """The ``games`` table's ``column`` as names (e.g. ``end_reason``: "bust", ...)."""
        names = self.codes[column]
        values = self.games[column]
        return [names.get(int(v), str(int(v))) for v in values]

    @property
    def complete(self) -> bool:
        return self.provenance.get("status") == "complete"

    def __repr__(self):
        return (f"Result({self.path!r}, kind={self.provenance.get('kind')!r}, "
                f"status={self.provenance.get('status')!r})")


def read_table(d: str, as_pandas: bool | None = None):
    """The Parquet parts in ``d`` as one table (None when there is none)."""
    parts = _parts(d)
    if not parts:
        return None
    import pyarrow as pa
    import pyarrow.parquet as pq
    tables = []
    for _, p in parts:
        try:
            tables.append(pq.read_table(p))
        except (OSError, pa.ArrowException) as exc:
            raise InputError(f"{p}: not a readable Parquet file "
                             f"({cut(str(exc).splitlines()[0], 80)})") from None
    try:
        table = pa.concat_tables(tables)
    except pa.ArrowException as exc:
        raise InputError(f"{d}: its Parquet parts do not fit together "
                         f"({cut(str(exc).splitlines()[0], 80)})") from None
    if as_pandas is None:
        try:
            import pandas  # noqa: F401
            as_pandas = True
        except ImportError:
            as_pandas = False
    if as_pandas:
        return table.to_pandas()
    return {name: table.column(name).to_numpy() for name in table.column_names}


def load(path: str, pandas: bool | None = None) -> Result:
    """Open a result directory: summary, provenance and the tables (numpy, or pandas)."""
    prov = read_provenance(path)
    sp = os.path.join(path, "summary.json")
    summary = _read_json(sp, "result") if os.path.isfile(sp) else None
    if summary is not None:
        check_summary(path, prov, summary, "result")
    refuse_stray_parts(path, prov, "result")
    return Result(path, summary, prov, read_table(os.path.join(path, "games"), pandas),
                  read_table(os.path.join(path, "rounds"), pandas))


def check_summary(path: str, prov: dict, summary, what: str) -> None:
    """Refuse (one line) a summary.json that is not this result's: damaged, edited, or
    another result's copied in (a riichi2p summary in an emoji run's directory would be read
    and drawn as the emoji result). A result written since issue 46 holds summary.json's
    sha256; an older one is checked by what its summary says (kind, seed, scenario)."""
    sp = os.path.join(path, "summary.json")
    if not isinstance(summary, dict):
        raise InputError(f"{what} {path}: summary.json is {shown(summary)}, not a summary "
                         f"(damaged)")
    want = prov.get("summary_sha256")
    if isinstance(want, str) and file_sha256(sp) != want:
        raise InputError(f"{what} {sp}: not the summary this result wrote (its sha256 differs "
                         f"from provenance.json's: edited, damaged or another result's)")
    names = [v.get("name") for v in prov["variants"]]
    for key, mine in (("kind", prov["kind"]), ("seed", prov["seed"]),
                      ("scenario", names[0] if prov["kind"] == "run" else None)):
        theirs = summary.get(key)
        if mine is not None and theirs is not None and theirs != mine:
            raise InputError(f"{what} {sp}: another result's summary ({key} "
                             f"{cut(shown(theirs), 40)}; this {prov.get('family', '')} "
                             f"{prov['kind']} result's is {cut(shown(mine), 40)})")


def saved_sums(path: str) -> MomentSums | None:
    """The merged per-chunk sums of a result (what a paired comparison of two saved runs
    needs: per-game components of every metric and their cross products)."""
    sums = None
    with reading(path, "result"):
        for start, p in _scan(os.path.join(path, "chunks"), r"(\d{15})\.json"):
            if (sums.n if sums else 0) != start:
                break
            d = _read_json(p, "result")
            s = MomentSums.from_json(d["sums"])
            if s.n != d["stop"] - start:
                raise InputError(f"result {p}: its sums count {s.n} games, not "
                                 f"{d['stop'] - start} (damaged)")
            sums = s if sums is None else sums.merge(s)
    return sums
