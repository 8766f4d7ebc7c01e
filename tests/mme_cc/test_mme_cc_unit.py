"""MME-CC unit tests: loader, rule pre-check, judge prompt and parsing, scoring with a scripted judge, report.

Facts come from the implementers' reference (MME-CC part): 11 subtasks in 3 dimensions
from 12 JSON files (Maze06 + Maze10 are one Maze subtask); the reference follows
``## The correct answer is:`` and an optional ``## Scoring criteria:`` rubric is kept
for the judge; image paths must never leave the dataset root; the judge answers
``{"answer_score": [[s]]}`` with s in {0, 1}; Unblock Me and Sandbagging have their own
rubrics; accuracy is reported per subtask, per dimension and over all questions.
The rule check may only grant credit; anything it cannot confirm goes to the judge,
and judge trouble is counted as a judge error, never a silent 0.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.core.errors import DataError
from cogvis_tasks.mme_cc import benchmark, data, scoring
from cogvis_tasks.mme_cc.report import build_report
from cogvis_tasks.mme_cc.scoring import JudgeReplyError, final_answer, judge_prompt, parse_judge, rule_credit
from cogvis_tasks.mme_cc.subtasks import BY_ID, DIMENSIONS, FILES, SUBTASKS
from cogvis_tasks.mme_cc.synthetic import REFERENCES, png, write_release

# Verbatim from the reference, deliberately not imported from the package.
SUBTASK_IDS = [
    "Satellite_Image_Matching", "Indoor_Directional_Reasoning", "Indoor_Deduplication_Counting",
    "Gomoku_Variation", "Maze", "Unblock_Me", "Jigsaw_Puzzle", "Chart_Modification",
    "Sandbagging", "Counterfactual_Instruction", "Finding_Wrong_Answer",
]  # fmt: skip
DIMENSION_OF = {
    **dict.fromkeys(SUBTASK_IDS[:3], "Spatial Reasoning"),
    **dict.fromkeys(SUBTASK_IDS[3:8], "Geometric Reasoning"),
    **dict.fromkeys(SUBTASK_IDS[8:], "Visual Knowledge Reasoning"),
}
RELEASE_FILES = sorted([f"{s}.json" for s in SUBTASK_IDS if s != "Maze"] + ["Maze06.json", "Maze10.json"])
FAILED = "[LMMS_EVAL_REQUEST_FAILED after 3 retries: 500 boom]"
#: A right final answer per subtask: the reference, but for Sandbagging exactly one of its four true sub-answers.
RIGHT = {**REFERENCES, "Sandbagging": "1. 17; 2. C; 3. 5; 4. no"}
YES, NO = '{"answer_score": [[1]]}', '{"answer_score": [[0]]}'


# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data root holding ``mme_cc/`` in the released layout, 2 questions per file (24 in all)."""
    return write_release(tmp_path_factory.mktemp("mme_cc_unit"), per_file=2, seed=0)


def _record(
    prompt: str = "Which one?",
    images: list[str] | None = None,
    answer: str = "## The correct answer is: Blue",
    **over: Any,
) -> dict:
    rec: dict[str, Any] = {
        "prompt": prompt,
        "image_list": images if images is not None else [],
        "ground_truth": {"answer": answer},
    }
    rec.update(over)
    return rec


def _write_one(tmp_path: Path, records: Any, name: str = "Jigsaw_Puzzle.json", images: tuple[str, ...] = ()) -> Path:
    """A one-file release under tmp_path/mme_cc; returns the dataset root (tmp_path/mme_cc)."""
    base = tmp_path / "mme_cc"
    base.mkdir(parents=True, exist_ok=True)
    for rel in images:
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_bytes(png(1, rel))
    text = records if isinstance(records, str) else json.dumps(records, indent=1)
    (base / name).write_text(text, encoding="utf-8")
    return base


class Judge:
    """A scripted judge: each call pops the next reply (a string, or an exception to raise)."""

    def __init__(self, *replies: str | BaseException) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []

    @property
    def calls(self) -> int:
        return len(self.prompts)

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.replies:
            raise AssertionError("the judge was called more often than scripted")
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        return reply


def _meta(subtask: str, criteria: str = "") -> dict[str, str]:
    return {"dimension": BY_ID[subtask].dimension, "question": f"A {subtask} question?", "criteria": criteria}


def _score(
    subtask: str, response: str, ask: Callable[[str], str] | None, item: str = "q0", reference: str | None = None
) -> RowResult:
    ref = REFERENCES[subtask] if reference is None else reference
    return benchmark.score(_meta(subtask), subtask, item, ref, response, ask=ask)


# --------------------------------------------------------------------------- subtasks


