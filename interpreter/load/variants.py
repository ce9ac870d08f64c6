"""Variants: a ruleset file that `extends` another and changes parts of it by address.

A variant is merged into its base before anything else looks at it, on the located YAML
trees: every value keeps the position it was written at, in the variant or in the base,
so a mistake is reported where it was made. The merge rules, in the order they apply:

1. The base (a bundled game's name, or a path from the variant's folder) is loaded; it
   may itself be a variant.
2. `game`: the variant's fields replace the base's (a new `name` and `title` are required).
3. The edits, in the order the variant writes its keys, each naming parts by the
   addresses of interpreter.load.parts as the edits before it left the tree:
   `replace: {ADDRESS: YAML}`, `remove: [ADDRESS, ...]`, `insert: [{before|after|into:
   ADDRESS, items: [...]}]`, `change: {ADDRESS: {field: value}}` (`change: {PART: {id:
   fields}}` is short for `PART.id`). The older forms by id stay: `remove: {PART: [id]}`,
   `add: {PART: [item]}` and `effects: [...]` (edits of effects with an `id:`). A whole
   block of named items replaced by only some of its items was the older `replace`'s
   meaning, and is an error that says the address form.
4. `first_seat`, `rank`, `scores`, `most_decisions`, `budgets`, `rulebook` and
   `computer_players`, when
   given, replace the base's (for `budgets`, field by field).

Every edit is kept as a Change (for messages, and for the rulebook's page of the
variant's differences). Everything a variant does not mention is its base's, so a
variant follows its base when the base changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.errors import Diagnostic, Location, RulesetError, did_you_mean
from interpreter.invoked import runnable
from interpreter.load.parts import (
    CHOICE,
    NAMED,
    SECTIONS,
    STEP,
    STEP_BLOCKS,
    Addresses,
    Part,
)
from interpreter.load.yaml_source import LocatedDict, LocatedList, LocatedStr, Source

PARTS: dict[str, tuple[str, ...]] = {
    "options": ("options",),
    "attributes": ("pieces", "attributes"),
    "sets": ("pieces", "sets"),
    "zones": ("zones",),
    "variables": ("variables",),
    "define": ("define",),
    "procedures": ("procedures",),
    "triggers": ("triggers",),
    "end": ("end",),
    "rulings": ("rulings",),
}
"""The parts made of named items, and where each lies in a ruleset."""

KEYED = {"attributes", "define"}
"""Parts written as mappings (the key is the id); the others are lists of `id:` items."""

WHOLE = ("first_seat", "rank", "scores", "most_decisions", "rulebook", "computer_players")
"""Top-level keys a variant replaces whole."""

VARIANT_KEYS = ("tabletop", "extends", "game", "replace", "remove", "insert", "change",
                "add", "effects", "budgets", *WHOLE)

EDITS = ("replace", "remove", "insert", "change", "add", "effects")
"""The keys that edit the base's parts, applied in the order the variant writes them."""

MAX_CHAIN = 8
"""How many variants may stand on each other (a variant of a variant of ...)."""


@dataclass
class Change:
    """One change a variant makes, for messages and for the rulebook's list of them."""

    kind: str
    """remove, replace, add, change, effect-replace, effect-remove, effect-before,
    effect-after, game, or a whole top-level key (rank, scores, ...)."""
    part: str
    id: str
    loc: Location | None
    old: Any = None
    """The base's item (a located tree), when there was one."""
    new: Any = None
    address: str | None = None
    """The address the variant named (a change by address); None for the older forms."""
    what: str = ""
    """What the address names (step, option of a decision, steps, section …)."""


@dataclass
class VariantInfo:
    """What a variant is made of: its base, and every change it makes to it."""

    base_name: str
    base_path: str
    base_title: str
    changes: list[Change] = field(default_factory=list)
    base_tree: Any = None
    """The base's merged tree (before this variant's changes)."""
    extends_loc: Location | None = None
    """Where the variant names its base (a run-time error in the base's rules points here
    too, so the designer sees which file's changes led to it)."""


def _same_file(path: str) -> str:
    """A path as the file it names (so `./v.yaml` and `v.yaml` are one file)."""
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return path


def is_variant(tree: Any) -> bool:
    return isinstance(tree, dict) and "extends" in tree


