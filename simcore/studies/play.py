"""Play it yourself: one game of a scenario with a human at one seat and the scenario's bots at
the others, on the same compiled engine as ``run`` (issue 52).

The human seat is the engine's scripted seat (:data:`simcore.family.policy.SCRIPTED`): its
params row is the human's decisions so far followed by :data:`~simcore.family.policy.ASK`. Each
step replays the game from its deal (game ``game`` of ``seed``: the same deal ``run`` plays)
with those decisions, and the kernel stops at the next one the human must take
(:class:`~simcore.family.policy.HumanToPlay`), leaving that decision's view and legal actions in
its state. Replaying costs a few milliseconds a step and keeps the bots' path untouched: no
Python is called per decision, a bot's seat plays exactly as in ``run``, and a game's record is
its scenario, seat, seed and decisions (``undo`` drops the last one).

A notebook can drive it: ``s = PlaySession.open("new_edition", seat=0, seed=1)``; ``s.step()``
is a :class:`Turn` (``view``, ``actions``) or a :class:`Finished` game; ``s.play(a)`` takes an
action. The terminal front end is :mod:`simcore.cli.play`.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field

import numpy as np

from simcore.errors import InputError, shell_word
from simcore.family.policy import ASK, SCRIPTED, HumanToPlay


@dataclass
class Turn:
    """The human's decision: the family's view of the table (``lines``), the legal actions
    (``actions``: (action id, label)), the events so far and the raw observation."""
    lines: list
    actions: list
    events: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    rounds: np.ndarray   # the records of the rounds over so far (and rows not yet written)


@dataclass
class Finished:
    """The game is over: its event log and records (as ``replay`` reads them)."""
    events: np.ndarray
    games: np.ndarray
    rounds: np.ndarray
    lines: list = field(default_factory=list)


class PlaySession:
    def __init__(self, fam, sc, seat: int, seed: int, game: int = 0):
        n = len(sc["players"])
        if not 0 <= seat < n:
            raise InputError(f"--seat {seat}: the scenario has seats 0 to {n - 1}")
        self.fam, self.sc, self.seat, self.seed, self.game = fam, sc, seat, int(seed), int(game)
        self.decisions: list[int] = []
        self.forced: list[bool] = []   # per decision: the only legal action, taken for the human
        self.sim = fam.SIMULATOR(sc)
        self._bot_params = self.sim.params.copy()
        self.sim.policy_ids = self.sim.policy_ids.copy()
        self.sim.policy_ids[seat] = SCRIPTED

    @classmethod
    def open(cls, scenario_ref: str, seat: int = 0, seed: int = 1, game: int = 0):
        from simcore.family import registry
        fam, sc = registry.load(scenario_ref)
        return cls(fam, sc, seat, seed, game)

    # ---- one step ---------------------------------------------------------------------------

    def _params(self, ask: bool = True) -> np.ndarray:
        """The seats' params rows: the bots' own, the human's the cursor, its decisions and
        (``ask``) the entry that stops the game at its next one."""
        row = np.array([0.0, *self.decisions, *([ASK] if ask else [])], np.float64)
        bots = self._bot_params
        params = np.zeros((bots.shape[0], max(bots.shape[1], len(row))), np.float64)
        params[:, :bots.shape[1]] = bots
        params[self.seat] = 0.0
        params[self.seat, :len(row)] = row
        return params

    def _replay(self):
        """Replay the game with the decisions so far: ``(state, rounds, None)`` stopped at the
        human's next decision, or ``(state, None, Finished)``."""
        sim = self.sim
        sim.params = self._params()
        rs = sim.new_state(True)
        rs.st[sim.ST_LOG] = 1
        cap = sim.replay_rounds()
        games = np.zeros((1, sim.N_GF), np.int64)
        rounds = np.zeros((cap, sim.N_RF), np.int64)
        try:
            n = sim.kernel(np.array([self.game], np.int64), np.uint64(self.seed), rs, False,
                           rounds, games)
        except HumanToPlay:
            return rs, rounds, None
        if n < 0:
            raise InputError(f"game {self.game} has more rounds than a replay holds")
        events = rs.ev[:int(rs.st[sim.ST_N_EV])].copy()
        return rs, None, Finished(events, games.copy(), rounds[:n].copy())

    def _seat_rows(self, rs):
        """The human seat's observation and mask rows of a stopped replay's state."""
        obs = rs.obs[self.seat] if rs.obs.ndim == 2 else rs.obs
        mask = rs.mask[self.seat] if rs.mask.ndim == 2 else rs.mask
        return obs, mask

    def step(self):
        """Replay the game with the decisions so far: the next :class:`Turn`, or the
        :class:`Finished` game."""
        rs, rounds, finished = self._replay()
        if finished is not None:
            return finished
        events = rs.ev[:int(rs.st[self.sim.ST_N_EV])].copy()
        obs, mask = self._seat_rows(rs)
        lines, actions = importlib.import_module(self.fam.SEAT_VIEW).seat_view(
            self.sim, self.seat, obs.copy(), mask.copy(), events)
        return Turn(lines, actions, events, obs.copy(), mask.copy(), rounds)

    def play(self, action: int, turn: Turn | None = None) -> None:
        """Take ``action`` (one of the turn's legal actions: checked)."""
        turn = turn or self.step()
        if not isinstance(turn, Turn) or action not in [a for a, _ in turn.actions]:
            raise InputError(f"action {action} is not legal here")
        self.decisions.append(int(action))
        self.forced.append(len(turn.actions) == 1)

    def rounds_started(self, turn: Turn) -> int:
        """Rounds of the game begun by this decision (this one included)."""
        return len(self._round_starts(turn.events))

    def _round_starts(self, events) -> np.ndarray:
        import importlib
        from simcore.family import registry
        names = importlib.import_module(registry.packages(self.fam.NAME)[0] + ".engine").EV_TYPES
        code = names.index("round_start" if "round_start" in names else "hand_start")
        return np.flatnonzero(events[:, 0] == code)

    def round_end_lines(self, turn_or_finished, since: int | None = None) -> list:
        """How the rounds that are over ended, as the replay prints it, each its title, the win
        (the winner's hand, its yaku and points) or the draw, and the ledger of who paid whom:
        the last one, or every one after the first ``since``. For a game in progress, the
        rounds so far are replayed from its event log and records."""
        from simcore.family.chunks import Batch
        if isinstance(turn_or_finished, Finished):
            r = self.replay()
        else:
            starts = self._round_starts(turn_or_finished.events)
            if len(starts) < 2:
                return []
            # up to the new round's start, so a replay that writes a round's ledger when the
            # next one begins (Sparrow's) writes it; that new round (its record row still being
            # written) is left out
            record = (turn_or_finished.events[:starts[-1] + 1],
                      Batch(np.zeros((1, self.sim.N_GF), np.int64),
                            turn_or_finished.rounds[:len(starts)]))
            r = self.fam.replay(self.sc, self.seed, self.game, sim=self.sim, record=record)
            r.rounds = r.rounds[:len(starts) - 1]
        out = []
        for rnd in r.rounds[(len(r.rounds) - 1) if since is None else since:]:
            out += [rnd.title] + [text for kind, text in rnd.lines
                                  if kind in ("win", "draw_end", "ledger")]
        return out

    def hints(self, turn: Turn) -> list:
        """What each of the family's bots (at its default style) would do at this decision:
        ``[(bot, action label)]``, each asked with the seat's view and legal actions through the
        family's own ``decide`` (compiled; the first call in a fresh checkout compiles it). A
        bot that breaks ties at random does so with a stream of its own here, not the one the
        engine would give it at this point of the game."""
        import importlib
        from simcore.family import registry
        from simcore.nb.rng import seed_keyed
        decide = importlib.import_module(registry.packages(self.fam.NAME)[1]).decide
        reg, labels, tables = self.fam.POLICIES, dict(turn.actions), self.sim.policy_tables()
        out = []
        for name in reg.names:
            params = np.zeros(reg.max_params, np.float64)
            row = reg.param_row(name, {})
            params[:len(row)] = row
            rng = np.zeros(4, np.uint64)
            seed_keyed(np.uint64(self.seed), np.int64(self.game), np.int64(len(self.decisions)),
                       np.int64(97), rng)
            a = int(decide(reg.ids[name], turn.obs.copy(), turn.mask.copy(), params, rng,
                           *tables))
            # an answer outside the legal actions is the engine's default (emoji's idle bot)
            out.append((name, labels.get(a, "leave it to the default (what the engine plays "
                                            "for a seat that passes)")))
        return out

    def undo(self) -> bool:
        """Take back the last decision that was a choice (and the forced ones after it), so the
        next step asks it again; False when there is none."""
        if not any(not f for f in self.forced):
            return False
        while self.forced and self.forced[-1]:
            self.decisions.pop(), self.forced.pop()
        self.decisions.pop(), self.forced.pop()
        return True

    def replay(self):
        """The family's replay of the game as played so far (the bots' moves and the human's
        decisions; the rest, if any, as the scenario's baseline would play it)."""
        self.sim.params = self._params(ask=False)
        r = self.fam.replay(self.sc, self.seed, self.game, sim=self.sim)
        pol = self.sc["players"][self.seat]["policy"]
        r.header = [line.replace(f"P{self.seat} ({pol})", f"P{self.seat} (played by you)")
                    for line in r.header]
        return r

    # ---- a record of the game ---------------------------------------------------------------

    def record(self) -> dict:
        """Everything the game depends on: replaying it gives the same game."""
        return {"kind": "play", "family": self.fam.NAME, "scenario": self.sc.to_dict(),
                "seat": self.seat, "seed": self.seed, "game": self.game,
                "decisions": list(self.decisions), "forced": list(self.forced)}

    RECORD = "play.json"   # the game in a result directory

    @classmethod
    def record_file(cls, path):
        """The record file of ``path``: a result directory's ``play.json``, or a ``.json``."""
        from pathlib import Path
        p = Path(path)
        return p if p.suffix == ".json" else p / cls.RECORD

    def save(self, path) -> None:
        """Write the game to ``path``: a result directory (its ``play.json`` and the scenario
        as ``scenario.yaml``, as ``show`` writes it) or, ending in ``.json``, that file alone;
        atomically, after every decision."""
        p = self.record_file(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.record(), indent=1) + "\n")
        tmp.replace(p)
        scenario = p.parent / "scenario.yaml"
        if p.name == self.RECORD and not scenario.exists():
            text = self.fam.scenario_yaml(self.sc, f"played at seat {self.seat}, seed "
                                                   f"{self.seed}, game {self.game}")
            scenario.write_text(text)

    @classmethod
    def load(cls, path):
        """A saved game (a result directory ``play`` wrote, or its ``play.json``), to go on
        with or to replay."""
        from simcore.family import registry
        try:
            rec = json.loads(cls.record_file(path).read_text())
            if rec.get("kind") != "play":
                raise ValueError("its kind is not play")
            fam = registry.get(rec["family"])
            sc = fam.SCENARIOS.from_dict(rec["scenario"], name=rec["scenario"].get("name"))
            s = cls(fam, sc, int(rec["seat"]), int(rec["seed"]), int(rec.get("game", 0)))
            decisions = [int(a) for a in rec["decisions"]]
            forced = [bool(f) for f in rec.get("forced", [False] * len(decisions))]
            if len(forced) != len(decisions) or not 0 <= s.seed < 2 ** 64 \
                    or not 0 <= s.game < 2 ** 63:
                raise ValueError("its seed, game or decisions are damaged")
        except (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError) as e:
            raise InputError(f"{path}: not a saved game ({e})") from None
        s._take_checked(decisions, path)
        s.forced = forced
        return s

    def _take_checked(self, decisions, path) -> None:
        """Take a saved game's decisions one by one, each checked legal where it was taken (an
        edited file would otherwise hand the engine an action its rules do not allow)."""
        for i, a in enumerate(decisions):
            rs, _, finished = self._replay()   # the engine's mask: no table drawn
            mask = None if finished is not None else self._seat_rows(rs)[1]
            if mask is None or not 0 <= a < mask.shape[0] or not mask[a]:
                where = "after the game ended" if mask is None else "not a legal action there"
                raise InputError(f"{path}: not a saved game (decision {i + 1}, action {a}: "
                                 f"{where})")
            self.decisions.append(a)

    @classmethod
    def same_game(cls, a, b) -> bool:
        """Whether two paths name the same saved game (a directory and its play.json, a link)."""
        try:
            return cls.record_file(a).resolve() == cls.record_file(b).resolve()
        except (OSError, RuntimeError):
            return False

    @classmethod
    def is_saved_game(cls, path) -> bool:
        """Is ``path`` a game ``play`` saved (a directory with ``play.json``, or such a file)?"""
        try:
            p = cls.record_file(path)
            return p.is_file() and json.loads(p.read_text()).get("kind") == "play"
        except (OSError, ValueError, AttributeError):
            return False


