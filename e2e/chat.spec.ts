import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { DEMO_DOCUMENT_TITLES, DEMO_FACTS, demoCourse, demoDocumentSpec } from "../lib/demo/course";
import { buildPdf, type Block, type PdfSpec } from "../lib/pdf/build";
import { explanations } from "../lib/rag/decide";
import type { Answer, AnswerStatus } from "../lib/rag/types";
import { ChatPage } from "./pages/chat-page";

/**
 * A student asks the demo course questions: answers stream in claim by claim, every claim carries
 * citation chips that open the quoted passage and the PDF page itself, and every status says what
 * it means. The tests share one fresh database (playwright.config.ts); each asks in a conversation
 * of its own, and the two that change the course's documents (a new syllabus revision, a
 * conflicting notice) come last.
 */

/** The demo accounts seeded with the demo course (lib/server/seed.ts, which is server-only). */
const STUDENT = { email: "student@demo.test", password: "demo-student" };
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };

const COURSE = demoCourse.slug;
const SHOTS = "/tmp/shots";
const A2 = DEMO_FACTS.sentences.assignment2Due;
const LATE = DEMO_FACTS.sentences.latePolicy;
const SYLLABUS_PAGES = DEMO_FACTS.pageCounts.syllabus;

async function shot(chat: ChatPage, testInfo: TestInfo, name: string, copy = true): Promise<void> {
  await chat.page.waitForTimeout(150); // let entrance transitions settle
  await chat.screenshot(testInfo.outputPath(`${name}.png`), copy ? `${SHOTS}/chat-${name}.png` : undefined);
}

interface ApiDocument {
  id: string;
  title: string;
  currentRevisionId: string | null;
  revisions: Array<{ id: string; number: number; status: string }>;
}

async function documents(request: APIRequestContext): Promise<ApiDocument[]> {
  const res = await request.get(`/api/courses/${COURSE}/documents`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { documents: ApiDocument[] }).documents;
}

/** The instructor's own API session (uploads need the instructor role); the page stays the student's. */
async function signInInstructor(request: APIRequestContext): Promise<void> {
  const res = await request.post("/api/auth/sign-in", { data: INSTRUCTOR });
  expect(res.status(), "signing in as the instructor").toBe(200);
}

/** Uploads a PDF through the documents API and waits until it is the document's ready, current revision. */
async function upload(
  request: APIRequestContext,
  { fileName, bytes, title, documentId }: { fileName: string; bytes: Uint8Array; title?: string; documentId?: string },
): Promise<{ documentId: string; revisionId: string; revision: number }> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    file: { name: fileName, mimeType: "application/pdf", buffer: Buffer.from(bytes) },
  };
  if (title) multipart.title = title;
  if (documentId) multipart.documentId = documentId;
  const res = await request.post(`/api/courses/${COURSE}/documents`, { multipart });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { documentId: string; revisionId: string; revision: number };
  await expect
    .poll(
      async () => {
        const doc = (await documents(request)).find((d) => d.id === body.documentId);
        const rev = doc?.revisions.find((r) => r.id === body.revisionId);
        if (rev?.status === "failed") return "failed";
        return rev?.status === "ready" && doc?.currentRevisionId === body.revisionId ? "current" : rev?.status;
      },
      { timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toBe("current");
  return body;
}

function notice(title: string, paragraphs: string[]): PdfSpec {
  const blocks: Block[] = [{ kind: "heading", text: title }, ...paragraphs.map((text): Block => ({ kind: "paragraph", text }))];
  return { title, pages: [{ blocks }] };
}

/** Every highlight rectangle lies on the drawn page. */
async function expectHighlightsOnCanvas(chat: ChatPage): Promise<void> {
  const canvas = await chat.canvas().boundingBox();
  expect(canvas).not.toBeNull();
  for (const box of await Promise.all((await chat.highlights().all()).map((h) => h.boundingBox()))) {
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(canvas!.x - 2);
    expect(box!.y).toBeGreaterThanOrEqual(canvas!.y - 2);
    expect(box!.x + box!.width).toBeLessThanOrEqual(canvas!.x + canvas!.width + 2);
    expect(box!.y + box!.height).toBeLessThanOrEqual(canvas!.y + canvas!.height + 2);
  }
}

/** Presses Tab until the focused element matches `target` (keyboard only, no clicks). */
async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error("Tab never reached the target");
}

