"""Loading Mind's Eye from the released layout, refusing bad data, and the prompt conditions.

Why: the release stores each task differently (answer field, letter format, the
MT question as a list), so the loader must normalise all of it and must say
*where* a broken file is broken (file, record key, field). Image names come from
the data and must never reach outside the task folder. The prompt conditions of
the paper (CoT, meta-task framing, step by step, hint) are checked against the
released prompt text, with the image shown before the text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.samples import SAMPLES

from cogvis_tasks.core.errors import DataError
from cogvis_tasks.minds_eye import benchmark, data, prompt
from cogvis_tasks.minds_eye.synthetic import FOLDER_OF, FOLDERS, OPTIONS_OF, png, write_release
from cogvis_tasks.minds_eye.tasks import BY_ID

TASK_IDS = [t for t, _, _ in FOLDERS]
#: The answer field of each task, as the reference lists it.
ANSWER_FIELD = {
    "VRA": "answer",
    "HPE": "answer",
    "DSC": "fifth_label",
    "VCS": "violation",
    "SS": "asymmetric_label",
    "MT": "answer",
    "PF": "correct_option",
    "MC": "answer",
}
#: Paper task names (the hint condition) and the meta-task framing.
NAMES = {
    "VRA": "Visual Relation Abstraction",
    "HPE": "Hierarchical Pattern Equivalence",
    "DSC": "Dynamic Structural Correspondence",
    "VCS": "Visual Conceptual Slippage",
    "SS": "Symmetric Structures",
    "MT": "Mental Transformation",
    "PF": "Paper Folding",
    "MC": "Mental Composition",
}
needs_samples = pytest.mark.skipif(
    not (SAMPLES / "mental_rotation" / "annotations.json").is_file(), reason="real samples missing"
)


def normalise(value: str) -> str:
    """The reference's rule, restated: "B", "b" and "(c)" are one upper-case letter."""
    letter = value.strip().strip("()").strip()
    assert len(letter) == 1 and letter.upper() in "ABCDEF", value
    return letter.upper()