def refuse_foreign_save(path) -> None:
    """``--save PATH`` of a new game (or a saved game copied on): PATH must be new, or an empty
    directory. A result directory of another command, another saved game or any other file is
    never written into (a run's folder with a ``play.json`` beside it no longer replays)."""
    from pathlib import Path
    p = Path(path)
    try:
        if p.suffix == ".json" and not p.exists():
            # the file alone: never into another command's result, and play.json only where
            # a directory save would go (a run's folder with it no longer replays)
            folder = p.parent if str(p.parent) else Path(".")
            if (folder / "provenance.json").exists():
                raise InputError(f"--save {path}: {folder} is another command's result; "
                                 f"give a path outside it")
            if p.name == PlaySession.RECORD:
                refuse_foreign_save(folder)
            return
        if not p.exists():
            return
        if PlaySession.is_saved_game(p):
            raise InputError(f"--save {path}: holds a saved game, which a new one would "
                             f"overwrite (go on with it: momojan-sim play --resume {shell_word(path)})")
        if p.suffix == ".json" or not p.is_dir():
            raise InputError(f"--save {path}: exists and is not a game play saved")
        if any(p.iterdir()):
            raise InputError(f"--save {path}: exists and is not empty (a result directory "
                             f"of another command?); give a new directory")
    except OSError as e:
        raise InputError(f"--save {path}: cannot look at it ({e.strerror or e})") from None


