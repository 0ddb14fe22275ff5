import "server-only";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

type Collect = (options: { type: "major"; execution: "async" }) => void;

/**
 * V8's own `gc`, without starting node with --expose-gc (server.mjs, the standalone build, the
 * cluster's forks and the benchmarks all start the server their own way): the flag, set at run
 * time, exposes `gc` in contexts created after it.
 */
function exposedGc(): Collect {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as Collect;
}

export interface NativeCollector {
  /** Major collections asked for so far. */
  collections(): number;
  stop(): void;
}

/**
 * libSQL's driver keeps 3–4 KB of native memory for every statement it runs until V8 collects
 * the statement's JavaScript wrapper, and only a major collection does (tursodatabase/libsql-js#153).
 * V8 never counts that memory, so on the server's small heap major collections are rare and RSS
 * climbs by hundreds of MB under load. Garbage grows with work, so this asks for a concurrent
 * major collection after every `busyMs` of event-loop activity: none while the server is idle,
 * one every `busyMs` at full load. Checked every `checkMs`, outside any request.
 */
export function startNativeCollector({ busyMs, checkMs = 1000, collect = exposedGc() }: { busyMs: number; checkMs?: number; collect?: Collect }): NativeCollector {
  let last = performance.eventLoopUtilization();
  let busy = 0;
  let collections = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    busy += performance.eventLoopUtilization(now, last).active;
    last = now;
    if (busy < busyMs) return;
    busy = 0;
    collections++;
    collect({ type: "major", execution: "async" });
  }, checkMs);
  timer.unref();
  return { collections: () => collections, stop: () => clearInterval(timer) };
}
