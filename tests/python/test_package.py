"""The Python package as a user gets it: the wheel built from the build folder's stackline._core and
stackline-cli (STACKLINE_BUILD_DIR, set by CTest), installed into a fresh venv with Debian's
numpy/pandas (--system-site-packages), then every API figure against stackline-cli's JSON on the
bundled example and a real corpus trace.

    STACKLINE_BUILD_DIR=build /usr/bin/python3 -m pytest -q tests/python/test_package.py
"""

import glob
import gzip
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLE = os.path.join(ROOT, "resources", "example", "example.pt.trace.json")
EXAMPLE_KINFO = os.path.join(ROOT, "resources", "example", "example.pt.trace.kernel_info.json")
# Real traces, their kernel_info.json found beside them: a torch.compile run, and a with_stack=True
# BERT step without compiled regions (no lines, but eager ones).
CORPUS = os.path.join(ROOT, "tests", "data", "corpus", "torch_compile_triton_trace", "trace.json.gz")
EAGER = os.path.join(ROOT, "tests", "data", "corpus", "h100_gaunernst_bert-small-uncased__1016001",
                     "trace.json.gz")
# Two ranks of one job (param's 8-rank traces).
RANKS = [os.path.join(ROOT, "tests", "data", "corpus", f"worker{i}_step_12.{stamp}.pt.trace",
                      "trace.json.gz") for i, stamp in ((0, 1694128201545), (1, 1694128201556))]


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """(the wheel's path, the venv's folder), the wheel installed into it."""
    tmp = tmp_path_factory.mktemp("wheel")
    env = dict(os.environ, STACKLINE_BUILD_DIR=os.path.abspath(os.environ["STACKLINE_BUILD_DIR"]),
               STACKLINE_WHEEL_BUILD_BASE=str(tmp / "build"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation",
                    "--no-deps", "-w", str(tmp / "dist"), ROOT], env=env, check=True)
    [wheel] = glob.glob(str(tmp / "dist" / "*.whl"))
    folder = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(folder)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "bin" / "python"),
                    "install", "-q", "--no-index", wheel], check=True)
    return wheel, folder


