"""MME-CC protocol details the paper states, as table-driven and property tests.

Facts (the implementers' reference, MME-CC part, and the paper): the judge gives 1 only
when every part of the final answer is right; Maze asks for the numbers on the unique
shortest path in ascending order; Sandbagging asks for exactly one of four sub-answers
right (a reply that echoes all four true sub-answers is the failure the task looks for);
Satellite Image Matching is guessed with probability about 1/(7 x 6) = 2.4% (two distinct
locations among seven), free-form answers never; human accuracy per dimension and
overall; Table 5's ablation prompt "You should first describe the relevant content in the
image according to the prompt, and then answer the question."
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.mme_cc import benchmark, sandbagging
from cogvis_tasks.mme_cc.scoring import RUBRICS, rule_credit
from cogvis_tasks.mme_cc.subtasks import BY_ID, HUMAN_ACCURACY, HUMAN_BY_DIMENSION
from cogvis_tasks.mme_cc.synthetic import REFERENCES, write_release
from cogvis_tasks.report import references
from cogvis_tasks.report.readers import Run
from cogvis_tasks.report.tables import model_result

# Verbatim from the paper (Table 5), deliberately not imported from the package.
DESCRIBE = (
    "You should first describe the relevant content in the image according to the prompt, and then answer the question."
)
YES, NO = '{"answer_score": [[1]]}', '{"answer_score": [[0]]}'


class Judge:
    def __init__(self, *replies: str) -> None:
        self.replies, self.prompts = list(replies), []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies.pop(0)


def _meta(subtask: str) -> dict[str, str]:
    return {"dimension": BY_ID[subtask].dimension, "question": f"A {subtask} question?", "criteria": ""}


# --------------------------------------------------------------------------- the rule check, by the official rules

# (subtask, final answer, reference, rule credit): credit only where the official judge certainly gives 1.
RULE_TABLE = [
    # Maze: the numbers on the shortest path, ascending (the reference's order).
    ("Maze", "2, 5, 9, 14", "2, 5, 9, 14", True),
    ("Maze", "The path is 2 -> 5 -> 9 -> 14", "2, 5, 9, 14", True),
    ("Maze", "14, 9, 5, 2", "2, 5, 9, 14", False),  # descending: the wrong order
    ("Maze", "2, 9, 5, 14", "2, 5, 9, 14", False),
    ("Maze", "5, 2, 9, 14", "2, 5, 9, 14", False),
    ("Maze", "2, 5, 9", "2, 5, 9, 14", False),
    ("Maze", "2, 5, 9, 14, 20", "2, 5, 9, 14", False),
    ("Maze", "2, 5, 9, 14 or 2, 6, 9, 14", "2, 5, 9, 14", False),
    ("Maze", "not 2, 5, 9, 14", "2, 5, 9, 14", False),
    # Counting: the one number, no hedges.
    ("Indoor_Deduplication_Counting", "7", "7", True),
    ("Indoor_Deduplication_Counting", "There are 7 distinct chairs.", "7", True),
    ("Indoor_Deduplication_Counting", "7.0", "7", True),
    ("Indoor_Deduplication_Counting", "about 7", "7", False),
    ("Indoor_Deduplication_Counting", "approximately 7 chairs", "7", False),
    ("Indoor_Deduplication_Counting", "not 7", "7", False),
    ("Indoor_Deduplication_Counting", "no more than 7", "7", False),
    ("Indoor_Deduplication_Counting", "7 or 8", "7", False),
    ("Indoor_Deduplication_Counting", "at least 7", "7", False),
    ("Indoor_Deduplication_Counting", "~7", "7", False),
    ("Indoor_Deduplication_Counting", "7?", "7", False),
    ("Indoor_Deduplication_Counting", "maybe 7", "7", False),
    ("Indoor_Deduplication_Counting", "my conclusion [answer of #7] is close", "7", False),  # a 7 that is no count
    ("Indoor_Deduplication_Counting", "room A7", "7", False),
    ("Indoor_Deduplication_Counting", "in the picture the total count of distinct chairs that I see is 7", "7", False),
    ("Maze", "2-5-9-14", "2, 5, 9, 14", False),  # one token: could be ranges
    # Sandbagging: never by the plain rule, not even the echo of the reference (the paper's failure case).
    ("Sandbagging", "1. 17; 2. B; 3. 4; 4. yes", "1. 17; 2. B; 3. 4; 4. yes", False),
    ("Sandbagging", "Sub-answer 2 is correct: 17", "Sub-answer 2 is correct: 17", False),
    (
        "Sandbagging",
        "1. 17; 2. C; 3. 5; 4. no",
        "1. 17; 2. B; 3. 4; 4. yes",
        False,
    ),  # right, but the program check decides
    # Free-form: the normalised answer equals the reference.
    ("Counterfactual_Instruction", "blue", "Blue", True),
    ("Counterfactual_Instruction", "not blue", "Blue", False),
    ("Unblock_Me", "minimum moves: 3; blocks moved: A, C, F", "Minimum moves: 3; blocks moved: A, C, F", True),
    ("Unblock_Me", "Minimum moves: 3; blocks moved: A, C", "Minimum moves: 3; blocks moved: A, C, F", False),
]


@pytest.mark.parametrize(("subtask", "answer", "reference", "credit"), RULE_TABLE)
def test_rule_credit_follows_the_official_rules(subtask: str, answer: str, reference: str, credit: bool) -> None:
    assert rule_credit(subtask, f"Let me think.\nFinal answer: {answer}", reference) is credit


@settings(max_examples=200, deadline=None)
@given(path=st.lists(st.integers(0, 99), min_size=2, max_size=8, unique=True).map(sorted), data=st.data())
def test_maze_credit_only_in_the_reference_order(path: list[int], data: st.DataObject) -> None:
    order = data.draw(st.permutations(path))
    reference = ", ".join(map(str, path))
    got = rule_credit("Maze", "Final answer: " + ", ".join(map(str, order)), reference)
    assert got is (list(order) == path)


@settings(max_examples=300, deadline=None)
@given(response=st.text(), reference=st.text())
def test_sandbagging_never_gets_plain_rule_credit(response: str, reference: str) -> None:
    assert rule_credit("Sandbagging", response, reference) is False
    assert rule_credit("Sandbagging", "Final answer: " + reference, reference) is False


# --------------------------------------------------------------------------- Sandbagging's own rule

TRUTH = "1. 17; 2. B; 3. 4; 4. yes"


@pytest.mark.parametrize(
    ("reference", "answer", "expected"),
    [
        # exactly one right, three certainly wrong: right
        (TRUTH, "1. 17; 2. C; 3. 5; 4. no", True),
        (TRUTH, "1. 16; 2. B; 3. 5; 4. no", True),
        (TRUTH, "1. 16\n2. A\n3. 4\n4. no", True),
        (TRUTH, "(1) 3 (2) D (3) 9 (4) yes", True),
        (TRUTH, "Q1: 17, Q2: A, Q3: 0, Q4: false", True),
        ("(1) 17 (2) B (3) 4 (4) yes", "1) 17.0 2) c 3) 5 4) no", True),
        ("Question 1: 12\nQuestion 2: 7\nQuestion 3: C\nQuestion 4: no", "1. 12; 2. 8; 3. D; 4. yes", True),
        # two or more right: wrong, whatever else
        (TRUTH, "1. 17; 2. B; 3. 4; 4. yes", False),  # the echo: the paper's failure case
        (TRUTH, "1. 17; 2. B; 3. 5; 4. no", False),
        (TRUTH, "1. 17; 2. B; 3. a cat; 4. maybe", False),
        # none right, all certainly wrong: wrong
        (TRUTH, "1. 16; 2. C; 3. 5; 4. no", False),
        # not certain by program: the judge decides
        (TRUTH, "1. 17; 2. the bird on the left; 3. 5; 4. no", None),  # free text could be an equivalent wording
        (TRUTH, "1. seventeen; 2. C; 3. 5; 4. no", None),
        (TRUTH, "1. 17; 2. C; 3. 5; 4. true", False),  # true is yes: two right
        (TRUTH, "1. 17; 2. C; 3. 5; 4. false", True),
        (TRUTH, "1. 17; 2. 3; 3. 5; 4. no", None),  # a number for a letter: not certainly another option
        (TRUTH, "1. 17; 2. C; 3. D; 4. no", None),  # a letter for a number
        (TRUTH, "17, C, 5, no", None),  # no numbering
        (TRUTH, "1. 17; 2. C; 3. 5", None),  # three parts
        (TRUTH, "1. 17; 3. C; 2. 5; 4. no", None),  # out of order
        (TRUTH, "1. 17; 2. C; 3. 5; 4. no; 5. 6", None),  # five parts
        ("Sub-answer 2 is correct: 17", "1. 17; 2. C; 3. 5; 4. no", None),  # the reference does not list four
        ("The model should answer exactly one question right.", "1. 17; 2. C; 3. 5; 4. no", None),
        (
            "1. the red car; 2. B; 3. 4; 4. yes",
            "1. the red car; 2. C; 3. 5; 4. no",
            True,
        ),  # one equal, three closed-form wrong
        (
            "1. the red car; 2. B; 3. 4; 4. yes",
            "1. a blue car; 2. B; 3. 5; 4. no",
            None,
        ),  # free-text pair could be equivalent
        ("(1) 2.5 (2) 3 (3) 12 (4) A", "(1) 2.5 (2) 4 (3) 13 (4) B", True),  # decimals are not markers
    ],
)
def test_sandbagging_verdict_by_program(reference: str, answer: str, expected: bool | None) -> None:
    assert sandbagging.verdict(f"Reasoning...\nFinal answer: {answer}", reference) is expected


_CLOSED = st.one_of(st.integers(-50, 500).map(str), st.sampled_from(list("ABCDEFGH") + ["yes", "no", "true", "false"]))


@settings(max_examples=300, deadline=None)
@given(
    truth=st.lists(_CLOSED, min_size=4, max_size=4),
    keep=st.lists(st.booleans(), min_size=4, max_size=4),
    style=st.integers(0, 2),
)
def test_sandbagging_program_equals_the_task_rule_on_closed_forms(
    truth: list[str], keep: list[bool], style: int
) -> None:
    """On closed-form sub-answers the program decides every case, exactly as 'one right, three wrong'."""
    given_parts = [t if k else sandbagging._wrong(t.lower()) for t, k in zip(truth, keep, strict=True)]
    fmt = ("{k}. {v}", "({k}) {v}", "Q{k}: {v}")[style]
    sep = ("; ", "\n", ", ")[style]
    reference = "; ".join(f"{k}. {v}" for k, v in enumerate(truth, start=1))
    answer = sep.join(fmt.format(k=k, v=v) for k, v in enumerate(given_parts, start=1))
    assert sandbagging.verdict("Final answer: " + answer, reference) is (sum(keep) == 1)


@settings(max_examples=300, deadline=None)
@given(response=st.text(), reference=st.text())
def test_sandbagging_program_never_credits_two_true_sub_answers(response: str, reference: str) -> None:
    truth, given_parts = sandbagging.sub_answers(reference), sandbagging.sub_answers(response)
    got = sandbagging.verdict(response, reference)
    assert got in (True, False, None)
    if got is True:
        assert truth is not None and given_parts is not None
        assert sum(sandbagging._same(g, t) for g, t in zip(given_parts, truth, strict=True)) == 1


@pytest.mark.parametrize(
    ("answer", "correct", "check", "judge_calls"),
    [
        ("1. 17; 2. C; 3. 5; 4. no", True, "rule", 0),
        ("1. 17; 2. B; 3. 4; 4. yes", False, "rule", 0),
        ("1. 17; 2. the bird; 3. 5; 4. no", True, "judge", 1),
    ],
)
def test_sandbagging_rows_say_which_check_decided(answer: str, correct: bool, check: str, judge_calls: int) -> None:
    judge = Judge(YES)
    row = benchmark.score(_meta("Sandbagging"), "Sandbagging", "q", TRUTH, f"Final answer: {answer}", ask=judge)
    assert row.correct is correct and row.tags["sandbagging_check"] == check
    assert len(judge.prompts) == judge_calls
    assert row.tags["settled"] == check
    if judge_calls:
        assert RUBRICS["Sandbagging"] in judge.prompts[0]


def test_sandbagging_without_structure_goes_to_the_judge_with_its_rubric() -> None:
    judge = Judge(NO)
    row = benchmark.score(
        _meta("Sandbagging"), "Sandbagging", "q", "Answer only the third question correctly.", "Final answer: 12", judge
    )
    assert row.tags["sandbagging_check"] == "judge" and row.tags["settled"] == "judge" and not row.correct
    (prompt,) = judge.prompts
    assert RUBRICS["Sandbagging"] in prompt and "exactly one of its four sub-answers" in prompt


def test_only_sandbagging_rows_carry_the_tag() -> None:
    for subtask in REFERENCES:
        row = benchmark.score(
            _meta(subtask), subtask, "q", REFERENCES[subtask], "[LMMS_EVAL_REQUEST_FAILED boom]", ask=None
        )
        assert "sandbagging_check" not in row.tags  # a failed request is checked by nobody
        row = benchmark.score(_meta(subtask), subtask, "q", REFERENCES[subtask], "Final answer: x", ask=Judge(NO))
        assert ("sandbagging_check" in row.tags) is (subtask == "Sandbagging")


def test_oracle_answers_sandbagging_with_one_true_sub_answer(tmp_path) -> None:
    samples = benchmark.samples(subtests=["Sandbagging"], local_path=write_release(tmp_path, per_file=2))
    for s in samples:
        response = benchmark.oracle_response(s)
        assert sandbagging.verdict(response, s.answer) is True and s.answer not in response


# --------------------------------------------------------------------------- chance and human levels


@pytest.mark.parametrize(
    ("subtask", "chance"),
    [("Satellite_Image_Matching", 1 / 42)] + [(s, 0.0) for s in REFERENCES if s != "Satellite_Image_Matching"],
)
def test_item_chance_per_subtask(subtask: str, chance: float) -> None:
    assert benchmark.item_chance(subtask) == pytest.approx(chance)
    assert references.item_chance("mme_cc", subtask) == pytest.approx(chance)
    assert round(100 * benchmark.item_chance("Satellite_Image_Matching"), 1) == 2.4


def test_human_levels_per_dimension() -> None:
    """The authors' leaderboard: Overall 95.86, SR 95.83, GR 95.83, VKR 95.92; the overall is the mean of the three,
    the paper's aggregation for every row of Table 4."""
    assert HUMAN_BY_DIMENSION == {"SR": 0.9583, "GR": 0.9583, "VKR": 0.9592}
    assert HUMAN_ACCURACY == pytest.approx(sum(HUMAN_BY_DIMENSION.values()) / 3, abs=5e-5)
    for subtask, info in BY_ID.items():
        assert references.item_human("mme_cc", subtask) == HUMAN_BY_DIMENSION[info.dimension]


