"""Figures from measured times: the median of several runs, percentiles, the p95 of each 10 s."""

import math
import statistics
import time


def median_seconds(action, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _run in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def percentile(times: list[float], share: float) -> float:
    """The time below which ``share`` of the sorted ``times`` lie (nearest rank), in ms."""
    return times[max(0, math.ceil(len(times) * share) - 1)] * 1000 if times else float("nan")


def by_tens(log: list[tuple[float, float]], seconds: int) -> str:
    """The p95 of the entries sent in each 10 s of the measured time, in ms: where the slow
    ones were (the players opening their standings at the start, say)."""
    tens = []
    for start in range(0, seconds, 10):
        times = sorted(took for sent, took in log if start <= sent < start + 10)
        tens.append(f"{percentile(times, 0.95):.0f}")
    return ", ".join(tens)
