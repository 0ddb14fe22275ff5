/**
 * npm run bench -- http [--build]: the production server under concurrent students, over HTTP.
 *
 * One temporary database holds the demo course (seeded and queued here, indexed by the server's
 * own worker) and a generated 100k-chunk course; server.mjs (`npm start`'s server) serves it on a free local port.
 * 100 students sign up and join both courses through the API, then 1, 10, 50 and 200 of them
 * ask at once, each in a loop. Afterwards the same database answers the same questions in this
 * process, so the cost of HTTP, auth, admission and saving shows beside the question path alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { Agent, request } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { openDb, prepareDb, type DbHandle } from "@/lib/db/client";
import { getCourseBySlug } from "@/lib/db/queries/courses";
import { demoCourse } from "@/lib/demo/course";
import { env } from "@/lib/env";
import { DEMO_COURSE, loadGolden } from "@/lib/eval/run";
import { ask, askDeps } from "@/lib/server/ask";
import { seedDemoCourse } from "@/lib/server/seed";
import { courseOf, percentile, questions } from "./questions";

export const HOST = "127.0.0.1";
const STUDENTS = 100;
const LEVELS = [1, 10, 50, 200];
const LEVEL_SECONDS = 20;
/** The demo course keeps being asked at this concurrency until the server has given this many answers (bounded in time). */
const SOAK = { answers: 5_000, concurrency: 50, seconds: 90 };
const REQUEST_TIMEOUT_MS = 60_000;
const SOURCES = ["app", "lib", "components", "public", "drizzle", "proxy.ts", "instrumentation.ts", "next.config.ts", "package.json", "tsconfig.json", "postcss.config.mjs"];

export interface Course {
  name: string;
  id: string;
  joinCode: string;
  questions: string[];
}

interface Outcome {
  kind: "answer" | "busy" | "error";
  /** Request start → response headers: the wait before the route's answer starts (sign-in check, admission). */
  headersMs?: number;
  /** Request start → first "claim" event, or the "status" event of an answer without claims. */
  firstMs?: number;
  totalMs: number;
  retryAfterS?: number;
  detail?: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number | undefined) => (n === undefined ? "–" : n.toFixed(0));

/** The newest file the build depends on (tests and specs aside). */
function newestSource(root: string): { path: string; mtimeMs: number } {
  let newest = { path: "", mtimeMs: 0 };
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (!/\.(test|spec)\.tsx?$/.test(path) && st.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: st.mtimeMs };
  };
  for (const s of SOURCES) visit(join(root, s));
  return newest;
}

function run(command: string, args: string[], childEnv: NodeJS.ProcessEnv, logPath: string): Promise<number> {
  const log = openSync(logPath, "a");
  const child = spawn(command, args, { env: childEnv, stdio: ["ignore", log, log] });
  return new Promise((resolve) => child.on("exit", (code) => (closeSync(log), resolve(code ?? 1))));
}

function tail(path: string, lines = 30): string {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(-lines).join("\n") : "(no log)";
}

/** Uses the existing production build, building first when there is none or when asked (`--build`). */
export async function ensureBuild(root: string, build: boolean, childEnv: NodeJS.ProcessEnv, logPath: string): Promise<void> {
  const buildId = join(root, ".next", "BUILD_ID");
  if (!build && existsSync(buildId)) {
    const built = statSync(buildId).mtimeMs;
    const newest = newestSource(root);
    const note =
      newest.mtimeMs > built
        ? `older than ${relative(root, newest.path)} (${new Date(newest.mtimeMs).toISOString()}): pass --build to rebuild`
        : "newer than every source file";
    console.log(`build: using .next from ${new Date(built).toISOString()}, ${note}`);
    return;
  }
  console.log(`build: ${existsSync(buildId) ? "rebuilding (--build)" : "no .next/BUILD_ID"}, running npx next build …`);
  const t0 = performance.now();
  const code = await run("npx", ["next", "build"], childEnv, logPath);
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${tail(logPath)}`);
  console.log(`build: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, HOST, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The demo course (queued for the server's worker) and the 100k-chunk course, in the file the server will open. */
async function prepareDatabase(url: string): Promise<{ demo: Course; large: Course }> {
  const handle = openDb(url);
  try {
    await prepareDb(handle);
    const { joinCode } = await seedDemoCourse(handle);
    const demoId = (await getCourseBySlug(handle.db, { slug: demoCourse.slug }))!.id;
    const t0 = performance.now();
    const large = await courseOf(handle, 100_000);
    console.log(`database: demo course queued, ${large.chunks}-chunk course built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const demoQuestions = loadGolden()
      .filter((q) => q.course === DEMO_COURSE)
      .map((q) => q.question);
    return {
      demo: { name: "demo", id: demoId, joinCode, questions: demoQuestions },
      large: { name: "100k", id: large.courseId, joinCode: large.joinCode, questions: questions() },
    };
  } finally {
    handle.client.close();
  }
}

/** The server and every process under it, for memory and CPU. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${tid}/children`, "utf8").trim();
        if (children) out.push(...children.split(" ").map(Number));
      }
    } catch {
      // The process ended between listing and reading.
    }
  }
  return out;
}

