"""Nothing lost, nothing wrong (issue 46, the result directories' items): every analysis option
a result depends on is recorded and honoured on --resume; a destination is checked before
anything is played and a late write failure keeps what was played; read-only commands delete
nothing; a summary that is not the directory's own, a damaged result, a tune directory given to
replay are one line and exit 2; replay lines survive a moved directory."""

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.studies import results

RUN = ["new_edition", "--seed", "3", "--workers", "1", "--quiet", "--no-report"]


def _invoke(args, **kw):
    return CliRunner().invoke(main, args, **kw)


def _one_line_exit_2(r, *frags):
    assert r.exit_code == 2, r.output
    err = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith("momojan-sim: error: "), r.stderr
    assert "Traceback" not in r.output
    for f in frags:
        assert f in err[0], (f, err[0])
    return err[0]


def _summary(d):
    with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def _provenance(d):
    with open(os.path.join(d, "provenance.json"), encoding="utf-8") as f:
        return json.load(f)


def _numbers(s):
    """What an uninterrupted and a resumed result must agree on (not timings)."""
    return {k: s[k] for k in ("metrics", "intervals", "luck_correction", "games", "seed")
            if k in s}


@pytest.fixture
def stop_after_chunks(monkeypatch):
    """Make the next command stop (as Ctrl-C does) once ``n`` chunks are saved."""
    def arm(n):
        real = results.ResultDir.chunk_done
        seen = [0]

        def chunk_done(self, res):
            if seen[0] >= n:
                raise KeyboardInterrupt
            real(self, res)
            seen[0] += 1
        monkeypatch.setattr(results.ResultDir, "chunk_done", chunk_done)
        return lambda: monkeypatch.setattr(results.ResultDir, "chunk_done", real)
    return arm


