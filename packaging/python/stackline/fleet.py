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

__all__ = ["hotspots", "steps"]


def _trace_hotspots(path, kernel_info, eager, threads):
    """One task: the trace loaded on the worker, its hotspots --json result; the trace released
    when the task returns."""
    return stackline.load(path, kernel_info=kernel_info, threads=threads).hotspots_json(eager)


def _trace_steps(path, threads):
    return stackline.load(path, threads=threads).steps_json()


def _run(task, paths, args, client):
    """task(path, *args) per path, on client or a spawned local pool, results in paths' order."""
    if client is not None:
        return client.gather([client.submit(task, p, *args, pure=False) for p in paths])
    jobs = max(1, min(len(paths), os.cpu_count() or 1))
    # spawn: the workers start clean, whatever threads this process runs.
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        return list(pool.map(task, paths, *([a] * len(paths) for a in args)))


def _threads(threads, paths, client):
    """The local pool divides the cores among its processes; a cluster's tasks use their node's."""
    if threads or client is not None:
        return threads
    return max(1, (os.cpu_count() or 1) // max(1, min(len(paths), os.cpu_count() or 1)))


def steps(paths, client=None, threads=0):
    """What `stackline-cli steps PATHS... --json` prints, as a dict: each trace a rank, merged into
    the job as merge merges steps results."""
    paths = [os.fspath(p) for p in paths]
    return stackline.merge_steps(_run(_trace_steps, paths, (_threads(threads, paths, client),),
                                      client))


def hotspots(paths, client=None, kernel_info=None, eager=False, threads=0):
    """What `stackline-cli hotspots PATHS... --json [--eager]` prints, as a dict: each trace's
    result and their total. kernel_info: for every trace (ranks of one compiled model); None, each
    trace's own found beside it. threads: each load's (0: one per core of its worker; the local
    pool divides the cores among its processes)."""
    paths = [os.fspath(p) for p in paths]
    kernel_info = os.fspath(kernel_info) if kernel_info else None
    threads = _threads(threads, paths, client)
    return stackline.merge_hotspots(_run(_trace_hotspots, paths, (kernel_info, eager, threads),
                                         client))
