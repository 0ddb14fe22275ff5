/**
 * The SQuAD 2.0 answer benchmark's data: a development slice of SQuAD 2.0 (three whole articles,
 * ../shared/bench/squad/dev-slice.json), its loader, a course database built from it (one PDF per
 * article, one paragraph a page), the scoring rule and the plain BM25 sentence baseline described
 * in ../shared/bench/SOURCES.md.
 *
 * Data attribution: SQuAD 2.0 — Rajpurkar, Jia and Liang, "Know What You Don't Know: Unanswerable
 * Questions for SQuAD", ACL 2018 — released under CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/).
 * Keep this attribution wherever the data or figures from it appear.
 *
 * Transliteration: the PDFs are set in Helvetica, which only encodes WinAnsi. Before a paragraph is
 * written, `transliterate` replaces what WinAnsi cannot encode (Greek letters by their names, "⊆" by
 * "<=", "√" by "sqrt", the builder's own substitutes such as "≠" → "!=", accents stripped as a last
 * resort, "?" for anything else) and drops invisible characters. Gold answers go through the same
 * function (squadCases, scoreSquadAnswer), so a gold answer is still found on its page.
 */
import "server-only";
import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { DbHandle } from "@/lib/db/client";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { env } from "@/lib/env";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { ingestFiles } from "@/lib/ingest/ingest-files";
import { buildPdf } from "@/lib/pdf/build";
import type { Answer } from "@/lib/rag/pipeline";
import { normalizeForMatch } from "./metrics";

/** The SQuAD 2.0 slice: ../shared/bench/squad/dev-slice.json beside the repository (as lib/pdf/corpus.ts finds the corpus). */
export const SQUAD_PATH = resolve(fileURLToPath(new URL("../..", import.meta.url)), "../shared/bench/squad/dev-slice.json");

export const SQUAD_ATTRIBUTION =
  'SQuAD 2.0 (Rajpurkar, Jia & Liang, "Know What You Don\'t Know: Unanswerable Questions for SQuAD", ACL 2018), CC BY-SA 4.0.';

// ─── Loading ────────────────────────────────────────────────────────────────────────────────

const answerSchema = z.object({ text: z.string().min(1), answer_start: z.number().int().min(0) });
const qaSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  is_impossible: z.boolean(),
  answers: z.array(answerSchema),
  plausible_answers: z.array(answerSchema).optional(),
});
const fileSchema = z.object({
  version: z.string(),
  data: z
    .array(
      z.object({
        title: z.string().min(1),
        paragraphs: z.array(z.object({ context: z.string().min(1), qas: z.array(qaSchema) })).min(1),
      }),
    )
    .min(1),
});

export interface SquadQuestion {
  id: string;
  question: string;
  answerable: boolean;
  /** Gold answers as in the file (deduplicated, file order); empty for an unanswerable question. */
  answers: string[];
  /** The "plausible" (wrong) answers of an unanswerable question, when the file has them. */
  plausibleAnswers: string[];
}

export interface SquadParagraph {
  context: string;
  questions: SquadQuestion[];
}

export interface SquadArticle {
  /** As in the file, e.g. "Sky_(United_Kingdom)". */
  title: string;
  paragraphs: SquadParagraph[];
}

/** The slice file, or a clear error naming the expected path when it is absent. */
export function requireSquad(path: string = SQUAD_PATH): string {
  if (!existsSync(path)) {
    throw new Error(
      `The SQuAD 2.0 slice is missing: expected ${path}` +
        (path === SQUAD_PATH ? " (../shared/bench/squad/dev-slice.json relative to the repository)" : "") +
        ". Restore it (see shared/bench/SOURCES.md) next to the repository.",
    );
  }
  return path;
}

const dedupe = (xs: string[]) => [...new Set(xs)];