def released(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(task, key) -> raw record, read straight from the annotation files."""
    out = {}
    for task, name, _ in FOLDERS:
        path = folder / name / "annotations.json"
        if path.is_file():
            for key, rec in json.loads(path.read_text(encoding="utf-8")).items():
                out[(task, key)] = rec
    return out


def released_question(rec: dict[str, Any]) -> str:
    q = rec["question"]
    return q[0] if isinstance(q, list) else q


@pytest.fixture
def me_root(tmp_path: Path) -> Path:
    return write_release(tmp_path / "data", items_per_task=3, seed=0)


@pytest.fixture(scope="module")
def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A read-only fixture release shared by the tests that do not modify it."""
    return write_release(tmp_path_factory.mktemp("me_shared"), items_per_task=3, seed=5)


# ---------------------------------------------------------------------------
# The real samples and the fixture
# ---------------------------------------------------------------------------


@needs_samples
def test_real_samples_load_with_normalised_answers() -> None:
    raw = released(SAMPLES)
    assert len(raw) == 16
    records = data.load(local_path=SAMPLES)
    assert len(records) == 16
    assert {r.task for r in records} == set(TASK_IDS)
    for r in records:
        rec = raw[(r.task, r.key)]
        assert r.answer == normalise(rec[ANSWER_FIELD[r.task]])
        assert r.question == released_question(rec) and isinstance(r.question, str)
        assert r.image == (SAMPLES / FOLDER_OF[r.task] / r.key).read_bytes()
        assert r.extra == {k: v for k, v in rec.items() if k not in ("question", ANSWER_FIELD[r.task])}
    by_key = {(r.task, r.key): r.answer for r in records}
    # a few spelled out, in every released format
    assert by_key[("VRA", "22022385_AP.png")] == "F"  # "F"
    assert by_key[("HPE", "10293218.png")] == "C"  # "c"
    assert by_key[("DSC", "pair_57_stretch_x_rotate_back_and_forth_grid.png")] == "A"  # "(a)"
    assert by_key[("VCS", "95956_alignment.png")] == "E"  # "e", a letter beyond D
    assert by_key[("MT", "HookedCorner_15.png")] == "B"
    # the parent folder works as well as the minds_eye folder itself
    assert [(r.task, r.key) for r in data.load(local_path=SAMPLES.parent)] == [(r.task, r.key) for r in records]


def test_fixture_reproduces_the_release_quirks(shared_root: Path) -> None:
    raw = released(shared_root / "minds_eye")
    assert len(raw) == 8 * 3
    for (task, key), rec in raw.items():
        answer = rec[ANSWER_FIELD[task]]
        assert (shared_root / "minds_eye" / FOLDER_OF[task] / key).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        if task == "MT":
            assert isinstance(rec["question"], list) and len(rec["question"]) == 1
            assert rec["difficulty"] in ("easy", "complex") and rec["filename"] == key
            order = rec["candidate_order"]
            assert order["ABCD".index(answer)] == "rotate" and order.count("rotate") == 1
            assert len(set(order) - {"rotate"}) == 3 and set(order) - {"rotate"} <= {
                "mirror",
                "mirror2",
                "similar",
                "rotate2",
            }
        else:
            assert isinstance(rec["question"], str)
        if task == "DSC":
            assert re.fullmatch(r"\([a-d]\)", answer) and isinstance(rec["answer"], str) and len(rec["answer"]) > 3
        elif task in ("HPE", "MC", "VCS", "SS"):
            assert answer in "abcdef" and len(answer) == 1
        else:
            assert answer in "ABCDEF" and len(answer) == 1
        assert normalise(answer) in "ABCDEF"[: OPTIONS_OF[task]]
        if task == "MC":
            assert rec["difficulty"] in ("easy", "hard") and rec["net"] == rec["correct_shape"] + "_net"
            assert (
                len(rec["other_shapes"]) == 3 and rec["correct_shape"] not in rec["other_shapes"] and rec["net_color"]
            )
        if task == "SS":
            assert rec["answer"] == "lacks symmetry"
        if task == "VCS":
            assert rec["concept"].startswith(f"Figure in option {answer} violates")
        if task == "PF":
            assert rec["folds"] in ("Vertical/Horizontal", "Diagonal")
        if task in ("VRA", "VCS"):
            assert "six figures labeled A, B, C, D, E, and F" in rec["question"]
    for task in ("MT", "MC"):
        levels = {rec["difficulty"] for (t, _), rec in raw.items() if t == task}
        assert len(levels) == 2


def test_fixture_is_deterministic_per_seed(tmp_path: Path) -> None:
    def snapshot(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    a = snapshot(write_release(tmp_path / "a", 2, seed=3))
    b = snapshot(write_release(tmp_path / "b", 2, seed=3))
    c = snapshot(write_release(tmp_path / "c", 2, seed=4))
    assert a == b
    assert a != c
    images = [v for k, v in a.items() if k.endswith(".png")]
    assert len(images) == 16 and len(set(images)) == 16  # every image differs


def test_fixture_loads_all_tasks(shared_root: Path) -> None:
    raw = released(shared_root / "minds_eye")
    records = data.load(local_path=shared_root)
    assert [r.task for r in records] == [t for t in TASK_IDS for _ in range(3)]
    for r in records:
        assert r.answer == normalise(raw[(r.task, r.key)][ANSWER_FIELD[r.task]])
        assert r.source == str((shared_root / "minds_eye" / FOLDER_OF[r.task] / "annotations.json").resolve())
    samples = benchmark.samples(local_path=shared_root)
    assert [s.answer for s in samples] == [r.answer for r in records]
    assert {s.subtest: s.metadata["letters"] for s in samples} == {t: "ABCDEF"[: OPTIONS_OF[t]] for t in TASK_IDS}
    mt = [s for s in samples if s.subtest == "MT"]
    assert all(s.metadata["candidate_order"][s.metadata["letters"].index(s.answer)] == "rotate" for s in mt)
    assert {s.metadata["difficulty"] for s in samples if s.subtest == "MC"} == {"easy", "hard"}
    assert len({s.id for s in samples}) == len(samples)
    sub = benchmark.samples(subtests=["mt", "VCS"], local_path=shared_root)
    assert sorted(s.subtest for s in sub) == ["MT"] * 3 + ["VCS"] * 3


@pytest.mark.parametrize("value", ["B", "b", "(b)", " b "])
def test_every_released_letter_format_is_accepted(value: str) -> None:
    for task in BY_ID.values():
        assert data.normalize_letter(value, task, "f.json", "k.png", task.answer_field) == "B"


# ---------------------------------------------------------------------------
# Bad data: DataError naming file, key and field
# ---------------------------------------------------------------------------


def _annotations(root: Path, task: str) -> Path:
    return root / "minds_eye" / FOLDER_OF[task] / "annotations.json"


def _edit(root: Path, task: str, edit: Any) -> tuple[Path, str]:
    """Apply ``edit(records, key)`` to the second record of a task; return (annotations path, key)."""
    path = _annotations(root, task)
    records = json.loads(path.read_text(encoding="utf-8"))
    key = list(records)[1]
    edit(records, key)
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return path, key


def _set(field: str, value: Any) -> Any:
    def edit(records: dict, key: str) -> None:
        records[key][field] = value

    return edit


def _drop(field: str) -> Any:
    def edit(records: dict, key: str) -> None:
        del records[key][field]

    return edit


@pytest.mark.parametrize(
    ("task", "edit", "field", "message"),
    [
        ("HPE", _set("answer", "Z"), "answer", "not an option letter"),
        ("MT", _set("answer", "Z"), "answer", "not an option letter"),
        ("DSC", _set("fifth_label", "(z)"), "fifth_label", "not an option letter"),
        ("PF", _set("correct_option", "E"), "correct_option", "beyond the 4 options"),
        ("SS", _set("asymmetric_label", "e"), "asymmetric_label", "beyond the 4 options"),
        ("DSC", _set("fifth_label", "(e)"), "fifth_label", "beyond the 4 options"),
        ("VRA", _set("answer", "G"), "answer", "not an option letter"),
        ("MC", _set("answer", ["c"]), "answer", "not an option letter"),
        ("MC", _set("answer", ""), "answer", "not an option letter"),
        ("VCS", _drop("violation"), "violation", "missing"),
        ("PF", _drop("correct_option"), "correct_option", "missing"),
        ("DSC", _drop("fifth_label"), "fifth_label", "missing"),
        ("MT", _set("question", ["first", "second"]), "question", "expected a non-empty string"),
        ("MT", _set("question", []), "question", "expected a non-empty string"),
        ("SS", _set("question", 7), "question", "expected a non-empty string"),
        ("VRA", _set("question", {"text": "q"}), "question", "expected a non-empty string"),
        ("HPE", _set("question", [["nested"]]), "question", "expected a non-empty string"),
        ("HPE", _drop("question"), "question", "expected a non-empty string"),
    ],
)
def test_bad_record_names_file_key_and_field(me_root: Path, task: str, edit: Any, field: str, message: str) -> None:
    path, key = _edit(me_root, task, edit)
    for load in (lambda: data.load(local_path=me_root), lambda: benchmark.samples(local_path=me_root)):
        with pytest.raises(DataError) as err:
            load()
        assert Path(err.value.file) == path.resolve()
        assert err.value.row == key and err.value.field == field
        assert message in str(err.value) and str(path.resolve()) in str(err.value) and key in str(err.value)


def test_missing_image_file(me_root: Path) -> None:
    path = _annotations(me_root, "SS")
    key = list(json.loads(path.read_text()))[2]
    (path.parent / key).unlink()
    with pytest.raises(DataError, match="does not exist") as err:
        data.load(["SS"], local_path=me_root)
    assert (Path(err.value.file), err.value.row, err.value.field) == (path.resolve(), key, "image")


def test_image_that_is_not_an_image(me_root: Path) -> None:
    path = _annotations(me_root, "PF")
    key = list(json.loads(path.read_text()))[0]
    (path.parent / key).write_bytes(b"this is not a png")
    with pytest.raises(DataError, match="cannot be decoded") as err:
        data.load(["PF"], local_path=me_root)
    assert (err.value.row, err.value.field) == (key, "image")


def test_malformed_json_names_the_line(me_root: Path) -> None:
    path = _annotations(me_root, "MC")
    lines = ["{", ' "a.png": {', '  "question": "q",', '  "answer": "c"', '  "difficulty": "easy"', " }", "}"]
    path.write_text("\n".join(lines), encoding="utf-8")  # the missing comma shows on line 5
    with pytest.raises(DataError, match="malformed JSON") as err:
        data.load(local_path=me_root)
    assert Path(err.value.file) == path.resolve() and err.value.row == "line 5"
    assert "line 5" in str(err.value)
    path.write_text('{"a.png": {"question": "q", "answer": "c"}', encoding="utf-8")  # truncated
    with pytest.raises(DataError, match="malformed JSON"):
        data.load(["MC"], local_path=me_root)


@pytest.mark.parametrize(
    ("text", "row"), [("[]", "top level"), ('["a.png"]', "top level"), ("{}", "top level"), ('{"a.png": "A"}', "a.png")]
)
def test_wrong_json_shapes(me_root: Path, text: str, row: str) -> None:
    path = _annotations(me_root, "PF")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        data.load(["PF"], local_path=me_root)
    assert Path(err.value.file) == path.resolve() and err.value.row == row


# ---------------------------------------------------------------------------
# Image names that would leave the task folder
# ---------------------------------------------------------------------------


def _add_record(root: Path, task: str, key: str) -> Path:
    path = _annotations(root, task)
    records = json.loads(path.read_text(encoding="utf-8"))
    records[key] = {"question": "Which? Reason step by step for answering.", "correct_option": "B", "folds": "Diagonal"}
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return path


def _escape_key(root: Path, how: str) -> str:
    outside = root / "minds_eye" / "x.png"  # a real PNG just outside the task folder
    outside.write_bytes(png(9, 9, 9))
    (root / "outside.png").write_bytes(png(9, 8, 9))
    if how == "dotdot":
        return "../x.png"
    if how == "dotdot-missing":
        return "../../nothing-here.png"
    if how == "absolute":
        return str((root / "outside.png").resolve())
    if how == "symlink":
        link = root / "minds_eye" / FOLDER_OF["PF"] / "link.png"
        link.symlink_to(root / "outside.png")
        return "link.png"
    if how == "symlink-dir":
        link = root / "minds_eye" / FOLDER_OF["PF"] / "sub"
        link.symlink_to(root, target_is_directory=True)
        return "sub/outside.png"
    if how == "dotdot-back-in":
        return f"../{FOLDER_OF['MT']}/../x.png"
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["dotdot", "dotdot-missing", "absolute", "symlink", "symlink-dir", "dotdot-back-in"])
def test_image_names_leaving_the_folder_are_refused(me_root: Path, how: str) -> None:
    key = _escape_key(me_root, how)
    path = _add_record(me_root, "PF", key)
    with pytest.raises(DataError) as err:
        data.load(["PF"], local_path=me_root)
    assert (Path(err.value.file), err.value.row, err.value.field) == (path.resolve(), key, "image")
    if how != "dotdot-missing":
        assert "outside the task folder" in str(err.value)


def test_image_name_with_nul_byte_is_a_data_error(me_root: Path) -> None:
    key = "a\x00.png"
    path = _add_record(me_root, "PF", key)
    with pytest.raises(DataError) as err:
        data.load(["PF"], local_path=me_root)
    assert (Path(err.value.file), err.value.row, err.value.field) == (path.resolve(), key, "image")


def test_names_inside_the_folder_are_fine(me_root: Path) -> None:
    folder = me_root / "minds_eye" / FOLDER_OF["PF"]
    (folder / "nested").mkdir()
    (folder / "nested" / "deep.png").write_bytes(png(9, 1, 9))
    (folder / "alias.png").symlink_to(folder / "nested" / "deep.png")
    _add_record(me_root, "PF", "nested/deep.png")
    _add_record(me_root, "PF", "nested/../alias.png")
    records = data.load(["PF"], local_path=me_root)
    assert len(records) == 5 and records[-1].image == records[-2].image == png(9, 1, 9)


# ---------------------------------------------------------------------------
# Where the data is found
# ---------------------------------------------------------------------------


def test_data_root_resolution(shared_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = shared_root / "minds_eye"
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
    assert data.data_root(shared_root) == folder
    assert data.data_root(folder) == folder
    assert data.data_root(str(folder)) == folder
    with pytest.raises(FileNotFoundError, match="COGVIS_DATA_DIR"):
        data.data_root()
    with pytest.raises(FileNotFoundError, match="COGVIS_DATA_DIR"):
        benchmark.samples()
    monkeypatch.setenv("COGVIS_DATA_DIR", str(shared_root))
    assert data.data_root() == folder
    assert len(benchmark.samples()) == 24
    assert len(data.load()) == 24
    # an explicit path wins over the environment, and a wrong one is an error, not a fallback
    other = write_release(tmp_path / "other", items_per_task=1, seed=1)
    assert data.data_root(other) == other / "minds_eye"
    assert len(benchmark.samples(local_path=other)) == 8
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "empty"))):
        data.data_root(tmp_path / "empty")
    with pytest.raises(FileNotFoundError, match="annotations.json"):
        benchmark.samples(local_path=tmp_path / "empty")
    monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "empty" / "minds_eye"))):
        data.data_root()


