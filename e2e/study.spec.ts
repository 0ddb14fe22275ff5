import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { buildPdf } from "../lib/pdf/build";
import { signUpThroughApi } from "./pages/account-pages";
import { StudyPages, uploadAndWait } from "./pages/study-pages";

/**
 * Study tools end to end, in a course of its own: an instructor generates and publishes a deck;
 * a student practises it with the keyboard and a card comes back when FSRS says (the browser's
 * clock is moved with page.clock; the test server honours it, STUDY_TEST_CLOCK=1); a quiz is
 * scored; the Anki export downloads; a new revision flags the card it changed and no other; a
 * student of another course is refused on every study route. The tests run in order on one worker.
 */

const run = Date.now().toString(36);
const INSTRUCTOR = { name: "Ivy Instructor", email: `ivy-${run}@study.test`, password: "instructor-pass" };
const STUDENT = { name: "Sam Student", email: `sam-${run}@study.test`, password: "student-pass" };
const OUTSIDER = { name: "Olga Other", email: `olga-${run}@study.test`, password: "outsider-pass" };
const DOC = "Garden Handbook";
const DECK = "Garden basics";
const TRELLIS = "A trellis is a wooden frame that supports climbing plants such as beans and peas.";
const dateLine = (day: number) => `The community garden opens its spring plots on ${day} March 2025 for every member.`;
const WATERING = "Watering at dawn reduces evaporation by 30% compared with watering at noon.";
const T0 = new Date("2026-03-02T09:00:00Z");

const handbook = (day: number) => buildPdf({ title: DOC, pages: [{ blocks: [TRELLIS, dateLine(day), WATERING].map((text) => ({ kind: "paragraph" as const, text })) }] }).then((b) => Buffer.from(b));

let slug = "";
let joinCode = "";
let deckId = "";

async function newPage(browser: Browser, who: typeof STUDENT, { signUp = true } = {}): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (signUp) await signUpThroughApi(page.request, who);
  else expect((await page.request.post("/api/auth/sign-in", { data: { email: who.email, password: who.password } })).status()).toBe(200);
  return page;
}

test("an instructor generates a deck from a document and publishes it to the course", async ({ browser }, testInfo) => {
  const page = await newPage(browser, INSTRUCTOR);
  const created = await page.request.post("/api/courses", { data: { title: `Gardening ${run}` } });
  ({ slug, joinCode } = await created.json());
  await uploadAndWait(page.request, slug, "Garden Handbook.pdf", await handbook(14), 1);

  const study = new StudyPages(page, slug);
  await study.goto();
  await study.generateDeck(DECK, DOC);
  await expect(study.deck(DECK).getByTestId("deck-count")).toHaveText("3 cards");
  await expect(study.deck(DECK).getByTestId("deck-visibility")).toHaveText("Private");
  await study.publish(DECK);
  deckId = (await study.deck(DECK).getAttribute("data-deck-id"))!;
  await page.screenshot({ path: testInfo.outputPath("study-instructor.png"), fullPage: true });

  await study.openDeck(DECK);
  await expect(page.getByTestId("deck-card")).toHaveCount(3);
  // A card's chip opens the chat's popover and source panel on its page and revision.
  await page.getByTestId("deck-card").first().getByTestId("citation-chip").click();
  await expect(page.getByTestId("popover-page")).toContainText("PDF page 1");
  await expect(page.getByTestId("popover-revision")).toHaveText("revision 1");
  await page.getByTestId("open-page").click();
  await expect(page.getByTestId("source-panel")).toBeVisible();
  await expect(page.getByTestId("source-title")).toHaveText(DOC);
  await page.screenshot({ path: testInfo.outputPath("study-deck-source.png"), fullPage: true });
});

