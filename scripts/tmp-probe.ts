// Top units of a question with their features (reading misses of dev data).
import { evalDb } from "@/lib/eval/run";
import { askDeps } from "@/lib/server/ask";
import { rankerInputs, scoreParts, defaultModel } from "@/lib/rag/pipeline";
import { extractiveGenerator } from "@/lib/ai/generators";
const [dir, course, question, want, hist] = process.argv.slice(2);
const db = await evalDb(dir);
const courseId = db.courses.get(course)!;
const deps = askDeps(db.handle, courseId, {}, extractiveGenerator());
const { analysis, readings, basis, passages } = await rankerInputs({ courseId, question, history: hist ? [hist] : [] }, deps);
console.log("parts", JSON.stringify(analysis.parts.map((p) => ({ ask: p.ask, type: p.answerType, focus: p.focus.map((f) => f.lemma) }))));
for (const [i, b] of basis.entries()) console.log("basis", i, b.annotated.text.includes(want ?? "\u0000") ? "HAS" : "", JSON.stringify(b.annotated.text.slice(0, 60)));
console.log("selected", passages.map((p) => p.chunkId.slice(-6)).join(","), "basis", basis.map((b) => b.chunkId.slice(-6)).join(","));
const scored = scoreParts(analysis, readings, defaultModel, basis);
for (const units of scored) {
  const show = (s: any, i: number) => {
    const f = Object.fromEntries(Object.entries(s.features).filter(([, v]) => v !== 0).map(([k, v]) => [k, Math.round((v as number) * 100) / 100]));
    console.log(`#${i} p${passages[s.passage].pdfPage} r=${s.rank.toFixed(2)} p=${s.score.toFixed(3)} ${s.unit.kind} ${JSON.stringify(s.quote.slice(0, 110))}\n     ${JSON.stringify(f)}${s.excluded ? " EXCL " + s.excluded : ""}`);
  };
  units.slice(0, Number(process.env.K ?? 4)).forEach(show);
  if (want) { const i = units.findIndex((s) => s.quote.includes(want)); if (i >= 0) show(units[i], i); else console.log("want not in any unit"); }
}
process.exit(0);
