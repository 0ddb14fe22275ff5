/**
 * npm run bench -- squad — answer quality on a SQuAD 2.0 development slice (three whole articles,
 * 401 answerable and 435 unanswerable questions; ../shared/bench/squad/dev-slice.json).
 *
 * Each article is one course holding one PDF, one paragraph a page; every question goes through
 * the real question path (`ask`). Printed: answerable questions answered right (a citation on the
 * gold page whose quote contains a gold answer), the plain BM25 sentence baseline of SOURCES.md on
 * the same questions in the same process, unanswerable questions declined, a per-article
 * breakdown and the question path's latency. `--json` (or BENCH_JSON=1) also prints the figures as JSON.
 *
 * Data: SQuAD 2.0 (Rajpurkar, Jia & Liang, ACL 2018), CC BY-SA 4.0.
 */
import { eq } from "drizzle-orm";
import { documents, pages } from "@/lib/db/schema";
import type { AnswerStatus } from "@/lib/rag/pipeline";
import { ask, askDeps } from "@/lib/server/ask";
import { bm25SentenceBaseline, buildSquadDb, loadSquad, scoreSquadAnswer, squadCases, squadMatchKey, SQUAD_ATTRIBUTION, SQUAD_PATH, type SquadDb } from "@/lib/eval/squad";

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)}%`);
const ratio = (n: number, d: number) => `${pct(n, d)} (${n}/${d})`;

interface Tally {
  answerable: number;
  right: number;
  /** Right by the first claim's citations alone (an answer may add a close second claim). */
  firstRight: number;
  baseline: number;
  baselineOnPage: number;
  unanswerable: number;
  declined: number;
  errors: number;
}
const tally = (): Tally => ({ answerable: 0, right: 0, firstRight: 0, baseline: 0, baselineOnPage: 0, unanswerable: 0, declined: 0, errors: 0 });

/** "article#pdfPage" → the stored page text in squadMatchKey form. */
async function storedPages(db: SquadDb): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [title, courseId] of db.courses) {
    for (const doc of await db.handle.db.select().from(documents).where(eq(documents.courseId, courseId))) {
      if (!doc.currentRevisionId) continue;
      for (const p of await db.handle.db.select().from(pages).where(eq(pages.revisionId, doc.currentRevisionId))) out.set(`${title}#${p.pdfPage}`, squadMatchKey(p.text));
    }
  }
  return out;
}

