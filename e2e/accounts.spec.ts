import { expect, test } from "@playwright/test";
import { AccountPages } from "./pages/account-pages";

const stamp = Date.now();
const teacher = { name: "Ada Teacher", email: `ada-${stamp}@example.test`, password: "correct horse battery" };
const learner = { name: "Lin Learner", email: `lin-${stamp}@example.test`, password: "another long password" };

test("a new instructor signs up and creates a course; a new student joins it with its code and cannot reach its documents", async ({ browser }) => {
  const instructorContext = await browser.newContext();
  const instructor = new AccountPages(await instructorContext.newPage());
  const cspInstructor = instructor.watchCsp();
  await instructor.signUp(teacher);
  await expect(instructor.page.getByTestId("courses-empty")).toBeVisible();
  await instructor.page.screenshot({ path: test.info().outputPath("signed-up-empty.png"), fullPage: true });
  await instructor.createCourse("Compilers, spring term");
  await instructor.page.goto("/");
  const card = instructor.page.getByTestId("course-card").filter({ hasText: "Compilers, spring term" });
  await expect(card).toContainText("Instructor");
  const code = ((await card.getByTestId("join-code").textContent()) ?? "").replace(/.*join code\s*/, "").trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  await instructor.page.screenshot({ path: test.info().outputPath("instructor-courses.png"), fullPage: true });

  const studentContext = await browser.newContext();
  const student = new AccountPages(await studentContext.newPage());
  const cspStudent = student.watchCsp();
  await student.signUp(learner);
  await student.joinCourse("WRONG123");
  await expect(student.page.getByTestId("join-course-form").getByRole("alert")).toContainText("No course has that join code");
  await student.joinCourse(code.toLowerCase());
  await expect(student.page).toHaveURL(/\/courses\/compilers-spring-term-[a-z0-9]+\/chat/);
  const chatUrl = student.page.url();
  await expect(student.page.getByRole("link", { name: "Documents" })).toHaveCount(0);

  // The documents page is the instructor's: a student is sent back to the chat, with a note.
  await student.page.goto(chatUrl.replace(/\/chat.*$/, "/documents"));
  await expect(student.page).toHaveURL(/\/chat\?denied=documents/);
  await expect(student.page.getByText(/documents page is for its instructors/)).toBeVisible();
  await student.page.screenshot({ path: test.info().outputPath("student-denied.png"), fullPage: true });
  // And the API says so too.
  const api = await student.page.request.get(chatUrl.replace(/\/courses\/([^/]+)\/chat.*$/, "/api/courses/$1/documents"));
  expect(api.status()).toBe(200); // members may list documents (revision numbers for citations)…
  const upload = await student.page.request.post(chatUrl.replace(/\/courses\/([^/]+)\/chat.*$/, "/api/courses/$1/documents"), {
    multipart: { file: { name: "x.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF") } },
  });
  expect(upload.status()).toBe(403); // …but not upload.

  expect(cspInstructor).toEqual([]);
  expect(cspStudent).toEqual([]);
  await instructorContext.close();
  await studentContext.close();
});

test("signing in sends a person back where they were going, and bad credentials say so", async ({ page }) => {
  const pages = new AccountPages(page);
  const csp = pages.watchCsp();
  await page.goto("/courses/demo-cs101/chat");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcourses%2Fdemo-cs101%2Fchat/);
  await pages.signIn({ email: "student@demo.test", password: "wrong password" });
  await expect(page.getByTestId("sign-in-form").getByRole("alert")).toContainText("do not match an account");
  await pages.signIn({ email: "student@demo.test", password: "demo-student" }, /\/courses\/demo-cs101\/chat$/);
  await expect(page.getByTestId("question-input")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByTestId("home-sign-in")).toBeVisible();
  expect(csp).toEqual([]);
});

test("another course's pages answer 404 to a member of a different course", async ({ page }) => {
  const pages = new AccountPages(page);
  await pages.signUp({ name: "Outsider", email: `out-${stamp}@example.test`, password: "outsider password" });
  const res = await page.goto("/courses/demo-cs101/chat");
  expect(res?.status()).toBe(404);
  const api = await page.request.get("/api/courses/demo-cs101/documents");
  expect(api.status()).toBe(404);
});
