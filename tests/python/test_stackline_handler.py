#!/usr/bin/env python3
"""packaging/python/stackline_handler.py against a stand-in torch (tests/python/fake_torch): the
calls it makes and the files it writes. With STACKLINE_CLI set (CTest sets it), also that
stackline-cli finds the saved kernel information beside the trace and annotates with it.

    python3 tests/python/test_stackline_handler.py
"""
import gzip
import importlib
import json
import logging
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fake_torch"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "packaging", "python"))

import torch  # noqa: E402  (the stand-in)
import torch._inductor.config as inductor_config  # noqa: E402
import torch._inductor.debug as inductor_debug  # noqa: E402

import stackline_handler  # noqa: E402

assert torch.__file__.startswith(os.path.join(HERE, "fake_torch")), torch.__file__

# A Kineto-like trace: region 0/0 launching triton_poi_fused_add_0 through an ac2g flow.
TRACE = {
    "schemaVersion": 1,
    "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
        {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
        {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 20, "dur": 1},
        {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 20, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    ],
}

# In the order PyTorch fills it; the order matters (first "name:" key wins).
REGISTRY = {
    "('Torch-Compiled Region: 0/0', False)": {
        "triton_poi_fused_add_0:2": {"stack_traces": ['  File "model.py", line 7, in forward\n    y = x + 1\n'],
                                     "post_grad_nodes": ["add"], "pre_grad_nodes": ["add"]},
        "extern_kernels.mm:1": {"stack_traces": ['  File "model.py", line 6, in forward\n    x = x @ w\n'],
                                "post_grad_nodes": ["mm"], "pre_grad_nodes": ["linear"]},
    },
    "('Torch-Compiled Region: 0/0', True)": {
        "triton_poi_fused_add_0:3": {"stack_traces": [], "post_grad_nodes": [], "pre_grad_nodes": []},
    },
}


class FakeProfile:
    """torch.profiler.profile as the handler sees it: export_chrome_trace(path, **kwargs)."""

    def __init__(self, consume_registry=False):
        self.exports = []
        self.consume_registry = consume_registry

    def export_chrome_trace(self, path, **kwargs):
        torch.CALLS.append(("export_chrome_trace", path, kwargs))
        self.exports.append((path, kwargs))
        with open(path, "w") as f:
            json.dump(TRACE, f)
        if self.consume_registry:  # as PyTorch's first provenance version did during export
            inductor_debug._kernel_information_jsons.clear()


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        torch.CALLS.clear()
        inductor_debug._kernel_information_jsons.clear()
        inductor_debug._kernel_information_jsons.update(json.loads(json.dumps(REGISTRY)))
        inductor_config.trace.provenance_tracking_to_timeline = True

    def tearDown(self):
        self.tmp.cleanup()
        importlib.reload(inductor_debug)

    def files(self):
        return sorted(os.listdir(self.dir))

    def test_names_and_contents(self):
        handler = stackline_handler.stackline_trace_handler(self.dir, worker_name="worker0")
        before = time.time_ns()
        prof = FakeProfile()
        handler(prof)
        after = time.time_ns()
        files = self.files()
        self.assertEqual(len(files), 2, files)
        trace, kinfo = sorted(files, key=len)
        m = re.fullmatch(r"worker0\.(\d+)\.pt\.trace\.json", trace)
        self.assertIsNotNone(m, trace)
        self.assertTrue(before <= int(m.group(1)) <= after)
        self.assertEqual(kinfo, f"worker0.{m.group(1)}.pt.trace.kernel_info.json")
        self.assertEqual(handler.last_trace_path, os.path.join(self.dir, trace))
        self.assertEqual(handler.last_kernel_info_path, os.path.join(self.dir, kinfo))
        # One export, to the final name, with no keyword PyTorch versions may lack.
        self.assertEqual(prof.exports, [(os.path.join(self.dir, trace), {})])
        with open(os.path.join(self.dir, trace)) as f:
            self.assertEqual(json.load(f), TRACE)  # the trace as exported, untouched
        with open(os.path.join(self.dir, kinfo)) as f:
            saved = json.load(f)
        self.assertEqual(saved, REGISTRY)
        self.assertEqual(list(saved), list(REGISTRY))
        for graph in REGISTRY:
            self.assertEqual(list(saved[graph]), list(REGISTRY[graph]))
        # The registry was read before the export, and is left as it was.
        names = [c[0] for c in torch.CALLS]
        self.assertLess(names.index("get_kernel_information_jsons"), names.index("export_chrome_trace"))
        self.assertEqual(inductor_debug._kernel_information_jsons, REGISTRY)

    def test_gzip(self):
        handler = stackline_handler.stackline_trace_handler(self.dir, worker_name="w", use_gzip=True)
        prof = FakeProfile()
        handler(prof)
        files = self.files()
        self.assertEqual(len(files), 2, files)  # no temporary file left behind
        trace = next(f for f in files if f.endswith(".pt.trace.json.gz"))
        self.assertEqual(files, sorted([trace, trace[: -len(".json.gz")] + ".kernel_info.json"]))
        with gzip.open(os.path.join(self.dir, trace), "rt") as f:
            self.assertEqual(json.load(f), TRACE)
        (exported, kwargs), = prof.exports
        self.assertEqual(os.path.dirname(exported), self.dir)
        self.assertTrue(exported.endswith(".json"))
        self.assertFalse(os.path.exists(exported))
        self.assertEqual(kwargs, {})

    def test_registry_saved_before_an_export_that_clears_it(self):
        handler = stackline_handler.stackline_trace_handler(self.dir, worker_name="w")
        handler(FakeProfile(consume_registry=True))
        with open(handler.last_kernel_info_path) as f:
            self.assertEqual(json.load(f), REGISTRY)

    def test_python_export_and_default_worker(self):
        handler = stackline_handler.stackline_trace_handler(os.path.join(self.dir, "a", "b"), use_python_export=True)
        prof = FakeProfile()
        handler(prof)
        self.assertEqual(prof.exports[0][1], {"use_python_export": True})
        name = os.path.basename(handler.last_trace_path)
        self.assertTrue(name.startswith(f"{socket.gethostname()}_{os.getpid()}."), name)
        self.assertTrue(os.path.isfile(handler.last_kernel_info_path))

    def test_each_trace_gets_the_whole_registry_unless_cleared(self):
        keep = stackline_handler.stackline_trace_handler(self.dir, worker_name="keep")
        keep(FakeProfile())
        keep(FakeProfile())
        kinfos = [f for f in self.files() if f.endswith(".kernel_info.json")]
        self.assertEqual(len(kinfos), 2)
        clear = stackline_handler.stackline_trace_handler(self.dir, worker_name="clear", clear_registry=True)
        clear(FakeProfile())
        self.assertEqual(inductor_debug._kernel_information_jsons, {})
        with self.assertLogs("stackline_handler", logging.WARNING) as logs:
            clear(FakeProfile())  # nothing compiled since: trace only
        self.assertIsNone(clear.last_kernel_info_path)
        self.assertIn("nothing was compiled with provenance tracking", logs.output[0])
        self.assertEqual(len([f for f in self.files() if f.startswith("clear.")]), 3)

    def test_empty_registry_warns_how_to_enable(self):
        inductor_debug._kernel_information_jsons.clear()
        inductor_config.trace.provenance_tracking_to_timeline = False
        handler = stackline_handler.stackline_trace_handler(self.dir, worker_name="w")
        with self.assertLogs("stackline_handler", logging.WARNING) as logs:
            handler(FakeProfile())
        self.assertEqual(len(self.files()), 1)
        self.assertIsNone(handler.last_kernel_info_path)
        self.assertIn("TORCH_COMPILE_DEBUG_EXTEND=1", logs.output[0])

    def test_pytorch_without_registry(self):
        del inductor_debug.get_kernel_information_jsons
        handler = stackline_handler.stackline_trace_handler(self.dir, worker_name="w")
        with self.assertLogs("stackline_handler", logging.WARNING) as logs:
            handler(FakeProfile())
        self.assertEqual(len(self.files()), 1)
        self.assertIn("no kernel information registry", logs.output[0])

    def test_enable_provenance(self):
        inductor_config.trace.provenance_tracking_to_timeline = False
        self.assertTrue(stackline_handler.enable_provenance())
        self.assertTrue(inductor_config.trace.provenance_tracking_to_timeline)

    def test_kernel_info_path_for(self):
        f = stackline_handler.kernel_info_path_for
        self.assertEqual(f("d/w.1.pt.trace.json"), "d/w.1.pt.trace.kernel_info.json")
        self.assertEqual(f("d/w.1.pt.trace.json.gz"), "d/w.1.pt.trace.kernel_info.json")

    @unittest.skipUnless(os.environ.get("STACKLINE_CLI"), "STACKLINE_CLI not set")
    def test_stackline_finds_and_uses_it(self):
        for gz in (False, True):
            handler = stackline_handler.stackline_trace_handler(self.dir, worker_name=f"w{int(gz)}", use_gzip=gz)
            handler(FakeProfile())
            run = subprocess.run([os.environ["STACKLINE_CLI"], "summary", handler.last_trace_path, "--json"],
                                 capture_output=True, text=True, check=True)
            self.assertIn(os.path.basename(handler.last_kernel_info_path), run.stderr)  # found beside it
            self.assertEqual(json.loads(run.stdout)["annotated_kernels"], 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
