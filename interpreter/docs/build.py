"""Rulebooks generated from the rulesets: Markdown + SVG for mkdocs, print HTML, PDF.

``build_docs`` computes every file (relative path → content) without touching the
disk; ``write_docs`` writes them, or with ``check`` compares them with what is there.
The output depends only on the rulesets and the templates, so building twice gives
byte-identical files (the committed ``generated_docs/`` is checked for freshness).

Templates are Jinja2 files; a designer's folder is searched first, then the package's
``interpreter/templates/``: ``index.md.j2`` (the list of games), ``game.md.j2`` (one
rulebook), ``variant.md.j2`` (a variant's page: only its differences from its base) and
``print.html.j2`` (the printable page around a rulebook's or a variant page's HTML).

The project's hand-written guides (``guides/*.md``: the Ray backend, the OpenSpiel and
PettingZoo adapters) are copied into ``guides/`` of the site as they are, and listed on
the index, so the site is the one place a reader looks.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from interpreter.docs.print_layout import MARGIN_MM, cover_picture, page_box, print_parts
from interpreter.docs.rulebook import Rulebook, build_rulebook
from interpreter.docs.text import Md, md, md_code
from interpreter.docs.variant_page import VariantPage, build_variant_page
from interpreter.errors import Diagnostic, Location, RulesetError, TabletopError, UsageError
from interpreter.load.catalog import TESTS_SUFFIX, rulesets_dir
from interpreter.load.loader import LoadedRuleset, load_ruleset

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
PRINT_DIR = "print"
GUIDES_DIR = "guides"
PROJECT_GUIDES = Path(__file__).resolve().parents[2] / GUIDES_DIR
"""The hand-written guides of a source checkout (absent from an installed package)."""
PAPER = {"a4": "A4", "letter": "letter"}


@dataclass
class DocsResult:
    """What write_docs did (or, with check, found)."""

    written: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def fresh(self) -> bool:
        return not (self.stale or self.missing or self.extra)


def environment(templates: Path | None = None) -> jinja2.Environment:
    """The templates' environment: sandboxed, and escaping every value it prints for the
    page it writes (see `_finalize`), so no template can forget to."""
    loaders: list[jinja2.BaseLoader] = []
    if templates is not None:
        loaders.append(jinja2.FileSystemLoader(str(templates)))
    loaders.append(jinja2.FileSystemLoader(str(PACKAGE_TEMPLATES)))
    env = SandboxedEnvironment(loader=jinja2.ChoiceLoader(loaders), autoescape=True,
                               keep_trailing_newline=True, trim_blocks=False,
                               lstrip_blocks=False, undefined=jinja2.StrictUndefined,
                               finalize=_finalize)
    env.filters["code"] = lambda text: Md(md_code(text))
    env.filters["css_string"] = css_string
    env.filters["yaml_string"] = yaml_string
    return env


@jinja2.pass_context
def _finalize(context: jinja2.runtime.Context, value: Any) -> Any:
    """Every `{{ value }}` escaped for its page. In a Markdown template (`*.md.j2`) the
    generator's own Markdown (`Md`) and the template's own markup (a macro's output,
    `| safe`) go in as they are; any other value is text, and is escaped as Markdown
    (HTML passed through would run in the rules site). In an HTML template Markdown is
    text too, and Jinja's autoescape makes it HTML."""
    if (context.name or "").endswith(".html.j2"):
        return str(value) if isinstance(value, Md) else value
    return md(value)


def yaml_string(text: Any) -> Md:
    """Text as the `title` of a page's front matter: HTML-escaped (mkdocs puts the title
    into its pages as HTML), in YAML's double quotes (so no `&`, `*`, `#` or `: ` in it
    is read as YAML)."""
    return Md(json.dumps(html.escape(" ".join(str(text).split())), ensure_ascii=False))


def css_string(text: Any) -> Markup:
    """Text as the inside of a CSS string (`content: "…"`): a quote, a backslash, `<`,
    `>`, `&` and control characters as CSS escapes, so nothing in it can end the string
    or the style sheet."""
    return Markup("".join(f"\\{ord(ch):x} " if ch in '"\\<>&' or not ch.isprintable()
                          else ch for ch in " ".join(str(text).split())))


TEMPLATE_NAMES: dict[str, frozenset[str]] = {
    "index.md.j2": frozenset({"books", "variants", "guides"}),
    "game.md.j2": frozenset({"book", "print_link", "variants"}),
    "examples.md.j2": frozenset({"book", "print_link", "variants"}),  # included by game
    "variant.md.j2": frozenset({"page", "print_link"}),
    "print.html.j2": frozenset({"book", "body", "cover", "sections", "contents", "picture",
                                "paged", "paper", "box", "margins"}),
}
"""The rulebook's templates and the names each is given."""


