"""What every primitive provides, and the builder/describer interfaces it uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.located import Node

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder


class Primitive(Node):
    """An effect of the language: schema (fields), execution, English."""

    keyword: ClassVar[str]
    summary: ClassVar[str]

    id: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$",
        description="a name for this effect, unique in the ruleset, so that a variant can "
                    "replace it, remove it or insert effects before or after it")
    text: str | None = Field(
        default=None,
        description="how the rulebook says this effect, where the generated English reads "
                    "poorly; the exact generated rule is printed under it")

    def compile(self, b: ProgramBuilder) -> None:
        """Emit the machine instructions that carry the effect out."""
        raise NotImplementedError

    def english(self, d: Describer) -> list[str]:
        """The effect as English sentences (nested blocks indented by the describer)."""
        raise NotImplementedError

    def local_names(self) -> set[str]:
        """Local variables this effect binds (collected before compiling a section)."""
        return set()

    def children(self) -> list[list[Primitive]]:
        """Nested blocks, so passes over the whole program can reach them."""
        return []
