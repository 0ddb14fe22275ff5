/**
 * The front door: answers counted where the HTTP server receives them, before Next.js routes
 * them, so that a question past the bound gets 503 with Retry-After within milliseconds instead
 * of seconds of waiting. Plain JavaScript: server.mjs runs it under node, without a build.
 *
 * Why answers are deferred to the event loop's check phase: on the embedded database an answer
 * runs start to finish as one chain of promise jobs (the driver is synchronous), and Node runs
 * such a chain to its end before it reads the next socket. Handled at once, each request would
 * finish before the next one is even parsed, the crowd would wait unread in socket buffers, and
 * no counter could see it (measured: never more than one answer inside at 200 students).
 * Deferred, every request that arrived is parsed and counted first, in arrival order.
 */

/** Routes that compute an answer (the chat, and the workbench's playground and probe runs). */
const ANSWER_ROUTE = /^\/api\/courses\/[^/]+\/(?:chat|playground|probe)\/?(?:\?|$)/;

/** @param {{ method?: string, url?: string }} req */
export const isAnswerRequest = (req) => req.method === "POST" && ANSWER_ROUTE.test(req.url ?? "");

/**
 * What a refused student reads, from the door and from the admission queue alike.
 * @param {number} retryAfter seconds
 */
export const busyMessage = (retryAfter) => `Many students are asking right now, so your question was not taken. Try again in ${retryAfter} s.`;

/** How much one finished answer moves the door's means (exponential moving averages). */
const SMOOTHING = 0.1;

/**
 * @param {{ limit: number, maxWaitMs: number }} settings `limit`: answers allowed inside the
 *   server at once (running, queued for a slot, or still in Next.js's handling); `maxWaitMs`: the
 *   longest expected wait to let in, at the pace answers have been finishing (a count alone
 *   promises nothing in time: the same crowd waits twice as long on a course twice as slow)
 * @returns {import("./front-door.d.mts").FrontDoor}
 */
export function createFrontDoor({ limit, maxWaitMs }) {
  let inside = 0;
  let meanMs = 100;
  // The server's pace: mean time between answers finishing while it was busy (0 until measured).
  let paceMs = 0;
  let lastFinish = 0;
  /** Counts an answer until its response closes, or answers 503 itself and returns false. */
  const admit = (req, res) => {
    if (inside >= limit || inside * paceMs > maxWaitMs) {
      // The whole crowd inside turns over in about one answer's time in the server.
      const retryAfter = Math.max(1, Math.ceil(meanMs / 1000));
      const body = JSON.stringify({ code: "unavailable:answers", message: busyMessage(retryAfter), retryAfter });
      res.writeHead(503, { "content-type": "application/json", "retry-after": String(retryAfter), "content-length": Buffer.byteLength(body) });
      res.end(body);
      return false;
    }
    const start = performance.now();
    if (inside++ === 0) lastFinish = start; // a busy spell begins: no idle time in the pace
    res.once("close", () => {
      const now = performance.now();
      inside--;
      meanMs += SMOOTHING * (now - start - meanMs);
      paceMs = paceMs === 0 ? now - lastFinish : paceMs + SMOOTHING * (now - lastFinish - paceMs);
      lastFinish = now;
    });
    return true;
  };
  return {
    get inside() {
      return inside;
    },
    listener: (handle) => (req, res) => {
      if (!isAnswerRequest(req)) return void handle(req, res);
      if (!admit(req, res)) return;
      // A student who left while queued has nothing to answer (the close already let them out).
      setImmediate(() => {
        if (!res.destroyed) void handle(req, res);
      });
    },
  };
}

/**
 * The front door's settings from lib/env.ts's (with its defaults): the answers that may run plus
 * those that may wait for a slot, and the admission queue's longest wait.
 * @param {Record<string, string | undefined>} vars the process's environment
 * @returns {{ limit: number, maxWaitMs: number }}
 */
export function doorSettings(vars) {
  const read = (name, fallback) => numberSetting(vars, name, fallback);
  return { limit: read("ANSWER_CONCURRENCY", 4) + read("ANSWER_QUEUE_LIMIT", 64), maxWaitMs: read("ANSWER_QUEUE_WAIT_MS", 750) };
}

/**
 * A numeric setting as lib/env.ts reads it: unset or empty is its default. For server.mjs,
 * which runs before the app's bundle and cannot load lib/env.ts.
 * @param {Record<string, string | undefined>} vars the process's environment
 * @param {string} name
 * @param {number} fallback lib/env.ts's default
 */
export function numberSetting(vars, name, fallback) {
  const v = vars[name];
  return v === undefined || v === "" ? fallback : Number(v);
}