test("a student practises with the keyboard and a card comes back due on schedule", async ({ browser }, testInfo) => {
  const page = await newPage(browser, STUDENT);
  expect((await page.request.post("/api/courses/join", { data: { code: joinCode } })).status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.clock.setFixedTime(T0);
  const study = new StudyPages(page, slug);
  await study.goto();
  await expect(study.deck(DECK).getByTestId("deck-visibility")).toHaveText("Published to the course");

  await study.gotoPractice();
  await expect(page.getByTestId("practice-status")).toContainText("3 due");
  await expect(study.front()).toHaveText("trellis");
  await page.screenshot({ path: testInfo.outputPath("practice-390.png"), fullPage: true });
  await study.gradeWithKeys("1"); // again: back within minutes
  await expect(study.front()).toHaveText(dateLine(14).replace("14 March 2025", "____"));
  await study.gradeWithKeys("4");
  await study.gradeWithKeys("4");
  await expect(page.getByTestId("practice-empty")).toBeVisible();

  // A minute later nothing is due yet? FSRS's first "again" step is one minute: at 30 s, still nothing.
  await page.clock.setFixedTime(new Date(T0.getTime() + 30_000));
  await page.getByTestId("practice-reload").click();
  await expect(page.getByTestId("practice-empty")).toBeVisible();
  await page.clock.setFixedTime(new Date(T0.getTime() + 2 * 60_000));
  await page.getByTestId("practice-reload").click();
  await expect(study.front()).toHaveText("trellis");
  await expect(page.getByTestId("practice-status")).toContainText("1 due");
  await study.gradeWithKeys("3");
  await expect(page.getByTestId("practice-empty")).toBeVisible();

  // Weeks later every card is due again; the progress counts and chart show the grades.
  await page.clock.setFixedTime(new Date(T0.getTime() + 60 * 86_400_000));
  await study.gotoPractice();
  await expect(page.getByTestId("practice-status")).toContainText("3 due");
  await page.clock.setFixedTime(new Date(T0.getTime() + 3 * 60_000));
  await study.goto();
  await expect(page.getByTestId("progress-counts")).toContainText("In review");
  await expect(page.getByTestId("progress-chart")).toHaveAttribute("aria-label", /4 in the last 14 days/);
  await page.screenshot({ path: testInfo.outputPath("study-student-390.png"), fullPage: true });
});

test("a quiz is scored and each question links to its source page", async ({ browser }, testInfo) => {
  const page = await newPage(browser, STUDENT, { signUp: false });
  const study = new StudyPages(page, slug);
  await study.gotoQuiz(deckId, 3);
  await expect(page.getByTestId("quiz-question").getByTestId("citation-chip")).toHaveAttribute("data-pdf-page", "1");
  await study.answer("a kind of fence");
  await study.answer("14 March 2025");
  await study.answer("30 %");
  await expect(page.getByTestId("quiz-score")).toContainText("Score: 2 / 3");
  await expect(page.getByTestId("quiz-result")).toHaveCount(3);
  await expect(page.getByTestId("quiz-result").first().getByTestId("citation-chip")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("quiz-score.png"), fullPage: true });
});

test("the Anki export downloads with each card's source", async ({ browser }) => {
  const page = await newPage(browser, STUDENT, { signUp: false });
  await page.goto(`/courses/${slug}/study/${deckId}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-tsv").click()]);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.split("\n")).toContain(`trellis\t${TRELLIS}\t${DOC} — PDF page 1, revision 1`);
  expect(download.suggestedFilename()).toBe("Garden-basics.txt");
});

test("a new revision flags the card it changed and leaves the unchanged ones alone", async ({ browser }, testInfo) => {
  const page = await newPage(browser, INSTRUCTOR, { signUp: false });
  await uploadAndWait(page.request, slug, "Garden Handbook.pdf", await handbook(21), 2);
  await page.goto(`/courses/${slug}/study/${deckId}`);
  const changed = page.locator('[data-testid="deck-card"][data-status="changed"]');
  await expect(changed).toHaveCount(1);
  await expect(page.locator('[data-testid="deck-card"][data-status="active"]')).toHaveCount(2);
  await expect(changed.getByTestId("changed-badge")).toHaveText("Changed in revision 2");
  await expect(changed.getByTestId("old-quote")).toHaveText(dateLine(14));
  await expect(changed.getByTestId("new-passage")).toContainText(dateLine(21));
  await page.screenshot({ path: testInfo.outputPath("changed-card.png"), fullPage: true });

  // Paused for the student until it is resolved: weeks later only the two unchanged cards are due.
  const student = await newPage(browser, STUDENT, { signUp: false });
  await student.clock.setFixedTime(new Date(T0.getTime() + 60 * 86_400_000));
  const study = new StudyPages(student, slug);
  await study.gotoPractice();
  await expect(student.getByTestId("practice-status")).toContainText("2 due");

  await changed.getByTestId("keep-card").click();
  await expect(page.locator('[data-testid="deck-card"][data-status="changed"]')).toHaveCount(0);
  await study.gotoPractice();
  await expect(student.getByTestId("practice-status")).toContainText("3 due");
});

test("a student of another course is refused on every study route", async ({ browser }) => {
  const page = await newPage(browser, OUTSIDER);
  const mine = await page.request.post("/api/courses", { data: { title: `Other ${run}` } });
  expect(mine.status()).toBe(201);
  const cards = (await (await (await newPage(browser, STUDENT, { signUp: false })).request.get(`/api/courses/${slug}/decks/${deckId}`)).json()).cards as Array<{ id: string }>;
  const cardId = cards[0].id;
  const api = `/api/courses/${slug}`;
  const calls: Array<[string, () => Promise<{ status(): number }>]> = [
    ["list decks", () => page.request.get(`${api}/decks`)],
    ["generate", () => page.request.post(`${api}/decks`, { data: {} })],
    ["deck", () => page.request.get(`${api}/decks/${deckId}`)],
    ["publish", () => page.request.patch(`${api}/decks/${deckId}`, { data: { published: false } })],
    ["delete", () => page.request.delete(`${api}/decks/${deckId}`)],
    ["export", () => page.request.get(`${api}/decks/${deckId}/export?format=json`)],
    ["import", () => page.request.post(`${api}/decks/import`, { data: { format: "study-assistant-deck", version: 1, title: "x", cards: [] } })],
    ["due queue", () => page.request.get(`${api}/study`)],
    ["grade", () => page.request.post(`${api}/cards/${cardId}/review`, { data: { grade: "good" } })],
    ["resolve", () => page.request.patch(`${api}/cards/${cardId}`, { data: { action: "retire" } })],
  ];
  for (const [name, call] of calls) expect((await call()).status(), name).toBe(404);
  await page.goto(`/courses/${slug}/study`);
  await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
});
