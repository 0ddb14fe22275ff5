// Reads PDF text with PDFium (WebAssembly, @hyzyla/pdfium) in its own thread. Plain JavaScript
// because Node loads it directly, in the app, the CLI and the tests alike. Besides using a second
// core, the thread holds PDFium's memory: it is capped (workerData.heapMb), and a document that
// needs more ends this thread, never the server.
//
// Protocol, per job: { job, bytes, index, of, maxPages } in, sent to `of` threads at once. Every thread
// opens the document; the first n = min(of, pages ÷ pagesPerThread, at least 1) read pages
// index+1, index+1+n, … Out come { job, type: "page", page, numPages, text } per page in order
// (the reading text layout.mjs rebuilds, not yet normalised), then { job, type: "done", numPages,
// labels }, or { job, type: "error", reason, message, page }
// (reason: "password" | "damaged" | "page_limit" | "out_of_memory"). A document of more than
// maxPages pages is refused once it is open, before any page is read (message: the page count).
// After "out_of_memory" the thread exits: PDFium's heap is not trusted after a failed allocation.
// { job, cancel: true } stops a job after its current page.
import { parentPort, workerData } from "node:worker_threads";
import { PDFiumModule } from "@hyzyla/pdfium";
import { layoutText } from "./layout.mjs";

const MB = 2 ** 20;
// FPDF_GetLastError codes (fpdfview.h).
const ERR_PASSWORD = 4;
const ERR_SECURITY = 5;
// pdf.js's getTextContent thresholds (fractions of the font size), so the items handed to the
// layout are cut where the viewer's pdf.js cuts them.
const TRACKING_SPACE = 0.102;
const SPACE_IN_FLOW_MAX = 0.6;
const NEGATIVE_SPACE = -0.2;
const VERTICAL_SHIFT = 0.25;
// A ligature's glyph is at least this wide (in em); a narrower box is one letter's share of it.
const LIGATURE_MIN = 0.5;
// After a ligature whose end is unknown, a gap is a space only from this width (in em; a word space is a quarter em or more).
const LIGATURE_SPACE = 0.25;

class ReadFailure extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

const cancelled = new Set();
let engine;

parentPort.on("message", (msg) => {
  if (msg.cancel) cancelled.add(msg.job);
  else void run(msg);
});

/** PDFium (compiled by the server, workerData.wasm) started once per thread, its heap growth refused past the budget. */
function startEngine() {
  const cap = workerData.heapMb * MB;
  const state = { refusedGrowth: false };
  return PDFiumModule({
    print: () => {},
    printErr: () => {},
    instantiateWasm(imports, done) {
      const grow = imports.env.emscripten_resize_heap;
      imports.env.emscripten_resize_heap = (size) => {
        if (size >>> 0 > cap) {
          state.refusedGrowth = true;
          return 0;
        }
        return grow(size);
      };
      WebAssembly.instantiate(workerData.wasm, imports).then(done);
      return {};
    },
  }).then((module) => {
    const X = module.wasmExports;
    X.FPDF_InitLibrary();
    const scratch = X.malloc(64);
    return { X, state, scratch, cap };
  });
}

async function run({ job, bytes, index, of, maxPages }) {
  const post = (m) => parentPort.postMessage({ job, ...m });
  let current = null;
  let E;
  let filePtr = 0;
  let doc = 0;
  try {
    E = await (engine ??= startEngine());
    const { X } = E;
    if (X.memory.buffer.byteLength > E.cap) throw new ReadFailure("out_of_memory", "PDFium needs more memory than the budget before any document");
    filePtr = X.malloc(bytes.length);
    if (!filePtr) throw new ReadFailure("out_of_memory", "no memory for the file");
    new Uint8Array(X.memory.buffer).set(bytes, filePtr);
    doc = X.FPDF_LoadMemDocument(filePtr, bytes.length, 0);
    if (!doc) {
      const code = X.FPDF_GetLastError();
      if (E.state.refusedGrowth) throw new ReadFailure("out_of_memory", "no memory to open the file");
      if (code === ERR_PASSWORD || code === ERR_SECURITY) throw new ReadFailure("password", "a password is needed to open it");
      throw new ReadFailure("damaged", `PDFium could not open it (error ${code})`);
    }
    const numPages = X.FPDF_GetPageCount(doc);
    if (maxPages && numPages > maxPages) throw new ReadFailure("page_limit", String(numPages));
    const n = Math.min(of, Math.max(1, Math.floor(numPages / workerData.pagesPerThread)));
    for (let p = index + 1; index < n && p <= numPages && !cancelled.has(job); p += n) {
      current = p;
      post({ type: "page", page: p, numPages, text: layoutText(pageItems(E, doc, p)) });
      // Between pages, let other jobs' pages and cancellations in: one long document must not hold the thread.
      await new Promise(setImmediate);
    }
    current = null;
    post({ type: "done", numPages, labels: index === 0 ? pageLabels(E, doc, numPages) : null });
  } catch (e) {
    if (!E) engine = undefined; // PDFium did not start: the next job tries again
    const failure = classify(e, E);
    post({ type: "error", reason: failure.reason, message: failure.message, page: current });
    if (failure.reason === "out_of_memory") process.exit(1); // ends this thread only
  } finally {
    cancelled.delete(job);
    if (doc) E.X.FPDF_CloseDocument(doc);
    if (filePtr) E.X.free(filePtr);
  }
}

