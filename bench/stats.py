"""Distribution-free statistics for comparing two modes' runs.

Few runs, skewed and tied values (counts, percentages rounded by the
guest): nothing here assumes a normal distribution or a large sample.

- median(xs), median_ci(xs): the median and its confidence interval from
  order statistics (binomial, exact);
- mann_whitney(a, b): the two-sided Mann-Whitney U test with the exact
  permutation p-value, ties included (midranks);
- hodges_lehmann(a, b): the shift estimate, median of all a_i - b_j;
- compare(a, b): all of the above for two samples, with a verdict;
- fmt_ci(xs, digits): "median [lo-hi]" for the tables of bench/report;
- strip_plot(ax, groups, ylabel): every run as a point, the median and its
  confidence interval per group (matplotlib is imported only there).

Standard library only. bench/test_stats.py tests it:

    python3 -m unittest bench/test_stats.py
"""
import math
import statistics
from fractions import Fraction


def median(xs):
    """the median of xs (statistics.median; the mean of the middle two
    values when len(xs) is even)"""
    return statistics.median(xs)


def _binom_cdf_half(n, j):
    """P(Binomial(n, 1/2) <= j), exact"""
    return Fraction(sum(math.comb(n, i) for i in range(j + 1)), 2 ** n)


def median_ci(xs, conf=0.95):
    """(lo, hi, coverage): the distribution-free confidence interval of the
    median from order statistics.

    With the n values sorted, k is the largest k >= 1 such that
    P(Binomial(n, 1/2) <= k - 1) <= (1 - conf) / 2; the interval is
    [x_(k), x_(n-k+1)] (1-indexed) and its coverage, the probability that
    it holds the population median for any continuous distribution, is
    1 - 2 P(Binomial(n, 1/2) <= k - 1) >= conf (exact, as a float).

    When no k qualifies (n too small: n < 6 for conf=0.95, n < 8 for
    0.99), the interval is [min, max] and the coverage returned is that
    of [min, max], 1 - 2 / 2**n, which is below conf: the caller should
    look at it (0.9375 for n=5, 0 for n=1). Raises
    statistics.StatisticsError for no values.
    """
    s = sorted(xs)
    n = len(s)
    if not n:
        raise statistics.StatisticsError("median_ci of no values")
    if not 0 < conf < 1:
        raise ValueError(f"median_ci: conf={conf} is not in (0, 1)")
    # str() gives 0.95 its decimal meaning, not the nearest binary float
    tail = (1 - Fraction(str(conf))) / 2
    k = 1
    # P(Bin <= k - 1) grows with k and passes 1/2 before k - 1 reaches
    # n / 2, so x_(k) stays at or below x_(n-k+1)
    while _binom_cdf_half(n, k) <= tail:
        k += 1
    return s[k - 1], s[n - k], float(1 - 2 * _binom_cdf_half(n, k - 1))


def _doubled_midranks(pooled):
    """twice the midrank (1-indexed) of every value of pooled, in its
    order: integers, since a tie group at sorted positions i..j (1-indexed)
    has the midrank (i + j) / 2"""
    order = sorted(range(len(pooled)), key=lambda i: pooled[i])
    ranks = [0] * len(pooled)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pooled[order[j + 1]] == pooled[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + 1) + (j + 1)
        i = j + 1
    return ranks


