"""Stackline's engine in Python: traces read by the core, results as stackline-cli's JSON and as
pandas DataFrames.

    import stackline
    trace = stackline.load("run.pt.trace.json")   # kernel information found beside it, as the CLI
    trace.summary()                # == json.loads(`stackline-cli summary run.pt.trace.json --json`)
    trace.hotspots()               # the lines of `hotspots --json`, one row each
    trace.kernels()                # one row per GPU kernel, numpy columns, strings categorical

Every figure comes from the same core as stackline-cli (the package never recomputes one in
Python); times are integer nanoseconds. Bad input raises stackline.InputError with the message
stackline-cli prints (without its "stackline-cli: " prefix).
"""

import json
import os

from stackline import _core
from stackline._core import InputError
from stackline_handler import enable_provenance, kernel_info_path_for, stackline_trace_handler

__all__ = ["InputError", "Trace", "diff", "enable_provenance", "kernel_info_path_for", "load",
           "merge_hotspots", "merge_steps", "stackline_trace_handler", "trace_handler"]

# The keys of hotspots --json's lines, in its order: the columns of hotspots() when there is none.
HOTSPOT_COLUMNS = ["file", "line", "function", "code", "self_us", "total_us", "launches", "kernels",
                   "self_ns", "total_ns", "kernel_names"]
# The keys of steps --json's steps and of their collectives: steps()' and collectives()' columns.
STEP_COLUMNS = ["step", "start_ns", "end_ns", "duration_ns", "compute_ns", "collective_ns",
                "idle_ns", "collectives"]
COLLECTIVE_COLUMNS = ["step", "name", "process_group", "comms_id", "seq", "in_elements",
                      "out_elements", "dtype", "start_ns", "duration_ns"]


def trace_handler(dir_name, worker_name=None, use_gzip=False, use_python_export=False,
                  clear_registry=False):
    """A drop-in for torch._inductor.profiler.inductor_trace_handler: stackline_handler's
    stackline_trace_handler (the trace named as PyTorch names it, its kernel information saved
    beside it), which then writes each kernel's args.stack into the trace in-process, as the
    reference's post-processor does. On an error it logs it and leaves the trace as Kineto wrote
    it."""
    return stackline_trace_handler(dir_name, worker_name, use_gzip, use_python_export,
                                   clear_registry, annotate=True)


def _frame(columns):
    """A DataFrame from _core's columns: arrays as they are, (codes, values) pairs as categoricals,
    (values, missing) pairs as nullable integers."""
    import numpy as np
    import pandas as pd

    data = {}
    for name, column in columns.items():
        if not isinstance(column, tuple):
            data[name] = column
        elif isinstance(column[1], list):
            data[name] = pd.Categorical.from_codes(column[0], categories=column[1])
        else:
            data[name] = pd.arrays.IntegerArray(column[0], column[1].astype(np.bool_))
    return pd.DataFrame(data, copy=False)


