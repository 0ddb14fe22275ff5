"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * Ends the session (the server clears the cookie) and returns to the start page; `everywhere` ends
 * every session of the account, on every browser and device.
 */
export function SignOutButton({ everywhere = false }: { everywhere?: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      data-testid={everywhere ? "sign-out-everywhere" : "sign-out"}
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await fetch(`/api/auth/sign-out${everywhere ? "?everywhere=1" : ""}`, { method: "POST" });
        } finally {
          router.replace("/");
          router.refresh();
        }
      }}
      className="rounded-md px-2 py-1 text-sm text-muted transition hover:bg-canvas hover:text-ink disabled:opacity-60"
    >
      {everywhere ? "Sign out on every device" : "Sign out"}
    </button>
  );
}
