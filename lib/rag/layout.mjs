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
      if (cur && Math.abs(cur.y - y) <= size * 0.5 && x >= cur.x0 - size) {
        const gap = x - cur.x1;
        const needsSpace = (gap > size * 0.15 || cur.pendingSpace) && !cur.text.endsWith(" ") && !item.str.startsWith(" ");
        cur.text += (needsSpace ? " " : "") + item.str;
        if (gap > size * 1.5) {
          cur.tabular = true;
          cur.lastCellX = x;
        }
        cur.x1 = Math.max(cur.x1, x + item.width);
        cur.pendingSpace = false;
      } else {
        cur = { y, x0: x, x1: x + item.width, size, text: item.str, tabular: false, lastCellX: undefined, pendingSpace: false };
        lines.push(cur);
      }
    } else if (item.str && cur) {
      cur.pendingSpace = true;
    }
    if (item.hasEOL) cur = undefined;
  }
  if (lines.length === 0) return "";

  // The right edge of the text block a line belongs to (consecutive lines, same left edge, no
  // paragraph gap): a line reaching it wraps into the next. Block-local, so a full-width
  // paragraph above two columns does not make every column line look short.
  const blockOf = new Array(lines.length).fill(0);
  const blockRight = [lines[0].x1];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const l = lines[i];
    const vgap = prev.y - l.y;
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
    const vgap = prev.y - line.y;
    const paragraphBreak = vgap > prev.size * 1.9 || vgap < -prev.size * 0.5;
    const prevFills = prev.x1 >= columnRight[i - 1] - prev.size * 4;
    const startsItem = /^([•\-–*▪◦●]|\d+[.)]\s|[a-z][.)]\s)/.test(text);
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
