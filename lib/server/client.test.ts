import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { clientAddress, requestHost } from "./client";

const req = (headers: Record<string, string>) => new Request("http://app.test/api", { headers });

describe("proxy headers", () => {
  it("ignores X-Forwarded-Host unless a proxy is trusted", () => {
    const forged = req({ host: "app.test", "x-forwarded-host": "evil.example" });
    expect(requestHost(forged, { hops: 0 })).toBe("app.test");
    expect(requestHost(forged, { hops: 1 })).toBe("evil.example");
    expect(requestHost(req({ host: "app.test" }), { hops: 1 })).toBe("app.test");
  });

  it("takes the client's address the trusted proxy appended, not one the client wrote", () => {
    const chain = req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" });
    expect(clientAddress(chain, { hops: 1 })).toBe("10.0.0.2");
    expect(clientAddress(chain, { hops: 2 })).toBe("203.0.113.9");
    expect(clientAddress(chain, { hops: 9 })).toBe("6.6.6.6");
    expect(clientAddress(req({}), { hops: 1 })).toBe("unknown");
  });
});

describe("plain http (HTTPS unset)", () => {
  it("sends no HSTS: a browser would pin https on a host that may not serve it", () => {
    expect(proxy(new NextRequest("http://app.test/")).headers.get("strict-transport-security")).toBeNull();
  });
});
