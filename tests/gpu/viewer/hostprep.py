"""A PyTorch training loop starved by its host-side data preparation (a recording for walking through the viewer).

Each step prepares its batch on the main thread in two Python functions, then copies it to the GPU and runs a
few matrix products:
  decode_batch()  about 80% of the preparation: random "records" as bytes, a pure-Python parsing loop over them
                  (label and checksum per record), NumPy normalisation, and one float64 np.dot (OpenBLAS, several
                  threads: OPENBLAS_NUM_THREADS, default 8, so idle blas_thread_server threads show in samples);
  augment()       about 20%: np.sin / np.cos over the batch, as many elements as keep its time a quarter of
                  decode_batch's so far (its cost per element measured in the warm-up and as it runs).
The GPU is idle while both run. NVTX ranges: "warmup", then "step 0" .. "step N-1".
Prints its own measured share (time.perf_counter) of decode_batch and augment in their sum, as
  HOSTPREP decode_batch 0.80 augment 0.20
Arguments: steps (default 40), warm-up steps (default 3).
"""
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "8")  # before NumPy loads OpenBLAS

import numpy as np  # noqa: E402
import torch  # noqa: E402

RECORDS = 8192
RECORD_BYTES = 1024
FEATURES = 64


def decode_batch(rng, projection):
    raw = rng.integers(0, 256, size=RECORDS * RECORD_BYTES, dtype=np.uint8).tobytes()
    labels = []
    checksums = []
    for i in range(RECORDS):  # the pure-Python part: one record at a time
        record = raw[i * RECORD_BYTES:(i + 1) * RECORD_BYTES]
        labels.append(record[0] % 10)
        checksums.append(sum(record[1:25]) & 0xFF)
    pixels = np.frombuffer(raw, dtype=np.uint8).reshape(RECORDS, RECORD_BYTES).astype(np.float32)
    pixels = (pixels - pixels.mean(axis=0)) / (pixels.std(axis=0) + 1e-6)
    features = np.dot(pixels.astype(np.float64), projection)  # OpenBLAS dgemm, multithreaded
    features[:, 0] += np.asarray(checksums, dtype=np.float64) / 255.0
    return features.astype(np.float32), np.asarray(labels, dtype=np.int64)


def augment(features, elements):
    flat = features.reshape(-1)
    done = 0
    while done < elements:  # as many passes over the batch as the calibration asked for
        part = flat[:min(elements - done, flat.size)]
        wave = np.sin(part * 1.7) * np.cos(part * 0.3)
        part += 0.01 * wave
        done += part.size
    return features


def train_step(features, labels, w1, w2, w3):
    x = torch.from_numpy(features).to("cuda")
    y = torch.from_numpy(labels).to("cuda")
    h = torch.relu(x @ w1)
    for _ in range(3):
        h = torch.tanh(h @ w2)
    logits = h @ w3
    return torch.nn.functional.cross_entropy(logits, y)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        print(f"HOSTPREP numpy {np.__version__} blas {blas.get('name')} {blas.get('version')} "
              f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    except Exception as error:  # older NumPy
        print(f"HOSTPREP numpy {np.__version__} (blas unknown: {error})")
    rng = np.random.default_rng(0)
    projection = rng.standard_normal((RECORD_BYTES, FEATURES)) / 32
    w1 = torch.randn(FEATURES, 1024, device="cuda") / 8
    w2 = torch.randn(1024, 1024, device="cuda") / 32
    w3 = torch.randn(1024, 10, device="cuda") / 32
    total = torch.zeros((), device="cuda")

    # Warm-up: augment's cost per element, and decode_batch's time.
    decode_times, augment_rates = [], []
    torch.cuda.nvtx.range_push("warmup")
    for _ in range(warmup):
        t0 = time.perf_counter()
        features, labels = decode_batch(rng, projection)
        t1 = time.perf_counter()
        augment(features, features.size)
        t2 = time.perf_counter()
        decode_times.append(t1 - t0)
        augment_rates.append((t2 - t1) / features.size)
        total += train_step(features, labels, w1, w2, w3)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    decode_s, per_element = sorted(decode_times)[len(decode_times) // 2], min(augment_rates)
    print(f"HOSTPREP warm-up: decode_batch {decode_s * 1e3:.1f} ms, augment {per_element * 1e9:.2f} ns per element "
          f"(a quarter of decode_batch: {0.25 * decode_s / per_element / features.size:.1f} passes over the batch)")

    spent = {"decode_batch": 0.0, "augment": 0.0}
    start = time.perf_counter()
    for i in range(steps):
        torch.cuda.nvtx.range_push(f"step {i}")
        t0 = time.perf_counter()
        features, labels = decode_batch(rng, projection)
        t1 = time.perf_counter()
        spent["decode_batch"] += t1 - t0
        # Keep augment at a quarter of decode_batch's time so far (machines and profilers slow them unequally).
        want = 0.25 * spent["decode_batch"] - spent["augment"]
        elements = int(min(max(want, 0.1 * (t1 - t0)), 0.5 * (t1 - t0)) / per_element)
        features = augment(features, max(1, elements))
        t2 = time.perf_counter()
        spent["augment"] += t2 - t1
        per_element = 0.5 * per_element + 0.5 * (t2 - t1) / max(1, elements)
        total += train_step(features, labels, w1, w2, w3)
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    wall = time.perf_counter() - start
    both = spent["decode_batch"] + spent["augment"]
    print(f"HOSTPREP decode_batch {spent['decode_batch'] / both:.2f} augment {spent['augment'] / both:.2f}")
    print(f"HOSTPREP {steps} steps in {wall:.2f} s, {1e3 * wall / steps:.1f} ms/step; decode_batch "
          f"{1e3 * spent['decode_batch'] / steps:.1f} ms, augment {1e3 * spent['augment'] / steps:.1f} ms per step "
          f"({100 * both / wall:.0f}% of the loop's wall time); loss sum {float(total):.3f}")


main()
