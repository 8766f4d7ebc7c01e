"""VisualPuzzles unit tests: loader, the paper's prompts, the answer cascade, scores and the report.

Facts come from the implementers' reference (VisualPuzzles part): 4 options A-D or
null when drawn in the image, the hub split renamed train -> test, the appendix B
prompt (image first, then text) with a direct and a CoT instruction, the official
parsing cascade without its random fallback, and a report per condition, category,
difficulty and option type with the better of direct and CoT as the headline.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogvis_tasks.core.aggregate import GroupScore, RowResult
from cogvis_tasks.core.errors import DataError
from cogvis_tasks.visualpuzzles import benchmark, data
from cogvis_tasks.visualpuzzles.extract import extract_option
from cogvis_tasks.visualpuzzles.report import build_report
from cogvis_tasks.visualpuzzles.synthetic import records, write_jsonl, write_parquet

# Verbatim from the reference (the paper's appendix B), deliberately not imported from the package.
DIRECT = "Answer the question with the option's letter from the given choices directly."
COT = (
    "Solve the multiple-choice question and then answer with the option letter from the given choices. The "
    "last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER "
    "is one of options. Think step by step before answering."
)
IMAGE_OPTIONS = "Options: Choose from (A) (B) (C) (D) in the image."
FAILED = "[LMMS_EVAL_REQUEST_FAILED after 3 retries: 500 boom]"


# ----------------------------------------------------------------------------- helpers


def _write(root: Path, recs: list[dict[str, Any]], fmt: str, name: str | None = None) -> Path:
    """Write records in the hub parquet layout or the jsonl + images layout; return the data file.

    ``image`` may be bytes (stored as bytes / written to images/<id>.png) or a str (kept as a path).
    """
    folder = root / "visualpuzzles"
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = folder / "data" / (name or "test-00000-of-00001.parquet")
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = []
        for r in recs:
            row = dict(r)
            if "image" in row:
                img = row["image"]
                row["image"] = {"bytes": img, "path": None} if isinstance(img, bytes) else {"bytes": None, "path": img}
            rows.append(row)
        pq.write_table(pa.Table.from_pylist(rows), path)
        return path
    (folder / "images").mkdir(parents=True, exist_ok=True)
    path = folder / (name or "test.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        for r in recs:
            row = dict(r)
            if isinstance(row.get("image"), bytes):
                rel = f"images/{row.get('id', 'x')}.png"
                (folder / rel).write_bytes(row["image"])
                row["image"] = rel
            fh.write(json.dumps(row) + "\n")
    return path


def _strip(s: Any) -> tuple:
    """A sample without where it came from (the source file differs between layouts)."""
    return (
        s.id,
        s.benchmark,
        s.subtest,
        s.item,
        s.prompt,
        s.images,
        s.answer,
        {k: v for k, v in s.metadata.items() if k != "source"},
    )


@pytest.fixture(params=["parquet", "jsonl"])
def fmt(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(autouse=True)
def _no_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)


# ----------------------------------------------------------------------------- loader


def test_parquet_and_jsonl_layouts_give_identical_samples(tmp_path: Path) -> None:
    a = benchmark.samples(local_path=write_parquet(tmp_path / "a", n=20, seed=5))
    b = benchmark.samples(local_path=write_jsonl(tmp_path / "b", n=20, seed=5))
    assert len(a) == len(b) == 40
    assert [_strip(s) for s in a] == [_strip(s) for s in b]
    assert a[0].metadata["source"].endswith("test-00000-of-00001.parquet") and b[0].metadata["source"].endswith(
        "test.jsonl"
    )
    recs = records(20, 5)
    puzzles = data.load(tmp_path / "a")
    assert [p.id for p in puzzles] == [str(r["id"]) for r in recs]
    assert [p.image for p in puzzles] == [r["image"] for r in recs]  # bytes as stored
    assert [p.row for p in puzzles] == list(range(20))
    assert {p.category for p in puzzles} == set(benchmark.CATEGORIES)
    assert {p.difficulty for p in puzzles} == set(benchmark.DIFFICULTIES)
    assert {p.answer for p in puzzles} <= set("ABCD")
    assert sum(p.options is None for p in puzzles) == 10


@pytest.mark.parametrize(
    ("files", "expected_n", "expected_name"),
    [
        ({"test-00000-of-00001.parquet": 3, "train-00000-of-00001.parquet": 5}, 3, "test-00000-of-00001.parquet"),
        ({"train-00000-of-00001.parquet": 5}, 5, "train-00000-of-00001.parquet"),
        (
            {"test-00000-of-00002.parquet": 2, "test-00001-of-00002.parquet": 4, "train-00000-of-00001.parquet": 7},
            6,
            None,
        ),
    ],
)
def test_split_preference_test_over_train(
    tmp_path: Path, files: dict[str, int], expected_n: int, expected_name: str | None
) -> None:
    for k, (name, n) in enumerate(files.items()):  # shards of one split hold distinct ids
        _write(tmp_path, [{**r, "id": r["id"] + 100 * k} for r in records(n, seed=len(name) + n)], "parquet", name)
    puzzles = data.load(tmp_path)
    assert len(puzzles) == expected_n
    if expected_name:
        assert {Path(p.source).name for p in puzzles} == {expected_name}
    else:
        assert all(Path(p.source).name.startswith("test-") for p in puzzles)


def test_data_dir_resolution_and_explicit_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_root = write_parquet(tmp_path / "env", n=4, seed=1)
    local_root = write_jsonl(tmp_path / "local", n=6, seed=2)
    monkeypatch.setenv("COGVIS_DATA_DIR", str(env_root))
    assert len(data.load()) == 4
    assert {Path(p.source).parent.name for p in data.load()} == {"data"}  # $COGVIS_DATA_DIR/visualpuzzles/data/...
    assert len(benchmark.samples()) == 8
    # An explicit path wins over the environment: a data root, the benchmark folder, or the file itself.
    for local in (local_root, local_root / "visualpuzzles", local_root / "visualpuzzles" / "test.jsonl"):
        assert len(data.load(local)) == 6, local
    monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError):
        data.load()
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no \\*.parquet or \\*.jsonl"):
        data.load(tmp_path / "empty")


def test_hub_accepts_the_old_train_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network: the hub download is replaced by a Dataset in the hub's schema that only has 'train'."""
    import datasets

    recs = records(3, seed=9)
    features = datasets.Features(
        {
            "id": datasets.Value("int64"),
            "image": datasets.Image(),
            "question": datasets.Value("string"),
            "options": datasets.List(datasets.Value("string")),
            "answer": datasets.Value("string"),
            "category": datasets.Value("string"),
            "difficulty": datasets.Value("string"),
        }
    )
    hub = datasets.Dataset.from_list(
        [{**r, "image": {"bytes": r["image"], "path": None}} for r in recs], features=features
    )
    calls: list[tuple[str, str]] = []

    def load_dataset(name: str, split: str) -> datasets.Dataset:
        calls.append((name, split))
        if split != "train":
            raise ValueError(f"Unknown split {split!r}")
        return hub

    monkeypatch.setattr(datasets, "load_dataset", load_dataset)
    puzzles = data.load()
    assert calls == [("neulab/VisualPuzzles", "test"), ("neulab/VisualPuzzles", "train")]
    assert [p.image for p in puzzles] == [r["image"] for r in recs]
    assert [p.options for p in puzzles] == [tuple(r["options"]) if r["options"] else None for r in recs]


