"""Workload: statistics, fractions, heapq and bisect."""
import bisect
import heapq
import statistics as st
import sys
from fractions import Fraction

NAME = "stats_fractions"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


data = [2.5, 3.25, 5.5, 11.25, 11.75, 1.0, 3.25]
check(st.mean(data) == 5.5 and st.median(data) == 3.25 and st.mode(data) == 3.25, "mean/median/mode")
check(st.median_low([1, 3, 5, 7]) == 3 and st.median_high([1, 3, 5, 7]) == 5, "median_low/high")
check(st.multimode("aabbc") == ["a", "b"], "multimode")
check(round(st.stdev([2, 4, 4, 4, 5, 5, 7, 9]), 10) == round(2.138089935299395, 10), "stdev")
check(st.pstdev([2, 4, 4, 4, 5, 5, 7, 9]) == 2.0 and st.pvariance([1, 2, 3, 4]) == 1.25, "pstdev/pvariance")
check(st.variance([Fraction(1), Fraction(2), Fraction(4)]) == Fraction(7, 3), "variance of Fractions")
check(st.quantiles(range(1, 101), n=4) == [25.25, 50.5, 75.75], "quantiles")
check(round(st.geometric_mean([1, 10, 100]), 12) == 10.0 and st.harmonic_mean([40, 60]) == 48.0, "geometric/harmonic")
x, y = [1, 2, 3, 4, 5], [2, 4, 5, 4, 5]
slope, intercept = st.linear_regression(x, y)
check(round(slope, 10) == 0.6 and round(intercept, 10) == 2.2, "linear_regression")
check(round(st.correlation(x, y), 6) == 0.774597, "correlation")
nd = st.NormalDist(100, 15)
check(round(nd.cdf(130), 4) == 0.9772 and round(nd.inv_cdf(0.5), 9) == 100.0, "NormalDist")
check(round(nd.overlap(st.NormalDist(110, 15)), 4) == 0.7389, "NormalDist overlap")
check(len(nd.samples(5, seed=1)) == 5 and nd.samples(3, seed=7) == nd.samples(3, seed=7), "seeded samples")
try:
    st.mean([])
except st.StatisticsError:
    pass
else:
    check(False, "mean([]) did not raise")

f = Fraction(3, 4) + Fraction(1, 6)
check(f == Fraction(11, 12) and (f.numerator, f.denominator) == (11, 12), "add")
check(Fraction("0.125") == Fraction(1, 8) and Fraction("-3/9") == Fraction(-1, 3), "parse")
check(Fraction(0.1) == Fraction(3602879701896397, 36028797018963968), "exact float")
check(Fraction(0.1).limit_denominator(100) == Fraction(1, 10), "limit_denominator")
check(Fraction(1, 3) ** 3 == Fraction(1, 27) and Fraction(9, 4) ** Fraction(1, 2) == 1.5, "pow")
check(sum(Fraction(1, n) for n in range(1, 11)) == Fraction(7381, 2520), "harmonic sum")
check(round(Fraction(7, 2)) == 4 and round(Fraction(5, 2)) == 2 and int(Fraction(-7, 2)) == -3, "round/int")
check(float(Fraction(1, 3)) == 1 / 3 and Fraction(1, 3) < 0.34 and Fraction(1, 3) > Fraction(33, 100), "compare")

nums = [5, 1, 8, 3, 9, 2, 7]
h = list(nums)
heapq.heapify(h)
check([heapq.heappop(h) for _ in range(len(nums))] == sorted(nums), "heapify/heappop")
check(heapq.nlargest(3, nums) == [9, 8, 7] and heapq.nsmallest(2, nums) == [1, 2], "nlargest/nsmallest")
check(list(heapq.merge([1, 4, 9], [2, 3, 10], [5])) == [1, 2, 3, 4, 5, 9, 10], "merge")
tasks = []
for prio, name in [(3, "low"), (1, "urgent"), (2, "normal"), (1, "also urgent")]:
    heapq.heappush(tasks, (prio, len(tasks), name))
check([heapq.heappop(tasks)[2] for _ in range(4)] == ["urgent", "also urgent", "normal", "low"], "priority queue")
h = [1, 5, 3]
heapq.heapify(h)
check(heapq.heapreplace(h, 4) == 1 and heapq.heappushpop(h, 0) == 0 and h[0] == 3, "heapreplace/pushpop")

grades = [60, 70, 80, 90]
check(["FDCBA"[bisect.bisect(grades, s)] for s in (33, 60, 77, 99)] == ["F", "D", "C", "A"], "bisect grades")
sl = []
for v in [5, 1, 4, 1, 5, 9, 2, 6]:
    bisect.insort(sl, v)
check(sl == [1, 1, 2, 4, 5, 5, 6, 9] and bisect.bisect_left(sl, 5) == 4 and bisect.bisect_right(sl, 5) == 6, "insort/bisect")
recs = [("a", 1), ("b", 3), ("c", 7)]
check(bisect.bisect_left(recs, 3, key=lambda r: r[1]) == 1, "bisect key=")

print(f"ok {NAME}")
