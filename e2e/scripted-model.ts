import { rmSync } from "node:fs";
import { expect, type APIRequestContext } from "@playwright/test";
import { startScriptedOpenAI } from "../lib/ai/openai-server.mock";
import { startNextServer, type NextServer } from "./next-server";

/** The demo course's seeded accounts. */
export const DEMO_STUDENT = { email: "student@demo.test", password: "demo-student" };
export const DEMO_INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };

/** The label the grounded request gave the passage holding `sentence`. */
export function labelOf(body: Record<string, unknown>, sentence: string): string {
  const user = (body.messages as Array<{ role: string; content: string }>).map((m) => m.content).join("\n");
  for (const m of user.matchAll(/<passage id="(S\d+)">([\s\S]*?)<\/passage>/g)) if (m[2].includes(sentence)) return m[1];
  throw new Error(`no sent passage holds: ${sentence}`);
}

/**
 * A second `next start` of the same build on a fresh database of its own (data/e2e-`name`) with
 * the demo course, answering through the scripted OpenAI-compatible server on 127.0.0.1.
 */
export async function startWithScriptedModel(port: number, name: string, extraEnv: Record<string, string> = {}) {
  const model = await startScriptedOpenAI();
  rmSync(`data/e2e-${name}`, { recursive: true, force: true });
  const server: NextServer = await startNextServer(port, {
    DATABASE_URL: `file:./data/e2e-${name}/study.db`,
    SEED_DEMO: "1",
    INGEST_WORKER: "1",
    INGEST_WORKER_ID: `wrk_e2e_${name}`,
    NEXT_TELEMETRY_DISABLED: "1",
    RATE_LIMIT_ASK_PER_MINUTE: "1000",
    GENERATION_MODEL: "scripted-model",
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: "test",
    ...extraEnv,
  });
  return { model, server };
}

/** The demo course is indexed in the background after start: waits, through the instructor's API, until every revision is ready. */
export async function waitForIndexed(instructor: APIRequestContext, course: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await instructor.get(`/api/courses/${course}/documents`);
        if (!res.ok()) return `documents: ${res.status()}`;
        const { documents } = (await res.json()) as { documents: Array<{ revisions: Array<{ status: string }> }> };
        return documents.length > 0 && documents.every((d) => d.revisions.every((r) => r.status === "ready")) ? "ready" : "indexing";
      },
      { timeout: 120_000, intervals: [500, 1000] },
    )
    .toBe("ready");
}
