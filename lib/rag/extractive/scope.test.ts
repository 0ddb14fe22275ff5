import { describe, expect, it } from "vitest";
import { documentScope } from "./scope";

const page = (pdfPage: number, text: string) => ({ pdfPage, pageLabel: null, text });

describe("documentScope", () => {
  it("keeps the title, a short title line and words printed on most pages", () => {
    const pages = [
      page(1, "GEO 210: Field Methods\nWinter 2031\n\nThe field trip leaves at dawn."),
      page(2, "GEO 210 Field Methods\nSoil cores are logged by hand."),
      page(3, "GEO 210 Field Methods\nMaps are drawn to scale."),
      page(4, "Rock samples are bagged and labelled."),
    ];
    const scope = documentScope(pages, "geo210-handbook.pdf");
    expect(scope).toEqual(expect.arrayContaining(["geo210", "handbook", "geo", "210", "field", "methods"]));
    // Words of one page only are content, not scope.
    for (const w of ["soil", "maps", "rock", "trip"]) expect(scope).not.toContain(w);
  });

  it("counts running headers and footers, not words the body of most pages uses", () => {
    const pages = [
      page(1, "Orchard Care Handbook\nPruning is done in late winter.\n1"),
      page(2, "Orchard Care Handbook\nPruning cuts heal faster in dry weather.\n2"),
      page(3, "Orchard Care Handbook\nPruning tools are oiled after use.\n3"),
    ];
    const scope = documentScope(pages, "handbook.pdf");
    expect(scope).toEqual(expect.arrayContaining(["orchard", "care", "handbook"]));
    expect(scope).not.toContain("pruning");
  });

  it("does not take a one-sentence notice as a title line", () => {
    expect(documentScope([page(1, "The pottery studio closes at noon on Friday.")], "notice.pdf")).toEqual(["notice"]);
  });

  it("does not take a long first line (prose) as a title line", () => {
    const scope = documentScope([page(1, "Glaciers carve valleys over thousands of years, leaving moraines and polished rock behind them.")], "notes.pdf");
    expect(scope).toEqual(["notes"]);
  });

  it("needs three pages before it counts running headers", () => {
    const scope = documentScope([page(1, "Title\nalpha beta"), page(2, "alpha gamma")], "x.pdf");
    expect(scope).not.toContain("alpha");
  });
});
