"""Which mechanics carry skill (restricted play; Jaffe et al., "Evaluating competitive game
balance with restricted play", AIIDE 2012): the family's best bot against itself with one kind of
decision taken away or forced, in duplicate.

For each kind of decision the family declares (``Family.MECHANICS``) every deal is played once
per seat with that seat restricted (:mod:`simcore.nb.restrict`) and the others unrestricted; the
game is the unit. Per deal, the restricted seats' mean share of the game wins less the fair share
1/n is the restriction's *cost* (a shared win counts its share; over the n seatings of one deal
the unrestricted shares sum to 1, so the fair share is exact, not estimated). Its mean over the
deals has a t interval (scipy.stats). A cost whose interval lies above 0 is a mechanic that
carries skill; one whose interval lies within +-``IGNORABLE`` of 0 is one a player can ignore;
a restriction that changed no record (the bot already plays so, or the rules never offer the
decision) says so.
"""

from __future__ import annotations

import functools
import hashlib
import json

import numpy as np

IGNORABLE = 0.01   # a cost inside +-1 pp of wins: ignorable
CHUNK_DEALS = 250  # deals a worker plays at a time (each seating of each restriction apart)


def seat_win_shares(fam, sim, idx, seed, seat):
    """Seat ``seat``'s share of each game's wins (a shared win counts its share; the catalogue's
    ``seat{seat}_win_share`` per game) when simulator ``sim`` plays games ``idx`` of ``seed``,
    and the games' records."""
    from simcore.family.chunks import game_values
    batch = sim.play(idx, seed)
    num, den = game_values(fam, idx, batch.games, batch.rounds)
    i = [m.name for m in fam.CATALOGUE].index(f"seat{seat}_win_share")
    return num[:, i] / np.maximum(den[:, i], 1), batch


def _restricted_sim(fam, sc, seat: int, mechanic):
    """A simulator of ``sc`` with every seat the best bot and seat ``seat`` restricted."""
    from simcore.family.policy import RESTRICTED
    sim = fam.SIMULATOR(sc)
    row = mechanic.row()
    if sim.params.shape[1] < len(row):
        sim.params = np.hstack([sim.params, np.zeros((sim.params.shape[0],
                                                      len(row) - sim.params.shape[1]))])
    sim.policy_ids[seat] = RESTRICTED
    sim.params[seat, :] = 0.0
    sim.params[seat, :len(row)] = row
    return sim


def cost_interval(cost) -> tuple[float, float]:
    """The 95% t interval of the mean of the per-deal costs ``cost`` (the deal is the unit;
    its coverage: benchmarks/bench_mechanics_coverage.py, docs/statistics.md)."""
    from scipy import stats
    games, mean = len(cost), float(np.mean(cost))
    if games < 2:
        return float("-inf"), float("inf")
    se = float(np.std(cost, ddof=1) / np.sqrt(games))
    half = float(stats.t.ppf(0.975, games - 1) * se) if se > 0 else 0.0
    return mean - half, mean + half


def best_bot_scenario(fam, sc):
    """``sc`` with the family's best bot in every seat (the study's unrestricted play)."""
    data = sc.to_dict()
    data["players"] = [{"policy": fam.BEST_BOT, "params": {}} for _ in data["players"]]
    return fam.SCENARIOS.from_dict(data, name=sc.name)


@functools.lru_cache(maxsize=64)
def _simulator(fam_name: str, data_json: str, name, mech: int, seat: int):
    """The simulator a task plays (built once per process): every seat the best bot, seat
    ``seat`` restricted by mechanic ``mech`` (-1: nobody)."""
    from simcore.family import registry
    fam = registry.get(fam_name)
    base_sc = best_bot_scenario(fam, fam.SCENARIOS.from_dict(json.loads(data_json), name=name))
    if mech < 0:
        return fam, fam.SIMULATOR(base_sc)
    return fam, _restricted_sim(fam, base_sc, seat, fam.MECHANICS[mech])


