import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** Uploads a PDF to a course through the API and waits until its newest revision is ready. */
export async function uploadAndWait(request: APIRequestContext, slug: string, fileName: string, bytes: Buffer, revision: number): Promise<void> {
  const res = await request.post(`/api/courses/${slug}/documents`, { multipart: { file: { name: fileName, mimeType: "application/pdf", buffer: bytes } } });
  expect(res.status(), `uploading ${fileName}`).toBe(201);
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/courses/${slug}/documents`)).json()) as { documents: Array<{ currentRevisionId: string | null; revisions: Array<{ id: string; number: number; status: string }> }> };
        return body.documents.some((d) => d.revisions.some((r) => r.number === revision && r.status === "ready" && r.id === d.currentRevisionId));
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

/** The course's Study page and the deck, practice and quiz pages under it, as a person uses them. */
export class StudyPages {
  constructor(
    readonly page: Page,
    readonly slug: string,
  ) {}

  deck(title: string): Locator {
    return this.page.getByTestId("deck").filter({ has: this.page.getByTestId("deck-title").getByText(title, { exact: true }) });
  }

  async goto(): Promise<void> {
    await this.page.goto(`/courses/${this.slug}/study`);
    await expect(this.page.getByRole("heading", { level: 1, name: "Study" })).toBeVisible();
  }

  /** Generates a deck from one document and waits until its cards are counted. */
  async generateDeck(title: string, documentTitle: string): Promise<void> {
    const form = this.page.getByTestId("new-deck-form");
    await form.getByLabel("Title (optional)").fill(title);
    await form.getByTestId("deck-document").selectOption({ label: documentTitle });
    await form.getByTestId("generate-deck").click();
    await expect(this.deck(title).getByTestId("deck-count")).toBeVisible({ timeout: 30_000 });
  }

  async publish(title: string): Promise<void> {
    await this.deck(title).getByTestId("publish-deck").click();
    await expect(this.deck(title).getByTestId("deck-visibility")).toHaveText("Published to the course");
  }

  async openDeck(title: string): Promise<void> {
    await this.deck(title).getByTestId("deck-title").click();
    await expect(this.page.getByTestId("card-list")).toBeVisible();
  }

  async gotoPractice(): Promise<void> {
    await this.page.goto(`/courses/${this.slug}/study/practice`);
    await expect(this.page.getByTestId("practice-status")).not.toHaveText("Loading…");
  }

  front(): Locator {
    return this.page.getByTestId("card-front");
  }

  /** Flips with Space and grades with the digit key (1 again … 4 easy), keyboard only. */
  async gradeWithKeys(digit: "1" | "2" | "3" | "4"): Promise<void> {
    const before = await this.page.getByTestId("practice-card").getAttribute("data-card-id");
    await this.page.keyboard.press("Space");
    await expect(this.page.getByTestId("card-back")).toBeVisible();
    await this.page.keyboard.press(digit);
    await expect(this.page.locator(`[data-testid="practice-card"][data-card-id="${before}"]`)).toHaveCount(0);
  }

  async gotoQuiz(deckId: string, n: number): Promise<void> {
    await this.page.goto(`/courses/${this.slug}/study/${deckId}/quiz?n=${n}`);
    await expect(this.page.getByTestId("quiz-question")).toBeVisible();
  }

  /** Types an answer (or picks the choice with this text; or, for a free-answer question, reveals it and says "I had it") and moves on. */
  async answer(text: string): Promise<void> {
    const q = this.page.getByTestId("quiz-question");
    if (await q.getByRole("button", { name: "Show the answer" }).count()) {
      await q.getByRole("button", { name: "Show the answer" }).click();
      await expect(q.getByTestId("quiz-self-check")).toContainText(text);
      await q.getByRole("button", { name: "I had it" }).click();
    } else if (await q.getByTestId("quiz-input").count()) {
      await q.getByTestId("quiz-input").fill(text);
      await q.getByRole("button", { name: "Answer" }).click();
    } else {
      await q.getByTestId("quiz-choice").filter({ hasText: text }).first().click();
    }
    await expect(q.getByTestId("quiz-feedback")).toBeVisible();
    await q.getByTestId("quiz-next").click();
  }
}
