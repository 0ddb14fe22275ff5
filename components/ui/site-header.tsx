import Link from "next/link";
import { SignOutButton } from "./sign-out-button";

export type CourseSection = "chat" | "study" | "documents" | "questions" | "playground" | "traces" | "eval";
export type CourseRole = "instructor" | "student";

const sections: { key: CourseSection; label: string; instructorOnly: boolean }[] = [
  { key: "chat", label: "Ask", instructorOnly: false },
  { key: "study", label: "Study", instructorOnly: false },
  { key: "documents", label: "Documents", instructorOnly: true },
  { key: "questions", label: "Questions", instructorOnly: true },
  // The playground and the evidence probe share one entry (tabs on their pages): the bar stays short enough for the course title.
  { key: "playground", label: "Workbench", instructorOnly: true },
  { key: "traces", label: "Traces", instructorOnly: true },
  { key: "eval", label: "Evaluation", instructorOnly: true },
];

interface SiteHeaderProps {
  /** The course being viewed; without it the header shows the app name only. */
  course?: { slug: string; title: string };
  /** The course section that is open, marked as the current page in the navigation. */
  active?: CourseSection;
  /** The viewer's role in the course: students see only the sections open to them. */
  role?: CourseRole;
  /** The signed-in user, shown with a sign-out action. */
  user?: { name: string; email?: string };
}

/** The header every page shares: the app name, the open course and its sections, the signed-in user. */
export function SiteHeader({ course, active, role, user }: SiteHeaderProps) {
  const visible = sections.filter((s) => role !== "student" || !s.instructorOnly);
  return (
    <header className="border-b border-line bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      {/* The course title keeps its width: when the sections do not fit beside it, they wrap to a second row. */}
      <div className="mx-auto flex max-w-5xl flex-col px-4 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6 sm:px-6">
        <div className="flex min-w-0 max-w-full items-center gap-2 py-3 sm:py-3.5">
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
          {user ? (
            <div className="ml-auto flex shrink-0 items-center gap-1 pl-2 sm:hidden">
              <SignOutButton />
            </div>
          ) : null}
        </div>
        {course ? (
          <nav aria-label="Course" className="-mx-1 -mt-0.5 flex max-w-full overflow-x-auto pb-2.5 sm:m-0 sm:ml-auto sm:py-2.5">
            <ul className="flex items-center gap-1">
              {visible.map((s) => {
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
        {user ? (
          <div className="hidden shrink-0 items-center gap-2 border-l border-line pl-4 sm:ml-auto sm:flex sm:[nav+&]:ml-0">
            <span
              data-testid="signed-in-user"
              title={user.email ? `${user.name} (${user.email})` : user.name}
              className="grid size-7 place-items-center rounded-full bg-canvas text-[11px] font-semibold text-ink-soft ring-1 ring-inset ring-line"
            >
              <span aria-hidden="true">{initials(user.name)}</span>
              <span className="sr-only">Signed in as {user.name}</span>
            </span>
            <SignOutButton />
          </div>
        ) : null}
      </div>
    </header>
  );
}

/** "Dr. Maya Lindqvist" → "ML": first and last name, titles such as "Dr." left out. */
function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => w && !w.endsWith(".") && /\p{L}/u.test(w));
  if (words.length === 0) return "?";
  const first = Array.from(words[0])[0];
  const last = words.length > 1 ? Array.from(words[words.length - 1])[0] : "";
  return (first + last).toUpperCase();
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
