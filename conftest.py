"""The suite's housekeeping (pytest loads this before tb/ and sim/tests/)."""
from pathlib import Path

BUILD = Path(__file__).resolve().parent / "build"


def pytest_sessionfinish(session):
    """Delete the Verilator builds' precompiled headers when the suite ends (in the
    controller, after every worker): two of about 260 MB per build and some 40 builds,
    20 GB on disk that only a recompile of the same build would read. A later build makes
    them again, as in a fresh clone."""
    if hasattr(session.config, "workerinput"):
        return
    for pch in [*BUILD.glob("sim/*/*.gch"), *BUILD.glob("*-obj-*/*.gch")]:
        pch.unlink(missing_ok=True)
