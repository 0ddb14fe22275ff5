import "server-only";
import type { Db } from "@/lib/db/client";
import { createUser, getUserByEmail } from "@/lib/db/queries/users";
import type { User } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "./password";

/** Verifying against this when the email is unknown keeps both failures equally slow. */
let dummyHash: Promise<string> | undefined;

export async function signUp(db: Db, input: { email: string; name: string; password: string }): Promise<User> {
  if (await getUserByEmail(db, { email: input.email })) {
    throw new AppError("conflict:auth", "An account with this email already exists. Sign in instead.");
  }
  return createUser(db, { email: input.email, name: input.name, passwordHash: await hashPassword(input.password) });
}

export async function signIn(db: Db, { email, password }: { email: string; password: string }): Promise<User> {
  const user = await getUserByEmail(db, { email });
  dummyHash ??= hashPassword("not a real password");
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (!user || !ok) throw new AppError("unauthorized:auth", "That email and password do not match an account.");
  return user;
}
