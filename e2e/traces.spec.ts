import { expect, test } from "@playwright/test";

const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };

test("an instructor reads how an answer was decided, stage by stage, and the course's outcomes", async ({ page }, testInfo) => {
  expect((await page.request.post("/api/auth/sign-in", { data: INSTRUCTOR })).status()).toBe(200);
  const question = `What is the late penalty, and when is Assignment 4 due? (${Date.now()})`;
  const stream = await (await page.request.post("/api/courses/demo-cs101/chat", { data: { question } })).text();
  expect(stream).toContain('"status":"partial"');

  await page.goto("/courses/demo-cs101/traces");
  await page.getByTestId("trace-list").getByRole("link", { name: new RegExp(question.replace(/[()?]/g, "\\$&")) }).click();
  const view = page.getByTestId("trace-view");
  await expect(view).toContainText(question);
  await expect(view.getByRole("heading", { name: "Retrieval, gate and packing" })).toBeVisible();
  await expect(view).toContainText("included as S1");
  await expect(view.getByRole("heading", { name: "Generation, attempt 1" })).toBeVisible();
  await view.getByText("The exact messages sent").click();
  await expect(view.locator("pre").first()).toContainText("Use only the passages.");
  await expect(view).toContainText("when is Assignment 4 due");
  await page.screenshot({ path: testInfo.outputPath("trace.png"), fullPage: true });

  await page.goto("/courses/demo-cs101/eval");
  await expect(page.getByTestId("eval-stats")).toContainText("Questions");
  await expect(page.getByText("partial", { exact: true }).first()).toBeVisible();
  // The partial answer above published claims: its row has a time to first claim.
  await expect(page.locator('[data-testid="eval-outcome"][data-status="partial"] [data-testid="eval-first-claim"]')).toHaveText(/^\d+ ms$/);
  await page.screenshot({ path: testInfo.outputPath("eval.png"), fullPage: true });
});

test("traces are the instructor's: a student is sent back to the chat", async ({ page }) => {
  expect((await page.request.post("/api/auth/sign-in", { data: { email: "student@demo.test", password: "demo-student" } })).status()).toBe(200);
  await page.goto("/courses/demo-cs101/traces");
  await expect(page).toHaveURL(/\/chat\?denied=traces/);
});
