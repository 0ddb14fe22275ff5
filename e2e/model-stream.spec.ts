import { expect, request as playwrightRequest, test } from "@playwright/test";
import { demoCourse, DEMO_DOCUMENT_TITLES, DEMO_FACTS } from "../lib/demo/course";
import { env } from "../lib/env";
import { stopNextServer, type NextServer } from "./next-server";
import { DEMO_INSTRUCTOR as INSTRUCTOR, DEMO_STUDENT as STUDENT, labelOf, startWithScriptedModel, waitForIndexed } from "./scripted-model";
import { ChatPage } from "./pages/chat-page";
import { StudyPages } from "./pages/study-pages";

/**
 * With GENERATION_MODEL pointed at the scripted OpenAI-compatible server (SSE chunks with a delay,
 * reasoning deltas first), a student's chat shows each claim as it passes validation while the
 * model is still writing; a claim citing a passage that was never sent is held as "checking",
 * never shown, and appears only once the retry has repaired it. The server is a second `next
 * start` of the same build on its own fresh database with the demo course.
 */

const PORT = env.E2E_PORT + 2;
const COURSE = demoCourse.slug;
const SHOTS = "/tmp/shots";
const A2 = DEMO_FACTS.sentences.assignment2Due.sentence;
const LATE = DEMO_FACTS.sentences.latePolicy.sentence;
const HELD_TEXT = "After three days a late submission receives no credit.";

let model: Awaited<ReturnType<typeof startWithScriptedModel>>["model"];
let server: NextServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ model, server } = await startWithScriptedModel(PORT, "model"));
});

test.afterAll(async ({}, testInfo) => {
  stopNextServer(server);
  await model?.close();
  await testInfo.attach("model-server.log", { body: server?.log() ?? "", contentType: "text/plain" });
});

