"""The ``design`` command (registered on ``simcore.cli.main``): options and the result
directory here, the search in :mod:`simcore.studies.design`, the targets file in
:mod:`simcore.studies.design_spec`."""

from __future__ import annotations

import json
import os
import time

import click

from simcore.cli.common import (backend_options, cli_errors, luck_option, NO_REPORT_HELP, notice,
                                Progress, saved_line)
from simcore.cli.output import render_report
from simcore.cli.types import FiniteFloat
from simcore.errors import InputError

STATE_FILE = "design.json"
MAX_BUDGET_MINUTES = 525_600   # a year of wall time: past it a budget is a typo, not a plan


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--targets", "targets_path", metavar="FILE", help="The targets file (YAML): the "
              "targets to meet and the rules that may change (see docs/design.md).")
@click.option("--budget-games", type=click.IntRange(min=1000), help="Games in all, every stage "
              f"and rule set counted [{600_000:,}]: the same budget repeats exactly.")
@click.option("--budget-minutes", type=FiniteFloat(min=0.1, max=MAX_BUDGET_MINUTES),
              help="Wall time instead: the search stops at half of it and the later stages "
              "are sized from the speed seen (the games then depend on this machine).")
@click.option("--search-games", type=click.IntRange(min=100), help="Games per rule set in the "
              "search [2,000].")
@click.option("--players", metavar="SEATS", help="Seats instead of the scenario's players "
              "(greedy,value or value:call=0.8,greedy).")
