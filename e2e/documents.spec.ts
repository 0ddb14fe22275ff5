import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { expect, test, type TestInfo } from "@playwright/test";
import { DEMO_DOCUMENT_TITLES, demoCourse, demoDocumentSpec, type DemoDocumentKey } from "../lib/demo/course";
import { buildEncryptedPdf, buildPdf, type Block } from "../lib/pdf/build";
import { DocumentsPage, pagesLabel } from "./pages/documents-page";

/**
 * An instructor manages the demo course's PDFs: the seeded documents become ready, new files
 * upload with visible progress, a new revision becomes current while the old one stays listed,
 * and bad files are refused or failed with the reason in plain words.
 *
 * The tests share one fresh database (playwright.config.ts) and run in file order on one worker:
 * later tests use the documents earlier ones uploaded.
 */

const MAIN_SCREENSHOT = "/tmp/shots/documents.png";

/** The demo accounts seeded with the demo course (lib/server/seed.ts, which is server-only). */
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const STUDENT = { email: "student@demo.test", password: "demo-student" };

/** A lecture handout of `pageCount` pages, every page with its own text. */
async function writeHandout(testInfo: TestInfo, fileName: string, topic: string, pageCount: number, edition = 1): Promise<string> {
  const pages = Array.from({ length: pageCount }, (_, i): { blocks: Block[] } => ({
    blocks: [
      { kind: "heading", text: `${topic}: part ${i + 1}` },
      {
        kind: "paragraph",
        text: `Edition ${edition}. This page introduces the ideas of part ${i + 1} of ${topic.toLowerCase()}. Read it before the lecture and bring one question about it.`,
      },
      {
        kind: "paragraph",
        text: `A relation is a set of tuples that share the same attributes. Keys identify tuples uniquely, and foreign keys connect relations to each other (page ${i + 1}).`,
      },
      { kind: "bullet", text: `Exercise ${i + 1}.1: name the key of each relation in the example schema.` },
    ],
  }));
  const path = testInfo.outputPath(fileName);
  await writeFile(path, await buildPdf({ title: topic, pages }));
  return path;
}

async function shot(docs: DocumentsPage, testInfo: TestInfo, name: string): Promise<string> {
  const path = testInfo.outputPath(name);
  await docs.screenshot(path);
  return path;
}

