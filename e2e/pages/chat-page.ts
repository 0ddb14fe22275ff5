import { copyFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { expect, type Browser, type Locator, type Page } from "@playwright/test";

/** The newest answer at one DOM change. */
export interface SeenAnswer {
  phase: string | null;
  status: string | null;
  claims: number;
  claimTexts: string[];
  /** Places of held claims ("checking"). */
  held: number;
  stage: string | null;
}

/** The student's chat page of one course, as a test drives it. */
export class ChatPage {
  readonly input: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly answers: Locator;
  readonly turns: Locator;
  readonly popover: Locator;
  readonly sourcePanel: Locator;
  readonly conversationItems: Locator;
  readonly emptyState: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId("question-input");
    this.sendButton = page.getByTestId("send-button");
    this.stopButton = page.getByRole("button", { name: "Stop answering" });
    this.answers = page.getByTestId("answer");
    this.turns = page.getByTestId("turn");
    this.popover = page.getByTestId("citation-popover");
    this.sourcePanel = page.getByTestId("source-panel");
    this.conversationItems = page.getByTestId("conversation-item");
    this.emptyState = page.getByTestId("empty-state");
  }

  /** Signs in through the API; the session cookie lands in this page's browser context. */
  async signIn(account: { email: string; password: string }): Promise<void> {
    const res = await this.page.request.post("/api/auth/sign-in", { data: { email: account.email, password: account.password } });
    expect(res.status(), `signing in as ${account.email}`).toBe(200);
  }

  async goto(courseSlug: string, conversationId?: string): Promise<void> {
    const query = conversationId ? `?c=${encodeURIComponent(conversationId)}` : "";
    await this.page.goto(`/courses/${encodeURIComponent(courseSlug)}/chat${query}`);
    await expect(this.input).toBeVisible();
    // The client has hydrated once the conversation list has left its loading state.
    await expect(this.page.locator('[aria-label="Loading conversations"]')).toHaveCount(0);
  }

  /** The conversation id in the address bar (?c=…), once the first answer has started. */
  conversationId(): string | null {
    return new URL(this.page.url()).searchParams.get("c");
  }

  /** Asks a question and waits until its answer is complete; returns that answer. */
  async ask(question: string, timeout = 60_000): Promise<Locator> {
    const before = await this.answers.count();
    await this.input.fill(question);
    await this.sendButton.click();
    await expect(this.answers).toHaveCount(before + 1);
    const answer = this.answers.nth(before);
    await expect(answer).toHaveAttribute("data-phase", "done", { timeout });
    await expect(this.turns.nth(before).getByTestId("question")).toHaveText(question);
    return answer;
  }

  status(answer: Locator): Locator {
    return answer.getByTestId("answer-status");
  }

  claims(answer: Locator): Locator {
    return answer.getByTestId("claim");
  }

  /** The places of claims held while their citations are checked again. */
  heldClaims(answer: Locator): Locator {
    return answer.getByTestId("held-claim");
  }

  chips(scope: Locator): Locator {
    return scope.getByTestId("citation-chip");
  }

  /** Opens a chip's popover with a click and returns the popover. */
  async openChip(chip: Locator): Promise<Locator> {
    await chip.click();
    await expect(this.popover).toBeVisible();
    return this.popover;
  }

  /** From an open popover, opens the side panel and waits for the page to be drawn. */
  async openPage(): Promise<Locator> {
    await this.popover.getByTestId("open-page").click();
    await expect(this.sourcePanel).toBeVisible();
    await this.expectPageDrawn();
    return this.sourcePanel;
  }

  canvas(): Locator {
    return this.sourcePanel.getByTestId("pdf-page-canvas");
  }

  highlights(): Locator {
    return this.sourcePanel.getByTestId("highlight");
  }

  async expectPageDrawn(timeout = 30_000): Promise<void> {
    await expect(this.sourcePanel.getByTestId("pdf-page")).toHaveAttribute("data-state", "ready", { timeout });
    await expect(this.canvas()).toHaveAttribute("data-rendered", "true");
  }

  /** The canvas has real ink on it (not a blank white rectangle). */
  async canvasHasInk(): Promise<boolean> {
    return this.canvas().evaluate((el) => {
      const canvas = el as HTMLCanvasElement;
      const ctx = canvas.getContext("2d");
      if (!ctx) return false;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 16) if (data[i] < 128 && data[i + 3] > 0) dark++;
      return dark > 200;
    });
  }

  conversation(title: string): Locator {
    return this.conversationItems.filter({ has: this.page.getByTestId("conversation-title").getByText(title, { exact: true }) });
  }

  async newConversation(): Promise<void> {
    const visible = this.page.getByTestId("new-conversation").locator("visible=true");
    if (await visible.count()) await visible.first().click();
    else await this.page.getByRole("button", { name: "New conversation" }).locator("visible=true").first().click();
    await expect(this.emptyState).toBeVisible();
  }

  /** From now on, records what the newest answer looks like at every DOM change (read with `seenAnswers`), to prove it streamed. */
  async recordAnswers(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __seen: SeenAnswer[] };
      w.__seen = [];
      new MutationObserver(() => {
        const answers = document.querySelectorAll('[data-testid="answer"]');
        const last = answers[answers.length - 1];
        if (!last) return;
        const claims = [...last.querySelectorAll('[data-testid="claim"]')].map((c) => c.textContent ?? "");
        w.__seen.push({
          phase: last.getAttribute("data-phase"),
          status: last.getAttribute("data-status"),
          claims: claims.length,
          claimTexts: claims,
          held: last.querySelectorAll('[data-testid="held-claim"]').length,
          stage: last.querySelector('[data-testid="stage-indicator"]')?.textContent ?? null,
        });
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }

  async seenAnswers(): Promise<SeenAnswer[]> {
    return this.page.evaluate(() => (window as unknown as { __seen: SeenAnswer[] }).__seen);
  }

  /** Saves a screenshot into the test's output and, when given, a copy for people to look at. */
  async screenshot(path: string, copyTo?: string, fullPage = false): Promise<void> {
    await this.page.screenshot({ path, fullPage });
    if (copyTo) {
      await mkdir(dirname(copyTo), { recursive: true });
      await copyFile(path, copyTo);
    }
  }
}

/** A fresh browser context signed in as `account`, on its chat page object. */
export async function signedIn(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const chat = new ChatPage(await context.newPage());
  await chat.signIn(account);
  return { context, page: chat.page, chat };
}
