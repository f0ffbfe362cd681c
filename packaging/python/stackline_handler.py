"""Stackline's on_trace_ready handler for torch.profiler: the trace, and its kernel information beside it.

PyTorch keeps Inductor's kernel information (which Python lines each compiled kernel came from)
only in memory, in torch._inductor.debug.get_kernel_information_jsons(). This handler exports the
Chrome trace exactly as torch._inductor.profiler.inductor_trace_handler names it,

    <dir>/<worker>.<time_ns>.pt.trace.json        (or .pt.trace.json.gz with use_gzip=True)

and writes that registry beside it, taken before anything can clear it,

    <dir>/<worker>.<time_ns>.pt.trace.kernel_info.json

which is where Stackline looks for it: double-click the trace and the kernels show their stacks.
The trace itself is left as Kineto wrote it (Stackline attaches the stacks when it opens it).

    import torch
    from stackline_handler import enable_provenance, stackline_trace_handler

    enable_provenance()                  # before torch.compile compiles: record kernel stacks
    model = torch.compile(model)
    with torch.profiler.profile(on_trace_ready=stackline_trace_handler("traces")):
        model(x)

Needs nothing beyond torch (and the standard library). One file: copy it next to your script, or
add its folder (/usr/share/stackline/python when Stackline is installed) to PYTHONPATH.
"""

import copy
import gzip
import json
import logging
import os
import shutil
import socket
import tempfile
import time

__all__ = ["enable_provenance", "kernel_info_path_for", "stackline_trace_handler"]

log = logging.getLogger(__name__)

_ENABLE_HINT = (
    "enable Inductor provenance tracking before the model is compiled: call "
    "stackline_handler.enable_provenance(), or set TORCH_COMPILE_DEBUG_EXTEND=1, or "
    "torch._inductor.config.trace.provenance_tracking_to_timeline = True. Without it, a "
    "TORCH_TRACE log (TORCH_TRACE=<folder> INDUCTOR_PROVENANCE=1) also gives Stackline the stacks"
)


def enable_provenance():
    """Turns on Inductor's kernel information registry (trace.provenance_tracking_to_timeline,
    what TORCH_COMPILE_DEBUG_EXTEND=1 does). Call it before torch.compile compiles the model.
    Returns False when this PyTorch has no such setting."""
    import torch._inductor.config as inductor_config

    trace = getattr(inductor_config, "trace", None)
    if trace is None or not hasattr(trace, "provenance_tracking_to_timeline"):
        log.warning("Stackline: this PyTorch has no trace.provenance_tracking_to_timeline setting; "
                    "use a TORCH_TRACE log as kernel information instead")
        return False
    trace.provenance_tracking_to_timeline = True
    return True


def kernel_info_path_for(trace_path):
    """'<name>.pt.trace.json[.gz]' -> '<name>.pt.trace.kernel_info.json', the first name Stackline
    looks for beside a trace."""
    base = trace_path
    for suffix in (".gz", ".json"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base + ".kernel_info.json"


def _registry_api():
    try:
        from torch._inductor.debug import get_kernel_information_jsons
    except ImportError:
        return None
    return get_kernel_information_jsons


def _provenance_enabled():
    try:
        import torch._inductor.config as inductor_config
    except ImportError:
        return False
    return bool(getattr(getattr(inductor_config, "trace", None), "provenance_tracking_to_timeline", False))


def _jsonable(value):
    # OrderedSet and other iterables as lists; anything else by its str.
    try:
        return list(value)
    except TypeError:
        return str(value)


def _write_atomically(path, write):
    """write(file object) into a temporary file in path's folder, then rename it to path."""
    fd, tmp = tempfile.mkstemp(prefix=".stackline-", suffix=".tmp", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _annotate_in_place(path, kinfo_path):
    """args.stack written into the trace by Stackline's engine (the stackline package), as
    `stackline-cli annotate --in-place` writes it; on any error the trace stays as exported."""
    try:
        import stackline

        stackline.load(path, kernel_info=kinfo_path).annotate(path, in_place=True)
    except Exception:
        log.exception("Stackline: could not write the kernels' stacks into %s; it is left as "
                      "Kineto wrote it (Stackline attaches them when it opens it).", path)


def stackline_trace_handler(dir_name, worker_name=None, use_gzip=False, use_python_export=False,
                            clear_registry=False, annotate=False):
    """An on_trace_ready handler writing <worker>.<time_ns>.pt.trace.json[.gz] and
    <worker>.<time_ns>.pt.trace.kernel_info.json into dir_name.

    worker_name defaults to "<hostname>_<pid>" as in PyTorch's handlers. use_python_export is
    passed on to export_chrome_trace (only when true, so PyTorch versions without it work).
    clear_registry empties PyTorch's registry after saving it, as PyTorch's own handler does after
    each trace; by default it is kept, so that every trace of a profiling schedule gets all
    kernels compiled so far (the registry only grows as new graphs are compiled).

    annotate writes each kernel's args.stack into the trace once the kernel information is saved,
    in-process, with the stackline package (pip install stackline; stackline.trace_handler).

    After each call, handler.last_trace_path and handler.last_kernel_info_path (None when nothing
    was saved) name the files written.
    """

    def handler_fn(prof):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as e:
                raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns()}.pt.trace.json"
        if use_gzip:
            file_name = file_name + ".gz"
        path = os.path.join(dir_name, file_name)
        kinfo_path = kernel_info_path_for(path)

        # The registry first: some PyTorch versions consume it while exporting.
        get_registry = _registry_api()
        registry = copy.deepcopy(dict(get_registry())) if get_registry else None

        export_kwargs = {"use_python_export": True} if use_python_export else {}
        if use_gzip:
            fd, tmp = tempfile.mkstemp(prefix=".stackline-", suffix=".json", dir=dir_name)
            os.close(fd)
            try:
                prof.export_chrome_trace(tmp, **export_kwargs)

                def compress(out):
                    with open(tmp, "rb") as fin, gzip.GzipFile(fileobj=out, mode="wb") as gz:
                        shutil.copyfileobj(fin, gz)

                _write_atomically(path, compress)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        else:
            prof.export_chrome_trace(path, **export_kwargs)
        handler_fn.last_trace_path = path
        handler_fn.last_kernel_info_path = None

        if registry is None:
            log.warning("Stackline: this PyTorch has no kernel information registry "
                        "(torch._inductor.debug.get_kernel_information_jsons); %s was written "
                        "without it. Use a TORCH_TRACE log as kernel information instead.", path)
            return
        if not registry:
            log.warning("Stackline: no kernel information to save beside %s: %s.", path,
                        _ENABLE_HINT if not _provenance_enabled() else
                        "nothing was compiled with provenance tracking since it was turned on")
            return
        text = json.dumps(registry, indent=1, default=_jsonable).encode("utf-8")
        _write_atomically(kinfo_path, lambda f: f.write(text))
        handler_fn.last_kernel_info_path = kinfo_path
        if clear_registry:
            get_registry().clear()
        if annotate:
            _annotate_in_place(path, kinfo_path)

    handler_fn.last_trace_path = None
    handler_fn.last_kernel_info_path = None
    return handler_fn
