#!/usr/bin/env python3
"""Read what `make kselftest TARGETS=mm` printed in a guest and say what passed.

usage: ktap_summary.py OUTPUT [--json FILE] [--label TEXT] [--failures FILE]

make kselftest exits 0 whatever the tests did, so the verdict has to come from
its output: the kselftest runner's KTAP lines (one per program it runs; for mm
that is run_vmtests.sh) and, nested in them with a "# " prefix, the KTAP lines
run_vmtests.sh prints for every test it runs. Each test is counted once:
passed, failed, or skipped with the reason the test printed before [SKIP].
A runner-level failure with no failing test under it (a timeout, a crash of
run_vmtests.sh itself) and a run that never printed its plan count as a
failure of their own, so that nothing is lost.

Prints one line per test and a closing 'N passed, N failed, N skipped'.
--failures writes only the failures, each with its failing subtests and the
last lines it printed that say why (assertions, "Fail", "not ok"), so that a
log cut in the middle (CI keeps its head and its tail) still names them.
Exit status: 0 if nothing failed, 1 otherwise, 2 on bad usage.
"""
import argparse
import json
import re
import sys

OUTER = re.compile(r'^(ok|not ok) (\d+) selftests: (\S+): (\S+)(?: # (.*))?$')
INNER = re.compile(r'^# (ok|not ok) (\d+) (.*?)(?: # (SKIP|exit=\d+|TIMEOUT)(.*))?$')
# KTAP of a harness program run by run_vmtests.sh: listed under its test
NESTED = re.compile(r'^# # (ok|not ok) \d+ (\S+)(?: # (.*))?$')
NOISE = re.compile(r'^[-=]*$|^\[(SKIP|PASS|FAIL)\]$|^running ')
# "... \x1b[31mFail\x1b[0m": a check that failed, as khugepaged prints it
FAILED_CHECK = re.compile(r'(?:\x1b\[[0-9;]*m|\b)Fail(?:ed)?\b')
# Lines that say why a test failed: harness assertions, kselftest's
# "not ok", and the "Fail"/"error" lines of the older tests
EVIDENCE = re.compile(r'Expected|not ok|FAIL|Fail|[Ee]rror|[Tt]imed? ?out')
# kselftest_harness: "file.c:123:test_name:Expected a (1) == b (2)"
ASSERTION = re.compile(r'\.c:\d+:\w+:Expected ')
# the runner's own verdicts and totals: they say that, not why
EVIDENCE_NOISE = re.compile(r'^(#\s*)*(\[FAIL\]|FAIL\b|FAILED:|Totals:|ok |not ok |\w+: Test failed)')
EVIDENCE_LINES = 8


def skip_reason(lines):
    """The last line a test printed before [SKIP], as its reason."""
    for line in reversed(lines):
        text = line.strip()
        if text and not NOISE.match(text):
            return text
    return 'no reason printed'


def evidence(context):
    """The lines of a failed test that say why, each with the line before it
    (a harness test prints its measurement, then "Expected ..."). Harness
    assertions first; else the older tests' "Fail"/"error" lines."""
    lines = [c.strip() for c in context]
    for pattern in (ASSERTION, EVIDENCE):
        keep = set()
        for i, line in enumerate(lines):
            if pattern.search(line) and not EVIDENCE_NOISE.match(line):
                keep.update((i - 1, i) if i else (i,))
        found = [lines[i] for i in sorted(keep) if lines[i]]
        if found:
            return found[-EVIDENCE_LINES:]
    # Nothing says why: the last lines it printed
    quiet = [line for line in lines if line and not EVIDENCE_NOISE.match(line)
             and not NOISE.match(line)]
    return quiet[-3:]


