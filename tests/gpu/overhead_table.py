#!/usr/bin/env python3
"""The table of tests/gpu/overhead.sh: overhead_table.py LOOPS.txt MODE...

LOOPS.txt holds "ROUND WORKLOAD MODE LOOP_NS" lines. Per workload and mode: the median loop time (bare's
in ms, the others as +% over bare's median), the median over rounds of (mode / the same round's bare - 1),
and the range of those per-round ratios.
"""
import statistics
import sys


def main():
    path, modes = sys.argv[1], sys.argv[2:]
    runs = {}
    for line in open(path):
        parts = line.split()
        if len(parts) == 4 and parts[3].isdigit():
            runs.setdefault(parts[1], {}).setdefault(parts[2], {})[int(parts[0])] = int(parts[3])
    for name in sorted(runs):
        by_mode = runs[name]
        bare = by_mode.get("bare", {})
        bare_median = statistics.median(bare.values()) if bare else 0
        print(f"{name}: {len(bare)} rounds; bare median {bare_median / 1e6:.1f} ms "
              f"(min {min(bare.values(), default=0) / 1e6:.1f}, max {max(bare.values(), default=0) / 1e6:.1f})")
        print(f"  {'mode':<44}{'median':>10}{'vs bare':>10}{'per-round':>11}{'round range':>20}")
        for mode in modes:
            got = by_mode.get(mode)
            if not got:
                continue
            median = statistics.median(got.values())
            ratios = [got[r] / bare[r] - 1 for r in got if r in bare and bare[r]]
            per_round = f"{statistics.median(ratios) * 100:+.1f}%" if ratios else "-"
            spread = f"{min(ratios) * 100:+.0f}..{max(ratios) * 100:+.0f}%" if ratios else "-"
            versus = f"{(median / bare_median - 1) * 100:+.1f}%" if bare_median and mode != "bare" else "-"
            print(f"  {mode:<44}{median / 1e6:>8.1f}ms{versus:>10}{per_round:>11}{spread:>20}")


if __name__ == "__main__":
    main()
