import { existsSync } from "node:fs";
import { countTokens } from "@/lib/ai/tokenizer";
import { extractiveGenerator } from "@/lib/ai/generators";
import { openDb, prepareDb } from "@/lib/db/client";
import { answerQuestion } from "@/lib/rag/pipeline";
import { databasePorts, defaultAskSettings } from "@/lib/server/ask";
import { courseOf, questions } from "./bench/questions";
const h = openDb("file:/tmp/b100k/study.db"); await prepareDb(h);
const courseId = String((await h.client.execute("select id from courses limit 1")).rows[0].id);
const deps = { retrievePorts: databasePorts(h, courseId), generator: extractiveGenerator(), countTokens, settings: defaultAskSettings, newTraceId: () => "x" };
const qs = questions();
const sums: Record<string, number[]> = {};
for (const q of qs) {
  const it = answerQuestion({ courseId, question: q, history: [] }, deps);
  let r; while (!(r = await it.next()).done);
  for (const [k, v] of Object.entries(r.value.trace.timings)) (sums[k] ??= []).push(v as number);
}
for (const [k, v] of Object.entries(sums)) { v.sort((a,b)=>a-b); console.log(k, "p50", v[Math.floor(v.length/2)].toFixed(1), "p95", v[Math.floor(v.length*0.95)].toFixed(1)); }