function classify(e, E) {
  if (e instanceof ReadFailure) return e;
  // A trap inside PDFium after its heap was refused: the document needed more than the budget.
  if (E?.state.refusedGrowth) return new ReadFailure("out_of_memory", "PDFium ran out of its memory budget");
  return new ReadFailure("damaged", e?.message ?? String(e));
}

/** Labels by physical page, or null when the document defines none. */
function pageLabels({ X, scratch }, doc, numPages) {
  const labels = [];
  let any = false;
  for (let i = 0; i < numPages; i++) {
    const bytes = X.FPDF_GetPageLabel(doc, i, 0, 0);
    if (bytes <= 2) {
      labels.push("");
      any ||= bytes === 2;
      continue;
    }
    any = true;
    const ptr = bytes > 64 ? X.malloc(bytes) : scratch;
    X.FPDF_GetPageLabel(doc, i, ptr, bytes);
    labels.push(Buffer.from(X.memory.buffer, ptr, bytes - 2).toString("utf16le"));
    if (ptr !== scratch) X.free(ptr);
  }
  return any ? labels : null;
}

const isSpace = (u) => u === 0x20 || (u >= 0x09 && u <= 0x0d) || u === 0xa0 || (u >= 0x2000 && u <= 0x200a) || u === 0x202f || u === 0x205f || u === 0x3000;

/**
 * A glyph its font gives no character for comes back from PDFium as its raw code (a TeX sum sign
 * as "X", an icon as a letter). It is stored as a private-use character, U+F000 + the code, as
 * pdf.js does for symbol fonts: a symbol is there, no letter is invented, the answerer drops it
 * from what it displays like any private-use glyph, and the viewer's matcher lets it stand for
 * whatever pdf.js shows.
 */
const unmapped = (u) => String.fromCodePoint(u <= 0x8ff ? 0xf000 + u : 0xfffd);

const FPDF_PAGEOBJ_TEXT = 1;
const FPDF_PAGEOBJ_FORM = 5;

/** Each text object's place in the content stream, form XObjects' own objects where they are drawn. */
function streamOrder(X, page) {
  const order = new Map();
  const visit = (count, get) => {
    for (let j = 0; j < count; j++) {
      const o = get(j);
      const type = X.FPDFPageObj_GetType(o);
      if (type === FPDF_PAGEOBJ_TEXT) order.set(o, order.size);
      else if (type === FPDF_PAGEOBJ_FORM) visit(X.FPDFFormObj_CountObjects(o), (k) => X.FPDFFormObj_GetObject(o, k));
    }
  };
  visit(X.FPDFPage_CountObjects(page), (j) => X.FPDFPage_GetObject(page, j));
  return order;
}

/**
 * The page's characters in content-stream order: PDFium's text page moves some (a sum sign
 * before the limit drawn above it), pdf.js never does, and the viewer finds quotes in pdf.js's
 * order. Returns char indices; PDFium's own inferred spaces and line breaks are left out.
 */
function charsInStreamOrder(X, page, text) {
  const count = X.FPDFText_CountChars(text);
  const chars = [];
  const rank = new Int32Array(count);
  let order;
  let sorted = true;
  let obj = 0;
  let r = -1;
  for (let i = 0; i < count; i++) {
    if (X.FPDFText_IsGenerated(text, i) === 1) continue;
    const o = X.FPDFText_GetTextObject(text, i);
    if (o !== obj) {
      obj = o;
      order ??= streamOrder(X, page);
      const next = order.get(o) ?? r;
      if (next < r) sorted = false;
      r = next;
    }
    chars.push(i);
    rank[i] = r;
  }
  return sorted ? chars : chars.sort((a, b) => rank[a] - rank[b] || a - b);
}

/**
 * The page's text as positioned runs, cut where pdf.js's getTextContent cuts its items: at a
 * font-size change, a gap wider than 0.6 em (marked by a whitespace item), a step back or a
 * change of baseline (hasEOL when it is a new line). The gaps decide the spaces, as for pdf.js.
 */
