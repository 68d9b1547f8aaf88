"""The hand-derived checks of the Sparrow reference model (tests/sparrow/reference.py), worked out
from the spec (../shared/rules/sparrow.md beside the project), as pytest tests."""
import pytest

from tests.sparrow.reference import (distance, furiten, hand, is_win, next_dora, parse, points,
                                     readings, settle, waits)


def test_readings_and_wins():
    assert readings(hand("123s 456s")) == [(("run", 0), ("run", 3))]
    assert readings(hand("112233s")) == [(("run", 0), ("run", 0))]
    assert readings(hand("GGG RRR")) == [(("triplet", 9), ("triplet", 10))]
    assert readings(hand("111s 234s")) == [(("run", 1), ("triplet", 0))]
    assert is_win(hand("234s GGG"))
    assert is_win(hand("GRG RGR"))
    assert not is_win(hand("123s 45s G"))
    assert not is_win(hand("123s 45s"))
    assert not is_win(hand("89s G 123s"))        # 8s 9s G is no run
    assert not is_win(hand("9s G R 123s"))
    assert not is_win(hand("89s 1s 234s"))       # no wrap 8-9-1
    assert readings(hand("123s 45s")) == []


def test_waits():
    assert waits(hand("23s 456s")) == {0, 3, 6}
    assert waits(hand("11s GGG")) == {0}
    assert waits(hand("11123s")) == {0, 3}
    assert waits(hand("1111s 2s")) == {2}
    assert waits(hand("GG RRR")) == {9}
    assert waits(hand("123s 456s")) == set()
    assert waits(hand("1s 3s 5s 7s 9s")) == set()


def test_distance():
    assert distance(hand("123s 456s")) == 0
    assert distance(hand("23s 456s")) == 1
    assert distance(hand("123s 45s G")) == 1
    assert distance(hand("1s 3s 5s 7s 9s")) == 2
    assert distance(hand("1s 4s 7s G R")) == 4


def test_points_plain_runs_and_dora():
    r = points(hand("123s 456s"), 0, -1, False)
    assert r["points"] == 2 and r["parts"] == {"run": 2}
    assert r["reading"] == (("run", 0), ("run", 3))
    assert points(hand("123s 456s"), 0, 0, False)["parts"] == {"run": 2, "dora": 1}


def test_points_chanta():
    r = points(hand("123s 999s"), 0, -1, False)
    assert r["parts"] == {"run": 1, "triplet": 2, "chanta": 2} and r["points"] == 5
    r = points(hand("112233s"), 0, -1, False)
    assert r["parts"] == {"run": 2, "chanta": 2} and r["points"] == 4


def test_points_chinyao_not_chanta():
    r = points(hand("GGG RRR"), 3, -1, False)
    assert r["parts"] == {"triplet": 4, "chinyao": 15, "red": 3} and r["points"] == 22
    r = points(hand("GGG RRR"), 3, -1, False, {"specials": "alone"})
    assert r["parts"] == {"chinyao": 15} and r["points"] == 15
    assert points(hand("111s 999s"), 0, -1, False)["parts"] == {"triplet": 4, "chinyao": 15}


def test_points_all_green():
    r = points(hand("234s 666s"), 0, -1, False)
    assert r["parts"] == {"run": 1, "triplet": 2, "tanyao": 1, "all_green": 10}
    assert r["points"] == 14
    assert points(hand("234s 666s"), 0, -1, False, {"specials": "alone"})["points"] == 10
    r = points(hand("234s GGG"), 0, 9, True, {"dealer_bonus": 3})
    assert r["parts"] == {"run": 1, "triplet": 2, "all_green": 10, "dora": 3, "dealer_bonus": 3}
    assert r["points"] == 19


def test_points_super_red():
    counts, reds = parse("1*2*3*s RRR")
    assert reds == 6
    r = points(counts, reds, -1, False)
    assert r["parts"] == {"run": 1, "triplet": 2, "chanta": 2, "super_red": 20, "red": 6}
    assert r["points"] == 31
    assert points(counts, reds, -1, False, {"specials": "alone"})["parts"] == {"super_red": 20}


def test_points_alone_without_special_is_add():
    r = points(hand("345s 678s"), 1, 4, True, {"specials": "alone"})
    assert r["parts"] == {"run": 2, "tanyao": 1, "red": 1, "dora": 1} and r["points"] == 5


def test_points_rejects_non_win():
    with pytest.raises(ValueError):
        points(hand("123s 45s G"), 0, -1, False)


def test_next_dora():
    assert next_dora(4, "same") == 4
    assert next_dora(4, "next") == 5
    assert next_dora(8, "next") == 0
    assert next_dora(9, "next") == 10
    assert next_dora(10, "next") == 9
    assert next_dora(10, "same") == 10


def test_settle():
    assert settle(10, 0, None, 4, "split_ceil") == [12, -4, -4, -4]
    assert settle(10, 0, None, 4, "split_floor") == [9, -3, -3, -3]
    assert settle(10, 0, None, 4, "each_full") == [30, -10, -10, -10]
    assert settle(10, 0, 2, 4, "split_ceil") == [10, 0, -10, 0]
    assert settle(7, 1, None, 2, "split_ceil") == [-7, 7]


def test_furiten():
    assert furiten({0}, {0, 3}, 3, "waits") is True
    assert furiten({0}, {0, 3}, 3, "tile") is False
    assert furiten({3}, {0, 3}, 3, "tile") is True
    assert furiten({3}, {0, 3}, 3, "none") is False
    assert furiten({5}, {0, 3}, 0, "waits") is False


def test_parse():
    assert parse("45*6s") == ([0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0], 1)
    assert parse("555s GGG") == ([0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0], 0)
    assert parse("R G 1s") == ([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1], 1)
    assert parse("") == ([0] * 11, 0)


@pytest.mark.parametrize("bad", ["x1s", "0s", "5**s", "G*", "1S", "s", "12", "g", "5s*"])
def test_parse_rejects_bad_token(bad):
    with pytest.raises(ValueError, match=repr(bad).replace("*", r"\*")):
        parse(f"123s {bad}")


@pytest.mark.parametrize("text,token", [("11111s", "11111s"), ("5*s 5*s", "5*s"),
                                        ("5*5*s", "5*5*s"), ("RRR RR", "RR")])
def test_parse_rejects_too_many(text, token):
    with pytest.raises(ValueError, match=repr(token).replace("*", r"\*")):
        parse(text)