def merge_variant(tree: Any, source: Source, path: str,
                  read: Any, depth: int = 0,
                  chain: tuple[tuple[str, Source, Location | None], ...] = ()
                  ) -> tuple[Any, VariantInfo]:
    """The ruleset tree a variant stands for, and what it changed.

    `read(ref, near)` loads a base by name or path: it returns (tree, source, path) of
    the base file as written (maybe a variant itself)."""
    problems: list[Diagnostic] = []

    def error(message: str, loc: Location | None, hint: str | None = None,
              expected: str | None = None) -> None:
        problems.append(source.diagnostic(message, loc, expected, hint))

    for key in tree:
        if key not in VARIANT_KEYS:
            error(f"a variant has no key '{key}'", tree.key_locs.get(key),
                  did_you_mean(str(key), VARIANT_KEYS), "one of: " + ", ".join(VARIANT_KEYS))
    ref = tree["extends"]
    if not isinstance(ref, str) or not ref.strip():
        raise RulesetError([source.diagnostic(
            "extends names the base ruleset: a bundled game's name or a path",
            _loc(ref) or tree.key_locs.get("extends"))])
    if depth >= MAX_CHAIN:
        raise RulesetError([source.diagnostic(
            f"variants stand on each other more than {MAX_CHAIN} deep", _loc(ref))])
    try:
        base_tree, base_source, base_path = read(str(ref), Path(path).parent)
    except RulesetError as exc:
        raise RulesetError([source.diagnostic(
            f"the base '{ref}' does not load; its problems follow", _loc(ref)),
            *exc.diagnostics]) from None
    chain = (*chain, (_same_file(path), source, _loc(ref)))
    files = [file for file, _, _ in chain]
    if _same_file(base_path) in files:
        start = files.index(_same_file(base_path))
        names = [Path(file).name for file in files[start:]]
        _, first, where = chain[start]  # told where the circle starts: the file asked for
        raise RulesetError([first.diagnostic(
            f"'{names[0]}' extends itself" if len(names) == 1 else
            "the variants extend each other in a circle: "
            + " → ".join([*names, names[0]]), where)])
    if is_variant(base_tree):
        base_tree, _ = merge_variant(base_tree, base_source, base_path, read, depth + 1,
                                     chain)
    for p, other in base_source.others.items():
        source.others.setdefault(p, other)
    source.others.setdefault(base_path, base_source)
    if not isinstance(base_tree, dict):
        raise RulesetError([source.diagnostic(f"the base '{ref}' is not a ruleset", _loc(ref))])
    game = base_tree.get("game")
    info = VariantInfo(
        base_name=str(game.get("name", ref)) if isinstance(game, dict) else str(ref),
        base_path=base_path,
        base_title=str(game.get("title", ref)) if isinstance(game, dict) else str(ref),
        base_tree=base_tree, extends_loc=_loc(ref) or tree.key_locs.get("extends"))
    merged = _deep_copy(base_tree)
    _merge_game(tree, merged, info, error)
    edits = AddressEdits(merged, info, error, str(ref))
    for kind in [k for k in tree if k in EDITS]:
        given, where = tree[kind], tree.key_locs.get(kind)
        if kind == "effects":
            _merge_effects(given, where, merged, info, error)
        elif kind == "add" or (kind == "remove" and isinstance(given, dict)):
            _merge_parts(kind, given, where, merged, info, error)
        else:
            edits.apply(kind, given, where)
        edits.forget()
    for key in WHOLE:
        if key in tree:
            old = merged.get(key)
            _put(merged, key, tree[key], tree.key_locs.get(key))
            info.changes.append(Change(key, key, key, tree.key_locs.get(key), old, tree[key]))
    if "budgets" in tree:
        _merge_budgets(tree["budgets"], tree.key_locs.get("budgets"), merged, info, error)
    if "tabletop" in tree:
        _put(merged, "tabletop", tree["tabletop"], tree.key_locs.get("tabletop"))
    if problems:
        raise RulesetError(problems)
    return merged, info


# -- the parts ---------------------------------------------------------------------------

