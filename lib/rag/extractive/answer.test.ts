import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../analyze/analyze";
import { makeLabelled } from "../fixtures.mock";
import type { GenerateState, LabelledPassage, Passage } from "../types";
import { generateExtractive, readPassages } from "./answer";
import { featureNames } from "./features";
import { defaultModel, type ExtractiveModel } from "./model";

/** A passage of its own document, labelled as the packer would label it. */
const doc = (label: string, text: string, overrides: Partial<Passage> = {}): LabelledPassage =>
  makeLabelled(label, text, { chunkId: `chunk-${label}`, documentId: `doc-${label}`, documentTitle: `${label.toLowerCase()}-notes.pdf`, ...overrides });

const answer = (question: string, passages: LabelledPassage[], ranks?: ReadonlyMap<string, number>) => generateExtractive({ analysis: analyzeQuestion(question), passages, ranks });

/** Every quote is verbatim from the passage its evidence names. */
function expectVerbatim(state: GenerateState, passages: LabelledPassage[]) {
  for (const part of state.parts) {
    for (const claim of part.claims) {
      for (const e of claim.evidence) {
        const p = passages.find((x) => x.label === e.sourceId);
        expect(p, `unknown source ${e.sourceId}`).toBeDefined();
        expect(p!.text).toContain(e.quote);
      }
    }
  }
}

const poster = "The capstone poster is due on 12 May 2025.";
const seminars = "Seminars meet in the Turing room on the second floor.\nBring a laptop to each seminar.";
const office = "Office hours run every Wednesday afternoon.";

/** A hand-set model: a unit's probability grows with the share of the question it covers, and nothing else. */
const coverOnly: ExtractiveModel = {
  ...defaultModel,
  weights: Object.fromEntries(featureNames.map((n) => [n, n === "cover" ? 4 : 0])) as ExtractiveModel["weights"],
  calibration: { bias: -2, scale: 1, weights: Object.fromEntries(featureNames.map((n) => [n, 0])) as ExtractiveModel["weights"] },
  floor: 0.1,
  secondRatio: 0.3,
};