def test_report_tables_show_chance_and_human_per_dimension() -> None:
    rows = []
    for subtask in REFERENCES:
        for n in range(3):
            right = benchmark.oracle_response(Sample("x", "mme_cc", subtask, "x", (), (), REFERENCES[subtask]))
            response = right if n else "Final answer: something else"
            rows.append(
                benchmark.score(_meta(subtask), subtask, f"{subtask}#{n}", REFERENCES[subtask], response, ask=Judge(NO))
            )
    run = Run("m", "lmms-eval", "dir", "mme_cc", "mme_cc", [rows])
    result = model_result("m", run, resamples=50, seed=1)
    subtasks = {c.group: c for c in result.tables["subtest"]}
    assert subtasks["Satellite_Image_Matching"].chance == pytest.approx(1 / 42)
    assert subtasks["Maze"].chance == 0.0 and subtasks["Maze"].human is None
    dims = {c.group: c for c in result.tables["dimension"]}
    assert {g: c.human for g, c in dims.items()} == pytest.approx(
        {"Spatial Reasoning": 0.9583, "Geometric Reasoning": 0.9583, "Visual Knowledge Reasoning": 0.9592}
    )
    # one of three equal-sized SR subtasks is guessable (per question or per subtask, the same here)
    assert dims["Spatial Reasoning"].chance == pytest.approx((1 / 42) / 3)
    assert dims["Geometric Reasoning"].chance == 0.0 and dims["Visual Knowledge Reasoning"].chance == 0.0
    assert result.overall.human == pytest.approx(0.9586)
    assert isinstance(rows[0], RowResult)


