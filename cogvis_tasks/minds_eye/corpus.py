"""A seeded corpus of realistic free-text Mind's Eye answers with their intended labels.

Models answer Mind's Eye prompts ("Reason step by step for answering.") with long
chain-of-thought text that discusses several options before stating a choice. Each
entry here is such an answer plus the label a careful human reader would give it:

* ``text``: the full answer (several paragraphs: task framing, a description of the
  reference, a discussion of every option in varied styles, sometimes a re-check,
  then a final statement in one of many styles);
* ``letters``: ``"ABCD"`` (four-option tasks) or ``"ABCDEF"`` (VRA, VCS);
* ``intended``: the chosen upper-case letter, ``"none"`` when the answer says that
  no option fits, or ``""`` when it makes no choice (hedged, or only a letter that
  is not one of the task's options);
* ``style``: the name of the final-statement style (an extra key; the tests use it
  to tie every extractor disagreement to a known, documented case).

Determinism: only ``random.Random(seed)`` is used, so ``build_corpus(n, seed)`` is a
pure function of its arguments.

The discussion paragraphs are written so that they contain no explicit answer
statement of their own (so the label is decided by the final statement alone), but
they deliberately contain the near-misses that a letter extractor must survive:
letters in every case and bracket style, the article "a", "answer"/"correct"/"none"
used in passing, and per-option verdicts such as "B is mirrored, so not B".
"""

from __future__ import annotations

import random

NONE = "none"