def _merge_game(tree: Any, merged: Any, info: VariantInfo, error: Any) -> None:
    game = tree.get("game")
    where = tree.key_locs.get("game") if "game" in tree else tree.loc
    if not isinstance(game, dict):
        error("a variant needs its own `game: {name: ..., title: ...}`", where)
        return
    for key in ("name", "title"):
        if key not in game:
            error(f"a variant needs a new game {key} (`game: {{{key}: ...}}`)", _loc(game))
    base_game = merged.get("game")
    if not isinstance(base_game, LocatedDict):
        return
    new = _copy_dict(base_game)
    for key, value in game.items():
        new[key] = value
        new.key_locs[key] = game.key_locs.get(key, _loc(game))
    merged["game"] = new
    info.changes.append(Change("game", "game", "game", where, base_game, game))


def _container(merged: Any, part: str) -> Any:
    node = merged
    for step in PARTS[part]:
        if not isinstance(node, dict):
            return None
        if step not in node:
            empty: Any = LocatedDict() if part in KEYED else LocatedList()
            empty.loc, empty.key_locs, empty.item_locs = node.loc, {}, []
            _put(node, step, empty, node.loc)
        node = node[step]
    return node


def _ids(container: Any, part: str) -> list[str]:
    if isinstance(container, dict):
        return [_def_id(k) if part == "define" else str(k) for k in container]
    if isinstance(container, list):
        return [str(item.get("id")) for item in container
                if isinstance(item, dict) and "id" in item]
    return []


def _def_id(key: Any) -> str:
    """A definition's id is its name, without the parameter list."""
    return str(key).split("(", 1)[0].strip()


def _index(container: Any, part: str) -> dict[str, Any]:
    """Each item's id → its key (mapping parts) or index (list parts); the first wins, as
    `_find` finds it."""
    out: dict[str, Any] = {}
    if isinstance(container, dict):
        for key in container:
            out.setdefault(_def_id(key) if part == "define" else str(key), key)
    else:
        for i, item in enumerate(container):
            if isinstance(item, dict) and "id" in item:
                out.setdefault(str(item.get("id")), i)
    return out


def _find(container: Any, part: str, wanted: str) -> Any:
    """The key (mapping parts) or index (list parts) of the item with that id."""
    if isinstance(container, dict):
        for key in container:
            if (_def_id(key) if part == "define" else str(key)) == wanted:
                return key
        return None
    for i, item in enumerate(container):
        if isinstance(item, dict) and str(item.get("id")) == wanted:
            return i
    return None


def _merge_parts(kind: str, given: Any, where: Location | None, merged: Any,
                 info: VariantInfo, error: Any) -> None:
    if not isinstance(given, dict):
        error(f"`{kind}` takes a mapping of parts, e.g. `{kind}: {{rulings: [...]}}`", where)
        return
    for part, items in given.items():
        part_loc = given.key_locs.get(part, where)
        if part not in PARTS:
            error(f"`{kind}` cannot work on '{part}'", part_loc,
                  did_you_mean(str(part), PARTS), "one of: " + ", ".join(PARTS))
            continue
        container = _container(merged, part)
        if container is None:
            continue
        if kind == "remove":
            _remove(part, items, part_loc, container, info, error)
        elif kind == "change":
            _change(part, items, part_loc, container, info, error)
        else:
            _replace_or_add(kind, part, items, part_loc, container, info, error)


def _entries(part: str, items: Any, loc: Location | None, error: Any, kind: str
             ) -> list[tuple[str, Any, Any, Location | None]]:
    """(id, key, item, where) for each item a variant gives for a part."""
    out = []
    if part in KEYED:
        if not isinstance(items, dict):
            error(f"`{kind}: {{{part}: ...}}` takes a mapping, as `{part}` does in a ruleset",
                  loc)
            return []
        for key, item in items.items():
            ident = _def_id(key) if part == "define" else str(key)
            out.append((ident, key, item, items.key_locs.get(key, loc)))
        return out
    if not isinstance(items, list):
        error(f"`{kind}: {{{part}: ...}}` takes a list of items with ids", loc)
        return []
    for i, item in enumerate(items):
        here = items.item_locs[i] if i < len(items.item_locs) else loc
        if not isinstance(item, dict) or "id" not in item:
            error(f"each item of `{kind}: {{{part}: ...}}` needs an `id`", here)
            continue
        out.append((str(item["id"]), None, item, here))
    return out


