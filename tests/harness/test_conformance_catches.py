"""The conformance check (simcore.testing) catches what a new contributor's family got wrong
while the check still passed (issue 47): each test builds a deliberately broken variant of the
fake family (tests/broken_families.py) and shows the check, or the harness, naming the mistake
on one line."""

import math

import numpy as np
import pytest

import broken_families as broken
from simcore.family import registry as families
from simcore.testing import (ConformanceError, check_contracts, check_declarations, check_family,
                             check_policy_branches, check_replay, check_storage)
from simcore.family.chunks import chunk_stats


def _one_line(exc_info):
    text = str(exc_info.value)
    assert "\n" not in text, text
    return text


# ---- 1. a bot without a branch ------------------------------------------------------------------
@pytest.mark.parametrize("name", families.names())
def test_decide_sends_each_registered_policy_to_its_own_kernel(name):
    """Every registered family: each policy of POLICIES has its own branch in the bots
    package's decide (registry.packages(name)[1]), and no branch names an unknown id."""
    fam = families.get(name)
    assert check_policy_branches(fam) == len(fam.POLICIES.names)


def test_a_registered_policy_without_a_branch_in_decide_is_named(fake):
    fam = families.get("fake")
    with pytest.raises(ConformanceError, match=r"^fake: policy 'strong' \(id 0\) has no branch "
                       r"in broken_families\.decide: its seats silently play the fallback$") as e:
        check_policy_branches(fam, bots=broken)
    _one_line(e)


def test_a_policy_that_plays_the_fallback_is_named_by_the_check(fake):
    fam = broken.FallbackBots()
    with pytest.raises(ConformanceError, match=r"^fake: policies 'strong' and 'weak' play "
                       r"8 games of each of 1 scenarios identically") as e:
        check_family(fam, [fam.SCENARIOS.load(fake)], games=8)
    _one_line(e)


# ---- 2. a replay that loses information -------------------------------------------------------
def test_a_replay_that_does_not_add_up_to_the_records_is_named(fake):
    fam = broken.LossyReplay()
    sc = fam.SCENARIOS.load(fake)
    with pytest.raises(ConformanceError, match=r"^fake: fake4 game 0 of seed 11: neither the "
                       r"replay's footer nor its last ledger line \(scores \[.*\]\) ends at the game record's final "
                       r"scores \[.*\]$") as e:
        check_replay(fam, sc, 11)
    _one_line(e)
    with pytest.raises(ConformanceError, match="ends at the game record's final scores"):
        check_family(fam, [sc], games=6)


# ---- 3. storage types too small for an allowed option value ----------------------------------
def test_a_dtype_too_small_for_the_largest_allowed_option_is_named(fake):
    fam = broken.NarrowScores()
    sc = fam.SCENARIOS.load(fake)
    fam.SIMULATOR(sc)   # the default noise fits int8: only an extreme allowed value overflows
    with pytest.raises(ConformanceError, match=r"^fake: fake4 with noise=1000(\.0)? \(the largest "
                       r"allowed\): per-game column score\d \(int8\) gets -?\d+, outside "
                       r"-128\.\.127$") as e:
        check_storage(fam, sc, 11)
    _one_line(e)
    with pytest.raises(ConformanceError, match=r"per-game column score\d \(int8\)"):
        check_family(fam, [sc], games=6)


@pytest.mark.plays("riichi2p")
def test_the_storage_check_pushes_the_keys_the_worst_cases_grow_with():
    fam = families.get("riichi2p")
    # no time budget: how many keys a budget lets through depends on the machine
    assert check_storage(fam, fam.SCENARIOS.load(fam.DEFAULT_SCENARIO), 11, games=2,
                         budget=math.inf) >= 3


# ---- 4. a kernel that overruns a buffer ---------------------------------------------------------
def test_a_kernel_writing_past_its_round_buffer_is_named_by_the_simulator(fake):
    from simcore.family.chunks import BufferOverrun
    fam = broken.Overrun()
    sc = fam.SCENARIOS.load(fake)
    with pytest.raises(BufferOverrun, match=r"^fake: the kernel wrote past its round records "
                       r"\(rounds\) buffer of \d+ rows \(row \d+ written; "
                       r"broken_families\.OverrunSimulator\.kernel\)$") as e:
        fam.SIMULATOR(sc).play(np.arange(5), 3)
    _one_line(e)
    with pytest.raises(ConformanceError, match=r"^fake: fake4 \w+: fake: the kernel wrote past "
                       r"its round records \(rounds\) buffer"):
        check_family(fam, [sc], games=6)


