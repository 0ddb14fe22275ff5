// Rebuilds a page's reading text from its positioned text items. Plain JavaScript because the
// reader thread (pdf-text.worker.mjs) runs it where the items are made, so a page crosses to the
// server as one string.

/**
 * A positioned run of text, cut and measured as pdf.js's getTextContent reports it.
 * @typedef {{ str: string, transform: number[], width: number, height: number, hasEOL: boolean }} TextItem
 */

/**
 * @typedef {object} Line
 * @property {number} y
 * @property {number} x0
 * @property {number} x1
 * @property {number} size
 * @property {string} text
 * @property {boolean} tabular Has a wide gap between items: a table row, never merged with its neighbours.
 * @property {number | undefined} lastCellX Where the text after the line's last wide gap starts.
 * @property {Array<[number, number]>} cells Where each of its cells starts and ends (a new cell after each wide gap).
 * @property {number} bottom The lowest baseline it covers (a table row's cells may wrap below its first line).
 * @property {number[]} resumes Where text starts again after a gap wider than a word space: a cell may start there though its gap is too narrow to prove a table row.
 * @property {boolean} pendingSpace
 */

/**
 * Rebuilds reading text from positioned items: items on one baseline form a line (so table rows
 * and column lines keep their words together), a line that fills its column continues into the
 * next, and a larger vertical gap starts a paragraph.
 * @param {TextItem[]} items
 * @returns {string}
 */
/** A contents line: dot leaders to a page number. Its next line is the next entry, however indented. */
const DOT_LEADER = /(\.\s?){4,}\s*\d+\s*$/;

export function layoutText(items) {
  /** @type {Line[]} */
  const lines = [];
  /** @type {Line | undefined} */
  let cur;
  for (const item of items) {
    const x = item.transform[4];
    const y = item.transform[5];
    const size = Math.hypot(item.transform[2], item.transform[3]) || item.height || 10;
    // Whitespace-only items span the gaps between table cells: they mark a space but must not
    // widen the line, or the cell gap that makes a row tabular would never be measured.
    if (item.str.trim()) {
      if (cur && (Math.abs(cur.y - y) <= size * 0.5 || isScript(cur, x, y, size)) && x >= cur.x0 - size) {
        const gap = x - cur.x1;
        const needsSpace = (gap > size * 0.15 || cur.pendingSpace) && !cur.text.endsWith(" ") && !item.str.startsWith(" ");
        cur.text += (needsSpace ? " " : "") + item.str;
        if (gap > size * MIN_CELL_GAP) cur.resumes.push(x);
        if (gap > size * 1.5) {
          cur.tabular = true;
          cur.lastCellX = x;
          cur.cells.push([x, x]);
        }
        cur.x1 = Math.max(cur.x1, x + item.width);
        const cell = cur.cells[cur.cells.length - 1];
        cell[1] = Math.max(cell[1], x + item.width);
        cur.pendingSpace = false;
      } else {
        cur = { y, x0: x, x1: x + item.width, size, text: item.str, tabular: false, lastCellX: undefined, cells: [[x, x + item.width]], bottom: y, resumes: [], pendingSpace: false };
        lines.push(cur);
      }
    } else if (item.str && cur) {
      cur.pendingSpace = true;
    }
    if (item.hasEOL) cur = undefined;
  }
  if (lines.length === 0) return "";
  return joinLines(tableRows(lines));
}

/** A superscript or subscript is set smaller than its line, this share of the line's size at most. */
const SCRIPT_SIZE = 0.85;

/**
 * A superscript or subscript ("m/s²", "x₀", a footnote mark): smaller than the line, raised or
 * lowered by less than half the line's size, right where the line ends. Its own size is too small
 * a yardstick for the shift, which is a share of the line's size: without this it began a line.
 * @param {Line} line @param {number} x @param {number} y @param {number} size
 */
const isScript = (line, x, y, size) => size <= line.size * SCRIPT_SIZE && Math.abs(line.y - y) < line.size * 0.5 && x >= line.x1 - size * 0.5 && x - line.x1 < size;