def test_subtask_table_matches_the_reference() -> None:
    assert [s.id for s in SUBTASKS] == SUBTASK_IDS
    assert {s.id: DIMENSIONS[s.dimension] for s in SUBTASKS} == DIMENSION_OF
    assert sum(s.size for s in SUBTASKS) == 1173
    sizes = {d: sum(s.size for s in SUBTASKS if DIMENSION_OF[s.id] == d) for d in set(DIMENSION_OF.values())}
    assert sizes == {"Spatial Reasoning": 319, "Geometric Reasoning": 605, "Visual Knowledge Reasoning": 249}
    assert sorted(FILES) == RELEASE_FILES and FILES["Maze06.json"] == FILES["Maze10.json"] == "Maze"


# --------------------------------------------------------------------------- loader


def test_release_gives_eleven_subtasks_from_twelve_files(release: Path) -> None:
    qs = data.load(release)
    assert len(qs) == 12 * 2
    assert {q.subtask for q in qs} == set(SUBTASK_IDS)
    per = {s: [q for q in qs if q.subtask == s] for s in SUBTASK_IDS}
    assert {s: len(v) for s, v in per.items()} == {s: 4 if s == "Maze" else 2 for s in SUBTASK_IDS}
    assert sorted(q.key for q in per["Maze"]) == ["Maze06#0", "Maze06#1", "Maze10#0", "Maze10#1"]
    assert len({q.key for q in qs}) == len(qs)
    for q in qs:
        assert q.reference == REFERENCES[q.subtask]
        assert q.criteria == ("every part must match." if q.row % 2 else "")
        assert "## " not in q.reference and "## " not in q.criteria
        assert len(q.images) == 1 + q.row % 2
        folder = Path(q.source).stem
        assert q.images == tuple(
            (release / "mme_cc" / f"{folder}/{q.row}_{k}.png").read_bytes() for k in range(len(q.images))
        )


def test_samples_carry_subtask_dimension_criteria_and_images_first(release: Path) -> None:
    samples = benchmark.samples(local_path=release)
    assert len(samples) == 24 and len({s.id for s in samples}) == 24
    for s in samples:
        assert s.metadata["subtask"] == s.subtest and s.answer == REFERENCES[s.subtest]
        assert s.metadata["dimension"] == BY_ID[s.subtest].dimension
        assert DIMENSIONS[s.metadata["dimension"]] == DIMENSION_OF[s.subtest]
        assert s.prompt[-1] == ("text", s.metadata["question"])
        assert s.image_order() == list(range(len(s.images)))
        assert s.prompt[: len(s.images)] == tuple(("image", k) for k in range(len(s.images)))
    mazes = benchmark.samples(subtests=["Maze"], local_path=release)
    assert len(mazes) == 4 and {s.subtest for s in mazes} == {"Maze"}
    with pytest.raises(ValueError, match="Maze06"):
        benchmark.samples(subtests=["Maze06"], local_path=release)


@pytest.mark.parametrize("how", ["data_root", "dataset_folder", "env", "explicit_beats_env"])
def test_data_location(release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
    if how == "data_root":
        qs = data.load(release)
    elif how == "dataset_folder":
        qs = data.load(release / "mme_cc")
    elif how == "env":
        monkeypatch.setenv("COGVIS_DATA_DIR", str(release))
        qs = data.load()
    else:
        monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "elsewhere"))
        qs = data.load(str(release))
    assert len(qs) == 24 and {q.subtask for q in qs} == set(SUBTASK_IDS)


@pytest.mark.parametrize("how", ["env", "explicit"])
def test_local_source_without_files_is_an_error_not_a_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    (tmp_path / "mme_cc").mkdir()
    if how == "env":
        monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path))
        with pytest.raises(FileNotFoundError, match="Maze06.json"):
            data.load()
    else:
        monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
        with pytest.raises(FileNotFoundError, match="Maze06.json"):
            data.load(tmp_path)


@pytest.mark.parametrize(
    ("file", "extra", "images", "expected"),
    [
        ("Jigsaw_Puzzle.json", {"Subtask": "Unblock_Me"}, ["Jigsaw_Puzzle/a.png"], "Unblock_Me"),
        ("Jigsaw_Puzzle.json", {"subtask": "Unblock_Me"}, ["Jigsaw_Puzzle/a.png"], "Unblock_Me"),
        ("Jigsaw_Puzzle.json", {"Subtask": "Indoor Directional Reasoning"}, [], "Indoor_Directional_Reasoning"),
        ("Jigsaw_Puzzle.json", {"Subtask": "Sandbagging", "subtask": "Maze"}, [], "Sandbagging"),
        ("Jigsaw_Puzzle.json", {"subtask": "Maze10"}, [], "Maze"),
        ("Jigsaw_Puzzle.json", None, ["Sandbagging/a.png", "Jigsaw_Puzzle/b.png"], "Sandbagging"),
        ("Jigsaw_Puzzle.json", {}, ["Maze06/a.png"], "Maze"),
        ("Maze10.json", None, ["Maze10/a.png"], "Maze"),
        ("Maze06.json", None, [], "Maze"),
        ("Chart_Modification.json", None, [], "Chart_Modification"),
    ],
)
def test_subtask_from_extra_then_image_folder_then_file(
    tmp_path: Path, file: str, extra: dict | None, images: list[str], expected: str
) -> None:
    rec = _record(images=images)
    if extra is not None:
        rec["extra"] = extra
    base = _write_one(tmp_path, [rec], name=file, images=tuple(images))
    (q,) = data.load(base)
    assert q.subtask == expected and q.key == f"{Path(file).stem}#0"


