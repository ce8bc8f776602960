#!/usr/bin/env python3
"""Per mode, what one loop of launch_loop cost its main thread: loop_usage.py EACH.txt... [--base MODE] [--pair A-B]...

Each EACH.txt is overhead.sh's $OUT/each.txt ("MODE NAME_each V1 V2 ..." lines: loop, enqueue, user and
system time in ns, involuntary context switches, minor faults, and the main thread's user-space instructions
and cycles per loop, -1 where the machine has no such counter). Prints, per mode, the medians over
all its loops, then each mode's effect on the loop time against MODE (default cupti-floor) by a median
polish of the per-round fastest loops: a round's own speed (the lent machine drifts between rounds) is
taken out, and a slow loop (a spike) does not count. Then, on the same fastest loops, the median over rounds of
(mode / the same round's bare - 1), and for each --pair A-B the median over rounds of A - B, in ms and in
points of bare, with a bootstrap 95% interval and how many rounds A won. Several files pool their rounds;
the warm-up round (each file's first) is left out.
"""
import random
import statistics
import sys

from overhead_pool import read_lines, split_pair


def read_each(paths):
    """Per mode, NAME -> every value; and per round (one pass over the modes), mode -> fastest loop ms."""
    values, rounds = {}, []
    for path in paths:
        file_rounds, seen = [], {}
        for line in read_lines(path, "loop_usage.py"):
            parts = line.split()
            if len(parts) < 3 or not parts[1].endswith("_each"):
                continue
            mode, name, numbers = parts[0], parts[1], [int(x) for x in parts[2:]]
            values.setdefault(mode, {}).setdefault(name, []).extend(numbers)
            if name == "loop_ns_each":
                index = seen.get(mode, 0)
                seen[mode] = index + 1
                while len(file_rounds) <= index:
                    file_rounds.append({})
                file_rounds[index][mode] = min(numbers) / 1e6
        rounds.extend(file_rounds[1:])  # the first pass is overhead.sh's warm-up round
    return values, rounds


def polish(rounds, modes):
    """Mode effects (ms) of loop = round effect + mode effect, by medians, ten sweeps."""
    effect = {mode: 0.0 for mode in modes}
    round_effect = [0.0] * len(rounds)
    for _ in range(10):
        for i, row in enumerate(rounds):
            round_effect[i] = statistics.median(v - effect[m] for m, v in row.items() if m in effect)
        for mode in modes:
            effect[mode] = statistics.median(
                row[mode] - round_effect[i] for i, row in enumerate(rounds) if mode in row)
    return effect


def cell(numbers, scale):
    """The median of NUMBERS over SCALE, or "-" where there are none (-1: the machine had no such counter)."""
    known = [n for n in numbers or [] if n >= 0]
    return f"{statistics.median(known) / scale:11.1f}" if known else f"{'-':>11}"


def take_option(args, name):
    """The values of every NAME VALUE in ARGS, removed from it."""
    taken = []
    while name in args:
        at = args.index(name)
        if at + 1 >= len(args):
            sys.exit(f"loop_usage.py: {name} needs a value")
        taken.append(args[at + 1])
        del args[at:at + 2]
    return taken


def bootstrap_interval(values, draws=5000):
    """A 95% interval of the median of VALUES: medians of DRAWS resamples with replacement (seeded, so a
    rerun prints the same interval). Rounds differ by far more than modes do, so one median alone says
    little about whether a difference of a few points is real."""
    chooser = random.Random(1)
    medians = sorted(statistics.median(chooser.choices(values, k=len(values))) for _ in range(draws))
    return medians[int(0.025 * draws)], medians[int(0.975 * draws) - 1]


def print_pairs(rounds, pairs, modes):
    for pair in pairs:
        first, second = split_pair(pair, modes)
        both = [r for r in rounds if first in r and second in r and "bare" in r]
        if not both:
            print(f"  {pair}: no round has both")
            continue
        ms = statistics.median(r[first] - r[second] for r in both)
        points = [100 * (r[first] - r[second]) / r["bare"] for r in both]
        low, high = bootstrap_interval(points)
        faster = sum(p < 0 for p in points)
        print(f"  {first} - {second}: {ms:+.1f} ms, {statistics.median(points):+.1f} points of bare "
              f"(95% interval {low:+.1f}..{high:+.1f}; {first} faster in {faster} of {len(both)} rounds)")


def main():
    args = sys.argv[1:]
    bases = take_option(args, "--base")
    base = bases[-1] if bases else "cupti-floor"
    pairs = take_option(args, "--pair")
    if not args:
        sys.exit("usage: loop_usage.py EACH.txt... [--base MODE] [--pair A-B]...")
    values, rounds = read_each(args)
    if not values:
        sys.exit(f"loop_usage.py: no *_each lines in {', '.join(args)}")
    columns = [("loop_ns_each", "loop ms", 1e6), ("user_ns_each", "user ms", 1e6),
               ("system_ns_each", "system ms", 1e6), ("ivcsw_each", "preempted", 1), ("minflt_each", "faults", 1),
               ("instructions_each", "M instr", 1e6), ("cycles_each", "M cycles", 1e6)]
    print(f"  {'mode':<28}" + "".join(f"{title:>11}" for _, title, _ in columns) + "   (medians over every loop)")
    for mode, named in values.items():
        cells = "".join(cell(named.get(key), scale) for key, _, scale in columns)
        print(f"  {mode:<28}{cells}")
    with_bare = [r for r in rounds if "bare" in r]
    if with_bare:
        print(f"  per round, fastest loops, against the same round's bare ({len(with_bare)} rounds):")
        for mode in values:
            ratios = [100 * (r[mode] / r["bare"] - 1) for r in with_bare if mode in r]
            if mode != "bare" and ratios:
                print(f"  {mode:<28}{statistics.median(ratios):+8.1f}%")
    print_pairs(rounds, pairs, list(values))
    modes = [m for m in values if m != "bare" and all(m in r for r in rounds)]
    rows = [{m: r[m] for m in modes} for r in rounds]
    if base not in modes or not rows:
        return
    effect = polish(rows, modes)
    print(f"  loop time against {base}, {len(rows)} rounds (median polish of each round's fastest loop):")
    for mode in modes:
        print(f"  {mode:<28}{effect[mode] - effect[base]:+8.1f} ms")


if __name__ == "__main__":
    main()