/** A list item's start: a bullet, "3." or "b)". */
const STARTS_ITEM = /^([•\-–*▪◦●]|\d+[.)]\s|[a-z][.)]\s)/;
/** A table cell wraps over at most this many lines; more is a column of text, not a cell. */
const MAX_CELL_LINES = 8;
/** Cells of a row stand at least this far apart (a share of the font size). */
const MIN_CELL_GAP = 0.8;
/** A table cell is at most this share of the page's text width. */
const MAX_CELL_SHARE = 0.6;

/**
 * Table rows printed cell by cell (as browsers print them), each made one line: a row reads as
 * one record ("Week 5 … Lab 4 … HW 5"), not as a paragraph per cell. Each next cell goes back up,
 * starts past a gap right of every cell before it and overlaps the row's height (cells may be
 * top-aligned or centred); a cell's wrapped lines start under it.
 * @param {Line[]} lines
 * @returns {Line[]}
 */
function tableRows(lines) {
  // A cell as wide as most of the text is a paragraph beside something (a formula's fraction), not a table cell.
  const maxCellWidth = (Math.max(...lines.map((l) => l.x1)) - Math.min(...lines.map((l) => l.x0))) * MAX_CELL_SHARE;
  /** The lines from `k` that continue the cell begun by `head` (the row's first cell when `first`; a later cell starts right of `left`). */
  const cellFrom = (head, first, k, left = Infinity) => {
    const cell = [head];
    for (; k < lines.length && cell.length < MAX_CELL_LINES; k++) {
      const l = lines[k];
      const last = cell[cell.length - 1];
      const drop = last.y - l.y;
      // Under the cell's start; under a printed row's first line, under one of its cells past the
      // first (a narrow gap between cells may not mark one); or under text that resumed after a gap
      // (a cell filled to its edge, or an id cell close to the next, leaves a gap too narrow to prove a row);
      // or, in a later cell set flush right (a column of figures), ending where it ends, right of the cells before.
      const under =
        Math.abs(l.x0 - head.x0) < l.size
          ? !first || !head.tabular
          : (head.tabular && l.x0 > head.x0 + l.size && l.x0 < head.x1) || head.resumes.some((x) => Math.abs(l.x0 - x) < l.size) || (l.x0 > left && Math.abs(l.x1 - head.x1) < l.size);
      if (!(drop > 0 && drop <= last.size * 1.9 && under && !STARTS_ITEM.test(l.text.trim()))) break;
      cell.push(l);
    }
    return cell;
  };
  /** @type {Line[]} */
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i];
    const cells = [cellFrom(first, true, i + 1)];
    let k = i + cells[0].length;
    while (k < lines.length) {
      const taken = cells.flat();
      const l = lines[k];
      const goesUp = l.y - taken[taken.length - 1].y > l.size * 0.5;
      // A cell starts past a gap (its padding): a superscript or a fraction's part starts where the text before it ends.
      const left = Math.max(...taken.map((c) => c.x1));
      if (!goesUp || l.x0 < left + l.size * MIN_CELL_GAP) break;
      const cell = cellFrom(l, false, k + 1, left);
      const tol = l.size * 0.5;
      const overlaps = Math.min(...cell.map((c) => c.y)) <= Math.max(...taken.map((c) => c.y)) + tol && l.y >= Math.min(...taken.map((c) => c.y)) - tol;
      if (!overlaps) break;
      cells.push(cell);
      k += cell.length;
    }
    const taken = cells.flat();
    const narrow = cells.every((c) => c.every((l) => widestCell(l) <= maxCellWidth));
    // A paragraph beside a short item stands in two columns; a row with three or more (counting text resumed after a gap) is a table's, however wide one cell is.
    const columns = cells.reduce((n, c) => n + 1 + c[0].resumes.length, 0);
    // Only a return up the row proves a row: a line under a printed row may as well be a heading spanning the table.
    if (cells.length < 2 || (!narrow && columns < 3)) {
      out.push(first);
      i++;
      continue;
    }
    out.push({
      ...first,
      text: cells.map((c) => c.map((l) => l.text.trim()).reduce(joinWrapped)).join(" "),
      y: Math.max(...taken.map((l) => l.y)),
      x1: Math.max(...taken.map((l) => l.x1)),
      bottom: Math.min(...taken.map((l) => l.y)),
      tabular: true,
      lastCellX: cells[cells.length - 1][0].x0,
      cells: cells.flatMap((c) => (c[0].tabular ? c[0].cells : [[c[0].x0, Math.max(...c.map((l) => l.x1))]])),
    });
    i = k;
  }
  return out;
}