describe("generateExtractive: answering", () => {
  it("reports a part missing when its best unit lacks the asked-for kind of value, though a lower one states a value of that kind", () => {
    const passages = [doc("S1", "The glaze workshop is held in the annex studio.\n\nThe glaze workshop suits students who have finished the wheel course."), doc("S2", "Kiln induction\n\nThe kiln induction starts at 09:30 in the annex.")];
    // The time in S2 is the kiln induction's: quoting it would answer another question.
    const state = generateExtractive({ analysis: analyzeQuestion("What time does the glaze workshop start?"), passages }, coverOnly);
    expect(state.parts[0]).toMatchObject({ state: "missing", claims: [] });
  });

  it("reports a part missing when neither the best unit nor a close second states the asked-for kind of value", () => {
    const passages = [doc("S1", "Pottery studio\n\nThe pottery studio is in the Hale Annex, basement level.\nBook kiln time with the studio by email: kilns@hale.example.edu")];
    // The studio is in the notes; a telephone number is not.
    const state = generateExtractive({ analysis: analyzeQuestion("What is the pottery studio's phone number?"), passages }, coverOnly);
    expect(state.parts[0]).toMatchObject({ state: "missing", claims: [] });
    const listed = [doc("S1", "Pottery studio\n\nThe pottery studio is in the Hale Annex, basement level.\nPhone: +1 (607) 555-0142")];
    expect(generateExtractive({ analysis: analyzeQuestion("What is the pottery studio's phone number?"), passages: listed }, coverOnly).parts[0].claims.map((c) => c.text)).toContain("Phone: +1 (607) 555-0142");
  });

  it("answers a when-question with no date in its best unit: it may ask for a condition", () => {
    const state = generateExtractive({ analysis: analyzeQuestion("When should a potter trim a bowl?"), passages: [doc("S1", "A potter should trim a bowl once it is leather-hard.")] }, coverOnly);
    expect(state.parts[0].claims.map((c) => c.text)).toEqual(["A potter should trim a bowl once it is leather-hard."]);
  });

  it("shows the sentence that continues the best one beside it, though it scores too low for a second answer of its own", () => {
    const rules = "Late field reports lose a tenth of their mark a day.\nThey get no credit after three days.\n\nThe herbarium opens at nine.";
    const state = generateExtractive({ analysis: analyzeQuestion("What happens to late field reports?"), passages: [doc("S1", rules), doc("S2", "Waders are lent out by the stores.")] }, coverOnly);
    // "They" points back to the reports; the other units share no word with the question.
    expect(state.parts[0].claims.map((c) => c.text)).toEqual(["Late field reports lose a tenth of their mark a day.", "They get no credit after three days."]);
  });

  it("leaves out a next sentence that says nothing of the question", () => {
    const prose = "Late field reports lose a tenth of their mark a day.\nThe herbarium opens at nine.";
    expect(generateExtractive({ analysis: analyzeQuestion("What happens to late field reports?"), passages: [doc("S1", prose)] }, coverOnly).parts[0].claims).toHaveLength(1);
  });

  it("adds no second claim without the asked-for kind of value when the best claim has one", () => {
    const notice = "The lab report is worth 15% of the final grade.\nNever tell anyone the lab report was cancelled.";
    const state = answer("How much is the lab report worth?", [doc("S1", notice)]);
    expect(state.parts[0].claims.map((c) => c.text)).toEqual(["The lab report is worth 15% of the final grade."]);
  });

  it("quotes the sentence that answers a clear question, citing its passage", () => {
    const passages = [doc("S1", `${poster}\nPosters are printed by the department.`), doc("S2", seminars), doc("S3", office)];
    const state = answer("When is the capstone poster due?", passages);
    expect(state.parts).toEqual([
      { ask: "When is the capstone poster due", state: "supported", claims: [{ text: poster, evidence: [{ sourceId: "S1", quote: poster }] }] },
    ]);
    expectVerbatim(state, passages);
    expect(JSON.parse(state.raw)).toEqual(state.parts);
  });

  it("cites the right passage by its label when retrieval ranked it first but it is listed last", () => {
    const passages = [doc("S1", seminars), doc("S2", office), doc("S3", poster)];
    const ranks = new Map([
      ["chunk-S3", 1],
      ["chunk-S1", 2],
      ["chunk-S2", 3],
    ]);
    const state = answer("When is the capstone poster due?", passages, ranks);
    expect(state.parts).toHaveLength(1);
    expect(state.parts[0].state).toBe("supported");
    expect(state.parts[0].claims[0].evidence).toEqual([{ sourceId: "S3", quote: poster }]);
    expectVerbatim(state, passages);
  });

  it("never quotes a unit that states neither the identifier asked about nor a value of the asked-for kind", () => {
    const passages = [doc("S1", "Late lab reports lose five percent of their mark per day, and reports are due at the start of the session."), doc("S2", "Lab 5 is due on 3 May.")];
    const missing = answer("When is Lab 6 due?", passages);
    expect(missing.parts[0].state).toBe("missing");
    const found = answer("When is Lab 5 due?", passages);
    expect(found.parts[0].claims[0].evidence[0].quote).toBe("Lab 5 is due on 3 May.");
  });

  it("never joins the document's title line to the text below it", () => {
    const passages = [doc("S1", "Week 5 Field Trip Bulletin\nThe field trip leaves on 3 May at 08:00. Bring boots.")];
    expect(answer("When does the field trip leave?", passages).parts[0].claims[0].evidence[0].quote).toBe("The field trip leaves on 3 May at 08:00.");
  });

  it("never quotes a running header or footer", () => {
    const scopeTerms = ["pottery", "101", "studio", "handbook", "spring", "2026", "page"];
    const passages = [doc("S1", "Glazes must dry overnight before firing.\nPOTTERY 101 Studio Handbook · Spring 2026 · Page 4", { pdfPage: 4, charStart: 120, scopeTerms })];
    const state = answer("Which pottery studio handbook is for spring 2026?", passages);
    expect(state.parts[0].claims.flatMap((c) => c.evidence.map((e) => e.quote))).not.toContain("POTTERY 101 Studio Handbook · Spring 2026 · Page 4");
    // The same line as a document's title line stays a candidate: it may name the course asked about.
    const title = [doc("S1", "POTTERY 101 Studio Handbook · Spring 2026\nGlazes must dry overnight before firing.", { pdfPage: 1, charStart: 0, scopeTerms })];
    expect(generateExtractive({ analysis: analyzeQuestion("Which pottery studio handbook is for spring 2026?"), passages: title }, coverOnly).parts[0].claims[0].evidence[0].quote).toBe("POTTERY 101 Studio Handbook · Spring 2026");
  });

  it("never quotes a numbered item's label alone, which says nothing of what the item holds", () => {
    const passages = [doc("S1", "Figure 3.2.\n\nEach kiln in the studio is fired weekly.")];
    const quotes = generateExtractive({ analysis: analyzeQuestion("What does figure 3.2 show about the kiln?"), passages }, coverOnly).parts[0].claims.flatMap((c) => c.evidence.map((e) => e.quote));
    expect(quotes).not.toContain("Figure 3.2.");
  });

  it("never quotes a line that asks a question", () => {
    const passages = [doc("S1", "What is a watershed?\n\nRivers drain into the sea.")];
    expect(answer("What is a watershed?", passages).parts[0].state).toBe("missing");
  });

  it("declines a question whose words appear in no passage", () => {
    const state = answer("Which volcano erupted near Naples?", [doc("S1", poster), doc("S2", seminars), doc("S3", office)]);
    expect(state.parts).toEqual([{ ask: "Which volcano erupted near Naples", state: "missing", claims: [] }]);
  });

  it("declines when the only candidate names another identifier than the one asked", () => {
    const state = answer("When is Lab 4 due?", [doc("S1", "Lab 3 is due on 2 April 2025.")]);
    expect(state.parts).toEqual([{ ask: "When is Lab 4 due", state: "missing", claims: [] }]);
  });

  it("answers a part asked twice once", () => {
    const question = "When is the capstone poster due, and when is the capstone poster due?";
    expect(analyzeQuestion(question).parts).toHaveLength(2);
    const state = answer(question, [doc("S1", poster), doc("S2", office)]);
    expect(state.parts).toHaveLength(1);
    expect(state.parts[0]).toMatchObject({ ask: "When is the capstone poster due", state: "supported" });
  });

  it("gives the same output for the same input", () => {
    const passages = [doc("S1", `${poster}\nPosters are printed by the department.`), doc("S2", seminars)];
    const a = answer("Where do the seminars meet, and when is the capstone poster due?", passages);
    const b = answer("Where do the seminars meet, and when is the capstone poster due?", passages);
    expect(a.parts).toHaveLength(2);
    expect(b).toEqual(a);
    expect(b.raw).toBe(a.raw);
  });
});