/**
 * Reads and validates a SQuAD 2.0 file. A malformed file fails with the file name and the reason
 * (the JSON path of the offending field, a duplicate id, an answer whose offset does not point at its text…).
 */
export function loadSquad(path: string = SQUAD_PATH): SquadArticle[] {
  const name = basename(requireSquad(path));
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`${name}: not a SQuAD 2.0 file: not JSON (${(e as Error).message})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const reasons = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`${name}: not a SQuAD 2.0 file: ${reasons.join("; ")}${parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : ""}`);
  }
  const ids = new Set<string>();
  return parsed.data.data.map((article, ai) => ({
    title: article.title,
    paragraphs: article.paragraphs.map((p, pi) => ({
      context: p.context,
      questions: p.qas.map((qa, qi) => {
        const where = `${name}: data.${ai}.paragraphs.${pi}.qas.${qi} (id ${qa.id})`;
        if (ids.has(qa.id)) throw new Error(`${where}: duplicate question id`);
        ids.add(qa.id);
        if (!qa.is_impossible && qa.answers.length === 0) throw new Error(`${where}: an answerable question (is_impossible false) without answers`);
        if (qa.is_impossible && qa.answers.length > 0) throw new Error(`${where}: an unanswerable question (is_impossible true) with answers`);
        for (const a of [...qa.answers, ...(qa.plausible_answers ?? [])]) {
          if (p.context.slice(a.answer_start, a.answer_start + a.text.length) !== a.text) {
            throw new Error(`${where}: answer "${a.text}" is not at answer_start ${a.answer_start} of its paragraph`);
          }
        }
        return {
          id: qa.id,
          question: qa.question,
          answerable: !qa.is_impossible,
          answers: dedupe(qa.answers.map((a) => a.text)),
          plausibleAnswers: dedupe((qa.plausible_answers ?? []).map((a) => a.text)),
        };
      }),
    })),
  }));
}

// ─── Transliteration to WinAnsi ─────────────────────────────────────────────────────────────

/** What Helvetica (WinAnsi) encodes: printable ASCII, Latin-1 and the cp1252 extras. */
const WINANSI = new Set<number>([
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i),
  ...[..."€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"].map((c) => c.codePointAt(0)!),
]);

const GREEK = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega".split(" ");
const GREEK_UPPER = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ";
const GREEK_LOWER = "αβγδεζηθικλμνξοπρστυφχψω";

/** Explicit substitutes: the PDF builder's own (lib/pdf/build.ts), Greek letters by name, and a few maths signs. */
const TRANSLITERATIONS: Record<string, string> = {
  "\uFB00": "ff", "\uFB01": "fi", "\uFB02": "fl", "\uFB03": "ffi", "\uFB04": "ffl",
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u2032": "'", "\u2033": '"',
  "\u2190": "<-", "\u2192": "->", "\u21D2": "=>", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2248": "~",
  "\u2286": "<=", "\u2287": ">=", "\u2282": "<", "\u2283": ">", "\u221A": "sqrt", "\u221E": "infinity",
  "\u03C2": "sigma",
  ...Object.fromEntries([...GREEK_UPPER].map((c, i) => [c, GREEK[i]])),
  ...Object.fromEntries([...GREEK_LOWER].map((c, i) => [c, GREEK[i].toLowerCase()])),
};

/**
 * Text Helvetica can draw, the same way every time (idempotent): NFC; invisible characters
 * (soft hyphen, zero-width spaces) dropped, as the ingestion's normalisation drops them; the
 * substitutes above; then accents stripped from anything still unencodable; then "?".
 */
export function transliterate(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC").replace(/[\u00AD\u200B-\u200D\uFEFF]/g, "")) {
    const cp = ch.codePointAt(0)!;
    if (WINANSI.has(cp) || /\s/.test(ch)) out += ch;
    else if (TRANSLITERATIONS[ch] !== undefined) out += TRANSLITERATIONS[ch];
    else {
      const bare = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += bare && [...bare].every((c) => WINANSI.has(c.codePointAt(0)!)) ? bare : "?";
    }
  }
  return out;
}

/** The form quotes and gold answers are compared in: transliterated, then lowercased with whitespace collapsed (plus the golden set's dash/quote folding). */
export function squadMatchKey(text: string): string {
  return normalizeForMatch(transliterate(text));
}

// ─── The course database ────────────────────────────────────────────────────────────────────

/** "Sky_(United_Kingdom)" → "Sky (United Kingdom)". */
export const articleDisplayTitle = (title: string) => title.replace(/_/g, " ").trim();
/** "Sky_(United_Kingdom)" → "squad-sky-united-kingdom". */
export const articleSlug = (title: string) =>
  `squad-${title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "article"}`;

/** One PDF for an article: page i + 1 holds paragraph i (transliterated), nothing else but the page number. */
export function articlePdf(article: SquadArticle): Promise<Uint8Array> {
  return buildPdf({
    title: articleDisplayTitle(article.title),
    pages: article.paragraphs.map((p) => ({ blocks: [{ kind: "paragraph" as const, text: transliterate(p.context) }] })),
  });
}

export interface SquadDb {
  handle: DbHandle;
  /** Article title (as in the file) → course id. */
  courses: Map<string, string>;
  /** Seconds spent building the PDFs and ingesting them. */
  buildSeconds: number;
  dispose: () => void;
}

/** A fresh temporary database with each article as its own course (one document, one paragraph a page). */
export async function buildSquadDb({ path, articles }: { path?: string; articles?: SquadArticle[] } = {}): Promise<SquadDb> {
  const list = articles ?? loadSquad(path);
  const started = performance.now();
  const handle = await openTempDb();
  try {
    const deps = workerDepsFromEnv();
    const courses = new Map<string, string>();
    for (const article of list) {
      const title = articleDisplayTitle(article.title);
      const slug = articleSlug(article.title);
      const course = await ensureCourse(handle.db, { slug, title });
      const [outcome] = await ingestFiles(handle, deps, {
        courseId: course.id,
        files: [{ name: `${slug}.pdf`, bytes: await articlePdf(article) }],
        title,
        maxBytes: env.MAX_UPLOAD_BYTES,
      });
      if (outcome.status !== "ready") throw new Error(`Could not index the SQuAD article “${article.title}”: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""}`);
      if (outcome.pages !== article.paragraphs.length) {
        throw new Error(`The SQuAD article “${article.title}” has ${article.paragraphs.length} paragraphs but its PDF was indexed with ${outcome.pages} pages.`);
      }
      courses.set(article.title, course.id);
    }
    return { handle, courses, buildSeconds: (performance.now() - started) / 1000, dispose: handle.dispose };
  } catch (e) {
    handle.dispose();
    throw e;
  }
}

// ─── Cases and scoring ──────────────────────────────────────────────────────────────────────

export interface SquadCase {
  id: string;
  /** Article title as in the file. */
  article: string;
  courseId?: string;
  question: string;
  answerable: boolean;
  /** The gold page: paragraph index + 1. */
  pdfPage: number;
  /** Gold answers, transliterated like the PDF text, deduplicated; empty when unanswerable. */
  answers: string[];
}

/** Every question as one flat case, in file order; with `courses` (from buildSquadDb) each carries its course id. */
export function squadCases(articles: SquadArticle[], courses?: Map<string, string>): SquadCase[] {
  return articles.flatMap((article) =>
    article.paragraphs.flatMap((p, pi) =>
      p.questions.map((q) => ({
        id: q.id,
        article: article.title,
        ...(courses?.has(article.title) ? { courseId: courses.get(article.title)! } : {}),
        question: q.question,
        answerable: q.answerable,
        pdfPage: pi + 1,
        answers: dedupe(q.answers.map(transliterate)),
      })),
    ),
  );
}

/**
 * Right or wrong. Answerable: the answer is "answered" or "partial" and some citation is on the
 * gold page with a quote that contains a gold answer (compared by squadMatchKey). Unanswerable:
 * the answer is declined ("insufficient_evidence").
 */
export function scoreSquadAnswer(answer: Pick<Answer, "status" | "parts">, c: Pick<SquadCase, "answerable" | "pdfPage" | "answers">): boolean {
  if (!c.answerable) return answer.status === "insufficient_evidence";
  if (answer.status !== "answered" && answer.status !== "partial") return false;
  const gold = c.answers.map(squadMatchKey).filter(Boolean);
  return answer.parts.some((part) =>
    part.claims.some((claim) =>
      claim.citations.some((cit) => {
        if (cit.pdfPage !== c.pdfPage) return false;
        const quote = squadMatchKey(cit.quote);
        return gold.some((g) => quote.includes(g));
      }),
    ),
  );
}

// ─── The BM25 sentence baseline (SOURCES.md) ────────────────────────────────────────────────

/**
 * A small English stopword list: Lucene's classic English set plus the question words. SOURCES.md
 * does not give its list; on this slice the figure moves between about 270 and 288 of 401 with the
 * choice of list (Lucene's alone ≈ 273, no stopwords ≈ 282), so only "close to 277" is meaningful.
 */
const STOPWORDS = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with what which who when where why how".split(" "),
);

export function bm25Tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOPWORDS.has(t));
}

/** Sentences of a paragraph: split after . ! ? followed by whitespace and a capital letter. */
export function splitSentences(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?])\s+(?=\p{Lu})/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface BaselineResult {
  id: string;
  article: string;
  answerable: boolean;
  /** The article's top sentence for the question ("" when the article has no sentence sharing a word). */
  sentence: string;
  /** Page (paragraph index + 1) of that sentence. */
  pdfPage: number;
  /** The sentence contains a gold answer (false for every unanswerable question). */
  containsAnswer: boolean;
}

const K1 = 1.2;
const B = 0.75;

/**
 * Plain BM25 over each article's sentences (k1 1.2, b 0.75, lowercase alphanumeric tokens, the
 * stopwords above, no stemming); the top sentence of the question's article is its answer, the
 * first one in article order on a tie. It never declines. Run on the transliterated text, the
 * text the course PDFs hold.
 */
export function bm25SentenceBaseline(articles: SquadArticle[]): BaselineResult[] {
  const out: BaselineResult[] = [];
  for (const article of articles) {
    const sentences = article.paragraphs.flatMap((p, pi) => splitSentences(transliterate(p.context)).map((text) => ({ text, pdfPage: pi + 1 })));
    const docs = sentences.map((s) => {
      const tf = new Map<string, number>();
      const tokens = bm25Tokens(s.text);
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { tf, length: tokens.length };
    });
    const n = docs.length;
    const avgdl = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, n);
    const df = new Map<string, number>();
    for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const idf = (t: string) => {
      const f = df.get(t) ?? 0;
      return Math.log(1 + (n - f + 0.5) / (f + 0.5));
    };
    const cases = squadCases([article]);
    for (const c of cases) {
      const terms = bm25Tokens(c.question);
      let best = -1;
      let bestScore = 0;
      docs.forEach((d, i) => {
        let score = 0;
        for (const t of terms) {
          const f = d.tf.get(t);
          if (!f) continue;
          score += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgdl));
        }
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      });
      const top = best >= 0 ? sentences[best] : { text: "", pdfPage: 0 };
      const key = squadMatchKey(top.text);
      out.push({
        id: c.id,
        article: c.article,
        answerable: c.answerable,
        sentence: top.text,
        pdfPage: top.pdfPage,
        containsAnswer: c.answerable && top.text !== "" && c.answers.some((a) => key.includes(squadMatchKey(a))),
      });
    }
  }
  return out;
}