test("a model's claims appear one by one while it writes; a held claim shows as checking until the retry repairs it", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const chat = new ChatPage(page);
  // The demo course is indexed in the background after start: the instructor's API waits for it.
  const instructor = await playwrightRequest.newContext({ baseURL: server!.url });
  expect((await instructor.post("/api/auth/sign-in", { data: INSTRUCTOR })).status()).toBe(200);
  await waitForIndexed(instructor, COURSE);
  const signIn = await page.request.post(`${server!.url}/api/auth/sign-in`, { data: STUDENT });
  expect(signIn.status()).toBe(200);

  model.setScript([
    {
      kind: "fromRequest",
      reply: (body) => ({
        kind: "stream",
        reasoning: ["The student asks two things.", " I should quote the syllabus."],
        chunkChars: 10,
        delayMs: 60,
        value: {
          parts: [
            { ask: "When is Assignment 2 due", state: "supported", claims: [{ text: A2, evidence: [{ sourceId: labelOf(body, A2), quote: A2 }] }] },
            {
              ask: "What is the late penalty",
              state: "supported",
              claims: [
                { text: "Late work loses 10% per day, for up to 3 days.", evidence: [{ sourceId: labelOf(body, LATE), quote: "Late submissions lose 10% per day late, up to 3 days" }] },
                // A label no passage had: held, never shown.
                { text: HELD_TEXT, evidence: [{ sourceId: "S9", quote: "after that the submission receives no credit" }] },
              ],
            },
          ],
        },
      }),
    },
    {
      kind: "fromRequest",
      reply: (body) => ({
        kind: "stream",
        chunkChars: 10,
        delayMs: 60,
        value: {
          parts: [
            { ask: "What is the late penalty", state: "supported", claims: [{ text: HELD_TEXT, evidence: [{ sourceId: labelOf(body, LATE), quote: "after that the submission receives no credit" }] }] },
          ],
        },
      }),
    },
  ]);

  await page.goto(`${server!.url}/courses/${COURSE}/chat`);
  await expect(chat.input).toBeVisible();
  await chat.recordAnswers();
  await chat.input.fill("When is Assignment 2 due, and what is the late penalty?");
  await chat.sendButton.click();
  const answer = chat.answers.last();

  // The first claim is on screen while the model is still writing (the model server's own record).
  await expect(chat.claims(answer).first()).toBeVisible();
  expect(model.streams[0].finished, "the model was still writing when the first claim was shown").toBe(false);
  await chat.screenshot(testInfo.outputPath("model-first-claim.png"), `${SHOTS}/chat-model-first-claim.png`);

  // The claim with the invented label holds its place as "checking", its text nowhere.
  await expect(chat.heldClaims(answer)).toHaveCount(1);
  await expect(answer).not.toContainText(HELD_TEXT);
  await chat.screenshot(testInfo.outputPath("model-held.png"), `${SHOTS}/chat-model-held.png`);

  await expect(answer).toHaveAttribute("data-phase", "done", { timeout: 60_000 });
  await expect(answer).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(answer)).toHaveCount(3);
  await expect(chat.claims(answer).last()).toContainText(HELD_TEXT);
  await expect(chat.heldClaims(answer)).toHaveCount(0);
  const traceId = await answer.getAttribute("data-trace-id");
  await chat.screenshot(testInfo.outputPath("model-done.png"), `${SHOTS}/chat-model-done.png`);

  // Claims arrived one at a time, and the held claim's text never showed while it was held.
  const seen = await chat.seenAnswers();
  const streaming = seen.filter((s) => s.phase === "streaming");
  expect([...new Set(streaming.map((s) => s.claims))]).toEqual([0, 1, 2, 3]);
  expect(seen.filter((s) => s.held > 0 && s.claimTexts.some((c) => c.includes(HELD_TEXT)))).toEqual([]);
  expect(seen.findIndex((s) => s.held > 0)).toBeLessThan(seen.findIndex((s) => s.claimTexts.some((c) => c.includes(HELD_TEXT))));
  // The reasoning deltas never reached the student.
  await expect(answer).not.toContainText("I should quote");

  // The same answer at phone width.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(page.url());
  await expect(phone.getByTestId("claim")).toHaveCount(3);
  await phone.screenshot({ path: testInfo.outputPath("model-done-390.png") });
  await phone.screenshot({ path: `${SHOTS}/chat-model-done-390.png` });
  await phone.close();

  // Stop, pressed while the model writes, aborts the model's request (the model server sees it) and keeps nothing.
  const A1 = DEMO_FACTS.sentences.assignment1Due.sentence;
  model.setScript([
    {
      kind: "fromRequest",
      reply: (body) => ({
        kind: "stream",
        chunkChars: 6,
        delayMs: 80,
        value: { parts: [{ ask: "When is Assignment 1 due", state: "supported", claims: Array.from({ length: 4 }, () => ({ text: A1, evidence: [{ sourceId: labelOf(body, A1), quote: A1 }] })) }] },
      }),
    },
  ]);
  const streamsBefore = model.streams.length;
  await chat.newConversation();
  await chat.input.fill("When is Assignment 1 due?");
  await chat.sendButton.click();
  const stopped = chat.answers.last();
  await expect(chat.claims(stopped).first()).toBeVisible();
  await chat.stopButton.click();
  await expect.poll(() => model.streams[streamsBefore]?.aborted, { timeout: 15_000 }).toBe(true);
  expect(model.streams[streamsBefore].finished).toBe(false);
  await expect(stopped).toHaveAttribute("data-phase", "failed");
  await expect(stopped.getByTestId("answer-error")).toContainText("You stopped this answer");
  await chat.screenshot(testInfo.outputPath("model-stopped.png"), `${SHOTS}/chat-model-stopped.png`);

  // The instructor's trace shows each claim's check, the held one with its reason, and the Evaluation page its time to first claim.
  const { cookies } = await instructor.storageState();
  await page.context().clearCookies();
  await page.context().addCookies(cookies);
  await page.goto(`${server!.url}/courses/${COURSE}/eval`);
  await expect(page.locator('[data-testid="eval-outcome"][data-status="answered"] [data-testid="eval-first-claim"]')).toHaveText(/^\d+ ms$/);
  await page.screenshot({ path: testInfo.outputPath("model-eval.png"), fullPage: true });
  await page.screenshot({ path: `${SHOTS}/eval-model.png`, fullPage: true });
  expect(traceId).toMatch(/^trc_/);
  await page.goto(`${server!.url}/courses/${COURSE}/traces/${traceId}`);
  const checks = page.getByTestId("claim-check");
  await expect(checks).toHaveCount(4);
  await expect(checks.filter({ hasText: "held" })).toContainText("unknown source id");
  await page.screenshot({ path: `${SHOTS}/trace-model.png`, fullPage: true });
  await instructor.dispose();
});