const wordsIn = (text: string) => text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function benchSquad(): Promise<void> {
  const json = process.argv.includes("--json") || process.env.BENCH_JSON === "1";
  const articles = loadSquad(SQUAD_PATH);
  const started = performance.now();

  // The reference first: it needs no database.
  const baseline = new Map(bm25SentenceBaseline(articles).map((b) => [b.id, b]));

  const db = await buildSquadDb({ articles });
  try {
    const cases = squadCases(articles, db.courses);
    console.log(`\n## SQuAD 2.0 answers: ${articles.length} articles, ${articles.reduce((n, a) => n + a.paragraphs.length, 0)} paragraphs (one a page), ${cases.length} questions\n`);
    console.log(`Data: ${SQUAD_ATTRIBUTION}`);
    // The ceiling: a gold answer must be readable on its stored page, or no answer can score.
    const pageTexts = await storedPages(db);
    const answerable = cases.filter((c) => c.answerable);
    const onPage = answerable.filter((c) => c.answers.some((a) => (pageTexts.get(`${c.article}#${c.pdfPage}`) ?? "").includes(squadMatchKey(a)))).length;
    console.log(`Gold answer readable on its stored page: ${ratio(onPage, answerable.length)}.`);
    console.log(`Database built in ${db.buildSeconds.toFixed(1)} s. Reference: plain BM25 over each article's sentences (SOURCES.md), same questions, same process.\n`);

    const total = tally();
    const byArticle = new Map(articles.map((a) => [a.title, tally()]));
    const statuses = new Map<AnswerStatus | "error", number>();
    const times: number[] = [];
    const errors: string[] = [];
    let generator = "";
    // Words quoted for each answerable question answered, beside the baseline's one sentence: a longer quote holds an answer more often.
    const quotedWords: number[] = [];
    const baselineWords: number[] = [];

    for (const c of cases) {
      const per = byArticle.get(c.article)!;
      const b = baseline.get(c.id)!;
      for (const t of [total, per]) {
        if (c.answerable) {
          t.answerable++;
          if (b.containsAnswer) t.baseline++;
          if (b.containsAnswer && b.pdfPage === c.pdfPage) t.baselineOnPage++;
        } else t.unanswerable++;
      }
      const t0 = performance.now();
      try {
        const { answer } = await ask(db.handle, { courseId: c.courseId!, question: c.question, history: [] }, askDeps(db.handle, c.courseId!));
        times.push(performance.now() - t0);
        generator ||= answer.generator;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const right = scoreSquadAnswer(answer, c);
        const firstRight = c.answerable && scoreSquadAnswer({ status: answer.status, parts: answer.parts.slice(0, 1).map((p) => ({ ...p, claims: p.claims.slice(0, 1) })) }, c);
        if (c.answerable && answer.status !== "insufficient_evidence") {
          quotedWords.push(answer.parts.flatMap((p) => p.claims.flatMap((cl) => cl.citations)).reduce((n, cit) => n + wordsIn(cit.quote), 0));
          baselineWords.push(wordsIn(b.sentence));
        }
        for (const t of [total, per]) {
          if (right && c.answerable) t.right++;
          if (firstRight) t.firstRight++;
          if (right && !c.answerable) t.declined++;
        }
      } catch (e) {
        statuses.set("error", (statuses.get("error") ?? 0) + 1);
        for (const t of [total, per]) t.errors++;
        if (errors.length < 5) errors.push(`${c.id}: ${(e as Error).stack?.split("\n").slice(0, 3).join(" | ") ?? String(e)}`);
      }
    }

    const sorted = [...times].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    console.log(`Generator: ${generator || "(no answer)"}\n`);
    console.log("| | answerable right (gold page + quote has a gold answer) | … by the first claim alone | BM25 top sentence has a gold answer | … and is on the gold page | unanswerable declined | errors |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    const row = (name: string, t: Tally) =>
      console.log(`| ${name} | ${ratio(t.right, t.answerable)} | ${ratio(t.firstRight, t.answerable)} | ${ratio(t.baseline, t.answerable)} | ${ratio(t.baselineOnPage, t.answerable)} | ${ratio(t.declined, t.unanswerable)} | ${t.errors} |`);
    for (const [title, t] of byArticle) row(title, t);
    row("**all**", total);
    console.log(`\nWords quoted per answerable question answered: mean ${mean(quotedWords).toFixed(1)}, median ${percentile([...quotedWords].sort((a, b) => a - b), 50)} (the BM25 sentence for the same questions: mean ${mean(baselineWords).toFixed(1)}, median ${percentile([...baselineWords].sort((a, b) => a - b), 50)}).`);
    console.log(`Statuses: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(", ")}`);
    console.log(`Question path: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${times.length} questions; whole run ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    if (errors.length) console.log(`\nFirst errors from the question path:\n${errors.map((e) => `  ${e}`).join("\n")}`);
    console.log(`\n${SQUAD_ATTRIBUTION}`);

    if (json) {
      console.log(
        JSON.stringify({
          generator,
          answerableRight: { n: total.right, of: total.answerable },
          firstClaimRight: { n: total.firstRight, of: total.answerable },
          baseline: { n: total.baseline, of: total.answerable },
          baselineOnGoldPage: { n: total.baselineOnPage, of: total.answerable },
          unanswerableDeclined: { n: total.declined, of: total.unanswerable },
          errors: total.errors,
          byArticle: Object.fromEntries(byArticle),
          statuses: Object.fromEntries(statuses),
          quotedWordsMean: mean(quotedWords),
          baselineWordsMean: mean(baselineWords),
          p50Ms: p50,
          p95Ms: p95,
          buildSeconds: db.buildSeconds,
          attribution: SQUAD_ATTRIBUTION,
        }),
      );
    }
  } finally {
    db.dispose();
  }
}
