import { expect, test, type TestInfo } from "@playwright/test";
import { DEMO_FACTS, demoCourse } from "../lib/demo/course";
import { signedIn, type ChatPage } from "./pages/chat-page";
import { PlaygroundPage, ProbePage, QuestionsPage, shot } from "./pages/workbench-pages";

/**
 * The instructor's workbench on the demo course: students ask, the instructor reads their
 * questions by topic and the gaps in the notes, re-runs a gap with other settings, probes a
 * question with a context of their choosing, and exports the questions. Students get none of it.
 */

const STUDENT = { email: "student@demo.test", password: "demo-student", name: "Sam Student" };
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const COURSE = demoCourse.slug;
const SHOTS = "/tmp/shots";
const UNANSWERABLE = "What is the capital of France?";
const PARTIAL = "What is the late penalty, and when is Assignment 4 due?";

const save = (page: ChatPage["page"], testInfo: TestInfo, name: string) => shot(page, testInfo.outputPath(`${name}.png`), `${SHOTS}/workbench-${name}.png`);

test("an instructor finds a gap in the notes, re-runs it with k changed, probes a question and exports the questions", async ({ browser }, testInfo) => {
  const student = await signedIn(browser, STUDENT);
  await student.chat.goto(COURSE);
  for (const [question, status] of [
    ["When is Assignment 2 due?", "answered"],
    [PARTIAL, "partial"],
    [UNANSWERABLE, "insufficient_evidence"],
  ]) {
    await expect(student.chat.status(await student.chat.ask(question))).toHaveAttribute("data-status", status);
  }
  await student.context.close();

  const { page } = await signedIn(browser, INSTRUCTOR);
  const questions = new QuestionsPage(page);
  await page.goto(`/courses/${COURSE}/traces`);
  await page.getByRole("navigation", { name: "Course" }).getByRole("link", { name: "Questions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Questions" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Course" }).getByRole("link", { name: "Questions" })).toHaveAttribute("aria-current", "page");
  await expect(questions.topics.filter({ hasText: "When is Assignment 2 due?" })).toContainText("assignment");
  // chat.spec.ts asks the same wordings in this database earlier: each is then a gap twice (one row an asking).
  const declined = questions.gap(UNANSWERABLE).first();
  await expect(declined).toContainText("Declined: no supporting passage");
  await expect(declined.getByTestId("gap-why")).toHaveText("Nothing in the notes mentions “capital” or “France”.");
  const missingPart = questions.gaps.filter({ hasText: `The missing part of “${PARTIAL}”` }).first();
  await expect(missingPart).toContainText(/Assignment 4 due/);
  await expect(missingPart.getByTestId("gap-why")).toHaveText("No passage found mentions “Assignment 4”.");
  await expect(page.getByText(STUDENT.name)).toHaveCount(0);
  await save(page, testInfo, "questions");

  const csv = await questions.downloadCsv();
  expect(csv.fileName).toBe(`${COURSE}-questions.csv`);
  const lines = csv.text.trim().split("\r\n");
  expect(lines[0]).toBe('"asked_at","topic","status","question","missing_parts","why_missing","trace_id"');
  expect(lines.find((l) => l.includes(`"${UNANSWERABLE}"`))).toContain('"insufficient_evidence"');
  expect(lines.find((l) => l.includes(`"${PARTIAL}"`))).toMatch(/"partial","[^"]+","[^"]*Assignment 4 due","No passage found mentions “Assignment 4”\."/);
  expect(csv.text).not.toContain(STUDENT.email);
  expect(csv.text).not.toContain(STUDENT.name);

  // The missing part, straight into the playground, with fewer passages retrieved.
  await missingPart.getByRole("link", { name: "Test in playground" }).click();
  const playground = new PlaygroundPage(page);
  await expect(playground.question).toHaveValue(/Assignment 4 due/);
  await playground.knob("Passages retrieved (k)").fill("2");
  await playground.runBoth();
  await expect(playground.run("original")).toContainText("k 8");
  await expect(playground.run("variant")).toContainText("k 2");
  await expect(playground.passageRows.first()).toBeVisible();
  const rows = await playground.passageRows.count();
  expect(rows).toBeGreaterThan(2);
  // Every passage past rank 2 is retrieved by the original only, and marked as a difference.
  await expect(playground.passageRows.filter({ hasText: "not retrieved" })).toHaveCount(rows - 2);
  await expect(page.locator('[data-testid="passage-row"][data-changed="true"]')).toHaveCount(rows - 2);
  await save(page, testInfo, "playground");

  // The probe: the late policy picked from search; the empty context must abstain.
  await expect(page.getByRole("navigation", { name: "Course" }).getByRole("link", { name: "Workbench" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("navigation", { name: "Workbench" }).getByRole("link", { name: "Evidence probe" }).click();
  const probe = new ProbePage(page);
  await probe.findPassages("late submissions lose");
  await probe.pick(DEMO_FACTS.latePenalty);
  await expect(page.getByTestId("picked")).toContainText("S1");
  await probe.probe("What is the late penalty?");
  await expect(probe.condition("empty")).toHaveAttribute("data-status", "insufficient_evidence");
  await expect(probe.condition("empty").locator("pre").last()).toHaveText("Question: What is the late penalty?");
  await expect(probe.condition("oracle")).toHaveAttribute("data-status", "answered");
  await expect(probe.condition("oracle").locator("pre").last()).toContainText(DEMO_FACTS.latePenalty);
  await expect(probe.condition("retrieved")).toHaveAttribute("data-status", "answered");
  await expect(probe.conclusion).toHaveAttribute("data-verdict", "answered");
  await save(page, testInfo, "probe");

  // Each probe run kept its trace, marked as the workbench's.
  await probe.condition("empty").getByRole("link", { name: "Open its trace" }).click();
  await expect(page.getByTestId("trace-origin")).toContainText("An evidence-probe run");
  await save(page, testInfo, "probe-trace");
});

test("a student is refused on every page and route of the workbench", async ({ browser }) => {
  const { page, context } = await signedIn(browser, STUDENT);
  for (const [section, name] of [
    ["questions", "questions"],
    ["playground", "workbench"],
    ["probe", "workbench"],
  ]) {
    await page.goto(`/courses/${COURSE}/${section}`);
    await expect(page).toHaveURL(new RegExp(`/chat\\?denied=${section}$`));
    await expect(page.getByText(`The course’s ${name} page is for its instructors`)).toBeVisible();
  }
  const nav = page.getByRole("navigation", { name: "Course" });
  await expect(nav.getByRole("link", { name: "Ask" })).toBeVisible();
  for (const section of ["Questions", "Workbench"]) await expect(nav.getByRole("link", { name: section })).toHaveCount(0);

  const api = `/api/courses/${COURSE}`;
  const refused = [
    await page.request.get(`${api}/questions/csv`),
    await page.request.get(`${api}/passages?q=late`),
    await page.request.post(`${api}/playground`, { data: { question: "When is Assignment 2 due?", knobs: { k: 2, minScore: 0.3, maxPassages: 6, contextWindow: 8192 } } }),
    await page.request.post(`${api}/probe`, { data: { question: "When is Assignment 2 due?", oracleChunkIds: ["chk_any"] } }),
  ];
  for (const res of refused) {
    expect(res.status()).toBe(403);
    expect(await res.text()).not.toContain("asked_at");
  }
  await context.close();
});