# ---------------------------------------------------------------------------
# Task vocabulary (the eight Mind's Eye tasks, with their option counts).
# ---------------------------------------------------------------------------
TASKS: list[dict] = [
    {
        "name": "mental_rotation",
        "letters": "ABCD",
        "question": "which option is a rotated version of the reference object",
        "reference": [
            "The reference object is an assembly of ten cubes forming a bent arm with a 3-cube segment and a 2-cube segment.",
            "The reference is a polycube shaped like a staircase, with a single cube sticking out at the top.",
            "The reference shows a white L-shaped structure with a short branch pointing towards the viewer.",
        ],
        "bad": [
            "is the mirror image of the reference, since the short arm points to the left instead of the right",
            "has an extra cube on the top arm, so the cube count does not match",
            "only matches if we reflect it across a vertical plane, which a rotation cannot do",
            "has a similar silhouette, but the branch is attached one cube lower",
            "looks like a mirrored and then rotated copy",
            "has a different arrangement of the coloured cubes",
        ],
        "good": [
            "matches the reference after a 90-degree rotation about the vertical axis",
            "is the reference turned by 180 degrees, with every arm in the right place",
            "keeps the same handedness as the reference and a rotation brings it into alignment",
        ],
        "noun": "a rotated copy of the reference",
    },
    {
        "name": "paper_folding",
        "letters": "ABCD",
        "question": "where the holes appear after the paper is unfolded",
        "reference": [
            "The square sheet is folded vertically, then horizontally, and a single hole is punched near the folded corner.",
            "The hexagonal sheet is folded along a diagonal and then in half, and two holes are punched.",
            "The paper is folded twice and a hole is punched through all layers close to the centre.",
        ],
        "bad": [
            "has only two holes, but unfolding two folds should give four",
            "places the holes on the wrong side of the vertical fold line",
            "shows holes that are not symmetric about the fold",
            "has a hole in the top-left corner, which was never punched",
            "moves one hole away from its reflected position",
        ],
        "good": [
            "has four holes placed symmetrically about both fold lines, exactly as unfolding predicts",
            "shows the punched hole reflected across each fold, giving a symmetric pattern",
            "reproduces every reflection of the hole, with nothing missing",
        ],
        "noun": "a symmetric pattern of holes",
    },
    {
        "name": "mental_composition",
        "letters": "ABCD",
        "question": "which solid the net folds into",
        "reference": [
            "The net consists of six squares arranged in a cross, all in the same blue colour.",
            "The net has a row of four rectangles with a triangle on each long side.",
            "The net contains eight equilateral triangles with mixed colours.",
        ],
        "bad": [
            "is a pyramid, but the net has too many faces for that",
            "has the same colour as the net but the wrong number of faces",
            "is a prism with pentagonal ends, which would need pentagons in the net",
            "has a similar face count, yet its faces are not triangles",
            "is a cuboid whose proportions do not match the rectangles in the net",
        ],
        "good": [
            "is the only solid whose faces and adjacency match the net",
            "has exactly the faces of the net, arranged the way the folds require",
            "is what you get when the flaps are folded up around the base",
        ],
        "noun": "a solid with the same number of faces",
    },
    {
        "name": "symmetric_isomorph",
        "letters": "ABCD",
        "question": "which line drawing lacks symmetry",
        "reference": [
            "Each panel contains a drawing made of ten line segments.",
            "There are four line drawings; three of them were built by reflection or rotation.",
            "The four drawings look like random paths, but most of them repeat under some transformation.",
        ],
        "bad": [
            "has a clear vertical mirror axis",
            "repeats itself after a rotation by 120 degrees, so it has 3-fold rotational symmetry",
            "is symmetric about a diagonal axis",
            "has 2-fold rotational symmetry around its centre",
        ],
        "good": [
            "has no mirror axis and does not repeat under any rotation",
            "is a path whose two halves do not correspond under any reflection",
            "breaks symmetry in the lower right segment",
        ],
        "noun": "a drawing without any symmetry",
    },
    {
        "name": "hierarchial_isomorph",
        "letters": "ABCD",
        "question": "which pattern does not follow a recursive rule",
        "reference": [
            "The four panels show patterns such as nested circles, concentric polygons and branching trees.",
            "Three of the panels are generated by a recursive rule; one seems different.",
        ],
        "bad": [
            "is a fractal tree in which every branch splits into two smaller copies",
            "shows concentric hexagons, each one a scaled copy of the previous one",
            "is a Sierpinski triangle, which is recursive by construction",
            "contains nested circles with a constant ratio between radii",
        ],
        "good": [
            "is made of disconnected random strokes with no repeating structure",
            "has no self-similar structure at all",
            "looks like scribbles that do not repeat at any scale",
        ],
        "noun": "a pattern of random strokes",
    },
    {
        "name": "dynamic_isomorph",
        "letters": "ABCD",
        "question": "what the two shapes look like at t = 1.0",
        "reference": [
            "The top row shows a square that rotates clockwise and a circle that bounces, at t = 0, .25, .5 and .75.",
            "In the sequence, a triangle is sheared while a star pulsates.",
        ],
        "bad": [
            "swaps the transformations between the two shapes",
            "shows the shapes at t = 0.5 rather than at t = 1.0",
            "has the square rotated in the wrong direction",
            "continues the bounce but forgets the rotation",
        ],
        "good": [
            "continues both motions consistently to t = 1.0",
            "has the square at a full quarter turn and the circle back at the bottom",
            "extends each transformation by one more step in the same direction",
        ],
        "noun": "a continuation of both motions",
    },
    {
        "name": "abstract",
        "letters": "ABCDEF",
        "question": "which figure does not share the attribute of the others (the odd one out)",
        "reference": [
            "The 2x3 grid contains six figures labelled a to f.",
            "There are six shapes in a 2x3 grid; five of them share a common property.",
            "Looking at the grid, each cell holds a single closed figure.",
        ],
        "bad": [
            "is a convex polygon like most of the others",
            "has exactly two line crossings, like its neighbours",
            "is a regular polygon, so it fits the group",
            "is closed and convex",
            "has all its vertices on a circle, as do the others",
        ],
        "good": [
            "is concave, unlike every other figure in the grid",
            "is the only figure with a line crossing",
            "is irregular, while the rest are regular",
        ],
        "noun": "a concave shape among convex ones",
    },
    {
        "name": "slippage",
        "letters": "ABCDEF",
        "question": "which panel violates the shared concept",
        "reference": [
            "Six panels are shown in a 2x3 grid, labelled (a) to (f).",
            "Each of the six panels contains a few dots and a border.",
        ],
        "bad": [
            "keeps the dots evenly spaced",
            "has its elements aligned along a single line",
            "contains exactly three elements, like the others",
            "keeps a closed border around the content",
            "is left-right symmetric",
        ],
        "good": [
            "breaks the even spacing of the dots",
            "is the only panel whose elements are not aligned",
            "has an open border while the others are closed",
        ],
        "noun": "a panel that breaks the spacing rule",
    },
]

