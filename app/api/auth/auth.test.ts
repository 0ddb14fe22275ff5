/**
 * Sign-in, sign-up and join-by-code against guessing and weak passwords (issue 15), through the
 * route handlers on a real libSQL file. A trusted proxy names each caller's address, so one test
 * can speak from several.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.DATABASE_URL = `file:/tmp/auth-${process.pid}-${Date.now()}/study.db`;
  process.env.TRUST_PROXY = "1";
});

// The real argon2, counted: sign-up must hash whether or not the address is taken.
const hashes = vi.hoisted(() => ({ n: 0 }));
vi.mock("@/lib/auth/password", async (real) => {
  const mod = await real<typeof import("@/lib/auth/password")>();
  return { ...mod, hashPassword: (p: string) => (hashes.n++, mod.hashPassword(p)) };
});

import * as join_ from "../courses/join/route";
import * as coursesRoute from "../courses/route";
import * as signOut_ from "./sign-out/route";
import * as signIn_ from "./sign-in/route";
import * as signUp_ from "./sign-up/route";
import { signUp } from "@/lib/auth/accounts";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { sessions } from "@/lib/db/schema";

const post = (path: string, body: unknown, address: string, cookie?: string) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
const signInAs = (email: string, password: string, address: string) => signIn_.POST(post("/api/auth/sign-in", { email, password }, address), {});

let joinCookie: string;
beforeAll(async () => {
  const { db } = await getDb();
  await signUp(db, { email: "owner@a.test", name: "Owner", password: "owner's long password" });
  const joiner = await signUp(db, { email: "joiner@a.test", name: "J", password: "joiner's long password" });
  joinCookie = `${SESSION_COOKIE}=${(await createSession(db, { userId: joiner.id })).token}`;
});
afterEach(() => vi.useRealTimers());

describe("password guessing", () => {
  it("answers 429 with Retry-After after a few failures, backs off, and never locks the owner out from their own address", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await signInAs("owner@a.test", `wrong guess ${i}`, "203.0.113.66")).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const refused = await signInAs("owner@a.test", "owner's long password", "203.0.113.66");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await refused.json()).message).toMatch(/^Too many failed sign-ins in a short time\. Try again in \d+ s\.$/);
    // The owner, elsewhere, is not locked out by someone else's failures.
    expect((await signInAs("owner@a.test", "owner's long password", "198.51.100.7")).status).toBe(200);

    // Backoff: after the minute, a few more tries; once the hour's 20 are used, wait out the hour.
    const later: number[] = [];
    for (let minute = 1; minute <= 4; minute++) {
      vi.setSystemTime(Date.now() + 61_000);
      for (let i = 0; i < 6; i++) later.push((await signInAs("owner@a.test", `wrong again ${i}`, "203.0.113.66")).status);
    }
    expect(later.filter((s) => s === 401)).toHaveLength(15);
    const hour = await signInAs("owner@a.test", "wrong", "203.0.113.66");
    expect(Number(hour.headers.get("retry-after"))).toBeGreaterThan(60);
  });

  it("limits one address trying many accounts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await signInAs(`nobody${i}@a.test`, "not the password", "192.0.2.200")).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.at(-1)).toBe(429);
    expect((await (await signInAs("owner@a.test", "owner's long password", "192.0.2.200")).json()).message).toMatch(/failed sign-ins from this address/);
  });

  it("limits sign-ups per address and join attempts per user", async () => {
    const signUps: number[] = [];
    for (let i = 0; i < 22; i++) signUps.push((await signUp_.POST(post("/api/auth/sign-up", { email: `new${i}@a.test`, name: "N", password: "a long new password" }, "192.0.2.9"), {})).status);
    expect(signUps.slice(0, 20).every((s) => s !== 429)).toBe(true);
    expect(signUps.slice(20)).toEqual([429, 429]);
    const joins: number[] = [];
    for (let i = 0; i < 31; i++) joins.push((await join_.POST(post("/api/courses/join", { code: `GUESS${i}` }, "192.0.2.10", joinCookie), {})).status);
    expect(joins.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(joins[30]).toBe(429);
  });
});

describe("the password policy", () => {
  const attempt = (email: string, password: string) => signUp_.POST(post("/api/auth/sign-up", { email, name: "P", password }, "192.0.2.50"), {});
  it.each([
    ["fewer than 10 characters", "pol1@a.test", "nine char", /at least 10 characters/],
    ["the email", "policy.person@a.test", "Policy.Person@a.test", /email address/],
    ["the email's name", "policyperson@a.test", "policyperson", /email address/],
    ["a common password", "pol2@a.test", "Password123", /most common/],
    ["another common password", "pol3@a.test", "qwertyuiop", /most common/],
  ])("refuses %s with a clear 400", async (_, email, password, message) => {
    const res = await attempt(email, password);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(message);
  });

  it("takes a long uncommon password", async () => {
    expect((await attempt("pol4@a.test", "plum tractor sunrise")).status).toBeLessThan(300);
  });

  it("still signs in an account made before the policy, with a shorter password", async () => {
    const { db } = await getDb();
    await signUp(db, { email: "old@a.test", name: "Old", password: "oldpass8" });
    expect((await signInAs("old@a.test", "oldpass8", "192.0.2.77")).status).toBe(200);
  });
});

describe("sign-up does not tell whether an account exists", () => {
  const attempt = (email: string, password: string) => signUp_.POST(post("/api/auth/sign-up", { email, name: "Someone", password }, "192.0.2.60"), {});
  async function observe(email: string, password: string) {
    const before = hashes.n;
    const res = await attempt(email, password);
    return { status: res.status, body: await res.json(), cookie: res.headers.get("set-cookie"), hashes: hashes.n - before };
  }

  it("answers a taken address exactly as a new one, with the same work, and changes nothing", async () => {
    const fresh = await observe("brand.new@a.test", "a fresh long password");
    const taken = await observe("owner@a.test", "an attacker's password");
    expect(taken).toEqual(fresh);
    expect(fresh).toMatchObject({ status: 202, cookie: null, hashes: 1 });
    expect(fresh.body.message).toMatch(/Sign in with this email and password/);
    expect(fresh.body.message).not.toMatch(/exists|taken|already/i);
    // The existing account kept its password; the new one signs in with its own.
    expect((await signInAs("owner@a.test", "an attacker's password", "192.0.2.61")).status).toBe(401);
    expect((await signInAs("owner@a.test", "owner's long password", "192.0.2.61")).status).toBe(200);
    expect((await signInAs("brand.new@a.test", "a fresh long password", "192.0.2.61")).status).toBe(200);
  });
});

describe("sessions", () => {
  const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0];
  const courses = (cookie: string) => coursesRoute.GET(new Request("http://localhost/api/courses", { headers: { cookie } }), {});
  const signInWith = (cookie: string | undefined) =>
    signIn_.POST(post("/api/auth/sign-in", { email: "owner@a.test", password: "owner's long password" }, "192.0.2.90", cookie), {});

  it("rotates on sign-in: the session the browser came with ends", async () => {
    const first = cookieOf(await signInWith(undefined));
    const second = cookieOf(await signInWith(first));
    expect(second).not.toBe(first);
    expect((await courses(first)).status).toBe(401);
    expect((await courses(second)).status).toBe(200);
    // A planted token that was never a session changes nothing and is not kept.
    const planted = `${SESSION_COOKIE}=planted-by-someone-else`;
    expect(cookieOf(await signInWith(planted))).not.toBe(planted);
  });

  it("signs out this browser only, or everywhere", async () => {
    const a = cookieOf(await signInWith(undefined));
    const b = cookieOf(await signInWith(undefined));
    const c = cookieOf(await signInWith(undefined));
    const out = (cookie: string, query = "") => signOut_.POST(new Request(`http://localhost/api/auth/sign-out${query}`, { method: "POST", headers: { cookie } }), {});
    expect((await out(a)).status).toBe(204);
    expect([(await courses(a)).status, (await courses(b)).status, (await courses(c)).status]).toEqual([401, 200, 200]);
    expect((await out(b, "?everywhere=1")).status).toBe(204);
    expect([(await courses(b)).status, (await courses(c)).status]).toEqual([401, 401]);
  });

  it("deletes expired sessions", async () => {
    const { db } = await getDb();
    const owner = (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, "owner@a.test") }))!;
    await db.insert(sessions).values({ tokenHash: "expired-long-ago", userId: owner.id, expiresAt: new Date(Date.now() - 1000) });
    await signInWith(undefined);
    expect(await db.query.sessions.findFirst({ where: (s, { eq }) => eq(s.tokenHash, "expired-long-ago") })).toBeUndefined();
    expect(await db.query.sessions.findFirst({ where: (s, { lte }) => lte(s.expiresAt, new Date()) })).toBeUndefined();
  });
});
