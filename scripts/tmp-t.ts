import { evalDb } from "@/lib/eval/run";
import { askDeps } from "@/lib/server/ask";
import { rankerInputs } from "@/lib/rag/pipeline";
import { extractiveGenerator } from "@/lib/ai/generators";
const [dir, course, question, want] = process.argv.slice(2);
const db = await evalDb(dir);
const deps = askDeps(db.handle, db.courses.get(course)!, {}, extractiveGenerator());
const { basis } = await rankerInputs({ courseId: db.courses.get(course)!, question, history: [] }, deps);
for (const b of basis) { const t = b.annotated.text; const i = t.indexOf(want); if (i >= 0) { console.log(JSON.stringify(t.slice(Math.max(0, i - 300), i + 200))); console.log(b.units.filter(u => u.start <= i + 10 && u.end >= i - 200).map(u => `${u.kind}: ${JSON.stringify(t.slice(u.start, u.end))}`).join("\n")); } }
process.exit(0);