INTROS = [
    "To answer this, I need to compare each candidate with the reference carefully.",
    "Let me reason step by step about {question}.",
    "The question asks {question}. I will look at every option in turn.",
    "I'll work through this step by step before giving an answer.",
    "First, I describe the shapes. Then I identify the transformation. Finally I choose.",
    "This is a visual reasoning task: the goal is to find {question}.",
    "Let's break the problem down. Each answer choice has to be checked against the rule.",
]

RECHECKS = [
    "Let me double-check {ref} once more: it {good}.",
    "Re-examining the figures, {ref} still stands out, because it {good}.",
    "To be sure, I compared the remaining candidates again; {W} {bad}.",
    "A second look confirms the analysis: {W} {bad}, while {L} {good}.",
]

OPTION_REFS = [
    "Option {L}",
    "option {L}",
    "Figure {L}",
    "({l})",
    "**{L}**",
    "Image {L}",
    "option ({l})",
    "{L}",
    "Shape {L}",
    "figure {l}",
]
LEADING_REFS = OPTION_REFS + ["{L})", "{L}:"]

BAD_SENTENCES = [
    "{Ref} {bad}, so it can be ruled out.",
    "{Ref} {bad}. Not {L}.",
    "Looking at {ref}, it {bad}; so not {L}.",
    "- **{L}**: {bad}. ✗",
    "{Ref} {bad}, so not {L}.",
    "In {ref}, the figure {bad}. This does not match.",
    "At first glance {ref} looks plausible, but it {bad}.",
    "{L} {bad} (eliminate {L}).",
    "For {ref}: it {bad}.",
]

GOOD_SENTENCES = [
    "{Ref} {good}. This is consistent with the rule.",
    "- **{L}**: {good}. ✓",
    "{Ref} {good}, which is exactly what we expect.",
    "Now {ref}: it {good}.",
    "In {ref}, the figure {good}.",
]

OBSERVATIONS = [
    "I will compare structure first and ignore colour, since colour can be a lure.",
    "The important features are the number of parts, their arrangement and their orientation.",
    "A careful comparison is needed, because several candidates look alike at first sight.",
    "I need to keep track of left and right, because a reflection changes handedness but a rotation does not.",
    "The options are drawn below the reference, each with its label.",
]

ELABORATIONS = [
    "Moreover, it {phrase}.",
    "In addition, the figure {phrase}.",
    "Looking more closely, it also {phrase}.",
]

NEAR_MISS_SENTENCES = [
    "Note that the answer depends on the handedness of the shape, not on its colour.",
    "None of the other figures show this property.",
    "A mirrored shape can look like a rotated one, so I need to be careful here.",
    "I should not confuse a reflection with a rotation.",
    "The correct rule seems to be about structure rather than colour.",
    "It is a tricky one, and a quick glance would be misleading.",
    "Answer choices that differ only in colour are lures.",
]


