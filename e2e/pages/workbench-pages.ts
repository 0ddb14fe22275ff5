import { copyFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

/** Saves a full-page screenshot into the test's output and a copy for people to look at. */
export async function shot(page: Page, path: string, copyTo: string): Promise<void> {
  await page.waitForTimeout(150); // let transitions settle
  await page.screenshot({ path, fullPage: true });
  await mkdir(dirname(copyTo), { recursive: true });
  await copyFile(path, copyTo);
}

const coursePath = (slug: string, section: string) => `/courses/${encodeURIComponent(slug)}/${section}`;

/** The instructor's Questions page: topics, gaps in the notes, the CSV export. */
export class QuestionsPage {
  readonly topics: Locator;
  readonly gaps: Locator;

  constructor(readonly page: Page) {
    this.topics = page.getByTestId("topic");
    this.gaps = page.getByTestId("gap");
  }

  async goto(slug: string): Promise<void> {
    await this.page.goto(coursePath(slug, "questions"));
    await expect(this.page.getByRole("heading", { level: 1, name: "Questions" })).toBeVisible();
  }

  gap(text: string): Locator {
    return this.gaps.filter({ has: this.page.getByText(text, { exact: true }) });
  }

  /** Downloads the CSV export and returns its text. */
  async downloadCsv(): Promise<{ fileName: string; text: string }> {
    const download = this.page.waitForEvent("download");
    await this.page.getByRole("link", { name: "Download CSV" }).click();
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { fileName: file.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
  }
}

/** The knob playground: a question, the settings, the two runs side by side. */
export class PlaygroundPage {
  readonly form: Locator;
  readonly question: Locator;
  readonly result: Locator;
  readonly passageRows: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId("playground-form");
    this.question = this.form.getByLabel("Question");
    this.result = page.getByTestId("playground-result");
    this.passageRows = page.getByTestId("passage-row");
  }

  knob(label: string): Locator {
    return this.form.getByLabel(label);
  }

  run(side: "original" | "variant"): Locator {
    return this.page.getByTestId(`run-${side}`);
  }

  async runBoth(): Promise<void> {
    await this.form.getByRole("button", { name: "Run side by side" }).click();
    await expect(this.result).toBeVisible({ timeout: 60_000 });
  }
}

/** The evidence-substitution probe: search and pick passages, run, read the three conditions. */
export class ProbePage {
  readonly search: Locator;
  readonly results: Locator;
  readonly form: Locator;
  readonly conclusion: Locator;

  constructor(readonly page: Page) {
    this.search = page.getByTestId("passage-search");
    this.results = page.getByTestId("search-result");
    this.form = page.getByTestId("probe-form");
    this.conclusion = page.getByTestId("probe-conclusion");
  }

  async findPassages(words: string): Promise<void> {
    await this.search.getByLabel("Search the notes").fill(words);
    await this.search.getByRole("button", { name: "Search" }).click();
    await expect(this.results.first()).toBeVisible();
  }

  async pick(containing: string): Promise<void> {
    await this.results.filter({ hasText: containing }).first().getByRole("button", { name: "Pick" }).click();
  }

  async probe(question: string): Promise<void> {
    await this.form.getByLabel("Question").fill(question);
    await this.form.getByRole("button", { name: "Run the probe" }).click();
    await expect(this.conclusion).toBeVisible({ timeout: 60_000 });
  }

  condition(key: "retrieved" | "oracle" | "empty"): Locator {
    return this.page.locator(`[data-testid="probe-condition"][data-condition="${key}"]`);
  }
}
