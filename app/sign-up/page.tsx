import type { Metadata } from "next";
import { AuthForm } from "@/components/auth/auth-form";
import { AuthPage } from "@/components/auth/auth-page";
import { safeNext } from "@/lib/auth/next-path";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  return (
    <AuthPage title="Create an account" lead="Instructors create courses and upload notes; students join with the course's code.">
      <AuthForm mode="sign-up" next={safeNext((await searchParams).next)} />
    </AuthPage>
  );
}
