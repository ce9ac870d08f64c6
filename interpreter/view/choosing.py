"""Finding an option among many by typing: matching, narrowing and grouping.

A decision may have hundreds of options (every piece on every square), far more than a
screen holds. So a person sees them grouped (by kind, then by the first part of the
notation that differs, with counts) and types to narrow them: the start of a notation
(`pp`), a place or any other whole word of a notation or label (`c3`, `north`), a
group's key, or several of these at once (`pp a5`). Everything here works from the
options' notations, labels and kinds alone, so it holds for any game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from interpreter.play.game import Option, normalize_notation

_TOKEN_SPLIT = re.compile(r"\s+|(?<=[^\W_])-(?=[^\W_])")
"""Where a notation splits into parts: spaces, and dashes between letters or digits
(`pp-bM-a5`), not a minus sign (`FWFW -3,0`)."""
_SEPARATORS = " -_:,./"


def compact(text: str) -> str:
    """The text as typed notations are compared: lowercase, without any spaces."""
    return "".join(text.lower().split())


def tokens(notation: str) -> list[str]:
    return [t for t in _TOKEN_SPLIT.split(notation.strip()) if t]


def exact_match(options: Sequence[Option], text: str) -> Option | None:
    """The option whose notation is `text`, case and spaces ignored (`A2 - N` is
    `a2-n`, `c 1` is `c1`), or None when no option, or more than one, reads so."""
    wanted = normalize_notation(text)
    for option in options:
        if normalize_notation(option.notation) == wanted:
            return option
    squeezed = compact(text)
    found = [o for o in options if compact(o.notation) == squeezed]
    return found[0] if len(found) == 1 else None


def _whole(word: str) -> re.Pattern[str]:
    """`word` standing alone: no letter or digit right before or after it (so `c1`
    is found in `c1-n` and `on c1`, never in `c12`, and `field:1` not in `field:19`)."""
    return re.compile(r"(?<![^\W_])" + re.escape(word) + r"(?![^\W_])")


class _Typed:
    """What was typed, in the forms options are compared with: worked out once per
    line, not once per option, and a pattern only when some text is long enough to
    hold it (a line may be thousands of characters long)."""

    def __init__(self, text: str) -> None:
        self.squeezed = compact(text)
        self.words = normalize_notation(text)

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return _whole(self.words)

    @cached_property
    def squeezed_pattern(self) -> re.Pattern[str]:
        return _whole(self.squeezed)

    def alone_in(self, text: str) -> bool:
        """Whether the words typed stand alone in `text`."""
        return len(self.words) <= len(text) and self.pattern.search(text) is not None


@lru_cache(maxsize=4096)
def _forms(notation: str, kind: str, label: str) -> tuple[str, str, tuple[str, str], str]:
    """An option's texts in the forms typed text is compared with (worked out once:
    the same options are searched line after line): its notation in lowercase, and
    without spaces; its kind without spaces, and without underscores too; its label's
    words in lowercase."""
    notation, kind = notation.lower(), kind.lower()
    return (notation, compact(notation), (compact(kind), compact(kind.replace("_", " "))),
            " ".join(label.lower().split()))


def _matches(option: Option, typed: _Typed, partial: bool = False) -> bool:
    """Whether `option` involves what was typed: its notation starts with it up to a
    break (`pp` in `pp-bM-a5`; any start at all when `partial`), the notation or label
    holds it as a whole word (words of a label in order), or it names the option's kind."""
    squeezed = typed.squeezed
    if not squeezed:
        return False
    notation, whole, kinds, label = _forms(option.notation, option.kind, option.label)
    if whole.startswith(squeezed) and (partial or len(whole) == len(squeezed)
                                       or not whole[len(squeezed)].isalnum()):
        return True
    if squeezed in kinds:
        return True
    if typed.alone_in(notation) or typed.alone_in(label):
        return True
    return (squeezed != typed.words and len(squeezed) <= len(notation)
            and typed.squeezed_pattern.search(notation) is not None)


def _narrow(options: Sequence[Option], text: str) -> list[Option]:
    """The options that involve `text` as a whole (a place: `c1`, never `c12`), else
    those whose notation merely starts with it (`c`, `rM-fi`)."""
    typed = _Typed(text)
    found = [o for o in options if _matches(o, typed)]
    return found or [o for o in options if _matches(o, typed, partial=True)]


def narrow(options: Sequence[Option], text: str) -> list[Option]:
    """The options that involve what was typed; several words must each be involved
    when the words together are not (`pp a5`: the power plays onto a5)."""
    found = _narrow(options, text)
    words = text.split()
    if found or len(words) < 2:
        return found
    chosen = {id(o) for o in options}
    for word in dict.fromkeys(w.lower() for w in words):  # each once; stop at none left
        chosen &= {id(o) for o in _narrow(options, word)}
        if not chosen:
            return []
    return [o for o in options if id(o) in chosen]


# -- groups ------------------------------------------------------------------------------

@dataclass
class OptionGroup:
    """Options shown as one line: what they have in common, and what to type for them."""

    title: str
    options: list[Option]
    key: str | None = None
    """Typed, it narrows the options to exactly this group (None: no short key does)."""