@pytest.mark.parametrize(
    ("text", "reference", "criteria"),
    [
        ("## The correct answer is: Blue", "Blue", ""),
        ("## The correct answer is:\n  Blue  \n## Scoring criteria: the exact colour", "Blue", "the exact colour"),
        (
            "Task recap.\n## The correct answer is: 2, 5, 9\n## Scoring criteria:\n- ascending\n- all three",
            "2, 5, 9",
            "- ascending\n- all three",
        ),
        ("## The correct answer is: Black wins ## Scoring criteria: both parts", "Black wins", "both parts"),
        ("Blue", "Blue", ""),  # no marker: the whole text is the reference
        ("  Step 3 is wrong \n", "Step 3 is wrong", ""),
        ("Blue\n## Scoring criteria: colour only", "Blue", "colour only"),
        ("## The correct answer is:   \n", "", ""),
    ],
)
def test_split_reference(text: str, reference: str, criteria: str) -> None:
    assert data.split_reference(text) == (reference, criteria)


def test_images_follow_image_list_order(tmp_path: Path) -> None:
    rels = ["Jigsaw_Puzzle/c.png", "Jigsaw_Puzzle/a.png", "Jigsaw_Puzzle/b.png"]
    base = _write_one(tmp_path, [_record(images=rels)], images=tuple(rels))
    (q,) = data.load(base)
    assert q.images == tuple((base / r).read_bytes() for r in rels)
    assert len(set(q.images)) == 3
    (s,) = benchmark.samples(local_path=base)
    assert [s.images[k] for k in s.image_order()] == [(base / r).read_bytes() for r in rels]


_GOOD = "Jigsaw_Puzzle/ok.png"


@pytest.mark.parametrize(
    ("case", "field", "message"),
    [
        ("dotdot", "image_list", "outside"),
        ("absolute", "image_list", "leaves the dataset root"),
        ("symlink_out", "image_list", "outside"),
        ("missing_image", "image_list", "does not exist"),
        ("undecodable_image", "image_list", "cannot be decoded"),
        ("image_list_not_list", "image_list", "list"),
        ("no_prompt", "prompt", "missing"),
        ("blank_prompt", "prompt", "empty"),
        ("no_ground_truth", "ground_truth.answer", "missing"),
        ("no_answer", "ground_truth.answer", "missing"),
        ("empty_reference", "ground_truth.answer", "no reference after"),
    ],
)
def test_bad_record_names_file_row_and_field(tmp_path: Path, case: str, field: str, message: str) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes(png(2, "outside"))
    bad: dict[str, Any] = _record(images=[_GOOD])
    if case == "dotdot":
        bad["image_list"] = [_GOOD, "../outside.png"]
    elif case == "absolute":
        bad["image_list"] = [str(outside)]
    elif case == "symlink_out":
        bad["image_list"] = ["Jigsaw_Puzzle/link.png"]
    elif case == "missing_image":
        bad["image_list"] = [_GOOD, "Jigsaw_Puzzle/nope.png"]
    elif case == "undecodable_image":
        bad["image_list"] = ["Jigsaw_Puzzle/junk.png"]
    elif case == "image_list_not_list":
        bad["image_list"] = _GOOD
    elif case == "no_prompt":
        del bad["prompt"]
    elif case == "blank_prompt":
        bad["prompt"] = "   "
    elif case == "no_ground_truth":
        del bad["ground_truth"]
    elif case == "no_answer":
        bad["ground_truth"] = {"explanation": "Blue"}
    elif case == "empty_reference":
        bad["ground_truth"] = {"answer": "## The correct answer is:  \n## Scoring criteria: colour"}
    base = _write_one(tmp_path, [_record(images=[_GOOD]), bad], images=(_GOOD,))
    if case == "symlink_out":
        os.symlink(outside, base / "Jigsaw_Puzzle" / "link.png")
    elif case == "undecodable_image":
        (base / "Jigsaw_Puzzle" / "junk.png").write_bytes(b"not an image")
    with pytest.raises(DataError) as err:
        data.load(base)
    assert err.value.file.endswith("Jigsaw_Puzzle.json")
    assert err.value.row == 1 and err.value.field == field
    assert "Jigsaw_Puzzle.json, row 1" in str(err.value) and message in str(err.value)