def check_templates(env: jinja2.Environment, templates: Path | None) -> None:
    """A designer's own templates read and checked before any rulebook is built (that
    takes seconds): a syntax error, bytes that are not UTF-8, or a name the template is
    never given (`{{ nosuch.title }}`) is a located error at once."""
    if templates is None:
        return
    for name, given in TEMPLATE_NAMES.items():
        path = templates / name
        if not path.is_file():
            continue
        template = _template_or_error(env, name)
        source = path.read_text(encoding="utf-8")
        try:
            tree = env.parse(source, name, str(path))
        except jinja2.TemplateSyntaxError as exc:  # (already reported by loading it)
            raise _template_error(f"template syntax: {exc.message}", str(path),
                                  exc.lineno) from None
        unknown = sorted(jinja2.meta.find_undeclared_variables(tree) - given
                         - set(env.globals))
        if unknown:
            first = unknown[0]
            line = next((i for i, text in enumerate(source.splitlines(), 1)
                         if re.search(rf"\b{re.escape(first)}\b", text)), None)
            raise _template_error(
                f"the template uses '{first}', which it is never given (it is given "
                + ", ".join(sorted(given)) + ")", template.filename or str(path), line)


def _template_or_error(env: jinja2.Environment, name: str) -> jinja2.Template:
    """A template loaded; a syntax error or bytes that are not UTF-8 are located errors."""
    try:
        return env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        raise _template_error(f"template syntax: {exc.message}", exc.filename or name,
                              exc.lineno) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise _template_error(f"the template is not UTF-8 text (byte "
                              f"0x{exc.object[exc.start]:02x})", _template_path(env, name),
                              line) from None


def render(env: jinja2.Environment, name: str, **context: Any) -> str:
    """A template rendered; a designer's broken template is a located error, not a crash.

    The environment is sandboxed: a template may read the rulebook's data, never reach
    into Python (`{{ book.__class__ }}` is refused)."""
    try:
        return env.get_template(name).render(**context)
    except jinja2.TemplateSyntaxError as exc:
        raise _template_error(f"template syntax: {exc.message}", exc.filename or name,
                              exc.lineno) from None
    except (jinja2.TemplateError, SecurityError) as exc:
        path, line = _template_line(exc, name)
        raise _template_error(f"in the template: {exc}", path, line) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise _template_error(f"the template is not UTF-8 text (byte "
                              f"0x{exc.object[exc.start]:02x})", _template_path(env, name),
                              line) from None
    except RecursionError:
        raise _template_error("the template nests or recurses too deeply", name,
                              None) from None


def _template_error(message: str, path: str, line: int | None) -> RulesetError:
    return RulesetError([Diagnostic(message, Location(path, line, 1) if line else None)])


def _template_path(env: jinja2.Environment, name: str) -> str:
    """The file a template name was read from: a designer's own folder comes first."""
    loader = env.loader
    for sub in getattr(loader, "loaders", [loader]):
        for folder in getattr(sub, "searchpath", []):
            path = Path(folder) / name
            if path.is_file():
                return str(path)
    return name


def _template_line(exc: BaseException, name: str) -> tuple[str, int | None]:
    """The template file and line an error came from (Jinja keeps template lines in the
    traceback it rewrites)."""
    where: tuple[str, int | None] = (name, None)
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return where


def ruleset_paths(folder: Path | None = None) -> list[Path]:
    folder = folder or rulesets_dir()
    return sorted(p for p in folder.glob("*.yaml") if not p.name.endswith(TESTS_SUFFIX))


def load_books(folder: Path | None = None) -> tuple[list[Rulebook], dict[str, str]]:
    """The rulebook of every game that loads (not the variants: they have pages of their
    own, see `load_all`); the others with their first problem."""
    books, _, skipped = load_all(folder)
    return books, skipped


def load_variant_pages(folder: Path | None = None) -> list[VariantPage]:
    """The page of every variant that loads (the others are skipped by load_books)."""
    _, pages, _ = load_all(folder)
    return pages


