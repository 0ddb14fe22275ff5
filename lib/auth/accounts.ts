import "server-only";
import type { Db } from "@/lib/db/client";
import { createUserIfNew, getUserByEmail } from "@/lib/db/queries/users";
import type { User } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "./password";

/** Verifying against this when the email is unknown keeps both failures equally slow. */
let dummyHash: Promise<string> | undefined;

/** What sign-up says, whatever the address: it never tells whether an account already had it. */
export const SIGN_UP_NEXT = "If this address had no account, one has been created. Sign in with this email and password to continue.";

/**
 * Creates the account when the address has none, and otherwise changes nothing. Both cases do the
 * same work (one argon2 hash, one insert that may be ignored), so neither the answer nor its time
 * says whether the address was taken. Null when it was.
 */
export async function register(db: Db, input: { email: string; name: string; password: string }): Promise<User | null> {
  return createUserIfNew(db, { email: input.email, name: input.name, passwordHash: await hashPassword(input.password) });
}

/** register, for scripts and tests that need the new user: an address already taken is a conflict. */
export async function signUp(db: Db, input: { email: string; name: string; password: string }): Promise<User> {
  const user = await register(db, input);
  if (!user) throw new AppError("conflict:auth", "An account with this email already exists. Sign in instead.");
  return user;
}

export async function signIn(db: Db, { email, password }: { email: string; password: string }): Promise<User> {
  const user = await getUserByEmail(db, { email });
  dummyHash ??= hashPassword("not a real password");
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (!user || !ok) throw new AppError("unauthorized:auth", "That email and password do not match an account.");
  return user;
}