def test_record_that_is_not_an_object(tmp_path: Path) -> None:
    base = _write_one(tmp_path, [_record(), ["not", "an", "object"]])
    with pytest.raises(DataError, match=r"Jigsaw_Puzzle\.json, row 1: record is not an object"):
        data.load(base)


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    base = _write_one(tmp_path, '[\n  {"prompt": "a"},\n  {"prompt": oops}\n]\n', name="Sandbagging.json")
    with pytest.raises(DataError) as err:
        data.load(base)
    assert err.value.file.endswith("Sandbagging.json") and err.value.row == "line 3"
    assert "malformed JSON" in str(err.value) and "line 3" in str(err.value)


@pytest.mark.parametrize("top", [{"records": []}, "just text", 42, None])
def test_top_level_that_is_not_a_list(tmp_path: Path, top: Any) -> None:
    base = _write_one(tmp_path, json.dumps(top), name="Unblock_Me.json")
    with pytest.raises(DataError) as err:
        data.load(base)
    assert err.value.file.endswith("Unblock_Me.json") and err.value.row == "top level"
    assert "expected a list of records" in str(err.value)


# --------------------------------------------------------------------------- rule check


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("Reasoning first.\nFinal answer: Blue", "Blue"),
        ("Answer: 3\nOn reflection, no.\nFinal answer: 4", "4"),
        ("Answer: A\nAnswer: B", "B"),
        ("final ANSWER : Blue ", "Blue"),
        ("So the answer is: 7", "7"),
        ("Final answer：蓝色", "蓝色"),
        ("Final answer:\n  Blue\n", "Blue"),
        ("I looked at the image.\n\nBlue\n\n  \n", "Blue"),
        ("Blue", "Blue"),
        ("", ""),
        ("  \n \n", ""),
        ("Final answer:", ""),
    ],
)
def test_final_answer(response: str, expected: str) -> None:
    assert final_answer(response) == expected


