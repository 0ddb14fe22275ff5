import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply of the fake endpoint. */
type PlainReply =
  | { kind: "content"; content: string }
  | { kind: "json"; value: unknown }
  | { kind: "status"; status: number; body?: string }
  /** Never answers (until the server closes): a timeout. */
  | { kind: "hang" }
  /**
   * Server-sent events, as a model writes: `reasoning` deltas first (as some local servers send
   * them), then `value` (as JSON; a string as it is) in chunks of `chunkChars`, `delayMs` apart. `cutAtChar` ends
   * the response mid-stream, as a dropped connection would.
   */
  | { kind: "stream"; value: unknown; chunkChars?: number; delayMs?: number; reasoning?: string[]; cutAtChar?: number };

export type ScriptedReply =
  | PlainReply
  /** The reply is made from the request (an e2e test does not know in advance which passage gets which label). */
  | { kind: "fromRequest"; reply: (body: Record<string, unknown>) => PlainReply };

/** What the server saw of one streamed reply, on its own clock. */
export interface StreamLog {
  /** performance.now() when each content chunk was written. */
  chunkTimes: number[];
  /** Whether the last chunk (and [DONE]) went out before the client went away. */
  finished: boolean;
  /** The client closed the connection before the stream ended. */
  aborted: boolean;
}

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
}

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests: chat completions answer from a
 * script, in order (the last reply repeats); embeddings are deterministic bag-of-words vectors.
 */
export async function startScriptedOpenAI({ chat = [] as ScriptedReply[], embeddingDims = 64 } = {}) {
  const requests: RecordedRequest[] = [];
  const script = [...chat];
  let served = 0;
  const hanging = new Set<import("node:http").ServerResponse>();
  const streams: StreamLog[] = [];

  const streamLogged = async (res: ServerResponse, model: string, reply: Extract<ScriptedReply, { kind: "stream" }>) => {
    const log: StreamLog = { chunkTimes: [], finished: false, aborted: false };
    streams.push(log);
    await streamReply(res, model, reply, log);
  };

  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || "{}") as Record<string, unknown>;
    const path = req.url ?? "";
    requests.push({ path, body });
    if (path.endsWith("/embeddings")) {
      const input = body.input as string[];
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          object: "list",
          data: input.map((text, index) => ({ object: "embedding", index, embedding: bagOfWords(text, embeddingDims) })),
          model: body.model,
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
      return;
    }
    if (path.endsWith("/chat/completions")) {
      const scripted = script[Math.min(served, script.length - 1)];
      const reply = scripted?.kind === "fromRequest" ? scripted.reply(body) : scripted;
      served++;
      if (!reply) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { message: "no scripted reply" } }));
        return;
      }
      if (reply.kind === "hang") {
        hanging.add(res);
        return;
      }
      if (reply.kind === "stream") {
        await streamLogged(res, String(body.model), reply);
        return;
      }
      if (reply.kind === "status") {
        res.statusCode = reply.status;
        res.setHeader("content-type", "application/json");
        res.end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}`, type: "server_error" } }));
        return;
      }
      const content = reply.kind === "json" ? JSON.stringify(reply.value) : reply.content;
      // A request that asks for a stream gets one, as from a real endpoint: the content in SSE chunks.
      if (body.stream === true) {
        await streamLogged(res, String(body.model), { kind: "stream", value: content });
        return;
      }
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: `chatcmpl-${served}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith("/chat/completions")),
    /** One log per streamed reply, in order. */
    streams,
    /** Replaces the script: the next chat completion answers with the first of these. */
    setScript: (replies: ScriptedReply[]) => {
      script.splice(0, script.length, ...replies);
      served = 0;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function streamReply(res: ServerResponse, model: string, reply: Extract<ScriptedReply, { kind: "stream" }>, log: StreamLog): Promise<void> {
  const { chunkChars = 24, delayMs = 15, reasoning = [] } = reply;
  res.on("close", () => {
    if (!log.finished) log.aborted = true;
  });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(`data: ${JSON.stringify({ id: "chatcmpl-stream", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  const pause = () => new Promise((r) => setTimeout(r, delayMs));
  send({ role: "assistant", content: "" });
  for (const thought of reasoning) {
    if (res.destroyed) return;
    send({ reasoning_content: thought });
    await pause();
  }
  const json = typeof reply.value === "string" ? reply.value : JSON.stringify(reply.value);
  const end = reply.cutAtChar ?? json.length;
  for (let at = 0; at < end; at += chunkChars) {
    if (res.destroyed) return;
    send({ content: json.slice(at, Math.min(at + chunkChars, end)) });
    log.chunkTimes.push(performance.now());
    await pause();
  }
  if (reply.cutAtChar !== undefined) {
    res.destroy(); // the connection drops mid-answer
    return;
  }
  send({}, "stop");
  res.write("data: [DONE]\n\n");
  log.finished = true;
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** Hashes words into buckets: texts sharing words get similar vectors, deterministically. */
function bagOfWords(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