describe("generateExtractive: conflicts and corrections", () => {
  const calendar = "The capstone poster is due on 12 May 2025.";
  const memo = "The capstone poster is due on 19 May 2025.";

  it("reports two documents giving different dates for the same deliverable as conflicting, with both", () => {
    const passages = [doc("S1", calendar), doc("S2", memo)];
    const state = answer("When is the capstone poster due?", passages);
    expect(state.parts).toHaveLength(1);
    expect(state.parts[0].state).toBe("conflicting");
    expect(state.parts[0].claims.map((c) => c.evidence)).toEqual([[{ sourceId: "S1", quote: calendar }], [{ sourceId: "S2", quote: memo }]]);
    expectVerbatim(state, passages);
  });

  it("lets an instructor's correction supersede, citing only the correction", () => {
    const state = answer("When is the capstone poster due?", [doc("S1", calendar), doc("S2", memo, { isCorrection: true })]);
    expect(state.parts).toEqual([{ ask: "When is the capstone poster due", state: "supported", claims: [{ text: memo, evidence: [{ sourceId: "S2", quote: memo }] }] }]);
  });

  it("lets the correction win when it is the better-ranked side too", () => {
    const state = answer("When is the capstone poster due?", [doc("S1", calendar, { isCorrection: true }), doc("S2", memo)]);
    expect(state.parts[0].state).toBe("supported");
    expect(state.parts[0].claims.map((c) => c.evidence[0].sourceId)).toEqual(["S1"]);
  });

  it("lets the correction supersede when other documents repeat the old date ahead of it", () => {
    const reminder = "Reminder: the capstone poster is due on 12 May 2025.";
    const state = answer("When is the capstone poster due?", [doc("S1", calendar), doc("S2", reminder), doc("S3", memo, { isCorrection: true })]);
    expect(state.parts[0].state).toBe("supported");
    expect(state.parts[0].claims.map((c) => c.evidence[0].sourceId)).toEqual(["S3"]);
  });

  it("does not call two passages of the same document a conflict", () => {
    const state = answer("When is the capstone poster due?", [doc("S1", calendar), doc("S2", memo, { documentId: "doc-S1" })]);
    expect(state.parts[0].state).toBe("supported");
    expect(state.parts[0].claims[0].evidence[0]).toEqual({ sourceId: "S1", quote: calendar });
  });
});

describe("readPassages: sections", () => {
  const item = "Problem 4 — Pottery fair stall\n\nA potter rents a stall for three days and sells mugs at $18 each.\n\n";
  const table = "Day Mugs Takings\n1 12 216\n2 15 270\n3 9 162\n";
  const lastSection = (text: string) => readPassages([doc("S1", text)])[0].sections.at(-1)!;

  it("reads a table's header row in a numbered item's working as part of the item: its rows are about what the item states", () => {
    expect([...lastSection(item + table).lemmas]).toEqual(expect.arrayContaining(["stall", "mug", "day"]));
  });

  it("keeps a table under a heading after the item to that heading alone", () => {
    const section = lastSection(`${item}Sales summary\n\n${table}`);
    expect([...section.lemmas]).toEqual(expect.arrayContaining(["day", "mug"]));
    expect([...section.lemmas]).not.toContain("stall");
  });
});