# ---------------------------------------------------------------------------------------------
# item 1: --no-luck-correction recorded, honoured on resume, a contradiction refused
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("plain", [True, False], ids=["no_luck_correction", "luck_corrected"])
def test_no_luck_correction_is_recorded_and_a_resumed_run_keeps_it(tmp_path, plain,
                                                                   stop_after_chunks):
    flag = ["--no-luck-correction"] if plain else []
    whole, part = str(tmp_path / "whole"), str(tmp_path / "part")
    r = _invoke(["run", *RUN, "--games", "4000", "--out", whole, *flag])
    assert r.exit_code == 0, r.output
    assert _provenance(whole)["options"]["luck_correction"] is (not plain)
    assert ("luck_correction" in _summary(whole)) is (not plain)
    assert ("plain estimates" in _invoke(["show", whole]).output) is plain
    disarm = stop_after_chunks(1)
    r = _invoke(["run", *RUN, "--games", "4000", "--out", part, *flag])
    assert r.exit_code == 130, r.output
    disarm()
    assert _provenance(part)["status"] == "incomplete"
    # resumed as the docs say (no analysis option): the numbers of the uninterrupted run
    r = _invoke(["run", "--resume", part, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    assert _numbers(_summary(part)) == _numbers(_summary(whole))
    assert _provenance(part)["options"]["luck_correction"] is (not plain)


def test_resume_with_no_luck_correction_of_a_corrected_result_is_refused(tmp_path,
                                                                        stop_after_chunks):
    part = str(tmp_path / "part")
    disarm = stop_after_chunks(1)
    assert _invoke(["run", *RUN, "--games", "4000", "--out", part]).exit_code == 130
    disarm()
    before = sorted(os.listdir(os.path.join(part, "chunks")))
    r = _invoke(["run", "--resume", part, "--no-luck-correction", "--quiet"])
    _one_line_exit_2(r, "luck correction", part)
    assert sorted(os.listdir(os.path.join(part, "chunks"))) == before   # nothing played


@pytest.mark.second_tier
def test_a_resumed_compare_keeps_no_luck_correction(tmp_path, stop_after_chunks):
    args = ["compare", "old_edition", "new_edition", "--games", "2000", "--seed", "5",
            "--workers", "1", "--quiet", "--no-report", "--json", "--no-luck-correction"]
    whole, part = str(tmp_path / "whole"), str(tmp_path / "part")
    assert _invoke([*args, "--out", whole]).exit_code == 0
    disarm = stop_after_chunks(0)       # stopped before its first chunk: the resume plays all
    assert _invoke([*args, "--out", part]).exit_code == 130
    disarm()
    r = _invoke(["compare", "--resume", part, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    a, b = _summary(whole), _summary(part)
    assert a["metrics"] == b["metrics"] and "luck_correction" not in b
    # the same setting given again is no contradiction: a complete result is refused as such
    r = _invoke(["compare", "--resume", whole, "--no-luck-correction"])
    assert r.exit_code == 2 and "already complete" in r.output and \
        len(r.output.strip().splitlines()) == 1, r.output


# ---------------------------------------------------------------------------------------------
# item 2: destinations checked before play; late failures keep the work; read-only resume
# ---------------------------------------------------------------------------------------------

def _never(*a, **k):
    raise AssertionError("played although the destination cannot be written")


def test_tune_refuses_a_results_folder_that_is_a_file_before_playing(tmp_path, monkeypatch):
    taken = tmp_path / "results"
    taken.write_text("not a folder\n")
    monkeypatch.setenv(results.DEFAULT_ROOT_ENV, str(taken))
    import simcore.studies.tune
    monkeypatch.setattr(simcore.studies.tune, "tune", _never)
    r = _invoke(["tune", "new_edition", "--budget", "1", "--games", "10", "--quiet"])
    line = _one_line_exit_2(r, str(taken), "is a file")
    assert "--resume" not in line   # a tune has none to suggest


def test_solve_pilot_refuses_a_results_folder_that_is_a_file_before_playing(tmp_path,
                                                                           monkeypatch):
    taken = tmp_path / "results"
    taken.write_text("not a folder\n")
    monkeypatch.setenv(results.DEFAULT_ROOT_ENV, str(taken))
    import simcore.studies.solve
    monkeypatch.setattr(simcore.studies.solve, "play_pilot", _never)
    r = _invoke(["solve", "new_edition", "--param", "compensation.komi", "--games", "200",
                 "--pilot-games", "100", "--workers", "1", "--quiet"])
    _one_line_exit_2(r, str(taken), "is a file")


def test_a_second_tune_cannot_take_the_out_of_a_running_one(tmp_path, monkeypatch):
    out = str(tmp_path / "t")
    import simcore.studies.tune
    real = simcore.studies.tune.tune
    second = []

    def first_tune(*a, **k):   # while the first tune plays, a second one asks for its --out
        second.append(_invoke(["tune", "new_edition", "--budget", "1", "--games", "10",
                               "--check-games", "10", "--workers", "1", "--quiet",
                               "--out", out]))
        return real(*a, **k)
    monkeypatch.setattr(simcore.studies.tune, "tune", first_tune)
    r = _invoke(["tune", "new_edition", "--budget", "1", "--games", "10", "--check-games", "10",
                 "--workers", "1", "--quiet", "--no-report", "--out", out])
    assert r.exit_code == 0, r.output
    line = _one_line_exit_2(second[0], out, "not empty")
    assert "finish it with" not in line and "tune has no --resume" in line
    assert _provenance(out)["status"] == "complete"


def _full_disk_at(monkeypatch, fn_name, when):
    """The module-level writer ``fn_name`` of simcore.studies.results fails with ENOSPC where
    ``when(path)``."""
    real = getattr(results, fn_name)

    def writer(path, *a, **k):
        if when(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, *a, **k)
    monkeypatch.setattr(results, fn_name, writer)


def test_a_tune_that_cannot_save_prints_its_tuned_parameters(tmp_path, monkeypatch):
    out = str(tmp_path / "t")
    _full_disk_at(monkeypatch, "atomic_json", lambda p: p.endswith("summary.json"))
    r = _invoke(["tune", "new_edition", "--budget", "1", "--games", "10", "--check-games", "10",
                 "--workers", "1", "--quiet", "--no-report", "--out", out])
    line = _one_line_exit_2(r, out, "No space left on device", "printed above")
    assert "--resume" not in line
    assert "tuned" in r.stdout           # the answer is on the screen
    assert not os.path.exists(out)       # nothing half-written left behind


@pytest.mark.parametrize("cmd", ["run", pytest.param("compare", marks=pytest.mark.second_tier)])
def test_a_full_disk_mid_play_is_one_line_and_keeps_the_saved_chunks(tmp_path, monkeypatch,
                                                                     cmd):
    whole, part = str(tmp_path / "whole"), str(tmp_path / "part")
    args = (["run", *RUN, "--games", "6000"] if cmd == "run" else
            ["compare", "old_edition", "new_edition", "--games", "4000", "--seed", "2",
             "--workers", "1", "--quiet", "--no-report"])
    assert _invoke([*args, "--out", whole]).exit_code == 0
    _full_disk_at(monkeypatch, "_write_parquet", lambda p: "part-000000000002000" in p)
    r = _invoke([*args, "--out", part])
    _one_line_exit_2(r, part, "No space left on device", "2,000 games before it are saved",
                     f"momojan-sim {cmd} --resume {part}")
    monkeypatch.undo()
    assert sorted(f for f in os.listdir(os.path.join(part, "chunks"))) == \
        ["000000000000000.json"]
    r = _invoke([cmd, "--resume", part, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    assert _summary(part)["metrics"] == _summary(whole)["metrics"]


def test_a_run_whose_summary_cannot_be_saved_prints_it_and_resume_saves_it(tmp_path,
                                                                          monkeypatch):
    d = str(tmp_path / "r")
    _full_disk_at(monkeypatch, "atomic_json", lambda p: p.endswith("summary.json"))
    r = _invoke(["run", *RUN, "--games", "300", "--out", d])
    _one_line_exit_2(r, d, "No space left on device", "printed above", "--resume")
    assert "first_dealer_win_rate" in r.stdout
    monkeypatch.undo()
    r = _invoke(["run", "--resume", d, "--quiet", "--no-report"])
    assert r.exit_code == 0 and _provenance(d)["status"] == "complete"


def test_resuming_a_read_only_directory_is_one_line(tmp_path, stop_after_chunks, monkeypatch):
    part = str(tmp_path / "part")
    disarm = stop_after_chunks(0)
    assert _invoke(["run", *RUN, "--games", "300", "--out", part]).exit_code == 130
    disarm()
    real_open = os.open

    def read_only(path, flags, *a, **k):   # what a read-only mount (or chmod, not as root) does
        if str(path).startswith(part) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return real_open(path, flags, *a, **k)
    monkeypatch.setattr(os, "open", read_only)
    r = _invoke(["run", "--resume", part, "--quiet"])
    _one_line_exit_2(r, part, "Read-only file system")


def test_resuming_where_only_the_folder_itself_is_read_only_is_refused_before_play(
        tmp_path, stop_after_chunks, monkeypatch):
    """A QA trial: with the result folder immutable (chattr +i) but its subfolders writable,
    --resume played every remaining game and only then failed to write summary.json (here,
    where nothing was saved before, it failed at the first provenance.json after a chunk).
    A folder in which no file can be created is refused before play now (its lock file exists
    already, so opening it proved nothing)."""
    part = str(tmp_path / "part")
    disarm = stop_after_chunks(0)
    assert _invoke(["run", *RUN, "--games", "300", "--out", part]).exit_code == 130
    disarm()
    real_mkstemp = tempfile.mkstemp

    def immutable_top(*a, dir=None, **k):
        if dir is not None and os.path.abspath(dir) == os.path.abspath(part):
            raise OSError(errno.EPERM, os.strerror(errno.EPERM), dir)
        return real_mkstemp(*a, dir=dir, **k)
    monkeypatch.setattr(tempfile, "mkstemp", immutable_top)
    r = _invoke(["run", "--resume", part, "--quiet"])
    # refused as it starts, not after playing a chunk whose provenance could not be written
    _one_line_exit_2(r, f"--resume: cannot write in {part}: Operation not permitted")


@pytest.mark.parametrize("stop", [100_000, 1, -5, 10 ** 30])
def test_a_batch_stop_edited_out_of_its_range_is_refused_on_resume(tmp_path, stop_after_chunks,
                                                                   stop):
    """A QA trial: provenance.json's batch_stop (where the current batch ends) is not in the
    run's hash; edited to 100,000 a 4,000-game run resumed to 100,000 games and called itself
    complete, to 1 or -5 it stopped at the games saved and called itself complete, to 10^30 it
    played without end. Outside the games saved .. the run's cap it is damaged: one line."""
    part = str(tmp_path / "part")
    disarm = stop_after_chunks(1)
    assert _invoke(["run", *RUN, "--games", "4000", "--out", part]).exit_code == 130
    disarm()
    prov = _provenance(part)
    prov["batch_stop"] = stop
    with open(os.path.join(part, "provenance.json"), "w") as f:
        json.dump(prov, f)
    r = _invoke(["run", "--resume", part, "--quiet", "--no-report"])
    _one_line_exit_2(r, part, "provenance.json: batch_stop is", "(damaged)")
    assert _provenance(part)["status"] == "incomplete"


def test_a_batch_stop_edited_within_its_range_is_refused_and_the_true_one_replayed(
        tmp_path, stop_after_chunks):
    """A QA trial: a --target-ci run's batch_stop edited to another value in its range (60,000
    over 14,000) resumed without a word and ended 'after 60000 games', numbers an uninterrupted
    run never gives. The batches are a function of the games played: a resume replays them from
    the saved chunks, and a provenance that disagrees is damaged."""
    args = [*RUN, "--players", "random", "--games", "400", "--target-ci", "0.03",
            "--max-games", "6000"]
    whole, part = str(tmp_path / "whole"), str(tmp_path / "part")
    assert _invoke(["run", *args, "--out", whole]).exit_code == 0
    for edit, ok in ((6000, False), (None, True)):
        shutil.rmtree(part, ignore_errors=True)
        disarm = stop_after_chunks(2)          # inside the second batch
        assert _invoke(["run", *args, "--out", part]).exit_code == 130
        disarm()
        prov = _provenance(part)
        assert prov["batch_stop"] > 2400
        if edit is not None:
            prov["batch_stop"] = edit
            with open(os.path.join(part, "provenance.json"), "w") as f:
                json.dump(prov, f)
        r = _invoke(["run", "--resume", part, "--quiet", "--no-report"])
        if not ok:
            _one_line_exit_2(r, part, "batch_stop is 6,000, but its saved games end their "
                                      "batch at", "(damaged)")
            continue
        assert r.exit_code == 0, r.output
        assert _numbers(_summary(part)) == _numbers(_summary(whole))


# ---------------------------------------------------------------------------------------------
# item 3: readers never delete; a resume removes only provably stale leftovers
# ---------------------------------------------------------------------------------------------

def _leftovers(d):
    made = []
    for sub in ("", "chunks", "games"):
        p = os.path.join(d, sub, ".tmp-inflight.json")
        with open(p, "w") as f:
            f.write("a live writer's file\n")
        made.append(p)
    return made


def test_show_report_and_compare_never_delete_a_writers_tmp_files(tmp_path):
    d = str(tmp_path / "r")
    assert _invoke(["run", *RUN, "--games", "300", "--out", d, "--records"]).exit_code == 0
    files = _leftovers(d)
    assert _invoke(["show", d]).exit_code == 0
    assert _invoke(["report", d]).exit_code == 0
    assert _invoke(["compare", d, d]).exit_code == 0
    results.load(d)
    assert all(os.path.exists(p) for p in files)


def test_resume_removes_stale_leftovers_but_not_while_another_process_writes(
        tmp_path, stop_after_chunks):
    part = str(tmp_path / "part")
    disarm = stop_after_chunks(0)
    assert _invoke(["run", *RUN, "--games", "300", "--out", part]).exit_code == 130
    disarm()
    files = _leftovers(part)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
         "fcntl.lockf(fd, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
         os.path.join(part, results.LOCK_FILE)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        r = _invoke(["run", "--resume", part, "--quiet", "--no-report"])
        _one_line_exit_2(r, "another momojan-sim process is writing it")
        assert all(os.path.exists(p) for p in files)    # a live writer's: kept
    finally:
        holder.communicate("", timeout=30)
    r = _invoke(["run", "--resume", part, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    assert not any(os.path.exists(p) for p in files)    # the lock held: provably stale


# ---------------------------------------------------------------------------------------------
# item 4: another result's summary, a damaged result, replay of a tune, a resumed solve's name
# ---------------------------------------------------------------------------------------------

@pytest.mark.plays("emoji", "riichi2p")
@pytest.mark.parametrize("older", [False, True], ids=["hashed", "older_directory"])
def test_show_and_report_refuse_another_results_summary(tmp_path, older):
    emoji, riichi = str(tmp_path / "e"), str(tmp_path / "r")
    for sc, d in (("emoji", emoji), ("riichi2p", riichi)):
        r = _invoke(["run", sc, "--games", "20", "--workers", "1", "--quiet", "--no-report",
                     "--out", d])
        assert r.exit_code == 0, r.output
    shutil.copy(os.path.join(riichi, "summary.json"), os.path.join(emoji, "summary.json"))
    if older:   # written before provenance.json held summary.json's sha256
        prov = _provenance(emoji)
        del prov["summary_sha256"]
        with open(os.path.join(emoji, "provenance.json"), "w") as f:
            json.dump(prov, f)
    _one_line_exit_2(_invoke(["show", emoji]), "summary")
    _one_line_exit_2(_invoke(["report", emoji]), "summary")


def test_report_of_a_damaged_result_exits_2(tmp_path):
    d = str(tmp_path / "r")
    assert _invoke(["run", *RUN, "--games", "300", "--out", d]).exit_code == 0
    part = os.path.join(d, "games", "part-000000000000000.parquet")
    with open(part, "wb") as f:
        f.write(b"garbage")
    _one_line_exit_2(_invoke(["report", d]), "part-000000000000000.parquet")
    os.remove(part)
    _one_line_exit_2(_invoke(["report", d]), "missing")


def test_replay_of_a_tune_directory_is_refused(tmp_path):
    out = str(tmp_path / "t")
    r = _invoke(["tune", "new_edition", "--budget", "1", "--games", "10", "--check-games", "10",
                 "--workers", "1", "--quiet", "--no-report", "--out", out])
    assert r.exit_code == 0, r.output
    _one_line_exit_2(_invoke(["replay", out, "--game", "1"]), "a tune result")


@pytest.mark.second_tier
def test_a_resumed_solve_keeps_its_scenario_name(tmp_path, stop_after_chunks):
    part = str(tmp_path / "s")
    disarm = stop_after_chunks(0)
    r = _invoke(["solve", "new_edition", "--param", "compensation.komi", "--games", "200",
                 "--pilot-games", "100", "--workers", "1", "--quiet", "--no-report",
                 "--out", part])
    assert r.exit_code == 130, r.output
    disarm()
    r = _invoke(["solve", "--resume", part, "--quiet", "--no-report", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["scenario"] == "new_edition"
    assert _summary(part)["scenario"] == "new_edition"


# ---------------------------------------------------------------------------------------------
# item 5: replay lines that survive a move; a run's header
# ---------------------------------------------------------------------------------------------

def test_replay_lines_work_after_the_result_directory_is_moved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _invoke(["run", "new_edition", "--seed", "3", "--games", "30", "--workers", "1",
                 "--out", "here"])
    assert r.exit_code == 0, r.output
    assert "momojan-sim replay here --game N" in r.stderr      # as given, not absolute
    html = open(os.path.join("here", "report.html"), encoding="utf-8").read()
    assert "momojan-sim replay . --game" in html and str(tmp_path) not in html.split(
        "provenance")[0]
    # the run's report header counts its games, not games "per variant"
    assert "30 games ·" in html and "per variant" not in html.split("</header>")[0]
    shutil.move("here", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path / "elsewhere")
    moved = _invoke(["replay", ".", "--game", "2"])
    direct = _invoke(["replay", "new_edition", "--seed", "3", "--game", "2"])
    assert moved.exit_code == 0 and moved.output == direct.output


def test_a_second_command_cannot_take_the_out_of_a_solve_in_its_pilot(tmp_path, monkeypatch):
    out = str(tmp_path / "s")
    import simcore.studies.solve
    real = simcore.studies.solve.play_pilot
    second = []

    def pilot(*a, **k):   # while the pilot plays, another solve (process) asks for --out
        second.append(subprocess.run(
            [sys.executable, "-m", "simcore.cli", "solve", "new_edition", "--param",
             "compensation.komi", "--games", "200", "--pilot-games", "100", "--workers", "1",
             "--quiet", "--out", out], capture_output=True, text=True, timeout=600))
        return real(*a, **k)
    monkeypatch.setattr(simcore.studies.solve, "play_pilot", pilot)
    r = _invoke(["solve", "new_edition", "--param", "compensation.komi", "--games", "200",
                 "--pilot-games", "100", "--workers", "1", "--quiet", "--no-report",
                 "--out", out])
    assert r.exit_code == 0, r.output
    p = second[0]
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and out in err[0] and "taken it" in err[0], err
    assert _provenance(out)["status"] == "complete"


def test_a_solve_that_fails_in_its_pilot_leaves_no_directory(tmp_path, monkeypatch):
    out = str(tmp_path / "s")
    from simcore.errors import InputError
    import simcore.studies.solve

    def pilot(*a, **k):
        assert os.path.isdir(out)          # taken before the pilot plays
        raise InputError("the pilot failed")
    monkeypatch.setattr(simcore.studies.solve, "play_pilot", pilot)
    r = _invoke(["solve", "new_edition", "--param", "compensation.komi", "--games", "200",
                 "--pilot-games", "100", "--workers", "1", "--quiet", "--out", out])
    _one_line_exit_2(r, "the pilot failed")
    assert not os.path.exists(out)


def test_a_lone_stale_lock_file_does_not_take_an_out_directory(tmp_path):
    d = tmp_path / "r"
    d.mkdir()
    (d / results.LOCK_FILE).write_text("")   # left by a process killed while it held d
    r = _invoke(["run", *RUN, "--games", "20", "--out", str(d)])
    assert r.exit_code == 0, r.output
    assert _provenance(str(d))["status"] == "complete"


@pytest.mark.second_tier
@pytest.mark.parametrize("cmd", ["sweep", "solve"])
def test_a_resumed_sweep_or_solve_keeps_no_luck_correction(tmp_path, stop_after_chunks, cmd,
                                                           monkeypatch):
    args = (["sweep", "new_edition", "--set", "compensation.komi=0,2", "--games", "2000"]
            if cmd == "sweep" else
            ["solve", "new_edition", "--param", "compensation.komi", "--games", "400",
             "--pilot-games", "100"]) + ["--seed", "4", "--workers", "1", "--quiet",
                                         "--no-report", "--no-luck-correction"]
    whole, part = str(tmp_path / "whole"), str(tmp_path / "part")
    assert _invoke([*args, "--out", whole]).exit_code == 0
    disarm = stop_after_chunks(0)
    assert _invoke([*args, "--out", part]).exit_code == 130
    disarm()
    assert _provenance(part)["options"]["luck_correction"] is False
    from simcore.stats import luck as luck_correction
    import simcore.studies.study
    real, seen = simcore.studies.study.run_study, []

    def spy(*a, **k):     # the analysis the resumed play runs under
        seen.append(luck_correction.enabled())
        return real(*a, **k)
    monkeypatch.setattr(simcore.studies.study, "run_study", spy)
    r = _invoke([cmd, "--resume", part, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    assert seen == [False]
    a, b = _summary(whole), _summary(part)
    key = "variants" if cmd == "sweep" else "design"
    assert a[key] == b[key] and "luck_narrowing" not in b and "luck_correction" not in b


def _replay_fixture(tmp_path):
    d = str(tmp_path / "played")
    assert _invoke(["run", *RUN, "--games", "300", "--out", d]).exit_code == 0
    return d


def test_replay_of_a_result_whose_rules_were_edited_is_refused(tmp_path):
    """A QA trial: variants.json's starting points edited 40 -> 10, `replay DIR --game 0`
    showed a game the result never played (report refused the same folder by its hash)."""
    d = _replay_fixture(tmp_path)
    vp = os.path.join(d, "variants.json")
    with open(vp) as f:
        text = f.read()
    with open(vp, "w") as f:
        f.write(text.replace('"starting_points": 40', '"starting_points": 10'))
    r = _invoke(["replay", d, "--game", "0"])
    _one_line_exit_2(r, d, "variants.json is not the one this result was played with")


@pytest.mark.parametrize("seed", [-5, 2 ** 70])
def test_a_result_whose_seed_is_out_of_range_is_damaged_for_every_reader(tmp_path, seed):
    """A QA trial: seed -5 or 2**70 in provenance.json gave `replay` an OverflowError
    traceback."""
    d = _replay_fixture(tmp_path)
    prov = _provenance(d)
    prov["seed"] = seed
    with open(os.path.join(d, "provenance.json"), "w") as f:
        json.dump(prov, f)
    for args in (["replay", d, "--game", "0"], ["show", d]):
        r = _invoke(args)
        _one_line_exit_2(r, d, "provenance.json: seed is", "(damaged)")


def test_a_run_with_a_seed_past_int64_is_read_back(tmp_path):
    """run.seed and --seed take 0..2**64-1 (the engine's uint64): a result played with a seed
    of 2**63 or more is no damage (the readers once refused it, and the run's own report)."""
    d = str(tmp_path / "big")
    seed = 2 ** 64 - 1
    r = _invoke(["run", *RUN, "--games", "20", "--seed", str(seed), "--out", d])
    assert r.exit_code == 0 and "could not be drawn" not in r.output, r.output
    assert _provenance(d)["seed"] == seed
    for args in (["show", d], ["replay", d, "--game", "0"], ["report", d]):
        r = _invoke(args)
        assert r.exit_code == 0, (args, r.output)


def test_a_parquet_part_no_chunk_wrote_is_refused_by_the_readers(tmp_path):
    """A QA trial: a games/ and rounds/ part copied under a new number in a --records run made
    `compare DIR_A DIR_B` fall back to an unpaired comparison ("the per-round records were not
    saved", a false reason: 11 verdicts of different became 8) and results.load read 6,000
    game rows of a 4,000-game run."""
    import shutil
    from simcore.errors import InputError
    from simcore.studies import results as res
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    for d, sc in ((a, "new_edition"), (b, "no_ron_bonus")):
        r = _invoke(["run", sc, "--seed", "3", "--workers", "1", "--quiet", "--no-report",
                     "--games", "4000", "--records", "--out", d])
        assert r.exit_code == 0, r.output
    assert len(res.load(a).games["game"]) == 4000
    for sub in ("games", "rounds"):
        src = sorted(os.listdir(os.path.join(a, sub)))[0]
        shutil.copy(os.path.join(a, sub, src),
                    os.path.join(a, sub, "part-000000000000005.parquet"))
    r = _invoke(["compare", a, b, "--quiet"])
    _one_line_exit_2(r, a, "part-000000000000005.parquet is a Parquet part no chunk")
    with pytest.raises(InputError, match="no chunk of this result wrote"):
        res.load(a)


@pytest.mark.parametrize("kind, stopped", [("tune", "whose command stopped before its end"),
                                           ("sweep", "finish it with momojan-sim sweep "
                                                     "--resume")])
def test_an_unfinished_folder_says_whether_a_live_command_writes_it(tmp_path, kind, stopped):
    """A QA trial: after `kill -9` of a tune, a new tune with the same --out was told "another
    tune may be writing it now", though nobody held the folder's lock."""
    import subprocess
    import sys
    from simcore.studies import results as res
    d = tmp_path / "tu"
    d.mkdir()
    (d / "provenance.json").write_text(json.dumps({"kind": kind, "status": "incomplete"}))
    (d / res.LOCK_FILE).write_text("")
    assert stopped in res._taken_hint(str(d))
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time; "
         "fd = os.open(sys.argv[1], os.O_RDWR); fcntl.lockf(fd, fcntl.LOCK_EX); "
         "print('held', flush=True); time.sleep(60)",
         str(d / res.LOCK_FILE)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        # a QA trial: a sweep being written was "finish it with sweep --resume DIR"
        hint = res._taken_hint(str(d))
        assert f"that another {kind} is writing now" in hint and "finish it" not in hint
    finally:
        holder.kill()
        holder.wait()


def test_a_complete_result_without_its_summary_gets_it_back_from_its_chunks(tmp_path):
    """A QA trial: with summary.json deleted from a finished run, `show` said "complete" and
    then "incomplete ... finish it with run --resume", and --resume refused it as complete:
    every chunk was there, and nothing could rebuild the summary. Now show says so and
    --resume writes it again, playing nothing, to the same numbers."""
    d = str(tmp_path / "done")
    assert _invoke(["run", *RUN, "--games", "3000", "--out", d]).exit_code == 0
    with open(os.path.join(d, "summary.json")) as f:
        before = json.load(f)
    os.remove(os.path.join(d, "summary.json"))
    shown = _invoke(["show", d])
    assert shown.exit_code == 0 and "summary.json is missing" in shown.output
    assert f"momojan-sim run --resume {d}" in shown.output
    chunks = sorted(os.listdir(os.path.join(d, "chunks")))
    r = _invoke(["run", "--resume", d, "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    assert sorted(os.listdir(os.path.join(d, "chunks"))) == chunks     # nothing played
    with open(os.path.join(d, "summary.json")) as f:
        assert json.load(f)["metrics"] == before["metrics"]
    again = _invoke(["run", "--resume", d, "--quiet"])
    _one_line_exit_2(again, d, "already complete")


def test_an_out_file_is_held_from_the_start_and_never_overwritten(tmp_path):
    """A QA trial: two runs given one --out FILE.json both ended well and the file held one of
    them; a file put at the name while a run played was overwritten; a name too long for the
    folder was found only after play. The name is now made, empty, before play; a second
    command is refused at its start; a stopped command removes it again."""
    from simcore.cli import output
    out = tmp_path / "same.json"
    out.write_text("")                         # another command holds it (its empty file)
    r = _invoke(["run", *RUN, "--games", "200", "--out", str(out)])
    _one_line_exit_2(r, "--out", "exists (nothing is overwritten")
    out.unlink()
    # a holder whose name was replaced meanwhile: its result does not go over the other file
    output.check_writable(str(out))
    out.unlink()
    out.write_text("precious")
    with pytest.raises(OSError, match="another process wrote that name"):
        output.write_file(str(out), "{}")
    assert out.read_text() == "precious"
    output.check_writable(str(tmp_path / "x.json"))
    (tmp_path / "x.json").write_text("precious")
    output.drop_placeholders()
    assert (tmp_path / "x.json").read_text() == "precious"   # not the empty file it made
    long = tmp_path / ("b" * 300 + ".json")
    r = _invoke(["compare", "new_edition", "no_ron_bonus", "--games", "200", "--workers", "1",
                 "--quiet", "--out", str(long)])
    _one_line_exit_2(r, "--out: cannot write", "File name too long")
    stopped = tmp_path / "stopped.json"

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("simcore.studies.study.run_study", interrupted)
        r = _invoke(["run", *RUN, "--games", "200", "--out", str(stopped)])
    assert r.exit_code == 130 and not stopped.exists()
    r = _invoke(["run", *RUN, "--games", "200", "--out", str(stopped)])
    assert r.exit_code == 0 and json.loads(stopped.read_text())["games"] == 200


def test_a_signal_after_the_result_is_saved_says_where_it_is(tmp_path, monkeypatch):
    """A QA trial: SIGTERM while the report was drawn gave 'stopped by SIGTERM' and nothing
    else: the table had not been printed and --resume said 'already complete'. run prints
    first now, and a command stopped after saving says where the result is."""
    from simcore.cli import output
    d = tmp_path / "ü dir" / "r"
    d.parent.mkdir()

    def stopped(path, notice):
        raise KeyboardInterrupt
    monkeypatch.setattr("simcore.cli.render_report", stopped)
    r = _invoke(["run", *[a for a in RUN if a != "--no-report"], "--games", "200", "--out",
                 str(d)])
    assert r.exit_code == 130 and "first_dealer_win_rate" in r.stdout, r.stderr
    import shlex
    q = shlex.quote(str(d))
    assert f"the result is saved in {d}: momojan-sim show {q} prints it, momojan-sim report {q} " \
           f"draws its report" in r.stderr
    assert output._PLACEHOLDERS == {}


def test_a_result_that_cannot_be_written_to_is_not_called_damaged(tmp_path, monkeypatch):
    """A QA trial: report into a read-only or full folder, and show > /dev/full, said
    'damaged result directory (OSError: ...)'. The folder is fine: it cannot be written."""
    import errno
    d = str(tmp_path / "r")
    assert _invoke(["run", *RUN, "--games", "50", "--out", d]).exit_code == 0
    from simcore.report import html

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.path.join(d, "figures"))
    monkeypatch.setattr(html, "render", full)
    r = _invoke(["report", d])
    line = _one_line_exit_2(r, f"report {d}: cannot write {d}/figures: No space left on device")
    assert "damaged" not in line
    out = subprocess.run([sys.executable, "-m", "simcore.cli", "show", d],
                         stdout=open(os.devnull if not os.path.exists("/dev/full") else
                                     "/dev/full", "w"), stderr=subprocess.PIPE, text=True)
    assert out.returncode == 2 and "damaged" not in out.stderr
    assert "cannot write the output to stdout" in out.stderr


def test_help_to_a_full_device_is_one_line():
    """A QA trial: --help and --version > /dev/full gave a 37-line traceback."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    for args in (["--help"], ["--version"], ["run", "--help"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "simcore.cli", *args], stdout=full,
                               stderr=subprocess.PIPE, text=True)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr.strip() == ("momojan-sim: error: cannot write the output to stdout: "
                                    "No space left on device")


def test_two_saved_runs_of_other_counts_and_seeds_say_each_one_s(tmp_path):
    """A QA trial: compare DIR DIR of a 2,000-game run (seed 7) and an 8,000-game one (seed 9)
    said '2000 games each, seed 7' (and JSON games 2000, b computed from all 8,000)."""
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    base = [x for x in RUN if x not in ("--seed", "3")]
    assert _invoke(["run", *base, "--games", "200", "--seed", "7", "--out", a]).exit_code == 0
    assert _invoke(["run", *base, "--games", "400", "--seed", "9", "--out", b]).exit_code == 0
    r = _invoke(["compare", a, b])
    assert r.exit_code == 0, r.output
    assert "a 200 games, seed 7; b 400 games, seed 9, independent" in r.stdout
    data = json.loads(_invoke(["compare", a, b, "--json"]).stdout)
    assert (data["games"], data["seed"], data["games_b"], data["seed_b"]) == (200, 7, 400, 9)
    r = _invoke(["compare", b, b])
    assert "400 games each, seed 9" in r.stdout


def test_a_nearly_full_disk_is_refused_before_play(tmp_path, monkeypatch):
    """A QA trial: with 56 KiB free the first chunk was played, could not be saved, and was
    thrown away. Under 4 MiB free the command is refused before it plays."""
    import shutil as _shutil
    real = _shutil.disk_usage

    def nearly_full(path):
        u = real(path)
        return type(u)(u.total, u.total - 56 * 1024, 56 * 1024)
    monkeypatch.setattr(results.shutil, "disk_usage", nearly_full)

    def refuse(*a, **k):
        raise AssertionError("played")
    monkeypatch.setattr("simcore.studies.study.run_study", refuse)
    d = tmp_path / "r"
    r = _invoke(["run", *RUN, "--games", "200", "--out", str(d)])
    _one_line_exit_2(r, "56 KiB free in", "under the 4 MiB a result needs")
    assert not d.exists()


def test_a_complete_result_without_its_summary_says_so(tmp_path):
    """A QA trial: report on a complete result whose summary.json was deleted said 'the run
    is incomplete'; --resume writes the summary again."""
    d = str(tmp_path / "r")
    assert _invoke(["run", *RUN, "--games", "50", "--out", d]).exit_code == 0
    os.remove(os.path.join(d, "summary.json"))
    r = _invoke(["report", d])
    _one_line_exit_2(r, "its summary.json is missing", f"run --resume {d} writes it again")
    assert _invoke(["run", "--resume", d, "--quiet", "--no-report"]).exit_code == 0
    assert _invoke(["report", d]).exit_code == 0


def test_a_closed_stdout_is_one_line():
    """A QA trial: `run ... >&-` exited 0 with nothing printed: the answer vanished."""
    r = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "new_edition", "--games",
                        "20", "--no-save", "--quiet"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True,
                       preexec_fn=lambda: os.close(1))
    assert r.returncode == 2 and "stdout is closed" in r.stderr, r.stderr


def test_a_forked_worker_never_removes_the_commands_out_file(tmp_path):
    """Worker processes forked from a command inherit its held --out files and the exit
    handler that removes them: only the process that made one may remove it, or a worker
    ending first would take the file from under the command."""
    from simcore.cli import output
    out = tmp_path / "held.json"
    output.check_writable(str(out))
    pid = os.fork()
    if pid == 0:   # the worker
        output.drop_placeholders()
        os._exit(0)
    os.waitpid(pid, 0)
    assert out.exists()
    output.write_file(str(out), "{}\n")
    assert out.read_text() == "{}\n" and output._PLACEHOLDERS == {}