def _replace_or_add(kind: str, part: str, items: Any, loc: Location | None, container: Any,
                    info: VariantInfo, error: Any) -> None:
    known = _ids(container, part)
    index = _index(container, part)  # one lookup per item: a variant may add thousands
    for ident, key, item, here in _entries(part, items, loc, error, kind):
        found = index.get(ident)
        if kind == "replace" and found is None:
            error(f"`replace`: the base has no {_noun(part)} '{ident}'", here,
                  did_you_mean(ident, known), _known(known))
            continue
        if kind == "add" and found is not None:
            error(f"`add`: the base already has a {_noun(part)} '{ident}' (use `replace` or "
                  "`change`)", here)
            continue
        old = None if found is None else container[found]
        if isinstance(container, dict):
            if found is not None and found != key:
                del container[found]
            container[key] = item
            container.key_locs[key] = here
            index[ident] = key
        elif found is None:
            index[ident] = len(container)
            container.append(item)
            container.item_locs.append(here)
        else:
            container[found] = item
            container.item_locs[found] = here
        info.changes.append(Change(kind, part, ident, here, old, item))


def _remove(part: str, items: Any, loc: Location | None, container: Any, info: VariantInfo,
            error: Any) -> None:
    if not isinstance(items, list):
        error(f"`remove: {{{part}: ...}}` takes a list of ids", loc)
        return
    known = _ids(container, part)
    for i, ident in enumerate(items):
        here = items.item_locs[i] if i < len(items.item_locs) else loc
        ident = _def_id(ident) if part == "define" else ident
        found = _find(container, part, str(ident))
        if found is None:
            error(f"`remove`: the base has no {_noun(part)} '{ident}'", here,
                  did_you_mean(str(ident), known), _known(known))
            continue
        old = container[found]
        if isinstance(container, dict):
            del container[found]
            container.key_locs.pop(found, None)
        else:
            del container[found]
            del container.item_locs[found]
        info.changes.append(Change("remove", part, str(ident), here, old, None))


def _change(part: str, items: Any, loc: Location | None, container: Any, info: VariantInfo,
            error: Any) -> None:
    if not isinstance(items, dict):
        error(f"`change: {{{part}: ...}}` takes a mapping: id → the fields to change", loc)
        return
    known = _ids(container, part)
    for key, fields in items.items():
        here = items.key_locs.get(key, loc)
        ident = _def_id(key) if part == "define" else key
        found = _find(container, part, str(ident))
        if found is None:
            error(f"`change`: the base has no {_noun(part)} '{ident}'", here,
                  did_you_mean(str(ident), known), _known(known))
            continue
        old = container[found]
        if not isinstance(fields, dict) or not isinstance(old, dict):
            error(f"`change: {{{part}: {{{ident}: ...}}}}` takes the fields to change, e.g. "
                  "`{default: false}`", here)
            continue
        new = _copy_dict(old)
        for key, value in fields.items():
            new[key] = value
            new.key_locs[key] = fields.key_locs.get(key, here)
        new.loc = old.loc
        container[found] = new
        info.changes.append(Change("change", part, str(ident), here, old, fields))


def _merge_budgets(given: Any, where: Location | None, merged: Any, info: VariantInfo,
                   error: Any) -> None:
    if not isinstance(given, dict):
        error("`budgets` takes a mapping of budgets, e.g. `{steps_per_decision: 2000000}`",
              where)
        return
    old = merged.get("budgets")
    new = _copy_dict(old) if isinstance(old, LocatedDict) else _empty_dict(where)
    for key, value in given.items():
        new[key] = value
        new.key_locs[key] = given.key_locs.get(key, where)
    _put(merged, "budgets", new, where)
    info.changes.append(Change("budgets", "budgets", "budgets", where, old, given))


# -- changes by address --------------------------------------------------------------------

WHOLE_SECTIONS = ("first_seat", "rank", "scores", "most_decisions", "budgets", "rulebook",
                  "computer_players")
"""Top-level blocks the rulebook's variant page says as one thing (a ranking, a score)."""


