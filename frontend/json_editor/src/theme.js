// Light and dark editor themes from the colours Streamlit sends with every render.

import { EditorView } from "@codemirror/view";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

// Token colours with at least 4.5:1 contrast on Streamlit's default backgrounds.
const LIGHT = HighlightStyle.define([
  { tag: tags.propertyName, color: "#0b5394" },
  { tag: tags.string, color: "#a31515" },
  { tag: tags.number, color: "#116644" },
  { tag: [tags.bool, tags.null], color: "#7a3e9d", fontWeight: "bold" },
  { tag: tags.invalid, color: "#c00000", textDecoration: "underline" },
]);
const DARK = HighlightStyle.define([
  { tag: tags.propertyName, color: "#9cdcfe" },
  { tag: tags.string, color: "#ce9178" },
  { tag: tags.number, color: "#b5cea8" },
  { tag: [tags.bool, tags.null], color: "#d7a2ff", fontWeight: "bold" },
  { tag: tags.invalid, color: "#ff7b72", textDecoration: "underline" },
]);

/** `color` at the given alpha ("40" hex) when it is #rrggbb; else unchanged. */
function faded(color, alpha) {
  return /^#[0-9a-f]{6}$/i.test(color) ? `${color}${alpha}` : color;
}

function isDark(theme) {
  if (theme.base === "dark" || theme.base === "light") return theme.base === "dark";
  const hex = /^#([0-9a-f]{6})$/i.exec(theme.backgroundColor || "");
  if (!hex) return false;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

/** Editor extensions for Streamlit's `theme` render field (missing fields: light defaults). */
export function themeFor(theme = {}) {
  theme = theme || {};
  const dark = isDark(theme);
  const background = theme.backgroundColor || (dark ? "#0e1117" : "#ffffff");
  const panel = theme.secondaryBackgroundColor || (dark ? "#262730" : "#f0f2f6");
  const text = theme.textColor || (dark ? "#fafafa" : "#31333f");
  const primary = theme.primaryColor || "#ff4b4b";
  const font = theme.font || "sans-serif";
  return [
    EditorView.theme({
      "&": { color: text, backgroundColor: background, height: "100%", fontSize: "14px",
        border: `1px solid ${faded(text, "33")}`, borderRadius: "0.5rem" },
      "&.cm-focused": { outline: `2px solid ${primary}` },
      ".cm-scroller": { fontFamily: "'Source Code Pro', ui-monospace, monospace", overflow: "auto" },
      ".cm-content": { caretColor: text },
      ".cm-cursor, .cm-dropCursor": { borderLeftColor: text },
      ".cm-gutters": { backgroundColor: panel, color: text, border: "none" },
      ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: dark ? "#ffffff12" : "#0000000a" },
      "&.cm-focused .cm-selectionBackground, .cm-selectionBackground":
        { backgroundColor: dark ? "#264f78" : "#add6ff" },
      ".cm-tooltip": { backgroundColor: panel, color: text, fontFamily: font,
        border: `1px solid ${faded(text, "40")}`, padding: "2px 4px" },
      ".cm-panels": { backgroundColor: panel, color: text, fontFamily: font },
    }, { dark }),
    syntaxHighlighting(dark ? DARK : LIGHT),
  ];
}
