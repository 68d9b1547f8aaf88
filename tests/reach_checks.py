"""The checks every family's yaku reach (``Family.yaku_reach``) must pass, on a batch of its
games: reach is counted in the sampled games only (simcore.nb.reach), each hand at most once
per source, and the completed reaches are exactly the wins the source scored in."""

import numpy as np

from simcore.nb.reach import reach_games


def check_reach(fam, sc, games: int = 800, seed: int = 5):
    """Play ``games`` of scenario ``sc`` and check its reach; returns the point_sources rows
    and the reached sums (for a family's own checks)."""
    idx = np.arange(games)
    batch = fam.SIMULATOR(sc).play(idx, seed)
    data = fam.SCENARIOS.payload(sc)
    rows, _, fired, _, _ = fam.point_sources(idx, batch, data)
    measured, reached, completed, hands = fam.yaku_reach(idx, batch, data)
    measured = np.asarray(measured, bool)
    assert len(measured) == len(rows) == reached.shape[1] == completed.shape[1]
    sample = reach_games(idx)
    assert np.all(hands[~sample] == 0) and np.all(hands[sample] > 0)
    assert np.all(reached[~sample] == 0) and np.all(completed[~sample] == 0)
    assert np.all(reached[:, ~measured] == 0)
    assert np.all(reached <= hands[:, None]) and np.all(completed <= reached)
    np.testing.assert_array_equal(completed[sample][:, measured], fired[sample][:, measured])
    assert reached.sum() > completed.sum() > 0   # some reaches were not completed
    return rows, reached
