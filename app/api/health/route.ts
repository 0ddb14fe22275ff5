import { checkHealth } from "@/lib/server/health";

/**
 * Public liveness and readiness for a load balancer or an orchestrator: 200 `{status:"ok"}`, or
 * 503 naming the part that fails (or `stopping` during a shutdown). Says nothing about courses.
 */
export async function GET(): Promise<Response> {
  const report = await checkHealth();
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (report.retryAfter !== undefined) headers["retry-after"] = String(report.retryAfter);
  const { retryAfter: _, ...body } = report;
  return Response.json(body, { status: report.status === "ok" ? 200 : 503, headers });
}

export const dynamic = "force-dynamic";
