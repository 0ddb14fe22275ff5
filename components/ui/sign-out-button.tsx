"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Ends the session (the server clears the cookie) and returns to the start page. */
export function SignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      data-testid="sign-out"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await fetch("/api/auth/sign-out", { method: "POST" });
        } finally {
          router.replace("/");
          router.refresh();
        }
      }}
      className="rounded-md px-2 py-1 text-sm text-muted transition hover:bg-canvas hover:text-ink disabled:opacity-60"
    >
      Sign out
    </button>
  );
}
