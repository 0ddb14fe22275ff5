import Link from "next/link";

export type CourseSection = "chat" | "documents" | "traces" | "eval";

const sections: { key: CourseSection; label: string }[] = [
  { key: "chat", label: "Ask" },
  { key: "documents", label: "Documents" },
  { key: "traces", label: "Traces" },
  { key: "eval", label: "Evaluation" },
];

interface SiteHeaderProps {
  /** The course being viewed; without it the header shows the app name only. */
  course?: { slug: string; title: string };
  /** The course section that is open, marked as the current page in the navigation. */
  active?: CourseSection;
}

/** The header every page shares: the app name, the open course and its sections. */
export function SiteHeader({ course, active }: SiteHeaderProps) {
  return (
    <header className="border-b border-line bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      <div className="mx-auto flex max-w-5xl flex-col px-4 sm:flex-row sm:items-center sm:gap-6 sm:px-6">
        <div className="flex min-w-0 items-center gap-2 py-3 sm:flex-1 sm:py-3.5">
          <Link href="/" className="flex shrink-0 items-center gap-2 rounded-md font-semibold tracking-tight text-ink">
            <Mark />
            <span>Study assistant</span>
          </Link>
          {course ? (
            <>
              <span aria-hidden="true" className="text-line-strong">
                /
              </span>
              <span className="truncate text-ink-soft" title={course.title}>
                {course.title}
              </span>
            </>
          ) : null}
        </div>
        {course ? (
          <nav aria-label="Course" className="-mx-1 -mt-0.5 flex max-w-full overflow-x-auto pb-2.5 sm:m-0 sm:pb-0">
            <ul className="flex items-center gap-1">
              {sections.map((s) => {
                const current = s.key === active;
                return (
                  <li key={s.key}>
                    <Link
                      href={`/courses/${encodeURIComponent(course.slug)}/${s.key}`}
                      aria-current={current ? "page" : undefined}
                      className={
                        current
                          ? "block rounded-md bg-accent-50 px-3 py-1.5 text-sm font-medium text-accent-700"
                          : "block rounded-md px-3 py-1.5 text-sm text-muted transition-colors hover:bg-canvas hover:text-ink"
                      }
                    >
                      {s.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        ) : null}
      </div>
    </header>
  );
}

function Mark() {
  return (
    <span aria-hidden="true" className="grid size-7 place-items-center rounded-lg bg-accent-600 text-white shadow-sm">
      <svg viewBox="0 0 20 20" fill="none" className="size-4" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
        <path d="M3.5 5.5c2.2-1.2 4.4-1.2 6.5 0v10c-2.1-1.2-4.3-1.2-6.5 0z" />
        <path d="M16.5 5.5c-2.2-1.2-4.4-1.2-6.5 0v10c2.1-1.2 4.3-1.2 6.5 0z" />
      </svg>
    </span>
  );
}