def load_all(folder: Path | None = None, paths: list[Path] | None = None
             ) -> tuple[list[Rulebook], list[VariantPage], dict[str, str]]:
    """Every ruleset's rulebook (a game) or page (a variant), each file loaded once; those
    that do not load or build, with their first problem. A variant's page links to its
    base's when the base has a page too, and lists the variants of the variant.

    With `paths` (files someone named), only those, and one that does not load or build
    raises its errors: a designer asked for that rulebook, so skipping it would hide why
    it is missing."""
    books: list[Rulebook] = []
    pages: list[VariantPage] = []
    skipped: dict[str, str] = {}
    loaded: dict[str, LoadedRuleset] = {}
    strict = paths is not None
    for path in paths if paths is not None else ruleset_paths(folder):
        key = str(path) if strict else path.name
        try:
            loaded[key] = load_ruleset(str(path))
        except TabletopError as exc:
            if strict:
                raise
            skipped[key] = _first_line(exc)
    by_path = {str(Path(r.path).resolve()): r for r in loaded.values()}
    for name, ruleset in loaded.items():
        try:
            info = ruleset.variant
            if info is None:
                books.append(build_rulebook(ruleset))
            else:
                base = by_path.get(str(Path(info.base_path).resolve()))
                page = build_variant_page(ruleset, base)
                page.base_link = f"../{page.base_name}/index.md" if base else None
                pages.append(page)
        except TabletopError as exc:
            if strict:
                raise
            skipped[name] = _first_line(exc)
    if strict:
        _one_file_per_game(loaded)
    names = {b.name for b in books} | {p.name for p in pages}
    for page in pages:
        if page.base_name not in names:  # the base is bundled but has no page
            page.base_link = None
        page.variants = [(v.name, v.title) for v in pages if v.base_name == page.name]
        page.variants.sort(key=lambda v: v[1].lower())
    books.sort(key=lambda b: b.title.lower())
    pages.sort(key=lambda p: p.title.lower())
    return books, pages, skipped


def _one_file_per_game(loaded: dict[str, LoadedRuleset]) -> None:
    """Two named rulesets of the same game name would write the same files."""
    seen: dict[str, str] = {}
    for path, ruleset in loaded.items():
        name = ruleset.model.game.name
        if name in seen:
            raise UsageError(f"{seen[name]} and {path} are both the game '{name}' (its "
                             "`game: name:`); their rulebooks would overwrite each other")
        seen[name] = path


def _first_line(exc: TabletopError) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    if isinstance(exc, RulesetError) and exc.diagnostics and exc.diagnostics[0].hint:
        line += f"; {exc.diagnostics[0].hint}"  # a did-you-mean belongs with its error
    return line


def _tidy(text: str) -> str:
    """No trailing spaces, no runs of blank lines, one final newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    out: list[str] = []
    for line in lines:
        if not line and out and not out[-1]:
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def render_game(env: jinja2.Environment, book: Rulebook, print_link: str | None,
                variants: list[VariantPage] | None = None) -> str:
    return _tidy(render(env, "game.md.j2", book=book, print_link=print_link,
                        variants=variants or []))


def render_variant(env: jinja2.Environment, page: VariantPage, print_link: str | None
                   ) -> str:
    return _tidy(render(env, "variant.md.j2", page=page, print_link=print_link))


def print_html(env: jinja2.Environment, book: Rulebook, paper: str = "A4") -> str:
    """A standalone, print-ready page: no navigation, SVGs inline, a cover with the
    contents, then the sections running on from page to page."""
    text = render_game(env, book, print_link=None)
    return _print_page(env, book, text, {d.file: d.svg for d in book.diagrams}, paper,
                       paged=True)


def print_variant_html(env: jinja2.Environment, page: VariantPage, paper: str = "A4") -> str:
    """A variant's page to print: the same short page, its links to the other printable
    pages (a base printed beside it)."""
    text = render_variant(env, page, print_link=None)
    text = re.sub(r"\]\(\.\./([a-z0-9-]+)/index\.md\)", r"](\1.html)", text)
    return _print_page(env, page, text, {}, paper, paged=False)


def _print_page(env: jinja2.Environment, book: Rulebook | VariantPage, text: str,
                svgs: dict[str, str], paper: str, paged: bool) -> str:
    """The print template around a page's HTML: with `paged`, a cover (the title block,
    the set-up picture and the contents) before sections that run on from page to page."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    picture = None
    if paged and isinstance(book, Rulebook):
        picture = cover_picture(svgs, book.setup_diagram.file, book.legend.file)
    parts = print_parts(text, svgs, picture=picture, box=page_box(paper))
    # The HTML Markdown made of the escaped page goes in as it is; the rest is escaped.
    page = render(env, "print.html.j2", book=book,
                  body=Markup(parts.cover + "\n" + parts.body), cover=Markup(parts.cover),
                  sections=Markup(parts.body), contents=parts.contents,
                  picture=Markup(parts.picture) if parts.picture else None, paged=paged,
                  paper=paper, box=page_box(paper), margins=MARGIN_MM)
    return _tidy(page)


def build_docs(out_dir: Path = Path("generated_docs"), templates: Path | None = None,
               rulesets: Path | None = None) -> dict[str, str]:
    """Every generated file, as relative path → content (nothing is written)."""
    files, _ = _build(templates, rulesets)
    return files


@dataclass
class Guide:
    """A hand-written page of the site: its title (its first heading) and file."""

    title: str
    file: str


