import { expect, type APIRequestContext, type Page } from "@playwright/test";

/**
 * Creates an account through the API as the sign-up form does: sign-up answers the same for any
 * address and starts no session, so it is followed by a sign-in, whose cookie lands in `request`.
 */
export async function signUpThroughApi(request: APIRequestContext, account: { name: string; email: string; password: string }): Promise<void> {
  expect((await request.post("/api/auth/sign-up", { data: account })).status(), `signing up ${account.email}`).toBe(202);
  expect((await request.post("/api/auth/sign-in", { data: { email: account.email, password: account.password } })).status(), `signing in ${account.email}`).toBe(200);
}

/** Sign-up, sign-in and the course list, as a person uses them. */
export class AccountPages {
  constructor(readonly page: Page) {}

  async signUp(account: { name: string; email: string; password: string }): Promise<void> {
    await this.signUpForm(account);
    await expect(this.page.getByRole("heading", { level: 1, name: "Your courses" })).toBeVisible();
  }

  /** Fills and sends the sign-up form, whatever comes of it. */
  async signUpForm({ name, email, password }: { name: string; email: string; password: string }): Promise<void> {
    await this.page.goto("/sign-up");
    const form = this.page.getByTestId("sign-up-form");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Create account" }).click();
  }

  async signIn({ email, password }: { email: string; password: string }, next?: RegExp): Promise<void> {
    const form = this.page.getByTestId("sign-in-form");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Sign in" }).click();
    if (next) await expect(this.page).toHaveURL(next);
  }

  async createCourse(title: string): Promise<void> {
    const form = this.page.getByTestId("create-course-form");
    await form.getByLabel("Course title").fill(title);
    await form.getByRole("button", { name: "Create" }).click();
    await expect(this.page.getByRole("heading", { level: 1, name: "Documents" })).toBeVisible();
  }

  async joinCourse(code: string): Promise<void> {
    const form = this.page.getByTestId("join-course-form");
    await form.getByLabel("Join code").fill(code);
    await form.getByRole("button", { name: "Join" }).click();
  }

  /** Collects Content-Security-Policy violations the browser reports on this page. */
  watchCsp(): string[] {
    const violations: string[] = [];
    this.page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    return violations;
  }
}