class AddressEdits:
    """`replace`, `remove`, `insert` and `change` by address (interpreter.load.parts), on
    the merged tree; the addresses are found again after each edit, so a later edit
    names the parts as the earlier ones left them."""

    def __init__(self, merged: Any, info: VariantInfo, error: Any, base: str) -> None:
        self.merged = merged
        self.info = info
        self.error = error
        self.base = base
        self._addresses: Addresses | None = None

    def forget(self) -> None:
        self._addresses = None

    @property
    def addresses(self) -> Addresses:
        if self._addresses is None:
            self._addresses = Addresses(self.merged)
        return self._addresses

    def apply(self, verb: str, given: Any, where: Location | None) -> None:
        if verb == "remove":
            if not isinstance(given, list):
                self.error("`remove` takes a list of addresses, e.g. `remove: [rulings.win]`",
                           where)
                return
            for i, address in enumerate(given):
                self.remove(address, _item_loc(given, i, where))
            return
        if verb == "insert":
            items = given if isinstance(given, list) else [given]
            for i, edit in enumerate(items):
                self.insert(edit, _item_loc(items, i, where) if items is given else where)
            return
        if not isinstance(given, dict):
            self.error(f"`{verb}` takes a mapping: address → "
                       + ("its new YAML" if verb == "replace" else "the fields to change"),
                       where)
            return
        for key, value in given.items():
            here = given.key_locs.get(key, where)
            if verb == "change" and key in PARTS:
                # `change: {options: {power_play: {...}}}`: each named item's fields
                _change(str(key), value, here, _container(self.merged, str(key)),
                        self.info, self.error)
            elif verb == "change":
                self.change(key, value, here)
            else:
                self.replace(key, value, here)
            self.forget()

    # -- finding ---------------------------------------------------------------------------

    def find(self, address: Any, here: Location | None, verb: str) -> Part | None:
        if not isinstance(address, str) or not address:
            self.error(f"`{verb}` names a part by its address (text), not {address!r}", here)
            return None
        part = self.addresses.find(address)
        if part is None:
            self.error(f"`{verb}`: the base has no part '{address}'", _loc(address) or here,
                       did_you_mean(address, self.addresses.names()),
                       f"an address as `{runnable('parts', self.base)}` lists it")
        return part

    # -- the four edits ---------------------------------------------------------------------

    def replace(self, address: Any, value: Any, here: Location | None) -> None:
        part = self.find(address, here, "replace")
        if part is None or not self._keeps_all(part, value, here):
            return
        old = part.node
        new = _deep_copy(value)
        if part.kind == STEP and isinstance(new, LocatedList):
            _splice(part.parent, part.key, 1, new)
        else:
            _set(part.parent, part.key, new, here)
        self.record("replace", part, old, new, here)

    def remove(self, address: Any, here: Location | None) -> None:
        part = self.find(address, here, "remove")
        if part is None:
            return
        old = part.node
        if part.in_list:
            _splice(part.parent, part.key, 1, [])
        else:
            del part.parent[part.key]
            part.parent.key_locs.pop(part.key, None)
        self.record("remove", part, old, None, here)

    def change(self, address: Any, fields: Any, here: Location | None) -> None:
        part = self.find(address, here, "change")
        if part is None:
            return
        old = part.node
        if not isinstance(fields, dict) or not isinstance(old, dict):
            self.error(f"`change: {{{address}: ...}}` takes the fields to change, e.g. "
                       "`{default: false}`" if isinstance(old, dict) else
                       f"'{address}' has no fields to change: use `replace: {{{address}: "
                       "...}`", here)
            return
        new = _copy_dict(old)
        for key, value in fields.items():
            new[key] = _deep_copy(value)
            new.key_locs[key] = fields.key_locs.get(key, here)
        _set(part.parent, part.key, new, None)
        self.record("change", part, old, fields, here)

    def insert(self, edit: Any, here: Location | None) -> None:
        verbs = [k for k in ("before", "after", "into") if isinstance(edit, dict) and k in edit]
        if len(verbs) != 1 or "items" not in edit or len(edit) != 2:
            self.error("an insert is one of {before: ADDRESS, items: [...]}, {after: ADDRESS, "
                       "items: [...]}, {into: ADDRESS, items: [...]}", _loc(edit) or here)
            return
        verb = verbs[0]
        address, items = edit[verb], edit["items"]
        where = edit.key_locs.get(verb, here)
        if verb == "into" and isinstance(address, str) and address in SECTIONS and \
                self.addresses.find(address) is None:
            if address in PARTS:  # a base without triggers, say: start them
                _container(self.merged, address)
            else:
                _put(self.merged, address, _empty_list(where), where)
            self.forget()
        elif verb == "into" and isinstance(address, str):
            self._start_block(address, where)
        part = self.find(address, where, "insert")
        if part is None:
            return
        if verb == "into":
            holder = part.node
            if isinstance(holder, dict) and not (part.kind == "section"
                                                 and part.section in PARTS):
                holder = None
        else:
            holder = part.parent
            if isinstance(holder, dict) and part.kind not in NAMED.values():
                holder = None
        if isinstance(holder, list):
            if not isinstance(items, LocatedList):
                self.error(f"`items` is a list of what goes into '{address}'",
                           edit.key_locs.get("items", where))
                return
            at = len(holder) if verb == "into" else part.key + (verb == "after")
            _splice(holder, at, 0, _deep_copy(items))
        elif isinstance(holder, dict):
            if not isinstance(items, LocatedDict):
                self.error(f"`items` is a mapping of what goes into '{address}' (name → "
                           "item, as in a ruleset)", edit.key_locs.get("items", where))
                return
            _insert_keys(holder, None if verb == "into" else part.key, verb == "before",
                         _deep_copy(items))
        else:
            self.error(f"'{address}' is not a list: nothing can go into it" if verb == "into"
                       else f"'{address}' is not in a list: nothing can go {verb} it", where)
            return
        self.record_insert(verb, part, items, here)

    def _start_block(self, address: str, where: Location | None) -> None:
        """`into: turn.1.else` of an `if` written without `else`: the block starts empty."""
        if self.addresses.find(address) is not None or "." not in address:
            return
        owner, key = address.rsplit(".", 1)
        part = self.addresses.find(owner)
        if key in STEP_BLOCKS and part is not None and part.kind in (STEP, CHOICE) and \
                isinstance(part.node, LocatedDict):
            _put(part.node, key, _empty_list(where), where)
            self.forget()

    # -- what changed, for messages and the variant's page ---------------------------------

    def _keeps_all(self, part: Part, value: Any, here: Location | None) -> bool:
        """`replace: {sets: [rainbow, xeno]}` of a base with four sets was, before addresses,
        a replacement of two of them: now it would drop the others, so say so."""
        if part.kind != "section" or part.section not in PARTS:
            return True
        old, new = _item_ids(part.section, part.node), _item_ids(part.section, value)
        left_out = [i for i in old if i not in new]
        if not new or not left_out or any(i not in old for i in new):
            return True
        each = ", ".join(f"{part.address}.{i}: ..." for i in new)
        self.error(f"`replace: {{{part.address}: ...}}` replaces the whole {part.address}, "
                   f"and this leaves out the base's " + ", ".join(left_out), here,
                   f"to replace only some, write `replace: {{{each}}}`; to drop the others, "
                   f"`remove: [{part.address}.{left_out[0]}, ...]`")
        return False

    def record(self, verb: str, part: Part, old: Any, new: Any, here: Location | None) -> None:
        changes = self.info.changes
        if part.kind in NAMED.values():
            ident = part.address.split(".", 1)[1]
            changes.append(Change(verb, part.section, ident, here, old, new, part.address,
                                  part.kind))
        elif part.section in WHOLE_SECTIONS:
            changes.append(Change(part.section, part.section, part.section, here, old, new,
                                  part.address, part.kind))
        elif part.kind == "section" and part.section in PARTS and verb != "change":
            self._record_items(verb, part, old, new, here)
        elif part.kind == STEP:
            steps = new if isinstance(new, list) or new is None else [new]
            if verb == "change":
                steps = [part.node]
            changes.append(Change("effect-remove" if verb == "remove" else "effect-replace",
                                  "effects", part.address, here, old, steps, part.address,
                                  part.kind))
        else:
            changes.append(Change(f"part-{verb}", part.section, part.address, here, old,
                                  new, part.address, part.kind))

    def _record_items(self, verb: str, part: Part, old: Any, new: Any,
                      here: Location | None) -> None:
        was = _items_by_id(part.section, old)
        now = _items_by_id(part.section, new)
        for ident, item in was.items():
            if ident not in now:
                self.info.changes.append(Change("remove", part.section, ident, here, item,
                                                None, part.address, NAMED[part.section]))
        for ident, item in now.items():
            kind = "replace" if ident in was else "add"
            self.info.changes.append(Change(kind, part.section, ident, here,
                                            was.get(ident), item, part.address,
                                            NAMED[part.section]))

    def record_insert(self, verb: str, part: Part, items: Any, here: Location | None) -> None:
        inside = part if verb == "into" else None
        section = part.section
        named = (inside is not None and inside.kind == "section" and section in PARTS) or (
            inside is None and part.kind in NAMED.values())
        if named:
            for ident, item in _items_by_id(section, items).items():
                self.info.changes.append(Change("add", section, ident, here, None, item,
                                                part.address, NAMED[section]))
        elif part.kind == STEP:
            self.info.changes.append(Change(f"effect-{verb}", "effects", part.address, here,
                                            part.node, items, part.address, STEP))
        else:
            self.info.changes.append(Change("part-insert", section, part.address, here,
                                            None, items, part.address, part.kind))


