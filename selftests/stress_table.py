#!/usr/bin/env python3
"""Tabulate repeated runs of the highatomic tests (selftests/stress).

usage: stress_table.py --runs N MODE[/RUNS]=OUTPUT [MODE[/RUNS]=OUTPUT ...]

(RUNS: that output's number of runs, if not N)

Each OUTPUT holds N runs of test_highatomic.sh, each between
"=== stress run I of N" and "=== stress exit RC". For every test and mode
it counts passes, failures and skips, and the rounds the test retried
because its precondition did not hold at the probe: a test logs
"precondition held on try K of T" for each probe, so K - 1 rounds were
retried. A run that printed no result for a test counts as a failure of
that test; a run whose wrapper exited non-zero with every test passing
(free memory not back after unloading, say) counts as a failure of
"test_highatomic.sh", every other run as a pass of it. The last line is 'N passed, N failed, N skipped'.
Exit status: 0 if nothing failed, 1 otherwise, 2 on bad usage.
"""
import argparse
import re
import sys
from collections import OrderedDict

RUN = re.compile(r'^=== stress run (\d+) of (\d+)$')
EXIT = re.compile(r'^=== stress exit (\d+)$')
RESULT = re.compile(r'^(ok|not ok) \d+ highatomic\.(\w+)(?: # (SKIP)\b(.*))?$')
RUNNING = re.compile(r'^#\s+RUN\s+highatomic\.(\w+)')
TRIES = re.compile(r'precondition held on try (\d+) of (\d+)')
NEVER = re.compile(r'precondition never held')
WRAPPER = 'test_highatomic.sh'


def parse(path, runs):
    """{test: {pass, fail, skip, retried, most, never}} and notes"""
    tests = OrderedDict()
    notes = []
    seen_runs = 0

    def row(name):
        return tests.setdefault(name, dict(pass_=0, fail=0, skip=0, retried=0,
                                           most=0, never=0))
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError as e:
        notes.append(f'cannot read {path}: {e}')
        lines = []
    run_results = {}
    current = None
    in_run = False
    for line in lines:
        line = line.rstrip('\r')
        m = RUN.match(line)
        if m:
            in_run = True
            seen_runs += 1
            run_results = {}
            continue
        m = EXIT.match(line)
        if m and in_run:
            in_run = False
            rc = int(m.group(1))
            bad = [t for t, r in run_results.items() if r == 'fail']
            # The wrapper's own checks (free memory back, the module
            # unloaded): a non-zero exit that no failed test explains
            w = row(WRAPPER)
            if rc != 0 and not bad:
                w['fail'] += 1
                notes.append(f'run {seen_runs}: {WRAPPER} exited {rc} with no failed test')
            else:
                w['pass_'] += 1
            for t in list(tests):
                if t != WRAPPER and t not in run_results and seen_runs > 1:
                    tests[t]['fail'] += 1
                    notes.append(f'run {seen_runs}: no result for {t}')
            continue
        if not in_run:
            continue
        m = RUNNING.match(line)
        if m:
            current = m.group(1)
            row(current)
            continue
        m = TRIES.search(line)
        if m and current:
            k = int(m.group(1))
            r = row(current)
            r['retried'] += k - 1
            r['most'] = max(r['most'], k)
            continue
        if NEVER.search(line) and current:
            row(current)['never'] += 1
            continue
        m = RESULT.match(line)
        if m:
            name = m.group(2)
            r = row(name)
            if m.group(3):
                r['skip'] += 1
                run_results[name] = 'skip'
            elif m.group(1) == 'ok':
                r['pass_'] += 1
                run_results[name] = 'pass'
            else:
                r['fail'] += 1
                run_results[name] = 'fail'
            current = None
    if in_run:
        notes.append(f'run {seen_runs} did not finish (the guest stopped)')
        row(WRAPPER)['fail'] += 1
    if seen_runs < runs:
        notes.append(f'{seen_runs} of {runs} runs started')
        row(WRAPPER)['fail'] += runs - seen_runs
    return tests, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--runs', type=int, required=True)
    ap.add_argument('outputs', nargs='+', metavar='MODE=OUTPUT')
    args = ap.parse_args()
    if args.runs < 1:
        ap.error('--runs must be positive')
    modes = []
    for spec in args.outputs:
        mode, sep, path = spec.partition('=')
        if not sep or not mode or not path:
            ap.error(f'{spec!r} is not MODE[/RUNS]=OUTPUT')
        mode, slash, runs = mode.partition('/')
        if slash and (not runs.isdigit() or int(runs) < 1):
            ap.error(f'{spec!r}: RUNS must be a positive number')
        modes.append((mode, path, int(runs) if slash else args.runs))

    total = dict(pass_=0, fail=0, skip=0)
    print(f'| test | mode | pass | fail | skip | rounds retried | most tries | never held |')
    print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    all_notes = []
    for mode, path, runs in modes:
        tests, notes = parse(path, runs)
        for name, r in tests.items():
            most = str(r['most']) if r['most'] else '-'
            print(f"| {name} | {mode} | {r['pass_']} | {r['fail']} | {r['skip']} | "
                  f"{r['retried']} | {most} | {r['never']} |")
            for k in total:
                total[k] += r[k]
        all_notes += [f'mode {mode}: {n}' for n in notes]
    for n in all_notes:
        print(n)
    print(f"{total['pass_']} passed, {total['fail']} failed, {total['skip']} skipped")
    return 1 if total['fail'] or not total['pass_'] else 0


if __name__ == '__main__':
    sys.exit(main())