def test_requested_task_with_missing_folder_raises(me_root: Path) -> None:
    shutil.rmtree(me_root / "minds_eye" / FOLDER_OF["PF"])
    with pytest.raises(FileNotFoundError, match="PF"):
        data.load(["PF"], local_path=me_root)
    with pytest.raises(FileNotFoundError, match="paper_folding"):
        benchmark.samples(subtests=["pf"], local_path=me_root)
    with pytest.raises(FileNotFoundError):
        benchmark.samples(subtests=["MT", "PF"], local_path=me_root)
    # all tasks by default: the present ones
    assert {s.subtest for s in benchmark.samples(local_path=me_root)} == set(TASK_IDS) - {"PF"}
    with pytest.raises(ValueError, match="unknown Mind's Eye task"):
        benchmark.samples(subtests=["XX"], local_path=me_root)


def test_edits_after_a_load_are_seen(me_root: Path) -> None:
    """Loads are cached; a rewritten annotations file must not be served from the cache."""
    path = _annotations(me_root, "HPE")
    first = data.load(["HPE"], local_path=me_root)
    records = json.loads(path.read_text())
    key = list(records)[0]
    records[key]["answer"] = "b" if records[key]["answer"] != "b" else "a"
    text = json.dumps(records, indent=1)
    path.write_text(text)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    second = data.load(["HPE"], local_path=me_root)
    assert first[0].answer != second[0].answer == normalise(records[key]["answer"])