@pytest.mark.parametrize(
    ("subtask", "response", "reference"),
    [
        ("Counterfactual_Instruction", "Final answer: Blue", "Blue"),
        ("Counterfactual_Instruction", "Final answer: blue", "Blue"),
        ("Counterfactual_Instruction", "Let me think.\nFinal Answer:   BLUE!! ", "Blue"),
        ("Counterfactual_Instruction", "Answer: Red\nFinal answer: **Blue**", "Blue"),
        ("Counterfactual_Instruction", "Reasoning.\n\nBlue.", "Blue"),  # no marker: the last non-empty line
        (
            "Indoor_Directional_Reasoning",
            "Final answer: the sofa is to the LEFT of the window",
            "The sofa is to the left of the window.",
        ),
        (
            "Indoor_Directional_Reasoning",
            "Final answer: The  sofa is to the\nleft of the window.",
            "The sofa is to the left of the window.",
        ),
        ("Gomoku_Variation", "Final answer: Black wins at (4,5)", "Black wins at (4, 5)"),
        ("Jigsaw_Puzzle", "Final answer: 2 - 1 - 4 - 3", "2-1-4-3"),
        ("Satellite_Image_Matching", "The answer is: image 3.", "Image 3"),
        ("Maze", "Final answer: 2, 5, 9, 14", "2, 5, 9, 14"),
        ("Maze", "Final answer: [2, 5, 9, 14]", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2 5 9 and 14", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2.0, 5, 9, 14", "2, 5, 9, 14"),
        ("Indoor_Deduplication_Counting", "Final answer: 7", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: There are 7 chairs.", "7"),
        ("Indoor_Deduplication_Counting", "I count 3 on the left and 4 on the right.\n7", "7"),
        ("Indoor_Deduplication_Counting", "Answer: 6\nFinal answer: 7", "7"),
    ],
)
def test_rule_grants_credit_on_unambiguous_matches(subtask: str, response: str, reference: str) -> None:
    assert rule_credit(subtask, response, reference) is True


@pytest.mark.parametrize(
    ("subtask", "response", "reference"),
    [
        ("Counterfactual_Instruction", "Final answer: Red", "Blue"),
        ("Counterfactual_Instruction", "Final answer: Blue or Red", "Blue"),
        ("Counterfactual_Instruction", "Final answer: not blue", "Blue"),
        ("Counterfactual_Instruction", "Final answer: Blue\nActually it might be red.", "Blue"),
        ("Counterfactual_Instruction", "Final answer: Blue\nFinal answer: Red", "Blue"),  # the last marker wins
        ("Counterfactual_Instruction", "Blue is likely.\nBut I am unsure", "Blue"),
        ("Counterfactual_Instruction", "", "Blue"),
        ("Counterfactual_Instruction", "   ", "Blue"),
        ("Counterfactual_Instruction", "Final answer: ", "Blue"),
        ("Counterfactual_Instruction", "Final answer: ...", "..."),  # nothing left after normalising
        ("Satellite_Image_Matching", "Final answer: Image 3 or Image 4", "Image 3"),
        ("Maze", "Final answer: 2, 5, 9", "2, 5, 9, 14"),
        ("Maze", "Final answer: 14, 9, 5, 2", "2, 5, 9, 14"),  # the task asks for ascending order
        ("Maze", "Final answer: [9, 2, 14, 5]", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2, 5, 9, 14 or 2, 6, 9, 14", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2, 5, 9, 14, 15", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2, 5, 9, 14, 14", "2, 5, 9, 14"),
        ("Maze", "Final answer: the path goes left, then down", "2, 5, 9, 14"),
        ("Maze", "Final answer: 2, 5, 9, 14", "the shortest path"),  # reference without numbers: ask the judge
        ("Indoor_Deduplication_Counting", "Final answer: 7 or 8", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: 17", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: -7", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: seven", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: 7\nWait, final answer: 8", "7"),
        ("Indoor_Deduplication_Counting", "Final answer: 7", "7 chairs in 2 rooms"),  # not a single number
        ("Indoor_Deduplication_Counting", "Final answer: 7", "seven"),
    ],
)
def test_rule_asks_the_judge_otherwise(subtask: str, response: str, reference: str) -> None:
    assert rule_credit(subtask, response, reference) is False


@pytest.mark.parametrize(
    ("subtask", "response", "reference"),
    [
        ("Chart_Modification", "Final answer: Change the bar for 2019 to 42", "Change the bar for 2019 to -42"),
        ("Counterfactual_Instruction", "Final answer: 1/2", "1.2"),
    ],
)
def test_rule_does_not_credit_sign_or_decimal_changes(subtask: str, response: str, reference: str) -> None:
    assert rule_credit(subtask, response, reference) is False


@pytest.mark.parametrize("subtask", SUBTASK_IDS)
def test_final_answer_plus_reference_gets_credit(subtask: str) -> None:
    """Echoing the reference is right everywhere but in Sandbagging, whose task is to get exactly one sub-answer right."""
    assert rule_credit(subtask, "Final answer: " + REFERENCES[subtask], REFERENCES[subtask]) is (
        subtask != "Sandbagging"
    )


@settings(max_examples=300, deadline=None)
@given(subtask=st.sampled_from(SUBTASK_IDS + ["Unknown_Task"]), response=st.text(), reference=st.text())
def test_rule_credit_never_raises(subtask: str, response: str, reference: str) -> None:
    assert rule_credit(subtask, response, reference) in (True, False)


@settings(max_examples=200, deadline=None)
@given(
    subtask=st.sampled_from(sorted(set(REFERENCES) - {"Sandbagging"})),
    reasoning=st.text(),
    marker=st.sampled_from(["Final answer: ", "final answer:", "FINAL ANSWER:\n", "Answer: ", "answer is: "]),
    upper=st.booleans(),
    trailing=st.sampled_from(["", ".", " ", "\n", "  \n"]),
)
def test_any_reasoning_then_final_answer_reference_gets_credit(
    subtask: str, reasoning: str, marker: str, upper: bool, trailing: str
) -> None:
    ref = REFERENCES[subtask]
    answer = ref.upper() if upper else ref
    assert rule_credit(subtask, reasoning + "\n" + marker + answer + trailing, ref) is True


# --------------------------------------------------------------------------- judge prompt


def test_judge_prompt_holds_question_reference_criteria_and_answer() -> None:
    p = judge_prompt(
        "Gomoku_Variation",
        "Who wins on this board?",
        "Black wins at (4, 5)",
        "Both the colour and the cell must match.",
        "Reasoning...\nFinal answer: White",
    )
    for part in (
        "Who wins on this board?",
        "Black wins at (4, 5)",
        "Both the colour and the cell must match.",
        "Final answer: White",
        "answer_score",
    ):
        assert part in p
    assert p.index("Who wins") < p.index("Black wins at") < p.index("Both the colour") < p.index("Final answer: White")
    bare = judge_prompt("Gomoku_Variation", "Who wins on this board?", "Black wins at (4, 5)", "", "White")
    assert "Scoring criteria" not in bare and "Black wins at (4, 5)" in bare and "White" in bare


@pytest.mark.parametrize("subtask", SUBTASK_IDS)
def test_special_rubrics_only_for_their_subtasks(subtask: str) -> None:
    p = judge_prompt(subtask, "Q?", REFERENCES[subtask], "", "Final answer: x")
    unblock = "minimum number of moves" in p and "order of moves does not matter" in p
    sandbag = "exactly one of its four sub-answers" in p
    assert unblock == (subtask == "Unblock_Me")
    assert sandbag == (subtask == "Sandbagging")
    assert (scoring.RUBRICS["Unblock_Me"] in p) == (subtask == "Unblock_Me")
    assert (scoring.RUBRICS["Sandbagging"] in p) == (subtask == "Sandbagging")


# --------------------------------------------------------------------------- judge parsing


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('{"answer_score": [[1]]}', True),
        ('{"answer_score": [[0]]}', False),
        ('{ "answer_score" : [ [ 1 ] ] }', True),
        ('{\n  "answer_score": [\n    [\n      0\n    ]\n  ]\n}', False),
        ('{"answer_score":[[1]]}', True),
        ('```json\n{"answer_score": [[1]]}\n```', True),
        ('The final answer differs from the reference.\n```json\n{"answer_score": [[0]]}\n```', False),
        ('{"answer_score": 1}', True),
        ('"answer_score": 0', False),
        ('{"answer_score": 1.0}', True),
        ('{"answer_score": [[0.0]]}', False),
        ('{"answer_score": "1"}', True),
        ('{"answer_score": [["0"]]}', False),
        ('First {"answer_score": [[1]]},\non reflection {"answer_score": [[0]]}', False),
        ('First {"answer_score": [[0]]},\non reflection {"answer_score": [[1]]}', True),
    ],
)
def test_parse_judge(reply: str, verdict: bool) -> None:
    assert parse_judge(reply) is verdict


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "   ",
        "garbage",
        "The answer is correct.",
        "1",
        '{"score": 1}',
        '{"answer_score": [[2]]}',
        '{"answer_score": 2}',
        '{"answer_score": -1}',
        '{"answer_score": []}',
        '{"answer_score": null}',
        '{"answer_score": "yes"}',
    ],
)
def test_parse_judge_refuses_unreadable_replies(reply: str) -> None:
    with pytest.raises(JudgeReplyError):
        parse_judge(reply)


