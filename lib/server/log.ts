import "server-only";
import { env } from "@/lib/env";

export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

/** Where lines go and how they look; tests swap the sink to read what was logged. */
interface LogOutput {
  format: "json" | "pretty";
  write: (line: string, level: LogLevel) => void;
}

const defaultOutput = (): LogOutput => ({
  // A terminal is read by a person; anything else (a container's log driver, a file) by a machine.
  format: env.LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json"),
  write: (line, level) => (level === "error" ? process.stderr : process.stdout).write(line + "\n"),
});

let output: LogOutput = defaultOutput();

/** For the command-line tools, whose stdout is their result: log lines go to stderr instead. */
export function logToStderr(): void {
  const { format } = output;
  output = { format, write: (line) => process.stderr.write(line + "\n") };
}

/** Test hook: send lines elsewhere (and in a given format) until the returned function restores the default. */
export function captureLogs(format: LogOutput["format"] = "json"): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  output = { format, write: (line) => lines.push(line) };
  return { lines, restore: () => (output = defaultOutput()) };
}

/**
 * One log line: an event name and flat fields. JSON lines carry `time`, `level` and `event`
 * first; an Error among the fields becomes its message and code (and its stack on an error line).
 */
export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
  const clean: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    // An error line keeps the stack, for the operator; a warning the message alone.
    clean[k] = v instanceof Error ? { message: v.message, ...("code" in v ? { code: (v as { code: unknown }).code } : {}), ...(level === "error" ? { stack: v.stack } : {}) } : v;
  }
  const time = new Date();
  output.write(output.format === "json" ? JSON.stringify({ time: time.toISOString(), level, event, ...clean }) : pretty(time, level, event, clean), level);
}

function pretty(time: Date, level: LogLevel, event: string, fields: LogFields): string {
  const head = `${time.toISOString().slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${event}`;
  const rest = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? (/\s/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`);
  return [head, ...rest].join(" ");
}
