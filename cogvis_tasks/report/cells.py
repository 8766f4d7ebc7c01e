"""How each table cell of a benchmark report follows from item credits, vectorised for the bootstrap.

The benchmark's own ``build_report`` is the one source of truth for every number
shown. Calling it for each of 1,000 resamples is too slow for full-size runs (about
50 ms per call on VisFactor's 3,046 rows), so each cell is also described here as a
function of an item-weight matrix (one row per resample):

* ``ItemsCell``: mean item credit over the items in a mask (a subtest, a tag value
  within a subtest); with weights, a weighted mean.
* ``MacroCell``: unweighted mean over other cells (factors, domains, ART dimensions,
  MME-CC dimensions and their overall, overall macros); cells absent from a resample are left out, as ``build_report``
  leaves out groups with no items.
* ``MaxCell``: the best of other cells (VisualPuzzles' best-of overall).

Each report type describes its own cells (``bootstrap_cells(tables, items)``, built with the
helpers here) and any derived ones (``derived_cells(rows)``). Before any of it is used, every
cell is evaluated on the original sample and compared with ``build_report``'s value (and item
count); if one differs, or a report type describes none, the CIs come from ``build_report`` on
every resample instead (exact, slower, and said in the report's method note), so a change to a
benchmark's aggregation can never silently skew the CIs.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ..core.aggregate import GroupScore, RowResult, subtest_scores
from ..core.scoring import CHANCE as CHANCE_TAG
from .bootstrap import Resamples, Stratum

CellKey = tuple[str, str]  # (table, group)
OVERALL: CellKey = ("overall", "overall")
SUBTEST = "subtest"
TOLERANCE = 1e-9


@dataclass(frozen=True)
class ItemsCell:
    mask: np.ndarray  # (items,) bool


@dataclass(frozen=True)
class MacroCell:
    members: tuple[CellKey, ...]


@dataclass(frozen=True)
class MaxCell:
    members: tuple[CellKey, ...]


Spec = Union[ItemsCell, MacroCell, MaxCell]


@dataclass(frozen=True)
class Items:
    """The items of one run: (subtest, item id) keys, credit per repeat, and the tags of their rows."""

    keys: tuple[tuple[str, str], ...]
    credit: np.ndarray  # (repeats, items): 1.0 when all the item's rows are right
    tags: tuple[Mapping[str, str], ...]
    rows: tuple[Mapping[tuple[str, str], tuple[RowResult, ...]], ...]  # per repeat: key -> rows

    @property
    def subtests(self) -> np.ndarray:
        return np.array([s for s, _ in self.keys], dtype=object)


def items_of(repeats: Sequence[Sequence[RowResult]]) -> Items:
    """Items (sorted by key) of a run's rows; every repeat must hold the same items."""
    grouped: list[dict[tuple[str, str], list[RowResult]]] = []
    for rows in repeats:
        by_key: dict[tuple[str, str], list[RowResult]] = defaultdict(list)
        for r in rows:
            by_key[(r.subtest, r.item)].append(r)
        grouped.append(by_key)
    keys = tuple(sorted(grouped[0]))
    for k, by_key in enumerate(grouped[1:], start=2):
        if set(by_key) != set(keys):
            raise ValueError(f"repeat {k} holds other items than repeat 1")
    credit = np.array([[all(r.correct for r in by_key[key]) for key in keys] for by_key in grouped], dtype=np.float64)
    tags = tuple(_item_tags(grouped[0][key]) for key in keys)
    return Items(keys, credit, tags, tuple({key: tuple(v) for key, v in by_key.items()} for by_key in grouped))


def item_chances(items: Items) -> list[float] | None:
    """Each item's chance of being guessed right: the product of its rows' ``chance`` tags (rows of one item are
    guessed independently and all must be right); None unless every row carries one (older logs)."""
    out = []
    for key in items.keys:
        rows = items.rows[0][key]
        if not all(CHANCE_TAG in r.tags for r in rows):
            return None
        out.append(float(np.prod([float(r.tags[CHANCE_TAG]) for r in rows])))
    return out


def _item_tags(rows: Sequence[RowResult]) -> dict[str, str]:
    tags: dict[str, str] = {}
    for r in rows:
        for k, v in r.tags.items():
            tags.setdefault(k, v)
    return tags


# --- the report's own numbers ---------------------------------------------------------------------


