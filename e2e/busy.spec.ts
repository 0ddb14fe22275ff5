import { expect, request as playwrightRequest, test } from "@playwright/test";
import { demoCourse, DEMO_FACTS } from "../lib/demo/course";
import { env } from "../lib/env";
import { stopNextServer, type NextServer } from "./next-server";
import { DEMO_INSTRUCTOR as INSTRUCTOR, DEMO_STUDENT as STUDENT, labelOf, startWithScriptedModel, waitForIndexed } from "./scripted-model";
import { ChatPage } from "./pages/chat-page";

/**
 * A full server, not a mocked response: room for one answer (ANSWER_CONCURRENCY=1, no queue),
 * taken by another student whose model answer streams for several seconds. A student who asks
 * meanwhile is refused by the server with 503 and Retry-After, sees the countdown, is refused
 * again on the one automatic retry and is told so; once the room is free the same question is
 * answered. Nothing is saved for the refused attempts.
 */

const PORT = env.E2E_PORT + 3;
const COURSE = demoCourse.slug;
const SHOTS = "/tmp/shots";
const A2 = DEMO_FACTS.sentences.assignment2Due.sentence;

let model: Awaited<ReturnType<typeof startWithScriptedModel>>["model"];
let server: NextServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ model, server } = await startWithScriptedModel(PORT, "busy", { ANSWER_CONCURRENCY: "1", ANSWER_QUEUE_LIMIT: "0" }));
});

test.afterAll(async ({}, testInfo) => {
  stopNextServer(server);
  await model?.close();
  await testInfo.attach("busy-server.log", { body: server?.log() ?? "", contentType: "text/plain" });
});

test("while the server has no room a question is refused with a countdown and one retry, then answered once there is room", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const instructor = await playwrightRequest.newContext({ baseURL: server!.url });
  expect((await instructor.post("/api/auth/sign-in", { data: INSTRUCTOR })).status()).toBe(200);
  await waitForIndexed(instructor, COURSE);

  const claimFor = (delayMs: number) => ({
    kind: "fromRequest" as const,
    reply: (body: Record<string, unknown>) => ({
      kind: "stream" as const,
      chunkChars: 8,
      delayMs,
      value: { parts: [{ ask: "When is Assignment 2 due", state: "supported", claims: [{ text: A2, evidence: [{ sourceId: labelOf(body, A2), quote: A2 }] }] }] },
    }),
  });
  // The other student's answer streams for about ten seconds; the student's own, later, at once.
  model.setScript([claimFor(300), claimFor(10)]);

  // Another student (the instructor's session will do) takes the one room and keeps it while the model writes.
  const other = instructor.post(`/api/courses/${COURSE}/chat`, { data: { question: "When is Assignment 2 due?" }, timeout: 120_000 });
  await expect.poll(() => model.streams.length, { timeout: 30_000 }).toBe(1);

  const chat = new ChatPage(page);
  expect((await page.request.post(`${server!.url}/api/auth/sign-in`, { data: STUDENT })).status()).toBe(200);
  await page.goto(`${server!.url}/courses/${COURSE}/chat`);
  await expect(chat.input).toBeVisible();
  await expect(page.locator('[aria-label="Loading conversations"]')).toHaveCount(0);
  await chat.input.fill("When is Assignment 2 due?");
  await chat.sendButton.click();
  const refused = chat.answers.last();
  const indicator = refused.getByTestId("stage-indicator");
  await expect(indicator).toHaveAttribute("data-stage", "busy");
  await expect(indicator).toContainText(/Busy: many students are asking right now\. Retrying in \d+ s/);
  await chat.screenshot(testInfo.outputPath("busy-countdown.png"), `${SHOTS}/chat-busy-countdown.png`);
  // The one automatic retry meets the same full room: said plainly, with a way to ask again.
  await expect(refused).toHaveAttribute("data-phase", "failed", { timeout: 15_000 });
  await expect(refused.getByTestId("answer-error")).toContainText("The assistant is busy.");
  await expect(refused.getByTestId("answer-error")).toContainText("Many students are asking right now");
  expect(model.streams.length, "no refused attempt reached the model").toBe(1);
  await chat.screenshot(testInfo.outputPath("busy-refused.png"), `${SHOTS}/chat-busy-refused.png`);

  // The other student's answer completes; then the same question, asked again, is answered.
  expect((await other).status()).toBe(200);
  await refused.getByTestId("retry").click();
  const answered = chat.answers.last();
  await expect(answered).toHaveAttribute("data-phase", "done", { timeout: 60_000 });
  await expect(chat.status(answered)).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(answered).first()).toContainText(DEMO_FACTS.assignment2Due);

  // The refused attempts left nothing: the student's history holds the one answered exchange.
  const conversations = await page.request.get(`${server!.url}/api/courses/${COURSE}/conversations`);
  expect(conversations.status()).toBe(200);
  const { conversations: list } = (await conversations.json()) as { conversations: unknown[] };
  expect(list).toHaveLength(1);
});
