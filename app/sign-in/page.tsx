import type { Metadata } from "next";
import { AuthForm } from "@/components/auth/auth-form";
import { AuthPage, safeNext } from "@/components/auth/auth-page";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  return (
    <AuthPage title="Sign in" lead="Your courses, your questions and the notes they are answered from.">
      <AuthForm mode="sign-in" next={safeNext((await searchParams).next)} />
    </AuthPage>
  );
}
