// The playground's code editor: CodeMirror 6, bundled at set-up time by esbuild into
// web/gen/editor.js (an IIFE exposing the global `SchedlabEditor`). The Rust app talks to it
// through `crates/web/src/editor_js.rs`. The page loads it only where an editor is shown (not in
// an embed): web/index.html's `schedlabLoadEditor`. The share link's codec is not here
// (crates/web/js/link_codec.js): an embed needs it without the editor.

import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightSpecialChars,
  drawSelection, highlightActiveLine, rectangularSelection, crosshairCursor, dropCursor, showPanel,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, undo, redo } from "@codemirror/commands";
import { searchKeymap, highlightSelectionMatches, openSearchPanel } from "@codemirror/search";
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting, HighlightStyle } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { yaml } from "@codemirror/lang-yaml";
import { tags as t } from "@lezer/highlight";

// Colours come from the page's CSS variables, so the editor follows the app's theme.
const highlight = HighlightStyle.define([
  { tag: [t.propertyName, t.definition(t.propertyName)], color: "var(--syn-key)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-string)" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "var(--syn-number)" },
  { tag: [t.comment, t.lineComment], color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [t.meta, t.processingInstruction, t.separator], color: "var(--syn-meta)", fontWeight: "bold" },
  { tag: [t.keyword, t.typeName, t.labelName], color: "var(--syn-keyword)" },
  { tag: [t.punctuation, t.squareBracket, t.brace], color: "var(--syn-punct)" },
]);

const baseTheme = EditorView.theme({
  "&": { height: "100%", fontSize: "var(--editor-font-size, 14px)", backgroundColor: "var(--editor-bg)", color: "var(--fg)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--accent)" },
  ".cm-gutters": { backgroundColor: "var(--editor-gutter)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--editor-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--editor-active-line)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--accent)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--editor-selection) !important" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-panels input, .cm-panels button": { fontSize: "inherit" },
  ".cm-searchMatch": { backgroundColor: "var(--editor-match)", outline: "1px solid var(--accent)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-diagnostic-error": { borderLeft: "4px solid var(--bad)" },
  ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "wavy underline var(--bad)", textUnderlineOffset: "3px" },
  ".cm-large-note": { padding: "2px 8px", fontSize: "12px", color: "var(--muted)", fontFamily: "var(--sans, inherit)" },
});

// Above this size a tab is plain text. CodeMirror's YAML parser re-parses a large part of the
// document after every edit, in idle-time slices of up to 100 ms: on a 3 MB document (10 000
// generated pods) each keystroke cost a 100 ms main-thread task. Highlighting and folding come
// back when the document shrinks below the limit.
export const PLAIN_ABOVE = 512 * 1024;
const language = new Compartment();
const plain = showPanel.of(() => {
  const dom = document.createElement("div");
  dom.className = "cm-large-note";
  dom.textContent = `Large document (over ${PLAIN_ABOVE / 1024} KB): no syntax highlighting or folding, so that typing stays fast.`;
  return { dom, top: true };
});
const languageFor = (length) => (length > PLAIN_ABOVE ? plain : yaml());
// Switches when an edit (a paste, a deletion) takes the document across the limit.
const languageBySize = EditorState.transactionExtender.of((tr) => {
  if (!tr.docChanged) return null;
  const was = tr.startState.doc.length > PLAIN_ABOVE;
  const is = tr.newDoc.length > PLAIN_ABOVE;
  return was === is ? null : { effects: language.reconfigure(languageFor(tr.newDoc.length)) };
});

function extensions(onDocChanged, length) {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    foldGutter(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    EditorState.tabSize.of(2),
    indentOnInput(),
    syntaxHighlighting(highlight),
    bracketMatching(),
    closeBrackets(),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    lintGutter(),
    language.of(languageFor(length)),
    languageBySize,
    baseTheme,
    EditorView.lineWrapping,
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, indentWithTab]),
    EditorView.updateListener.of((u) => { if (u.docChanged) onDocChanged(); }),
    EditorView.contentAttributes.of({ "aria-label": "Scenario YAML editor" }),
  ];
}

/** How long after the last keystroke the page hears of a change (ms): 100 for a usual
 * scenario, more for a large one (a tenth of a second per 800 KB, at most a second). Each
 * notice copies the whole document and re-runs it: in a 10 000-pod document that is a task of
 * tens of milliseconds, which a keystroke arriving meanwhile would wait for, and a run the
 * engine could not finish before the next keystroke anyway. */
export function changeDelay(length) {
  return Math.min(1000, 100 + Math.floor(length / 8000));
}

