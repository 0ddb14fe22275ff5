/** npm run ask -- --course <slug> [--json] [--k N] [--min-score X] [--max-passages N] "question" | --file F.jsonl */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getCourseBySlug } from "@/lib/db/queries/courses";
import { ask, askDeps } from "@/lib/server/ask";
import type { Answer, AskSettings } from "@/lib/rag/pipeline";
import { fail, helpRequested } from "./cli-args";
import { logToStderr } from "@/lib/server/log";

// Stdout is the result; log lines (the database opening) go to stderr.
logToStderr();

const usage = 'Usage: npm run ask -- --course <slug> [--json] [--k N] [--min-score X] [--max-passages N] ("question" | --file questions.jsonl)';

const { values, positionals } = parseArgs({
  options: {
    course: { type: "string" },
    json: { type: "boolean", default: false },
    k: { type: "string" },
    "min-score": { type: "string" },
    "max-passages": { type: "string" },
    file: { type: "string" },
    help: { type: "boolean", default: false },
  },
  allowPositionals: true,
});

helpRequested(values.help, usage);
if (!values.course) fail(usage);
if (!values.file && positionals.length === 0) fail(usage);

const num = (name: string, raw: string | undefined, schema: z.ZodNumber) => {
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(Number(raw));
  return parsed.success ? parsed.data : fail(`--${name} must be ${schema === positiveInt ? "a whole number ≥ 1" : "a number"} (got “${raw}”).`);
};
const positiveInt = z.number().int().min(1).max(200);
const overrides: Partial<AskSettings> = Object.fromEntries(
  Object.entries({
    k: num("k", values.k, positiveInt),
    minScore: num("min-score", values["min-score"], z.number().finite()),
    maxPassages: num("max-passages", values["max-passages"], positiveInt),
  }).filter(([, v]) => v !== undefined),
);

const handle = await getDb();
const course = await getCourseBySlug(handle.db, { slug: values.course });
if (!course) fail(`No course “${values.course}”. Ingest PDFs into it first: npm run ingest -- --course ${values.course} FILE...`);
const deps = askDeps(handle, course.id, overrides);

const lineSchema = z.object({ id: z.union([z.string(), z.number()]).transform(String), question: z.string().min(1), history: z.array(z.string()).default([]) });

if (values.file) {
  const lines = (await readFile(values.file, "utf8")).split("\n").filter((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    let input: z.infer<typeof lineSchema>;
    try {
      input = lineSchema.parse(JSON.parse(line));
    } catch (e) {
      console.log(JSON.stringify({ line: i + 1, error: `Not a valid question line: ${(e as Error).message.split("\n")[0]}` }));
      continue;
    }
    const { answer } = await ask(handle, { courseId: course.id, question: input.question, history: input.history }, deps);
    console.log(JSON.stringify({ id: input.id, ...answer }));
  }
} else {
  const question = positionals.join(" ");
  const { answer } = await ask(handle, { courseId: course.id, question, history: [] }, deps);
  console.log(values.json ? JSON.stringify(answer, null, 2) : formatAnswer(answer));
}
handle.client.close();

function formatAnswer(answer: Answer): string {
  const out = [`Status: ${answer.status}   (generator: ${answer.generator}, trace ${answer.traceId})`];
  for (const part of answer.parts) {
    out.push("", `• ${part.ask} — ${part.state}`);
    for (const claim of part.claims) {
      out.push(`  ${claim.text}`);
      for (const c of claim.citations) {
        const printed = c.pageLabel ? `, printed page ${c.pageLabel}` : "";
        out.push(`    [${c.label}] ${c.documentTitle}, revision ${c.revision}, PDF page ${c.pdfPage}${printed}: “${c.quote}”`);
      }
    }
  }
  if (answer.message) out.push("", answer.message);
  if (answer.nextStep) out.push(answer.nextStep);
  return out.join("\n");
}
