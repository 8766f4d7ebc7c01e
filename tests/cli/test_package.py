"""Package-level contracts: generated task files are current, the core needs no harness,
and the lmms-eval plugin contract (``<plugin>.models``, ``<plugin>.tasks``) holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cogvis_tasks.lmms_eval.yamlgen import render

REPO = Path(__file__).resolve().parents[2]


def test_checked_in_task_files_match_a_fresh_generation() -> None:
    expected = render()
    folder = REPO / "cogvis_tasks" / "tasks"
    on_disk = {
        str(p.relative_to(folder)): p.read_text()
        for p in folder.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".md") and "__pycache__" not in p.parts
    }
    assert on_disk.keys() == expected.keys(), "run: python utils/gen_lmms_yaml.py"
    stale = [k for k in expected if on_disk[k] != expected[k]]
    assert not stale, f"stale generated files {stale}; run: python utils/gen_lmms_yaml.py"


def test_core_imports_and_scores_with_both_harnesses_unavailable() -> None:
    code = (
        "import sys\n"
        "sys.modules['lmms_eval'] = None\n"
        "sys.modules['evalscope'] = None\n"
        "from cogvis_tasks.visfactor import benchmark, scoring, data, prompt, report, synthetic\n"
        "from cogvis_tasks.core import baselines, aggregate\n"
        "assert scoring.score_row('CF3', 'it is {\"answer\": \"(2, 3)\"}', '(2, 3)').correct\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_lmms_eval_plugin_contract() -> None:
    import importlib.util

    import cogvis_tasks.models as models

    assert models.AVAILABLE_MODELS == {}
    spec = importlib.util.find_spec("cogvis_tasks.tasks")
    assert spec is not None and spec.submodule_search_locations
    tasks_dir = Path(spec.submodule_search_locations[0])
    assert (tasks_dir / "visfactor" / "visfactor.yaml").is_file()
    from importlib.metadata import entry_points

    names = {ep.value for ep in entry_points(group="lmms_eval.models")}
    assert "cogvis_tasks.lmms_eval.plugin:manifests" in names
