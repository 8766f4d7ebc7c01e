"""Shared fixtures: synthetic data in the released layouts and the OpenAI stub; the measured-slow marks.

Helpers that tests import (harness runs, the stub server, release writers) live in ``tests/helpers/``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from helpers.openai_stub import StubServer
from helpers.plans import shared_folder

from cogvis_tasks.visfactor.files import write_parquet, write_tsv
from cogvis_tasks.visfactor.synthetic import synthetic_rows


@pytest.fixture(scope="session")
def visfactor_rows() -> list[dict[str, Any]]:
    return synthetic_rows(items_per_subtest=2, seed=7)


@pytest.fixture(scope="session")
def data_root(tmp_path_factory: pytest.TempPathFactory, visfactor_rows: list[dict[str, Any]]) -> Path:
    """A COGVIS_DATA_DIR holding visfactor/test.parquet (the HF mirror layout)."""
    root = tmp_path_factory.mktemp("data")
    write_parquet(visfactor_rows, root / "visfactor" / "test.parquet")
    return root


@pytest.fixture(scope="session")
def tsv_root(tmp_path_factory: pytest.TempPathFactory, visfactor_rows: list[dict[str, Any]]) -> Path:
    """A COGVIS_DATA_DIR holding visfactor/VisFactor.tsv (the official layout)."""
    root = tmp_path_factory.mktemp("data_tsv")
    write_tsv(visfactor_rows, root / "visfactor" / "VisFactor.tsv")
    return root


@pytest.fixture
def stub() -> Iterable[StubServer]:
    with StubServer() as server:
        yield server


@pytest.fixture(scope="session")
def minds_eye_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A COGVIS_DATA_DIR holding a Mind's Eye release fixture (3 items per task)."""
    from cogvis_tasks.minds_eye.synthetic import write_release

    return write_release(tmp_path_factory.mktemp("minds_eye_data"), items_per_task=3, seed=11)


@pytest.fixture(scope="session")
def visualpuzzles_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A COGVIS_DATA_DIR holding visualpuzzles/data/test-*.parquet (the hub layout), 20 puzzles."""
    from cogvis_tasks.visualpuzzles.synthetic import write_parquet

    return write_parquet(tmp_path_factory.mktemp("vp_data"), n=20, seed=3)


@pytest.fixture(scope="session")
def mme_cc_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A COGVIS_DATA_DIR holding an MME-CC release fixture (2 questions per file, 24 in all)."""
    from cogvis_tasks.mme_cc.synthetic import write_release

    return write_release(tmp_path_factory.mktemp("mme_cc_data"), per_file=2, seed=4)


SLOW_TESTS = Path(__file__).with_name("slow_tests.txt")
FILE_COSTS = Path(__file__).with_name("file_costs.txt")


def _file_costs() -> dict[str, float]:
    costs = {}
    for line in FILE_COSTS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            cpu, name = line.split()
            costs[name] = float(cpu)
    return costs


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the measured-slow tests of ``slow_tests.txt`` (verifier sweeps, cue statistics over many items) and every
    shortcut audit slow, so ``-m "not slow"`` is the fast subset; order the files costliest first."""
    listed = {line.strip() for line in SLOW_TESTS.read_text().splitlines() if line.strip() and not line.startswith("#")}
    seen: set[str] = set()
    files = {item.nodeid.split("::", 1)[0] for item in items}
    for item in items:
        base = item.nodeid.split("[", 1)[0]
        if base in listed:
            item.add_marker(pytest.mark.slow)
            seen.add(base)
        elif item.get_closest_marker("audit") is not None:
            item.add_marker(pytest.mark.slow)
    whole_files = not any(
        "::" in str(arg) for arg in config.args
    )  # a single test asked for leaves its file's others out
    stale = sorted(n for n in listed - seen if n.split("::", 1)[0] in files) if whole_files else []
    if stale:
        raise pytest.UsageError(f"{SLOW_TESTS.name} names tests that do not exist: {stale}")
    # Costliest files first (``file_costs.txt``), each file's tests together and in their order: xdist hands the
    # workers contiguous halves of this list and a worker that runs dry takes the other's last tests, so the run
    # ends on short tests shared by both workers.
    costs = _file_costs()
    items.sort(key=lambda item: -costs.get(item.nodeid.split("::", 1)[0], 0.0))


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist the controller fixes the run id itself, so it knows which folder of shared plans to remove.

    lmms-eval's task index is cached in a folder of this run (``COGVIS_INDEX_CACHE``), not the user's: the runs of
    the suite share it (one build per set of task folders) and start from no entry, as CI does."""
    if not hasattr(config, "workerinput") and getattr(config.option, "testrunuid", "") is None:
        config.option.testrunuid = uuid.uuid4().hex
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or getattr(config.option, "testrunuid", None)
    if run:
        os.environ["COGVIS_INDEX_CACHE"] = str(shared_folder(run) / "lmms_index")
    else:  # no xdist: a folder of this process
        folder = tempfile.mkdtemp(prefix="cogvis-index-")
        atexit.register(shutil.rmtree, folder, True)
        os.environ["COGVIS_INDEX_CACHE"] = folder


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The controller removes the plans its workers shared (``helpers.plans``); workers leave them to it."""
    run = getattr(session.config.option, "testrunuid", None)
    if run and not hasattr(session.config, "workerinput"):
        shutil.rmtree(shared_folder(run), ignore_errors=True)