class Trace:
    """A loaded trace: the core's load pipeline run once (trace, kernel information, provenance,
    display indexes, summary); every method reads its results."""

    def __init__(self, core, name):
        self._core = core
        self._name = name

    @property
    def path(self):
        return self._core.path

    @property
    def format(self):
        """The id of the format it was read as (the format table's)."""
        return self._core.format

    @property
    def kernel_info_path(self):
        """The kernel information read: given, or found beside the trace; None without."""
        return self._core.kernel_info_path or None

    @property
    def kernel_info_notes(self):
        return self._core.kernel_info_notes

    def summary(self):
        """What `stackline-cli summary TRACE --json` prints, parsed."""
        return json.loads(self._core.summary_json())

    def range_summary(self, start_us, end_us, top=20):
        """`summary TRACE --range START_US:END_US --json`: microseconds from the trace's origin."""
        return json.loads(self._core.range_summary_json(f"{start_us}:{end_us}", top))

    def hotspots_json(self, eager=False):
        """What `stackline-cli hotspots TRACE --json [--eager]` prints, parsed; "trace" is the path
        as given to load()."""
        return json.loads(self._core.hotspots_json(self._name, eager))

    def hotspots(self, eager=False):
        """hotspots --json's lines as rows, its keys as columns; the totals in .attrs
        (annotated_gpu_ns, unresolved_gpu_ns, ...)."""
        import pandas as pd

        result = self.hotspots_json(eager)
        lines = result.pop("lines")
        frame = pd.DataFrame(lines) if lines else pd.DataFrame(columns=HOTSPOT_COLUMNS)
        frame.attrs.update(result)
        return frame

    def flame(self, eager=False):
        """`hotspots TRACE --folded`: GPU time by call path, a row per folded stack (stack: the
        frames outermost first joined by ";", ns)."""
        import pandas as pd

        rows = [line.rsplit(" ", 1) for line in self._core.folded(eager).splitlines() if line]
        return pd.DataFrame({"stack": [r[0] for r in rows],
                             "ns": [int(r[1]) for r in rows]})

    def steps_json(self):
        """What `stackline-cli steps TRACE --json` prints, parsed: this trace as one rank (its
        profiler steps, their GPU compute, collective and idle time), "trace" the path as given."""
        return json.loads(self._core.steps_json(self._name))

    def steps(self):
        """steps --json's steps of this trace as rows (step, start_ns, end_ns, duration_ns,
        compute_ns, collective_ns, idle_ns, and the number of collective kernels); the rank's
        other members (trace, rank, world_size, base_time_ns, first_ns, last_ns, note) and the
        job in .attrs."""
        import pandas as pd

        result = self.steps_json()
        [rank] = result["ranks"]
        rows = rank.pop("steps")
        for row in rows:
            row["collectives"] = len(row["collectives"])
        frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=STEP_COLUMNS)
        frame.attrs.update(rank, job=result["job"])
        return frame

    def collectives(self):
        """steps --json's collective kernels, a row each with its step first (step, name,
        process_group, comms_id, seq, in_elements, out_elements, dtype, start_ns, duration_ns)."""
        import pandas as pd

        [rank] = self.steps_json()["ranks"]
        rows = [dict(step=s["step"], **c) for s in rank["steps"] for c in s["collectives"]]
        return pd.DataFrame(rows) if rows else pd.DataFrame(columns=COLLECTIVE_COLUMNS)

    def report(self):
        """What `stackline-cli annotate TRACE -o OUT --report REPORT.json` writes into REPORT.json:
        the summary and every diagnostic."""
        return json.loads(self._core.report_json())

    def annotate(self, out, in_place=False):
        """Writes the trace with each kernel's stack in args.stack to out (.gz: gzip), the same bytes
        as `stackline-cli annotate TRACE -o OUT`, through a temporary file; over the trace itself
        only with in_place=True (--in-place). Raises InputError without kernel information, as the
        CLI does."""
        self._core.annotate(os.fspath(out), in_place)

    def kernels(self, eager=False, stack=False):
        """One row per GPU kernel (every category spelling), in trace order: uid, name, ts_ns,
        dur_ns, device and stream (-1 where the pid/tid is not an integer), status (annotated /
        unresolved / outside), graph (the kernel-information graph key its stack was taken
        from, as kernel-code --json's graph_key; NaN where the processor wrote none), file, line,
        function (the frame its self time is charged to: the innermost with a line number of its
        first stack; NaN/<NA> without a stack) and, with stack=True, the args.stack JSON text.
        eager=True gives kernels outside compiled regions their eager stack, as hotspots --eager."""
        return _frame(self._core.kernel_columns(eager, stack))

    def events(self, category=None):
        """One row per event (those of category cat only, when given): uid, name, cat, ph, ts_ns,
        dur_ns, pid, tid (-1 where not an integer)."""
        return _frame(self._core.event_columns(category))


def load(path, kernel_info=None, progress=None, threads=0):
    """Reads a trace of any format Stackline knows (.json, .json.gz, Perfetto, Nsight, ...), with
    its kernel information (kernel_info, else the file found beside it as stackline-cli finds it).
    The GIL is released while loading; progress(done_bytes, total_bytes) is called at most once
    per percent (an exception from it stops the load and is raised). threads: 0, one per core."""
    path = os.fspath(path)
    core = _core.load(path, os.fspath(kernel_info) if kernel_info else "", progress, threads)
    return Trace(core, path)


def diff(base, new, eager=False):
    """What `stackline-cli diff BASE NEW --json [--eager]` prints, parsed: two runs compared by
    Python line and by kernel. base and new: Traces, or paths to load."""
    base, new = (t if isinstance(t, Trace) else load(t) for t in (base, new))
    return json.loads(_core.diff_json(base._core, new._core, eager))


def merge_steps(results):
    """steps --json results (dicts, as Trace.steps_json gives them) merged as `stackline-cli merge`
    merges them: what `steps TRACE... --json` over all their traces prints. Raises InputError for
    ranks of other jobs, as the CLI does."""
    return json.loads(_core.merge_steps([json.dumps(r) for r in results]))


def merge_hotspots(results):
    """hotspots TRACE --json results (dicts, as Trace.hotspots_json gives them) summed as
    `stackline-cli merge` sums them, in the order given: what `hotspots TRACE... --json` prints,
    {"traces": [...], "total": {"trace_count": N, "lines": [...], "annotated_gpu_ns": ...}}."""
    return json.loads(_core.merge_hotspots([json.dumps(r) for r in results]))
