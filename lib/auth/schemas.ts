import { z } from "zod";

export const credentials = z.object({
  email: z.email("Enter a valid email address.").max(254),
  password: z.string().min(8, "Use at least 8 characters.").max(200),
});

export const signUpBody = credentials.extend({ name: z.string().trim().min(1, "Enter your name.").max(100) });