// Every test is the demo student's; the API calls that upload documents sign in as the instructor.
test.beforeEach(async ({ page }) => {
  await new ChatPage(page).signIn(STUDENT);
});

test("a signed-out visitor is sent to sign in and back to the chat", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/courses/${COURSE}/chat`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await context.close();
});

test("the empty chat invites a question with examples from the course", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await expect(page.getByRole("link", { name: "Ask" })).toHaveAttribute("aria-current", "page");
  await expect(chat.emptyState).toContainText("Ask anything about your course notes");
  const examples = page.getByTestId("example-question");
  await expect(examples).toHaveCount(3);
  await expect(examples.first()).toHaveText(/When is Assignment 2 due\?/);
  await shot(chat, testInfo, "empty");
});

test("a deadline question streams a cited claim whose chip opens the quote and the highlighted page", async ({ page }, testInfo) => {
  // The page viewer runs pdf.js and its worker under the app's Content-Security-Policy: nothing may be refused.
  const problems: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|pdf\.worker|Setting up fake worker/i.test(m.text()) || m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await chat.recordAnswers();
  const answer = await chat.ask("When is Assignment 2 due?");

  // It streamed: a stage line while waiting, and the claim on screen before the final status.
  const seen = await chat.seenAnswers();
  expect(seen.some((s) => s.stage !== null), "a stage indicator was shown while waiting").toBe(true);
  expect(seen.some((s) => s.claims > 0 && s.status === ""), "a claim appeared before the answer was complete").toBe(true);
  await expect(answer.getByTestId("stage-indicator")).toHaveCount(0);

  await expect(chat.status(answer)).toHaveAttribute("data-status", "answered");
  const claim = chat.claims(answer).filter({ hasText: DEMO_FACTS.assignment2Due }).first();
  await expect(claim).toBeVisible();
  const chip = chat.chips(claim).first();
  await expect(chip).toHaveText(/^S\d+/);
  await expect(answer.getByTestId("answer-generator")).toHaveAttribute("data-generator", "extractive");
  await shot(chat, testInfo, "answered");

  // The chip sits inside its claim, not in a list under the answer.
  expect(await chip.evaluate((el) => el.closest('[data-testid="claim"]') !== null)).toBe(true);

  // Hovering previews the source on a desktop; moving away hides it again.
  await chip.hover();
  await expect(chat.popover).toBeVisible();
  await page.mouse.move(5, 700);
  await expect(chat.popover).toHaveCount(0);

  const popover = await chat.openChip(chip);
  await expect(popover.getByTestId("popover-document")).toHaveText(DEMO_DOCUMENT_TITLES.syllabus);
  await expect(popover.getByTestId("excerpt-quote").first()).toContainText(A2.sentence);
  await expect(popover.getByTestId("excerpt")).toContainText(DEMO_FACTS.sentences.assignment1Due.sentence); // the surrounding passage
  await expect(popover.getByTestId("popover-page")).toHaveText(`PDF page ${A2.pdfPage}`);
  await expect(popover.getByTestId("popover-revision")).toHaveText("revision 1");
  await expect(popover.getByTestId("superseded-note")).toHaveCount(0);
  await shot(chat, testInfo, "popover");

  const panel = await chat.openPage();
  await expect(chat.popover).toHaveCount(0);
  await expect(panel.getByTestId("source-title")).toHaveText(DEMO_DOCUMENT_TITLES.syllabus);
  await expect(panel.getByTestId("page-indicator")).toHaveText(`Page ${A2.pdfPage} of ${SYLLABUS_PAGES}`);
  await expect(chat.canvas()).toHaveAttribute("data-page", String(A2.pdfPage));
  expect(await chat.canvasHasInk(), "the page is drawn").toBe(true);
  await expect(chat.highlights().first()).toBeVisible();
  await expectHighlightsOnCanvas(chat);
  await shot(chat, testInfo, "source-panel");

  // Paging through the document: no highlight on other pages, back again shows it.
  await panel.getByTestId("next-page").click();
  await expect(panel.getByTestId("page-indicator")).toHaveText(`Page ${A2.pdfPage + 1} of ${SYLLABUS_PAGES}`);
  await chat.expectPageDrawn();
  await expect(chat.canvas()).toHaveAttribute("data-page", String(A2.pdfPage + 1));
  await expect(chat.highlights()).toHaveCount(0);
  await panel.getByTestId("prev-page").click();
  await panel.getByTestId("prev-page").click();
  await expect(panel.getByTestId("page-indicator")).toHaveText(`Page ${A2.pdfPage - 1} of ${SYLLABUS_PAGES}`);
  await expect(panel.getByTestId("prev-page")).toBeDisabled();
  await panel.getByRole("button", { name: "Back to the quoted page" }).click();
  await chat.expectPageDrawn();
  await expect(chat.highlights().first()).toBeVisible();

  await panel.getByTestId("close-source").click();
  await expect(chat.sourcePanel).toHaveCount(0);
  expect(problems, "no console errors, CSP refusals or fake-worker fallback").toEqual([]);
});

test("while a slow answer streams, the stage says what is happening and claims appear before the answer is complete", async ({ page }, testInfo) => {
  // Slow the real server stream down in the browser, one NDJSON line every 900 ms, the way a
  // model endpoint would pace it; the UI reads it exactly as it reads the real thing.
  await page.addInitScript(() => {
    const realFetch = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await realFetch(input, init);
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!/\/api\/courses\/[^/]+\/chat$/.test(new URL(url, location.href).pathname) || !res.body) return res;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const encoder = new TextEncoder();
      let buffer = "";
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (;;) {
            const newline = buffer.indexOf("\n");
            if (newline !== -1) {
              const line = buffer.slice(0, newline + 1);
              buffer = buffer.slice(newline + 1);
              await new Promise((resolve) => setTimeout(resolve, 900));
              controller.enqueue(encoder.encode(line));
              return;
            }
            const { value, done } = await reader.read();
            if (done) {
              if (buffer) controller.enqueue(encoder.encode(buffer));
              controller.close();
              return;
            }
            buffer += value;
          }
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
  });
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await chat.recordAnswers();
  await chat.input.fill("What is the late penalty, and when is Assignment 4 due?");
  await chat.sendButton.click();

  const answer = chat.answers.first();
  const stage = answer.getByTestId("stage-indicator");
  await expect(stage).toHaveText("Searching your notes…");
  await expect(stage).toHaveText(/^Reading \d+ passages?…$/);
  await shot(chat, testInfo, "streaming-stage");
  await expect(stage).toHaveText("Checking citations…");
  await expect(chat.claims(answer).first()).toBeVisible();
  await expect(answer).toHaveAttribute("data-status", ""); // the claim is on screen before the final answer
  await chat.screenshot(testInfo.outputPath("streaming-claim.png"), `${SHOTS}/chat-streaming-claim.png`);
  await expect(answer).toHaveAttribute("data-phase", "done");
  await expect(chat.status(answer)).toHaveAttribute("data-status", "partial");

  const stages = (await chat.seenAnswers()).map((s) => s.stage).filter((s): s is string => s !== null);
  const order = ["Searching your notes…", "Reading", "Checking citations…"].map((t) => stages.findIndex((s) => s.startsWith(t)));
  expect(order.every((i) => i >= 0), `stages seen: ${[...new Set(stages)].join(" → ")}`).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
});

test("a question with a part the notes do not cover is answered in part and names the missing part", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const answer = await chat.ask("What is the late penalty, and when is Assignment 4 due?");
  await expect(chat.status(answer)).toHaveAttribute("data-status", "partial");
  await expect(chat.status(answer)).toHaveText("Partly answered");
  const missing = answer.getByTestId("missing-part");
  await expect(missing).toHaveCount(1);
  await expect(missing).toHaveText(/^Not in your notes: when is Assignment 4 due/i);
  // It says why: the notes name no Assignment 4, so the student knows what to ask the instructor for.
  await expect(missing.getByTestId("missing-why")).toHaveText("No passage found mentions “Assignment 4”.");
  await expect(chat.claims(answer).first()).toBeVisible();
  await expect(chat.chips(answer).first()).toBeVisible();
  await expect(answer.getByTestId("answer-next-step")).toBeVisible();

  // The supported part cites the late policy on its page of the syllabus.
  const popover = await chat.openChip(chat.chips(answer).first());
  await expect(popover.getByTestId("popover-page")).toHaveText(`PDF page ${LATE.pdfPage}`);
  await page.keyboard.press("Escape");
  await expect(chat.popover).toHaveCount(0);
  await shot(chat, testInfo, "partial");
});

test("a declined question whose closest passage lacks the asked value offers that passage to read, as a citation opens", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const answer = await chat.ask("What is the phone number of the teaching assistant?");
  await expect(chat.status(answer)).toHaveAttribute("data-status", "insufficient_evidence");
  const why = answer.getByTestId("missing-why");
  await expect(why).toHaveText(/^The closest passage \(Course Syllabus, PDF page 1\) gives no phone number\./);
  await expect(chat.claims(answer)).toHaveCount(0);
  // The one chip is the closest passage's, named as no answer, with its page and revision.
  const chip = chat.chips(why);
  await expect(chat.chips(answer)).toHaveCount(1);
  await expect(chip).toHaveAccessibleName(/^Closest passage, not an answer: Course Syllabus, PDF page 1, revision 1$/);
  const popover = await chat.openChip(chip);
  await expect(popover.getByTestId("popover-page")).toHaveText("PDF page 1");
  await expect(popover).toContainText("The teaching assistant is Samuel Okafor");
  await shot(chat, testInfo, "declined-closest");
  await page.keyboard.press("Escape");
  await expect(chat.popover).toHaveCount(0);
});

test("a question the notes cannot answer says so, with a next step and no claims", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const answer = await chat.ask("What is the capital of France?");
  await expect(chat.status(answer)).toHaveAttribute("data-status", "insufficient_evidence");
  await expect(answer).toContainText("I could not find supporting passages in the indexed notes");
  await expect(answer.getByTestId("missing-part")).toContainText(/^Looked for: What is the capital of France/);
  await expect(answer.getByTestId("missing-why")).toHaveText("Nothing in the notes mentions “capital” or “France”.");
  await expect(answer.getByTestId("answer-next-step")).not.toBeEmpty();
  await expect(chat.claims(answer)).toHaveCount(0);
  await expect(chat.chips(answer)).toHaveCount(0);
  await shot(chat, testInfo, "insufficient");
});

test("a follow-up in the same conversation is answered, and a reload shows both answers", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const first = await chat.ask("When is Assignment 1 due?");
  await expect(chat.status(first)).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(first).first()).toContainText(DEMO_FACTS.assignment1Due);
  const conversationId = chat.conversationId();
  expect(conversationId).toBeTruthy();

  const second = await chat.ask("And Assignment 3?");
  expect(chat.conversationId()).toBe(conversationId);
  await expect(chat.turns).toHaveCount(2);
  await expect(chat.status(second)).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(second).first()).toContainText(DEMO_FACTS.assignment3CorrectedDue);
  await expect(page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`)).toHaveCount(1);
  const texts = await chat.claims(page.locator("body")).allTextContents();
  await shot(chat, testInfo, "follow-up");

  await page.reload();
  await expect(chat.turns).toHaveCount(2);
  await expect(chat.answers.nth(1)).toHaveAttribute("data-phase", "done");
  expect(await chat.claims(page.locator("body")).allTextContents()).toEqual(texts);
  await expect(page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`)).toHaveAttribute("data-active", "true");
});

test("a chip works with the keyboard alone: Tab reaches it, Enter opens, Escape closes and returns focus", async ({ page }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await chat.ask("When is the midterm exam?");
  await page.reload();
  await expect(chat.answers.first()).toHaveAttribute("data-phase", "done");
  const chip = chat.chips(chat.answers.first()).first();

  await tabTo(page, chip);
  await expect(chip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chat.popover).toBeVisible();
  await expect(chat.popover).toBeFocused();
  // Tab moves through the popover (its passage scrolls when long, and is then a stop of its own).
  await tabTo(page, chat.popover.getByTestId("open-page"), 3);
  await expect(chat.popover).toBeVisible();
  await shot(chat, testInfo, "keyboard-popover");
  await page.keyboard.press("Escape");
  await expect(chat.popover).toHaveCount(0);
  await expect(chip).toBeFocused();

  // Space opens it too; from there the page opens and Escape comes back to the chip.
  await page.keyboard.press("Space");
  await expect(chat.popover).toBeVisible();
  await tabTo(page, chat.popover.getByTestId("open-page"), 3);
  await page.keyboard.press("Enter");
  await expect(chat.sourcePanel).toBeVisible();
  await expect(chat.sourcePanel.getByTestId("source-title")).toBeFocused();
  await chat.expectPageDrawn();
  await page.keyboard.press("Escape");
  await expect(chat.sourcePanel).toHaveCount(0);
  await expect(chip).toBeFocused();
});

test("conversations can be renamed and deleted", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await chat.ask("Who is the instructor?");
  const id = chat.conversationId();
  const item = page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`);
  await expect(item.getByTestId("conversation-title")).toHaveText("Who is the instructor?");

  await item.getByTestId("rename-conversation").click();
  await item.getByTestId("rename-input").fill("Instructor and office hours");
  await item.getByTestId("rename-input").press("Enter");
  await expect(item.getByTestId("conversation-title")).toHaveText("Instructor and office hours");
  await expect(page.getByTestId("thread-title")).toHaveText("Instructor and office hours");
  await page.reload();
  await expect(item.getByTestId("conversation-title")).toHaveText("Instructor and office hours");

  await item.getByTestId("delete-conversation").click();
  await item.getByTestId("confirm-delete").click();
  await expect(item).toHaveCount(0);
  await expect(chat.emptyState).toBeVisible();
  expect(chat.conversationId()).toBeNull();

  // A deleted conversation's address says so instead of failing.
  await chat.goto(COURSE, id!);
  await expect(page.getByTestId("thread-message")).toContainText("no longer exists");
});

