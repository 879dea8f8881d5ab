// Enter in a cell of the form's items grid (ui/validate/form_table.py) moves to the cell under
// it, as Enter does in a spreadsheet; Tab and Shift+Tab are the browser's own. The grid is a
// form of plain text inputs, so nothing runs on the server until Apply to payload: every key
// typed stays in the input it was typed in, at any pace.
//
// Run in the page itself (st.html), once per grid drawn: the first run installs the listener
// on the window, every run adds its grid (the script element's data-grid, a CSS selector, and
// data-columns, the inputs in one row).
(() => {
  const grids = window.__itemGrids || (window.__itemGrids = new Map());
  for (const script of document.querySelectorAll("script[data-grid]")) {
    grids.set(script.dataset.grid, Number(script.dataset.columns));
  }
  if (window.__itemGridKeys) return;
  window.__itemGridKeys = true;
  window.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || event.key !== "Enter") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    for (const [selector, columns] of grids) {
      const grid = input.closest(selector);
      if (grid === null) continue;
      const cells = [...grid.querySelectorAll("input[type='text']")];
      const at = cells.indexOf(input);
      if (at < 0) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const next = cells[at + (event.shiftKey ? -columns : columns)];
      if (next !== undefined) next.focus();
      return;
    }
  }, true);
})();
