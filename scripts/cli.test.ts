/** The CLIs as a person runs them: real processes, a real database file, real course PDFs. */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { requireCorpus } from "@/lib/pdf/corpus";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "cli-"));
const env = { ...process.env, DATABASE_URL: `file:${join(dir, "study.db")}` };

async function cli(script: "ingest" | "ask" | "eval-cli", args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${script}.ts`, ...args], { env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

let CORPUS: string;
beforeAll(() => {
  CORPUS = requireCorpus("the CLI tests ingest from");
});

describe("npm run ingest / npm run ask", () => {
  it("ingests with --json, one line per file, and exits non-zero when a file fails", async () => {
    const bad = join(dir, "notes.pdf");
    writeFileSync(bad, "this is not a PDF");
    const { code, stdout } = await cli("ingest", ["--course", "os", "--json", join(CORPUS, "cs430-operating-systems-syllabus.pdf"), bad]);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(code).toBe(1);
    expect(lines[0]).toMatchObject({ document: "cs430-operating-systems-syllabus", revision: 1, pages: 2, status: "ready", error: null });
    expect(lines[0].chunks).toBeGreaterThan(0);
    expect(lines[1]).toMatchObject({ file: bad, status: "rejected", revision: null });
    expect(lines[1].error).toMatch(/not a PDF/);
  });

  it("refuses --title with several files and a missing --course, with usage", async () => {
    expect((await cli("ingest", ["--course", "os", "--title", "T", "a.pdf", "b.pdf"])).code).toBe(2);
    const missing = await cli("ingest", ["a.pdf"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Usage: npm run ingest/);
  });

  it("answers with --json in the answer shape, citing the right PDF page", async () => {
    const { code, stdout } = await cli("ask", ["--course", "os", "--json", "What textbook is used in the course?"]);
    expect(code).toBe(0);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ status: expect.any(String), parts: expect.any(Array), traceId: expect.stringMatching(/^trc_/), generator: "extractive" });
    for (const c of answer.parts.flatMap((p: { claims: Array<{ citations: unknown[] }> }) => p.claims.flatMap((x) => x.citations))) {
      expect(c).toMatchObject({ label: expect.stringMatching(/^S\d+$/), documentTitle: "cs430-operating-systems-syllabus", revision: 1, pdfPage: expect.any(Number) });
    }
  });

  it("answers a JSONL file line by line, with ids and history, and reports a bad line", async () => {
    const file = join(dir, "questions.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ id: "q1", question: "What is the capital of France?" }),
        "{not json",
        JSON.stringify({ id: "q2", question: "how much is it worth?", history: ["When is the midterm?"] }),
      ].join("\n"),
    );
    const { code, stdout } = await cli("ask", ["--course", "os", "--file", file]);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: "q1", status: "insufficient_evidence" });
    expect(lines[1]).toMatchObject({ line: 2 });
    expect(lines[1].error).toMatch(/Not a valid question line/);
    expect(lines[2].id).toBe("q2");
  });

  it("explains an unknown course and bad numbers", async () => {
    const unknown = await cli("ask", ["--course", "nope", "hello"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No course “nope”/);
    const badK = await cli("ask", ["--course", "os", "--k", "zero", "hello"]);
    expect(badK.code).toBe(2);
    expect(badK.stderr).toMatch(/--k must be a whole number/);
  });
});

describe("npm run eval -- --course", () => {
  it("runs the demo course's seeded set with --json: every headline figure a rate from 0 to 1, the run stored", async () => {
    const { code, stdout } = await cli("eval-cli", ["--course", "demo-cs101", "--set", "demo", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ run: expect.stringMatching(/^evr_/), course: "demo-cs101", set: "demo", generator: "extractive" });
    expect(report.questions).toBeGreaterThanOrEqual(80);
    for (const key of ["hitAtK", "mrr", "precisionAtK", "recallAtK", "sufficientEvidenceRecall", "citationValidity", "unhelpfulRefusalRate", "abstentionRate"]) {
      expect(report[key], key).toBeGreaterThanOrEqual(0);
      expect(report[key], key).toBeLessThanOrEqual(1);
    }
  }, 180_000);

  it("exports a set as JSONL and imports it into a new set: all lines or none, a repeated id refused", async () => {
    const exported = join(dir, "demo.jsonl");
    expect((await cli("eval-cli", ["--course", "demo-cs101", "--set", "demo", "--export", exported])).code).toBe(0);
    const two = join(dir, "two.jsonl");
    writeFileSync(two, readFileSync(exported, "utf8").split("\n").slice(0, 2).join("\n") + "\n");
    const imported = await cli("eval-cli", ["--course", "demo-cs101", "--set", "a copy", "--import", two]);
    expect(imported.stdout).toMatch(/Imported 2 question\(s\) into set “a copy”/);
    const again = await cli("eval-cli", ["--course", "demo-cs101", "--set", "a copy", "--import", two]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has a question with the id/);
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${readFileSync(two, "utf8")}{"id": "q-x", "question": "Is the lab open on Sundays?"}\n`);
    const refused = await cli("eval-cli", ["--course", "demo-cs101", "--set", "a copy", "--import", bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Nothing was imported\. .*bad\.jsonl:3:/);
    const back = await cli("eval-cli", ["--course", "demo-cs101", "--set", "a copy", "--export", "-"]);
    expect(back.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l).id)).toEqual(readFileSync(two, "utf8").trim().split("\n").map((l) => JSON.parse(l).id));
  }, 180_000);
});