test("the chat works at phone width: full-screen source sheet, collapsible conversations", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await expect(page.getByTestId("new-conversation")).toBeHidden(); // the list is collapsed
  await shot(chat, testInfo, "phone-empty");

  const answer = await chat.ask("When is Assignment 2 due?");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "nothing sticks out sideways").toBeLessThanOrEqual(0);
  await shot(chat, testInfo, "phone-answer");

  const popover = await chat.openChip(chat.chips(answer).first());
  const box = await popover.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await shot(chat, testInfo, "phone-popover");

  await chat.openPage();
  const sheet = await chat.sourcePanel.boundingBox();
  expect(sheet).toEqual({ x: 0, y: 0, width: 390, height: 844 });
  await expect(chat.highlights().first()).toBeVisible();
  await shot(chat, testInfo, "phone-source");

  // Small print on a phone: zooming magnifies the page and keeps the quote in view.
  await chat.sourcePanel.getByTestId("zoom-in").click();
  await expect.poll(async () => (await chat.canvas().boundingBox())?.width ?? 0).toBeGreaterThan(390);
  await expect(chat.highlights().first()).toBeInViewport();
  await shot(chat, testInfo, "phone-source-zoomed");
  await chat.sourcePanel.getByTestId("close-source").click();

  await page.getByTestId("open-conversations").click();
  const drawer = page.getByTestId("conversation-drawer");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("conversation-item").first()).toBeVisible();
  await shot(chat, testInfo, "phone-conversations");
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
});

