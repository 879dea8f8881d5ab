// Light and dark editor themes from the colours Streamlit sends with every render.

import { EditorView } from "@codemirror/view";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

/** The JSON token styles in one palette: property names, strings, numbers, true/false/null
 * (bold) and what does not parse (underlined). */
function tokenStyle({ property, string, number, literal, invalid }) {
  return HighlightStyle.define([
    { tag: tags.propertyName, color: property },
    { tag: tags.string, color: string },
    { tag: tags.number, color: number },
    { tag: [tags.bool, tags.null], color: literal, fontWeight: "bold" },
    { tag: tags.invalid, color: invalid, textDecoration: "underline" },
  ]);
}

// Token colours with at least 4.5:1 contrast on Streamlit's default backgrounds.
const LIGHT = tokenStyle({
  property: "#0b5394", string: "#a31515", number: "#116644", literal: "#7a3e9d", invalid: "#c00000",
});
const DARK = tokenStyle({
  property: "#9cdcfe", string: "#ce9178", number: "#b5cea8", literal: "#d7a2ff", invalid: "#ff7b72",
});

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
