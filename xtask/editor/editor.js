// The GPU puzzles' editor: CodeMirror 6 with line numbers, undo history, bracket matching, Tab
// indentation and a small WGSL mode, plus marks on the lines a compile error names. Bundled by
// esbuild into book/puzzle-editor/editor.js (cargo xtask book); book/theme/puzzles.js loads it
// and keeps its own plain editor for a book built without it.
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { EditorView, Decoration, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { StreamLanguage, bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";

const KEYWORDS = new Set(["fn", "let", "var", "const", "if", "else", "for", "loop", "while", "return",
  "break", "continue", "struct", "switch", "case", "default", "override", "true", "false"]);
const TYPES = /^(f32|f16|u32|i32|bool|vec[234]|mat[234]x[234]|array|atomic|ptr)$/;
const BUILTINS = new Set(["workgroupBarrier", "storageBarrier", "atomicAdd", "atomicSub", "atomicMax",
  "atomicMin", "atomicLoad", "atomicStore", "atomicExchange", "exp", "log", "max", "min", "select",
  "abs", "sqrt", "clamp", "floor", "ceil", "dot", "arrayLength"]);

// A token-level WGSL mode: enough to colour what the puzzles use.
const wgsl = StreamLanguage.define({
  name: "wgsl",
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match("//")) { stream.skipToEnd(); return "comment"; }
    if (stream.match(/^@[A-Za-z_]\w*/)) return "meta";
    if (stream.match(/^\d+(\.\d*)?(e[+-]?\d+)?[uif]?/)) return "number";
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (KEYWORDS.has(word)) return "keyword";
      if (TYPES.test(word)) return "typeName";
      if (BUILTINS.has(word)) return "function(variableName)";
      return "variableName";
    }
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "//" }, indentOnInput: /^\s*\}$/ },
});

const setErrors = StateEffect.define();
const errorMark = Decoration.line({ class: "pz-cm-error-line" });
const errorLines = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) if (e.is(setErrors)) return e.value;
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export function createEditor(parent, doc, onChange) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(), indentOnInput(),
        wgsl, syntaxHighlighting(defaultHighlightStyle), errorLines, EditorState.tabSize.of(4),
        keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap]),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
        EditorView.contentAttributes.of({ "aria-label": "WGSL code" }),
        EditorView.lineWrapping,
      ],
    }),
  });
  // The book's web fonts may arrive after the first layout: measure the lines again then.
  document.fonts?.ready.then(() => view.requestMeasure());
  return {
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    markLines(lines) {
      const doc = view.state.doc;
      const marks = [...new Set(lines)].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b)
        .map((n) => errorMark.range(doc.line(n).from));
      view.dispatch({ effects: setErrors.of(Decoration.set(marks)) });
    },
    view,
  };
}
