// Enter or Space on a row of a selectable error table selects that row, as Shift+Space (the
// data grid's own row selection) does, instead of opening the grid's cell overlay: the row's
// details show beside the table, in full. The table is then marked data-keeps-focus, which
// tells the JSON editor (frontend/json_editor/src/editor.js) to move its caret to the error
// without taking the keyboard away from the table; a pointer press in the table unmarks it,
// so a row picked by a click still puts the focus in the editor, ready for typing.
// A click on any cell of a row selects that row, as a click on its box does (issue 41, item
// 6: one row-click rule for every table); a click on the box itself is the grid's own.
//
// Run in the page itself (st.html), once per table drawn: the first run installs the two
// listeners on the window, every run adds the tables its page names (each script element's
// data-error-table, a CSS selector).
(() => {
  const named = [...document.querySelectorAll("script[data-error-table]")]
    .map((script) => script.dataset.errorTable);
  if (window.__errorTableKeys) {
    for (const table of named) window.__errorTableKeys.add(table);
    return;
  }
  const tables = new Set(named);
  window.__errorTableKeys = tables;
  // The grid mirrors its focused cell and selected rows in an accessible table inside its
  // canvas, redrawn 200 ms after its last change. Shift+Space toggles a row, so whether the
  // focused row is selected already is read from that table once it has been still this long
  // (at most MOST_MS, should the grid keep changing).
  const STILL_MS = 250;
  const MOST_MS = 1500;
  const waiting = new WeakSet(); // grids with a pick waiting for their accessible table

  /** The selectable error table holding `target`, or null. */
  function tableOf(target) {
    if (!(target instanceof Element)) return null;
    for (const selector of tables) {
      const found = target.closest(selector);
      if (found) return found;
    }
    return null;
  }

  /** Select the focused row of `canvas` (in `box`) unless it is selected already; `keep`:
   * the keyboard stays in the table (a key picked it), not a click. */
  function selectFocusedRow(box, canvas, keep) {
    const focused = document.activeElement;
    if (!(focused instanceof Element) || !canvas.contains(focused)) return; // the user left
    const cell = canvas.querySelector("td[role='gridcell'][aria-selected='true']");
    const row = cell === null ? null : cell.closest("tr");
    if (row === null || row.getAttribute("aria-selected") === "true") return;
    if (keep) box.dataset.keepsFocus = "";
    focused.dispatchEvent(new KeyboardEvent("keydown", {
      key: " ", code: "Space", shiftKey: true, bubbles: true, cancelable: true, composed: true,
    }));
  }

  /** Select the focused row once the grid's accessible table has been still STILL_MS. */
  function pickWhenStill(box, canvas, keep) {
    if (waiting.has(canvas)) return; // presses while one waits are that one pick
    waiting.add(canvas);
    const until = performance.now() + MOST_MS;
    let timer = null;
    const done = () => {
      observer.disconnect();
      waiting.delete(canvas);
      selectFocusedRow(box, canvas, keep);
    };
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(done, Math.max(0, Math.min(STILL_MS, until - performance.now())));
    };
    const observer = new MutationObserver(wait);
    const everything = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(canvas, everything);
    wait();
  }

  // Capturing on the window: ahead of the grid's own handler (React's, on its root).
  window.addEventListener("keydown", (event) => {
    const target = event.target;
    const canvas = target instanceof Element
      ? target.closest("[data-testid='data-grid-canvas']") : null;
    if (canvas === null) return; // the grid's search box, or its overlay, keep their keys
    const box = tableOf(canvas);
    const pick = event.key === "Enter" || event.key === " ";
    if (box === null || !pick || event.altKey || event.ctrlKey || event.metaKey) return;
    box.dataset.keepsFocus = "";
    if (event.shiftKey) return; // Shift+Space selects already; Shift+Enter is the grid's
    event.preventDefault(); // no overlay, and no scrolling the page (Space)
    event.stopImmediatePropagation();
    pickWhenStill(box, canvas, true);
  }, true);

  window.addEventListener("pointerdown", (event) => {
    const box = tableOf(event.target);
    if (box !== null) delete box.dataset.keepsFocus;
  }, true);

  // The grid draws each row's box in a column of its own, first and MARKER_PX wide: a click
  // there is the grid's (it ticks or unticks the row); a click right of it, on a cell, moves
  // the grid's focus to that cell, and its row is selected once the grid is still.
  const MARKER_PX = 40;
  // The click lands on the grid's scroller, laid over its canvas.
  window.addEventListener("click", (event) => {
    const box = tableOf(event.target);
    const canvas = box === null ? null : box.querySelector("[data-testid='data-grid-canvas']");
    if (canvas === null || event.button !== 0 || !event.target.closest(".dvn-scroller")) return;
    if (event.clientX - canvas.getBoundingClientRect().left < MARKER_PX) return;
    pickWhenStill(box, canvas, false);
  }, true);
})();
