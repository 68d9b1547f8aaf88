"""The family registry (simcore.family.registry): which family a scenario names, errors, and the harness
running a family it does not know: a 3-seat fake family (this module) through the tournament,
the CLI and result directories."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

import fake_family
from simcore.cli import main
from simcore.errors import InputError
from simcore.family import registry as families
from simcore.stats.moments import MomentSums

# The fake family (tests/fake_family.py, 2 to 4 seats), here with three seats; registered as
# under its own name, "fake".
NAME = "fake"
CATALOGUE = fake_family.FAMILY.CATALOGUE


@pytest.fixture
def fake(tmp_path):
    families.register(NAME, "fake_family")
    path = tmp_path / "fake.yaml"
    path.write_text("game: fake\nname: fake\nplayers: [{policy: weak}, {policy: weak}, "
                    "{policy: weak}]\n")
    yield path
    families.unregister(NAME)


# ---------------------------------------------------------------------------------------------
# Which family a scenario names
# ---------------------------------------------------------------------------------------------

def test_game_string_names_the_family_and_extends_inherits_it(fake, tmp_path):
    assert families.family_name_of(fake) == "fake"
    child = tmp_path / "sub" / "child.yaml"
    child.parent.mkdir()
    child.write_text("extends: ../fake.yaml\nname: child\n")
    grandchild = tmp_path / "gc.yaml"
    grandchild.write_text(f"extends: {child}\n")
    assert families.family_name_of(child) == families.family_name_of(grandchild) == "fake"
    fam, sc = families.load(fake)
    assert fam.NAME == "fake" and [p["policy"] for p in sc["players"]] == ["weak"] * 3


def test_a_game_mapping_or_no_game_means_momojan(tmp_path):
    (tmp_path / "m.yaml").write_text("extends: new_edition\ngame: {dealer_streak_win: 4}\n")
    (tmp_path / "n.yaml").write_text("extends: new_edition\nstarting_points: 30\n")
    for f in ("m.yaml", "n.yaml"):
        fam, sc = families.load(tmp_path / f)
        assert fam.NAME == "momojan" and families.family_name_of(tmp_path / f) == "momojan"
    assert families.family_name_of("new_edition") == "momojan"
    # unreadable or missing: the default family, whose loader says what is wrong
    assert families.family_name_of(tmp_path / "missing.yaml") == "momojan"


def test_unknown_family_is_one_line_naming_file_and_game(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: ptrunp\nname: x\n")
    with pytest.raises(InputError, match=r"bad.yaml: game: unknown game family 'ptrunp' "
                                         r"\(did you mean 'ptrump'\?\)"):
        families.family_name_of(bad)
    child = tmp_path / "child.yaml"
    child.write_text("extends: bad.yaml\n")
    for args in (["validate", str(child)], ["run", str(bad), "--no-save"], ["show", str(bad)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, (args, r.output)
        assert "bad.yaml: game: unknown game family 'ptrunp'" in r.output


def test_mixed_families_are_refused_in_one_line(fake):
    for args in (["compare", "new_edition", str(fake), "--no-save"],
                 ["plan", str(fake), "new_edition", "--detect", "0.1"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
        assert "a momojan scenario" in r.output and "a fake one" in r.output or \
            "a fake scenario" in r.output and "a momojan one" in r.output


def test_metrics_lists_the_named_family(fake):
    r = CliRunner().invoke(main, ["metrics", "--game", "fake", "--json"])
    assert r.exit_code == 0, r.output
    assert [m["name"] for m in json.loads(r.output)] == [m.name for m in CATALOGUE]
    r = CliRunner().invoke(main, ["metrics", str(fake), "--json"])
    assert r.exit_code == 0 and len(json.loads(r.output)) == len(CATALOGUE)
    r = CliRunner().invoke(main, ["metrics", "--game", "nope"])
    assert r.exit_code == 2 and "unknown game family 'nope'" in r.output


# ---------------------------------------------------------------------------------------------
# Tournaments of three seats (through the fake family)
# ---------------------------------------------------------------------------------------------

def test_seatings():
    from simcore.studies.tournament import seatings
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    assert len(seatings(4, 2)) == 12 and len(seatings(4, 3)) == 24
    assert sorted(seatings(2, 3)) == [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1),
                                      (1, 1, 0)]


def test_three_seat_tournament_ranks_by_strength(fake):
    from simcore.studies.tournament import run_tournament
    fam, sc = families.load(fake)
    t = run_tournament(sc, ["weak", "strong", "medium"], 150, seed=3, family=fam)
    assert [r["entrant"] for r in t.ratings] == ["strong", "medium", "weak"]
    assert len(t.seatings) == 6
    # duplicate: every game of a pair counted once per seating, shares of a pair sum to it
    assert np.all(t.played + np.eye(3, dtype=int) * 900 == 900)
    assert np.allclose(t.wins + t.wins.T, t.played)
    # two entrants at three seats: the 6 seatings, two comparisons per game where one sits twice
    t2 = run_tournament(sc, ["strong", "weak"], 50, seed=3, family=fam)
    assert t2.played[0, 1] == 6 * 50 * 2 and t2.wins[0, 1] / t2.played[0, 1] > 0.7


def test_tournament_command_on_a_three_seat_family(fake, tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tournament", str(fake), "--policies", "medium,strong,weak",
                                  "--games", "40", "--out", str(out), "--json", "--workers", "1"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["n_seats"] == 3 and len(data["seatings"]) == 6 and data["result_dir"] == str(out)
    assert data["ratings"][0]["entrant"] == "strong"
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["family"] == "fake" and prov["kind"] == "tournament"
    assert prov["status"] == "complete" and len(prov["variants"]) == 6
    r = CliRunner().invoke(main, ["tournament", str(fake), "--policies", "strong,strnog"])
    assert r.exit_code == 2 and "did you mean 'strong'" in r.output


def test_saved_results_of_two_families_are_not_compared(tmp_path):
    from simcore.studies.results import FORMAT
    dirs = []
    for fam in ("momojan", "fake"):
        d = tmp_path / fam
        d.mkdir()
        (d / "provenance.json").write_text(json.dumps(
            {"format": FORMAT, "format_version": 1, "kind": "run", "status": "complete",
             "family": fam, "seed": 0, "games": 1, "options": {}, "command_line": "x",
             "started_utc": "x", "variants": [{"name": fam}]}))
        dirs.append(str(d))
    r = CliRunner().invoke(main, ["compare", *dirs])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "is a momojan result" in r.output and "a fake one" in r.output


def test_a_share_out_of_6_gets_the_per_game_wilson_interval():
    """Seat shares are game rates with a per-game denominator of 6: the interval is the one of
    the same share counted per game (effective n = (sum y)^2 / sum y^2), not 6 times narrower."""
    from simcore.stats.moments import wilson
    from simcore.stats.summary import metric_summary
    share = np.array([6] * 30 + [3] * 10 + [0] * 60)            # 35 games' worth out of 100
    z = np.stack([share, np.full(100, 6)], axis=1)[:, None, :]
    out = metric_summary(CATALOGUE[0], MomentSums.from_values(z), 0)
    assert out["n"] == 100 and out["value"] == 0.35
    assert out["ci"] == wilson(35, 100)["ci"]


def test_three_seat_rating_intervals_cover_with_the_deal_as_cluster(fake):
    """Issue 27 item 7: in a 3-seat duplicate tournament the comparisons of one deal are
    related (one entrant against two opponents, every seating): the cluster-robust intervals
    cover the large-tournament ratings at 95% within the binomial 99.9% range of 60
    tournaments per entrant; and they are not the independent-comparison ones."""
    from scipy.stats import binom
    from simcore.studies.tournament import bradley_terry, run_tournament
    fam, sc = families.load(fake)
    entrants = ["weak", "strong", "medium"]
    truth = {r["entrant"]: r["rating"]
             for r in run_tournament(sc, entrants, 4000, seed=0, family=fam).ratings}
    reps, covered, ratio = 60, 0, []
    for rep in range(reps):
        t = run_tournament(sc, entrants, 40, seed=100 + rep, family=fam)
        _, naive = bradley_terry(t.wins, t.played)
        for k, r in enumerate(sorted(t.ratings, key=lambda r: entrants.index(r["entrant"]))):
            covered += r["ci"][0] <= truth[r["entrant"]] <= r["ci"][1]
            ratio.append((r["ci"][1] - r["ci"][0]) / 2 / naive[k])
    n = reps * len(entrants)
    assert binom.ppf(0.0005, n, 0.95) <= covered <= binom.ppf(0.9995, n, 0.95), covered / n
    print(f"coverage {covered / n:.3f}, width ratio {np.median(ratio):.2f}")
    assert abs(np.median(ratio) - 1) > 0.03   # the sandwich changed the width
