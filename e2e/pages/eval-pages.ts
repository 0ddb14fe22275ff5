import { expect, type Locator, type Page } from "@playwright/test";

/** The Evaluation page: golden sets, the run form, the runs and their chart. */
export class EvalPage {
  readonly sets: Locator;
  readonly runForm: Locator;
  readonly runs: Locator;

  constructor(readonly page: Page) {
    this.sets = page.getByTestId("golden-set");
    this.runForm = page.getByTestId("run-form");
    this.runs = page.getByTestId("eval-run");
  }

  async goto(slug: string): Promise<void> {
    await this.page.goto(`/courses/${encodeURIComponent(slug)}/eval`);
    await expect(this.page.getByRole("heading", { level: 1, name: "Evaluation" })).toBeVisible();
  }

  async createSet(name: string): Promise<GoldenSetPage> {
    const form = this.page.getByTestId("new-set-form");
    await form.getByLabel("New set").fill(name);
    await form.getByRole("button", { name: "Create set" }).click();
    await expect(this.page.getByRole("heading", { level: 1, name: `Golden set “${name}”` })).toBeVisible();
    return new GoldenSetPage(this.page);
  }

  /** Starts a run of `set` and waits for its report. */
  async run(set: string, { mode = "One configuration", configA, configB, whileRunning }: { mode?: string; configA?: string; configB?: string; whileRunning?: (run: RunPage) => Promise<void> } = {}): Promise<RunPage> {
    const select = this.runForm.getByLabel("Golden set");
    await select.selectOption((await select.locator("option", { hasText: `${set} (` }).getAttribute("value"))!);
    await this.runForm.getByLabel(mode).check();
    if (configA !== undefined) await this.runForm.getByLabel(/^Configuration( A)? \(JSON/).fill(configA);
    if (configB !== undefined) await this.runForm.getByLabel("Configuration B (JSON)").fill(configB);
    await this.runForm.getByRole("button", { name: "Start the run" }).click();
    const run = new RunPage(this.page);
    await whileRunning?.(run);
    await expect(run.report).toBeVisible({ timeout: 90_000 });
    return run;
  }
}

/** A golden set's page: add a question with gold passages, the question list. */
export class GoldenSetPage {
  readonly form: Locator;
  readonly questions: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId("add-question-form");
    this.questions = page.getByTestId("golden-question");
  }

  async add({ kind, question, expect: expected, answer, search, pick }: { kind: string; question?: string; expect?: string; answer?: string; search?: string; pick?: string }): Promise<void> {
    const before = await this.questions.count();
    await this.form.getByLabel("Kind").selectOption({ label: kind });
    if (expected) await this.form.getByLabel("It should be").selectOption({ label: expected });
    if (question !== undefined) await this.form.getByLabel("Question").fill(question);
    if (answer) await this.form.getByLabel(/^Expected answer/).fill(answer);
    if (search && pick) {
      const box = this.form.getByTestId("passage-search");
      await box.getByLabel("Search the notes").fill(search);
      await box.getByRole("button", { name: "Search" }).click();
      await this.form.getByTestId("search-result").filter({ hasText: pick }).first().getByRole("button", { name: "Pick" }).click();
      await expect(this.form.getByTestId("gold-picked")).toContainText(pick.slice(0, 20));
    }
    await this.form.getByRole("button", { name: "Add to the set" }).click();
    await expect(this.questions).toHaveCount(before + 1);
  }
}

/** One run's page: progress, then its report. */
export class RunPage {
  readonly report: Locator;
  readonly questionRows: Locator;

  constructor(readonly page: Page) {
    this.report = page.getByTestId("run-report");
    this.questionRows = page.getByTestId("question-row");
  }

  get progress(): Locator {
    return this.page.getByRole("progressbar", { name: "Questions evaluated" });
  }

  metric(label: string): Locator {
    return this.page.locator(`[data-testid="run-metric"][data-metric="${label}"]`);
  }
}
