import { describe, expect, it } from "vitest";
import { safeNext } from "./next-path";

describe("safeNext", () => {
  it("keeps a same-site path with its query and fragment", () => {
    expect(safeNext("/courses/demo-cs101/chat?c=1#m")).toBe("/courses/demo-cs101/chat?c=1#m");
    expect(safeNext(["/a", "/b"])).toBe("/a");
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext("")).toBe("/");
  });

  it.each([
    ["tab", "/\t/evil.example/x"],
    ["newline", "/\n/evil.example/x"],
    ["carriage return", "/\r/evil.example/x"],
    ["leading tab", "\t//evil.example/x"],
    ["protocol-relative", "//evil.example/x"],
    ["backslash", "/\\evil.example/x"],
    ["backslash pair", "\\\\evil.example/x"],
    ["slash backslash slash", "/\\/evil.example/x"],
    ["absolute", "https://evil.example/x"],
    ["mixed-case scheme", "HtTpS://Evil.Example/x"],
    ["mixed-case javascript", "JaVaScRiPt:alert(1)"],
    ["data", "data:text/html,<script>alert(1)</script>"],
    ["scheme with tab", "ht\ttp://evil.example/x"],
  ])("refuses %s", (_, value) => {
    expect(safeNext(value)).toBe("/");
  });

  it("never returns a path a browser reads as another host", () => {
    for (const value of ["/.//evil.example/x", "/a/..//evil.example/x", "/%2F/evil.example"]) {
      const out = safeNext(value);
      expect(out.startsWith("//")).toBe(false);
      expect(new URL(out, "https://app.test").origin).toBe("https://app.test");
    }
    // Encoded tab stays an escape inside a path on this site.
    expect(safeNext("/%09/evil.example/x")).toBe("/%09/evil.example/x");
  });
});
