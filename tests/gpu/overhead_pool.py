#!/usr/bin/env python3
"""Pools the rounds of several overhead calls: overhead_pool.py WORKLOAD LOOPS.txt... [--pair A-B]...

Each LOOPS.txt is one call's "ROUND WORKLOAD MODE LOOP_NS" file (tests/gpu/overhead.sh's $OUT/loops.txt,
inside issue10_noise_call.sh's n.tgz as ov/loops.txt). One call's eight rounds cannot resolve a few points
between modes on a lent machine; the rounds of several calls together can. Prints, per mode, the number of
rounds that had it and the median over them of (mode / the same round's bare - 1); then, for each --pair
A-B, the median over the rounds that had both of A's loop time minus B's, in ms.
"""
import statistics
import sys


def read_lines(path, tool):
    """PATH's lines, or one sentence from TOOL and exit 1."""
    try:
        with open(path) as file:
            return file.read().splitlines()
    except OSError as error:
        sys.exit(f"{tool}: cannot read {path}: {error.strerror}")


def read_rounds(paths, workload):
    """One dict of mode -> loop ns per round of WORKLOAD, over all the files."""
    rounds = []
    for path in paths:
        by_round = {}
        for line in read_lines(path, "overhead_pool.py"):
            parts = line.split()
            if len(parts) == 4 and parts[1] == workload and parts[3].isdigit():
                by_round.setdefault(parts[0], {})[parts[2]] = int(parts[3])
        rounds.extend(by_round.values())
    return rounds


def split_pair(pair, modes):
    """A-B as (A, B). Mode names hold dashes too: split at the dash that leaves two known modes."""
    first, _, second = pair.partition("-")
    for at in [i for i, c in enumerate(pair) if c == "-"]:
        if pair[:at] in modes and pair[at + 1:] in modes:
            first, second = pair[:at], pair[at + 1:]
    return first, second


def main():
    args = sys.argv[1:]
    pairs = [args[i + 1] for i, arg in enumerate(args) if arg == "--pair" and i + 1 < len(args)]
    plain = [arg for i, arg in enumerate(args) if arg != "--pair" and (i == 0 or args[i - 1] != "--pair")]
    if len(plain) < 2:
        sys.exit("usage: overhead_pool.py WORKLOAD LOOPS.txt... [--pair A-B]...")
    workload, paths = plain[0], plain[1:]
    rounds = [r for r in read_rounds(paths, workload) if "bare" in r]
    if not rounds:
        sys.exit(f"overhead_pool.py: no round of {workload} with a bare run in {', '.join(paths)}")
    modes = []
    for r in rounds:
        modes.extend(m for m in r if m not in modes)
    print(f"{workload}: {len(rounds)} rounds from {len(paths)} files")
    print(f"  {'mode':<32}{'rounds':>7}{'per-round':>11}")
    for mode in modes:
        ratios = [r[mode] / r["bare"] - 1 for r in rounds if mode in r]
        print(f"  {mode:<32}{len(ratios):>7}{100 * statistics.median(ratios):>+10.1f}%")
    for pair in pairs:
        first, second = split_pair(pair, modes)
        both = [(r[first] - r[second]) / 1e6 for r in rounds if first in r and second in r]
        if not both:
            print(f"  {first} - {second}: no round has both")
            continue
        print(f"  {first} - {second}: {statistics.median(both):+.1f} ms over {len(both)} rounds")


if __name__ == "__main__":
    main()