@pytest.mark.parametrize(
    "reply",
    [
        '{"answer_score": [[10]]}',
        '{"answer_score": 12}',
        '{"answer_score": [[1.5]]}',
        '{"answer_score": 0.5}',
        '{"answer_score": 1e5}',
    ],
)
def test_parse_judge_refuses_out_of_range_numbers(reply: str) -> None:
    with pytest.raises(JudgeReplyError):
        parse_judge(reply)


_SCOREISH = st.builds(
    lambda a, key, b, c: a + key + b + c,
    st.text(max_size=30),
    st.sampled_from(['"answer_score": ', "answer_score:", '{"answer_score": [[', "answer_score"]),
    st.text(alphabet='01.2-e[]" \n', max_size=12),
    st.text(max_size=30),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reply=st.text() | _SCOREISH)
def test_parse_judge_raises_only_judge_reply_error(reply: str) -> None:
    try:
        verdict = parse_judge(reply)
    except JudgeReplyError:
        return
    assert verdict in (True, False)


# --------------------------------------------------------------------------- scoring with a scripted judge


def test_rule_settled_rows_make_no_judge_call() -> None:
    judge = Judge()
    for subtask in SUBTASK_IDS:
        row = _score(subtask, "Thinking...\nFinal answer: " + REFERENCES[subtask], judge)
        assert row.correct is (subtask != "Sandbagging")  # echoing all four true sub-answers is Sandbagging's failure
        assert row.lenient_correct is row.correct and row.parsed and not row.failed
        assert row.tags["settled"] == "rule" and "judge_calls" not in row.tags and "judge_error" not in row.tags
        assert row.tags["dimension"] == BY_ID[subtask].dimension
    assert judge.calls == 0


@pytest.mark.parametrize(
    ("reply", "correct"), [(YES, True), (NO, False), ('```json\n{"answer_score": [[1]]}\n```', True)]
)
def test_unmatched_answer_goes_to_the_judge_once(reply: str, correct: bool) -> None:
    judge = Judge(reply)
    row = _score("Gomoku_Variation", "Final answer: black wins at the cell (4, 5)", judge)
    assert judge.calls == 1 and row.correct is correct
    assert row.tags["settled"] == "judge" and row.tags["judge_calls"] == "1" and "judge_error" not in row.tags
    (prompt,) = judge.prompts
    assert "A Gomoku_Variation question?" in prompt and REFERENCES["Gomoku_Variation"] in prompt
    assert "black wins at the cell (4, 5)" in prompt


def test_judge_sees_criteria_from_the_sample_metadata(release: Path) -> None:
    (s,) = [s for s in benchmark.samples(subtests=["Unblock_Me"], local_path=release) if s.metadata["criteria"]]
    judge = Judge(NO)
    benchmark.score(s.metadata, s.subtest, s.item, s.answer, "Final answer: 4 moves", ask=judge)
    (prompt,) = judge.prompts
    for part in (
        s.metadata["question"],
        s.answer,
        "every part must match.",
        "Final answer: 4 moves",
        scoring.RUBRICS["Unblock_Me"],
    ):
        assert part in prompt


