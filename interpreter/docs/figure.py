"""What every part of a rulebook uses: a picture (file, caption, SVG) and a sentence."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Diagram:
    file: str
    title: str
    svg: str


def sentence(text: str) -> str:
    """Text as a sentence: one line, a capital first letter, a full stop."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?:" else text + "."


__all__ = ["Diagram", "sentence"]
