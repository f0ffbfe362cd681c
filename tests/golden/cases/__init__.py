"""The golden cases, built in memory: builders, the hand-written families and the randomized traces.
make_cases.py writes them out and runs the oracle on them."""
from . import hand_backward, hand_kernels, hand_regions, randomized
from .builders import CASES


def collect_cases(n_random):
    """Every case, hand-written first (with expectations), then n_random randomized ones."""
    for family in (hand_regions, hand_kernels, hand_backward):
        family.add_cases()
    randomized.random_cases(n_random)
    return CASES