@pytest.fixture(scope="module")
def stackline(venv):
    """The package imported from the venv's site-packages."""
    site = subprocess.run([str(venv[1] / "bin" / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    sys.path.insert(0, site)
    import stackline as module

    assert module.__file__.startswith(site), module.__file__
    return module


def cli(venv, *args, check=True):
    return subprocess.run([str(venv[1] / "bin" / "stackline-cli"), *args], capture_output=True,
                          text=True, check=check)


def cli_json(venv, *args):
    return json.loads(cli(venv, *args, "--json").stdout)


def test_wheel_name(venv):
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert os.path.basename(venv[0]).startswith(f"stackline-0.1.0-{version}-{version}-linux_")


def test_commands_on_the_venvs_path(venv):
    bin_dir = venv[1] / "bin"
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    direct = subprocess.run(["stackline-cli", "summary", EXAMPLE, "--json"], env=env, check=True,
                            capture_output=True, text=True)
    module = subprocess.run(["python", "-m", "stackline", "summary", EXAMPLE, "--json"], env=env,
                            check=True, capture_output=True, text=True)
    assert direct.stdout == module.stdout
    assert json.loads(direct.stdout)["annotated_kernels"] == 70
    imported = subprocess.run(["python", "-c", "import stackline, stackline_handler; "
                               "print(stackline.__file__, stackline_handler.__file__)"],
                              env=env, check=True, capture_output=True, text=True, cwd="/")
    assert all(f.startswith(str(venv[1])) for f in imported.stdout.split())


@pytest.mark.parametrize("path", [EXAMPLE, CORPUS, EAGER])
def test_summary_and_hotspots_equal_the_clis(venv, stackline, path):
    trace = stackline.load(path)
    assert trace.summary() == cli_json(venv, "summary", path)
    assert trace.hotspots_json() == cli_json(venv, "hotspots", path)
    assert trace.hotspots_json(eager=True) == cli_json(venv, "hotspots", path, "--eager")
    for eager in (False, True):
        lines = cli_json(venv, "hotspots", path, *(["--eager"] if eager else []))["lines"]
        frame = trace.hotspots(eager=eager)
        assert list(frame.columns) == stackline.HOTSPOT_COLUMNS
        assert frame.to_dict("records") == lines
        assert frame.attrs["annotated_gpu_ns"] == frame["self_ns"].sum()
    folded = cli(venv, "hotspots", path, "--folded").stdout.splitlines()
    assert [f"{s} {n}" for s, n in zip(trace.flame()["stack"], trace.flame()["ns"])] == folded
    assert trace.range_summary(0, 1500.5) == cli_json(venv, "summary", path, "--range", "0:1500.5")


def test_kernel_info_given(venv, stackline):
    trace = stackline.load(EXAMPLE, kernel_info=EXAMPLE_KINFO)
    assert trace.kernel_info_path == EXAMPLE_KINFO
    assert trace.summary() == cli_json(venv, "summary", EXAMPLE, "--kernel-info", EXAMPLE_KINFO)


def test_kernels_and_events(stackline):
    trace = stackline.load(EXAMPLE)
    summary = trace.summary()
    kernels = trace.kernels(stack=True)
    assert len(kernels) == summary["kernels"]
    counts = kernels["status"].value_counts()
    assert counts["annotated"] == summary["annotated_kernels"]
    assert counts["unresolved"] == summary["unresolved_kernels"]
    assert str(kernels["name"].dtype) == "category"
    assert kernels["ts_ns"].dtype == "int64"
    annotated = kernels[kernels["status"] == "annotated"]
    assert annotated["dur_ns"].sum() == trace.hotspots_json()["annotated_gpu_ns"]
    assert annotated["file"].notna().all() and annotated["stack"].notna().all()
    assert kernels[kernels["status"] != "annotated"]["stack"].isna().all()
    # Each annotated kernel's graph: the kernel information's graph whose entry names it (or
    # names its extern call: the cuBLAS kernels of extern_kernels.mm).
    with open(EXAMPLE_KINFO, encoding="utf-8") as f:
        kinfo = json.load(f)
    for name, graph in annotated[["name", "graph"]].itertuples(index=False):
        names = {key.split(":")[0] for key in kinfo[graph]}
        assert name in names or any(n.startswith("extern_kernels.") for n in names), (name, graph)
    assert set(annotated["graph"]) == set(kinfo)
    assert kernels[kernels["status"] != "annotated"]["graph"].isna().all()
    events = trace.events()
    assert len(events) == summary["events"]
    assert (events["uid"].to_numpy() == range(len(events))).all()
    assert len(trace.events(category="kernel")) <= len(kernels)


def test_annotate_report_and_diff_equal_the_clis(venv, stackline, tmp_path):
    trace = stackline.load(EXAMPLE)
    for name in ("py.json", "py.json.gz"):
        trace.annotate(tmp_path / name)
        cli(venv, "annotate", EXAMPLE, "-o", str(tmp_path / f"cli.{name}"), "--report",
            str(tmp_path / "report.json"))
        assert (tmp_path / name).read_bytes() == (tmp_path / f"cli.{name}").read_bytes()
    assert trace.report() == json.loads((tmp_path / "report.json").read_text())
    base = tmp_path / "base.pt.trace.json"
    base.write_bytes(open(EXAMPLE, "rb").read())  # no kernel information beside it
    with pytest.raises(stackline.InputError) as raised:
        stackline.load(base).annotate(tmp_path / "none.json")
    assert f"stackline-cli: {raised.value}\n" == cli(venv, "annotate", str(base), "-o",
                                                       str(tmp_path / "none.json"),
                                                       check=False).stderr
    assert not (tmp_path / "none.json").exists()
    for eager in ([], ["--eager"]):
        assert stackline.diff(str(base), trace, eager=bool(eager)) == cli_json(
            venv, "diff", str(base), EXAMPLE, *eager)
    assert stackline.diff(CORPUS, EXAMPLE) == cli_json(venv, "diff", CORPUS, EXAMPLE)


def test_perfetto_trace_loads_and_annotates_as_the_cli(venv, stackline, tmp_path):
    """The bundled example as PyTorch's Cuspy profiler writes it (.pftrace, by the tests'
    generator): load reads it through the format table, its summary is the CLI's, and annotate
    writes the CLI's annotated Chrome JSON; in place it is refused (OSError), the input as it was."""
    pf = tmp_path / "run.pftrace"
    subprocess.run([os.path.join(os.environ["STACKLINE_BUILD_DIR"], "tests", "bench", "make_pftrace"),
                    EXAMPLE, str(pf)], check=True, capture_output=True)
    trace = stackline.load(pf, kernel_info=EXAMPLE_KINFO)
    assert trace.format == "perfetto"
    assert trace.summary() == cli_json(venv, "summary", str(pf), "--kernel-info", EXAMPLE_KINFO)
    trace.annotate(tmp_path / "py.json")
    cli(venv, "annotate", str(pf), "--kernel-info", EXAMPLE_KINFO, "-o", str(tmp_path / "cli.json"))
    assert (tmp_path / "py.json").read_bytes() == (tmp_path / "cli.json").read_bytes()
    events = json.loads((tmp_path / "py.json").read_text())["traceEvents"]
    assert sum("stack" in e.get("args", {}) for e in events) == trace.summary()["annotated_kernels"]
    before = pf.read_bytes()
    with pytest.raises(OSError, match="not rewritten in place"):
        trace.annotate(pf, in_place=True)
    assert pf.read_bytes() == before


def test_trace_handler_writes_the_clis_stacks(venv, stackline, tmp_path, caplog):
    """stackline.trace_handler with the stand-in torch (fake_torch): the trace it leaves is the one
    `stackline-cli annotate` writes from Kineto's and the saved kernel information; a trace it
    cannot annotate stays as exported."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "python", "fake_torch"))
    import torch._inductor.config as inductor_config
    import torch._inductor.debug as inductor_debug

    inductor_config.trace.provenance_tracking_to_timeline = True
    with open(EXAMPLE_KINFO, encoding="utf-8") as f:
        inductor_debug._kernel_information_jsons.update(json.load(f))
    exported = {"bytes": open(EXAMPLE, "rb").read()}

    class Profile:
        def export_chrome_trace(self, path, **kwargs):
            with open(path, "wb") as f:
                f.write(exported["bytes"])

    expected = tmp_path / "expected.json"
    cli(venv, "annotate", EXAMPLE, "--kernel-info", EXAMPLE_KINFO, "-o", str(expected))
    for use_gzip in (False, True):
        handler = stackline.trace_handler(str(tmp_path / "traces"), use_gzip=use_gzip)
        handler(Profile())
        opened = gzip.open if use_gzip else open
        with opened(handler.last_trace_path, "rb") as f:
            assert f.read() == expected.read_bytes()
    exported["bytes"] = b'{"traceEvents": ['
    handler(Profile())
    with gzip.open(handler.last_trace_path, "rb") as f:
        assert f.read() == exported["bytes"]
    assert "left as Kineto wrote it" in caplog.text


def test_trace_handler_equals_the_reference_on_the_golden_cases(stackline, tmp_path):
    """Every golden case the reference processed without raising (tests/data/golden, made by the
    oracle): Kineto's trace exported through stackline.trace_handler with the case's kernel
    information in the stand-in torch's registry leaves the reference's output (Python ==); an
    empty registry leaves the trace as exported, as the reference does."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "python", "fake_torch"))
    import torch._inductor.config as inductor_config
    import torch._inductor.debug as inductor_debug

    inductor_config.trace.provenance_tracking_to_timeline = True
    cases = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "golden", "*", "result.json")))
    checked = 0
    for result in cases:
        case = os.path.dirname(result)
        with open(result, encoding="utf-8") as f:
            if json.load(f)["status"] != "ok":
                continue
        with open(os.path.join(case, "kernel_info.json"), encoding="utf-8") as f:
            registry = json.load(f)
        assert isinstance(registry, dict), case  # as PyTorch's registry is
        inductor_debug._kernel_information_jsons.clear()
        inductor_debug._kernel_information_jsons.update(registry)
        trace_bytes = open(os.path.join(case, "trace.json"), "rb").read()

        class Profile:
            def export_chrome_trace(self, path, **kwargs):
                with open(path, "wb") as f:
                    f.write(trace_bytes)

        handler = stackline.trace_handler(str(tmp_path / os.path.basename(case)))
        handler(Profile())
        with open(handler.last_trace_path, encoding="utf-8") as f:
            written = json.load(f)
        with open(os.path.join(case, "expected.json"), encoding="utf-8") as f:
            assert written == json.load(f), os.path.basename(case)
        checked += 1
    assert checked > 300, checked