def _ref(rng: random.Random, letter: str, leading: bool = False) -> str:
    return rng.choice(LEADING_REFS if leading else OPTION_REFS).format(L=letter, l=letter.lower())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _discussion(rng: random.Random, task: dict, letters: str, chosen: str) -> str:
    """Several paragraphs of reasoning with no explicit answer statement in them."""
    question = task["question"]
    paragraphs = [rng.choice(INTROS).format(question=question)]
    paragraphs.append(rng.choice(task["reference"]) + " " + rng.choice(OBSERVATIONS))
    order = list(letters)
    if rng.random() < 0.3:
        rng.shuffle(order)
    lines = []
    for letter in order:
        ref = _ref(rng, letter)
        lead = _ref(rng, letter, leading=True)
        if letter == chosen and chosen:
            template = rng.choice(GOOD_SENTENCES)
            phrase = {"good": rng.choice(task["good"])}
        else:
            template = rng.choice(BAD_SENTENCES)
            phrase = {"bad": rng.choice(task["bad"])}
        lines.append(template.format(Ref=_cap(lead), ref=ref, L=letter, **phrase))
        if rng.random() < 0.25:
            key = "good" if letter == chosen and chosen else "bad"
            lines[-1] += " " + rng.choice(ELABORATIONS).format(phrase=rng.choice(task[key]))
        if rng.random() < 0.12:
            lines.append(rng.choice(NEAR_MISS_SENTENCES))
    joiner = "\n" if any(line.startswith("- ") for line in lines) or rng.random() < 0.5 else " "
    if joiner == " " and len(lines) > 3:
        half = len(lines) // 2
        paragraphs.append(" ".join(lines[:half]))
        paragraphs.append(" ".join(lines[half:]))
    else:
        paragraphs.append(joiner.join(lines))
    if rng.random() < 0.3:
        steps = ["**Step 1: Understand the reference.**", "**Step 2: Examine each option.**"]
        paragraphs[1] = steps[0] + "\n" + paragraphs[1]
        paragraphs[2] = steps[1] + "\n" + paragraphs[2]
    if chosen and rng.random() < 0.35:
        other = rng.choice([x for x in letters if x != chosen])
        paragraphs.append(
            rng.choice(RECHECKS).format(
                ref=_ref(rng, chosen), L=chosen, W=other, good=rng.choice(task["good"]), bad=rng.choice(task["bad"])
            )
        )
    return "\n\n".join(paragraphs)


# ---------------------------------------------------------------------------
# Final statements. Each style: (templates, kind). kind "letter" means the
# intended label is the chosen letter; the others are special.
# ---------------------------------------------------------------------------
FINAL_STYLES: dict[str, list[str]] = {
    "answer_colon": [
        "Answer: {L}",
        "**Answer:** {L}",
        "Answer: ({L})",
        "ANSWER: {L}",
        "Answer: **{L}**",
        "Answer: Option {L}",
        "**Answer: {L}**",
        "Answer:{L}",
        "Answer: [{L}]",
        "Answer: {L}.",
        "My answer: {L}",
    ],
    "final_answer": [
        "**Final Answer:** ({l})",
        "Final answer: {L}",
        "**Final answer: {L}**",
        "Final Answer: **({L})**",
        "My final answer is {L}.",
        "Final answer: option {L}",
        "The final answer is $\\boxed{{{L}}}$.",
        "**Final Answer:** Option {L}",
        "Final answer: — {L}",
    ],
    "correct_option": [
        "The correct option is {L}.",
        "The correct answer is ({L}).",
        "The correct figure is {L}.",
        "So the correct choice is **{L}**.",
        "Thus, the right option is {L}.",
        "The best answer is {L}.",
        "The correct answer is: **Option {L}**",
    ],
    "therefore": [
        "Therefore, the answer is {L}.",
        "So, the answer is {L}.",
        "Hence the answer is ({l}).",
        "Thus, the answer should be {L}.",
        "The answer must be {L}.",
        "Putting it all together, the answer is **{L}**.",
        "So the answer would be option {L}.",
    ],
    "boxed": [
        "\\boxed{{{L}}}",
        "$\\boxed{{{L}}}$",
        "\\[\\boxed{{\\text{{{L}}}}}\\]",
        "The answer is:\n\n$$\\boxed{{{L}}}$$",
    ],
    "choose": [
        "I choose {L}.",
        "I choose option {L}.",
        "I would choose ({l}).",
        "I would go with {L}.",
        "I pick {L}.",
        "I select option ({L}).",
        "Based on this analysis, I choose **{L}**.",
    ],
    "odd_one_out": [
        "So the odd one out is figure {l}.",
        "The odd one out is {L}.",
        "Therefore the odd one out is ({l}).",
        "The odd one out: **{L}**",
    ],
    "option_is_correct": [
        "Option {L} is the correct answer.",
        "Option ({l}) is correct.",
        "Figure {L} is the right one.",
        "So option {L} is the correct one.",
        "Thus figure ({l}) is the odd one out.",
    ],
    "bare_last_line": ["{L}", "**{L}**", "({l})", "Option {L}", "({L})", "{L}.", "**({L})**"],
    "header": [
        "### Final Answer\n{L}",
        "## Answer\n\n**({L})**",
        "### Final Answer\n\nThe correct figure is **{L}**.",
        "**Final Answer**\n\n{L}",
        "# Answer\n\n**{L}**",
    ],
    "lowercase": [
        "the answer is ({l}).",
        "answer: {l}",
        "Final answer: **{l}**",
        "the correct option is {l}.",
        "I choose ({l})",
        "So the answer is {l}.",
    ],
}

