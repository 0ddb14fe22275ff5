import Link from "next/link";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/ui/site-header";
import type { CourseAccess } from "@/lib/auth/access";
import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";

const tools = [
  { key: "playground", label: "Settings playground" },
  { key: "probe", label: "Evidence probe" },
] as const;

export type WorkbenchPageProps = {
  params: Promise<{ courseId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** A question handed to a workbench page in its address (`?q=`), within the length a question may have. */
export const questionParam = (value: string | string[] | undefined): string | null => (typeof value === "string" ? value.slice(0, MAX_QUESTION_CHARS) : null);

/**
 * The page around one workbench tool: the header (one "Workbench" entry for both tools keeps the
 * bar short), tabs between the tools, the tool's title and what it is for.
 */
export function WorkbenchFrame({ access: { course, user, role }, tool, intro, children }: { access: CourseAccess; tool: (typeof tools)[number]["key"]; intro: string; children: ReactNode }) {
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="playground" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <nav aria-label="Workbench" className="mb-6 inline-flex rounded-lg bg-surface p-1 ring-1 ring-inset ring-line">
          {tools.map((t) => (
            <Link
              key={t.key}
              href={`/courses/${encodeURIComponent(course.slug)}/${t.key}`}
              aria-current={t.key === tool ? "page" : undefined}
              className={
                t.key === tool
                  ? "rounded-md bg-accent-50 px-3 py-1.5 text-sm font-medium text-accent-700"
                  : "rounded-md px-3 py-1.5 text-sm text-muted transition-colors hover:bg-canvas hover:text-ink"
              }
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">{tools.find((t) => t.key === tool)!.label}</h1>
        <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">{intro}</p>
        {children}
      </main>
    </>
  );
}