@pytest.mark.parametrize(
    ("over", "answer", "category", "difficulty"),
    [
        ({"answer": "b"}, "B", "spatial", "easy"),
        ({"answer": "(b)"}, "B", "spatial", "easy"),
        ({"answer": "(C)"}, "C", "spatial", "easy"),
        ({"answer": " d "}, "D", "spatial", "easy"),
        ({"answer": "A", "category": "Spatial", "difficulty": "EASY"}, "A", "spatial", "easy"),
        ({"answer": "A", "category": " ALGORITHMIC ", "difficulty": "Hard "}, "A", "algorithmic", "hard"),
    ],
)
def test_answer_category_and_difficulty_normalised(
    tmp_path: Path, fmt: str, over: dict, answer: str, category: str, difficulty: str
) -> None:
    rec = {**records(1)[0], "category": "spatial", "difficulty": "easy", **over}
    _write(tmp_path, [rec], fmt)
    (p,) = data.load(tmp_path)
    assert (p.answer, p.category, p.difficulty) == (answer, category, difficulty)
    (direct, cot) = benchmark.samples(local_path=tmp_path)
    assert direct.answer == cot.answer == answer
    assert direct.metadata["category"] == category and direct.metadata["difficulty"] == difficulty


BAD_RECORDS: list[tuple[str, Any, str, str]] = [
    # (id, override (None value: delete the key), field, message)
    ("missing-question", {"question": None}, "question", "missing"),
    ("missing-answer", {"answer": None}, "answer", "missing"),
    ("empty-category", {"category": ""}, "category", "missing"),
    ("missing-difficulty", {"difficulty": None}, "difficulty", "missing"),
    ("missing-image", {"image": None}, "image", "missing"),
    ("answer-E", {"answer": "E"}, "answer", "not one of ABCD"),
    ("answer-(e)", {"answer": "(e)"}, "answer", "not one of ABCD"),
    ("answer-1", {"answer": "1"}, "answer", "not one of ABCD"),
    ("three-options", {"options": ["a", "b", "c"]}, "options", "four options"),
    ("five-options", {"options": ["a", "b", "c", "d", "e"]}, "options", "four options"),
    ("undecodable-image", {"image": b"this is not an image at all"}, "image", "cannot be decoded"),
]