def report_tables(report: Any, rows: Sequence[RowResult]) -> dict[str, dict[str, GroupScore]]:
    """The report's tables: its subtest table first (the field keyed by exactly the subtests), then ``dimensions()``."""
    subtests = set(subtest_scores(rows))
    own = next(
        (
            v
            for f in dataclasses.fields(report)
            if isinstance(v := getattr(report, f.name), dict)
            and v
            and set(v) == subtests
            and all(isinstance(x, GroupScore) for x in v.values())
        ),
        None,
    )
    tables = {SUBTEST: dict(own if own is not None else sorted(subtest_scores(rows).items()))}
    tables.update({name: dict(groups) for name, groups in report.dimensions().items() if groups})
    return tables


def report_values(report: Any, rows: Sequence[RowResult]) -> dict[CellKey, float]:
    """Accuracy of every cell of a report, derived tables included."""
    values = {
        (table, group): s.accuracy
        for table, groups in report_tables(report, rows).items()
        for group, s in groups.items()
    }
    values[OVERALL] = report.overall.accuracy
    for key, members in derived_cells(report, rows).items():
        present = [values[m] for m in members if m in values]
        values[key] = sum(present) / len(present) if present else float("nan")
    return values


def derived_cells(report: Any, rows: Sequence[RowResult]) -> dict[CellKey, tuple[CellKey, ...]]:
    """Cells shown beside the report's own: macros over its cells (the report type says which, if any)."""
    derive = getattr(report, "derived_cells", None)
    return derive(rows) if derive is not None else {}


DIFFICULTY_ORDER = ("easy", "medium", "normal", "complex", "hard")


def difficulty_rank(level: str) -> tuple[int, str]:
    """Order of difficulty levels: the known names by difficulty, others after them by name."""
    return (DIFFICULTY_ORDER.index(level) if level in DIFFICULTY_ORDER else len(DIFFICULTY_ORDER), level)


# --- vectorised cells -----------------------------------------------------------------------------


Tables = Mapping[str, Mapping[str, GroupScore]]


def specs_for(report: Any, rows: Sequence[RowResult], items: Items) -> dict[CellKey, Spec | None]:
    """A spec for every cell of the report (None where its report type does not describe it)."""
    tables = report_tables(report, rows)
    subs = items.subtests
    specs: dict[CellKey, Spec | None] = {(SUBTEST, s): ItemsCell(subs == s) for s in tables[SUBTEST]}
    own = getattr(report, "bootstrap_cells", None)
    if own is not None:
        specs.update(own(tables, items))
    for table, groups in tables.items():
        for group in groups:
            specs.setdefault((table, group), None)
    specs.setdefault(OVERALL, None)
    for key, members in derived_cells(report, rows).items():
        specs[key] = MacroCell(members)
    return specs


def every_subtest(tables: Tables) -> tuple[CellKey, ...]:
    return tuple((SUBTEST, s) for s in tables[SUBTEST])


def macro_cells(tables: Tables, table: str, member_of: Callable[[str, str], bool]) -> dict[CellKey, Spec]:
    """Cells of ``table`` that are unweighted means over the subtests ``member_of(subtest, group)`` selects."""
    every = every_subtest(tables)
    return {(table, g): MacroCell(tuple(m for m in every if member_of(m[1], g))) for g in tables.get(table, {})}


def tagged_cells(tables: Tables, items: Items, table: str, tag: str, several: bool = False) -> dict[CellKey, Spec]:
    """Cells "<subtest>/<value>" of one row tag; ``several``: the tag holds comma-joined values, each a group."""
    out: dict[CellKey, Spec] = {}
    for group in tables.get(table, {}):
        subtest, _, value = group.partition("/")

        def hit(t: Mapping[str, str], value: str = value) -> bool:
            return value in t.get(tag, "").split(",") if several else t.get(tag) == value

        mask = np.array([s == subtest and hit(t) for s, t in zip(items.subtests, items.tags, strict=True)], dtype=bool)
        out[(table, group)] = ItemsCell(mask)
    return out


def cross_cells(tables: Tables, items: Items, table: str, first: str, second: str) -> dict[CellKey, Spec]:
    """Cells "<subtest>/<first value>/<second value>" of two row tags."""
    out: dict[CellKey, Spec] = {}
    for group in tables.get(table, {}):
        subtest, a, b = group.split("/", 2)
        pairs = zip(items.subtests, items.tags, strict=True)
        hits = [s == subtest and t.get(first) == a and t.get(second) == b for s, t in pairs]
        out[(table, group)] = ItemsCell(np.array(hits, dtype=bool))
    return out


