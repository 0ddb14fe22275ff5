/**
 * HTTPS=1 (the site is served over https, often by a TLS proxy in front of plain-http Next): HSTS
 * on every response and Secure session cookies, even though the request Next sees is http.
 */
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.DATABASE_URL = `file:/tmp/https-${process.pid}-${Date.now()}/study.db`;
  process.env.HTTPS = "1";
});

import { NextRequest } from "next/server";
import * as signIn from "@/app/api/auth/sign-in/route";
import * as signOut from "@/app/api/auth/sign-out/route";
import { signUp } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";

describe("served over https", () => {
  it("sends HSTS", () => {
    const res = proxy(new NextRequest("http://app.test/courses"));
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("marks the session cookie Secure on sign-in and sign-out", async () => {
    const { db } = await getDb();
    await signUp(db, { email: "tls@a.test", name: "T", password: "tls password 1" });
    const res = await signIn.POST(new Request("http://app.test/api/auth/sign-in", { method: "POST", body: JSON.stringify({ email: "tls@a.test", password: "tls password 1" }) }), {});
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/; Secure$/);
    const out = await signOut.POST(new Request("http://app.test/api/auth/sign-out", { method: "POST" }), {});
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0; Secure$/);
  });
});
