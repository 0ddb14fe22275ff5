import Link from "next/link";
import { SiteHeader } from "@/components/ui/site-header";

/** Unknown pages, and courses the visitor is not a member of: the same answer, so ids cannot be probed. */
export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-xl px-4 py-20 text-center sm:py-28">
        <p className="text-sm font-medium text-accent-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-ink">This page does not exist</h1>
        <p className="mt-3 text-base leading-relaxed text-muted">
          Or it belongs to a course you are not a member of. Ask the course&rsquo;s instructor for its join code.
        </p>
        <Link href="/" className="mt-8 inline-block rounded-lg bg-accent-600 px-5 py-2.5 text-[15px] font-medium text-white shadow-sm hover:bg-accent-700">
          Your courses
        </Link>
      </main>
    </>
  );
}
