// The JSON editor inside the component's iframe: CodeMirror 6, driven by Streamlit render
// messages (ui/json_editor.py documents the arguments and the value sent back).

import { ChangeSet, Compartment, EditorState } from "@codemirror/state";
import {
  EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, syntaxTree } from "@codemirror/language";
import { json } from "@codemirror/lang-json";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { connect, setComponentValue, setFrameHeight } from "./streamlit.js";
import { themeFor } from "./theme.js";

// A fresh id per iframe load: Python names "the text I returned" by instance and send number,
// and a reloaded iframe starts counting again.
const INSTANCE = Math.random().toString(36).slice(2, 10);
const MAX_SNAPSHOTS = 8;
const FRAME_PADDING = 4; // #root's padding in index.html, room for the focus outline
const SEVERITIES = new Set(["error", "warning", "info", "hint"]);

let view = null;
let rev = 0; // the Python-side text revision the document descends from
let seq = 0; // values sent by this iframe
let lastSent = "";
let debounceMs = 400;
let timer = null;
let marksKey = null;
let gotoNonce = null;
let themeKey = null;
let readOnly = null;
let frameHeight = null;
// id -> {doc, changes since}: marks arrive for the text Python saw, which may be a few
// keystrokes old; they are placed in that text and mapped through the edits since.
const snapshots = new Map();
const themeSlot = new Compartment();
const readOnlySlot = new Compartment();

function remember(id) {
  snapshots.set(id, { doc: view.state.doc, changes: ChangeSet.empty(view.state.doc.length) });
  while (snapshots.size > MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value);
}

function flush() {
  clearTimeout(timer);
  timer = null;
  const text = view.state.doc.toString();
  if (text === lastSent) return;
  lastSent = text;
  seq += 1;
  remember(`${INSTANCE}:${seq}`);
  setComponentValue({ text, rev, instance: INSTANCE, seq });
}

/** Document offset of a 1-based line and code-point column (Python's str indexing). */
function offsetOf(doc, line, col) {
  const row = doc.line(Math.min(Math.max(1, line), doc.lines));
  let offset = 0;
  let left = col - 1;
  for (const char of row.text) {
    if (left <= 0) break;
    offset += char.length;
    left -= 1;
  }
  return row.from + offset;
}

function lineColOf(doc, pos) {
  const row = doc.lineAt(pos);
  return [row.number, [...row.text.slice(0, pos - row.from)].length + 1];
}

/** The token starting at `pos` (a string, number, key, bracket), else one character. */
function markEnd(state, pos) {
  const row = state.doc.lineAt(pos);
  if (pos >= row.to) return pos;
  const node = syntaxTree(state).resolveInner(pos, 1);
  if (node.from === pos && node.to > pos && node.to <= row.to) return node.to;
  return Math.min(pos + [...state.doc.sliceString(pos, pos + 2)][0].length, row.to);
}

function applyMarks(marks, at) {
  const key = JSON.stringify([marks, at]);
  if (key === marksKey) return;
  marksKey = key;
  const state = view.state;
  const base = snapshots.get(at);
  const diagnostics = marks.map((mark) => {
    let from = base
      ? base.changes.mapPos(offsetOf(base.doc, mark.line, mark.col), 1)
      : offsetOf(state.doc, mark.line, mark.col);
    from = Math.min(from, state.doc.length);
    const severity = SEVERITIES.has(mark.severity) ? mark.severity : "error";
    return { from, to: markEnd(state, from), severity, message: mark.message };
  });
  view.dispatch(setDiagnostics(state, diagnostics));
}

function applyGoto(goto) {
  if (!goto || goto.nonce === gotoNonce) return;
  gotoNonce = goto.nonce;
  const pos = offsetOf(view.state.doc, goto.line, goto.col);
  view.dispatch({
    selection: { anchor: pos },
    effects: EditorView.scrollIntoView(pos, { y: "center" }),
  });
  // A row picked by keyboard in an error table: the caret moves, the keyboard stays there.
  if (focusKeptInPage()) return;
  // The page too: on a phone the error table sits a screen below the editor, and a caret
  // moved out of sight looked like nothing happened. "nearest" leaves an editor in view put.
  if (window.frameElement) window.frameElement.scrollIntoView({ block: "nearest" });
  view.focus();
}