def play_task(task):
    """One worker's share of the study (a top-level function: it is sent to worker processes):
    deals ``lo`` .. ``hi`` with mechanic ``mech`` restricting seat ``seat`` (-1, -1: the
    unrestricted play). Returns the restricted seat's share of each game's wins (None for the
    unrestricted play) and a digest of the records (did the restriction change any?)."""
    fam_name, data_json, name, mech, seat, lo, hi, seed = task
    fam, sim = _simulator(fam_name, data_json, name, mech, seat)
    idx = np.arange(lo, hi, dtype=np.int64)
    if mech < 0:
        batch, share = sim.play(idx, seed), None
    else:
        share, batch = seat_win_shares(fam, sim, idx, seed, seat)
    digest = hashlib.blake2b(np.ascontiguousarray(batch.games).tobytes()
                             + np.ascontiguousarray(batch.rounds).tobytes(),
                             digest_size=16).digest()
    return share, digest


def restriction_costs(fam, sc, games: int, seed: int, mechs=None, workers: int = 1,
                      progress=None, notice=None) -> dict:
    """Per mechanic index of ``mechs`` (default every one of ``fam.MECHANICS``): the per-deal
    cost of the restriction over deals ``0 .. games - 1`` of ``seed`` (the fair share 1/n less
    the restricted seats' mean share of the game wins over the n seatings; float[games]) and
    whether it changed any record of the unrestricted play; ``{m: (cost, changed)}``. Played
    in tasks of :data:`CHUNK_DEALS` deals on ``workers`` processes (0: one per core; the same
    numbers whatever their count: each game depends on the seed and its index alone).
    ``progress(done, total)`` is told the games played after each task, ``notice(line)`` why
    fewer workers run than asked."""
    from simcore.runners.local import ChunkRunner, clamp_workers
    mechs = list(range(len(fam.MECHANICS))) if mechs is None else list(mechs)
    n = len(sc["players"])
    data_json = json.dumps(sc.to_dict(), sort_keys=True)
    chunks = [(lo, min(lo + CHUNK_DEALS, games)) for lo in range(0, games, CHUNK_DEALS)]
    jobs = [(-1, -1)] + [(m, seat) for m in mechs for seat in range(n)]
    tasks = ((fam.NAME, data_json, sc.name, m, seat, lo, hi, seed)   # drawn as workers free up
             for m, seat in jobs for lo, hi in chunks)
    total, done = games * len(jobs), 0
    workers, note = clamp_workers(workers, len(jobs) * len(chunks))
    if note and notice:
        notice(note)

    def tick(task, _res):
        nonlocal done
        done += task[6] - task[5]
        if progress:
            progress(done, total)
    k = len(chunks)
    base_digests, shares, changed = [], {}, {}
    with ChunkRunner(workers) as runner:
        # in task order: the unrestricted chunks, then each mechanic's seatings; each mechanic's
        # per-deal shares are summed as they come (memory: one array of deals per mechanic)
        for i, (share, digest) in enumerate(runner.map(play_task, tasks, tick)):
            j, c = divmod(i, k)
            if j == 0:
                base_digests.append(digest)
                continue
            m, seat = jobs[j]
            if m not in shares:
                shares[m], changed[m] = np.zeros(games), False
            lo, hi = chunks[c]
            shares[m][lo:hi] += share / n
            changed[m] = changed[m] or digest != base_digests[c]
    return {m: (1.0 / n - shares[m], changed[m]) for m in mechs}


