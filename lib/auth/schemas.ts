import { z } from "zod";
import { COMMON_PASSWORDS } from "./common-passwords";

export const credentials = z.object({
  email: z.email("Enter a valid email address.").max(254),
  password: z.string().min(1, "Enter your password.").max(200),
});

const common = new Set(COMMON_PASSWORDS);
export const MIN_PASSWORD_LENGTH = 10;

/** A new password: long enough, not the address itself, not one of the most common passwords. */
export const signUpBody = z
  .object({
    email: credentials.shape.email,
    name: z.string().trim().min(1, "Enter your name.").max(100),
    password: z.string().min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`).max(200),
  })
  .superRefine(({ email, password }, ctx) => {
    const p = password.trim().toLowerCase();
    const address = email.trim().toLowerCase();
    if (p === address || p === address.split("@")[0]) ctx.addIssue({ code: "custom", path: ["password"], message: "Do not use your email address as the password." });
    else if (common.has(p)) ctx.addIssue({ code: "custom", path: ["password"], message: "That password is one of the most common ones; choose another." });
  });