/** Whether the page's focused element is inside one marked data-keeps-focus (an error table
 * whose row was picked by keyboard: ui/errors/keyboard.js). A page of another origin cannot
 * be read: the editor then takes the focus, as it always did. */
function focusKeptInPage() {
  try {
    const active = window.parent.document.activeElement;
    return Boolean(active && active.closest("[data-keeps-focus]"));
  } catch {
    return false;
  }
}

/** Replace the text with Python's, as one undoable change of only the differing middle. */
function replaceText(text) {
  const old = view.state.doc.toString();
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start += 1;
  let end = 0;
  while (end < old.length - start && end < text.length - start
    && old[old.length - 1 - end] === text[text.length - 1 - end]) end += 1;
  if (start < old.length - end || start < text.length - end) {
    view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
  }
}

function onUpdate(update) {
  if (update.docChanged) {
    for (const snap of snapshots.values()) snap.changes = snap.changes.compose(update.changes);
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  }
  if (update.docChanged || update.selectionSet) {
    // Read by the browser tests, and a cheap way to see where the caret is from outside.
    view.dom.dataset.caret = lineColOf(update.state.doc, update.state.selection.main.head).join(":");
  }
}

function create(args, theme, parent) {
  const state = EditorState.create({
    doc: args.text,
    extensions: [
      // Lines split on "\n" only, as the Python side counts them; "\r" stays in the text.
      EditorState.lineSeparator.of("\n"),
      lineNumbers(),
      // Long lines wrap in the editor's column (a uuid was cut at 1400 px); line numbers,
      // marks and line:col still count the text's own lines.
      EditorView.lineWrapping,
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      bracketMatching(),
      highlightActiveLine(),
      json(),
      lintGutter(),
      // No indentWithTab: Tab and Shift+Tab leave the editor, so it never traps the keyboard.
      keymap.of([
        { key: "Mod-Enter", run: () => { flush(); return true; } },
        ...defaultKeymap, ...historyKeymap, ...lintKeymap,
      ]),
      EditorView.contentAttributes.of({ "aria-label": args.label }),
      EditorView.domEventHandlers({
        blur: () => { flush(); },
        // Typing over a selection that spans lines (select-all, then a key), Chrome edits the
        // DOM so that CodeMirror read the key and a line break: `{"a": 1}` reached the page
        // with a newline after it. Here the key replaces the selection, exactly as typed.
        beforeinput: (event, view) => {
          if (event.inputType !== "insertText" || !event.data || view.state.readOnly) return false;
          if (view.state.selection.ranges.every((range) => range.empty)) return false;
          event.preventDefault();
          view.dispatch(view.state.replaceSelection(event.data), {
            userEvent: "input.type", scrollIntoView: true,
          });
          return true;
        },
      }),
      EditorView.updateListener.of(onUpdate),
      themeSlot.of(themeFor(theme)),
      readOnlySlot.of(EditorState.readOnly.of(false)),
    ],
  });
  view = new EditorView({ state, parent });
  view.dom.dataset.caret = "1:1";
}

function onRender({ args, theme, disabled }) {
  debounceMs = args.debounce_ms;
  if (!view) {
    rev = args.rev;
    lastSent = args.text;
    create(args, theme, document.getElementById("root"));
    remember(`rev:${rev}`);
  } else if (args.rev !== rev) {
    // Python replaced the text (a preset, a reset): it wins over unsent typing.
    clearTimeout(timer);
    rev = args.rev;
    lastSent = args.text;
    replaceText(args.text);
    snapshots.clear();
    remember(`rev:${rev}`);
  }
  const key = JSON.stringify(theme || {});
  if (key !== themeKey) {
    themeKey = key;
    view.dispatch({ effects: themeSlot.reconfigure(themeFor(theme)) });
    document.documentElement.style.background = (theme && theme.backgroundColor) || "";
  }
  // Render messages come on every rerun of the page; only what changed is applied, so a
  // rerun costs the editor no update and the page no frame resize message.
  if (Boolean(disabled) !== readOnly) {
    readOnly = Boolean(disabled);
    view.dispatch({ effects: readOnlySlot.reconfigure(EditorState.readOnly.of(readOnly)) });
  }
  applyMarks(args.marks, args.marks_at);
  applyGoto(args.goto);
  if (args.height !== frameHeight) {
    frameHeight = args.height;
    view.dom.style.height = `${args.height}px`;
    setFrameHeight(args.height + FRAME_PADDING);
  }
}

connect(onRender);