def mechanics_study(fam, sc, games: int, seed: int, progress=None, workers: int = 1,
                    notice=None) -> dict:
    """Play the restriction study of scenario ``sc`` (family ``fam``): ``games`` deals per
    kind of decision, each in every seating (:func:`restriction_costs`, on ``workers``
    processes; ``progress`` and ``notice`` as there). Returns the JSON-ready result
    (:func:`mechanics_table` prints it)."""
    from simcore.errors import InputError
    if games < 2:
        raise InputError(f"mechanics: {games} deals give no interval (at least 2)")
    if not fam.MECHANICS or not fam.BEST_BOT:
        raise InputError(f"mechanics: the {fam.NAME} family declares no kinds of decision "
                         f"(Family.MECHANICS)")
    n = len(sc["players"])
    costs = restriction_costs(fam, sc, games, seed, workers=workers, progress=progress,
                              notice=notice)
    rows = []
    for m, mech in enumerate(fam.MECHANICS):
        cost, changed_play = costs.pop(m)
        share = 1.0 / n - cost
        mean = float(cost.mean())
        lo, hi = cost_interval(cost)
        if not changed_play:
            verdict = ("changed nothing: the bot already plays so, or these rules never "
                       "offered the decision")
        elif lo > 0:
            verdict = f"carries skill: ignoring it costs {100 * mean:.1f} pp of wins"
        elif hi < 0:
            verdict = (f"the best bot plays it worse than the restriction would "
                       f"({-100 * mean:.1f} pp of wins)")
        elif -IGNORABLE <= lo and hi <= IGNORABLE:
            verdict = "a player can ignore it (within 1 pp of wins)"
        else:
            verdict = "unclear at this sample: play more games"
        rows.append({"mechanic": mech.name, "restriction": mech.doc, "cost": mean,
                     "ci": [lo, hi], "restricted_share": float(share.mean()),
                     "fair_share": 1.0 / n, "changed_play": changed_play, "verdict": verdict})
    rows.sort(key=lambda r: -r["cost"])
    return {"scenario": sc.name, "family": fam.NAME, "bot": fam.BEST_BOT, "seats": n,
            "games": games, "seed": seed, "unit": "share of game wins (pp: percentage points)",
            "mechanics": rows}


def mechanics_table(res: dict) -> str:
    """The study as text: one line per kind of decision, costliest first, with its verdict."""
    out = [f"scenario {res['scenario']}: {res['bot']} against itself, one seat restricted; "
           f"{res['games']} deals x {res['seats']} seatings, seed {res['seed']}",
           "cost: the restricted player's share of game wins below the fair "
           f"{100 / res['seats']:.1f}%, in pp, 95% interval", "",
           f"{'mechanic':20s} {'cost (pp)':>9s}  {'[95% interval]':16s}  verdict"]
    for r in res["mechanics"]:
        lo, hi = r["ci"]
        out.append(f"{r['mechanic']:20s} {100 * r['cost']:9.2f}  [{100 * lo:6.2f}, "
                   f"{100 * hi:6.2f}]  {r['verdict']}")
    return "\n".join(out)


def mechanics_chart(res: dict, fmt: str = "png") -> bytes:
    """A horizontal bar chart of the costs with their intervals: the file's bytes, ``fmt``
    ``png`` or ``svg`` (the caller writes them where it may)."""
    import io
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = res["mechanics"][::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(rows) + 1.6))
    y = np.arange(len(rows))
    cost = np.array([100 * r["cost"] for r in rows])
    lo = cost - np.array([100 * r["ci"][0] for r in rows])
    hi = np.array([100 * r["ci"][1] for r in rows]) - cost
    colors = ["#c0392b" if r["ci"][0] > 0 else "#7f8c8d" if r["changed_play"] else "#d5d8dc"
              for r in rows]
    ax.barh(y, cost, xerr=[lo, hi], color=colors, capsize=3)
    ax.axvline(0, color="black", lw=0.8)
    ax.axvspan(-100 * IGNORABLE, 100 * IGNORABLE, color="#eafaf1", zorder=0)
    ax.set_yticks(y, [r["mechanic"] for r in rows])
    ax.set_xlabel("cost of the restriction: pp of game wins lost (95% interval)")
    ax.set_title(f"{res['scenario']}: which decisions carry skill ({res['bot']}, "
                 f"{res['games']} deals)", fontsize=10)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format=fmt, dpi=120)
    plt.close(fig)
    return out.getvalue()