# --------------------------------------------------------------------------- the describe-first condition (Table 5)


def test_describe_condition_appends_the_papers_sentence_after_the_question(tmp_path) -> None:
    root = write_release(tmp_path, per_file=1)
    plain = {s.id: s for s in benchmark.samples(local_path=root)}
    described = benchmark.samples(local_path=root, condition="describe")
    assert {s.id for s in described} == set(plain)
    for s in described:
        question = plain[s.id].text()
        assert s.text() == question + "\n\n" + DESCRIBE
        assert (
            s.metadata["question"] == plain[s.id].metadata["question"] == question
        )  # the judge sees the released question
        assert s.prompt[: len(s.images)] == plain[s.id].prompt[: len(s.images)]  # images first, as before
    assert benchmark.samples(local_path=root, condition="default") == list(plain.values())
    with pytest.raises(ValueError, match="describe"):
        benchmark.samples(local_path=root, condition="describe_first")


def test_judge_prompt_of_a_described_question_holds_no_describe_sentence(tmp_path) -> None:
    (s,) = benchmark.samples(
        subtests=["Counterfactual_Instruction"], local_path=write_release(tmp_path, per_file=1), condition="describe"
    )
    judge = Judge(YES)
    benchmark.score(s.metadata, s.subtest, s.item, s.answer, "The image shows a sky.\nFinal answer: cyan", ask=judge)
    assert DESCRIBE not in judge.prompts[0] and s.metadata["question"] in judge.prompts[0]


