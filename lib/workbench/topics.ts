/**
 * What students ask, grouped by topic, and where the notes fall short: the Questions page and its
 * CSV export. Topics are key terms shared between questions (content-word lemmas from the
 * project's language model, lib/rag/text/nlp.ts), so a group can always say why it is a group.
 */
import type { StudentQuestion } from "@/lib/db/queries/questions";
import type { AnswerStatus } from "@/lib/rag/pipeline";
import { contentLemmas } from "@/lib/rag/text/nlp";

export interface TermGroup<T> {
  /** The shared key terms, the one the group was formed by first; empty for the "asked once" group. */
  terms: string[];
  items: T[];
}

/** At this many questions a term shared by more than half of them is too general to form a topic before the specific ones have ("course", "due"). */
const GENERAL_TERM_MIN_ITEMS = 6;
const GENERAL_TERM_SHARE = 0.5;
/** A label names at most this many terms. */
const LABEL_TERMS = 3;

/** Key terms of a text: distinct content lemmas with a letter in them (numbers alone name no topic). */
export function keyTerms(text: string): string[] {
  return [...new Set(contentLemmas(text).filter((l) => /\p{L}/u.test(l)))];
}

/**
 * Groups items greedily by the key term most of the remaining items share: each round takes the
 * term held by the most ungrouped items (specific terms before general ones, ties alphabetical, so
 * the grouping is stable), and its label adds the terms more than half of the group shares. Items sharing no term with any other
 * end in one last group with no terms. Groups come largest first.
 */
export function groupByTerms<T>(items: T[], textOf: (item: T) => string): TermGroup<T>[] {
  const terms = items.map((item) => new Set(keyTerms(textOf(item))));
  const general = new Set<string>();
  if (items.length >= GENERAL_TERM_MIN_ITEMS) {
    for (const [term, n] of counts(terms)) if (n > items.length * GENERAL_TERM_SHARE) general.add(term);
  }
  let left = items.map((_, i) => i);
  const groups: TermGroup<T>[] = [];
  for (;;) {
    const best = [...counts(left.map((i) => terms[i]))]
      .filter(([, n]) => n >= 2)
      .sort((a, b) => Number(general.has(a[0])) - Number(general.has(b[0])) || b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (!best) break;
    const members = left.filter((i) => terms[i].has(best[0]));
    const shared = [...counts(members.map((i) => terms[i]))]
      .filter(([term, n]) => term !== best[0] && n >= 2 && n * 2 > members.length)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([term]) => term);
    groups.push({ terms: [best[0], ...shared].slice(0, LABEL_TERMS), items: members.map((i) => items[i]) });
    left = left.filter((i) => !terms[i].has(best[0]));
  }
  if (left.length) groups.push({ terms: [], items: left.map((i) => items[i]) });
  return groups;
}

function counts(sets: Array<Set<string>>): Map<string, number> {
  const n = new Map<string, number>();
  for (const set of sets) for (const term of set) n.set(term, (n.get(term) ?? 0) + 1);
  return n;
}

/** A topic of the Questions page. */
export interface Topic {
  terms: string[];
  count: number;
  /** Share of the group's questions declined for lack of evidence (insufficient_evidence). */
  declinedShare: number;
  /** Share answered only in part. */
  partialShare: number;
  /** Distinct wordings, newest first. */
  samples: string[];
}

/** Something the notes did not cover: a declined question, or the missing part of a partial answer. */
export interface Gap {
  traceId: string;
  /** What was not covered: the whole question, or the part's own words. */
  text: string;
  /** The question it came from (the same text for a declined question). */
  question: string;
  kind: "declined" | "missing_part";
  /** Why the notes did not answer it, as the student was told (answers from before reasons were kept have none). */
  why?: string;
  askedAt: Date;
}

export interface QuestionOverview {
  total: number;
  /** Questions declined for lack of evidence, and answered only in part. */
  declined: number;
  partial: number;
  topics: Topic[];
  gaps: Array<TermGroup<Gap>>;
  /** Each question's topic label, by trace id (for the export). */
  topicOf: Map<string, string>;
}

export const topicLabel = (terms: string[]) => (terms.length ? terms.join(" · ") : "asked once");

const SAMPLES = 3;

function samplesOf(questions: StudentQuestion[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of questions) {
    const key = q.question.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(q.question);
    if (out.length === SAMPLES) break;
  }
  return out;
}

/** The distinct reasons the parts were missing, in order, or nothing when none was kept. */
function whyOf(parts: StudentQuestion["parts"]): { why?: string } {
  const reasons = [...new Set(parts.flatMap((p) => (p.state === "missing" && p.gap ? [p.gap.text] : [])))];
  return reasons.length ? { why: reasons.join(" ") } : {};
}

/** The gaps in the notes among the questions: declined questions whole, partial answers by their missing parts. */
export function gapsOf(questions: StudentQuestion[]): Gap[] {
  return questions.flatMap((q): Gap[] => {
    const at = { traceId: q.traceId, question: q.question, askedAt: q.askedAt };
    if (q.status === "insufficient_evidence") return [{ ...at, text: q.question, kind: "declined", ...whyOf(q.parts) }];
    if (q.status === "partial") return q.parts.filter((p) => p.state === "missing").map((p) => ({ ...at, text: p.ask, kind: "missing_part" as const, ...whyOf([p]) }));
    return [];
  });
}

/** Questions (newest first) grouped by topic, with their outcomes, and the gaps grouped the same way. */
export function questionOverview(questions: StudentQuestion[]): QuestionOverview {
  // Follow-ups are grouped by what they asked once resolved ("and assignment 3?" → its standalone form).
  const groups = groupByTerms(questions, (q) => q.standalone);
  const count = (qs: StudentQuestion[], status: AnswerStatus) => qs.filter((q) => q.status === status).length;
  const topicOf = new Map<string, string>();
  for (const g of groups) for (const q of g.items) topicOf.set(q.traceId, topicLabel(g.terms));
  return {
    total: questions.length,
    declined: count(questions, "insufficient_evidence"),
    partial: count(questions, "partial"),
    topics: groups.map((g) => ({
      terms: g.terms,
      count: g.items.length,
      declinedShare: count(g.items, "insufficient_evidence") / g.items.length,
      partialShare: count(g.items, "partial") / g.items.length,
      samples: samplesOf(g.items),
    })),
    gaps: groupByTerms(gapsOf(questions), (gap) => gap.text),
    topicOf,
  };
}

/** A spreadsheet cell: quoted, and a leading formula character neutralised so a student's text cannot run as a formula. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The questions as CSV, one row a question, newest first; nothing names the student who asked. */
export function questionsCsv(questions: StudentQuestion[], overview: QuestionOverview): string {
  const header = ["asked_at", "topic", "status", "question", "missing_parts", "why_missing", "trace_id"];
  const rows = questions.map((q) => [
    q.askedAt.toISOString(),
    overview.topicOf.get(q.traceId) ?? "",
    q.status,
    q.question,
    q.parts.filter((p) => p.state === "missing").map((p) => p.ask).join(" | "),
    q.parts.filter((p) => p.state === "missing").map((p) => p.gap?.text ?? "").join(" | "),
    q.traceId,
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