@click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
              help="Base seed [the scenario's run.seed].")
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [the scenario's run.workers].")
@click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--out", metavar="DIR", help="Result directory [results/design-<name>-<UTC "
              "time>].")
@click.option("--no-save", is_flag=True, help="Write nothing; print only.")
@click.option("--no-report", is_flag=True, help=NO_REPORT_HELP)
@click.option("--resume", metavar="DIR", help="Finish an interrupted design directory (its "
              "targets, budget and seed; no other options).")
@cli_errors
@backend_options
@luck_option
def design(scenario_ref, targets_path, budget_games, budget_minutes, search_games, players,
           seed, workers, as_json, quiet, out, no_save, no_report, resume):
    """Search the rules a targets file lets change for a rule set that meets every target
    (the first dealer fair, draws rare, games of a given length, ...), then confirm the best
    on fresh deals with 95% intervals.

    The search plays every candidate rule set on the same deals (every rule set of a small
    space, else Optuna's TPE sampler), narrows the best with more games on deals of their own,
    and confirms them on fresh deals; where the targets conflict it says which bind and gives
    the best trade-offs.

    Example: momojan-sim design new_edition --targets scenarios/targets/fair_first_dealer.yaml
    """
    from simcore.family import registry as families
    from simcore.studies import design as D
    from simcore.studies.design_spec import parse_spec
    from simcore.family.scenario.files import read_small_text

    started = time.perf_counter()
    if resume:
        given = {"SCENARIO": scenario_ref, "--targets": targets_path,
                 "--budget-games": budget_games, "--budget-minutes": budget_minutes,
                 "--search-games": search_games, "--players": players, "--seed": seed,
                 "--out": out,
                 "--no-save": no_save or None}
        extra = [k for k, v in given.items() if v is not None]
        if extra:
            raise InputError(f"--resume DIR takes everything from DIR: give no "
                             f"{', '.join(extra)} with it")
        rd, fam, sc, spec, state, opts = _reopen(resume)
        seed, budget_minutes = rd.prov["seed"], opts.get("budget_minutes")
        workers = workers if workers is not None else rd.prov.get("workers", 0)
    else:
        if not scenario_ref:
            raise InputError("design: Missing argument 'SCENARIO'")
        if not targets_path:
            raise InputError("design: Missing option '--targets' (a YAML file of targets and "
                             "rules; see docs/design.md)")
        if budget_games is not None and budget_minutes is not None:
            raise InputError("--budget-games and --budget-minutes: give one budget")
        if no_save and out:
            raise InputError("--no-save writes nothing: give no --out with it")
        if out is not None and not out.strip():
            raise InputError("--out: an empty path")
        fam, sc = families.load(scenario_ref)
        from simcore.family.players import with_players
        sc = with_players(fam, sc, players)
        text = read_small_text(targets_path, "--targets", InputError)
        spec = parse_spec(text, fam, sc, os.path.basename(targets_path))
        g, s, w = fam.SCENARIOS.run_defaults(sc)
        seed = s if seed is None else seed
        workers = w if workers is None else workers
        search_games = search_games or D.SEARCH_GAMES
        # a time budget plans its search like the default game budget (how many trials, grid
        # or TPE); the clock may stop it sooner, and sizes the later stages
        budget = budget_games or D.BUDGET_GAMES
        D.check_budget(budget, search_games)
        plan = D.plan_budget(spec, budget, search_games)
        opts = {"targets_text": text, "targets_file": os.path.basename(targets_path),
                "budget_games": budget_games, "budget_minutes": budget_minutes,
                "search_games": search_games, "plan": plan.to_json()}
        state = D.DesignState(plan)
        rd = None
        if not no_save:
            from simcore.studies.results import (ResultDir, check_default_root, check_out_dir,
                                                 default_dir)
            if not out:
                check_default_root()
            path = out or default_dir(f"design-{sc.name}")
            check_out_dir(path)
            rd = ResultDir.create(path, fam, "design", [sc], seed, budget, opts, workers)
    say = None if (quiet or as_json) else (lambda text: notice(text))
    deadline = None
    if budget_minutes is not None:   # the search's half, less what earlier sessions played
        deadline = started + max(0.0, 60 * budget_minutes * D.SEARCH_SHARE - state.seconds)

    def saver(st):
        if rd is not None:
            _save_state(rd, st)

    made = []

    def progress():
        """A progress display per stage's play; the first says when the kernels compile."""
        p = Progress(quiet or as_json, family=fam)
        if not made:
            p.starting(fam)
        made.append(p)
        return p

    if not (quiet or as_json):
        if not state.trials:
            notice(f"design {sc.name}: {len(spec.targets)} targets, {len(spec.rules)} rules "
                   f"({_space(spec)}); up to {state.plan.trials} trials x "
                   f"{state.plan.search_games:,} games, then narrowing and confirmation")
    designer = D.Designer(fam, sc, spec, seed, workers, state.plan, state, saver, say,
                          progress, deadline)
    try:
        designer.search()
        if budget_minutes is not None:
            D.size_later_stages(designer, 60 * budget_minutes)
            saver(designer.state)
        designer.narrow()
        designer.confirm()
    except BaseException:
        if rd is not None and not designer.state.games:
            rd.release()
        raise
    data = D.answer(spec, designer.state, sc, designer.sampler_name())
    data["seed"] = seed
    if budget_minutes is not None:
        data["budget"] = (f"{budget_minutes:g} minutes (the games depend on this machine's "
                          f"speed; --budget-games repeats exactly)")
    seconds = time.perf_counter() - started
    path = None
    if rd is not None:
        rd.games_done = designer.state.games
        try:
            rd.finish({"kind": "design", **data}, seconds, designer.workers_used)
            path = rd.path
        except InputError as exc:
            notice(f"the design finished (printed below) but its summary was not saved: {exc}")
        if path and not no_report:
            render_report(path, notice)
    if as_json:
        click.echo(json.dumps({**data, "result_dir": path} if path else data))
    else:
        click.echo(D.design_text(data, fam.CATALOGUE))
        if path and not quiet:
            notice(saved_line(path, not no_report))


def _space(spec) -> str:
    n = spec.space_size
    return "a continuous space" if n == float("inf") else f"{int(n):,} rule sets"


def _save_state(rd, state) -> None:
    from simcore.studies.results import atomic_json, sha256_of
    body = json.loads(json.dumps(state.to_json()))
    with rd._saving(STATE_FILE):
        atomic_json(os.path.join(rd.path, STATE_FILE), {**body, "sha256": sha256_of(body)})
    rd.games_done = state.games
    rd._save_provenance()


def _reopen(path: str):
    """An interrupted design: its directory (locked), family, scenario, targets, state."""
    from simcore.family import registry as families
    from simcore.studies import design as D
    from simcore.studies.design_spec import parse_spec
    from simcore.studies.results import ResultDir, read_provenance, sha256_of
    fam = families.of_result(read_provenance(path, "--resume"))
    rd = ResultDir.reopen(path, fam, "design")
    try:
        sc = rd.scenarios()[0]
        opts = rd.prov["options"]
        spec = parse_spec(opts["targets_text"], fam, sc, opts["targets_file"])
        state = D.DesignState(D.Plan(**opts["plan"]))
        f = os.path.join(path, STATE_FILE)
        if os.path.exists(f):
            with open(f, encoding="utf-8") as fh:
                saved = json.load(fh)
            body = {k: v for k, v in saved.items() if k != "sha256"}
            if saved.get("sha256") != sha256_of(body):
                raise InputError(f"--resume {path}: {STATE_FILE} was edited or damaged (its "
                                 f"hash does not match)")
            state = D.DesignState.from_json(body)
    except InputError:
        rd.release()
        raise
    except (ValueError, KeyError, TypeError) as exc:
        rd.release()
        raise InputError(f"--resume {path}: {STATE_FILE} is damaged ({type(exc).__name__})") \
            from None
    except BaseException:
        rd.release()
        raise
    return rd, fam, sc, spec, state, opts


def register(group):
    group.add_command(design)
