# Per-kernel means of GPU metrics from an nsys-shaped SQLite file (nsys's export or gpuscope's recording), with
# nothing from gpuscope: plain sqlite3. A sample counts for a kernel when its interval lies inside the kernel:
# timestamp >= start and timestamp + period <= end (a GPU_METRICS timestamp is its interval's start, as nsys
# writes it), period the median spacing of the device's sample timestamps; the mean is over every such sample
# of every instance of the kernel name. GPUSCOPE_METRICS_END_STAMPS=1 reads files whose timestamps are the
# intervals' ends instead (gpuscope recordings made before 2026-11-29 08:00).
# Usage: kernel_means.py FILE [TOP]   prints "name<TAB>instances<TAB>samples<TAB>SMs<TAB>Tensor<TAB>DRAM read"
import os
import sqlite3
import statistics
import sys

END_STAMPS = os.environ.get("GPUSCOPE_METRICS_END_STAMPS") == "1"

NAMES = ["SMs Active [Throughput %]", "Tensor Active [Throughput %]", "DRAM Read Bandwidth [Throughput %]"]


def main(path, top):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    ids = {}
    for type_id, metric_id, name in db.execute("SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS"):
        if name in NAMES:
            ids[(type_id & 0xFF, metric_id)] = name
    series = {}  # (device, name) -> sorted [(timestamp, value)]
    for ts, type_id, metric_id, value in db.execute("SELECT timestamp, typeId, metricId, value FROM GPU_METRICS"):
        name = ids.get((type_id & 0xFF, metric_id))
        if name:
            series.setdefault((type_id & 0xFF, name), []).append((ts, value))
    periods = {}
    for (device, name), rows in series.items():
        rows.sort()
        stamps = [t for t, _ in rows]
        periods[device] = statistics.median(b - a for a, b in zip(stamps, stamps[1:]))
    kernels = db.execute(
        "SELECT s.value, k.start, k.end, k.deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"
    ).fetchall()
    totals = {}
    for name, _, _, _ in kernels:
        totals[name] = totals.get(name, 0) + 1
    import bisect

    sums = {}
    for name, start, end, device in kernels:
        period = periods.get(device)
        if period is None:
            continue
        for metric in NAMES:
            rows = series.get((device, metric), [])
            stamps = [t for t, _ in rows] if rows else []
            shift = period if END_STAMPS else 0
            lo = bisect.bisect_left(stamps, start + shift)
            hi = bisect.bisect_right(stamps, end - period + shift)
            entry = sums.setdefault((name, metric), [0, 0])
            for t, v in rows[lo:hi]:
                entry[0] += v
                entry[1] += 1
    time_by_name = {}
    for name, start, end, _ in kernels:
        time_by_name[name] = time_by_name.get(name, 0) + end - start
    for name in sorted(time_by_name, key=lambda n: -time_by_name[n])[:top]:
        cells = []
        count = 0
        for metric in NAMES:
            total, n = sums.get((name, metric), [0, 0])
            count = max(count, n)
            cells.append(f"{total / n:.1f}" if n else "-")
        print(f"{name[:40]}\t{totals[name]}\t{count}\t" + "\t".join(cells))


def memory(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        count, total = db.execute("SELECT count(*), coalesce(sum(bytes), 0) FROM CUDA_GPU_MEMORY_USAGE_EVENTS").fetchone()
        by_op = db.execute(
            "SELECT memoryOperationType, count(*), sum(bytes) FROM CUDA_GPU_MEMORY_USAGE_EVENTS GROUP BY 1 ORDER BY 1").fetchall()
    except sqlite3.OperationalError as error:
        return f"no memory events ({error})"
    return f"events {count} bytes {total} by operation {by_op}"


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "memory":
        print(memory(sys.argv[1]))
    else:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4)