test("an instructor signs in and the course list leads to the demo course's documents", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.screenshot({ path: testInfo.outputPath("signed-out.png"), fullPage: true });
  await page.getByTestId("home-sign-in").click();
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("Email").fill(INSTRUCTOR.email);
  await form.getByLabel("Password").fill(INSTRUCTOR.password);
  await form.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Your courses" })).toBeVisible();
  const card = page.locator(`[data-testid="course-card"][data-course-slug="${demoCourse.slug}"]`);
  await expect(card).toContainText(demoCourse.title);
  await expect(card).toContainText("Instructor");
  await page.screenshot({ path: testInfo.outputPath("courses.png"), fullPage: true });
  await card.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/courses/${demoCourse.slug}/documents$`));
  await expect(page.getByRole("link", { name: "Documents" })).toHaveAttribute("aria-current", "page");
});

test("the documents page needs a signed-in instructor", async ({ page }) => {
  const docs = new DocumentsPage(page);
  await page.goto(`/courses/${demoCourse.slug}/documents`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);

  await docs.signIn(STUDENT);
  await page.goto(`/courses/${demoCourse.slug}/documents`);
  await expect(page).toHaveURL(new RegExp(`/courses/${demoCourse.slug}/chat`));

  const res = await page.goto("/courses/no-such-course/documents");
  expect(res?.status()).toBe(404);
});

test("the seeded demo documents reach ready with their page counts", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);

  // Other spec files may add revisions to the demo documents (one shared database per run), so
  // the seeded upload is checked as revision 1, and the current revision only as ready.
  const keys = Object.keys(DEMO_DOCUMENT_TITLES) as DemoDocumentKey[];
  for (const key of keys) {
    const title = DEMO_DOCUMENT_TITLES[key];
    await expect(docs.document(title)).toHaveCount(1);
    const seeded = docs.revision(title, 1);
    await expect(seeded.getByTestId("revision-status")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
    await expect(seeded.getByTestId("revision-pages")).toHaveText(pagesLabel(demoDocumentSpec(key).pages.length));
    await expect(docs.currentRevision(title).getByTestId("revision-status")).toHaveAttribute("data-status", "ready");
    await expect(docs.currentRevision(title).getByTestId("current-badge")).toBeVisible();
  }
  await docs.waitForQuiet();
  await shot(docs, testInfo, "seeded-ready.png");
});

test("two PDFs chosen with the file picker upload with progress and become ready", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const first = await writeHandout(testInfo, "week_1_relational_model.pdf", "The relational model", 3);
  const second = await writeHandout(testInfo, "week_2_sql_joins.pdf", "SQL joins", 2);

  await docs.chooseFiles([first, second]);
  await expect(docs.uploadRows).toHaveCount(2);
  await expect(docs.uploadRow("week_1_relational_model.pdf").getByTestId("upload-status")).toBeVisible();
  await shot(docs, testInfo, "uploads-in-progress.png");
  await docs.screenshotUploads(testInfo.outputPath("uploads-in-progress-rows.png"));

  await docs.expectUploadReady("week_1_relational_model.pdf", 3);
  await docs.expectUploadReady("week_2_sql_joins.pdf", 2);
  await docs.expectDocumentReady("week 1 relational model", 3);
  await docs.expectDocumentReady("week 2 sql joins", 2);
  await docs.waitForQuiet();

  const main = await shot(docs, testInfo, "uploads-ready.png");
  await mkdir("/tmp/shots", { recursive: true });
  await copyFile(main, MAIN_SCREENSHOT);
});

test("uploading the same bytes again creates nothing and says so calmly", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const again = await writeHandout(testInfo, "week_2_sql_joins.pdf", "SQL joins", 2);

  await docs.chooseFiles([again]);
  const row = docs.uploadRow("week_2_sql_joins.pdf");
  await expect(row).toHaveAttribute("data-state", "unchanged");
  await expect(row.getByTestId("upload-message")).toContainText("identical to revision 1");
  await expect(row.getByTestId("upload-message")).toContainText("nothing new was created");
  await expect(docs.document("week 2 sql joins").getByTestId("revision-row")).toHaveCount(1);
  await shot(docs, testInfo, "upload-unchanged.png");
  await docs.screenshotUploads(testInfo.outputPath("upload-unchanged-row.png"));
});

test("a new revision becomes current while revision 1 stays listed", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const title = "week 1 relational model";
  await expect(docs.currentRevision(title)).toHaveAttribute("data-revision-number", "1");

  const v2 = await writeHandout(testInfo, "relational_model_revised.pdf", "The relational model", 4, 2);
  await docs.uploadRevision(title, v2);

  await docs.expectUploadReady("relational_model_revised.pdf", 4);
  await expect(docs.currentRevision(title)).toHaveAttribute("data-revision-number", "2");
  await docs.expectDocumentReady(title, 4);
  await expect(docs.document(title).getByTestId("revision-row")).toHaveCount(2);
  const first = docs.revision(title, 1);
  await expect(first).toBeVisible();
  await expect(first).toHaveAttribute("data-current", "false");
  await expect(first.getByTestId("current-badge")).toHaveCount(0);
  await expect(first.getByTestId("revision-status")).toHaveAttribute("data-status", "ready");
  await expect(first.getByTestId("revision-pages")).toHaveText("3 pages");
  await docs.waitForQuiet();
  await shot(docs, testInfo, "new-revision.png");
});

test("a revision can be marked and unmarked as a correction", async ({ page }) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const rev = docs.revision("week 2 sql joins", 1);
  const toggle = rev.getByTestId("correction-toggle");

  await expect(toggle).toHaveText("Mark as correction");
  await toggle.click();
  await expect(toggle).toHaveText("Unmark correction");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(rev.getByTestId("correction-badge")).toBeVisible();

  await page.reload();
  await expect(rev.getByTestId("correction-badge")).toBeVisible();
  await rev.getByTestId("correction-toggle").click();
  await expect(rev.getByTestId("correction-badge")).toHaveCount(0);
  await page.reload();
  await expect(rev.getByTestId("correction-toggle")).toHaveText("Mark as correction");
});

test("a text file named .pdf is refused with the server's reason", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const fake = testInfo.outputPath("reading_list.pdf");
  await writeFile(fake, "Reading list for week 3:\n- Codd, A Relational Model of Data\n");

  await docs.chooseFiles([fake]);
  const row = docs.uploadRow("reading_list.pdf");
  await expect(row).toHaveAttribute("data-state", "rejected");
  await expect(row.getByTestId("upload-message")).toContainText("not a PDF");
  await expect(docs.document("reading list")).toHaveCount(0);
  await shot(docs, testInfo, "rejected-not-pdf.png");
  await docs.screenshotUploads(testInfo.outputPath("rejected-not-pdf-row.png"));
});

test("an encrypted PDF fails with the password message", async ({ page }, testInfo) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const locked = testInfo.outputPath("protected_handout.pdf");
  await writeFile(locked, await buildEncryptedPdf());

  await docs.chooseFiles([locked]);
  const row = docs.uploadRow("protected_handout.pdf");
  await expect(row).toHaveAttribute("data-state", "failed", { timeout: 60_000 });
  await expect(row.getByTestId("upload-message")).toContainText("password-protected");

  const revision = docs.revision("protected handout", 1);
  await expect(revision.getByTestId("revision-status")).toHaveAttribute("data-status", "failed");
  await expect(revision.getByTestId("revision-error")).toContainText("password-protected");
  await expect(revision.getByTestId("current-badge")).toHaveCount(0);
  await docs.waitForQuiet();
  await shot(docs, testInfo, "failed-encrypted.png");
  await docs.screenshotUploads(testInfo.outputPath("failed-encrypted-row.png"));
});

test("the page reads well at phone width", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  await docs.waitForQuiet();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "nothing sticks out sideways at phone width").toBeLessThanOrEqual(0);
  await shot(docs, testInfo, "phone.png");
  await page.screenshot({ path: testInfo.outputPath("phone-top.png") });
});

test("deleting a document takes it out of the list and out of students' answers", async ({ page }) => {
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const doc = docs.document("week 2 sql joins");
  await expect(doc).toBeVisible();
  const ask = async () => (await page.request.post(`/api/courses/${demoCourse.slug}/chat`, { data: { question: "What does SQL joins part 2 introduce?" } })).text();
  expect(await ask(), "answered from the document before it is deleted").toContain('"documentTitle":"week 2 sql joins"');
  await docs.deleteDocument("week 2 sql joins");
  await page.reload();
  await expect(docs.document("week 2 sql joins")).toHaveCount(0);
  // Nothing of it is searchable any more.
  expect(await ask()).not.toContain('"documentTitle":"week 2 sql joins"');
});