/** The first passage a card request fenced, and its first line (the sentence, not a page number printed under it). */
function firstPassage(body: Record<string, unknown>): { label: string; sentence: string } {
  const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;
  const m = /<passage id="(S\d+)">\n([\s\S]*?)\n<\/passage>/.exec(user);
  if (!m) throw new Error("the card request fenced no passage");
  return { label: m[1], sentence: m[2].trim().split("\n")[0] };
}

test("a model-written deck keeps only cards whose quote is in the notes, counts the rest, and is practised and quizzed", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  // Per page: one card quoting the page, one quoting a sentence the notes do not hold.
  model.setScript([
    {
      kind: "fromRequest",
      reply: (body) => {
        const { label, sentence } = firstPassage(body);
        return {
          kind: "json",
          value: {
            cards: [
              { question: "What is the first thing this page of the notice says?", answer: sentence, evidence: { sourceId: label, quote: sentence } },
              { question: "Where does the Saturday lab meet?", answer: "Room 9", evidence: { sourceId: label, quote: "The Saturday lab meets in Room 9 of the annex." } },
            ],
          },
        };
      },
    },
  ]);
  const requestsBefore = model.chatRequests().length;
  const instructor = await browser.newContext({ baseURL: server!.url });
  expect((await instructor.request.post("/api/auth/sign-in", { data: INSTRUCTOR })).status()).toBe(200);
  const study = new StudyPages(await instructor.newPage(), COURSE);
  await study.goto();
  await study.generateDeck("Written by the model", DEMO_DOCUMENT_TITLES.notice);
  const pages = model.chatRequests().length - requestsBefore;
  expect(pages).toBeGreaterThan(0);
  await expect(study.deck("Written by the model").getByTestId("deck-count")).toHaveText(`${pages} card${pages === 1 ? "" : "s"} · ${pages} more dropped: their quote is not in the notes`);
  await study.publish("Written by the model");
  const deckId = (await study.deck("Written by the model").getAttribute("data-deck-id"))!;
  await study.page.screenshot({ path: testInfo.outputPath("model-deck.png"), fullPage: true });
  await study.page.screenshot({ path: `${SHOTS}/study-model-deck.png`, fullPage: true });
  await instructor.close();

  // The student: a question card asks its question, flips to the model's answer with its source chip, and is graded by keyboard.
  const student = await browser.newContext({ baseURL: server!.url });
  expect((await student.request.post("/api/auth/sign-in", { data: STUDENT })).status()).toBe(200);
  const practice = new StudyPages(await student.newPage(), COURSE);
  await practice.page.goto(`/courses/${COURSE}/study/practice?deck=${deckId}`);
  await expect(practice.page.getByTestId("practice-status")).toHaveText(`${pages} due · 0 reviewed this session`);
  const card = practice.page.getByTestId("practice-card");
  await expect(card).toContainText("Answer the question");
  await expect(practice.front()).toHaveText("What is the first thing this page of the notice says?");
  await expect(card).not.toContainText("Room 9");
  await practice.page.keyboard.press("Space");
  await expect(practice.page.getByTestId("card-back")).not.toBeEmpty();
  await practice.page.screenshot({ path: `${SHOTS}/study-model-practice.png` });
  await practice.page.keyboard.press("3");
  await expect(practice.page.getByTestId("practice-status")).toContainText("1 reviewed this session");

  // The quiz: a free answer is revealed and self-checked, then scored.
  await practice.gotoQuiz(deckId, 1);
  const back = ((await (await student.request.get(`/api/courses/${COURSE}/decks/${deckId}`)).json()) as { cards: Array<{ back: string }> }).cards[0].back;
  await practice.answer(back);
  await expect(practice.page.getByTestId("quiz-score")).toContainText("Score: 1 / 1");
  await student.close();
});
