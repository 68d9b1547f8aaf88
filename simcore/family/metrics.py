"""What a metric is, for any game family: a ratio of per-game sums with a name and a margin.

A family's catalogue (e.g. :mod:`simcore.momojan.metrics`) lists its metrics once; ``run``,
``compare``, ``sweep``, ``plan`` and the reports read only this description and the streamed
:class:`simcore.stats.moments.MomentSums`, never the family's records.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

# kind -> (what the denominator counts, whether the value is a share in [0, 1])
KINDS = {
    "game_rate": ("games", True),
    "round_rate": ("rounds", True),
    "win_rate": ("wins", True),
    "per_game": ("games", False),
    "per_round": ("rounds", False),
    "per_win": ("wins", False),
}


@dataclass(frozen=True)
class Metric:
    """One metric: the sum over games of ``numerator`` divided by the sum of ``denominator``.

    ``numerator`` and ``denominator`` name per-game quantities of the family (each game
    contributes integers); ``margin`` is the default equivalence margin of a comparison (a
    difference smaller than this does not matter to a designer): in the metric's unit, or with
    ``margin_relative`` a share of a's value (0.2: b within 20% of a, on the ratio scale, for
    rare events whose absolute margin would be meaningless); ``reference`` is the fair value
    where there is one (0.5 for one seat against another), ``fair_per_seat`` makes it 1/n for n
    seats (a seat's share of the wins); ``unit`` names what a non-rate metric counts ("points"
    only for game points; a rate's unit is % and its differences percentage points, ``pp``).
    """

    name: str
    kind: str
    numerator: str
    denominator: str
    description: str
    margin: float
    reference: float | None = None
    unit: str = ""
    margin_relative: bool = False
    fair_per_seat: bool = False
    game_word: str = "games"   # the family's plural for a game (P-style: "matches")
    round_word: str = "rounds"   # the family's plural for a round (riichi2p: "hands")

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"metric {self.name}: unknown kind {self.kind!r}")
        if not self.is_rate and not self.unit:
            raise ValueError(f"metric {self.name}: a {self.kind} metric names its unit")

    @property
    def is_rate(self) -> bool:
        return KINDS[self.kind][1]

    @property
    def diff_unit(self) -> str:
        """The unit of a difference: ``pp`` for rates, else the metric's own."""
        return "pp" if self.is_rate else self.unit

    def fair(self, n_seats: int | None) -> float | None:
        """The fair value for a game of ``n_seats`` seats (None: no fair value)."""
        if self.fair_per_seat:
            return 1.0 / n_seats if n_seats else None
        return self.reference

    @property
    def per(self) -> str:
        """What the denominator counts, in words ("games", "rounds", "wins"; a family's own words
        for games and rounds: P-style's "matches", riichi2p's "hands")."""
        word = KINDS[self.kind][0]
        return self.game_word if word == "games" else self.round_word if word == "rounds" \
            else word


def singular(words: str) -> str:
    """A family's word for one game from its plural ("matches" -> "match")."""
    return words[:-2] if words.endswith("ches") else words[:-1] if words.endswith("s") else words


def by_name(catalogue) -> dict:
    return {m.name: m for m in catalogue}


def per_game_sums(game_indices, round_game, per_round):
    """Each game's sum of per-round quantities.

    Parameters
    ----------
    game_indices : int64[n]
        The chunk's game indices, ascending.
    round_game : int64[n_rounds]
        Each round's game index (rounds are in game order).
    per_round : int64[n_rounds, q]
        Quantities of each round.

    Returns
    -------
    pos : int64[n_rounds]
        Each round's game position in ``game_indices``.
    sums : int64[n, q]
        Per game, the sum over its rounds (exact ints; a game with no round gets 0).
    """
    import numpy as np
    n = len(game_indices)
    pos = np.searchsorted(game_indices, round_game)
    per_round = np.asarray(per_round, np.int64)
    bounds = np.searchsorted(pos, np.arange(n + 1))
    # each game's rounds are one run: a sum per run (half the time of differences of a
    # cumulative sum over the chunk's rounds); reduceat takes the runs that start inside the
    # rounds (the games after the last round have none, and every game of a chunk with no
    # round) and gives a run with no round the row at its start, so those are zeroed
    k = int(np.searchsorted(bounds[:-1], len(per_round)))
    sums = np.zeros((n, per_round.shape[1]), np.int64)
    sums[:k] = np.add.reduceat(per_round, bounds[:k], axis=0)
    sums[bounds[:-1] == bounds[1:]] = 0
    return pos, sums


def catalogue_values(q: dict, catalogue, n: int):
    """``(num, den)``, int64[n, k] each: per game, metric j's numerator and denominator taken
    from the per-game quantities ``q`` (name -> int64[n]) its :class:`Metric` names."""
    import numpy as np
    num = np.empty((n, len(catalogue)), np.int64)
    den = np.empty((n, len(catalogue)), np.int64)
    for j, m in enumerate(catalogue):
        for name in (m.numerator, m.denominator):
            if name not in q:   # a bare KeyError: 'bonus' named neither the metric nor its role
                raise MissingQuantity(f"metric {m.name} names quantity {name!r}, which the "
                                      f"family's game_quantities does not return "
                                      f"(simcore.testing.check_family names the family)")
        num[:, j] = q[m.numerator]
        den[:, j] = q[m.denominator]
    return num, den


class MissingQuantity(KeyError):
    """A metric names a per-game quantity its family's ``game_quantities`` does not return."""

    def __str__(self) -> str:
        return self.args[0]


# ---------------------------------------------------------------------------------------------
# Seat metrics: the harness's, for any number of seats (simcore.family.base adds them)
# ---------------------------------------------------------------------------------------------

SEAT_MARGIN = 0.01   # one percentage point


def share_unit(max_seats: int) -> int:
    """A game's whole in the seat shares: 6 for up to 3 seats (a game shared by m winners gives
    each 6/m, exact for m = 1, 2, 3), else the least common multiple of 1..max_seats."""
    import math
    return 6 if max_seats <= 3 else math.lcm(*range(1, max_seats + 1))


def seat_metric_names(n_seats: int) -> list[str]:
    """``seat{s}_win_share`` per seat, then ``seat{s}_ahead_of_seat{t}`` per pair of seats."""
    out = [f"seat{s}_win_share" for s in range(n_seats)]
    out += [f"seat{s}_ahead_of_seat{t}" for s in range(n_seats) for t in range(s + 1, n_seats)]
    return out


def seat_metrics(max_seats: int, words: tuple = ("game", "games")) -> tuple:
    """The seat metrics of a family whose scenarios have at most ``max_seats`` seats, described
    in ``words`` (one unit of play, its plural): each seat's share of the wins (fair: 1/n; out of
    :func:`share_unit` per game) and, per pair, how often one finished ahead of the other (fair:
    1/2; out of 6 per game: 6 ahead, 3 level). A tournament reads them; a scenario with fewer
    seats leaves the others out of its summary."""
    one, many = words
    unit = f"games{share_unit(max_seats)}"
    m = [Metric(f"seat{s}_win_share", "game_rate", f"seat{s}_share", unit,
                f"share of the {many} won by seat {s} (a tied or shared {one} counts 1/m to "
                f"each of its m winners)", SEAT_MARGIN, fair_per_seat=True)
         for s in range(max_seats)]
    m += [Metric(f"seat{s}_ahead_of_seat{t}", "game_rate", f"seat{s}_ahead_{t}", "games6",
                 f"{many} seat {s} finished ahead of seat {t} (level: 1/2)", SEAT_MARGIN, 0.5)
          for s in range(max_seats) for t in range(s + 1, max_seats)]
    return tuple(m)


def round_quantity_sums(game_indices, round_game, per_round: dict) -> dict:
    """Each game's sums of named per-round quantities (name -> int64[n_rounds]): name ->
    int64[n] in the order of ``game_indices`` (a family's round-level numerators)."""
    import numpy as np
    names = list(per_round)
    mat = np.empty((len(round_game), len(names)), np.int64)
    for j, name in enumerate(names):
        mat[:, j] = per_round[name]
    _, sums = per_game_sums(game_indices, round_game, mat)
    return {name: sums[:, j] for j, name in enumerate(names)}


def seat_quantities(winners, standing, n_seats, max_seats: int) -> dict:
    """The per-game quantities behind :func:`seat_metrics`.

    Parameters
    ----------
    winners : int64[n]
        Bit s set when seat s won the game (several bits: a shared win; none: nobody won).
    standing : int64[n, max_seats]
        Each seat's final standing, higher ahead (scores; equal values are level).
    n_seats : int64[n] or int
        Seats each game had (seats beyond count 0 in every quantity).
    """
    import numpy as np
    winners = np.asarray(winners, np.int64)
    n = len(winners)
    seats = np.broadcast_to(np.asarray(n_seats, np.int64), (n,))
    unit = share_unit(max_seats)
    n_win = np.zeros(n, np.int64)
    for s in range(max_seats):
        n_win += (winners >> s) & 1
    share = unit // np.maximum(n_win, 1)
    q = {f"games{unit}": np.full(n, unit, np.int64), "games6": np.full(n, 6, np.int64)}
    for s in range(max_seats):
        q[f"seat{s}_share"] = ((winners >> s) & 1) * share * (seats > s)
        for t in range(s + 1, max_seats):   # pairwise: ahead 6, level 3, behind 0 (of 6)
            a, b = standing[:, s], standing[:, t]
            q[f"seat{s}_ahead_{t}"] = np.where(a > b, 6, np.where(a == b, 3, 0)) * (seats > t)
    return q


def standard_game_quantities(winners, standing, seats, max_seats: int, first_dealer, rounds,
                              end_reason, end_names) -> dict:
    """What every family's catalogue names from its game records: ``games`` (1 each), ``rounds``,
    the :func:`seat_quantities`, ``first_dealer_share`` (the first dealer's share of the game, out
    of ``share_unit(max_seats)``), ``shared`` (a game won by several seats) and ``end_<name>``
    (the game ended by reason ``end_names[code]``)."""
    import numpy as np
    q = seat_quantities(winners, standing, seats, max_seats)
    n_win = sum((winners >> s) & 1 for s in range(max_seats))
    q.update(games=np.ones(len(winners), np.int64), rounds=rounds, shared=n_win > 1,
             first_dealer_share=((winners >> first_dealer) & 1)
             * (share_unit(max_seats) // np.maximum(n_win, 1)))
    for code, name in enumerate(end_names):
        q[f"end_{name}"] = end_reason == code
    return q


def with_seat_metrics(own, at: int, max_seats: int, words: tuple,
                      round_words: tuple = ("round", "rounds")) -> tuple:
    """A family's catalogue: its own metrics with :func:`seat_metrics` inserted at ``at``;
    ``words``, ``round_words``: the family's words for a game and a round (singular, plural)."""
    cat = tuple(own)
    cat = cat[:at] + seat_metrics(max_seats, words) + cat[at:]
    return tuple(m if (m.game_word, m.round_word) == (words[1], round_words[1]) else
                 replace(m, game_word=words[1], round_word=round_words[1]) for m in cat)


class Probe(NamedTuple):
    """One point value to raise and the metric that should rise with it."""

    key: str        # the rule key, e.g. scoring.yaku.ittsu.points
    raised: object  # its raised value
    metric: str     # the catalogue metric counting what the value rewards
    what: str       # a few words for the table: "ittsu (2 -> 5 points)"


def reach_sums(idx, round_game, reach, won_bits, seats, row_bits):
    """``Family.yaku_reach`` from a family's per-seat records: ``reach`` int64[n_rounds, s] the
    bits each seat's hand was within reach of (0 outside the sampled games, simcore.nb.reach),
    ``won_bits`` int64[n_rounds, s] the bits each seat won with (0 where it did not win),
    ``seats`` the seats playing (the hands of a round), ``row_bits`` per point_sources row its
    bit, or None (a row with no reach). Only the sampled games count."""
    import numpy as np
    from simcore.nb.reach import reach_games
    # the sampled games' rounds alone (one game in REACH_EVERY): the others add nothing, and
    # picking them first makes the bit columns below that many times cheaper
    sample = np.flatnonzero(reach_games(round_game))
    reach, won_bits = np.asarray(reach)[sample], np.asarray(won_bits)[sample]
    zero = np.zeros(len(sample), np.int64)
    cols = [((reach >> b) & 1).sum(axis=1) if b is not None else zero for b in row_bits]
    cols += [((won_bits >> b) & 1).sum(axis=1) if b is not None else zero for b in row_bits]
    played = np.broadcast_to(np.asarray(seats, np.int64), (len(round_game),))[sample]
    per_round = np.stack(cols + [played], axis=1).astype(np.int64)
    _, sums = per_game_sums(idx, np.asarray(round_game)[sample], per_round)
    k = len(row_bits)
    return [b is not None for b in row_bits], sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k]


# ---- the catalogue most tile games share (a kit for a family's metrics module) ---------------
# Round records with columns ``outcome`` (codes of OUTCOMES), ``winners`` (bit s: seat s won),
# ``dealer``, per seat ``value<s>`` (a winner's points) and ``yaku<s>`` (its yaku bits); game
# records with ``winners``, ``rounds``, ``first_dealer``, ``end_reason``, ``seats`` (where the
# seat count varies) and per seat ``<score><s>``.
OUTCOMES = ("tsumo", "ron", "draw")


def seat_bits(bits, seats: int):
    """bool[rows, seats]: bit s of each of ``bits`` (who won a round, who was tenpai...)."""
    import numpy as np
    return ((np.asarray(bits)[:, None] >> np.arange(seats)) & 1).astype(bool)


def standard_metrics(unit: int, end_reasons, yaku, *, rounds: str = "rounds",
                     value: tuple = ("mean_winning_points", "points per win", 0.5, "points"),
                     margin: float = 0.01, relative: float = 0.2) -> dict:
    """name -> :class:`Metric` of the shared catalogue: the first dealer's share of the games
    (out of ``unit``), each end reason's rate, rounds per game, the rounds won, by tsumo, by ron,
    drawn and won by the dealer, the winners' ``value`` per win (name, words, margin, unit) and
    each of ``yaku``'s share of the wins. A family picks and orders them, and adds its own."""
    r = rounds
    m = [Metric("first_dealer_win_share", "game_rate", "first_dealer_share", f"games{unit}",
                "share of the games won by the seat that dealt first (a shared win counts 1/m "
                "to each of its m winners)", margin, fair_per_seat=True),
         *(Metric(f"end_{e}_rate", "game_rate", f"end_{e}", "games", f"games that end by {e}",
                  margin) for e in end_reasons),
         Metric(f"mean_{r}_per_game", "per_game", "rounds", "games", f"{r} per game", 0.25,
                unit=r),
         Metric("win_rate", "round_rate", "won", "rounds", f"{r} someone won", margin),
         Metric("tsumo_rate", "round_rate", "tsumo", "rounds", f"{r} won by tsumo", margin),
         Metric("ron_rate", "round_rate", "ron", "rounds", f"{r} won by ron", margin),
         Metric("draw_rate", "round_rate", "draws", "rounds",
                f"{r} ending in an exhaustive draw", margin),
         Metric(f"dealer_{singular(r)}_win_rate", "round_rate", "dealer_wins", "rounds",
                f"{r} the dealer won", margin),
         Metric(value[0], "per_win", "win_value", "wins", value[1], value[2], unit=value[3]),
         *(Metric(f"yaku_{y}_share", "win_rate", f"yaku_{y}", "wins", f"wins with {y}",
                  relative, margin_relative=True) for y in yaku)]
    return {x.name: x for x in m}


def standard_quantities(idx, games, rounds, game_fields, round_fields, seats: int, yaku,
                        end_reasons, score: str = "points", per_round: dict | None = None,
                        outcomes: tuple = OUTCOMES) -> dict:
    """Per game (in the order of ``idx``) the quantities :func:`standard_metrics` names, from
    records laid out as the comment above says, ``yaku`` the names of the yaku bits 0, 1, ...,
    ``outcomes`` the names of the outcome codes 0, 1, ... (among them ``tsumo``, ``ron`` and
    ``draw``; any other is neither a win nor an exhaustive draw); plus the sums of the family's
    own ``per_round`` quantities (name -> int64[rounds])."""
    import numpy as np
    r, g = rounds, games
    rc, gc = {f: i for i, f in enumerate(round_fields)}, {f: i for i, f in enumerate(game_fields)}
    out, won = r[:, rc["outcome"]], seat_bits(r[:, rc["winners"]], seats)
    tsumo, ron = out == outcomes.index("tsumo"), out == outcomes.index("ron")
    word = r[:, rc["yaku0"]:rc["yaku0"] + seats]
    q = round_quantity_sums(idx, r[:, rc["game"]], {
        "rounds": np.ones(len(r), np.int64), "won": tsumo | ron, "tsumo": tsumo, "ron": ron,
        "draws": out == outcomes.index("draw"),
        "dealer_wins": ((r[:, rc["winners"]] >> r[:, rc["dealer"]]) & 1) * (tsumo | ron),
        "wins": won.sum(axis=1),
        "win_value": (r[:, rc["value0"]:rc["value0"] + seats] * won).sum(axis=1),
        **{f"yaku_{y}": (won & ((word >> i) & 1 != 0)).sum(axis=1) for i, y in enumerate(yaku)},
        **(per_round or {})})
    q.update(standard_game_quantities(
        g[:, gc["winners"]], g[:, gc[f"{score}0"]:gc[f"{score}0"] + seats], g[:, gc["seats"]]
        if "seats" in gc else seats, seats, g[:, gc["first_dealer"]], q["rounds"],
        g[:, gc["end_reason"]], end_reasons))
    return q