@pytest.mark.parametrize(("over", "field", "message"), [pytest.param(o, f, m, id=i) for i, o, f, m in BAD_RECORDS])
def test_bad_records_name_file_row_and_field(tmp_path: Path, fmt: str, over: dict, field: str, message: str) -> None:
    good, bad = records(2, seed=3)
    bad = {**bad, **over}
    for k, v in over.items():
        if v is None:
            del bad[k]
    path = _write(tmp_path, [good, bad], fmt)
    with pytest.raises(DataError) as err:
        benchmark.samples(local_path=tmp_path)
    assert err.value.file.endswith(path.name)
    assert (err.value.row, err.value.field) == (1, field)
    assert f"row 1, field {field!r}" in str(err.value) and message in str(err.value)


@pytest.mark.parametrize("answer", ["AB", "BCD", "()", " "])
def test_answer_must_be_exactly_one_letter(tmp_path: Path, answer: str) -> None:
    good, bad = records(2, seed=3)
    path = _write(tmp_path, [good, {**bad, "answer": answer}], "jsonl")
    with pytest.raises(DataError) as err:
        data.load(tmp_path)
    assert err.value.file.endswith(path.name) and (err.value.row, err.value.field) == (1, "answer")


@pytest.mark.parametrize(
    ("image", "setup"),
    [
        pytest.param("../x.png", "outside", id="dotdot-escape"),
        pytest.param("images/../../x.png", "outside", id="nested-escape"),
        pytest.param("ABSOLUTE", "outside", id="absolute-path"),
        pytest.param("images/link.png", "symlink", id="symlink-escape"),
        pytest.param("images/nope.png", "none", id="missing-file"),
        pytest.param("images", "none", id="a-directory"),
    ],
)
def test_jsonl_image_path_must_name_a_file_inside_the_folder(tmp_path: Path, image: str, setup: str) -> None:
    outside = tmp_path / "x.png"  # exists, a valid PNG, but outside tmp_path/visualpuzzles
    outside.write_bytes(records(1)[0]["image"])
    image = str(outside) if image == "ABSOLUTE" else image
    good, bad = records(2, seed=3)
    path = _write(tmp_path, [good, {**bad, "image": image}], "jsonl")
    if setup == "symlink":
        os.symlink(outside, tmp_path / "visualpuzzles" / "images" / "link.png")
    with pytest.raises(DataError) as err:
        data.load(tmp_path)
    assert err.value.file.endswith(path.name) and (err.value.row, err.value.field) == (1, "image")
    assert any(m in err.value.message for m in ("does not exist", "outside", "not a file")), err.value.message


