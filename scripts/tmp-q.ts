import { evalDb, closeEvalDb } from "@/lib/eval/run";
import { defaultModel, rankerInputs, scoreParts, probability } from "@/lib/rag/pipeline";
import { rankScore } from "@/lib/rag/extractive/model";
import { askDeps } from "@/lib/server/ask";
const db = await evalDb();
const courseId = db.courses.get(process.env.COURSE!)!;
const history = process.env.H ? [process.env.H] : [];
const { analysis, readings, basis, passages } = await rankerInputs({ courseId, question: process.env.Q!, history }, askDeps(db.handle, courseId));
console.log(JSON.stringify({ parts: analysis.parts, resolution: (analysis as any).resolution ?? (analysis as any).followUp }, null, 1).slice(0, 2500));
const scored = scoreParts(analysis, readings, defaultModel, basis)[0].filter((s) => !s.excluded);
const rows = scored.map((s) => ({ s, r: rankScore(defaultModel, s.features), p: probability(defaultModel, s.features) })).sort((a, b) => b.r - a.r);
for (const { s, r, p } of rows.slice(0, Number(process.env.N ?? 8))) {
  const f = Object.entries(s.features).filter(([, v]) => v).map(([k, v]) => `${k}=${(+v).toFixed(2)}`).join(" ");
  console.log(`${r.toFixed(2)} p${p.toFixed(2)} [${s.unit.kind}] p.${passages[s.passage].pdfPage} ${s.quote.slice(0, 120).replace(/\n/g, " | ")}\n    ${f}`);
}
await closeEvalDb();
