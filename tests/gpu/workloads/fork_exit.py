# Issue 10's fork check: torch.multiprocessing workers started with fork (they end with os._exit,
# so no atexit handler runs) and with spawn, each running KERNELS small CUDA ops. The parent does
# not touch CUDA (a fork child may not use a CUDA context it inherited).
# Usage: python fork_exit.py fork|spawn [WORKERS] [KERNELS]
import sys

import torch
import torch.multiprocessing as mp


def work(kernels):
    x = torch.ones(1024, device="cuda")
    for _ in range(kernels - 1):
        x.add_(1.0)
    torch.cuda.synchronize()


if __name__ == "__main__":
    method = sys.argv[1] if len(sys.argv) > 1 else "fork"
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    kernels = int(sys.argv[3]) if len(sys.argv) > 3 else 82
    context = mp.get_context(method)
    processes = [context.Process(target=work, args=(kernels,)) for _ in range(workers)]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    print("exit codes", [p.exitcode for p in processes])