def game_over_lines(fam, fin: Finished, seat: int) -> list:
    """The finished game in words: its record's fields (codes named, a winners bitmask as
    seats), the human's seat marked."""
    from simcore.family.tables import game_codes
    codes = game_codes(fam)
    rec = dict(zip(fam.SIMULATOR.GAME_FIELDS, (int(v) for v in fin.games[0])))
    parts = []
    for name, v in rec.items():
        if name == "winners":   # a bit per seat
            shown = "seats " + ", ".join(str(s) for s in range(64) if (v >> s) & 1)
        else:
            shown = codes.get(name, {}).get(v, v)
        parts.append(f"{name} {shown}")
    return [f"game over after {len(fin.rounds)} rounds (you are seat {seat}): "
            + ", ".join(parts)]


# ---------------------------------------------------------------------------------------------
# Your games against the bots' on the same deals
# ---------------------------------------------------------------------------------------------

def _seat_share(fam, sc, seat: int, seed: int, game: int, batch=None) -> float:
    """The seat's share of game ``game`` of ``seed`` (1 a win, 1/m a win shared by m, 0), from
    the family's own metric; ``batch`` the game's records (else the scenario's bots play it)."""
    from simcore.family.chunks import game_values
    idx = np.array([game], np.int64)
    if batch is None:
        batch = fam.SIMULATOR(sc).play(idx, seed)
    names = [m.name for m in fam.CATALOGUE]
    j = names.index(f"seat{seat}_win_share")
    num, den = game_values(fam, idx, batch.games, batch.rounds)
    return float(num[0, j]) / float(den[0, j])