/**
 * A cell's next line after its text so far. A word broken at a line end ("evalu-", "ation") stays
 * broken at a line end, where normalisation rejoins it; a hyphen before a capital is part of the
 * word ("Solberg-Matthiesen").
 * @param {string} text
 * @param {string} next
 */
const joinWrapped = (text, next) => text + (/-$/.test(text) ? (/^\p{Ll}/u.test(next) && /\p{Ll}-$/u.test(text) ? "\n" : "") : " ") + next;

/** Rows of a table may stand this far apart (in font sizes) and still be one table. */
const MAX_ROW_GAP = 3.5;

/**
 * How many cells of one line line up with a cell of another (start, end or middle within a
 * character: columns may be set left, right or centred).
 * @param {Line} a
 * @param {Line} b
 */
const alignedCells = (a, b) =>
  a.cells.filter(([s, e]) => b.cells.some(([t, f]) => Math.abs(s - t) < a.size || Math.abs(e - f) < a.size || Math.abs(s + e - t - f) < 2 * a.size)).length;

/**
 * The widest cell of a line.
 * @param {Line} l
 */
const widestCell = (l) => Math.max(...l.cells.map(([s, e]) => e - s));

/**
 * @param {Line[]} lines
 * @returns {string}
 */
function joinLines(lines) {
  // The right edge of the text block a line belongs to (consecutive lines, same left edge, no
  // paragraph gap): a line reaching it wraps into the next. Block-local, so a full-width
  // paragraph above two columns does not make every column line look short.
  const blockOf = new Array(lines.length).fill(0);
  const blockRight = [lines[0].x1];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const l = lines[i];
    const vgap = prev.bottom - l.y;
    const continues = Math.abs(l.x0 - prev.x0) < prev.size * 2 && vgap > 0 && vgap <= prev.size * 1.9;
    blockOf[i] = continues ? blockOf[i - 1] : blockRight.length;
    if (continues) blockRight[blockOf[i]] = Math.max(blockRight[blockOf[i]], l.x1);
    else blockRight.push(l.x1);
  }
  const columnRight = lines.map((_, i) => blockRight[blockOf[i]]);
  const pageRight = Math.max(...lines.map((l) => l.x1));
  let out = lines[0].text.trim();
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const line = lines[i];
    const text = line.text.trim();
    if (!text) continue;
    const vgap = prev.bottom - line.y;
    // Rows of one table stay in one block however far apart they are printed: their cells line up.
    const nextRow = prev.tabular && line.tabular && vgap > 0 && vgap <= prev.size * MAX_ROW_GAP && alignedCells(prev, line) >= 2;
    const paragraphBreak = (vgap > prev.size * 1.9 && !nextRow) || vgap < -prev.size * 0.5;
    const prevFills = prev.x1 >= columnRight[i - 1] - prev.size * 4;
    const startsItem = STARTS_ITEM.test(text);
    const sameColumn = Math.abs(line.x0 - prev.x0) < prev.size * 2;
    // A hanging indent (a description list's term and the first line of its text, a bibliography
    // entry): a line that runs to the margin wraps into a next line indented under it, or, when the
    // term stands apart in a cell of its own, starting under that cell.
    const reachesMargin = prev.x1 >= pageRight - prev.size * 4 && !DOT_LEADER.test(prev.text) && !line.tabular;
    const underText = prev.tabular
      ? prev.lastCellX !== undefined && Math.abs(line.x0 - prev.lastCellX) < prev.size
      : !sameColumn && line.x0 > prev.x0 && line.x0 - prev.x0 <= prev.size * 6;
    const wrapsHanging = reachesMargin && underText;
    if (paragraphBreak) out += "\n\n";
    else if (!startsItem && ((prevFills && sameColumn && !prev.tabular && !line.tabular) || wrapsHanging)) out += out.endsWith("-") ? "\n" : " ";
    else out += "\n";
    out += text;
  }
  return out;
}