def _item_ids(part: str, items: Any) -> list[str]:
    return list(_items_by_id(part, items))


def _items_by_id(part: str, items: Any) -> dict[str, Any]:
    if isinstance(items, dict):
        return {(_def_id(k) if part == "define" else str(k)): v for k, v in items.items()}
    if isinstance(items, list):
        return {str(x["id"]): x for x in items if isinstance(x, dict) and "id" in x}
    return {}


def _item_loc(items: Any, i: int, where: Location | None) -> Location | None:
    locs = getattr(items, "item_locs", None) or []
    return _loc(items[i]) or (locs[i] if i < len(locs) else where)


def _set(parent: Any, key: Any, value: Any, here: Location | None) -> None:
    parent[key] = value
    if here is None:
        return
    if isinstance(parent, LocatedList):
        parent.item_locs[key] = here
    elif isinstance(parent, LocatedDict):
        parent.key_locs[key] = here


def _splice(block: Any, at: int, length: int, items: Any) -> None:
    block[at:at + length] = list(items)
    locs = list(getattr(items, "item_locs", None) or [_loc(x) for x in items])
    block.item_locs[at:at + length] = locs


def _insert_keys(holder: LocatedDict, anchor: Any, before: bool, items: LocatedDict) -> None:
    """Put a mapping's new keys next to `anchor` (at the end when it is None)."""
    entries = list(holder.items())
    at = len(entries) if anchor is None else \
        [k for k, _ in entries].index(anchor) + (0 if before else 1)
    entries[at:at] = [(k, v) for k, v in items.items() if k not in holder]
    replaced = {k: v for k, v in items.items() if k in holder}
    holder.clear()
    for k, v in entries:
        holder[k] = replaced.get(k, v)
    for k in items:
        holder.key_locs[k] = items.key_locs.get(k, items.loc)