GOOD_FINAL_STYLES = [s for s in FINAL_STYLES if s != "bare_last_line"]

EXPLANATIONS = [
    "Explanation: {L} {good}, while {W} {bad}.",
    "{L} is the only candidate that {good}; {W} {bad}.",
    "Reason: {W} {bad} (not {W}), and {L} {good}.",
    "This is because {L} {good}. The others fail: {W} {bad}.",
]

NONE_STATEMENTS = [
    "None of the options is correct.",
    "Answer: None",
    "Answer: none of the above",
    "After checking all of them, no option matches the reference.\n\nNone of the options is correct.",
    "No option fits the rule.",
    "**Answer:** None of the above.",
    "Final answer: none of the figures satisfies the rule.",
    "So none of the choices work; no option is correct.",
]

HEDGES = [
    "I cannot determine the answer with confidence; it could be {W} or {L}.",
    "Both {W} and {L} seem plausible, and I can't decide between them.",
    "Without a clearer image, I'm unable to pick a single figure; {W} and {L} are the most likely candidates.",
    "The answer is either {W} or {L}, but the image is too ambiguous to be sure.",
    "I'm torn between {W} and {L}. More information would be needed.",
    "It is hard to tell whether {W} or {L} is intended, so I will not commit to one.",
]

ARTICLE_LEADS = [
    "The answer is a {noun}, and only one figure shows that.",
    "The correct option is a shape with the same structure as the reference.",
    "What we are looking for is a {noun}.",
    "The answer is a figure that {good}.",
]

# Known extractor limitations (see the tests for the exact reason of each); they
# are included at low weight (about 2.5% in total) so that the corpus measures them without dominating.
KNOWN_BUG_STYLES: dict[str, list[str]] = {
    "bold_keyword_colon": ["**Final Answer**: {L}", "**Answer**: ({L})", "**Final answer**: Option {L}"],
    "boxed_paren": ["$\\boxed{{({L})}}$", "\\boxed{{\\textbf{{{L}}}}}", "\\boxed{{\\text{{({L})}}}}"],
    "contracted_choose": ["I'll go with {L}.", "I'd choose option {L}.", "I will choose {L}."],
    "adverb_answer": [
        "The answer is most likely {L}.",
        "The correct answer is therefore {L}.",
        "The answer is clearly ({l}).",
        "So the answer appears to be {L}.",
    ],
    "dash_separator": ["Final Answer - {L}", "Answer – {L}", "Final answer — {L}"],
    "none_in_explanation": ["Answer: {L}, because none of the options except {L} keep the reference's structure."],
    "trailing_option_one_that": ["Final answer: {L}. Option {W} is the one that fooled me at first."],
    "bare_lowercase": ["{l}"],
    "option_bold_is_correct": ["So option **{L}** is the correct one.", "Option **({L})** is the right answer."],
    "double_bold": ["**Answer:** **{L}**", "**Final Answer:** **({L})**", "*Answer:* {L}"],
}

STYLE_WEIGHTS: dict[str, float] = {
    "answer_colon": 14,
    "final_answer": 12,
    "correct_option": 8,
    "therefore": 10,
    "boxed": 5,
    "choose": 5,
    "odd_one_out": 3,
    "option_is_correct": 3,
    "bare_last_line": 5,
    "header": 5,
    "lowercase": 4,
    "trailing_explanation": 5,
    "self_correction": 5,
    "distractor_after": 4,
    "article": 3,
    "none": 3,
    "hedged": 3,
    "out_of_range": 1,
    # known extractor limitations, about 2.5% in total
    "bold_keyword_colon": 0.4,
    "boxed_paren": 0.25,
    "contracted_choose": 0.3,
    "adverb_answer": 0.4,
    "dash_separator": 0.15,
    "none_in_explanation": 0.15,
    "trailing_option_one_that": 0.15,
    "bare_lowercase": 0.2,
    "option_bold_is_correct": 0.2,
    "double_bold": 0.3,
}


