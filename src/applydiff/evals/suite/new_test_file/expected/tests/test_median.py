import pytest
from mathx.stats import median


def test_median_of_odd_count():
    assert median([3, 1, 2]) == 2


def test_median_of_even_count_is_mean_of_middle_two():
    assert median([1, 2, 3, 4]) == 2.5


def test_median_of_unsorted_input():
    assert median([9, 1, 5, 3, 7]) == 5


def test_median_of_empty_sequence_raises():
    with pytest.raises(ValueError):
        median([])
