"""The statistics a comparison reports beside its geomeans (pure, standard library only).

- `bootstrap_ci`: a 95 % percentile bootstrap interval of a geometric mean over problems:
  10,000 resamples drawn with `random.Random(SEED).choices` (the same draws for every list of the
  same length, so the output is reproducible), each resample's geomean, then the 2.5th and 97.5th
  percentiles of those 10,000 geomeans by linear interpolation between order statistics
  (`statistics.quantiles(..., n=40, method="inclusive")`, its 1st and 39th cut points).
- `sign_test`: the exact two-sided binomial sign test over wins and losses (ties left out):
  p = min(1, 2 * P(X <= min(wins, losses))) with X ~ Binomial(wins + losses, 1/2); 1.0 without any.
- `pass_at_k`: the unbiased estimator 1 - C(n - c, k) / C(n, k) of n attempts with c passing.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from operator import itemgetter

from collectors.problems import Cancelled

SEED = 20240601
RESAMPLES = 10_000
TIE = 0.01  # within 1 %: neither a win nor a loss, nor better nor worse than the baseline


def geomean(values: list[float]) -> float | None:
    return math.exp(math.fsum(math.log(v) for v in values) / len(values)) if values else None


KEPT_DRAWS = 256  # up to this many values the draws are kept (10,000 x n positions) for the next arm


def _fresh(n: int) -> Iterator[list[int]]:
    rng = random.Random(SEED)
    positions = range(n)
    for _ in range(RESAMPLES):
        yield rng.choices(positions, k=n)


KEPT_LENGTHS = 16  # lengths whose draws are kept, the oldest let go first
_KEPT: dict[int, tuple[list[int], ...]] = {}


def _draws(n: int) -> Iterable[list[int]]:
    """The resampled positions for a list of n values: the same for every list of that length."""
    if n > KEPT_DRAWS:
        return _fresh(n)
    kept = _KEPT.get(n)
    return kept if kept is not None else _keeping(n)


def _keeping(n: int) -> Iterator[list[int]]:
    """Fresh draws, kept once all were taken: made as they are asked for, so that a caller that
    stops (bootstrap_cis' `stopped`) stops making them too (0.2 s at 256 values)."""
    made = []
    for draw in _fresh(n):
        made.append(draw)
        yield draw
    if len(_KEPT) >= KEPT_LENGTHS:
        _KEPT.pop(next(iter(_KEPT)))
    _KEPT[n] = tuple(made)


STOP_STEP = 500  # resamples between two looks at `stopped` (a tenth of a second at 1,000 values)


Interval = tuple[float, float]


def bootstrap_ci(values: list[float], stopped: Callable[[], bool] | None = None) -> Interval | None:
    """The 95 % bootstrap interval of the geomean of `values` (positive ratios, in a fixed order).
    Its cost grows with the values (about 1 s at 1,000): `stopped` is asked every STOP_STEP
    resamples, and Cancelled raised when it says so."""
    return bootstrap_cis([values], stopped)[0]


def bootstrap_cis(lists: list[list[float]], stopped: Callable[[], bool] | None = None) -> list[Interval | None]:
    """`bootstrap_ci` of each list, the draws for each length made once for all the lists of that
    length (3,000 problems x 4 arms: 6.0 s one arm at a time, 3.2 s together)."""
    found: list[Interval | None] = [None] * len(lists)
    by_length: dict[int, list[int]] = {}
    for position, values in enumerate(lists):
        if values:
            by_length.setdefault(len(values), []).append(position)
    for n, positions in by_length.items():
        logs = [[math.log(v) for v in lists[p]] for p in positions]
        means: list[list[float]] = [[] for _ in positions]
        for number, draw in enumerate(_draws(n)):
            if stopped is not None and number % STOP_STEP == 0 and stopped():
                raise Cancelled
            picked = itemgetter(*draw) if n > 1 else lambda logged, at=draw[0]: (logged[at],)
            for kept, logged in zip(means, logs):
                kept.append(sum(picked(logged)) / n)  # (at C speed: 2.5x the fsum of a map)
        for position, kept in zip(positions, means):
            cuts = statistics.quantiles(kept, n=40, method="inclusive")
            found[position] = math.exp(cuts[0]), math.exp(cuts[-1])
    return found


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test p-value (exact arithmetic, rounded once at the end)."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of n independent attempts of which c passed (n >= k)."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def outcome(ratio: float) -> int:
    """1 when `ratio` (higher is better) is a win by more than 1 %, -1 a loss, 0 a tie."""
    return 1 if ratio > 1 + TIE else -1 if ratio < 1 - TIE else 0
