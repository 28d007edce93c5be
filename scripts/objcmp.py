#!/usr/bin/env python3
"""Compare two object files function by function.

usage: objcmp.py BASE.o NEW.o [FUNCTION...]

Disassembles both with objdump -d -r, drops addresses and normalises jump
and call targets to symbol+offset, then says which functions have the same
instructions and which differ; for each FUNCTION named, prints a diff.
"""
import argparse
import os
import re
import subprocess
import sys


class OneLineParser(argparse.ArgumentParser):
    """Wrong arguments: one line that says why, exit status 2."""

    def error(self, message):
        self.exit(2, f'objcmp.py: {message} (objcmp.py --help)\n')


def fail(message):
    """A file it cannot compare: one line, exit status 1."""
    print(f'objcmp.py: {message}', file=sys.stderr)
    sys.exit(1)


def funcs(path):
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        fail(f'{path}: no such readable file')
    try:
        proc = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-r', path],
                              capture_output=True, text=True, check=False)
    except OSError as e:
        fail(f'cannot run objdump: {e} (binutils)')
    if proc.returncode != 0:
        why = proc.stderr.strip().splitlines()
        if why:
            fail(f'objdump cannot read {path}: {why[-1]}')
        empty = ' (an empty file)' if os.path.getsize(path) == 0 else ''
        fail(f'objdump cannot read {path}{empty}: exit {proc.returncode}')
    out = proc.stdout
    fs={}; cur=None
    for line in out.splitlines():
        m=re.match(r'^[0-9a-f]+ <(.+)>:$', line)
        if m: cur=m.group(1); fs[cur]=[]; continue
        if cur is None or not line.strip(): continue
        m=re.match(r'^\s*[0-9a-f]+:\s*(.*)$', line)
        if not m: continue
        ins=m.group(1)
        ins=re.sub(r'\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>', r'<\1\2>', ins)  # jump targets: keep symbol+offset
        ins=re.sub(r'\s+', ' ', ins).strip()
        fs[cur].append(ins)
    return fs
UNIQUE_ID = re.compile(r'(__UNIQUE_ID_\w*?)\d+\b')
SECTION_REL = re.compile(r'(\.(?:rodata|data|bss|text)[.\w]*)([+-]0x[0-9a-f]+)?')


def no_addends(insns):
    """Section-relative relocations without their offsets, and
    __UNIQUE_ID counters: where a string or a static object landed in its
    section, not what the code does."""
    return [UNIQUE_ID.sub(r'\1N', SECTION_REL.sub(r'\1+?', i)) for i in insns]


ap = OneLineParser(prog='objcmp.py', usage='%(prog)s [-h] BASE.o NEW.o [FUNCTION...]',
                  description=__doc__.split('\n\n', 2)[2].strip(),
                  formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('objects', metavar='BASE.o NEW.o [FUNCTION...]', nargs='*',
                help='the objects of the base and of the series, then the functions '
                     'whose differences to print')
args = ap.parse_args()
if len(args.objects) < 2:
    ap.error('needs two object files, BASE.o and NEW.o')
args.base, args.new, args.functions = args.objects[0], args.objects[1], args.objects[2:]
a = funcs(args.base)
b = funcs(args.new)
missing = [f for f in args.functions if f not in a and f not in b]
if missing:
    fail(f'no function {", ".join(missing)} in {args.base} or {args.new}')
same = moved = diff = 0
for f in sorted(set(a) | set(b)):
    if f not in b:
        print('only in base:', f)
        continue
    if f not in a:
        print('only in new:', f)
        continue
    if a[f] == b[f]:
        same += 1
    elif no_addends(a[f]) == no_addends(b[f]):
        moved += 1
    else:
        diff += 1
        print(f'differs: {f} ({len(a[f])} vs {len(b[f])} insns)')
print(f'{same} functions identical, {moved} identical but for section offsets '
      f'(strings, static objects), {diff} differ')
if args.functions:
    import difflib
    for f in args.functions:
        print('=====', f)
        for l in difflib.unified_diff(a.get(f, []), b.get(f, []), lineterm='', n=1):
            print(l)