def _nanmean(stack: np.ndarray) -> np.ndarray:
    present = ~np.isnan(stack)
    count = present.sum(axis=0)
    total = np.where(present, stack, 0.0).sum(axis=0)
    return np.divide(total, count, out=np.full(total.shape, np.nan), where=count > 0)


def evaluate(specs: Mapping[CellKey, Spec], values: np.ndarray, weights: np.ndarray) -> dict[CellKey, np.ndarray]:
    """Every cell for every resample: ``values`` (repeats, items), ``weights`` (resamples, items).

    Per repeat, then averaged over repeats (the harnesses report the mean over repeats).
    """
    item_specs = {k: s for k, s in specs.items() if isinstance(s, ItemsCell)}
    item_keys = list(item_specs)
    out: dict[CellKey, np.ndarray] = {}
    if item_keys:
        masks = np.stack([s.mask for s in item_specs.values()], axis=1).astype(np.float64)
        counts = weights @ masks
        per_repeat = []
        for v in values:
            sums = weights @ (v[:, None] * masks)
            per_repeat.append(np.divide(sums, counts, out=np.full(sums.shape, np.nan), where=counts > 0))
        mean = np.mean(per_repeat, axis=0)
        for j, key in enumerate(item_keys):
            out[key] = mean[:, j]

    def value(key: CellKey) -> np.ndarray:
        if key not in out:
            spec = specs[key]
            if isinstance(spec, ItemsCell):  # every items cell is in ``out`` already
                raise ValueError(f"cell {'/'.join(key)}: items cell not evaluated")
            stack = np.stack([value(m) for m in spec.members])
            if isinstance(spec, MaxCell):
                out[key] = np.where(np.isnan(stack), -np.inf, stack).max(axis=0)
            else:
                out[key] = _nanmean(stack)
        return out[key]

    for key in specs:
        value(key)
    return out


def complete(specs: Mapping[CellKey, Spec | None]) -> dict[CellKey, Spec]:
    """The specs of the cells that have one (after :func:`check`: all of them)."""
    return {k: s for k, s in specs.items() if s is not None}


def check(
    specs: Mapping[CellKey, Spec | None], values: Mapping[CellKey, float], items: Items, counts: Mapping[CellKey, int]
) -> str | None:
    """Why the specs cannot stand in for ``build_report`` on this run (None: they reproduce every cell)."""
    missing = [k for k, s in specs.items() if s is None]
    if missing:
        return f"no vectorised form for {', '.join('/'.join(k) for k in missing[:3])}"
    got = evaluate(complete(specs), items.credit, np.ones((1, len(items.keys))))
    for key, expected in values.items():
        if key not in got:
            return f"no vectorised form for {'/'.join(key)}"
        if not (np.isnan(expected) and np.isnan(got[key][0])) and abs(float(got[key][0]) - expected) > TOLERANCE:
            return f"vectorised {'/'.join(key)} = {float(got[key][0])!r} but build_report gives {expected!r}"
        spec = specs[key]
        if isinstance(spec, ItemsCell) and key in counts and int(spec.mask.sum()) != counts[key]:
            return (
                f"vectorised {'/'.join(key)} covers {int(spec.mask.sum())} items but build_report counts {counts[key]}"
            )
    return None


# --- the exact path -------------------------------------------------------------------------------


def exact(
    build_report: Callable[[list[RowResult]], Any],
    items: Items,
    parts: Sequence[Stratum],
    resamples: Resamples,
    keys: Sequence[CellKey],
) -> dict[CellKey, np.ndarray]:
    """Every cell for every resample, from ``build_report`` on the resampled rows.

    A drawn item's rows are copied under a new item id per draw (``<id>#<draw>``), so
    an item drawn twice counts twice, exactly as in the weight matrix.
    """
    out = {key: np.full(resamples.size, np.nan) for key in keys}
    for b in range(resamples.size):
        per_repeat: dict[CellKey, list[float]] = defaultdict(list)
        for by_key in items.rows:
            rows: list[RowResult] = []
            for stratum, idx in zip(parts, resamples.draws, strict=True):
                for j, pick in enumerate(idx[b]):
                    item = stratum.ids[pick]
                    for subtest in stratum.subtests:
                        rows += [dataclasses.replace(r, item=f"{item}#{j}") for r in by_key[(subtest, item)]]
            for key, v in report_values(build_report(rows), rows).items():
                per_repeat[key].append(v)
        for key in keys:
            if per_repeat.get(key):
                out[key][b] = float(np.mean(per_repeat[key]))
    return out