def test_jsonl_image_in_a_subfolder_is_read(tmp_path: Path) -> None:
    (rec,) = records(1, seed=4)
    folder = tmp_path / "visualpuzzles" / "images" / "deep"
    folder.mkdir(parents=True)
    (folder / "p.png").write_bytes(rec["image"])
    _write(tmp_path, [{**rec, "image": "images/./deep/p.png"}], "jsonl")
    assert data.load(tmp_path)[0].image == rec["image"]


def test_jsonl_undecodable_image_file(tmp_path: Path) -> None:
    good, bad = records(2, seed=3)
    path = _write(tmp_path, [good, {**bad, "image": "images/bad.png"}], "jsonl")
    (tmp_path / "visualpuzzles" / "images" / "bad.png").write_bytes(b"\x89PNG but truncated garbage")
    with pytest.raises(DataError) as err:
        data.load(tmp_path)
    assert err.value.file.endswith(path.name) and (err.value.row, err.value.field) == (1, "image")


def test_parquet_row_without_image_bytes(tmp_path: Path) -> None:
    good, bad = records(2, seed=3)
    path = _write(tmp_path, [good, {**bad, "image": "images/1001.png"}], "parquet")  # a path but no bytes, no folder
    with pytest.raises(DataError) as err:
        data.load(tmp_path)
    assert err.value.file.endswith(path.name) and (err.value.row, err.value.field) == (1, "image")


@pytest.mark.parametrize("line", ['{"id": 1, "question": "unterminated', "not json at all", "{'id': 1}"])
def test_malformed_jsonl_line(tmp_path: Path, line: str) -> None:
    path = _write(tmp_path, records(2, seed=3), "jsonl")
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    with pytest.raises(DataError) as err:
        data.load(tmp_path)
    assert err.value.file.endswith("test.jsonl") and err.value.row == 2 and err.value.field is None
    assert "row 2" in str(err.value) and "malformed JSON" in str(err.value)


# ----------------------------------------------------------------------------- prompts


def _puzzle(options: tuple[str, ...] | None, question: str = "Which shape comes next?") -> data.Puzzle:
    return data.Puzzle(
        id="42", image=records(1)[0]["image"], question=question, options=options, answer="C",
        category="inductive", difficulty="medium", source="mem", row=0,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("options", "condition", "expected"),
    [
        (
            ("a circle", "a square", "a star", "a cross"),
            "direct",
            "Question: Which shape comes next?\nOptions:\n(A) a circle\n(B) a square\n(C) a star\n(D) a cross\n"
            + DIRECT,
        ),
        (
            ("a circle", "a square", "a star", "a cross"),
            "cot",
            "Question: Which shape comes next?\nOptions:\n(A) a circle\n(B) a square\n(C) a star\n(D) a cross\n" + COT,
        ),
        (None, "direct", "Question: Which shape comes next?\n" + IMAGE_OPTIONS + "\n" + DIRECT),
        (None, "cot", "Question: Which shape comes next?\n" + IMAGE_OPTIONS + "\n" + COT),
    ],
)
def test_render_is_the_papers_prompt(options: tuple[str, ...] | None, condition: str, expected: str) -> None:
    assert benchmark.render(_puzzle(options), condition) == expected
    assert benchmark.render(_puzzle(options, "  Which shape comes next?\n"), condition) == expected  # question stripped
    sample = benchmark.sample_from_puzzle(_puzzle(options), condition)
    assert sample.prompt == (("image", 0), ("text", expected))  # image first, then text
    assert [k for k, _ in sample.parts()] == ["image", "text"]
    assert sample.images == (_puzzle(None).image,) and sample.answer == "C" and sample.subtest == condition
    assert sample.metadata["option_type"] == ("image" if options is None else "text")
    assert sample.metadata["options"] == (list(options) if options else None)


