/**
 * pdf.js in the browser, loaded on first use. The worker is bundled from the installed
 * pdfjs-dist package (a module worker the bundler emits as its own chunk): nothing comes from
 * a CDN and nothing is downloaded at run time.
 */
import type { PDFDocumentProxy } from "pdfjs-dist";

type Pdfjs = typeof import("pdfjs-dist");

let pdfjsPromise: Promise<Pdfjs> | null = null;

export function loadPdfjs(): Promise<Pdfjs> {
  if (!pdfjsPromise) {
    pdfjsPromise = import("pdfjs-dist").then((pdfjs) => {
      if (!pdfjs.GlobalWorkerOptions.workerPort) {
        pdfjs.GlobalWorkerOptions.workerPort = new Worker(new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url), { type: "module" });
      }
      return pdfjs;
    });
    pdfjsPromise.catch(() => {
      pdfjsPromise = null; // let a later attempt retry
    });
  }
  return pdfjsPromise;
}

export class PdfLoadError extends Error {}

const documents = new Map<string, Promise<PDFDocumentProxy>>();

/** One parsed document per URL (revision files never change, so the cache never goes stale). */
export function loadPdfDocument(url: string): Promise<PDFDocumentProxy> {
  let doc = documents.get(url);
  if (!doc) {
    doc = (async () => {
      const res = await fetch(url);
      if (!res.ok) {
        throw new PdfLoadError(res.status === 404 ? "This revision's file is no longer available." : "The PDF could not be downloaded.");
      }
      const data = new Uint8Array(await res.arrayBuffer());
      const pdfjs = await loadPdfjs();
      return pdfjs.getDocument({ data, isEvalSupported: false }).promise;
    })();
    documents.set(url, doc);
    doc.catch(() => documents.delete(url));
  }
  return doc;
}
