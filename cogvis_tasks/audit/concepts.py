"""Features that ARE a task's concept, declared per task, and the sets the audit cannot audit (with the reason).

A picker on a concept feature finding the answer is not a leak: measuring symmetry is what Symmetric Structures
asks. Those features are kept out of the surface pickers and reported on their own line (``concept``), so a
reader sees how much easier they make a preset for a model that measures them; nothing is dropped silently.
Patterns are ``fnmatch`` patterns over the feature names of :mod:`cogvis_tasks.audit.features`.
"""

from __future__ import annotations

import fnmatch

CONCEPT_FEATURES: dict[str, tuple[str, ...]] = {
    # Visual Conceptual Slippage: number (parts), hollowness, topology (holes) and symmetry are among the concepts.
    "minds_eye/VCS": ("n_parts", "n_holes", "fill", "ink", "darkness", "sym_*", "bsym_*"),
    # Symmetric Structures: the odd figure is the asymmetric one.
    "minds_eye/SS": ("sym_*", "bsym_*"),
    # Visual Relation Abstraction: the shared attribute is thinness (ink per extent), the number of regions (holes)
    # or of strokes and crossings (parts): the odd figure's count differing from the others' is the task.
    "minds_eye/VRA": ("fill", "n_holes", "n_parts"),
    # Hidden Patterns: the model is drawn on the same grid at the same place as in the pattern, so the pixel
    # distance between pattern and model measures the containment the row asks about.
    # Mental Composition: the net is the stimulus; an option's pixel/colour distance to it compares the net's faces
    # (which solid they fold into) with the option's solid, which is the task (option-only features stay at chance).
    "minds_eye/MC": ("dist_stimulus_*", "colour_dist_stimulus"),
    "visfactor/CF2": ("dist_stimulus_*",),
}

#: Sets with no surface the audit can look at, and why (reported as "not audited", never skipped silently).
NOT_AUDITED: dict[str, str] = {
    "visfactor/CS1": "open-vocabulary answer (an object name); no options to compare",
    "visfactor/CS2": "open-vocabulary answer (a word); no options to compare",
    "visfactor/CS3": "open-vocabulary answer (an object name); no options to compare",
    "visfactor/S2": "the four rows show one pair of cube views asked four ways (same/different, both orders); "
    "their images carry no per-row difference to audit",
}
#: Released subtests whose answer is a number or a grid position read from one image: auditable from the
#: generators' scene metadata only (what the candidate positions are), so not from released files.
METADATA_ONLY = ("CF3", "MA1", "SS3")


def concept_features(group: str, names: tuple[str, ...]) -> set[str]:
    patterns = CONCEPT_FEATURES.get(group, ())
    return {n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)}