def test_instructions_are_verbatim() -> None:
    assert benchmark.INSTRUCTIONS == {"direct": DIRECT, "cot": COT}


def test_samples_by_condition(tmp_path: Path) -> None:
    root = write_parquet(tmp_path, n=6, seed=2)
    both = benchmark.samples(local_path=root)
    assert [s.subtest for s in both] == ["direct"] * 6 + ["cot"] * 6
    assert all(s.text().endswith(DIRECT) for s in both[:6]) and all(s.text().endswith(COT) for s in both[6:])
    for subtests in (["cot"], ["COT"], ("cot",)):
        cot = benchmark.samples(subtests=subtests, local_path=root)
        assert [s.subtest for s in cot] == ["cot"] * 6
        assert [_strip(s) for s in cot] == [_strip(s) for s in both[6:]]
    assert [s.subtest for s in benchmark.samples(condition="direct", local_path=root)] == ["direct"] * 6
    assert [s.subtest for s in benchmark.samples(subtests=["direct", "cot"], local_path=root)] == [
        s.subtest for s in both
    ]
    for s in both:
        assert s.prompt[0] == ("image", 0) and s.prompt[1][0] == "text" and len(s.prompt) == 2
        assert s.text().startswith("Question: ")
        opts = s.metadata["options"]
        if opts is None:
            assert IMAGE_OPTIONS in s.text()
        else:
            assert (
                "Options:\n" + "".join(f"({letter}) {o}\n" for letter, o in zip("ABCD", opts, strict=True)) in s.text()
            )


@pytest.mark.parametrize("subtests", [["bogus"], ["cot", "sideways"], ["Direct ", "cot"]])
def test_unknown_condition_raises(tmp_path: Path, subtests: list[str]) -> None:
    root = write_parquet(tmp_path, n=2)
    with pytest.raises(ValueError, match="unknown VisualPuzzles prompt condition"):
        benchmark.samples(subtests=subtests, local_path=root)


@pytest.mark.parametrize("condition", ["bogus", "COT"])
def test_unknown_condition_keyword_raises(tmp_path: Path, condition: str) -> None:
    root = write_parquet(tmp_path, n=2)
    with pytest.raises(ValueError):
        benchmark.samples(condition=condition, local_path=root)


# ----------------------------------------------------------------------------- extraction

TEXT_OPTIONS = ("red circle", "blue square", "green star", "black cross")

EXTRACT_CASES: list[tuple[str, tuple[str, ...] | None, str]] = [
    # "Answer: (X)" is the most explicit pattern and beats every later one
    ("Answer: (B)\nThough (C) is tempting.", None, "B"),
    ("(D) first. Answer: (a) and C) and {C} and $C$ and C.", None, "A"),
    ("Answer: (A) ... on reflection Answer: (C)", None, "C"),  # within a pattern the last match wins
    # "Answer: X" beats "(X)" and the rest
    ("Answer: B, not (C).", None, "B"),
    ("Answer: A\nwait.\nAnswer: D", None, "D"),
    ("Answer:c", None, "C"),
    ("Final Answer: d", None, "D"),
    ("Answer: Because of symmetry, (C).", None, "C"),  # 'Because' is not a letter answer
    # "(X)", last wins; beats "X)"
    ("Between (A) and (D) I choose (c)", None, "C"),
    ("(A) looks wrong; C) is right", None, "A"),
    # "X)" at the start or after whitespace; beats "{X}"
    ("C) because the pattern rotates", None, "C"),
    ("I pick B) over {D}", None, "B"),
    ("fooA) is not an option mark", None, ""),
    # "{X}" beats "$X$"
    ("{d} and $B$", None, "D"),
    # "$X$" beats " X."
    ("$c$ rather than B.", None, "C"),
    # " X."
    ("The answer is B.", None, "B"),
    ("I'd go with d. Certainly.", None, "D"),
    # bare letter: only when the whole response is <= 5 characters
    ("B", None, "B"),
    ("c", None, "C"),
    (" D\n", None, "D"),
    ("  a  ", None, "A"),
    ("I'd say A", None, ""),
    ("A or B", None, ""),
    ("AB", None, ""),
    ("Maybe", None, ""),
    # letters E-Z are never answers
    ("E", None, ""),
    ("Answer: (E)", None, ""),
    ("Answer: E", None, ""),
    ("(F) or G) or {H} or $Z$ or it is e.", None, ""),
    ("Answer: (E), so (B)", None, "B"),
    # option text, only when exactly one option's text appears; letters win over text
    ("It must be the blue square.", TEXT_OPTIONS, "B"),
    ("the black cross", TEXT_OPTIONS, "D"),
    ("the blue square or the green star", TEXT_OPTIONS, ""),
    ("blue square, i.e. (C)", TEXT_OPTIONS, "C"),
    ("It must be the blue square.", None, ""),
    ("nothing that matches", TEXT_OPTIONS, ""),
    # unparseable is '' (no random letter)
    ("", None, ""),
    ("I cannot tell from the image.", None, ""),
    ("The shapes rotate by 90 degrees each step", None, ""),
]


