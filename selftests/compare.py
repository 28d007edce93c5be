#!/usr/bin/env python3
"""Compare the mm selftest results of several modes, test by test.

usage: compare.py RESULTS_DIR...   (e.g. build/results/base build/results/y)

Each RESULTS_DIR holds the results.json that selftests/run wrote for one mode
(its name is the mode). For every mode: the tests run_vmtests.sh ran
(passed, failed, skipped) and the subtests of the harness programs among them
(ok, not ok, skipped). Then every test or subtest whose result is not the
same in all modes that ran it, and the tests only some modes ran (the
series' own category, say).

Exit status: 0 if the modes agree on every test they all ran, 1 if not,
2 on bad usage or unreadable results.
"""
import json
import os
import sys


def load(path):
    with open(os.path.join(path, 'results.json'), encoding='utf-8') as f:
        data = json.load(f)
    results = {}
    for t in data['tests']:
        results[t['name']] = t['result']
        for sub in t.get('subtests', []):
            results[f"{t['name']} / {sub['name']}"] = sub['result']
    return results


def counts(results, sub):
    picked = [r for k, r in results.items() if (' / ' in k) == sub]
    return tuple(picked.count(r) for r in ('pass', 'fail', 'skip'))


def main():
    dirs = sys.argv[1:]
    if dirs in (['-h'], ['--help']):
        print(__doc__.strip())
        return 0
    if len(dirs) < 2 or any(d.startswith('-') for d in dirs):
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    modes = [os.path.basename(os.path.normpath(d)) for d in dirs]
    try:
        res = {m: load(d) for m, d in zip(modes, dirs)}
    except (OSError, ValueError, KeyError) as e:
        print(f'compare.py: cannot read results: {e}', file=sys.stderr)
        return 2

    for m in modes:
        t, s = counts(res[m], False), counts(res[m], True)
        print(f'{m}: tests {t[0]} passed, {t[1]} failed, {t[2]} skipped; '
              f'their subtests {s[0]} ok, {s[1]} not ok, {s[2]} skipped')

    names = sorted(set().union(*res.values()))
    differ, partial = [], []
    for n in names:
        have = [m for m in modes if n in res[m]]
        if len(have) < len(modes):
            if ' / ' not in n:
                partial.append((n, have))
            continue
        if len({res[m][n] for m in modes}) > 1:
            differ.append(n)
    print()
    if differ:
        print('results that differ between modes:')
        for n in differ:
            print('  ' + n + ': ' + ', '.join(f'{m} {res[m][n]}' for m in modes))
    else:
        print(f'every test and subtest that all of {", ".join(modes)} ran has the same result')
    for n, have in partial:
        print(f"  only in {' '.join(have)}: {n} " +
              ', '.join(f'{m} {res[m][n]}' for m in have))
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
