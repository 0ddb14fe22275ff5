import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { demoCourse } from "../lib/demo/course";
import { buildEncryptedPdf, buildPaddedPdf, buildPdf } from "../lib/pdf/build";
import { AccountPages } from "./pages/account-pages";
import { DocumentsPage } from "./pages/documents-page";

/**
 * Hardening checks run in a real browser (issue 15): where Chromium goes after signing in with a
 * hostile `next`, and which revision files it can still open.
 */
const STUDENT = { email: "student@demo.test", password: "demo-student" };
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };

// Each is the raw query value: Chromium strips tab and newline from a URL and reads `\` as `/`.
const HOSTILE_NEXT = [
  "/%09/evil.example/x",
  "/%0a/evil.example/x",
  "/%0d%0a/evil.example/x",
  "%09//evil.example/x",
  "/%5Cevil.example/x",
  "%5C%5Cevil.example/x",
  "%2F%2Fevil.example%2Fx",
  "/.//evil.example/x",
  "HtTpS://Evil.Example/x",
  "JaVaScRiPt:alert(document.domain)",
];

test.describe("sign-in never leaves the site", () => {
  for (const next of HOSTILE_NEXT) {
    test(`next=${next}`, async ({ browser, baseURL }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const offSite: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).origin !== new URL(baseURL!).origin) offSite.push(r.url());
      });
      await page.goto(`/sign-in?next=${next}`);
      await new AccountPages(page).signIn(STUDENT);
      // Either the course list ("/") or, for a path that only looked like a host, that path here.
      await expect(page).not.toHaveURL(/\/sign-in/);
      await page.waitForLoadState("load");
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      expect(offSite).toEqual([]);
      await context.close();
    });
  }

  test("a same-site next is still followed, from sign-up's link too", async ({ page }) => {
    await page.goto(`/sign-in?next=${encodeURIComponent("/courses/demo-cs101/chat")}`);
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/sign-up?next=%2Fcourses%2Fdemo-cs101%2Fchat");
    await new AccountPages(page).signIn(STUDENT, /\/courses\/demo-cs101\/chat$/);
  });
});

test("a deleted document's file and a failed upload's file are 404 in the browser, for the student and the instructor", async ({ browser }, testInfo) => {
  const instructorContext = await browser.newContext();
  const docs = new DocumentsPage(await instructorContext.newPage());
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const handout = testInfo.outputPath("field_trip_rules.pdf");
  await writeFile(handout, await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Field trip rules" }, { kind: "paragraph", text: "The field trip bus leaves at 08:15 sharp." }] }] }));
  const locked = testInfo.outputPath("sealed_answers.pdf");
  await writeFile(locked, await buildEncryptedPdf());
  await docs.chooseFiles([handout, locked]);
  await docs.expectUploadReady("field_trip_rules.pdf", 1);
  await expect(docs.uploadRow("sealed_answers.pdf")).toHaveAttribute("data-state", "failed", { timeout: 60_000 });
  const readyId = await docs.revisionId(demoCourse.slug, "field trip rules", 1);
  const failedId = await docs.revisionId(demoCourse.slug, "sealed answers", 1);
  const fileUrl = (id: string) => `/api/courses/${demoCourse.slug}/revisions/${id}/file`;

  const studentContext = await browser.newContext();
  const student = new DocumentsPage(await studentContext.newPage());
  await student.signIn(STUDENT);
  const open = async (who: DocumentsPage, id: string) => (await who.page.goto(fileUrl(id)))?.status();
  expect(await open(student, readyId), "the ready revision opens before the delete").toBe(200);
  expect(await open(student, failedId)).toBe(404);
  expect(await open(docs, failedId)).toBe(404);

  await docs.goto(demoCourse.slug);
  await docs.deleteDocument("field trip rules");
  expect(await open(student, readyId)).toBe(404);
  expect(await open(docs, readyId)).toBe(404);
  await expect(student.page.getByText("The revision was not found.")).toBeVisible();
  await instructorContext.close();
  await studentContext.close();
});

test("signing up with a taken address says what to do without saying it is taken; the right password signs in", async ({ page }) => {
  const pages = new AccountPages(page);
  await pages.signUpForm({ name: "Someone Else", email: STUDENT.email, password: "a different long password" });
  const alert = page.getByTestId("sign-up-form").getByRole("alert");
  await expect(alert).toContainText("If you already have an account with this address, sign in with its password");
  await expect(alert).not.toContainText(/exists|taken/);
  await page.screenshot({ path: test.info().outputPath("sign-up-taken.png"), fullPage: true });
  await pages.signUpForm({ name: "Student", email: STUDENT.email, password: STUDENT.password });
  await expect(page.getByRole("heading", { level: 1, name: "Your courses" })).toBeVisible();
});

test("uploads of 9, 12 and 49 MB go through the browser and are indexed; 51 MB gets 413 with the 50 MB limit", async ({ page }, testInfo) => {
  const MB = 1024 * 1024;
  const docs = new DocumentsPage(page);
  await docs.signIn(INSTRUCTOR);
  await docs.goto(demoCourse.slug);
  const names: string[] = [];
  for (const size of [9, 12, 49]) {
    const name = `big_handout_${size}mb.pdf`;
    await writeFile(testInfo.outputPath(name), await buildPaddedPdf(size * MB, `The ${size} MB handout.`));
    names.push(name);
  }
  await docs.chooseFiles(names.map((n) => testInfo.outputPath(n)));
  for (const name of names) await docs.expectUploadReady(name, 1, 90_000);
  await docs.screenshot(testInfo.outputPath("big-uploads.png"));

  // The page refuses 51 MB before sending it; the server must too, whatever sends it.
  const refused = await page.evaluate(async (url) => {
    const form = new FormData();
    const bytes = new Uint8Array(51 * 1024 * 1024);
    bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
    form.set("file", new Blob([bytes], { type: "application/pdf" }), "too_big.pdf");
    const res = await fetch(url, { method: "POST", body: form });
    return { status: res.status, body: await res.json() };
  }, `/api/courses/${demoCourse.slug}/documents`);
  expect(refused.status).toBe(413);
  expect(refused.body.message).toBe("The file is larger than the 50 MB upload limit.");
});
