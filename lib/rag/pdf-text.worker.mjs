// Runs pdf.js in its own thread. Plain JavaScript because Node loads it directly, in the app, the
// CLI and the tests alike. Besides using a second core, the thread keeps pdf.js's legacy-build
// polyfills (core-js replaces Array.prototype.push and JSON.stringify on Node 20, and defines
// `self` and `navigator`) out of the server's own globals.
//
// Protocol, per job: { job, bytes, pages: "meta" | number[] } in; out come
// { job, type: "meta", numPages, labels }, { job, type: "page", page, items } for each requested
// page in order, { job, type: "done" }, or { job, type: "error", name, message, page }.
// { job, cancel: true } stops a job after its current page.
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";

const pdfjs = import("pdfjs-dist/legacy/build/pdf.mjs");
const cancelled = new Set();

parentPort.on("message", (msg) => {
  if (msg.cancel) cancelled.add(msg.job);
  else void run(msg);
});

async function run({ job, bytes, pages }) {
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
    if (pages === "meta") {
      const labels = doc.numPages > 0 ? await doc.getPageLabels().catch(() => null) : null;
      post({ type: "meta", numPages: doc.numPages, labels });
    } else {
      for (const n of pages) {
        if (cancelled.has(job)) break;
        current = n;
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const items = [];
        for (const i of content.items) {
          if ("str" in i) items.push({ str: i.str, transform: i.transform, width: i.width, height: i.height, hasEOL: i.hasEOL });
        }
        page.cleanup();
        post({ type: "page", page: n, items });
      }
    }
    post({ type: "done" });
  } catch (e) {
    post({ type: "error", name: e?.name ?? "Error", message: e?.message ?? String(e), page: current });
  } finally {
    cancelled.delete(job);
    await doc?.destroy();
  }
}