# ---------------------------------------------------------------------------
# Prompt conditions
# ---------------------------------------------------------------------------

REASON = re.compile(r"reason step by step", re.IGNORECASE)
#: The paper's wording (Section 5 / Appendix H), typed from the reference note: the code must say exactly this.
PAPER_ANCHORS = (
    "Step 1: Identify the primitive shapes. Step 2: Detect how they move or fold. Step 3: Eliminate mismatched answers."
)
PAPER_SBS = "First, describe the shapes. Then, identify the transformation (rotation, reflection, folding, symmetry). Finally, choose the answer."
PAPER_META = {
    "MT": "This is a mental transformation test. You need to imagine folding or rotating the shape in 3D",
    "PF": "This is a paper folding puzzle. At the end, identify which option shows the holes in the unfolded paper.",
}


def _roots(shared_root: Path) -> list[Path]:
    roots = [shared_root / "minds_eye"]
    if (SAMPLES / "mental_rotation" / "annotations.json").is_file():
        roots.append(SAMPLES)
    return roots


def test_prompt_conditions(shared_root: Path) -> None:
    assert prompt.CONDITIONS == ("released", "cot", "meta", "sbs", "hint", "elimination", "direct")
    for folder in _roots(shared_root):
        raw = released(folder)
        by_condition = {c: benchmark.samples(condition=c, local_path=folder) for c in prompt.CONDITIONS}
        assert len({len(v) for v in by_condition.values()}) == 1
        assert benchmark.samples(local_path=folder) == by_condition["released"]  # the default
        frames = set()
        for row in zip(*by_condition.values(), strict=True):
            s = dict(zip(prompt.CONDITIONS, row, strict=True))
            assert len({x.id for x in row}) == 1 and all(s[c].metadata["condition"] == c for c in s)
            task, key = s["released"].subtest, s["released"].metadata["key"]
            question = released_question(raw[(task, key)])
            text = question.strip()
            head = question[: REASON.search(question).start()].rstrip()
            # released: the released prompt (its surrounding whitespace trimmed), reasoning sentence kept
            assert s["released"].text() == text and REASON.search(text)
            # cot: the release's reasoning sentence replaced by the paper's three anchors
            assert s["cot"].text() == f"{head} Reason step by step. {PAPER_ANCHORS}"
            # sbs, elimination, direct: the reasoning sentence replaced by the condition's instruction
            assert s["sbs"].text() == f"{head} {PAPER_SBS}"
            assert (
                s["elimination"].text().startswith(head + " ") and "eliminate" in s["elimination"].text()[len(head) :]
            )
            assert s["direct"].text().startswith(head + " ") and "letter" in s["direct"].text()[len(head) :]
            for c in ("sbs", "elimination", "direct"):
                assert not REASON.search(s[c].text()), (c, s[c].text())
            # meta: one framing sentence per task before the released prompt; the paper's own where it prints one
            frame = s["meta"].text()[: -len(text)].strip()
            assert s["meta"].text().endswith(" " + text) and re.match(
                r"^This is an? [a-z ]+ (test|puzzle)\. ", frame + " "
            )
            if task in PAPER_META:
                assert frame.startswith(PAPER_META[task])
            frames.add((task, frame))
            # hint
            assert s["hint"].text() == f"[Task: {NAMES[task]}] {text}"
            # image first, then text, in every condition
            for x in row:
                assert [k for k, _ in x.prompt] == ["image", "text"]
                assert x.image_order() == [0] and x.images[0] == (folder / FOLDER_OF[task] / key).read_bytes()
        assert len({f for _, f in frames}) == len({t for t, _ in frames})  # a distinct framing per task