@pytest.mark.parametrize(("response", "options", "expected"), EXTRACT_CASES)
def test_extract_cascade(response: str, options: tuple[str, ...] | None, expected: str) -> None:
    assert extract_option(response, options) == expected
    assert extract_option(response, options) == expected  # no randomness: same answer every time


@pytest.mark.parametrize(("response", "expected"), [("B.", "B"), ("c.", "C"), ("D. The piece rotates clockwise.", "D")])
def test_extract_letter_period_at_start(response: str, expected: str) -> None:
    assert extract_option(response) == expected


@pytest.mark.parametrize("response", ["B\n\n\n\n\n", "   B   ", "\n\n  b  \n"])
def test_extract_bare_letter_with_whitespace_padding(response: str) -> None:
    assert extract_option(response) == response.strip().upper()


OPTION_TEXTS = st.one_of(st.none(), st.tuples(*[st.text(max_size=12)] * 4))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(response=st.text(max_size=300), options=OPTION_TEXTS)
def test_extract_total_and_deterministic(response: str, options: tuple[str, ...] | None) -> None:
    first = extract_option(response, options)
    assert first in {"", "A", "B", "C", "D"}
    assert extract_option(response, options) == first


@settings(max_examples=200, deadline=None)
@given(
    response=st.text(alphabet=st.sampled_from("ABCDEFabcdef()[]{}$.:) \nAnswer"), max_size=60),
    options=OPTION_TEXTS,
)
def test_extract_total_on_letter_heavy_text(response: str, options: tuple[str, ...] | None) -> None:
    assert extract_option(response, options) in {"", "A", "B", "C", "D"}


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(max_size=200).filter(lambda t: "answer" not in t.lower()),
    letter=st.sampled_from("ABCDabcd"),
    parens=st.booleans(),
)
def test_extract_cot_answer_line_wins(prefix: str, letter: str, parens: bool) -> None:
    line = f"Answer: ({letter})" if parens else f"Answer: {letter}"
    assert extract_option(f"{prefix}\n{line}") == letter.upper()


ADVERSARIAL = [
    "Answer: " * 130000,
    "(" * 10**6,
    "Answer:" + " " * 10**6,
    "Answer:" + " " * 10**6 + "(",
    "(A" * 500000,
    " a" * 500000,
    "A)" * 500000,
    "{" * 10**6,
    "$" * 10**6,
    " " * 10**6 + "B",
    "\n" * 10**6,
    "x" * 10**6,
]


@pytest.mark.parametrize("response", ADVERSARIAL, ids=lambda r: repr(r[:12]) + f"x{len(r)}")
def test_extract_one_megabyte_is_fast(response: str) -> None:
    assert len(response) >= 10**6
    for options in (None, TEXT_OPTIONS, ("a", "aa", "aaa", "(")):
        start = time.perf_counter()
        got = extract_option(response, options)
        assert time.perf_counter() - start < 5.0
        assert got in {"", "A", "B", "C", "D"}
    start = time.perf_counter()
    benchmark.score({"options": list(TEXT_OPTIONS)}, "cot", "i", "A", response)
    assert time.perf_counter() - start < 5.0


