import type { Metadata } from "next";
import { AuthForm } from "@/components/auth/auth-form";
import { AuthPage } from "@/components/auth/auth-page";
import { safeNext } from "@/lib/auth/next-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  return (
    <AuthPage title="Sign in" lead="Your courses, your questions and the notes they are answered from.">
      <AuthForm mode="sign-in" next={safeNext((await searchParams).next)} />
    </AuthPage>
  );
}