def _subset_sum_counts(values, m):
    """{s: number of the C(len(values), m) subsets of size m whose values
    (non-negative integers) add up to s}.

    Dynamic programming over (subset size, sum): the counts of each size
    are the coefficients of a polynomial in the sum, packed into one
    Python integer with a byte-aligned slot per sum (a count is below
    2**len(values), so a slot of len(values) + 1 bits never carries), and
    one value adds poly[j - 1] shifted by that value's slots to poly[j].
    That is a few thousand big-integer shifts and additions for 60 + 60
    values instead of some 10**8 steps of Python.
    """
    n = len(values)
    width = (n + 1 + 7) // 8  # bytes per slot
    bits = 8 * width
    poly = [1] + [0] * m  # poly[j]: the subsets of size j of the values so far
    for i, v in enumerate(values, 1):
        # a subset of size j needs j <= i, and m - j more of the n - i left
        for j in range(min(i, m), max(1, m - (n - i)) - 1, -1):
            if poly[j - 1]:
                poly[j] += poly[j - 1] << (v * bits)
    raw = poly[m].to_bytes((poly[m].bit_length() + 7) // 8 + width, "little")
    counts = {}
    for s in range(len(raw) // width):
        c = int.from_bytes(raw[s * width:(s + 1) * width], "little")
        if c:
            counts[s] = c
    return counts


def mann_whitney(a, b):
    """(U, p): the two-sided Mann-Whitney U test of a against b, with the
    exact permutation p-value, ties included.

    The pooled values get midranks; R is the rank sum of a's m values and
    U = R - m (m + 1) / 2 (a half-integer with ties; U = m n / 2 when
    neither sample tends to be larger, U > m n / 2 when a's values tend
    to be the larger ones). Under the null hypothesis every choice of m
    of the m + n pooled positions for a is equally likely; p is the share
    of those C(m + n, m) choices whose rank sum is at least as far from
    its mean E[R] = m (m + n + 1) / 2 as the observed one:
    P(|R - E[R]| >= |r_obs - E[R]|). Counted exactly by dynamic
    programming over doubled midranks (all integers, so no tolerance is
    needed); fast for m, n up to 60 and more. All values identical gives
    p = 1. Raises ValueError when a or b is empty.
    """
    m, n = len(a), len(b)
    if not m or not n:
        raise ValueError("mann_whitney: both samples need values")
    pooled = list(a) + list(b)
    ranks2 = _doubled_midranks(pooled)
    r2 = sum(ranks2[:m])
    u = r2 / 2 - m * (m + 1) / 2
    if len(set(pooled)) == 1:
        return u, 1.0
    # |R_b - E[R_b]| = |R_a - E[R_a]|: count the smaller sample's subsets
    k, obs = (m, r2) if m <= n else (n, sum(ranks2[m:]))
    mean2 = k * (m + n + 1)  # 2 E[R] of k values
    dist = abs(obs - mean2)
    counts = _subset_sum_counts(ranks2, k)
    tail = sum(c for s, c in counts.items() if abs(s - mean2) >= dist)
    return u, min(1.0, tail / math.comb(m + n, k))


def hodges_lehmann(a, b):
    """the Hodges-Lehmann estimate of the shift of a against b: the median
    of all len(a) * len(b) differences a_i - b_j (positive when a's values
    tend to be the larger ones)"""
    return statistics.median([x - y for x in a for y in b])


def compare(a, b, alpha=0.05):
    """a dict comparing samples a and b:

    n_a, n_b: the numbers of values; median_a, median_b; ci_a, ci_b: the
    (lo, hi, coverage) of median_ci at 95 %; ratio: median_a / median_b,
    None when median_b is 0; shift: hodges_lehmann(a, b); U, p:
    mann_whitney(a, b); verdict: "a > b" or "a < b" when p < alpha, in
    the direction of the shift (of the medians when the shift is 0, of U
    against m n / 2 when they are equal too), else "not distinguishable".
    """
    med_a, med_b = median(a), median(b)
    u, p = mann_whitney(a, b)
    shift = hodges_lehmann(a, b)
    verdict = "not distinguishable"
    if p < alpha:
        for d in (shift, med_a - med_b, u - len(a) * len(b) / 2):
            if d:
                verdict = "a > b" if d > 0 else "a < b"
                break
    return {
        "n_a": len(a),
        "n_b": len(b),
        "median_a": med_a,
        "median_b": med_b,
        "ci_a": median_ci(a),
        "ci_b": median_ci(b),
        "ratio": med_a / med_b if med_b else None,
        "shift": shift,
        "U": u,
        "p": p,
        "verdict": verdict,
    }


def fmt_ci(xs, digits=1):
    """"median [lo-hi]" of xs for a table cell, with the 95 % interval of
    median_ci: "7 [6-7]"; without decimals when the three numbers are
    integral, else with digits decimals: "6.5 [5.0-8.0]" """
    lo, hi, _ = median_ci(xs)
    vals = [median(xs), lo, hi]
    if all(float(v).is_integer() for v in vals):
        text = [f"{v:.0f}" for v in vals]
    else:
        text = [f"{v:.{digits}f}" for v in vals]
    return f"{text[0]} [{text[1]}-{text[2]}]"


def _jitter(i, spread=0.28):
    """a deterministic horizontal offset in [-spread, spread) for the i-th
    value of a group: the golden-ratio sequence, evenly spread for any
    count"""
    return spread * (2 * ((i * 0.6180339887498949) % 1.0) - 1)


def strip_plot(ax, groups, ylabel, title=None, legend=False):
    """draw groups on the matplotlib axes ax and return ax.

    groups is an ordered list of (label, values, color); group i sits at
    x = i: every value as a point with a dark edge (deterministic
    horizontal jitter), a wide thick bar at the median (lighter than the
    points, so that a point on it shows) and a black whisker with caps
    for the 95 % interval of median_ci (for fewer than 6 values that is
    [min, max], with a lower coverage). The x tick labels are the labels
    with "(n=N)" below; ylabel (with its units) labels the y axis. With
    legend=True there is also a legend with a handle "label, n = N" per
    group. Fonts of 9 points and more: legible at 900x500 px (figsize
    (9, 5), dpi 100).
    """
    groups = [(label, list(values), col) for label, values, col in groups]
    for i, (label, values, col) in enumerate(groups):
        if not values:
            continue
        # a dark edge keeps a run that sits on the median visible over its bar
        ax.scatter([i + _jitter(j) for j in range(len(values))], values, s=26,
                   color=col, alpha=0.85, edgecolors="black", linewidths=0.6, zorder=4,
                   label=f"{label}, n = {len(values)}" if legend else None)
        med = median(values)
        lo, hi, _ = median_ci(values)
        ax.hlines(med, i - 0.34, i + 0.34, colors=col, linewidth=4, alpha=0.6, zorder=3)
        ax.errorbar([i], [med], yerr=[[med - lo], [hi - med]], fmt="none",
                    ecolor="black", elinewidth=1.5, capsize=7, capthick=1.5, zorder=5)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([f"{label}\n(n={len(values)})" for label, values, _ in groups],
                       fontsize=10)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.tick_params(axis="y", labelsize=9)
    ax.set_ylabel(ylabel, fontsize=10)
    ax.yaxis.grid(True, alpha=0.3)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title, fontsize=11)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=9)
    return ax
