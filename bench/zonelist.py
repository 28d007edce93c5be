#!/usr/bin/python3
"""The zonelist cache's remote fallback, in a guest with two nodes: node 0's
free memory is left in single pages (test_highatomic takes every free page
of node 0, watermarks ignored, then frees every lower buddy, so that
nothing of order 1 or more is free there), then a task on node 0 asks, in rounds GAP_MS apart, for one
page of order LEAD and BATCH pages of order 0, all preferring node 0 and
allowed everywhere (GFP_NOWAIT), until it asked for FILL_PCT percent of
what node 0's DMA32 and Normal had free above their high watermarks: that
much fits in node 0 without taking any zone below a watermark, so every
order-0 page could be local. The order-LEAD requests fail on node 0 and
are served from node 1. Prints "local=L remote=R target=T lead_remote=X
lead_fail=Y rounds=N".

    zonelist.py FILL_PCT BATCH LEAD GAP_MS
"""
import os
import re
import sys
import time

CTL = "/sys/kernel/debug/test_highatomic/ctl"


def cmd(fd, text):
    os.write(fd, text.encode())


def report(fd):
    return os.pread(fd, 1 << 20, 0).decode()


def held_per_node(text):
    nodes = {}
    for m in re.finditer(r"^node=(\d+) zone=\S+ mt=\d+ pages=(\d+)$", text, re.M):
        nodes[int(m.group(1))] = nodes.get(int(m.group(1)), 0) + int(m.group(2))
    return nodes


def room_node0():
    """pages free above the high watermark in node 0's DMA32 and Normal"""
    room, zone = 0, None
    with open("/proc/zoneinfo", encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"^Node (\d+), zone\s+(\S+)\n(.*?)(?=^Node |\Z)", text, re.M | re.S):
        nid, zone, body = int(m.group(1)), m.group(2), m.group(3)
        if nid != 0 or zone not in ("DMA32", "Normal"):
            continue
        free = int(re.search(r"pages free\s+(\d+)", body).group(1))
        high = int(re.search(r"^\s+high\s+(\d+)", body, re.M).group(1))
        room += max(0, free - high)
    return room


def main():
    if len(sys.argv) != 5 or not all(a.isdigit() for a in sys.argv[1:]):
        sys.exit("usage: zonelist.py FILL_PCT BATCH LEAD GAP_MS (non-negative integers)")
    fill_pct, batch, lead, gap_ms = map(int, sys.argv[1:])
    frag = os.open(CTL, os.O_RDWR)
    cmd(frag, "alloc order=0 count=1048576 gfp=MOVABLE|MEMALLOC|THISNODE|NOWARN node=0 stop=1")
    cmd(frag, "free_lower")
    target = room_node0() * fill_pct // 100
    meas = os.open(CTL, os.O_RDWR)
    lead_remote = lead_fail = rounds = 0
    while rounds * batch < target:
        rounds += 1
        cmd(meas, f"alloc order=0 count={batch} gfp=KSWAPD_RECLAIM|NOWARN node=0 lead={lead}")
        text = report(meas)
        m = re.search(r"^lead=(ok node=(\d+)|fail)$", text, re.M)
        if m and m.group(1) == "fail":
            lead_fail += 1
        elif m and int(m.group(2)) != 0:
            lead_remote += 1
        time.sleep(gap_ms / 1000)
    nodes = held_per_node(report(meas))
    local = nodes.get(0, 0)
    remote = sum(v for k, v in nodes.items() if k != 0)
    print(f"local={local} remote={remote} target={target} lead_remote={lead_remote} "
          f"lead_fail={lead_fail} rounds={rounds}")
    os.close(meas)
    os.close(frag)


if __name__ == "__main__":
    main()