@pytest.mark.parametrize(
    ("replies", "calls", "correct", "error"),
    [
        (["garbage", "still garbage"], 2, False, "JudgeReplyError"),
        (["garbage", YES], 2, True, None),
        (["", NO], 2, False, None),
        ([TimeoutError("judge timed out"), YES], 2, True, None),
        ([TimeoutError("judge timed out"), TimeoutError("judge timed out")], 2, False, "TimeoutError"),
        ([ConnectionError("refused"), "garbage"], 2, False, "JudgeReplyError"),
    ],
)
def test_judge_trouble_is_retried_once_then_a_judge_error(
    replies: list, calls: int, correct: bool, error: str | None
) -> None:
    judge = Judge(*replies)
    row = _score("Counterfactual_Instruction", "Final answer: Cyan", judge)
    assert judge.calls == calls == benchmark.JUDGE_ATTEMPTS
    assert row.tags["judge_calls"] == str(calls)
    assert row.correct is correct and row.parsed and not row.failed
    if error is None:
        assert "judge_error" not in row.tags
    else:
        assert error in row.tags["judge_error"]
    rep = build_report([row])
    assert rep.overall.judge_errors == (error is not None) and rep.overall.unparsed_rows == 0
    assert rep.overall.accuracy == float(correct) and rep.judge_calls == calls


def test_judge_timeout_is_a_judge_error_not_a_crash() -> None:
    def ask(prompt: str) -> str:
        raise TimeoutError("judge timed out")

    row = _score("Sandbagging", "Final answer: sub-answer 3", ask)
    assert not row.correct and "TimeoutError" in row.tags["judge_error"] and row.parsed
    assert build_report([row]).overall.judge_errors == 1


@pytest.mark.parametrize(("response", "correct"), [("Final answer: Blue", True), ("Final answer: Cyan", False)])
def test_no_judge_configured(response: str, correct: bool) -> None:
    row = _score("Counterfactual_Instruction", response, None)
    assert row.correct is correct
    if correct:
        assert row.tags["settled"] == "rule" and "judge_error" not in row.tags
    else:
        assert row.tags["judge_error"] == "no judge configured" and "judge_calls" not in row.tags
        rep = build_report([row])
        assert rep.overall.judge_errors == 1 and rep.overall.unparsed_rows == 0 and rep.judge_calls == 0


@pytest.mark.parametrize("response", [FAILED, FAILED + "\nFinal answer: 7", "[LMMS_EVAL_REQUEST_FAILED]"])
def test_failed_requests_make_no_judge_call(response: str) -> None:
    judge = Judge()
    row = _score("Indoor_Deduplication_Counting", response, judge)
    assert judge.calls == 0
    assert row.failed and not row.correct and not row.lenient_correct and not row.parsed
    assert "judge_error" not in row.tags and "settled" not in row.tags
    rep = build_report([row])
    assert rep.overall.failed_requests == 1 and rep.overall.judge_errors == 0 and rep.overall.unparsed_rows == 0


# --------------------------------------------------------------------------- report


# subtask -> outcomes; "rule" = oracle answer, "yes"/"no" = judge verdict, "garbage" = judge error after 2 calls,
# "nojudge" = ask=None, "failed" = failed request. Subtask sizes are unequal on purpose (1, 3, 4, 2, 6).
PLAN = {
    "Satellite_Image_Matching": ["rule"],
    "Indoor_Deduplication_Counting": ["no", "garbage", "failed"],
    "Maze": ["rule", "no", "no", "no"],
    "Unblock_Me": ["yes", "yes"],
    "Sandbagging": ["rule", "rule", "rule", "yes", "yes", "nojudge"],
}


def _planned_rows() -> tuple[list[RowResult], int]:
    rows, calls = [], 0
    for subtask, outcomes in PLAN.items():
        for n, outcome in enumerate(outcomes):
            judge = {"yes": Judge(YES), "no": Judge(NO), "garbage": Judge("??", "??")}.get(outcome, Judge())
            response = {
                "rule": "Final answer: " + RIGHT[subtask],
                "failed": FAILED,
            }.get(outcome, "Final answer: something else entirely")
            rows.append(_score(subtask, response, None if outcome == "nojudge" else judge, item=f"{subtask}#{n}"))
            calls += judge.calls
    return rows, calls


