"""Many traces at once: one task per trace, on a dask.distributed client (LocalCluster,
dask-jobqueue on Slurm, Kubernetes, ...) or a local process pool, the results merged as
`stackline-cli merge` merges them.

    from dask.distributed import Client
    import stackline.fleet
    result = stackline.fleet.hotspots(paths, client=Client("scheduler:8786"))
    result["total"]["annotated_gpu_ns"]       # as hotspots TRACE... --json
"""

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import stackline

__all__ = ["hotspots"]


def _trace_hotspots(path, kernel_info, eager, threads):
    """One task: the trace loaded on the worker, its hotspots --json result; the trace released
    when the task returns."""
    return stackline.load(path, kernel_info=kernel_info, threads=threads).hotspots_json(eager)


def hotspots(paths, client=None, kernel_info=None, eager=False, threads=0):
    """What `stackline-cli hotspots PATHS... --json [--eager]` prints, as a dict: each trace's
    result and their total. kernel_info: for every trace (ranks of one compiled model); None, each
    trace's own found beside it. threads: each load's (0: one per core of its worker; the local
    pool divides the cores among its processes)."""
    paths = [os.fspath(p) for p in paths]
    kernel_info = os.fspath(kernel_info) if kernel_info else None
    if client is not None:
        tasks = [client.submit(_trace_hotspots, p, kernel_info, eager, threads, pure=False)
                 for p in paths]
        results = client.gather(tasks)
    else:
        jobs = max(1, min(len(paths), os.cpu_count() or 1))
        threads = threads or max(1, (os.cpu_count() or 1) // jobs)
        # spawn: the workers start clean, whatever threads this process runs.
        with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
            results = list(pool.map(_trace_hotspots, paths, [kernel_info] * len(paths),
                                    [eager] * len(paths), [threads] * len(paths)))
    return stackline.merge_hotspots(results)
