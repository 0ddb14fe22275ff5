/** npm run cards -- --course <slug> [--document T] [--pages 3-9] [--json] — the cards a deck would get, through the web app's code path. */
import { parseArgs } from "node:util";
import { getDb } from "@/lib/db/client";
import { getCourseBySlug } from "@/lib/db/queries/courses";
import { getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { isAppError } from "@/lib/errors";
import { previewCards } from "@/lib/study/decks";
import { sourceLine } from "@/lib/study/export";
import { fail, helpRequested } from "./cli-args";

const usage = "Usage: npm run cards -- --course <slug> [--document TITLE] [--pages FROM-TO] [--json]";

const { values } = parseArgs({
  options: {
    course: { type: "string" },
    document: { type: "string" },
    pages: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
helpRequested(values.help, usage);
if (!values.course) fail(usage);

let pageFrom: number | null = null;
let pageTo: number | null = null;
if (values.pages) {
  const m = /^(\d+)(?:-(\d+))?$/.exec(values.pages.trim());
  if (!m) fail(`--pages must be a page or a range like 3-9 (got “${values.pages}”).`);
  pageFrom = Number(m[1]);
  pageTo = Number(m[2] ?? m[1]);
  if (pageFrom < 1 || pageTo < pageFrom) fail(`--pages must run forwards from page 1 or later (got “${values.pages}”).`);
  if (!values.document) fail("--pages needs --document.");
}

const handle = await getDb();
const course = await getCourseBySlug(handle.db, { slug: values.course });
if (!course) fail(`No course “${values.course}”. Ingest PDFs into it first: npm run ingest -- --course ${values.course} FILE...`);

let documentId: string | null = null;
if (values.document) {
  const wanted = values.document.toLowerCase();
  const docs = (await getDocumentsWithRevisions(handle.db, { courseId: course.id })).filter((d) => d.currentRevisionId);
  const found = docs.filter((d) => d.title.toLowerCase() === wanted);
  const matches = found.length ? found : docs.filter((d) => d.title.toLowerCase().includes(wanted));
  if (matches.length !== 1) fail(matches.length ? `“${values.document}” names ${matches.length} documents: ${matches.map((d) => d.title).join(", ")}.` : `No indexed document “${values.document}” in ${course.slug}.`);
  documentId = matches[0].id;
}

try {
  const { cards, dropped } = await previewCards(handle.db, { courseId: course.id, scope: { documentId, pageFrom, pageTo } });
  for (const c of cards) {
    const source = sourceLine({ documentTitle: c.documentTitle, pdfPage: c.pdfPage, revision: c.revisionNumber });
    if (values.json) console.log(JSON.stringify({ kind: c.kind, front: c.front, back: c.back, answerType: c.answerType, distractors: c.distractors, source, quote: c.quote }));
    else console.log(`[${c.kind}] ${c.front}\n    → ${c.back}\n    ${source}${c.distractors.length ? `\n    distractors: ${c.distractors.join(" | ")}` : ""}\n`);
  }
  // Model-written cards whose quote is not in the notes are never printed, only counted.
  if (values.json) console.log(JSON.stringify({ cards: cards.length, dropped }));
  else console.log(`${cards.length} cards${dropped ? `, ${dropped} dropped: their quote is not in the notes` : ""}`);
} catch (e) {
  if (isAppError(e)) fail(e.message);
  throw e;
} finally {
  handle.client.close();
}
