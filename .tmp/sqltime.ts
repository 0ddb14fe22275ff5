import { answerQuestion } from "@/lib/rag/pipeline";
import { openTempDb } from "@/lib/db/temp";
import { courseOf, questions, percentile } from "../bench/questions";
import { databasePorts, defaultAskSettings } from "@/lib/server/ask";
import { extractiveGenerator } from "@/lib/rag/pipeline";
import { countTokens } from "@/lib/ai/tokenizer";

console.log("open"); const db = await openTempDb(); console.log("opened");
const { courseId } = await courseOf(db, 100_000); console.log("built");
const stats = new Map<string, number[]>();
const orig = db.client.execute.bind(db.client);
let perQ = 0;
const wrapped = async (stmt: any) => {
  const sql = typeof stmt === "string" ? stmt : stmt.sql;
  const key = sql.replace(/\s+/g, " ").slice(0, 90);
  const t0 = performance.now();
  const r = await orig(stmt);
  const dt = performance.now() - t0;
  perQ += dt;
  (stats.get(key) ?? stats.set(key, []).get(key)!).push(dt);
  return r;
};
const timed = new Proxy(db.client, { get: (t, p) => (p === "execute" ? wrapped : Reflect.get(t, p)) });
const deps: any = { retrievePorts: databasePorts({ ...db, client: timed } as any, courseId), generator: extractiveGenerator(), countTokens, settings: defaultAskSettings, newTraceId: () => "bench" };
const qs = questions();
const run = async (q: string) => { const it = answerQuestion({ courseId, question: q, history: [] }, deps); while (!(await it.next()).done); };
for (const q of qs.slice(0, 20)) await run(q);
stats.clear();
const tot: number[] = []; const sqlT: number[] = [];
for (const q of qs) { perQ = 0; const t0 = performance.now(); await run(q); tot.push(performance.now() - t0); sqlT.push(perQ); }
const s = (xs: number[]) => [...xs].sort((a, b) => a - b);
console.log("total p50/p95", percentile(s(tot), 50).toFixed(1), percentile(s(tot), 95).toFixed(1), "sql p50/p95", percentile(s(sqlT), 50).toFixed(1), percentile(s(sqlT), 95).toFixed(1));
const rows = [...stats].map(([k, v]) => ({ k, n: v.length, sum: v.reduce((a, b) => a + b, 0), p95: percentile(s(v), 95) })).sort((a, b) => b.sum - a.sum);
for (const r of rows.slice(0, 15)) console.log(r.sum.toFixed(0).padStart(6), "ms", String(r.n).padStart(5), "x p95", r.p95.toFixed(2).padStart(6), r.k);
db.dispose();
