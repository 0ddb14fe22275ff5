// Runs pdf.js in its own thread. Plain JavaScript because Node loads it directly, in the app, the
// CLI and the tests alike. Besides using a second core, the thread keeps pdf.js's legacy-build
// polyfills (core-js replaces Array.prototype.push and JSON.stringify on Node 20, and defines
// `self` and `navigator`) out of the server's own globals.
//
// Protocol, per job: { job, bytes, index, of, maxPages } in, sent to `of` threads at once. Every thread
// opens the document; the first n = min(of, pages ÷ pagesPerThread, at least 1) read pages
// index+1, index+1+n, … Out come { job, type: "page", page, numPages, items } per page in order,
// then { job, type: "done", numPages, labels }, or { job, type: "error", name, message, page }. A
// document of more than maxPages pages is refused once it is open, before any page is read
// (name "PageLimitError", message the page count).
// { job, cancel: true } stops a job after its current page.
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";

const pdfjs = import("pdfjs-dist/legacy/build/pdf.mjs");
const cancelled = new Set();

parentPort.on("message", (msg) => {
  if (msg.cancel) cancelled.add(msg.job);
  else void run(msg);
});

async function run({ job, bytes, index, of, maxPages }) {
  const post = (m) => parentPort.postMessage({ job, ...m });
  let current = null;
  let doc;
  try {
    const { getDocument } = await pdfjs;
    doc = await getDocument({
      data: bytes,
      standardFontDataUrl: join(workerData.pdfjsRoot, "standard_fonts") + "/",
      useSystemFonts: false,
      disableFontFace: true,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
    const { numPages } = doc;
    if (maxPages && numPages > maxPages) {
      post({ type: "error", name: "PageLimitError", message: String(numPages), page: null });
      return;
    }
    const n = Math.min(of, Math.max(1, Math.floor(numPages / workerData.pagesPerThread)));
    for (let p = index + 1; index < n && p <= numPages && !cancelled.has(job); p += n) {
      current = p;
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const items = [];
      for (const i of content.items) {
        if ("str" in i) items.push({ str: i.str, transform: i.transform, width: i.width, height: i.height, hasEOL: i.hasEOL });
      }
      page.cleanup();
      post({ type: "page", page: p, numPages, items });
    }
    current = null;
    const labels = index === 0 && numPages > 0 ? await doc.getPageLabels().catch(() => null) : null;
    post({ type: "done", numPages, labels });
  } catch (e) {
    post({ type: "error", name: e?.name ?? "Error", message: e?.message ?? String(e), page: current });
  } finally {
    cancelled.delete(job);
    await doc?.destroy();
  }
}
