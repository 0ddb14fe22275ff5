import { expect, test } from "@playwright/test";
import { AccountPages } from "./pages/account-pages";

/**
 * Hardening checks that only a real browser can judge (issue 15): where Chromium goes after
 * signing in with a hostile `next`.
 */
const STUDENT = { email: "student@demo.test", password: "demo-student" };

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
      await expect(page.getByRole("heading", { level: 1, name: "Your courses" })).toBeVisible();
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
