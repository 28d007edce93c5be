#!/usr/bin/env python3
"""Compare two object files function by function.

usage: objcmp.py BASE.o NEW.o [FUNCTION...]

Disassembles both with objdump -d -r, drops addresses and normalises jump
and call targets to symbol+offset, then says which functions have the same
instructions and which differ; for each FUNCTION named, prints a diff.
"""
import re
import subprocess
import sys
def funcs(path):
    out = subprocess.run(['objdump','-d','--no-show-raw-insn','-r',path],capture_output=True,text=True).stdout
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


a = funcs(sys.argv[1])
b = funcs(sys.argv[2])
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
if len(sys.argv) > 3:
    import difflib
    for f in sys.argv[3:]:
        print('=====', f)
        for l in difflib.unified_diff(a[f], b[f], lineterm='', n=1):
            print(l)
