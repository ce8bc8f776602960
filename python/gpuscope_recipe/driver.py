"""The Dask side of `gpuscope recipe`: fan the rank files out to Dask workers, reduce their parts.

Run by `gpuscope recipe` (app/cli/recipe_command.cpp), which has checked the arguments already:

    python3 driver.py --gpuscope PATH --recipe NAME --output DIR --mode local|dask-futures
                      [--scheduler ADDRESS] [--workers N] [--worker-gpuscope PATH] -- FILE...

Each file becomes one task that runs `gpuscope recipe-part NAME FILE --index I` on a worker and returns its
JSON part; the parts go, in input order, to `gpuscope recipe-reduce NAME`, which writes the tables. Every
number comes from gpuscope's C++ code: this file only moves work and text around. Errors end in one
sentence on stderr and exit status 1.
"""

import argparse
import logging
import os
import shutil
import subprocess
import sys


def fail(sentence):
    print("gpuscope: " + sentence, file=sys.stderr)
    sys.exit(1)


def run_part(gpuscope, recipe, path, index):
    """A worker's task: one file's part, as the JSON line gpuscope prints. Raises with gpuscope's sentence."""
    program = gpuscope if gpuscope and os.access(gpuscope, os.X_OK) else shutil.which("gpuscope")
    if not program:
        raise RuntimeError("a Dask worker has no gpuscope at %s nor on its PATH" % gpuscope)
    done = subprocess.run([program, "recipe-part", recipe, path, "--index", str(index)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(said[-1].removeprefix("gpuscope: ") if said
                           else "gpuscope recipe-part failed on %s (exit status %d)" % (path, done.returncode))
    return done.stdout.decode("utf-8")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="gpuscope recipe (driver)")
    parser.add_argument("--gpuscope", required=True)
    parser.add_argument("--worker-gpuscope")
    parser.add_argument("--recipe", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--mode", choices=["local", "dask-futures"], required=True)
    parser.add_argument("--scheduler")
    parser.add_argument("--workers", type=int)
    parser.add_argument("files", nargs="+")
    return parser.parse_args(argv)


def import_distributed():
    # Dask's own logging would bury gpuscope's one sentence; its errors still reach us as exceptions. Set
    # before the import, so that the LocalCluster's worker processes, which read it from the environment, say
    # nothing either.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    try:
        import distributed  # pylint: disable=import-outside-toplevel
    except ImportError as error:
        fail("gpuscope recipe --mode local|dask-futures needs Dask, and %s cannot import distributed (%s): "
             "install Debian's python3-distributed, set GPUSCOPE_PYTHON to a python3 that has it, or use "
             "--mode serial." % (sys.executable, error))
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return distributed


def connect(distributed, args):
    """A new LocalCluster (or None) and a Client on it, or on the scheduler at --scheduler."""
    if args.mode == "local":
        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        return cluster, distributed.Client(cluster)
    try:
        return None, distributed.Client(args.scheduler, timeout="5s")
    except (OSError, TimeoutError, ValueError) as error:
        reason = (str(error).splitlines() or [type(error).__name__])[0]
        fail("Could not reach the Dask scheduler at %s (%s)." % (args.scheduler, reason))
    return None, None


def gather_parts(client, args):
    gpuscope = args.worker_gpuscope or args.gpuscope
    count = len(args.files)
    futures = client.map(run_part, [gpuscope] * count, [args.recipe] * count, args.files, range(count),
                         pure=False)
    try:
        return client.gather(futures)
    except Exception as error:  # pylint: disable=broad-except
        client.cancel(futures)
        fail(str(error) or type(error).__name__)
    return None


def reduce_parts(args, parts):
    os.makedirs(args.output, exist_ok=True)
    parts_path = os.path.join(args.output, ".recipe-parts.jsonl")
    with open(parts_path, "w", encoding="utf-8") as out:
        for part in parts:
            out.write(part.strip() + "\n")
    done = subprocess.run([args.gpuscope, "recipe-reduce", args.recipe, "--parts", parts_path,
                           "--output", args.output], check=False)
    os.remove(parts_path)
    return done.returncode


def main(argv):
    args = parse_arguments(argv)
    distributed = import_distributed()
    cluster, client = connect(distributed, args)
    try:
        parts = gather_parts(client, args)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return reduce_parts(args, parts)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