function treeRssBytes(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone already.
    }
  }
  return kb * 1024;
}

/** CPU seconds (user + system) of the tree, from /proc/<pid>/stat in clock ticks of 1/100 s. */
function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone already.
    }
  }
  return ticks / 100;
}

/** Samples the server tree's RSS every 100 ms: the peak since the last reset, and the latest. */
export function rssSampler(pid: number) {
  let peak = 0;
  let last = 0;
  let runPeak = 0;
  const sample = () => {
    last = treeRssBytes(pid);
    peak = Math.max(peak, last);
    runPeak = Math.max(runPeak, last);
  };
  const timer = setInterval(sample, 100);
  return {
    reset: () => (sample(), (peak = last)),
    read: () => (sample(), { peak, last, runPeak }),
    stop: () => clearInterval(timer),
  };
}

export class Server {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly logPath: string,
  ) {}

  /** Starts the production server (server.mjs: Next.js behind the front door) in its own process group, so stopping it ends everything it spawned. */
  static async start(root: string, childEnv: NodeJS.ProcessEnv, logPath: string): Promise<Server> {
    const port = await freePort();
    const log = openSync(logPath, "a");
    const child = spawn(process.execPath, [join(root, "server.mjs"), "-p", String(port), "-H", HOST], {
      env: childEnv,
      stdio: ["ignore", log, log],
      detached: true,
    });
    closeSync(log);
    const server = new Server(child, port, logPath);
    process.on("exit", server.kill);
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server.mjs exited with ${child.exitCode}:\n${tail(logPath)}`);
      const status = await fetch(`http://${HOST}:${port}/api/courses`).then((r) => r.status, () => 0);
      if (status === 401) return server;
      if (Date.now() > deadline) throw new Error(`server.mjs did not answer within 60 s:\n${tail(logPath)}`);
      await sleep(200);
    }
  }

  readonly kill = () => {
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  /** SIGTERM to the group, SIGKILL after 5 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once("exit", r));
      try {
        process.kill(-this.child.pid!, "SIGTERM");
      } catch {
        // Already gone.
      }
      await Promise.race([exited, sleep(5_000)]);
    }
    this.kill();
    process.off("exit", this.kill);
  }
}

/** One browser tab: a single keep-alive connection. */
class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(private readonly port: number) {}

  send(method: string, path: string, body: unknown, cookie?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        { host: HOST, port: this.port, path, method, agent: this.agent, headers: { ...(payload ? { "content-type": "application/json" } : {}), ...(cookie ? { cookie } : {}) } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** One question through the chat route, timed from the request's start, its NDJSON read as it arrives. */
  ask(courseId: string, question: string, cookie: string): Promise<Outcome> {
    const t0 = performance.now();
    const since = () => performance.now() - t0;
    const payload = JSON.stringify({ question });
    return new Promise((resolve) => {
      const req = request(
        { host: HOST, port: this.port, path: `/api/courses/${courseId}/chat`, method: "POST", agent: this.agent, headers: { "content-type": "application/json", cookie } },
        (res) => {
          const headersMs = since();
          if (res.statusCode === 503) {
            res.resume();
            const retryAfterS = Number(res.headers["retry-after"]);
            const busy = Number.isFinite(retryAfterS) && retryAfterS >= 0;
            res.on("end", () => resolve({ kind: busy ? "busy" : "error", totalMs: since(), retryAfterS, detail: busy ? undefined : "503 without Retry-After" }));
            return;
          }
          let buffer = "";
          let firstMs: number | undefined;
          let status = false;
          let saved = false;
          let failure: string | undefined = res.statusCode === 200 ? undefined : `HTTP ${res.statusCode}`;
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            buffer += chunk;
            let nl: number;
            while ((nl = buffer.indexOf("\n")) >= 0) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              if (failure) continue;
              let event: { type: string; message?: string };
              try {
                event = JSON.parse(line);
              } catch {
                failure = `not JSON: ${line.slice(0, 100)}`;
                continue;
              }
              if (event.type === "claim" || event.type === "status") firstMs ??= since();
              if (event.type === "status") status = true;
              if (event.type === "saved") saved = true;
              if (event.type === "error") failure = `error event: ${event.message}`;
            }
          });
          res.on("end", () => {
            if (failure && res.statusCode !== 200) failure += ` ${buffer.slice(0, 200)}`;
            if (!failure && !(status && saved)) failure = "stream ended without status and saved";
            resolve(failure ? { kind: "error", totalMs: since(), detail: failure } : { kind: "answer", headersMs, firstMs, totalMs: since() });
          });
          res.on("error", (e) => resolve({ kind: "error", totalMs: since(), detail: e.message }));
        },
      );
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
      req.on("error", (e) => resolve({ kind: "error", totalMs: since(), detail: e.message }));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Signs up the students (each gets a session cookie) and has them join both courses. */
async function enrol(port: number, courses: Course[]): Promise<string[]> {
  const cookies: string[] = [];
  let next = 0;
  // A few at a time: sign-up hashes the password (argon2), which is meant to be slow.
  const worker = async () => {
    const client = new Client(port);
    for (let i = next++; i < STUDENTS; i = next++) {
      const account = { email: `student${i}@bench.test`, password: `bench-password-${i}`, name: `Bench Student ${i}` };
      const signedUp = await client.send("POST", "/api/auth/sign-up", account);
      if (signedUp.status !== 202) throw new Error(`sign-up: HTTP ${signedUp.status} ${signedUp.text.slice(0, 200)}`);
      // Sign-up starts no session (it answers alike for any address): sign in as the form does.
      const res = await client.send("POST", "/api/auth/sign-in", { email: account.email, password: account.password });
      const setCookie = res.headers["set-cookie"]?.[0];
      if (res.status !== 200 || !setCookie) throw new Error(`sign-in: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      const cookie = setCookie.split(";")[0];
      for (const course of courses) {
        const joined = await client.send("POST", "/api/courses/join", { code: course.joinCode }, cookie);
        if (joined.status !== 200) throw new Error(`join ${course.name}: HTTP ${joined.status} ${joined.text.slice(0, 200)}`);
      }
      cookies[i] = cookie;
    }
    client.close();
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return cookies;
}

/** The server's worker indexes the demo PDFs after start; questions wait for it. */
export async function waitForDemo(port: number, course: Course, cookie: string): Promise<void> {
  const client = new Client(port);
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await client.send("GET", `/api/courses/${course.id}/documents`, undefined, cookie);
      const docs = (JSON.parse(res.text) as { documents: { currentRevisionId: string | null; revisions: { status: string }[] }[] }).documents;
      if (docs.some((d) => d.revisions.some((r) => r.status === "failed"))) throw new Error("a demo document failed to index");
      if (docs.length > 0 && docs.every((d) => d.currentRevisionId && d.revisions.every((r) => r.status === "ready"))) return;
      if (Date.now() > deadline) throw new Error("the demo course was not indexed within 120 s");
      await sleep(250);
    }
  } finally {
    client.close();
  }
}

interface LevelResult {
  concurrency: number;
  outcomes: Outcome[];
  seconds: number;
  rssPeak: number;
  rssAfter: number;
  serverCpu: number;
  benchCpu: number;
}

/**
 * `concurrency` students ask in a loop until max(200, 20 × concurrency) requests were sent or
 * `seconds` passed. A 503 is not retried: that student waits its Retry-After, then asks its next
 * question, as the chat tells a person to.
 */
async function level(server: Server, rss: ReturnType<typeof rssSampler>, course: Course, cookies: string[], concurrency: number, limits: { requests: number; seconds: number; answers?: number }): Promise<LevelResult> {
  const tabs = Array.from({ length: concurrency }, () => new Client(server.port));
  // Each student's tab has loaded the app before the clock starts, so its connection is open: a
  // Node server under load accepts new connections only slowly (README "Benchmarks").
  await Promise.all(tabs.map((tab, s) => tab.send("GET", "/api/courses", undefined, cookies[s % cookies.length])));
  rss.reset();
  const cpu0 = treeCpuSeconds(server.child.pid!);
  const bench0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + limits.seconds * 1000;
  const outcomes: Outcome[] = [];
  let sent = 0;
  let answers = 0;
  const more = () => sent < limits.requests && performance.now() < deadline && (limits.answers === undefined || answers < limits.answers);
  const student = async (s: number) => {
    while (more()) {
      const question = course.questions[sent++ % course.questions.length];
      const outcome = await tabs[s].ask(course.id, question, cookies[s % cookies.length]);
      outcomes.push(outcome);
      if (outcome.kind === "answer") answers++;
      if (outcome.kind === "busy") await sleep(Math.min(outcome.retryAfterS! * 1000, Math.max(0, deadline - performance.now())));
    }
  };
  await Promise.all(tabs.map((_, s) => student(s)));
  const seconds = (performance.now() - t0) / 1000;
  for (const tab of tabs) tab.close();
  const { peak, last } = rss.read();
  const bench = process.cpuUsage(bench0);
  return {
    concurrency,
    outcomes,
    seconds,
    rssPeak: peak,
    rssAfter: last,
    serverCpu: (treeCpuSeconds(server.child.pid!) - cpu0) / seconds,
    benchCpu: (bench.user + bench.system) / 1e6 / seconds,
  };
}

const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pcts = (xs: number[]) => (xs.length ? [50, 95, 99].map((p) => percentile(sortedOf(xs), p)) : [undefined, undefined, undefined]);
export const mb = (b: number) => (b / (1024 * 1024)).toFixed(0);

function summarize(r: LevelResult) {
  const answers = r.outcomes.filter((o) => o.kind === "answer");
  const settled = r.outcomes.filter((o) => o.kind !== "error");
  return {
    answers: answers.length,
    perSecond: answers.length / r.seconds,
    headers: pcts(answers.map((o) => o.headersMs!)),
    first: pcts(answers.map((o) => o.firstMs!)),
    whole: pcts(answers.map((o) => o.totalMs)),
    busy: r.outcomes.filter((o) => o.kind === "busy").length,
    errors: r.outcomes.filter((o) => o.kind === "error"),
    withinSecond: settled.filter((o) => o.totalMs <= 1000).length / Math.max(1, r.outcomes.length),
  };
}

function printLevel(course: Course, r: LevelResult): void {
  const s = summarize(r);
  const [h50, h95, h99] = s.headers.map(ms);
  const [f50, f95, f99] = s.first.map(ms);
  const [w50, w95, w99] = s.whole.map(ms);
  console.log(
    `| ${course.name} | ${r.concurrency} | ${r.outcomes.length} | ${s.answers} | ${r.seconds.toFixed(1)} | ${s.perSecond.toFixed(1)} | ${h50} / ${h95} / ${h99} | ${f50} / ${f95} / ${f99} | ${w50} / ${w95} / ${w99} | ${s.busy} | ${s.errors.length} | ${(100 * s.withinSecond).toFixed(0)}% | ${mb(r.rssPeak)} → ${mb(r.rssAfter)} | ${(100 * r.serverCpu).toFixed(0)}% | ${(100 * r.benchCpu).toFixed(0)}% |`,
  );
  const kinds = new Map<string, number>();
  for (const e of s.errors) kinds.set(e.detail ?? "?", (kinds.get(e.detail ?? "?") ?? 0) + 1);
  for (const [detail, n] of kinds) console.log(`|  | errors: ${n} × ${detail.replace(/\|/g, "/").slice(0, 160)} |`);
}

/** The question path alone, in this process on the same file (after the server stopped): p50/p95 of `ask`, after a warm-up. */
async function inProcess(handle: DbHandle, course: Course, rounds: number): Promise<number[]> {
  const deps = askDeps(handle, course.id);
  const qs = course.questions;
  for (const q of qs.slice(0, 20)) await ask(handle, { courseId: course.id, question: q, history: [] }, deps);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await ask(handle, { courseId: course.id, question: qs[i % qs.length], history: [] }, deps);
    times.push(performance.now() - t0);
  }
  return pcts(times) as number[];
}

/** The child processes get their environment explicitly: this database, the demo course, its worker, no ask limit. */
export function productionEnv(url: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url,
    SEED_DEMO: "1",
    INGEST_WORKER: "1",
    RATE_LIMIT_ASK_PER_MINUTE: "1000000",
    RATE_LIMIT_SIGN_UP_PER_HOUR: "1000000",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

export async function benchHttp({ build }: { build: boolean }): Promise<void> {
  const root = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), "bench-http-"));
  const url = `file:${join(dir, "bench.db")}`;
  const logPath = join(dir, "server.log");
  const serverEnv = productionEnv(url);
  console.log(`\n## HTTP: the production server under concurrent students (${env.GENERATION_MODEL ?? "extractive"} answers)\n`);
  let server: Server | undefined;
  let failed = true;
  try {
    await ensureBuild(root, build, serverEnv, join(dir, "build.log"));
    const { demo, large } = await prepareDatabase(url);
    const t0 = performance.now();
    server = await Server.start(root, serverEnv, logPath);
    const rss = rssSampler(server.child.pid!);
    console.log(`server: server.mjs on ${HOST}:${server.port} (pid ${server.child.pid}) ready in ${((performance.now() - t0) / 1000).toFixed(1)} s, RSS ${mb(rss.read().last)} MB`);
    const t1 = performance.now();
    const cookies = await enrol(server.port, [demo, large]);
    await waitForDemo(server.port, demo, cookies[0]);
    console.log(`students: ${cookies.length} signed up and joined both courses, demo course indexed, in ${((performance.now() - t1) / 1000).toFixed(1)} s; RSS ${mb(rss.read().last)} MB\n`);

    console.log("Latencies in ms, p50 / p95 / p99, from the request's start; first claim = the first validated claim (or the status of an answer without claims).\n");
    console.log("| course | students | requests | answers | s | answers/s | response headers | first claim | whole answer | 503 | errors | answer or 503 ≤ 1 s | server RSS peak → after (MB) | server CPU | bench CPU |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    const demoLevels: LevelResult[] = [];
    const largeLevels: LevelResult[] = [];
    for (const n of LEVELS) {
      demoLevels.push(await level(server, rss, demo, cookies, n, { requests: Math.max(200, 20 * n), seconds: LEVEL_SECONDS }));
      printLevel(demo, demoLevels.at(-1)!);
    }
    const answered = () => demoLevels.reduce((a, r) => a + summarize(r).answers, 0);
    const soak = await level(server, rss, demo, cookies, SOAK.concurrency, { requests: Infinity, seconds: SOAK.seconds, answers: Math.max(0, SOAK.answers - answered()) });
    printLevel({ ...demo, name: "demo (soak)" }, soak);
    demoLevels.push(soak);
    await sleep(1000);
    const afterDemo = { answers: answered(), rss: rss.read().last };
    for (const n of LEVELS) {
      largeLevels.push(await level(server, rss, large, cookies, n, { requests: Math.max(200, 20 * n), seconds: LEVEL_SECONDS }));
      printLevel(large, largeLevels.at(-1)!);
    }
    const runPeak = rss.read().runPeak;
    rss.stop();
    await server.stop();
    server = undefined;

    console.log(`\nserver RSS after ${afterDemo.answers} demo-course answers (1 s idle): ${mb(afterDemo.rss)} MB; peak over the run: ${mb(runPeak)} MB`);
    const handle = openDb(url);
    console.log("\nThe question path alone (`ask` in this process, same file, after the server stopped) beside HTTP with one student:\n");
    console.log("| course | in-process p50 / p95 ms | HTTP @1 whole answer p50 / p95 ms | HTTP @1 first claim p50 / p95 ms |");
    console.log("|---|---:|---:|---:|");
    for (const [course, levels] of [[demo, demoLevels], [large, largeLevels]] as const) {
      const [p50, p95] = await inProcess(handle, course, 200);
      const one = summarize(levels[0]);
      console.log(`| ${course.name} | ${ms(p50)} / ${ms(p95)} | ${ms(one.whole[0])} / ${ms(one.whole[1])} | ${ms(one.first[0])} / ${ms(one.first[1])} |`);
    }
    handle.client.close();

    const byLevel = (n: number) => summarize(demoLevels.find((r) => r.concurrency === n)!);
    const best = Math.max(...demoLevels.map((r) => summarize(r).perSecond));
    console.log(
      `\nhttp: @10 p95 ${ms(byLevel(10).first[1])} ms, @50 p95 ${ms(byLevel(50).first[1])} ms p99 ${ms(byLevel(50).first[2])} ms, ${best.toFixed(0)} answers/s, RSS ${mb(runPeak)} MB`,
    );
    failed = false;
  } finally {
    await server?.stop();
    if (failed) console.error(`\nserver log (${logPath}), last lines:\n${tail(logPath)}`);
    rmSync(dir, { recursive: true, force: true });
  }
}