test("failures look different from each other and never claim anything about the notes", async ({ page }, testInfo) => {
  // The demo cannot make search, validation or the model fail, so these answers are served as the
  // chat route would stream them (the UI only ever sees the stream).
  const failing: Array<Exclude<AnswerStatus, "answered" | "partial" | "insufficient_evidence" | "conflicting_evidence">> = [
    "retrieval_error",
    "validation_failed",
    "generation_error",
  ];
  let next = 0;
  await page.route(`**/api/courses/${COURSE}/chat`, async (route) => {
    const status = failing[next++];
    if (!status) {
      await route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "unavailable:database", message: "The database is busy. Try again in a moment." }) });
      return;
    }
    const answer: Answer = { status, parts: [], ...explanations[status], generator: "gpt-4o-mini", traceId: `trc_${status}` };
    const lines = [
      { type: "stage", stage: "searching" },
      ...(status === "retrieval_error" ? [] : [{ type: "retrieved", hits: 4, passed: 2 }, { type: "packed", passages: 2, promptTokens: 900 }, { type: "stage", stage: "generating" }]),
      { type: "status", answer },
      { type: "saved", messageId: `msg_${status}` },
    ];
    await route.fulfill({ status: 200, contentType: "application/x-ndjson", body: lines.map((l) => JSON.stringify(l)).join("\n") + "\n" });
  });

  await page.setViewportSize({ width: 1280, height: 1500 }); // every failure in one screenshot
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const search = await chat.ask("When is Assignment 2 due?");
  await expect(chat.status(search)).toHaveAttribute("data-status", "retrieval_error");
  await expect(chat.status(search)).toHaveText("Search failed");
  await expect(search).toContainText(explanations.retrieval_error.message);
  await expect(search).toContainText("says nothing about what the notes contain");
  await expect(search.getByTestId("retry")).toBeVisible();

  const withheld = await chat.ask("What is the late penalty?");
  await expect(chat.status(withheld)).toHaveText("Answer withheld");
  await expect(withheld).toContainText("withheld because its citations did not check out");
  await expect(withheld.getByTestId("answer-next-step")).toContainText(explanations.validation_failed.nextStep);

  const model = await chat.ask("What does atomicity mean?");
  await expect(chat.status(model)).toHaveAttribute("data-status", "generation_error");
  await expect(chat.status(model)).toHaveText("Model unavailable");
  await expect(model).toContainText("could not be reached");
  await expect(model).toContainText("nothing was answered");
  await expect(model.getByTestId("answer-generator")).toHaveAttribute("data-generator", "gpt-4o-mini");
  await expect(model.getByTestId("answer-generator")).toContainText("gpt-4o-mini");

  for (const answer of [search, withheld, model]) await expect(chat.claims(answer)).toHaveCount(0);

  // A request that fails outright: said plainly, nothing saved, and it can be asked again.
  await chat.input.fill("Who is the instructor?");
  await chat.sendButton.click();
  const lost = chat.answers.nth(3);
  await expect(lost).toHaveAttribute("data-phase", "failed");
  await expect(lost.getByTestId("answer-error")).toContainText("The database is busy. Try again in a moment.");
  await page.unroute(`**/api/courses/${COURSE}/chat`);
  await shot(chat, testInfo, "failures", true);
  await lost.getByTestId("retry").click();
  await expect(chat.answers.nth(4)).toHaveAttribute("data-phase", "done");
  await expect(chat.status(chat.answers.nth(4))).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(chat.answers.nth(4)).first()).toContainText(DEMO_FACTS.instructor);
});