/** An editor with one document (and one undo history) per tab. */
class TabbedEditor {
  constructor(parent, onChange) {
    this.onChange = onChange;
    this.states = new Map();
    // Texts of tabs not shown yet: their states are created when first needed (creating a
    // state resolves the whole configuration, which costs milliseconds).
    this.pending = new Map();
    // Tabs whose state holds error markers: clearing the markers of a tab that has none
    // dispatches nothing (at start-up each tab's "no errors" would otherwise be a transaction,
    // the shown tab's one with a view update).
    this.marked = new Set();
    this.active = null;
    this.timer = null;
    this.suppress = 0;
    const changed = () => {
      if (this.suppress > 0) return;
      const tab = this.active;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.onChange(tab, this.view.state.doc.toString()), changeDelay(this.view.state.doc.length));
    };
    // Two configurations (the YAML language or plain text, by the document's size), each
    // resolved once and shared by every tab's state.
    this.ext = extensions(changed, 0);
    this.extPlain = extensions(changed, PLAIN_ABOVE + 1);
    this.parent = parent;
    // The view is made when the first tab is shown (with that tab's state: one configuration
    // to resolve at start-up instead of two).
    this.view = null;
  }

  /** Flushes a pending change notification now (e.g. before switching tabs). */
  flush() {
    if (this.timer !== null && this.view) {
      clearTimeout(this.timer);
      this.timer = null;
      this.onChange(this.active, this.view.state.doc.toString());
    }
  }

  stateOf(tab) {
    if (tab === this.active) return this.view.state;
    let s = this.states.get(tab);
    if (!s) {
      const doc = this.pending.has(tab) ? this.pending.get(tab) : "";
      this.pending.delete(tab);
      s = this.create(doc);
      this.states.set(tab, s);
    }
    return s;
  }

  create(doc) {
    return EditorState.create({ doc, extensions: doc.length > PLAIN_ABOVE ? this.extPlain : this.ext });
  }

  putState(tab, s) {
    if (tab === this.active && this.view) {
      this.suppress++;
      try { this.view.setState(s); } finally { this.suppress--; }
    } else {
      this.states.set(tab, s);
    }
  }

  /** Replaces a tab's text (a new document: the undo history starts afresh). */
  setDoc(tab, text) {
    this.marked.delete(tab);
    if (tab !== this.active) {
      this.states.delete(tab);
      this.pending.set(tab, text);
      return;
    }
    this.putState(tab, this.create(text));
  }

  /** Replaces a tab's text as one undoable edit (used when the app rewrites the text). */
  replaceDoc(tab, text) {
    if (tab === this.active && this.view) {
      this.suppress++;
      try {
        this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
      } finally { this.suppress--; }
    } else {
      const s = this.stateOf(tab);
      this.states.set(tab, s.update({ changes: { from: 0, to: s.doc.length, insert: text } }).state);
    }
  }

  getDoc(tab) {
    if (tab !== this.active && this.pending.has(tab)) return this.pending.get(tab);
    return this.stateOf(tab).doc.toString();
  }

  showTab(tab) {
    if (tab === this.active) return;
    this.flush();
    if (this.active !== null && this.view) this.states.set(this.active, this.view.state);
    this.active = null;
    const s = this.stateOf(tab);
    this.active = tab;
    this.states.delete(tab);
    if (!this.view) {
      this.view = new EditorView({ parent: this.parent, state: s });
      return;
    }
    this.suppress++;
    try { this.view.setState(s); } finally { this.suppress--; }
  }

  /** Appends a YAML document to a tab (as an undoable edit) and selects it. */
  append(tab, text) {
    this.showTab(tab);
    const doc = this.view.state.doc;
    let sep = "";
    const cur = doc.toString();
    if (cur.trim().length > 0) {
      sep = cur.endsWith("\n") ? "" : "\n";
      sep += "---\n";
    }
    const from = doc.length + sep.length;
    this.view.dispatch({
      changes: { from: doc.length, insert: sep + text },
      selection: { anchor: from, head: from + text.length },
      scrollIntoView: true,
    });
    this.view.focus();
  }

  /** Diagnostics: [{line, column, message}] with 1-based positions (0 = unknown). */
  setErrors(tab, errors) {
    // A tab without markers that gets none is left alone (its state need not even exist yet).
    if (errors.length === 0 && !this.marked.has(tab)) return;
    if (errors.length === 0) this.marked.delete(tab);
    else this.marked.add(tab);
    const s = this.stateOf(tab);
    const doc = s.doc;
    const diags = [];
    for (const e of errors) {
      const lineNo = Math.min(Math.max(e.line || 1, 1), doc.lines);
      const line = doc.line(lineNo);
      let from = line.from + Math.max((e.column || 1) - 1, 0);
      if (from > line.to) from = line.to;
      // Underline from the position to the end of its line (a key with its value, or a
      // value), without trailing blanks or a comment.
      const rest = doc.sliceString(from, line.to).replace(/\s+#.*$/, "").replace(/\s+$/, "");
      let to = from + rest.length;
      if (to === from) { from = line.from; to = line.to; }
      diags.push({ from, to, severity: "error", message: e.message, source: "schedlab" });
    }
    const tr = s.update(setDiagnostics(s, diags));
    if (tab === this.active && this.view) {
      this.suppress++;
      try { this.view.dispatch(setDiagnostics(s, diags)); } finally { this.suppress--; }
    } else {
      this.states.set(tab, tr.state);
    }
  }

  /** Moves the cursor to a position (1-based) in the active tab and scrolls to it. */
  reveal(line, column) {
    if (!this.view) return;
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
    this.view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    this.view.focus();
  }

  focus() { if (this.view) this.view.focus(); }
  undo() { return this.view ? undo(this.view) : false; }
  redo() { return this.view ? redo(this.view) : false; }
  search() { if (this.view) openSearchPanel(this.view); }
  setReadOnly(ro) {
    if (!this.view) return;
    // Read-only is a per-state facet; simplest is a DOM attribute the app styles, plus
    // contenteditable which CodeMirror honours.
    this.view.contentDOM.setAttribute("contenteditable", ro ? "false" : "true");
  }
}

export function create(parent, onChange) {
  return new TabbedEditor(parent, onChange);
}