def test_report_per_subtask_dimension_and_overall_as_the_paper() -> None:
    rows, calls = _planned_rows()
    rep = build_report(rows)
    assert calls == 10  # no: 1+3, garbage: 2, yes: 2+2
    # per subtask, in the benchmark's subtask order
    assert list(rep.subtasks) == [
        "Satellite_Image_Matching",
        "Indoor_Deduplication_Counting",
        "Maze",
        "Unblock_Me",
        "Sandbagging",
    ]
    acc = {k: v.accuracy for k, v in rep.subtasks.items()}
    assert acc == pytest.approx(
        {
            "Satellite_Image_Matching": 1.0,
            "Indoor_Deduplication_Counting": 0.0,
            "Maze": 0.25,
            "Unblock_Me": 1.0,
            "Sandbagging": 5 / 6,
        }
    )
    assert {k: v.items for k, v in rep.subtasks.items()} == {k: len(v) for k, v in PLAN.items()}
    counting = rep.subtasks["Indoor_Deduplication_Counting"]
    assert (counting.judge_errors, counting.failed_requests, counting.unparsed_rows) == (1, 1, 0)
    assert rep.subtasks["Sandbagging"].judge_errors == 1
    # per dimension (full names): the unweighted mean of its subtasks (per question it would be 1/4, 3/6, 5/6)
    assert list(rep.dims) == ["Spatial Reasoning", "Geometric Reasoning", "Visual Knowledge Reasoning"]
    assert {k: v.accuracy for k, v in rep.dims.items()} == pytest.approx(
        {
            "Spatial Reasoning": (1.0 + 0.0) / 2,
            "Geometric Reasoning": (0.25 + 1.0) / 2,
            "Visual Knowledge Reasoning": 5 / 6,
        }
    )
    assert {k: v.items for k, v in rep.dims.items()} == {
        "Spatial Reasoning": 4,
        "Geometric Reasoning": 6,
        "Visual Knowledge Reasoning": 6,
    }
    assert rep.dimensions() == {"dimension": rep.dims}
    # overall: the unweighted mean of the dimensions, not of the subtasks (0.6167) nor over the 16 questions (9/16)
    assert rep.overall.accuracy == pytest.approx((0.5 + 0.625 + 5 / 6) / 3) and rep.overall.items == 16
    assert rep.overall.accuracy != pytest.approx(sum(acc.values()) / len(acc))
    assert rep.per_question.accuracy == pytest.approx(9 / 16) and rep.per_question.items == 16
    assert (rep.overall.judge_errors, rep.overall.failed_requests, rep.overall.unparsed_rows) == (2, 1, 0)
    assert rep.judge_calls == calls == 10 and rep.rule_settled == 5
    assert rep.extras() == [
        ("accuracy_per_question", {"scope": "questions"}, pytest.approx(9 / 16), 16),
        ("judge_calls", {"scope": "all"}, 10.0, 16),
        ("rule_settled_share", {"scope": "all"}, pytest.approx(5 / 16), 16),
        ("judge_errors", {"scope": "all"}, 2.0, 16),
    ]
    d = rep.to_dict()
    assert d["judge_calls"] == 10 and d["rule_settled"] == 5 and d["overall"]["items"] == 16
    assert list(d["subtasks"]) == list(rep.subtasks) and set(d["dimensions"]) == set(rep.dims)


def test_report_survives_row_roundtrip() -> None:
    rows, _ = _planned_rows()
    again = build_report(RowResult.from_dict(json.loads(json.dumps(r.to_dict()))) for r in rows)
    assert again.to_dict() == build_report(rows).to_dict()


def test_oracle_scores_full_marks_by_rule_alone(release: Path) -> None:
    samples = benchmark.samples(local_path=release)
    judge = Judge()
    rows = [
        benchmark.score(s.metadata, s.subtest, s.item, s.answer, benchmark.oracle_response(s), ask=judge)
        for s in samples
    ]
    rep = build_report(rows)
    assert judge.calls == 0 and rep.judge_calls == 0
    assert rep.overall.accuracy == 1.0 and rep.overall.items == 24 and rep.rule_settled == 24
    assert list(rep.subtasks) == SUBTASK_IDS and all(v.accuracy == 1.0 for v in rep.subtasks.values())
    assert rep.subtasks["Maze"].items == 4
    assert {k: v.items for k, v in rep.dims.items()} == {
        "Spatial Reasoning": 6,
        "Geometric Reasoning": 12,
        "Visual Knowledge Reasoning": 6,
    }
    assert dict((name, value) for name, _, value, _ in rep.extras()) == {
        "accuracy_per_question": 1.0,
        "judge_calls": 0.0,
        "rule_settled_share": 1.0,
        "judge_errors": 0.0,
    }


def test_hub_snapshot_is_used_without_a_local_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No network here: the hub download is replaced by a snapshot folder in the released layout."""
    import huggingface_hub

    snapshot = write_release(tmp_path / "snap", per_file=1, seed=2) / "mme_cc"
    calls = []
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
    monkeypatch.setattr(
        huggingface_hub,
        "snapshot_download",
        lambda repo_id, repo_type: calls.append((repo_id, repo_type)) or str(snapshot),
    )
    questions = data.load()
    assert calls == [("MaxwellWen/MME-CC", "dataset")]
    assert len(questions) == 12 and {q.subtask for q in questions} >= {"Maze", "Sandbagging"}