def _fmt(template: str, rng: random.Random, task: dict, letter: str, other: str) -> str:
    return template.format(
        L=letter,
        l=letter.lower(),
        W=other,
        noun=task["noun"],
        good=rng.choice(task["good"]),
        bad=rng.choice(task["bad"]),
    )


def _final_statement(rng: random.Random, task: dict, letter: str, other: str) -> str:
    style = rng.choice(GOOD_FINAL_STYLES)
    return _fmt(rng.choice(FINAL_STYLES[style]), rng, task, letter, other)


def _entry(rng: random.Random, style: str) -> dict:
    task = rng.choice(TASKS)
    letters = task["letters"]
    letter = rng.choice(letters)
    other = rng.choice([x for x in letters if x != letter])
    sep = rng.choice(["\n\n", "\n\n", "\n", " "])

    if style in FINAL_STYLES or style in KNOWN_BUG_STYLES:
        templates = FINAL_STYLES.get(style) or KNOWN_BUG_STYLES[style]
        final = _fmt(rng.choice(templates), rng, task, letter, other)
        if style in ("bare_last_line", "bare_lowercase", "header"):
            sep = "\n\n"
        text = _discussion(rng, task, letters, letter) + sep + final
        intended = letter
    elif style == "trailing_explanation":
        final = _final_statement(rng, task, letter, other)
        text = (
            _discussion(rng, task, letters, letter)
            + sep
            + final
            + "\n\n"
            + _fmt(rng.choice(EXPLANATIONS), rng, task, letter, other)
        )
        intended = letter
    elif style == "self_correction":
        first = _final_statement(rng, task, other, letter)
        revision = rng.choice(
            [
                "Wait, let me re-check {W}. On closer inspection, {W} {bad}.",
                "Hmm, actually that is wrong: {W} {bad}.",
                "Correction: I misread the figure. {W} {bad}, whereas {L} {good}.",
                "On second thought, {W} {bad}.",
            ]
        )
        text = (
            _discussion(rng, task, letters, other)
            + sep
            + first
            + "\n\n"
            + _fmt(revision, rng, task, letter, other)
            + "\n\n"
            + _final_statement(rng, task, letter, other)
        )
        intended = letter
    elif style == "distractor_after":
        final = rng.choice(
            [
                "Final answer: {L} (not {W})",
                "Answer: {L} — not {W}, which {bad}.",
                "The answer is {L}, not {W}.",
                "**Answer:** ({l}) (not ({w}), since that one {bad})",
                "Therefore, the answer is {L} rather than {W}.",
            ]
        )
        final = final.replace("{w}", other.lower())
        text = _discussion(rng, task, letters, letter) + sep + _fmt(final, rng, task, letter, other)
        intended = letter
    elif style == "article":
        lead = _fmt(rng.choice(ARTICLE_LEADS), rng, task, letter, other)
        text = _discussion(rng, task, letters, letter) + sep + lead + " " + _final_statement(rng, task, letter, other)
        intended = letter
    elif style == "none":
        text = _discussion(rng, task, letters, "") + sep + rng.choice(NONE_STATEMENTS)
        intended = NONE
    elif style == "hedged":
        text = _discussion(rng, task, letters, "") + sep + _fmt(rng.choice(HEDGES), rng, task, letter, other)
        intended = ""
    elif style == "out_of_range":
        beyond = rng.choice("EF") if letters == "ABCD" else rng.choice("GH")
        text = (
            _discussion(rng, task, letters, "")
            + sep
            + rng.choice(["Answer: {X}", "The answer is {X}.", "\\boxed{{{X}}}"]).format(X=beyond)
        )
        intended = ""
    else:  # pragma: no cover - guarded by STYLE_WEIGHTS
        raise ValueError(style)
    return {"text": text, "letters": letters, "intended": intended, "style": style}


def build_corpus(n: int = 600, seed: int = 0) -> list[dict]:
    """``n`` realistic answers with their intended labels, deterministic for ``seed``."""
    rng = random.Random(seed)
    styles = list(STYLE_WEIGHTS)
    weights = [STYLE_WEIGHTS[s] for s in styles]
    return [_entry(rng, rng.choices(styles, weights)[0]) for _ in range(n)]
