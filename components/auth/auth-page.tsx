import type { ReactNode } from "react";
import { SiteHeader } from "@/components/ui/site-header";

/** The frame of the sign-in and sign-up pages. */
export function AuthPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto flex max-w-md flex-col px-4 py-14 sm:py-20">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
        <p className="mt-2 text-base leading-relaxed text-muted">{lead}</p>
        <div className="mt-8 rounded-2xl border border-line bg-surface p-6 shadow-[0_1px_2px_rgba(0,0,0,0.03)] sm:p-8">{children}</div>
      </main>
    </>
  );
}
