"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { postJson, useJsonSteps } from "@/components/ui/use-json-post";

interface AuthFormProps {
  mode: "sign-in" | "sign-up";
  /** Where to go after success (a same-site path). */
  next: string;
}

/**
 * Sign-up answers the same whether or not the address already has an account (so it cannot be
 * used to find out), then the form signs in with what was typed: a new account, or an existing one
 * whose password this is. Otherwise it says what to do without saying which case it was.
 */
async function signUpThenIn(url: string, body: unknown) {
  const signedUp = await postJson<unknown>(url, body);
  if (!signedUp.ok) return signedUp;
  const signedIn = await postJson<unknown>("/api/auth/sign-in", body);
  return signedIn.ok
    ? signedIn
    : { ok: false as const, message: "You could not be signed in with this email and password. If you already have an account with this address, sign in with its password." };
}

/** Sign-in and sign-up share one form: the server sets an httpOnly session cookie on success. */
export function AuthForm({ mode, next }: AuthFormProps) {
  const router = useRouter();
  const { error, pending, post } = useJsonSteps(() => {
    router.replace(next);
    router.refresh();
  }, mode === "sign-in" ? postJson : signUpThenIn);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void post(`/api/auth/${mode}`, Object.fromEntries(["email", "password", ...(mode === "sign-up" ? ["name"] : [])].map((k) => [k, String(form.get(k) ?? "")])));
  }

  const field = "mt-1.5 block w-full rounded-lg border border-line-strong bg-surface px-3 py-2.5 text-[15px] text-ink shadow-sm outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100";
  return (
    <form onSubmit={submit} className="space-y-5" noValidate={false} data-testid={`${mode}-form`}>
      {mode === "sign-up" ? (
        <label className="block text-sm font-medium text-ink-soft">
          Name
          <input name="name" autoComplete="name" required maxLength={100} className={field} />
        </label>
      ) : null}
      <label className="block text-sm font-medium text-ink-soft">
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={254} className={field} />
      </label>
      <label className="block text-sm font-medium text-ink-soft">
        Password
        <input
          name="password"
          type="password"
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          required
          minLength={mode === "sign-up" ? 10 : undefined}
          maxLength={200}
          className={field}
        />
        {mode === "sign-up" ? <span className="mt-1 block text-xs font-normal text-muted">At least 10 characters; not your address, not a common password.</span> : null}
      </label>
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-lg bg-accent-600 px-4 py-2.5 text-[15px] font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60"
      >
        {pending ? "One moment…" : mode === "sign-in" ? "Sign in" : "Create account"}
      </button>
      <p className="text-center text-sm text-muted">
        {mode === "sign-in" ? (
          <>
            New here?{" "}
            <Link className="font-medium text-accent-700 hover:underline" href={`/sign-up?next=${encodeURIComponent(next)}`}>
              Create an account
            </Link>
          </>
        ) : (
          <>
            Already have an account?{" "}
            <Link className="font-medium text-accent-700 hover:underline" href={`/sign-in?next=${encodeURIComponent(next)}`}>
              Sign in
            </Link>
          </>
        )}
      </p>
    </form>
  );
}
