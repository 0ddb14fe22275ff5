import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { createFrontDoor, doorSettings, isAnswerRequest } from "./front-door.mjs";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real HTTP server on 127.0.0.1 behind the door; `handle` is what Next.js would be. */
async function listen(limit: number, handle: (req: IncomingMessage, res: ServerResponse) => void, maxWaitMs = 60_000) {
  const door = createFrontDoor({ limit, maxWaitMs });
  server = createServer(door.listener(handle));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { door, base, ask: (path = "/api/courses/c1/chat") => fetch(base + path, { method: "POST", body: "{}" }) };
}

/** The embedded database's driver is synchronous, so an answer is one unbroken chain of work. */
function answerFor30ms(_req: IncomingMessage, res: ServerResponse) {
  const until = performance.now() + 30;
  while (performance.now() < until);
  res.end("answered");
}

/**
 * `n` students, connected (as the chat's keep-alive connections are), whose questions are all on
 * the wire before the server reads any; resolves with their HTTP statuses.
 */
async function crowd(base: string, n: number): Promise<number[]> {
  let connected = 0;
  const count = () => connected++;
  server!.on("connection", count);
  const { port } = new URL(base);
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise<Socket>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => resolve(socket)).on("error", reject);
  })));
  const replies = sockets.map((socket) => new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk) => (text += chunk)).on("close", () => resolve(text));
  }));
  await expect.poll(() => connected).toBe(n);
  server!.off("connection", count);
  for (const socket of sockets) socket.write("POST /api/courses/c1/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  return (await Promise.all(replies)).map((reply) => Number(reply.split(" ")[1]));
}

/** A server whose answers finish only when the test says so. */
async function serve(limit: number) {
  const pending: Array<() => void> = [];
  const served = await listen(limit, (_req, res) => pending.push(() => res.end("answered")));
  return { ...served, pending };
}

describe("front door", () => {
  it("takes answers up to its bound, refuses the next at once with 503, Retry-After and the app's error body, and lets it in once one closes", async () => {
    const { door, pending, ask } = await serve(2);
    const inside = [ask(), ask()];
    await expect.poll(() => door.inside).toBe(2);
    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await refused.json();
    expect(body.code).toBe("unavailable:answers");
    expect(body.message).toMatch(/Try again in \d+ s/);
    pending.shift()!();
    expect(await (await inside[0]).text()).toBe("answered");
    await expect.poll(() => door.inside).toBe(1);
    const later = ask();
    await expect.poll(() => pending.length).toBe(2);
    pending.splice(0).forEach((finish) => finish());
    expect((await later).status).toBe(200);
    expect((await inside[1]).status).toBe(200);
    await expect.poll(() => door.inside).toBe(0);
  });

  it("counts a client that disconnects as gone", async () => {
    const { door, base, ask } = await serve(1);
    const controller = new AbortController();
    const gone = fetch(`${base}/api/courses/c1/chat`, { method: "POST", body: "{}", signal: controller.signal }).catch(() => "aborted");
    await expect.poll(() => door.inside).toBe(1);
    controller.abort();
    expect(await gone).toBe("aborted");
    await expect.poll(() => door.inside).toBe(0);
    const next = ask();
    await expect.poll(() => door.inside).toBe(1);
    server!.closeAllConnections();
    await next.catch(() => undefined);
  });

  it("sees a crowd even when each answer runs to its end without giving the event loop back", async () => {
    const { base } = await listen(3, answerFor30ms);
    const statuses = await crowd(base, 12);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
  });

  it("refuses what would wait longer than its bound at the pace answers have been finishing, though the count is well under its limit", async () => {
    const { base } = await listen(100, answerFor30ms, 100);
    // The first crowd meets a door that has not seen an answer finish yet: all are let in.
    expect(await crowd(base, 6)).toEqual(Array(6).fill(200));
    // Now answers are known to take about 30 ms each: past about three ahead, the wait exceeds 100 ms.
    const statuses = await crowd(base, 12);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(8);
  });

  it("lets other requests straight through, uncounted", async () => {
    const { door, base } = await listen(0, (_req, res) => res.end(String(door.inside)));
    const page = await fetch(`${base}/courses/c1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe("0");
    expect((await fetch(`${base}/api/courses/c1/chat`, { method: "POST", body: "{}" })).status).toBe(503);
  });

  it("counts only requests that compute an answer", () => {
    expect(isAnswerRequest({ method: "POST", url: "/api/courses/bio-101/chat" })).toBe(true);
    expect(isAnswerRequest({ method: "POST", url: "/api/courses/bio-101/playground" })).toBe(true);
    expect(isAnswerRequest({ method: "POST", url: "/api/courses/bio-101/probe?x=1" })).toBe(true);
    expect(isAnswerRequest({ method: "GET", url: "/api/courses/bio-101/chat" })).toBe(false);
    expect(isAnswerRequest({ method: "POST", url: "/api/courses/bio-101/conversations" })).toBe(false);
    expect(isAnswerRequest({ method: "POST", url: "/api/courses/bio-101/chat/extra" })).toBe(false);
  });

  it("bounds answers at the admission queue's slots plus its waiting room, and waits at its longest wait, with lib/env.ts's defaults", () => {
    expect(doorSettings({})).toEqual({ limit: env.ANSWER_CONCURRENCY + env.ANSWER_QUEUE_LIMIT, maxWaitMs: env.ANSWER_QUEUE_WAIT_MS });
    expect(doorSettings({ ANSWER_CONCURRENCY: "2", ANSWER_QUEUE_LIMIT: "5", ANSWER_QUEUE_WAIT_MS: "300" })).toEqual({ limit: 7, maxWaitMs: 300 });
  });
});