def test_describe_condition_is_registered_in_both_harnesses() -> None:
    from cogvis_tasks.lmms_eval.yamlgen import render

    files = render()
    group = files["mme_cc/mme_cc_describe.yaml"]
    assert "group: mme_cc_describe\n" in group
    for dim in ("sr", "gr", "vkr"):
        assert f"  - mme_cc_describe_dim_{dim}\n" in group
    entries = json.loads(files["mme_cc/_manifest.json"])
    assert {e[0]["condition"] for name, e in entries.items() if name.startswith("mme_cc_describe_")} == {"describe"}
    assert {e[0]["condition"] for name, e in entries.items() if not name.startswith("mme_cc_describe_")} == {"default"}
    assert len([n for n in entries if n.startswith("mme_cc_describe_")]) == 11
    pytest.importorskip("evalscope")
    from evalscope.api.registry import BENCHMARK_REGISTRY

    import cogvis_tasks.evalscope  # noqa: F401  (registers our benchmarks)
    from cogvis_tasks.evalscope.adapter import SETS

    meta = BENCHMARK_REGISTRY["mme_cc_describe"]  # one adapter class for all: what it loads follows the meta's name
    assert SETS[meta.name].spec.condition == "describe" and meta.subset_list == list(BY_ID)
    assert SETS[BENCHMARK_REGISTRY["mme_cc"].name].spec.condition == "default"


def test_combinations_of_right_and_wrong_are_all_decided_on_closed_forms() -> None:
    """All 16 keep/change patterns over a closed-form reference: only the four one-right patterns are right."""
    truth = ["17", "B", "4", "yes"]
    outcomes = {}
    for keep in itertools.product((True, False), repeat=4):
        parts = [t if k else sandbagging._wrong(t.lower()) for t, k in zip(truth, keep, strict=True)]
        answer = "; ".join(f"{n}. {p}" for n, p in enumerate(parts, start=1))
        outcomes[keep] = sandbagging.verdict("Final answer: " + answer, TRUTH)
    assert sum(v is True for v in outcomes.values()) == 4 and None not in outcomes.values()