def parse(stream):
    tests, outer, context, nested = [], [], [], []
    planned = False
    for raw in stream:
        line = raw.rstrip('\n')
        m = OUTER.match(line)
        if m:
            outer.append({'name': f'{m.group(3)}:{m.group(4)}',
                          'ok': m.group(1) == 'ok',
                          'directive': (m.group(5) or '').strip()})
            continue
        m = NESTED.match(line)
        if m:
            directive = m.group(3) or ''
            result = ('fail' if m.group(1) == 'not ok' else
                      'skip' if directive.startswith('SKIP') else 'pass')
            nested.append({'name': m.group(2), 'result': result,
                           'line': f"{m.group(1)} {m.group(2)}" +
                                   (f" # {directive}" if directive else '')})
        m = INNER.match(line)
        if m:
            status, _, name, directive, rest = m.groups()
            if status == 'ok' and directive == 'SKIP':
                tests.append({'name': name, 'result': 'skip',
                              'reason': skip_reason(context)})
                # khugepaged exits with its count of failed checks: four
                # failures read as KSFT_SKIP (4).
                failed = [c for c in context if FAILED_CHECK.search(c)]
                if failed:
                    tests[-1]['failed_checks'] = len(failed)
            elif status == 'ok':
                tests.append({'name': name, 'result': 'pass'})
            else:
                why = ((directive or '') + (rest or '')).strip()
                tests.append({'name': name, 'result': 'fail',
                              'reason': why or 'not ok'})
                tests[-1]['evidence'] = evidence(context)
            if nested:
                tests[-1]['subtests'] = nested
            context, nested = [], []
            continue
        if re.match(r'^# 1\.\.\d+$', line):
            planned = True
        if line.startswith('# # '):
            context.append(line[4:])
        elif line.startswith('# '):
            context.append(line[2:])
    for o in outer:
        failed_inside = any(t['result'] == 'fail' for t in tests)
        if not o['ok'] and not failed_inside:
            tests.append({'name': o['name'], 'result': 'fail',
                          'reason': o['directive'] or 'runner reported not ok'})
    if not outer:
        tests.append({'name': 'kselftest', 'result': 'fail',
                      'reason': 'no kselftest result line: the run did not finish'})
    elif not planned:
        tests.append({'name': 'run_vmtests.sh', 'result': 'fail',
                      'reason': 'no test plan (1..N): run_vmtests.sh did not finish'})
    return tests


def failures_text(tests, label):
    """Each failed test, its not-ok subtests and the lines that say why."""
    out = []
    for t in tests:
        if t['result'] != 'fail':
            continue
        out.append(f"{label}FAIL {t['name']}: {t['reason']}\n")
        for sub in t.get('subtests', []):
            if sub['result'] == 'fail':
                out.append(f"    {sub['line']}\n")
        for line in t.get('evidence', []):
            out.append(f"    | {line}\n")
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('output')
    ap.add_argument('--json', help='write the results here as JSON')
    ap.add_argument('--label', default='', help='prefix for the summary line')
    ap.add_argument('--failures', help='write the failures and why to this file')
    args = ap.parse_args()
    try:
        with open(args.output, encoding='utf-8', errors='replace') as f:
            tests = parse(f)
    except OSError as e:
        print(f'ktap_summary: {e}', file=sys.stderr)
        return 2
    counts = {r: sum(t['result'] == r for t in tests) for r in ('pass', 'fail', 'skip')}
    hidden = []
    for t in tests:
        extra = f": {t['reason']}" if 'reason' in t else ''
        print(f"  {t['result'].upper():4} {t['name']}{extra}")
        for sub in t.get('subtests', []):
            print(f"         {sub['line']}")
            if t['result'] == 'pass' and sub['result'] == 'fail':
                hidden.append(f"{t['name']}: {sub['name']}")
    # A wrapper script that exits 0 whatever its program reported (the
    # base's test_hmm.sh does) passes with failing subtests: say so.
    for h in hidden:
        print(f"  NOTE not ok under a passing test: {h}")
    for t in tests:
        if t.get('failed_checks'):
            print(f"  NOTE skipped, but printed {t['failed_checks']} failed checks: {t['name']}")
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump({'tests': tests, 'counts': counts}, f, indent=1)
    label = f'{args.label}: ' if args.label else ''
    if args.failures:
        with open(args.failures, 'w', encoding='utf-8') as f:
            f.write(failures_text(tests, label))
    print(f"{label}{counts['pass']} passed, {counts['fail']} failed, "
          f"{counts['skip']} skipped")
    return 1 if counts['fail'] else 0


if __name__ == '__main__':
    sys.exit(main())