# ----------------------------------------------------------------------------- scoring and report

PUZZLES = {
    # item: (category, difficulty, option_type, answer)
    "p1": ("spatial", "easy", "text", "A"),
    "p2": ("spatial", "hard", "image", "B"),
    "p3": ("algorithmic", "easy", "image", "C"),
    "p4": ("algorithmic", "medium", "text", "D"),
}


def _meta(item: str) -> dict[str, Any]:
    category, difficulty, option_type, _ = PUZZLES[item]
    options = [f"{item} option {k}" for k in "wxyz"] if option_type == "text" else None
    return {"category": category, "difficulty": difficulty, "option_type": option_type, "options": options}


def _rows(responses: dict[str, dict[str, str]]) -> list[RowResult]:
    return [
        benchmark.score(_meta(item), condition, item, PUZZLES[item][3], response)
        for condition, by_item in responses.items()
        for item, response in by_item.items()
    ]


def _gs(acc: float, items: int, unparsed: int = 0, failed: int = 0) -> GroupScore:
    return GroupScore(
        accuracy=acc, lenient=acc, items=items, rows=items, unparsed_rows=unparsed, failed_requests=failed
    )


@pytest.mark.parametrize(
    ("response", "answer", "prediction", "correct", "parsed", "failed"),
    [
        ("Answer: A", "A", "A", True, True, False),
        ("Reasoning...\nAnswer: (b)", "B", "B", True, True, False),
        ("C", "D", "C", False, True, False),
        ("I cannot tell.", "A", "", False, False, False),
        (FAILED, "A", "", False, False, True),
        (FAILED + " Answer: A", "A", "", False, False, True),  # a failed request is never parsed
        ("p1 option x is the one", "B", "B", True, True, False),  # option text
    ],
)
def test_score_one_row(response: str, answer: str, prediction: str, correct: bool, parsed: bool, failed: bool) -> None:
    row = benchmark.score(_meta("p1"), "cot", "p1", answer, response)
    assert (row.prediction, row.correct, row.lenient_correct, row.parsed, row.failed) == (
        prediction,
        correct,
        correct,
        parsed,
        failed,
    )
    assert (row.subtest, row.item) == ("cot", "p1")
    assert dict(row.tags) == {"category": "spatial", "difficulty": "easy", "option_type": "text"}


def test_report_hand_computed_direct_beats_cot() -> None:
    rows = _rows(
        {
            "direct": {"p1": "A", "p2": "B", "p3": "(C)", "p4": "B"},  # 3/4
            "cot": {
                "p1": "Let me see.\nAnswer: A",
                "p2": FAILED,
                "p3": "I cannot tell.",
                "p4": "So...\nAnswer: D",
            },  # 2/4
        }
    )
    report = build_report(rows)
    assert report.conditions == {"direct": _gs(0.75, 4), "cot": _gs(0.5, 4, unparsed=1, failed=1)}
    assert report.best_condition == "direct" and report.overall == _gs(0.75, 4)
    assert report.extras() == [("best_of", {"condition": "direct"}, 0.75, 4)]
    assert report.breakdown["category"] == {
        "cot/algorithmic": _gs(0.5, 2, unparsed=1),
        "cot/spatial": _gs(0.5, 2, failed=1),
        "direct/algorithmic": _gs(0.5, 2),
        "direct/spatial": _gs(1.0, 2),
    }
    assert report.breakdown["difficulty"] == {
        "cot/easy": _gs(0.5, 2, unparsed=1),
        "cot/hard": _gs(0.0, 1, failed=1),
        "cot/medium": _gs(1.0, 1),
        "direct/easy": _gs(1.0, 2),
        "direct/hard": _gs(1.0, 1),
        "direct/medium": _gs(0.0, 1),
    }
    assert report.breakdown["option_type"] == {
        "cot/image": _gs(0.0, 2, unparsed=1, failed=1),
        "cot/text": _gs(1.0, 2),
        "direct/image": _gs(1.0, 2),
        "direct/text": _gs(0.5, 2),
    }
    assert report.dimensions() is report.breakdown
    d = report.to_dict()
    assert d["best_condition"] == "direct" and d["overall"]["accuracy"] == 0.75
    assert d["conditions"]["cot"]["failed_requests"] == 1 and d["conditions"]["cot"]["unparsed_rows"] == 1
    assert d["breakdown"]["category"]["cot/spatial"]["accuracy"] == 0.5
    json.dumps(d)


