/** The golden-set file format (lib/eval/golden.jsonl): one question a line, read and written. */
import { goldenQuestionSchema, type GoldenQuestion } from "./metrics";

/** A golden set's questions from JSONL text; a malformed line fails with `name:line` and what is wrong, and nothing is returned. */
export function parseGoldenJsonl(text: string, name: string): GoldenQuestion[] {
  const out: GoldenQuestion[] = [];
  const ids = new Set<string>();
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      throw new GoldenFormatError(`${name}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    const parsed = goldenQuestionSchema.safeParse(json);
    if (!parsed.success) throw new GoldenFormatError(`${name}:${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`);
    if (ids.has(parsed.data.id)) throw new GoldenFormatError(`${name}:${i + 1}: duplicate id ${parsed.data.id}`);
    ids.add(parsed.data.id);
    out.push(parsed.data);
  });
  return out;
}

export class GoldenFormatError extends Error {
  name = "GoldenFormatError";
}

/** The questions as JSONL, one a line, in order. */
export const goldenJsonl = (questions: readonly GoldenQuestion[]): string => questions.map((q) => JSON.stringify(q)).join("\n") + (questions.length ? "\n" : "");
