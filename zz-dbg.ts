import { readFileSync } from "node:fs";
import { extractPdf } from "@/lib/rag/extract";
const e = await extractPdf(readFileSync("../shared/corpus/cs430-operating-systems-syllabus.pdf"));
const t = e.pages[0].text; const i = t.indexOf("Textbook"); console.log(JSON.stringify(t.slice(i - 100, i + 200)));
const { generateExtractive } = await import("@/lib/rag/generate-extractive");
const p = { chunkId: "c", revisionId: "r", documentId: "d", documentTitle: "cs430", revisionNumber: 1, isCorrection: false, uploadedAt: "", pdfPage: 1, pageLabel: null, text: t.slice(i - 100, i + 200), charStart: 0, label: "S1" };
console.log(JSON.stringify(generateExtractive({ question: "what textbook do we use?", passages: [p] }).parts));
const demo = "Week Topic\n8 Transactions and concurrency control\n9 Storage, files and indexes\n10 Query processing";
console.log(JSON.stringify(generateExtractive({ question: "what topic do we cover in week 9?", passages: [{ ...p, text: demo }] }).parts));
