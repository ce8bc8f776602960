#!/usr/bin/env python3
"""Per mode, what one loop of launch_loop cost its main thread: loop_usage.py EACH.txt... [--base MODE]

Each EACH.txt is overhead.sh's $OUT/each.txt ("MODE NAME_each V1 V2 ..." lines: loop, enqueue, user and
system time in ns, involuntary context switches, minor faults per loop). Prints, per mode, the medians over
all its loops, then each mode's effect on the loop time against MODE (default cupti-floor) by a median
polish of the per-round fastest loops: a round's own speed (the lent machine drifts between rounds) is
taken out, and a slow loop (a spike) does not count.
"""
import statistics
import sys


def read_each(paths):
    """Per mode, NAME -> every value; and per round (one pass over the modes), mode -> fastest loop ms."""
    values, rounds = {}, []
    for path in paths:
        file_rounds, seen = [], {}
        try:
            lines = open(path).read().splitlines()
        except OSError as error:
            sys.exit(f"loop_usage.py: cannot read {path}: {error.strerror}")
        for line in lines:
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
        rounds.extend(file_rounds)
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


def main():
    args = sys.argv[1:]
    base = "cupti-floor"
    if "--base" in args:
        at = args.index("--base")
        base = args[at + 1] if at + 1 < len(args) else sys.exit("loop_usage.py: --base needs a mode")
        del args[at:at + 2]
    if not args:
        sys.exit("usage: loop_usage.py EACH.txt... [--base MODE]")
    values, rounds = read_each(args)
    if not values:
        sys.exit(f"loop_usage.py: no *_each lines in {', '.join(args)}")
    columns = [("loop_ns_each", "loop ms", 1e6), ("user_ns_each", "user ms", 1e6),
               ("system_ns_each", "system ms", 1e6), ("ivcsw_each", "preempted", 1), ("minflt_each", "faults", 1)]
    print(f"  {'mode':<28}" + "".join(f"{title:>11}" for _, title, _ in columns) + "   (medians over every loop)")
    for mode, named in values.items():
        cells = "".join(f"{statistics.median(named[key]) / scale:11.1f}" if key in named else f"{'-':>11}"
                        for key, _, scale in columns)
        print(f"  {mode:<28}{cells}")
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