def test_report_cot_beats_direct() -> None:
    rows = _rows(
        {
            "direct": {"p1": "B", "p2": "nope", "p3": FAILED, "p4": "D"},  # 1/4
            "cot": {"p1": "Answer: A", "p2": "Answer: B", "p3": "Answer: (C)", "p4": "Answer: A"},  # 3/4
        }
    )
    report = build_report(rows)
    assert report.best_condition == "cot" and report.overall == _gs(0.75, 4)
    assert report.conditions["direct"] == _gs(0.25, 4, unparsed=1, failed=1)
    assert report.extras() == [("best_of", {"condition": "cot"}, 0.75, 4)]


def test_report_single_condition() -> None:
    report = build_report(_rows({"cot": {"p1": "Answer: A", "p2": "Answer: C", "p3": "x", "p4": "Answer: D"}}))
    assert report.best_condition == "cot" and report.overall == _gs(0.5, 4, unparsed=1)
    assert set(report.breakdown["category"]) == {"cot/algorithmic", "cot/spatial"}


@pytest.fixture(scope="module")
def fixture_samples(tmp_path_factory: pytest.TempPathFactory) -> list:
    return benchmark.samples(local_path=write_parquet(tmp_path_factory.mktemp("vp"), n=20, seed=0))


def _score_all(samples: list, responses: list[str]) -> list[RowResult]:
    return [
        benchmark.score(s.metadata, s.subtest, s.item, s.answer, r) for s, r in zip(samples, responses, strict=True)
    ]


def test_oracle_scores_100_for_both_conditions(fixture_samples: list) -> None:
    from cogvis_tasks.core import baselines

    responses = [benchmark.oracle_response(s) for s in fixture_samples]
    assert responses == [baselines.oracle(s) for s in fixture_samples]
    report = build_report(_score_all(fixture_samples, responses))
    assert set(report.conditions) == {"direct", "cot"}
    for score in report.conditions.values():
        assert score == _gs(1.0, 20)
    for tag in ("category", "difficulty", "option_type"):
        assert all(s.accuracy == 1.0 for s in report.breakdown[tag].values())
    assert {k.split("/")[1] for k in report.breakdown["category"]} == set(benchmark.CATEGORIES)
    assert {k.split("/")[1] for k in report.breakdown["option_type"]} == {"text", "image"}


def test_random_baseline_deterministic_and_near_chance(fixture_samples: list) -> None:
    direct = [s for s in fixture_samples if s.subtest == "direct"]
    a = [benchmark.random_response(s, 7) for s in fixture_samples]
    assert a == [benchmark.random_response(s, 7) for s in fixture_samples]
    assert all(r in {f"Answer: {x}" for x in "ABCD"} for r in a)
    assert a != [benchmark.random_response(s, 8) for s in fixture_samples]
    assert all(benchmark.chance(s) == 0.25 for s in fixture_samples)
    seeds = 500
    hits = 0
    for seed in range(seeds):
        rows = _score_all(direct, [benchmark.random_response(s, seed) for s in direct])
        assert all(r.parsed and not r.failed for r in rows)
        hits += sum(r.correct for r in rows)
    n = seeds * len(direct)
    half_width = 3.2905 * math.sqrt(n * 0.25 * 0.75)  # two-sided 99.9% binomial band
    assert abs(hits - 0.25 * n) <= half_width, (hits, n)
