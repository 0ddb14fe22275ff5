import { readFileSync } from "node:fs";
import { expect, test, type TestInfo } from "@playwright/test";
import { DEMO_FACTS, demoCourse } from "../lib/demo/course";
import { signedIn, type ChatPage } from "./pages/chat-page";
import { EvalPage, GoldenSetPage } from "./pages/eval-pages";
import { PlaygroundPage, ProbePage, QuestionsPage, shot } from "./pages/workbench-pages";

/**
 * The instructor's evaluation workbench on the demo course: a student's declined question shows
 * up under gaps and is promoted into a golden set built in the browser, tried in the playground
 * and the probe; the set is evaluated, the score chart's floor is moved (and put back), the demo
 * set runs as an A/B pair. Students get none of it.
 */

const STUDENT = { email: "student@demo.test", password: "demo-student" };
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const COURSE = demoCourse.slug;
/** The course's floor until an instructor sets one: the fitted model's (it moves when the ranker is refitted; Playwright's loader takes no JSON import). */
const fittedFloor = (JSON.parse(readFileSync("lib/rag/extractive/weights.json", "utf8")) as { floor: number }).floor;
const FLOOR = String(fittedFloor);
const HIGHER = String(Math.round((fittedFloor + 0.05) * 100) / 100);
const DECLINED = "Which café on campus serves the best espresso?";

const save = (page: ChatPage["page"], testInfo: TestInfo, name: string) => shot(page, testInfo.outputPath(`${name}.png`), `/tmp/shots/evaluation-${name}.png`);

