"""CS2 Concealed Words: read a frequent English word whose letters are partly hidden by white lines and blotches.

The word comes from wordfreq's English top list (``wordfreq.top_n_list("en", top_n)``,
wordfreq 3.x, code Apache-2.0, data CC-BY-SA 4.0; only single words reach the
items) or, with ``word_source="builtin"``, from the list below. Both are filtered
to plain ASCII letters within the length bounds, minus a few offensive words, and
sorted, so the choice depends only on the item RNG. Severity s is the share of the
word's ink hidden (at most s, at least s - 0.03 unless the budget runs out); no
letter loses more than ``max_letter_occlusion`` of its ink, so every letter stays
partly visible.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import base, objects

PROMPT = (
    "Task: The image <IMAGE_0> shows one common English word written in large lower-case letters, partly hidden "
    "by white lines and blotches. What is the word?<br>"
    'Output: Respond with {"answer": "<word>"}.'
)
TOLERANCE = 0.03
MAX_TRIES = 800
MARGIN = 24  # pixels kept free around the word
WORD_SOURCES = ("wordfreq", "builtin")

#: Frequent words never shown (the wordfreq top lists contain profanity).
BLOCKED = frozenset(
    "fuck fucking fucked fuckin fucks shit shits shitty bitch bitches dick dicks cock cocks pussy porn rape raped "
    "rapist asshole sexy sexual naked nigga nigger whore slut cunt bastard penis vagina boobs tits".split()
)

#: The fallback list (our own): common, concrete English words of 3 to 10 letters.
BUILTIN_WORDS = tuple(
    """
    about above accept across action active actor add address adult afraid after again against age agree ahead
    air alarm album alive allow almost alone along already always amount angle angry animal answer anyone apple
    area argue arm army around arrive art article artist ask attack aunt autumn avoid awake away baby back bad bag
    bake ball band bank base basket bath battle beach bean bear beat beauty become bed bedroom beer before begin
    behind believe bell belt bench best better bicycle big bird birth bitter black blade blanket blind block blood
    blow blue board boat body bone book border born borrow bottle bottom bowl box brain branch brave bread break
    breath brick bridge bright bring broad brother brown brush bubble build burn bus busy butter button buy cable
    cake call calm camera camp candle candy capital captain car card care carpet carry castle cat catch cause
    ceiling center chain chair chalk chance change cheap check cheese chest chicken child choice church circle city
    class clean clear climb clock close cloth cloud coast coat coffee cold collect colour comb come common cook cool
    copper corner cotton count country cover cow crack cream cross crowd crown cup curtain cut damage dance danger
    dark daughter day dead deal dear debt decide deep deer degree desert design desk detail diamond dinner direct
    dirty dish doctor dog dollar door double down dragon drawer dream dress drink drive drop drum dry duck dust
    eagle early earth east easy eat edge effect egg eight elbow empty end enemy engine enjoy enough enter equal
    evening event every exact example exit expert eye face fact fair fall family famous far farm fast father
    fault favour fear feather feed feel fence field fight figure fill film final find finger fire first fish flag
    flame flat floor flower fly fold follow food foot forest forget fork form fox frame free fresh friend frog
    front fruit full funny future game garden gate gentle gift girl give glass glove goat gold good grain grass
    great green grey ground group grow guard guess guest guide guitar hair half hall hammer hand happy harbor hard
    hat head health heart heat heavy help hill history hold hole holiday home honey hope horse hospital hot hotel
    hour house hungry hurry ice idea inch inside iron island jacket jelly jewel join journey juice jump jungle
    kettle key kick kind king kiss kitchen knee knife knock know ladder lady lake lamp land large late laugh lawn
    lead leaf learn leather leave left lemon length letter level library light limit line lion lip liquid listen
    little live lock long loud love low lunch machine magic mail main make man map market match meal measure meat
    medal meet melon metal middle milk mind minute mirror money monkey month moon morning mother motor mountain
    mouse mouth move music nail name narrow nation nature near neck needle nest net never new news night noise
    north nose note number nurse ocean offer office oil old onion open orange order oven owner page pain paint pair
    palace paper parent park party pass past path pencil people pepper piano picture piece pig pillow pilot pink
    pipe place plane plant plate play pocket poem point police pool poor potato powder power press price prince
    print prize proud pull pump puppy purple push queen question quick quiet rabbit race radio rain rainbow reach
    read ready record red remember rest rice rich ride right ring river road rock roof room root rope rose round
    royal rubber rule run salt sand school science scissors sea season seat second secret seed sell send shadow
    shape share sharp sheep shelf shell ship shirt shoe shop short shoulder silver simple sing sister sit size
    skin skirt sky sleep slow small smile smoke snake snow soap sock soft soldier son song sound soup south space
    speak speed spider spoon sport spring square stage stair stamp star start station steam steel stem step stick
    stone stop store storm story straight street strong sugar summer sun supper sweet swim table tail talk tall
    taste taxi tea teacher team tent test thick thin thing thread throat thumb ticket tiger time tired toast today
    toe tongue tooth top towel tower town toy train tree trick truck trumpet turn twin uncle under valley village
    violin visit voice wait walk wall warm wash watch water wave wax weather week weight west wheel whistle white
    wide wild window wine wing winter wire woman wood wool word work world worm write yard year yellow young zebra
    """.split()
)


@functools.lru_cache(maxsize=16)
def word_list(source: str, top_n: int, min_len: int, max_len: int) -> tuple[str, ...]:
    """The sorted candidate words of a configuration."""
    if source == "wordfreq":
        try:
            import wordfreq
        except ImportError:
            raise ModuleNotFoundError(
                "CS2 with word_source='wordfreq' needs the wordfreq package (pip install wordfreq), or use word_source='builtin'"
            ) from None
        raw = wordfreq.top_n_list("en", top_n)
    else:
        raw = list(BUILTIN_WORDS)
    keep = {w for w in raw if w.isascii() and w.isalpha() and w.islower() and min_len <= len(w) <= max_len}
    return tuple(sorted(keep - BLOCKED))


@functools.lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _layout(word: str, width: int, height: int) -> dict:
    """Font size and integer letter positions that centre the word in the canvas."""
    size = int(height * 0.62)
    length = _font(size).getlength(word)
    if length > width - 2 * MARGIN:
        size = int(size * (width - 2 * MARGIN) / length)
    font = _font(size)
    left, top, right, bottom = font.getbbox(word)
    x0 = (width - (right - left)) / 2 - left
    y = round((height - (bottom - top)) / 2 - top)
    letters = [{"char": ch, "x": round(x0 + font.getlength(word[:i])), "y": y} for i, ch in enumerate(word)]
    return {"font_size": size, "letters": letters}


def _occluder(rng: random.Random, points: tuple[np.ndarray, np.ndarray], cfg: Config) -> dict:
    """A white line through, or a white blotch on, a random ink pixel."""
    k = rng.randrange(len(points[0]))
    x, y = float(points[0][k]), float(points[1][k])
    if rng.random() < 0.5:
        angle = rng.uniform(-0.6, 0.6) + (math.pi / 2 if rng.random() < 0.3 else 0.0)
        half = rng.uniform(0.05, 0.25) * cfg.width
        dx, dy = half * math.cos(angle), half * math.sin(angle)
        pts = [[round(x - dx, 1), round(y - dy, 1)], [round(x + dx, 1), round(y + dy, 1)]]
        return {"kind": "line", "pts": pts, "w": rng.randint(*cfg.line_width)}
    rx, ry = rng.randint(*cfg.blotch_radius), rng.randint(*cfg.blotch_radius)
    return {"kind": "ellipse", "box": [round(x) - rx, round(y) - ry, round(x) + rx, round(y) + ry]}


@dataclass(frozen=True)
class Config:
    severity: float = 0.4  # share of the word's ink hidden (at most; within TOLERANCE below)
    width: int = 640
    height: int = 200
    min_len: int = 4
    max_len: int = 8
    top_n: int = 3000  # size of the wordfreq top list drawn from
    word_source: str = "wordfreq"  # or "builtin" (no dependency)
    max_letter_occlusion: float = 0.6  # no letter loses more of its ink than this
    line_width: tuple[int, int] = (3, 8)
    blotch_radius: tuple[int, int] = (5, 14)

    def __post_init__(self) -> None:
        base.check_choice("word_source", self.word_source, WORD_SOURCES)
        base.check_range("max_letter_occlusion", self.max_letter_occlusion, 0.0, 0.9)
        base.check_range("severity", self.severity, 0.0, self.max_letter_occlusion)
        base.check_range("height", self.height, 64, 1024)
        base.check_range("min_len", self.min_len, 2, 12)
        base.check_range("max_len", self.max_len, self.min_len, 12)
        base.check_range("width", self.width, self.max_len * self.height // 4, 4096)
        base.check_range("top_n", self.top_n, 100, 100_000)
        if not 1 <= self.line_width[0] <= self.line_width[1] <= self.height // 4:
            raise ValueError(f"line_width must satisfy 1 <= low <= high <= height/4, got {self.line_width!r}")
        if not 1 <= self.blotch_radius[0] <= self.blotch_radius[1] <= self.height // 4:
            raise ValueError(f"blotch_radius must satisfy 1 <= low <= high <= height/4, got {self.blotch_radius!r}")


PRESETS: dict[str, Config] = {
    "easy": Config(severity=0.2),
    "normal": Config(severity=0.4),
    "hard": Config(severity=0.45),
}
ID = "CS2"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    words = word_list(config.word_source, config.top_n, config.min_len, config.max_len)
    if not words:
        raise ValueError(
            f"min_len/max_len leave no {config.word_source} word of {config.min_len}-{config.max_len} letters"
        )
    rank = rng.randrange(len(words))
    word = words[rank]
    layout = _layout(word, config.width, config.height)
    font = _font(layout["font_size"])
    canvas = Image.new("L", (config.width, config.height), 255)
    masks = []
    for letter in layout["letters"]:
        one = Image.new("L", canvas.size, 255)
        ImageDraw.Draw(one).text((letter["x"], letter["y"]), letter["char"], font=font, fill=0)
        masks.append(objects.ink_mask(one))
        canvas = Image.fromarray(np.minimum(np.asarray(canvas), np.asarray(one)))
    ink = objects.ink_mask(canvas)
    points = objects.ink_points(ink)
    shapes, hidden = objects.greedy_cover(
        rng,
        ink,
        lambda r: _occluder(r, points, config),
        config.severity,
        TOLERANCE,
        MAX_TRIES,
        masks,
        config.max_letter_occlusion,
    )
    image = canvas.copy()
    draw = ImageDraw.Draw(image)
    for shape in shapes:
        objects.paint(draw, shape, 255)
    scene = {
        "word": word,
        "word_index": rank,
        "word_count": len(words),
        **layout,
        "occluders": shapes,
        "ink_pixels": int(ink.sum()),
        "hidden_pixels": hidden,
    }
    return base.make_item(ID, index, (base.Row(PROMPT, (base.png(image),), word),), config, PRESETS, scene)