function pageItems({ X, scratch }, doc, p) {
  const page = X.FPDF_LoadPage(doc, p - 1);
  if (!page) throw new ReadFailure("damaged", "PDFium could not load the page");
  const text = X.FPDFText_LoadPage(page);
  try {
    if (!text) throw new ReadFailure("damaged", "PDFium could not read the page's text");
    const chars = charsInStreamOrder(X, page, text);
    let f32 = new Float32Array(X.memory.buffer, scratch, 6);
    let f64 = new Float64Array(X.memory.buffer, scratch + 32, 2);
    // pdf.js drops glyphs outside the page's visible box (media box ∩ crop box): so does this.
    X.FPDF_GetPageBoundingBox(page, scratch);
    const [left, top, right, bottom] = f32;
    const items = [];
    let cur = null;
    let last = null;
    let obj = 0;
    let size = 0;
    let dx = 1;
    let dy = 0;
    let endX = 0;
    let endY = 0;
    let ox0 = NaN;
    let oy0 = NaN;
    let sawSpace = false;
    // The first character's box width of the glyph at hand, and whether that glyph is a ligature whose end is unknown (see there).
    let glyphShare = 0;
    let afterLigature = false;
    for (const i of chars) {
      const u = X.FPDFText_GetUnicode(text, i);
      if (isSpace(u)) {
        sawSpace = true;
        continue;
      }
      if (f32.length === 0) {
        f32 = new Float32Array(X.memory.buffer, scratch, 6);
        f64 = new Float64Array(X.memory.buffer, scratch + 32, 2);
      }
      X.FPDFText_GetCharOrigin(text, i, scratch + 32, scratch + 40);
      const ox = f64[0];
      const oy = f64[1];
      // PDFium marks a hyphen that ends a line as U+0002; the page shows "-", and so does pdf.js.
      const ch = X.FPDFText_HasUnicodeMapError(text, i) === 1 ? unmapped(u) : u === 0x02 ? "-" : String.fromCodePoint(u);
      // One glyph mapped to several characters (a ligature's ToUnicode, "ﬁ" as "f" + "i"): same origin, same
      // run. PDFium boxes each character as its share of the glyph (the boxes differ, or are alike but
      // narrower than a ligature: the glyph ends past the first box, by the other shares) or with one
      // box for all, which may be the glyph's or a wide letter's: the glyph's end is then unknown, and a
      // gap after it must be a word space's width to count as one. Else a space would open inside
      // "speciﬁc" or "coeﬃcient".
      if (cur && ox === ox0 && oy === oy0) {
        cur.str += ch;
        X.FPDFText_GetLooseCharBox(text, i, scratch);
        const share = Math.abs(f32[2] - f32[0]) * Math.abs(dx) + Math.abs(f32[1] - f32[3]) * Math.abs(dy);
        if (Math.abs(share - glyphShare) > 0.01 || share < LIGATURE_MIN * size) {
          endX += share * dx;
          endY += share * dy;
          cur.width = (endX - cur.transform[4]) * dx + (endY - cur.transform[5]) * dy;
        } else {
          afterLigature = true;
        }
        continue;
      }
      const o = X.FPDFText_GetTextObject(text, i);
      if (o !== obj) {
        obj = o;
        X.FPDFText_GetMatrix(text, i, scratch);
        const [a, b, c, d] = f32;
        const scale = Math.hypot(a, b) || 1;
        const nextSize = X.FPDFText_GetFontSize(text, i) * Math.hypot(c, d);
        if (cur && Math.abs(nextSize - size) > 1e-3) cur = null;
        size = nextSize;
        dx = a / scale;
        dy = b / scale;
      }
      X.FPDFText_GetLooseCharBox(text, i, scratch);
      const advance = Math.abs(f32[2] - f32[0]) * Math.abs(dx) + Math.abs(f32[1] - f32[3]) * Math.abs(dy);
      glyphShare = advance;
      if (ox + advance < left || ox > right || oy < bottom || oy > top) continue;
      ox0 = ox;
      oy0 = oy;
      if (last) {
        const along = (ox - endX) * dx + (oy - endY) * dy;
        const across = Math.abs((oy - endY) * dx - (ox - endX) * dy);
        const em = last.height || size;
        if (along < NEGATIVE_SPACE * em) {
          if (across > 0.5 * em) last.hasEOL = true;
          cur = null;
        } else if (across > em) {
          last.hasEOL = true;
          cur = null;
        } else if (cur) {
          if (along > SPACE_IN_FLOW_MAX * em || (sawSpace && along <= TRACKING_SPACE * em)) {
            items.push({ str: " ", transform: [size * dx, size * dy, -size * dy, size * dx, endX, endY], width: Math.max(0, along), height: em, hasEOL: false });
            cur = null;
          } else if (sawSpace || along > (afterLigature ? LIGATURE_SPACE : TRACKING_SPACE) * em) {
            cur.str += " ";
          }
          if (cur && across > VERTICAL_SHIFT * em) cur = null;
        }
      }
      sawSpace = false;
      afterLigature = false;
      if (!cur) {
        cur = { str: "", transform: [size * dx, size * dy, -size * dy, size * dx, ox, oy], width: 0, height: size, hasEOL: false };
        items.push(cur);
      }
      cur.str += ch;
      endX = ox + advance * dx;
      endY = oy + advance * dy;
      cur.width = (endX - cur.transform[4]) * dx + (endY - cur.transform[5]) * dy;
      last = cur;
    }
    return items;
  } finally {
    if (text) X.FPDFText_ClosePage(text);
    X.FPDF_ClosePage(page);
  }
}
