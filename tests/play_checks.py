"""What every family's play tests check of a finished game: saved, loaded and stepped again, it
is the same game (records and event log)."""

import numpy as np

from simcore.studies.play import Finished, PlaySession


def assert_saved_game_replays(session, fin, path):
    session.save(path)
    again = PlaySession.load(path).step()
    assert isinstance(again, Finished)
    np.testing.assert_array_equal(again.games, fin.games)
    np.testing.assert_array_equal(again.rounds, fin.rounds)
    np.testing.assert_array_equal(again.events, fin.events)
