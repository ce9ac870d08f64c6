// What the studio's editor.js imports: one ES module, so the page loads a single file.
export {
  EditorState, EditorSelection, StateEffect, StateField, Compartment, Transaction, Prec,
} from "@codemirror/state";
export {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, dropCursor, rectangularSelection, crosshairCursor, highlightSpecialChars,
  hoverTooltip, Decoration, ViewPlugin, placeholder,
} from "@codemirror/view";
export {
  defaultKeymap, history, historyKeymap, indentWithTab, undo, redo, selectAll,
} from "@codemirror/commands";
export {
  syntaxHighlighting, defaultHighlightStyle, HighlightStyle, indentOnInput, bracketMatching,
  foldGutter, foldKeymap, indentUnit,
} from "@codemirror/language";
export {
  autocompletion, completionKeymap, closeBrackets, closeBracketsKeymap, startCompletion,
  acceptCompletion,
} from "@codemirror/autocomplete";
export {
  setDiagnostics, lintGutter, lintKeymap, forEachDiagnostic, openLintPanel, diagnosticCount,
} from "@codemirror/lint";
export {
  search, searchKeymap, highlightSelectionMatches, openSearchPanel, gotoLine,
} from "@codemirror/search";
export { yaml } from "@codemirror/lang-yaml";
export { tags } from "@lezer/highlight";