@needs_samples
def test_reasoning_sentence_replaced_on_the_released_dsc_prompt() -> None:
    for condition in ("sbs", "cot", "elimination", "direct"):
        (sample, _) = benchmark.samples(subtests=["DSC"], condition=condition, local_path=SAMPLES)
        assert sample.text().startswith("Follow the transformation of the shapes in the top row")
        assert "identify which of these options is the fifth image at t = 1.0. " in sample.text()
        assert "how are the shapes transforming" not in sample.text()


def test_generated_sets_take_every_condition() -> None:
    from cogvis_tasks.minds_eye import generated

    base = generated.samples(subtests=["PF"], seed=3, n=2)
    for condition in prompt.CONDITIONS:
        got = generated.samples(subtests=["PF"], seed=3, n=2, condition=condition)
        assert [g.id for g in got] == [b.id for b in base] and [g.images for g in got] == [b.images for b in base]
        assert [g.text() for g in got] == [prompt.render(b.text(), BY_ID["PF"], condition) for b in base]
    with pytest.raises(ValueError, match="condition"):
        generated.samples(subtests=["PF"], seed=3, n=1, condition="COT")


@pytest.mark.parametrize("condition", ["COT", "", "elim", "hints"])
def test_unknown_condition_raises(shared_root: Path, condition: str) -> None:
    with pytest.raises(ValueError, match="condition"):
        prompt.render("Which one? Reason step by step for answering.", BY_ID["VRA"], condition)
    with pytest.raises(ValueError, match="condition"):
        benchmark.samples(condition=condition, local_path=shared_root)


def test_duplicate_image_key_is_a_data_error(tmp_path: Path) -> None:
    from cogvis_tasks.core.errors import DataError
    from cogvis_tasks.minds_eye import data

    root = write_release(tmp_path, items_per_task=1, seed=5)
    path = next((root / "minds_eye" / "paper_folding").glob("annotations.json"))
    text = path.read_text()
    record = json.loads(text)
    key, value = next(iter(record.items()))
    path.write_text("{" + json.dumps(key) + ": " + json.dumps(value) + ", " + text.strip()[1:])
    with pytest.raises(DataError, match="duplicate key"):
        data.load(["PF"], local_path=root)
