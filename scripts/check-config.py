#!/usr/bin/env python3
"""Check that a merged kernel .config has every option its fragments ask for.

usage: check-config.py .config FRAGMENT...

merge_config.sh and KCONFIG_ALLCONFIG drop options whose dependencies are
unmet without failing. For each option, the last value any fragment gives
wins (as in the merge); this prints each one the .config does not match and
exits 1 if there is any.
"""
import re
import sys

SET = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def parse(path):
    values = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            m = SET.match(line)
            if m:
                values[m.group(1)] = m.group(2)
                continue
            m = UNSET.match(line)
            if m:
                values[m.group(1)] = 'n'
    return values


def main():
    if sys.argv[1:] in (['-h'], ['--help']):
        print(__doc__.strip())
        return 0
    if len(sys.argv) < 3 or any(a.startswith('-') for a in sys.argv[1:]):
        print('check-config.py: usage: check-config.py .config FRAGMENT... (check-config.py --help)',
              file=sys.stderr)
        return 2
    try:
        final = parse(sys.argv[1])
        wanted = {}
        for frag in sys.argv[2:]:
            wanted.update(parse(frag))
    except (OSError, UnicodeDecodeError) as e:
        print(f'check-config.py: {e}', file=sys.stderr)
        return 2
    bad = 0
    for sym, want in sorted(wanted.items()):
        have = final.get(sym, 'n')
        if have != want:
            print(f'{sym}: asked for {want}, got {have}', file=sys.stderr)
            bad += 1
    print(f'config check: {len(wanted) - bad} of {len(wanted)} requested options set'
          + (f', {bad} missing' if bad else ''), file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
