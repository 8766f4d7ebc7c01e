"""``cogvis agreement`` for MME-CC verdicts: Cohen's kappa, the stratified labelling sample, the label file checks.

The end-to-end part runs the stock lmms-eval and evalscope CLIs (the OpenAI stub is the model and
the judge; the paper's open-model decoding preset and the describe-first condition are on), then
the package's CLI exports, scores and rule-checks from their outputs. Oracles: kappa by hand on
small tables and scikit-learn's ``cohen_kappa_score`` (an independent implementation).
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from helpers.harness import OracleResponder, evalscope_openai, harness_env, lmms_openai, lmms_results, run
from helpers.openai_stub import StubServer, message_parts
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from cogvis_tasks.core.stats import binary_kappa, weighted_binary_kappa
from cogvis_tasks.mme_cc import agreement as agr
from cogvis_tasks.mme_cc import benchmark as mme_cc
from cogvis_tasks.mme_cc.synthetic import write_release

# Verbatim from the paper (Table 5), deliberately not imported from the package.
DESCRIBE = (
    "You should first describe the relevant content in the image according to the prompt, and then answer the question."
)

# --------------------------------------------------------------------------- Cohen's kappa


@pytest.mark.parametrize(
    ("a", "b", "kappa"),
    [
        # 2x2 table a\b: [[1,1]=20, [1,0]=5, [0,1]=10, [0,0]=15] of 50: p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5 -> 0.4
        ([1] * 20 + [1] * 5 + [0] * 10 + [0] * 15, [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15, 0.4),
        ([1, 0, 1, 0], [1, 0, 1, 0], 1.0),
        ([1, 0, 1, 0], [0, 1, 0, 1], -1.0),
        # p_o = 3/4, p_a = 3/4, p_b = 1/2: p_e = 3/8 + 1/8 = 1/2 -> 0.5
        ([1, 1, 1, 0], [1, 1, 0, 0], 0.5),
        # one rater constant: p_o = 3/4, p_e = 3/4 -> 0
        ([1, 1, 1, 1], [1, 1, 1, 0], 0.0),
    ],
)
def test_kappa_by_hand(a: list[int], b: list[int], kappa: float) -> None:
    assert binary_kappa(a, b) == pytest.approx(kappa)


def test_kappa_undefined_when_both_raters_are_the_same_constant() -> None:
    assert np.isnan(binary_kappa([1, 1, 1], [1, 1, 1])) and np.isnan(binary_kappa([0, 0], [0, 0]))


_LABELS = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(pairs=_LABELS)
def test_kappa_bounds_symmetry_and_sklearn(pairs: list[tuple[int, int]]) -> None:
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    k = binary_kappa(a, b)
    if np.isnan(k):
        assert a == b and len(set(a)) == 1
        return
    assert -1.0 - 1e-12 <= k <= 1.0 + 1e-12
    assert k == pytest.approx(binary_kappa(b, a))  # symmetric in the raters
    assert k == pytest.approx(binary_kappa([1 - x for x in a], [1 - x for x in b]))  # label names do not matter
    assert (k == pytest.approx(1.0)) is (a == b)
    assert k == pytest.approx(cohen_kappa_score(a, b), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(pairs=_LABELS, counts=st.lists(st.integers(0, 4), min_size=60, max_size=60))
def test_weighted_kappa_equals_kappa_of_the_repeated_cases(pairs: list[tuple[int, int]], counts: list[int]) -> None:
    counts = counts[: len(pairs)]
    a = np.array([p[0] for p in pairs], dtype=float)
    b = np.array([p[1] for p in pairs], dtype=float)
    if sum(counts) == 0:
        return
    got = weighted_binary_kappa(np.array([counts], dtype=float), a, b)[0]
    want = binary_kappa(np.repeat(a, counts), np.repeat(b, counts))
    assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)


# --------------------------------------------------------------------------- the sample and the label file


def _verdicts(per_dim: dict[str, int]) -> list[agr.Verdict]:
    subtask = {"SR": "Satellite_Image_Matching", "GR": "Maze", "VKR": "Sandbagging"}
    return [
        agr.Verdict(
            f"mme_cc/{subtask[d]}#{k}", subtask[d], d, "judge" if k % 3 else "rule", k % 2, f"q{k}", "ref", "", f"a{k}"
        )
        for d, n in per_dim.items()
        for k in range(n)
    ]


def test_sample_is_stratified_seeded_and_stable() -> None:
    pool = _verdicts({"SR": 50, "GR": 80, "VKR": 40})
    sample = agr.draw_sample(pool)
    assert len(sample) == 99 and [sum(v.dimension == d for v in sample) for d in ("SR", "GR", "VKR")] == [33, 33, 33]
    assert len({v.id for v in sample}) == 99
    assert agr.draw_sample(list(reversed(pool))) == sample  # input order does not matter
    assert agr.draw_sample(pool, seed=1234) == sample and agr.draw_sample(pool, seed=5) != sample
    small = agr.draw_sample(_verdicts({"SR": 10, "GR": 40, "VKR": 3}), per_dimension=5)
    assert [sum(v.dimension == d for v in small) for d in ("SR", "GR", "VKR")] == [5, 5, 3]  # all 3 VKR questions
    with pytest.raises(ValueError, match="per_dimension"):
        agr.draw_sample(pool, per_dimension=0)


def _sheet(tmp_path: Path, sample: list[agr.Verdict], edit=None, name: str = "labels.csv") -> Path:
    rows = [v.row() for v in sample]
    for r in rows:
        r["label"] = r["verdict"]
    header = list(agr.COLUMNS)
    if edit is not None:
        header = edit(rows, header) or header
    path = tmp_path / name
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _set(index: int, key: str, value: str):
    def edit(rows, header):
        rows[index][key] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "line", "field", "message"),
    [
        (_set(2, "label", "2"), 4, "label", "label is '2'; expected 1 (right) or 0 (wrong)"),
        (_set(0, "label", ""), 2, "label", "label is empty"),
        (_set(1, "label", "yes"), 3, "label", "label is 'yes'"),
        (_set(3, "id", "mme_cc/Nope#1"), 5, "id", "unknown id 'mme_cc/Nope#1'"),
        (_set(3, "id", "mme_cc/Maze#79"), 5, "id", "not in the drawn sample"),
        (_set(4, "id", ""), 6, "id", "empty id"),
        (_set(5, "verdict", "7"), 7, "verdict", "differs from the run's"),
        (lambda rows, header: rows.__setitem__(1, dict(rows[0])), 3, "id", "repeats line 2"),
        (lambda rows, header: [rows.pop(), rows.pop(0)] and None, "2-8", "id", "2 row(s) of the sample missing"),
        (lambda rows, header: [c for c in header if c != "label"], 1, "label", "header lacks the column(s) ['label']"),
    ],
)
def test_label_file_errors_are_located(tmp_path: Path, edit, line: int | str, field: str, message: str) -> None:
    pool = _verdicts({"SR": 4, "GR": 80, "VKR": 4})
    sample = agr.draw_sample(pool, per_dimension=3)
    path = _sheet(tmp_path, sample, edit)
    with pytest.raises(agr.LabelFileError) as err:
        agr.read_labels(path, sample, {v.id for v in pool})
    assert err.value.file == str(path) and err.value.line == line and err.value.field == field
    assert message in str(err.value) and str(err.value).startswith(f"{path}, line {line}")


def test_label_file_with_more_fields_than_the_header(tmp_path: Path) -> None:
    sample = agr.draw_sample(_verdicts({"SR": 2, "GR": 2, "VKR": 2}))
    path = _sheet(tmp_path, sample)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[3] += ",surplus"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(agr.LabelFileError, match=r"line 4: 11 fields, the header has 10"):
        agr.read_labels(path, sample, {v.id for v in sample})


def test_blind_sheet_hides_the_verdict_and_still_scores(tmp_path: Path) -> None:
    sample = agr.draw_sample(_verdicts({"SR": 5, "GR": 5, "VKR": 5}), per_dimension=4)
    path = agr.write_sample(sample, tmp_path / "blind.csv", blind=True)
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [c for c in agr.COLUMNS if c not in ("settled", "verdict")] and len(rows) == 12
    for r in rows:
        r["label"] = "1"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    labels = agr.read_labels(path, sample, {v.id for v in sample})
    assert labels == {v.id: 1 for v in sample}
    overall = next(c for c in agr.human_agreement(sample, labels, resamples=0).cells if c.group == "overall")
    assert (
        overall.agreement == pytest.approx(sum(v.verdict for v in sample) / 12) and overall.kappa == 0.0
    )  # people said 1 always


def test_multi_line_answers_keep_line_numbers_and_a_bom_is_accepted(tmp_path: Path) -> None:
    pool = [
        agr.Verdict(f"mme_cc/Maze#{k}", "Maze", "GR", "judge", 1, "q", "ref", "", "line one\nline two\nline three")
        for k in range(3)
    ]
    path = _sheet(tmp_path, pool, _set(2, "label", "x"))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    with pytest.raises(agr.LabelFileError) as err:
        agr.read_labels(path, pool, {v.id for v in pool})
    assert err.value.line == 8  # records start on lines 2, 5 and 8: each answer spans three lines
    good = _sheet(tmp_path, pool, name="good.csv")
    good.write_bytes(b"\xef\xbb\xbf" + good.read_bytes())
    assert agr.read_labels(good, pool, {v.id for v in pool}) == {v.id: 1 for v in pool}


def test_human_agreement_numbers_and_intervals() -> None:
    sample = agr.draw_sample(_verdicts({"SR": 40, "GR": 40, "VKR": 40}))
    flip = {v.id for n, v in enumerate(sample) if n % 5 == 0}  # the person disagrees with every fifth verdict
    labels = {v.id: 1 - v.verdict if v.id in flip else v.verdict for v in sample}
    result = agr.human_agreement(sample, labels, resamples=400, seed=3)
    cells = {c.group: c for c in result.cells}
    assert list(cells) == ["SR", "GR", "VKR", "overall", "judge-settled", "rule-settled"]
    for group, members in [("overall", sample)] + [
        (d, [v for v in sample if v.dimension == d]) for d in ("SR", "GR", "VKR")
    ]:
        human = [labels[v.id] for v in members]
        verdict = [v.verdict for v in members]
        c = cells[group]
        assert c.n == len(members)
        assert c.agreement == pytest.approx(np.mean(np.array(human) == np.array(verdict)))
        assert c.kappa == pytest.approx(cohen_kappa_score(human, verdict))
        assert c.kappa_ci[0] <= c.kappa <= c.kappa_ci[1] and c.agreement_ci[0] <= c.agreement <= c.agreement_ci[1]
    assert cells["overall"].agreement == pytest.approx(1 - len(flip) / 99)
    assert len(result.disagreements) == len(flip)
    assert agr.human_agreement(sample, labels, resamples=400, seed=3) == result  # seeded


# --------------------------------------------------------------------------- end to end, real harness runs

MODEL, JUDGE = "stub-vlm", "stub-judge"
MARK = re.compile(r"\[answer of (mme_cc/[^\]]+)\]")


def _kind(sample_id: str) -> int:
    return zlib.crc32(sample_id.encode()) % 4  # 0, 1: right (rule settles); 2: paraphrase (judge 1); 3: wrong (judge 0)


class ModelAndJudge:
    """Right, paraphrased or wrong answers by a hash of the question; the judge reads a marker or the question number."""

    def __init__(self, samples: list) -> None:
        self.oracle = OracleResponder(samples)

    def __call__(self, body: dict) -> str:
        if body["model"] == JUDGE:
            prompt = message_parts(body)[0][1]
            found = MARK.search(prompt)
            if found:
                score = int(_kind(found.group(1)) == 2)
                return "```json\n" + json.dumps({"answer_score": [[score]]}) + "\n```"
            return (
                '{"answer_score": [[0]]}' if " question 1:" in prompt else '{"answer_score": [[1]]}'
            )  # rule-check calls
        sample = self.oracle.sample_for(body)
        kind = _kind(sample.id)
        if kind < 2:
            return "The image shows the scene.\n" + mme_cc.oracle_response(sample)
        return f"The image shows the scene. My conclusion [answer of {sample.id}] is {'close' if kind == 2 else 'off'}."


@pytest.fixture(scope="module")
def harness_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("agreement_runs")
    root = write_release(base / "data", per_file=12, seed=9)  # SR 36, GR 72, VKR 36 questions
    samples = mme_cc.samples(local_path=root, condition="describe")
    with StubServer(ModelAndJudge(samples)) as stub:
        env = harness_env(base, root, LMMS_EVAL_PLUGINS="cogvis_tasks", API_TYPE="openai", MODEL_VERSION=JUDGE,
                          OPENAI_API_URL=stub.url, COGVIS_JUDGE_RETRIES="1", COGVIS_JUDGE_RETRY_DELAY="0")  # fmt: skip
        lmms_cmd = lmms_openai(stub.url, "mme_cc_describe", base / "lmms", "--log_samples",
                               "--gen_kwargs", "temperature=1.0,top_p=0.7,do_sample=true",  # the paper's open-model decoding, one flag
                               model=MODEL, timeout=60, num_concurrent=4)  # fmt: skip
        (base / "lmms_log").mkdir()
        run(lmms_cmd, env, base / "lmms_log", timeout=900)
        lmms_requests = list(stub.requests)
        es_cmd = evalscope_openai(stub.url, ["mme_cc_describe"], base / "es", judge_model=JUDGE)
        es_cmd[es_cmd.index("--generation-config") + 1] = json.dumps(
            {"temperature": 1.0, "top_p": 0.7}
        )  # the preset, one flag
        (base / "es_log").mkdir()
        proc = run(es_cmd, env, base / "es_log", timeout=900)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        es_requests = stub.requests[len(lmms_requests) :]
        yield {"base": base, "samples": samples, "lmms": base / "lmms", "es": base / "es", "stub": stub,
               "requests": {"lmms-eval": lmms_requests, "evalscope": es_requests}}  # fmt: skip


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "agreement", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
@pytest.mark.parametrize("harness", ["lmms-eval", "evalscope"])
def test_decoding_preset_and_describe_prompt_reach_the_server(harness_runs: dict, harness: str) -> None:
    bodies = harness_runs["requests"][harness]
    model = [b for b in bodies if b["model"] == MODEL]
    judge = [b for b in bodies if b["model"] == JUDGE]
    assert len(model) == len(harness_runs["samples"]) == 144 and judge
    for body in model:
        assert body["temperature"] == 1.0 and body["top_p"] == 0.7
        text = [v for k, v in message_parts(body) if k == "text"]
        assert text[-1].endswith("\n\n" + DESCRIBE)
    for body in judge:
        assert DESCRIBE not in message_parts(body)[0][1]  # the judge grades the released question
    if harness == "lmms-eval":
        res = lmms_results(harness_runs["lmms"])["results"]
        assert res["mme_cc_describe"]["items,none"] == 144 and res["mme_cc_describe"]["judge_errors,none"] == 0


def _expected_verdict(sample) -> int:
    return int(_kind(sample.id) != 3)


@pytest.mark.slow
@pytest.mark.parametrize("harness", ["lmms-eval", "evalscope"])
def test_export_score_and_rule_check_from_harness_outputs(harness_runs: dict, harness: str, tmp_path: Path) -> None:
    run_dir = harness_runs["lmms" if harness == "lmms-eval" else "es"]
    by_id = {s.id: s for s in harness_runs["samples"]}
    sheet = tmp_path / "labels.csv"
    proc = _cli("export", str(run_dir), "--out", str(sheet), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 99 questions (SR 33, GR 33, VKR 33; seed 1234)" in proc.stdout
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(agr.COLUMNS) and len(rows) == 99 and all(r["label"] == "" for r in rows)
    for r in rows:  # every field comes from the harness's own files
        s = by_id[r["id"]]
        assert r["reference"] == s.answer and r["prompt"] == s.text() and r["prompt"].endswith(DESCRIBE)
        assert (
            r["verdict"] == str(_expected_verdict(s))
            and r["subtask"] == s.subtest
            and r["dimension"] == s.metadata["dimension"]
        )
        assert r["settled"] == ("rule" if _kind(s.id) < 2 else "judge")
        assert ("[answer of" in r["answer"]) is (_kind(s.id) >= 2) and r["criteria"] == s.metadata["criteria"]
    # A person labels: agrees with every verdict but on the questions numbered 0 in their file and on rule-settled Maze.
    disagree = {
        r["id"]
        for r in rows
        if r["prompt"].split(" question ")[1].startswith("0:") or (r["settled"] == "rule" and r["subtask"] == "Maze")
    }
    for r in rows:
        r["label"] = str(1 - int(r["verdict"])) if r["id"] in disagree else r["verdict"]
    labelled = tmp_path / "labelled.csv"
    with labelled.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(agr.COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    proc = _cli("score", str(run_dir), "--labels", str(labelled), "--bootstrap", "200", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    table = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.split() and line.split()[0] in
             ("SR", "GR", "VKR", "overall", "judge-settled", "rule-settled")}  # fmt: skip
    for group, members in [("overall", rows)] + [
        (d, [r for r in rows if r["dimension"] == d]) for d in ("SR", "GR", "VKR")
    ]:
        human, verdict = [int(r["label"]) for r in members], [int(r["verdict"]) for r in members]
        n, agreement, kappa = int(table[group][1]), float(table[group][2]), table[group][5]
        assert n == len(members) and agreement == pytest.approx(
            100 * np.mean(np.array(human) == np.array(verdict)), abs=0.05
        )
        assert float(kappa) == pytest.approx(cohen_kappa_score(human, verdict), abs=5e-4)
    judged = [r for r in rows if r["settled"] == "judge"]
    assert int(table["judge-settled"][1]) == len(judged)
    # A mismatched file: one label out of range, named by file, line and field.
    rows[7]["label"] = "2"
    with labelled.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(agr.COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    proc = _cli("score", str(run_dir), "--labels", str(labelled), cwd=tmp_path)
    line = 2 + sum(1 + sum(v.count("\n") for v in r.values()) for r in rows[:7])  # multi-line answers span lines
    assert line > 9 and proc.returncode != 0 and f"{labelled}, line {line}, field 'label': label is '2'" in proc.stderr
    # Judge vs rule on every rule-settled question of the run (not only the sample): the stub judge says 0 on "question 1".
    stub = harness_runs["stub"]
    proc = _cli("rule-check", str(run_dir), "--judge-url", stub.url, "--judge-model", JUDGE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rule_rows = [s for s in harness_runs["samples"] if _kind(s.id) < 2]
    against = [s for s in rule_rows if " question 1:" in s.text()]
    assert f"rule-settled rows: {len(rule_rows)}, judged: {len(rule_rows)}, judge errors: 0" in proc.stdout
    assert f"judge agrees with the rule on {len(rule_rows) - len(against)}/{len(rule_rows)}" in proc.stdout


@pytest.mark.slow
def test_both_harnesses_export_the_same_sample(harness_runs: dict, tmp_path: Path) -> None:
    sheets = []
    for name in ("lmms", "es"):
        out = tmp_path / f"{name}.csv"
        proc = _cli(
            "export", str(harness_runs[name]), "--out", str(out), "--per-dimension", "10", "--seed", "7", cwd=tmp_path
        )
        assert proc.returncode == 0, proc.stderr
        sheets.append(out.read_text(encoding="utf-8"))
    assert sheets[0] == sheets[1]
    both = _cli(
        "export", str(harness_runs["lmms"]), str(harness_runs["es"]), "--out", str(tmp_path / "x.csv"), cwd=tmp_path
    )
    assert (
        both.returncode != 0
        and "expected exactly one MME-CC run" in both.stderr
        and "--evaluation/--model" in both.stderr
    )


@pytest.mark.slow
@pytest.mark.parametrize("harness", ["lmms-eval", "evalscope"])
def test_a_damaged_log_is_named_by_file_line_and_field(harness_runs: dict, harness: str, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(harness_runs["lmms" if harness == "lmms-eval" else "es"], copy)
    pattern = (
        "**/*_samples_mme_cc_describe_maze.jsonl" if harness == "lmms-eval" else "reviews/*/mme_cc_describe_Maze.jsonl"
    )
    (log,) = copy.glob(pattern)
    lines = log.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[2])
    if harness == "lmms-eval":
        del record["filtered_resps"]
        field = "filtered_resps"
    else:
        record["messages"][0]["content"] = None
        field = "messages[0].content"
    lines[2] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = _cli("export", str(copy), "--out", str(tmp_path / "x.csv"), cwd=tmp_path)
    assert proc.returncode != 0 and f"{log}, line 3, field {field!r}" in proc.stderr, proc.stderr
    assert not (tmp_path / "x.csv").exists()
