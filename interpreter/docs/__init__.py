"""Rulebooks generated from the rulesets (Markdown + SVG for mkdocs, print HTML, PDF)."""

from interpreter.docs.build import DocsResult, build_docs, build_pdfs, write_docs

__all__ = ["DocsResult", "build_docs", "build_pdfs", "write_docs"]
