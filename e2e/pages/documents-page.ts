import { expect, type Locator, type Page } from "@playwright/test";

/** "1 page", "3 pages": how the page shows a page count. */
export function pagesLabel(n: number): string {
  return `${n} ${n === 1 ? "page" : "pages"}`;
}

/** The instructor's documents page of one course, as a test drives it. */
export class DocumentsPage {
  readonly dropzone: Locator;
  readonly uploadInput: Locator;
  readonly uploadRows: Locator;
  readonly documentRows: Locator;

  constructor(readonly page: Page) {
    this.dropzone = page.getByTestId("dropzone");
    this.uploadInput = page.getByTestId("upload-input");
    this.uploadRows = page.getByTestId("upload-row");
    this.documentRows = page.getByTestId("document-row");
  }

  /** Signs in through the API; the session cookie lands in this page's browser context. */
  async signIn(account: { email: string; password: string }): Promise<void> {
    const res = await this.page.request.post("/api/auth/sign-in", { data: { email: account.email, password: account.password } });
    expect(res.status(), `signing in as ${account.email}`).toBe(200);
  }

  async goto(courseSlug: string): Promise<void> {
    await this.page.goto(`/courses/${encodeURIComponent(courseSlug)}/documents`);
    await expect(this.page.getByRole("heading", { level: 1, name: "Documents" })).toBeVisible();
    await expect(this.dropzone).toBeVisible();
  }

  /** Chooses files with the file picker (several at once). */
  async chooseFiles(paths: string[]): Promise<void> {
    await this.uploadInput.setInputFiles(paths);
  }

  uploadRow(fileName: string): Locator {
    return this.page.locator(`[data-testid="upload-row"][data-file-name=${JSON.stringify(fileName)}]`);
  }

  document(title: string): Locator {
    return this.page.locator(`[data-testid="document-row"][data-document-title=${JSON.stringify(title)}]`);
  }

  revision(title: string, number: number): Locator {
    return this.document(title).locator(`[data-testid="revision-row"][data-revision-number="${number}"]`);
  }

  currentRevision(title: string): Locator {
    return this.document(title).locator('[data-testid="revision-row"][data-current="true"]');
  }

  /** Deletes the document titled `title` with its confirmation, and waits until it leaves the list. */
  async deleteDocument(title: string): Promise<void> {
    const doc = this.document(title);
    await doc.getByTestId("delete-document").click();
    await doc.getByTestId("confirm-delete").click();
    await expect(this.document(title)).toHaveCount(0);
  }

  /** The id of revision `number` of the listed document titled `title`, from the course's API. */
  async revisionId(courseSlug: string, title: string, number: number): Promise<string> {
    const res = await this.page.request.get(`/api/courses/${encodeURIComponent(courseSlug)}/documents`);
    const { documents } = (await res.json()) as { documents: Array<{ title: string; revisions: Array<{ id: string; number: number }> }> };
    const id = documents.find((d) => d.title === title)?.revisions.find((r) => r.number === number)?.id;
    expect(id, `revision ${number} of ${title}`).toBeTruthy();
    return id!;
  }

  /** Uploads `path` as the next revision of the document titled `title`. */
  async uploadRevision(title: string, path: string): Promise<void> {
    await this.document(title).getByTestId("revision-input").setInputFiles(path);
  }

  /** Waits until the upload row of `fileName` says ready with `pages` pages. */
  async expectUploadReady(fileName: string, pages: number, timeout = 60_000): Promise<void> {
    const row = this.uploadRow(fileName);
    await expect(row).toHaveAttribute("data-state", "ready", { timeout });
    await expect(row.getByTestId("upload-status")).toHaveText(`Ready · ${pagesLabel(pages)}`);
  }

  /** Waits until the document's current revision is ready with `pages` pages. */
  async expectDocumentReady(title: string, pages: number, timeout = 60_000): Promise<void> {
    const current = this.currentRevision(title);
    await expect(current.getByTestId("revision-status")).toHaveAttribute("data-status", "ready", { timeout });
    await expect(current.getByTestId("revision-status")).toContainText("Ready");
    await expect(current.getByTestId("revision-pages")).toHaveText(pagesLabel(pages));
    await expect(current.getByTestId("current-badge")).toBeVisible();
  }

  /** Waits for every upload and every listed revision to settle, so a screenshot shows a still page. */
  async waitForQuiet(timeout = 60_000): Promise<void> {
    await expect(this.page.locator('[data-testid="revision-row"]:is([data-status="queued"],[data-status="extracting"],[data-status="indexing"])')).toHaveCount(0, { timeout });
    await expect(this.page.locator('[data-testid="upload-row"]:is([data-state="waiting"],[data-state="uploading"],[data-state="queued"],[data-state="extracting"],[data-state="indexing"])')).toHaveCount(0, { timeout });
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path, fullPage: true });
  }

  /** Just the list of upload rows, for a close look at one outcome. */
  async screenshotUploads(path: string): Promise<void> {
    await this.page.getByTestId("upload-list").screenshot({ path });
  }
}
