import "server-only";
import { getDb } from "@/lib/db/client";
import { getTrace, listTraceRecords, listTraces } from "@/lib/db/queries/answers";
import type { AnswerStatus, TraceRecord } from "@/lib/rag/pipeline";

/** Read models of the traces and evaluation pages. */

export async function listCourseTraces(courseId: string) {
  const { db } = await getDb();
  return listTraces(db, { courseId, limit: 200 });
}

export async function getCourseTrace(courseId: string, traceId: string): Promise<TraceRecord | null> {
  const { db } = await getDb();
  const row = await getTrace(db, { courseId, traceId });
  return row ? (row.data as TraceRecord) : null;
}

export interface StatusStats {
  answers: number;
  /** Median time to the first published claim over the answers of this status that had one; null when none did. */
  medianFirstClaimMs: number | null;
  medianTotalMs: number | null;
}

export interface CourseAnswerStats {
  questions: number;
  byStatus: Partial<Record<AnswerStatus, StatusStats>>;
  /** Questions whose first generation needed the retry, and those withheld after it. */
  retried: number;
  medianTotalMs: number | null;
  p95TotalMs: number | null;
  medianFirstClaimMs: number | null;
}

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** What the course's recent answers add up to: how often it answered, abstained or failed, and how fast. Workbench runs are no one's answers and do not count. */
export async function courseAnswerStats(courseId: string): Promise<CourseAnswerStats> {
  const { db } = await getDb();
  const records = (await listTraceRecords(db, { courseId, limit: 1000 })).filter((r) => !r.origin);
  const totals = (rs: TraceRecord[]) => rs.map((r) => r.timings.totalMs).filter((v): v is number => typeof v === "number");
  const firsts = (rs: TraceRecord[]) => rs.map((r) => r.timings.firstClaimMs).filter((v): v is number => typeof v === "number");
  const byStatus: CourseAnswerStats["byStatus"] = {};
  for (const status of new Set(records.flatMap((r) => (r.status ? [r.status] : [])))) {
    const of = records.filter((r) => r.status === status);
    byStatus[status] = { answers: of.length, medianFirstClaimMs: percentile(firsts(of), 0.5), medianTotalMs: percentile(totals(of), 0.5) };
  }
  return {
    questions: records.length,
    byStatus,
    retried: records.filter((r) => r.attempts.length > 1).length,
    medianTotalMs: percentile(totals(records), 0.5),
    p95TotalMs: percentile(totals(records), 0.95),
    medianFirstClaimMs: percentile(firsts(records), 0.5),
  };
}