def test_merge_equals_the_clis(venv, stackline):
    results = [stackline.load(p).hotspots_json() for p in (EXAMPLE, CORPUS)]
    assert stackline.merge_hotspots(results) == cli_json(venv, "hotspots", EXAMPLE, CORPUS)


def test_steps_equal_the_clis(venv, stackline):
    import stackline.fleet

    for path in [EXAMPLE] + RANKS:
        trace = stackline.load(path)
        expected = cli_json(venv, "steps", path)
        assert trace.steps_json() == expected
        [rank] = expected["ranks"]
        frame = trace.steps()
        assert frame.to_dict("records") == [dict(s, collectives=len(s["collectives"]))
                                            for s in rank["steps"]]
        assert frame.attrs["rank"] == rank["rank"] and frame.attrs["job"] == expected["job"]
        assert trace.collectives().to_dict("records") == [
            dict(step=s["step"], **c) for s in rank["steps"] for c in s["collectives"]]
    assert list(stackline.load(EXAMPLE).collectives().columns)[:2] == ["step", "name"]
    results = [stackline.load(p).steps_json() for p in RANKS]
    assert stackline.merge_steps(results) == cli_json(venv, "steps", *RANKS)
    assert stackline.fleet.steps(RANKS) == cli_json(venv, "steps", *RANKS)