test("a full answer queue says the assistant is busy, counts down and sends the question again by itself", async ({ page }, testInfo) => {
  // The first request meets a full queue (as the route answers it: 503 with Retry-After); the retry goes to the real server.
  let refused = 0;
  await page.route(`**/api/courses/${COURSE}/chat`, async (route) => {
    if (refused++ > 0) return route.continue();
    await route.fulfill({
      status: 503,
      headers: { "retry-after": "2" },
      contentType: "application/json",
      body: JSON.stringify({ code: "unavailable:answers", message: "Many students are asking right now, so your question was not taken. Try again in 2 s.", retryAfter: 2 }),
    });
  });
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  await chat.input.fill("When is Assignment 2 due?");
  await chat.sendButton.click();
  const answer = chat.answers.first();
  const indicator = answer.getByTestId("stage-indicator");
  await expect(indicator).toHaveAttribute("data-stage", "busy");
  await expect(indicator).toContainText(/Busy: many students are asking right now\. Retrying in [12] s/);
  await shot(chat, testInfo, "busy-retrying");
  await expect(answer).toHaveAttribute("data-phase", "done", { timeout: 30_000 });
  await expect(chat.status(answer)).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(answer).first()).toContainText(DEMO_FACTS.assignment2Due);
  expect(refused).toBe(2);
});