def common_words(labels: Sequence[str]) -> list[str]:
    """The words every label starts with."""
    split = [label.split() for label in labels]
    shared: list[str] = []
    for column in zip(*split, strict=False):
        if any(w != column[0] for w in column):
            break
        shared.append(column[0])
    return shared


def _title(options: Sequence[Option], fallback: str) -> str:
    labels = [o.label for o in options]
    if len(set(labels)) == 1:
        return labels[0]
    shared = common_words(labels)
    if shared:  # `(story 2), …` reads `(story 2) …`
        shared[-1] = shared[-1].rstrip(",;") or shared[-1]
    return (" ".join(shared) + " …") if shared else fallback


def _by(options: Sequence[Option], key: callable) -> list[list[Option]]:  # type: ignore[valid-type]
    groups: dict[object, list[Option]] = {}
    for option in options:
        groups.setdefault(key(option), []).append(option)
    return list(groups.values())


def _varying_part(options: Sequence[Option]) -> int | None:
    """The first part of the notations (`pp-bM-a5` → pp, bM, a5) that is not the same
    in all options, when grouping by it makes fewer groups than options."""
    parts = [tokens(o.notation) for o in options]
    for i in range(max(map(len, parts), default=0)):
        values = {p[i].lower() if i < len(p) else "" for p in parts}
        if len(values) > 1:
            return i if len(values) < len(options) else None
    return None


def group_options(options: Sequence[Option]) -> list[OptionGroup]:
    """Options in groups: by kind; when all are of one kind, by the first part of the
    notation that differs (`pS-a1`, `pM-a1`: by piece). One group per
    option when nothing groups them."""
    groups = _by(options, lambda o: o.kind)
    if len(groups) == 1:
        part = _varying_part(options)
        if part is None:
            return [OptionGroup(o.label, [o]) for o in options]
        groups = _by(options, lambda o: (tokens(o.notation) + [""] * (part + 1))[part].lower())
    out = [OptionGroup(_title(g, g[0].kind.replace("_", " ")), g) for g in groups]
    for group in out:
        group.key = _group_key(options, group)
    return out


def _group_key(options: Sequence[Option], group: OptionGroup) -> str | None:
    """The shortest thing to type that lists exactly this group: the start its
    notations share (`pp`, `pS`), the first word of its title, or its kind."""
    members = {id(o) for o in group.options}
    notations = [o.notation for o in group.options]
    prefix = notations[0]
    for n in notations[1:]:
        while not n.lower().startswith(prefix.lower()):
            prefix = prefix[:-1]
    cuts = [prefix[:i] for i in range(1, len(prefix)) if prefix[i] in _SEPARATORS]
    candidates = [*cuts, prefix.rstrip(_SEPARATORS),
                  group.title.split()[0].lower().rstrip(":,"), group.options[0].kind]
    for key in candidates:
        if key and {id(o) for o in narrow(options, key)} == members:
            return key
    return None


def distinct_titles(groups: Sequence[OptionGroup]) -> tuple[str, list[str]]:
    """What all groups' titles share (`Put your … on …`) and each one's own words
    (`purple small`), for a compact line of groups. A title that goes on (`Play the …`,
    several options) and a whole label (one option) end differently, so words are shared
    at the end only when every title goes on; and at the start only when something is
    left of each title, so no group is left without words of its own."""
    titles = [g.title.removesuffix(" …").split() for g in groups]
    open_ends = [g.title.endswith(" …") for g in groups]
    head = common_words([" ".join(t) for t in titles])
    if any(len(t) == len(head) for t in titles):
        head = head[:-1]
    tails: list[str] = []
    if head and all(open_ends):
        tails = common_words([" ".join(reversed(t[len(head):])) for t in titles])
        if any(len(t) - len(head) - len(tails) < 1 for t in titles):
            tails = []
    if not head:
        return "", [g.title for g in groups]
    shared = " ".join([*head, "…", *reversed(tails), *(["…"] if tails else [])])
    own = [" ".join(t[len(head):len(t) - len(tails)]) + (" …" if end and not tails else "")
           for t, end in zip(titles, open_ends, strict=True)]
    return shared, own


def key_legend(groups: Sequence[OptionGroup], own: Sequence[str]) -> list[dict[str, str]]:
    """What each letter of the groups' keys stands for, one mapping a letter's place in
    the key (`kS`: k, then S), when the key of every group of several options spells its
    first own words letter by letter, the rest of their words being the same (`[g1]
    green small pyramid on the …`), and each letter in its place always means one word
    (`k` black, `S` small); else [] (the keys do not spell words)."""
    places: list[dict[str, str]] = []
    rests: set[tuple[str, ...]] = set()
    for group, words in zip(groups, own, strict=True):
        if len(group.options) == 1:
            continue
        said = words.split()
        if not group.key or not 2 <= len(group.key) <= len(said):
            return []
        rests.add(tuple(said[len(group.key):]))
        places += [{} for _ in range(len(group.key) - len(places))]
        for place, letter, word in zip(places, group.key, said, strict=False):
            if place.setdefault(letter, word) != word:
                return []
    if len(rests) != 1 or any(len(set(p.values())) != len(p) for p in places):
        return []  # the keys leave words unsaid, or a word is spelled two ways
    return places if sum(len(g.options) > 1 for g in groups) > 1 else []