def read_guides(folder: Path = PROJECT_GUIDES) -> list[tuple[Guide, str]]:
    """The guides in `folder` with their text, by file name (none when it is absent)."""
    out = []
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        heading = re.search(r"^# (.+)$", text, flags=re.M)
        title = heading.group(1).strip() if heading else path.stem
        out.append((Guide(title, f"{GUIDES_DIR}/{path.name}"), text))
    return out


def _build(templates: Path | None, rulesets: Path | None, paths: list[Path] | None = None,
           paper: str = "A4") -> tuple[dict[str, str], dict[str, str]]:
    """The files of the bundled site, or with `paths` of those rulesets' rulebooks alone
    (the project's guides belong to its own site only)."""
    env = environment(templates)
    check_templates(env, templates)
    books, variants, skipped = load_all(rulesets, paths)
    guides = read_guides() if paths is None else []
    files: dict[str, str] = {guide.file: text for guide, text in guides}
    files["index.md"] = _tidy(render(env, "index.md.j2", books=books, variants=variants,
                                     guides=[guide for guide, _ in guides]))
    for page in variants:
        files[f"{page.name}/index.md"] = render_variant(
            env, page, print_link=f"../{PRINT_DIR}/{page.name}.html")
        files[f"{PRINT_DIR}/{page.name}.html"] = print_variant_html(env, page, paper=paper)
    for book in books:
        files[f"{book.name}/index.md"] = render_game(
            env, book, print_link=f"../{PRINT_DIR}/{book.name}.html",
            variants=[v for v in variants if v.base_name == book.name and v.base_link])
        for d in book.diagrams:
            files[f"{book.name}/{d.file}"] = d.svg
        files[f"{PRINT_DIR}/{book.name}.html"] = print_html(env, book, paper=paper)
    return dict(sorted(files.items())), skipped


MANIFEST = ".tabletop-docs"
"""The list of files `tabletop docs` wrote into a folder, one per line: the only files it
will ever remove there (a game dropped from rulesets/ leaves its pages behind otherwise),
so a folder may hold anything else."""


def _manifest(out_dir: Path) -> list[str]:
    try:
        text = (out_dir / MANIFEST).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    names = []
    for line in text.splitlines():
        rel = line.strip()
        parts = Path(rel).parts
        if rel and not Path(rel).is_absolute() and ".." not in parts:
            names.append(Path(rel).as_posix())
    return names


def write_docs(out_dir: Path = Path("generated_docs"), check: bool = False,
               templates: Path | None = None, rulesets: Path | None = None,
               paths: list[Path] | None = None, paper: str = "A4") -> DocsResult:
    """Write the rulebooks into `out_dir` (removing the files it wrote there before and no
    longer generates, and nothing else), or, with `check`, only report the files that are
    stale, missing or extra. With `paths`, the rulebooks of those ruleset files only."""
    files, skipped = _build(templates, rulesets, paths, paper=PAPER.get(paper.lower(), paper))
    result = DocsResult(skipped=skipped)
    for rel, content in files.items():
        path = out_dir / rel
        if not path.is_file():
            result.missing.append(rel)
        elif path.read_bytes() != content.encode("utf-8"):
            result.stale.append(rel)
    result.extra = [rel for rel in _manifest(out_dir)
                    if rel not in files and (out_dir / rel).is_file()]
    if check:
        return result
    for rel in result.missing + result.stale:
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[rel].encode("utf-8"))
        result.written.append(rel)
    for rel in result.extra:
        path = out_dir / rel
        path.unlink()
        folder = path.parent
        while folder != out_dir and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
    (out_dir / MANIFEST).write_text("".join(f"{rel}\n" for rel in sorted(files)),
                                    encoding="utf-8")
    return result


def build_pdfs(pdf_dir: Path, templates: Path | None = None, rulesets: Path | None = None,
               paper: str = "A4", names: list[str] | None = None,
               paths: list[Path] | None = None) -> list[Path]:
    """One PDF per rulebook (WeasyPrint, the `pdf` extra), of the bundled games or of the
    ruleset files in `paths`; returns the files written."""
    try:
        import weasyprint
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise TabletopError("PDFs need WeasyPrint: pip install 'tabletop[pdf]' "
                            f"(and the Pango library; see the README) — {exc}") from None
    env = environment(templates)
    check_templates(env, templates)
    pdf_dir.mkdir(parents=True, exist_ok=True)  # a folder that cannot be made fails first
    books, variants, _ = load_all(rulesets, paths)
    out = []
    size = PAPER.get(paper.lower(), paper)
    pages: list[tuple[str, str]] = [(b.name, print_html(env, b, paper=size)) for b in books
                                    if names is None or b.name in names]
    pages += [(v.name, print_variant_html(env, v, paper=size)) for v in variants
              if names is None or v.name in names]
    for name, page in sorted(pages):
        target = pdf_dir / f"{name}.pdf"
        weasyprint.HTML(string=page).write_pdf(str(target))
        out.append(target)
    return out