def mean_interval(x, lo_bound: float) -> list:
    """95% t interval of the mean of per-game values ``x`` (the game is the unit), clipped to
    [``lo_bound``, 1] (a share, or a difference of shares); none under two games or with no
    spread."""
    from scipy import stats
    x, n = np.asarray(x, np.float64), len(x)
    if n < 2 or np.std(x, ddof=1) == 0:
        return [None, None]
    h = stats.t.ppf(0.975, n - 1) * np.std(x, ddof=1) / np.sqrt(n)
    return [round(float(max(x.mean() - h, lo_bound)), 4),
            round(float(min(x.mean() + h, 1.0)), 4)]


def played_summary(paths) -> dict:
    """Your finished games (files ``play`` saved) against the scenario's bot in your seat on the
    same deals: per game your share and the bot's, and the paired difference with a 95% t
    interval (the game is the unit; with few games it is wide, as it should be)."""
    rows, unfinished = [], []
    for p in paths:
        s = PlaySession.load(p)
        fin = s.step()
        if not isinstance(fin, Finished):
            unfinished.append(str(p))
            continue
        from simcore.family.chunks import Batch
        yours = _seat_share(s.fam, s.sc, s.seat, s.seed, s.game, Batch(fin.games, fin.rounds))
        bots = _seat_share(s.fam, s.sc, s.seat, s.seed, s.game)
        rows.append({"file": str(p), "scenario": s.sc.name, "seat": s.seat, "seed": s.seed,
                     "game": s.game, "yours": yours, "bot": bots,
                     "bot_policy": s.sc["players"][s.seat]["policy"],
                     "fair": 1 / len(s.sc["players"])})
    if not rows:
        raise InputError("played: no finished game among the files (finish one with "
                         "momojan-sim play --resume FILE)")
    y, b = np.array([r["yours"] for r in rows]), np.array([r["bot"] for r in rows])
    d, n = y - b, len(rows)

    diff = {"value": round(float(d.mean()), 4), "ci": mean_interval(d, -1.0)}
    lo, hi = diff["ci"]
    if lo is None:
        verdict = (f"{n} game{'s' if n != 1 else ''}: too few (or no spread) to tell you from "
                   "the bot")
    elif lo > 0:
        verdict = "you did better than the bot in your seat on the same deals"
    elif hi < 0:
        verdict = "the bot in your seat did better than you on the same deals"
    else:
        verdict = "no detectable difference between you and the bot in your seat"
    return {"games": n, "unfinished": unfinished, "games_list": rows,
            "yours": {"value": round(float(y.mean()), 4), "ci": mean_interval(y, 0.0)},
            "bot": {"value": round(float(b.mean()), 4), "ci": mean_interval(b, 0.0)},
            "difference": diff, "verdict": verdict}