def _empty_list(loc: Location | None) -> LocatedList:
    empty = LocatedList()
    empty.loc, empty.item_locs = loc, []
    return empty


# -- effects -----------------------------------------------------------------------------

EFFECT_EDITS = {"replace": "with", "remove": None, "before": "insert", "after": "insert"}


def _effect_blocks(node: Any, primitives: frozenset[str]) -> list[LocatedList]:
    """Every list of effects in a ruleset tree, wherever it stands."""
    out: list[LocatedList] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, LocatedList):
            if any(_is_effect(x, primitives) for x in n):
                out.append(n)
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
    return out


def _is_effect(node: Any, primitives: frozenset[str]) -> bool:
    """An effect names a primitive among its keys (an option of a decision may have a
    `let` too, but it always has a `notation`)."""
    return (isinstance(node, dict) and "notation" not in node
            and any(k in primitives for k in node))


def effect_ids(tree: Any) -> list[str]:
    """The ids of every effect in a ruleset tree."""
    from interpreter.primitives import PRIMITIVES

    names = frozenset(PRIMITIVES)
    return [str(e["id"]) for block in _effect_blocks(tree, names) for e in block
            if _is_effect(e, names) and "id" in e]


def _find_effect(blocks: list[LocatedList], ident: str, names: frozenset[str]
                 ) -> tuple[LocatedList, int] | None:
    """The list holding the effect with this id, and its index there."""
    for block in blocks:
        for j, e in enumerate(block):
            if _is_effect(e, names) and str(e.get("id")) == ident:
                return block, j
    return None