test("an instructor builds a golden set from a gap, evaluates it, moves the floor and runs an A/B", async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  // A retry runs against the same server: its set needs a name the first try did not take.
  const SET = testInfo.retry ? `office and cafés ${testInfo.retry}` : "office and cafés";
  const student = await signedIn(browser, STUDENT);
  await student.chat.goto(COURSE);
  await expect(student.chat.status(await student.chat.ask(DECLINED))).toHaveAttribute("data-status", "insufficient_evidence");
  await student.context.close();

  const { page } = await signedIn(browser, INSTRUCTOR);
  const questions = new QuestionsPage(page);
  await questions.goto(COURSE);
  const gap = questions.gap(DECLINED).first();
  await expect(gap).toContainText("Declined: no supporting passage");

  // The gap in the playground with k changed, then in the probe: the empty context abstains.
  await gap.getByRole("link", { name: "Test in playground" }).click();
  const playground = new PlaygroundPage(page);
  await expect(playground.question).toHaveValue(DECLINED);
  await playground.knob("Passages retrieved (k)").fill("3");
  await playground.runBoth();
  await expect(playground.run("variant")).toContainText("k 3");
  await expect(playground.run("original")).toContainText("k 8");
  const probe = new ProbePage(page);
  await page.getByRole("navigation", { name: "Workbench" }).getByRole("link", { name: "Evidence probe" }).click();
  await probe.findPassages("office hours");
  await probe.pick("Room 2.14");
  await probe.probe("In which building are office hours held?");
  await expect(probe.condition("empty")).toHaveAttribute("data-status", "insufficient_evidence");
  await expect(probe.condition("oracle")).toHaveAttribute("data-status", "answered");
  await expect(page.getByTestId("probe-history")).toContainText("In which building are office hours held?");

  // A new set: one answerable question with its gold passage picked from search results.
  const evaluation = new EvalPage(page);
  await evaluation.goto(COURSE);
  const set = await evaluation.createSet(SET);
  await set.add({ kind: "Answerable", question: "In which building are office hours held?", answer: "Hopper Building", search: "office hours", pick: "Room 2.14" });
  await expect(set.questions.first()).toContainText(`${"Course Syllabus"}, PDF page ${DEMO_FACTS.sentences.officeHours.pdfPage}`);

  // The declined question, promoted from the Questions page into the set as unanswerable.
  await questions.goto(COURSE);
  await questions.gap(DECLINED).first().getByRole("link", { name: "Add to golden set" }).click();
  await expect(page.getByTestId("promote")).toContainText(DECLINED);
  await page.getByTestId("promote").getByRole("link", { name: SET }).click();
  const promoted = new GoldenSetPage(page);
  await expect(promoted.form.getByLabel("Question")).toHaveValue(DECLINED);
  await promoted.add({ kind: "Unanswerable" });
  await expect(promoted.questions.nth(1)).toContainText("Declined: the notes do not say");
  await save(page, testInfo, "set");

  // Evaluated: every metric shown, one row a question, the score chart with the floor.
  await evaluation.goto(COURSE);
  const run = await evaluation.run(SET);
  await expect(run.questionRows).toHaveCount(2);
  await expect(run.metric("Hit@k")).toContainText("100.0% (n=1)");
  await expect(run.metric("Abstention")).toContainText("(1/1)");
  await expect(run.metric("Citation validity")).toContainText("100.0%");
  await expect(page.getByTestId("latency-table")).toContainText("retrieve");
  const chart = page.getByTestId("score-chart");
  await expect(chart.getByRole("application")).toBeVisible();
  // recharts draws a reference line's label in its own layer, not inside the line's group.
  await expect(chart.getByText(`floor ${FLOOR}`, { exact: true })).toBeVisible();
  await save(page, testInfo, "run");

  // "Set floor here" asks first; confirmed, the chart draws the new floor; then it is put back.
  const floor = page.getByLabel("New floor");
  for (const [value, shown] of [
    [HIGHER, `floor ${HIGHER}`],
    [FLOOR, `floor ${FLOOR}`],
  ]) {
    await floor.fill(value);
    await page.getByRole("button", { name: "Set floor here" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(`to ${value}?`);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The course's floor is now" })).toContainText(value);
    await expect(chart.getByText(shown, { exact: true })).toBeVisible();
  }

  // A/B on the demo set: progress while it runs, then the questions whose outcome changed and where.
  await evaluation.goto(COURSE);
  await expect(evaluation.runForm.getByLabel("Configuration (JSON; the course's defaults are shown)")).toHaveValue(/"k": 8/);
  const ab = await evaluation.run("demo", {
    mode: "A/B: two configurations",
    configB: '{ "k": 1, "maxPassages": 1 }',
    whileRunning: async (r) => {
      await expect(r.progress).toBeVisible();
    },
  });
  await expect(page.getByTestId("config-B")).toContainText('"k": 1');
  const diffs = page.getByTestId("ab-diff");
  await expect(diffs.first()).toBeVisible();
  await expect(page.locator('[data-testid="ab-diff"][data-stage="retrieve"]').first()).toBeVisible();
  await expect(ab.report).toHaveAttribute("data-kind", "ab");
  await save(page, testInfo, "ab");

  // The runs over time.
  await evaluation.goto(COURSE);
  await expect(page.getByTestId("runs-chart").getByRole("application")).toBeVisible();
  await expect(evaluation.runs).toHaveCount(2);
  await save(page, testInfo, "eval");
});

test("a student is refused on every evaluation page and route", async ({ browser }) => {
  const { page, context } = await signedIn(browser, STUDENT);
  for (const path of ["eval", "eval/sets/gld_any", "eval/runs/evr_any"]) {
    await page.goto(`/courses/${COURSE}/${path}`);
    await expect(page).toHaveURL(/\/chat\?denied=eval$/);
    await expect(page.getByText("The course’s evaluation page is for its instructors")).toBeVisible();
  }
  const api = `/api/courses/${COURSE}`;
  const refused = [
    await page.request.get(`${api}/golden-sets`),
    await page.request.post(`${api}/golden-sets`, { data: { name: "mine" } }),
    await page.request.get(`${api}/golden-sets/gld_any`),
    await page.request.delete(`${api}/golden-sets/gld_any`),
    await page.request.post(`${api}/golden-sets/gld_any/questions`, { data: { question: "Is there a lab on Friday?", kind: "unanswerable", expect: "insufficient_evidence" } }),
    await page.request.delete(`${api}/golden-sets/gld_any/questions/gq_any`),
    await page.request.get(`${api}/golden-sets/gld_any/export`),
    await page.request.post(`${api}/golden-sets/gld_any/import`, { data: "{}" }),
    await page.request.get(`${api}/eval-runs`),
    await page.request.post(`${api}/eval-runs`, { data: { kind: "single", setId: "gld_any" } }),
    await page.request.get(`${api}/eval-runs/evr_any`),
    await page.request.post(`${api}/floor`, { data: { minScore: 0.9, confirm: true } }),
  ];
  for (const res of refused) expect(res.status(), res.url()).toBe(403);
  await context.close();
});