def test_a_buffer_overrun_in_a_chunk_is_named_not_a_dead_worker(fake):
    """Through the harness's chunk function (what a worker runs): the error names the family
    and the buffer, and the exception pickles back from a worker process as itself."""
    import pickle
    from simcore.family.chunks import BufferOverrun, ChunkTask
    fam = broken.Overrun()
    task = ChunkTask((fam.SCENARIOS.payload(fam.SCENARIOS.load(fake)),), (3,), 0, 10)
    with pytest.raises(BufferOverrun, match=r"^fake: the kernel wrote past its round records") \
            as e:
        chunk_stats(fam, task)
    assert str(pickle.loads(pickle.dumps(e.value))) == str(e.value)


# ---- 5. contract mismatches --------------------------------------------------------------------
@pytest.mark.parametrize("family, pattern", [
    (broken.MetricWithoutQuantity, r"^fake: fake4 \w+: metric mean_bonus names numerator "
                                   r"'bonus', which game_quantities does not return"),
    (broken.UndeclaredHistogram, r"^fake: fake4 \w+: histogram 'top_scores' is counted by "
                                 r"histogram_values but not declared in HISTOGRAMS$"),
    (broken.BreakdownOfUnknownMetric, r"^fake: BREAKDOWN_METRICS names metric "
                                      r"'seat0_win_shares', which is not in the catalogue$"),
    (broken.DtypeOfNoField, r"^fake: GAME_DTYPES names column 'scroe0', which is no record "
                            r"field of FakeSimulator"),
    (broken.RuleKeyTypo, r"^fake: fake4 \w+: fake: scenario fake4 has no rule key 'noize'"),
    (broken.ConditionalKeyTypo, r"^fake: CONDITIONAL_KEYS names rule key 'noize', which "
                                r"scenario fake4 does not have$"),
])
def test_a_contract_mismatch_is_one_line_naming_the_family_and_the_name(fake, family, pattern):
    fam = family()
    with pytest.raises(ConformanceError, match=pattern) as e:
        check_family(fam, [fam.SCENARIOS.load(fake)], games=6)
    _one_line(e)


def test_a_rule_key_typo_at_run_time_names_the_family_and_the_key(fake):
    """Where the harness itself would have raised a bare ``KeyError: 'noize'``."""
    fam = broken.RuleKeyTypo()
    with pytest.raises(KeyError) as e:
        fam.SIMULATOR(fam.SCENARIOS.load(fake))
    assert str(e.value) == ("fake: scenario fake4 has no rule key 'noize' (a typo in the "
                            "family's code or declarations?)")
    real = families.get("momojan")
    with pytest.raises(KeyError, match="momojan: scenario new_edition has no rule key "
                       "'scoring.dorass'"):
        real.SCENARIOS.load("new_edition").get("scoring.dorass")


@pytest.mark.parametrize("name", families.names())
def test_the_declarations_and_contracts_of_every_family_hold(name):
    fam = families.get(name)
    sc = fam.SCENARIOS.load(fam.DEFAULT_SCENARIO)
    check_declarations(fam, sc)
    check_contracts(fam, fam.SIMULATOR(sc).play(np.arange(4), 5), sc.name)


def test_a_metric_without_its_quantity_at_run_time_names_the_metric(fake):
    """Where the harness itself raised a bare ``KeyError: 'bonus'`` (the chunk function)."""
    from simcore.family.chunks import ChunkTask
    fam = broken.MetricWithoutQuantity()
    task = ChunkTask((fam.SCENARIOS.payload(fam.SCENARIOS.load(fake)),), (3,), 0, 10)
    with pytest.raises(KeyError) as e:
        chunk_stats(fam, task)
    assert str(e.value) == ("fake: metric mean_bonus names quantity 'bonus', which the family's "
                            "game_quantities does not return")


def test_an_undeclared_histogram_at_run_time_names_the_family_and_the_histogram(fake):
    """Where the chunk function raised a bare ``KeyError: 'top_scores'``."""
    from simcore.family.chunks import ChunkTask
    fam = broken.UndeclaredHistogram()
    task = ChunkTask((fam.SCENARIOS.payload(fam.SCENARIOS.load(fake)),), (3,), 0, 10)
    with pytest.raises(KeyError) as e:
        chunk_stats(fam, task)
    assert e.value.args[0] == ("fake: the simulator counts histogram 'top_scores', which its "
                               "HISTOGRAMS does not declare")