def _merge_effects(edits: Any, where: Location | None, merged: Any, info: VariantInfo,
                   error: Any) -> None:
    from interpreter.primitives import PRIMITIVES

    names = frozenset(PRIMITIVES)
    if not isinstance(edits, list):
        error("`effects` takes a list of edits: {replace: ID, with: [...]}, {remove: ID}, "
              "{before: ID, insert: [...]}, {after: ID, insert: [...]}", where)
        return
    blocks: list[LocatedList] | None = None
    """The tree's lists of effects, found again only after an edit changed the tree (a
    variant of thousands of edits that miss walks the tree once, not once each)."""
    for i, edit in enumerate(edits):
        here = edits.item_locs[i] if i < len(edits.item_locs) else where
        verbs = [k for k in EFFECT_EDITS if isinstance(edit, dict) and k in edit]
        if len(verbs) != 1:
            error("an effect edit is one of {replace: ID, with: [...]}, {remove: ID}, "
                  "{before: ID, insert: [...]}, {after: ID, insert: [...]}", here)
            continue
        verb = verbs[0]
        ident = str(edit[verb])
        extra = EFFECT_EDITS[verb]
        allowed = {verb, extra} if extra else {verb}
        for key in edit:
            if key not in allowed:
                error(f"`{verb}` takes {' and '.join(sorted(allowed))}, not '{key}'",
                      edit.key_locs.get(key, here))
        new: Any = []
        if extra is not None:
            new = edit.get(extra)
            if not isinstance(new, LocatedList):
                error(f"`{verb}: {ident}` needs `{extra}:` with a list of effects", here)
                continue
        if blocks is None:  # the tree changed since they were found
            blocks = _effect_blocks(merged, names)
        hit = _find_effect(blocks, ident, names)
        if hit is None:
            known = [str(e["id"]) for b in blocks for e in b
                     if _is_effect(e, names) and "id" in e]
            error(f"`{verb}`: no effect of the base has the id '{ident}'",
                  _loc(edit[verb]) or here, did_you_mean(ident, known), _known(known))
            continue
        block, j = hit
        blocks = None
        old = block[j]
        locs = new.item_locs if isinstance(new, LocatedList) else []
        if verb == "replace":
            block[j:j + 1] = list(new)
            block.item_locs[j:j + 1] = locs
        elif verb == "remove":
            del block[j]
            del block.item_locs[j]
        elif verb == "before":
            block[j:j] = list(new)
            block.item_locs[j:j] = locs
        else:
            block[j + 1:j + 1] = list(new)
            block.item_locs[j + 1:j + 1] = locs
        info.changes.append(Change(f"effect-{verb}", "effects", ident, here, old, new or None))


# -- located trees -----------------------------------------------------------------------

def _loc(node: Any) -> Location | None:
    return getattr(node, "loc", None)


def _noun(part: str) -> str:
    return {"options": "option", "attributes": "attribute", "sets": "piece set",
            "zones": "zone", "variables": "variable", "define": "definition",
            "procedures": "procedure", "triggers": "trigger", "end": "end rule",
            "rulings": "ruling"}[part]


def _known(ids: list[str]) -> str | None:
    return "one of: " + ", ".join(ids) if ids else None


def _empty_dict(loc: Location | None) -> LocatedDict:
    d = LocatedDict()
    d.loc, d.key_locs = loc, {}
    return d


def _copy_dict(d: LocatedDict) -> LocatedDict:
    new = LocatedDict(d)
    new.loc, new.key_locs = d.loc, dict(d.key_locs)
    return new


def _put(d: Any, key: str, value: Any, loc: Location | None) -> None:
    d[key] = value
    d.key_locs[key] = loc


def _deep_copy(node: Any) -> Any:
    """A copy of a located tree's lists and mappings (the texts are shared: they are
    never changed), so the merge can edit it and the base's tree stays as it was."""
    if isinstance(node, LocatedDict):
        new = LocatedDict((k, _deep_copy(v)) for k, v in node.items())
        new.loc, new.key_locs = node.loc, dict(node.key_locs)
        return new
    if isinstance(node, LocatedList):
        new_list = LocatedList(_deep_copy(v) for v in node)
        new_list.loc, new_list.item_locs = node.loc, list(node.item_locs)
        return new_list
    return node


__all__ = ["PARTS", "Change", "LocatedStr", "VariantInfo", "effect_ids", "is_variant",
           "merge_variant"]
