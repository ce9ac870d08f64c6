"""The names a ruleset declares, for completion and hover: from the text as typed, and
from the last version of it that loaded (with the engine's English for each).

The text is read the way `language_text` reads it (no YAML parse), so a definition
being written is offered at once; the last good load adds what only a compiled game
knows (a variant's base's names, the rulebook's words for a zone or a definition) and
keeps completions alive while the current text has an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.studio.language_schema import ITEM
from interpreter.studio.language_text import Outline, path_of, unquote

if TYPE_CHECKING:
    from interpreter.assemble.part_words import PartWords
    from interpreter.load.loader import LoadedRuleset
    from interpreter.load.parts import Addresses
    from interpreter.play.game import Game

_DEF_KEY = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*$")
_FLOW_ID = re.compile(r"\bid\s*:\s*([A-Za-z0-9_-]+)")
_WORDS = re.compile(r"[A-Za-z0-9_-]+")


@dataclass
class Declared:
    """A name the ruleset declares, as the editor shows it."""

    name: str
    kind: str
    """definition, zone, variable, option, procedure, attribute, value, local name."""
    detail: str = ""
    info: str = ""
    line: int | None = None
    """1-based line where the file being edited declares it (None: not in this text)."""
    where: str | None = None
    """Where it is declared when not in this file (a variant's base: `base-game.yaml:12`)."""


@dataclass
class BasePart:
    """A part of a variant's base, by the address a variant names it with."""

    address: str
    kind: str
    english: str


@dataclass
class Known:
    """What the last good load of a file (and a variant's base) tells about its names."""

    names: dict[str, Declared] = field(default_factory=dict)
    attributes: dict[str, Declared] = field(default_factory=dict)
    base: str | None = None
    """The `extends:` value the parts were read for."""
    base_title: str = ""
    parts: dict[str, BasePart] = field(default_factory=dict)
    addresses: Addresses | None = None
    words: PartWords | None = None
    game: Game | None = None


def _short(text: Any, limit: int = 600) -> str:
    """Each line's spacing made single, the whole cut at `limit` characters."""
    said = "\n".join(" ".join(line.split()) for line in str(text or "").splitlines())
    return said if len(said) <= limit else said[: limit - 1].rstrip() + "…"


def _english(game: Game | None, describer: Any, text: str) -> str:
    if describer is None:
        return ""
    try:
        return str(describer.english.text(text))
    except Exception:  # the describer cannot say every expression: show none
        return ""


def known_from(loaded: LoadedRuleset, game: Game | None, path: str) -> Known:
    """The names a loaded ruleset declares, each with its words and where it is written."""
    from interpreter.assemble.describer import describer_for
    from interpreter.compile.english import humanize, zone_phrase
    from interpreter.load.schema import Definition

    rs = loaded.model
    describer = describer_for(game) if game is not None else None
    out = Known(game=game)

    def where(node: Any) -> tuple[int | None, str | None]:
        loc = getattr(node, "loc", None)
        if loc is None:
            return None, None
        if str(loc.path) == str(path):
            return loc.line, None
        return None, f"{str(loc.path).rsplit('/', 1)[-1]}:{loc.line}"

    def add(name: str, kind: str, detail: str, info: str, node: Any) -> None:
        line, elsewhere = where(node)
        out.names.setdefault(name, Declared(name, kind, detail, _short(info), line, elsewhere))

    for key, written in rs.define.items():
        m = _DEF_KEY.match(key)
        if not m:
            continue
        params = m.group(2)
        body = written.value if isinstance(written, Definition) else written
        said = (written.says if isinstance(written, Definition) else
                _english(game, describer, str(body)))
        info = f"{said}\n= {body}" if said else f"= {body}"
        if isinstance(written, Definition) and written.text:
            info += f"\n{written.text}"
        add(m.group(1), "definition", f"definition({params})" if params else "definition",
            info, written)
    for z in rs.zones:
        label = z.label or humanize(z.id)
        what = f"{z.kind}{', one per seat' if z.per_seat else ''}"
        add(z.id, "zone", f"zone · {what}", f"{zone_phrase(label, z.kind)} ({what})"
            + (f": {z.description}" if z.description else ""), z)
    for v in rs.variables:
        scope = "per seat" if v.per_seat else "per piece" if v.per_piece else "game"
        add(v.id, "variable", f"variable · {scope}", f"{v.label or humanize(v.id)}, "
            f"starts at {v.initial}" + (f": {v.description}" if v.description else ""), v)
    for o in rs.options:
        values = f" ({', '.join(o.choices)})" if o.choices else ""
        add(o.id, "option", f"option · {o.type}", f"{o.label}: {o.description} "
            f"(default {o.default}{values})", o)
    for p in rs.procedures:
        add(p.id, "procedure", "procedure" + (f"({', '.join(p.params)})" if p.params else ""),
            p.text or f"the procedure {humanize(p.id)}", p)
    for attr, a in rs.pieces.attributes.items():
        shown = ", ".join(str(a.names.get(v, v)) for v in a.values)
        line, elsewhere = where(a)
        out.attributes[attr] = Declared(attr, "attribute", "piece attribute",
                                        _short(f"a piece's {humanize(attr)}"
                                               + (f": {shown}" if shown else "")),
                                        line, elsewhere)
        for v in a.values:
            if isinstance(v, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v):
                add(v, "value", f"value of {attr}",
                    f"{a.names.get(v, v)}: a value of the {humanize(attr)} attribute", a)
    return out


def with_base(known: Known, ref: str, loaded: LoadedRuleset, game: Game) -> Known:
    """`known` with the parts of a variant's base, as `tabletop parts BASE` lists them."""
    from interpreter.assemble.part_words import PartWords
    from interpreter.load.parts import Addresses

    found = Addresses(loaded.tree)
    words = PartWords(game)
    known.base = ref
    known.base_title = loaded.model.game.title
    known.addresses = found
    known.words = words
    known.parts = {p.address: BasePart(p.address, p.kind, words.say(p)) for p in found.parts}
    return known


def _flow_words(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("["):
        return [unquote(w) for w in value.strip("[]").split(",") if w.strip()]
    return []


def names_in_text(out: Outline) -> tuple[dict[str, Declared], dict[str, Declared]]:
    """The names the text as typed declares (line numbers 1-based), and its attributes."""
    done = out.derived.get("names")
    if done is None:
        done = out.derived["names"] = _names_in_text(out)
    return done


def _names_in_text(out: Outline) -> tuple[dict[str, Declared], dict[str, Declared]]:
    names: dict[str, Declared] = {}
    attributes: dict[str, Declared] = {}

    def add(name: str, kind: str, line: int, detail: str = "", info: str = "") -> None:
        if name and name not in names:
            names[name] = Declared(name, kind, detail or kind, _short(info), line + 1)

    for n, found in enumerate(out.entries):
        chain = list(out.parents[n])
        for e in found:
            path = path_of(chain)
            chain.append(e)
            if e.key is None:
                rest = out.lines[n][e.col + 1:].strip()
                if rest.startswith("{"):
                    m = _FLOW_ID.search(rest)
                    if m and len(path) == 1:
                        kind = _ITEM_KINDS.get(str(path[0]))
                        if kind:
                            add(m.group(1), kind, n)
                continue
            key, value = e.key, unquote(e.value)
            if path == ["define"]:
                m = _DEF_KEY.match(key)
                if m:
                    params = m.group(2)
                    add(m.group(1), "definition",
                        n, f"definition({params})" if params else "definition",
                        f"= {value}" if value else "")
                    for param in (params or "").split(","):
                        if param.strip():
                            add(param.strip(), "local name", n, f"parameter of {m.group(1)}")
            elif len(path) == 2 and path[1] is ITEM and key == "id":
                kind = _ITEM_KINDS.get(str(path[0]))
                if kind:
                    add(value, kind, n)
            elif path == ["pieces", "attributes"]:
                attributes.setdefault(key, Declared(key, "attribute", "piece attribute",
                                                    "", n + 1))
            elif len(path) == 3 and path[:2] == ["pieces", "attributes"] and key == "values":
                for v in _flow_words(value):
                    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v):
                        add(v, "value", n, f"value of {path[2]}")
            elif path and path[-1] in ("let", "for"):  # `for:` of a decision's options
                add(key, "local name", n, "local name", f"= {value}" if value else "")
            elif key in ("let", "for") and value.startswith("{"):
                for m in re.finditer(r"([A-Za-z_]\w*)\s*:", value):
                    add(m.group(1), "local name", n, "local name")
            elif key in ("for_each", "as") and re.fullmatch(r"[A-Za-z_]\w*", value):
                add(value, "local name", n, "local name")
            elif key == "params":
                for v in _flow_words(value):
                    add(v, "local name", n, "parameter")
    return names, attributes


_ITEM_KINDS = {"zones": "zone", "variables": "variable", "options": "option",
               "procedures": "procedure"}


def extends_of(text: str) -> str | None:
    """The base a variant's text names (`extends: base-game`), as typed."""
    m = re.search(r"^extends\s*:\s*(\S[^#\n]*?)\s*(?:#.*)?$", text, re.MULTILINE)
    return unquote(m.group(1)) if m else None


__all__ = ["BasePart", "Declared", "Known", "extends_of", "known_from", "names_in_text",
           "with_base"]
