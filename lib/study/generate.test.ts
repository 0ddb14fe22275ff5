import { describe, expect, it } from "vitest";
import { answerKey, generateCards, isContentsPage, runningLines, type StudyPage } from "./generate";

/** A page whose one chunk covers it all, as the indexer would store a short page. */
function page(text: string, pdfPage = 1, documentId = "doc-a"): StudyPage {
  return { documentId, documentTitle: "Garden Notes", revisionId: `${documentId}-r1`, revisionNumber: 1, pdfPage, pageLabel: null, text, chunks: [{ chunkId: `${documentId}-p${pdfPage}`, charStart: 0, charEnd: text.length }] };
}

describe("term/definition cards", () => {
  it("reads 'X is a …' as a term and its definition, quoting the sentence verbatim", () => {
    const text = "A trellis is a wooden frame that supports climbing plants such as beans and peas.";
    const [card] = generateCards([page(text)]);
    expect(card).toMatchObject({ kind: "definition", front: "trellis", back: text, quote: text, charStart: 0, charEnd: text.length, answerType: "DEFINITION" });
  });

  it("reads an inline 'X: …' label as a definition", () => {
    const text = "Mulching: covering bare soil with straw or bark to keep moisture in the ground.";
    const cards = generateCards([page(text)]);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ kind: "definition", front: "Mulching", back: "covering bare soil with straw or bark to keep moisture in the ground." });
  });

  it("reads a heading term with its first sentence when the sentence names it", () => {
    const text = "Crop Rotation\n\nCrop rotation moves each plant family to a different bed every season, which starves soil pests.\nIt also balances nutrients across the garden beds.";
    const cards = generateCards([page(text)]);
    const def = cards.find((c) => c.kind === "definition");
    expect(def).toMatchObject({ front: "Crop Rotation", back: "Crop rotation moves each plant family to a different bed every season, which starves soil pests." });
  });

  it("does not take a pointing subject for a term ('Another option is …', 'Hence, the idea is …')", () => {
    const cards = generateCards([page("Another option is a raised bed filled with compost and topsoil.\nHence, the idea is to water deeply but rarely during summer.")]);
    expect(cards.filter((c) => c.kind === "definition")).toEqual([]);
  });
});

describe("cloze cards", () => {
  it("blanks a percentage, a date or an amount, and the answer is the value", () => {
    const cards = generateCards([
      page("Tomato seedlings transplanted after frost survive at 85% in raised beds.", 1),
      page("The community garden opens its spring plots on 14 March 2025 for every member.", 2),
      page("Each garden plot rental costs $45 per season including water and compost.", 3),
    ]);
    expect(cards.map((c) => [c.kind, c.answerType, c.back])).toEqual([
      ["cloze", "PERCENT", "85%"],
      ["cloze", "DATE", "14 March 2025"],
      ["cloze", "MONEY", "$45"],
    ]);
    expect(cards[0].front).toBe("Tomato seedlings transplanted after frost survive at ____ in raised beds.");
  });

  it("never blanks a number that names a thing or counts trivially", () => {
    const cards = generateCards([page("Figure 3 shows the watering schedule for summer tomatoes.\nLab 2 covers soil testing with simple chemistry kits.\nWe merge the two beds into one larger bed.")]);
    expect(cards).toEqual([]);
  });
});

describe("lines that never become cards", () => {
  it("skips table-of-contents lines with dot leaders and contents pages", () => {
    const contents = ["1 Soil Basics ........ 3", "2 Watering and Drainage ........ 9", "3 Compost Heaps ........ 14", "4 Pest Control ........ 21", "5 Harvest Records ........ 30"].join("\n");
    expect(isContentsPage(contents)).toBe(true);
    expect(generateCards([page(contents)])).toEqual([]);
    const plain = ["1 Soil Basics 3", "2 Watering and Drainage 9", "3 Compost Heaps 14", "4 Pest Control 21", "5 Harvest Records 30"].join("\n");
    expect(generateCards([page(plain)])).toEqual([]);
  });

  it("skips running headers and footers found on most pages", () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page(`Garden Notes 2025 edition costs 12% less than ever before\n\nBeds number ${n} hold leafy greens that need daily watering in the hot months.`, n),
    );
    expect(runningLines(pages).size).toBeGreaterThan(0);
    const cards = generateCards(pages);
    expect(cards.some((c) => c.quote.includes("Garden Notes 2025"))).toBe(false);
  });

  it("skips lines without content words and formulas", () => {
    expect(generateCards([page("and so on, as it is.\nx = 4 · y + 2 mod 7")])).toEqual([]);
  });
});

describe("near-duplicates and the per-page cap", () => {
  it("merges the same fact said twice, across pages", () => {
    const cards = generateCards([
      page("Tomato seedlings transplanted after frost survive at 85% in raised beds.", 1),
      page("Tomato seedlings transplanted after the frost survive at 85% in raised beds.", 2),
    ]);
    expect(cards).toHaveLength(1);
    expect(cards[0].pdfPage).toBe(1);
  });

  it("keeps at most perPage cards a page", () => {
    const text = [
      "Carrots germinate in 14 days when the soil stays moist.",
      "Garlic cloves are planted 5 centimetres deep in autumn soil.",
      "Rhubarb crowns yield stalks for 10 years with yearly compost.",
      "Onion sets sprout in 12 days under cool spring weather.",
    ].join("\n");
    expect(generateCards([page(text)], { perPage: 2 })).toHaveLength(2);
    expect(generateCards([page(text)], { perPage: 4 }).length).toBeGreaterThan(2);
  });
});

describe("multiple-choice distractors", () => {
  it("are values of the same entity type from elsewhere in the course, never the right answer twice", () => {
    const deck = [page("Tomato seedlings transplanted after frost survive at 85% in raised beds.", 1)];
    const elsewhere = [
      page("Watering at dawn reduces evaporation by 30% compared with noon.", 1, "doc-b"),
      page("Only 85 % of seed packets sprout when stored in a damp shed.", 2, "doc-b"),
      page("Netting cuts bird damage to berries by 60% during June.", 3, "doc-b"),
      page("Drip lines use 45% less water than sprinklers on sandy soil.", 4, "doc-b"),
      page("The shed opens on 2 May 2025 for tool borrowing.", 5, "doc-b"),
    ];
    const [card] = generateCards(deck, { poolPages: elsewhere });
    expect(card.back).toBe("85%");
    expect(card.distractors).toHaveLength(3);
    const keys = card.distractors.map(answerKey);
    expect(new Set(keys).size).toBe(3);
    // "85 %" is the right answer written differently: never offered as a wrong one.
    expect(keys).not.toContain(answerKey("85%"));
    for (const d of card.distractors) expect(d).toMatch(/%$/);
  });

  it("offers definitions of other terms for a definition card", () => {
    const cards = generateCards([
      page("A trellis is a wooden frame that supports climbing plants such as beans.", 1),
      page("A cloche is a glass cover that protects young seedlings from frost.", 2),
      page("A dibber is a pointed stick that makes holes for planting seeds.", 3),
    ]);
    const trellis = cards.find((c) => c.front === "trellis")!;
    expect(trellis.distractors.sort()).toEqual([cards[1].back, cards[2].back].sort());
  });
});