def merged_by_the_cli(venv, command, paths, folder):
    """`stackline-cli merge` over each path's `COMMAND PATH --json` result, as a job array's
    tasks would leave them."""
    results = []
    for i, path in enumerate(paths):
        results.append(str(folder / f"{command}.{i}.json"))
        with open(results[-1], "w", encoding="utf-8") as f:
            f.write(cli(venv, command, path, "--json").stdout)
    return cli_json(venv, "merge", *results)


def test_fleet_equals_the_clis(venv, stackline, tmp_path):
    """On a LocalCluster of 2 worker processes, and on the local process pool: what one CLI run
    over all the traces prints, and what merge makes of each trace's result."""
    import stackline.fleet
    from distributed import Client, LocalCluster

    paths = [EXAMPLE, CORPUS, EAGER]
    expected = cli_json(venv, "hotspots", *paths)
    assert merged_by_the_cli(venv, "hotspots", paths, tmp_path) == expected
    steps = merged_by_the_cli(venv, "steps", RANKS, tmp_path)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        assert stackline.fleet.hotspots(paths, client=client) == expected
        given = stackline.fleet.hotspots(paths, client=client, kernel_info=EXAMPLE_KINFO, eager=True)
        assert given == cli_json(venv, "hotspots", *paths, "--kernel-info", EXAMPLE_KINFO, "--eager")
        assert stackline.fleet.steps(RANKS, client=client) == steps
    assert stackline.fleet.hotspots(paths) == expected


def test_progress(stackline):
    seen = []
    stackline.load(EXAMPLE, progress=lambda done, total: seen.append((done, total)))
    assert seen and all(0 <= d <= t for d, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    def fail(done, total):
        raise ZeroDivisionError("stop")

    with pytest.raises(ZeroDivisionError, match="stop"):
        stackline.load(EXAMPLE, progress=fail)


def test_bad_input_raises_the_clis_message(venv, stackline, tmp_path):
    bad = tmp_path / "bad.pt.trace.json"
    bad.write_text('{"traceEvents": [{"ph": "X", ')
    run = cli(venv, "summary", str(bad), check=False)
    assert run.returncode == 2
    with pytest.raises(stackline.InputError) as raised:
        stackline.load(bad)
    assert f"stackline-cli: {raised.value}\n" == run.stderr
    assert sorted(os.listdir(tmp_path)) == ["bad.pt.trace.json"]
    with pytest.raises(stackline.InputError, match="missing.json"):
        stackline.load(tmp_path / "missing.json")