// ─── These change the course's documents: they run last. ─────────────────────────────────────

test("a corrected syllabus revision: new answers cite revision 2, the old answer keeps revision 1 and says it was superseded", async ({ page, request }, testInfo) => {
  const chat = new ChatPage(page);
  await chat.goto(COURSE);
  const before = await chat.ask("When is Assignment 2 due?");
  const oldConversation = chat.conversationId()!;
  const oldChip = chat.chips(chat.claims(before).filter({ hasText: DEMO_FACTS.assignment2Due })).first();
  await expect(oldChip).toHaveAttribute("data-revision", "1");

  // The instructor uploads a corrected syllabus (a changed lecture room) as a new revision.
  await signInInstructor(request);
  const syllabus = (await documents(request)).find((d) => d.title === DEMO_DOCUMENT_TITLES.syllabus)!;
  const spec = demoDocumentSpec("syllabus");
  const corrected: PdfSpec = {
    ...spec,
    pages: spec.pages.map((p) => ({
      blocks: p.blocks.map((b) => ("text" in b ? { ...b, text: b.text.replace("Lecture Hall A.", "Lecture Hall C.") } : b)),
    })),
  };
  const rev2 = await upload(request, { fileName: "cs101-course-syllabus-corrected.pdf", bytes: await buildPdf(corrected), documentId: syllabus.id });
  expect(rev2.revision).toBe(2);

  await chat.newConversation();
  const after = await chat.ask("When is Assignment 2 due?");
  await expect(chat.status(after)).toHaveAttribute("data-status", "answered");
  const newChip = chat.chips(chat.claims(after).filter({ hasText: DEMO_FACTS.assignment2Due })).first();
  await expect(newChip).toHaveAttribute("data-revision", "2");
  let popover = await chat.openChip(newChip);
  await expect(popover.getByTestId("popover-revision")).toHaveText("revision 2");
  await expect(popover.getByTestId("superseded-note")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // The old answer, after a reload, still resolves to revision 1 and says a newer one exists.
  await chat.goto(COURSE, oldConversation);
  const old = chat.answers.first();
  await expect(old).toHaveAttribute("data-phase", "done");
  const chip = chat.chips(chat.claims(old).filter({ hasText: DEMO_FACTS.assignment2Due })).first();
  await expect(chip).toHaveAttribute("data-revision", "1");
  popover = await chat.openChip(chip);
  await expect(popover.getByTestId("popover-revision")).toHaveText("revision 1");
  await expect(popover.getByTestId("superseded-note")).toContainText("superseded by revision 2");
  await shot(chat, testInfo, "superseded");

  // Its page comes from revision 1's own file.
  const panel = await chat.openPage();
  await expect(panel.getByTestId("source-revision")).toContainText("revision 1");
  await expect(panel.getByTestId("source-revision")).toContainText("superseded by revision 2");
  await expect(chat.highlights().first()).toBeVisible();
});

test("a conflicting notice that is not a correction: both dates are shown, cited, and the sources disagree", async ({ page, request }, testInfo) => {
  const title = "Week 3 Lab Bulletin";
  const conflicting = "Assignment 2 is due on 2 October at 17:00.";
  await signInInstructor(request);
  const created = await upload(request, {
    fileName: "week-3-lab-bulletin.pdf",
    title,
    bytes: await buildPdf(
      notice(title, [
        `${conflicting} Submit your archive on the course website.`,
        "The lab sessions this week cover SQL joins and grouping. Bring your laptop and the schema from Assignment 1.",
      ]),
    ),
  });

  try {
    const chat = new ChatPage(page);
    await chat.goto(COURSE);
    const answer = await chat.ask("When is Assignment 2 due?");
    await expect(chat.status(answer)).toHaveAttribute("data-status", "conflicting_evidence");
    await expect(chat.status(answer)).toHaveText("The sources disagree");
    await expect(answer.getByTestId("answer-explanation")).toContainText("The sources disagree");
    const sides = answer.getByTestId("conflict-side");
    await expect(sides).toHaveCount(2);
    await expect(answer).toContainText(DEMO_FACTS.assignment2Due);
    await expect(answer).toContainText("2 October at 17:00");

    const syllabusSide = sides.filter({ hasText: DEMO_FACTS.assignment2Due });
    const bulletinSide = sides.filter({ hasText: "2 October at 17:00" });
    await expect(syllabusSide.getByTestId("citation-chip")).not.toHaveCount(0);
    await expect(bulletinSide.getByTestId("citation-chip")).not.toHaveCount(0);
    let popover = await chat.openChip(bulletinSide.getByTestId("citation-chip").first());
    await expect(popover.getByTestId("popover-document")).toHaveText(title);
    // The quote may start with the notice's heading line; the sentence is one of its highlighted lines.
    await expect(popover.getByTestId("excerpt-quote").filter({ hasText: conflicting })).toHaveCount(1);
    await page.keyboard.press("Escape");
    popover = await chat.openChip(syllabusSide.getByTestId("citation-chip").first());
    await expect(popover.getByTestId("popover-document")).toHaveText(DEMO_DOCUMENT_TITLES.syllabus);
    await page.keyboard.press("Escape");
    await shot(chat, testInfo, "conflict");
  } finally {
    // Withdraw the bulletin so later specs see the demo course's own deadlines again.
    await upload(request, {
      fileName: "week-3-lab-bulletin-withdrawn.pdf",
      documentId: created.documentId,
      bytes: await buildPdf(notice(title, ["This bulletin has been withdrawn. The lab sessions this week cover SQL joins and grouping."])),
    });
  }
});
