import pytest
from mathx.stats import mean


def test_mean_of_integers():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_of_one_value():
    assert mean([7]) == 7


def test_mean_of_empty_sequence_raises():
    with pytest.raises(ValueError):
        mean([])
