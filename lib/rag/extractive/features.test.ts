import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../analyze/analyze";
import { makePassage } from "../fixtures.mock";
import { contentLemmas } from "../text/nlp";
import { relatedWords } from "../text/wordnet";
import { readPassages } from "./answer";
import { contradictsRequiredId, featureNames, focusFoundIn, lineIdf, unitFeatures, weightFocus, type Features } from "./features";

/** Features of every unit of the passages for the question's first part, keyed by quote. */
function featuresOf(question: string, docs: Array<{ text: string; title?: string }>): Map<string, Features> {
  const analysis = analyzeQuestion(question);
  const passages = docs.map((d, i) => makePassage(d.text, { chunkId: `c${i}`, documentId: `d${i}`, documentTitle: d.title ?? `doc-${i}` }));
  const readings = readPassages(passages);
  const part = analysis.parts[0];
  const focus = weightFocus(part, lineIdf(readings));
  const questionLemmas = new Set(contentLemmas(analysis.standalone));
  const out = new Map<string, Features>();
  for (const reading of readings) {
    for (const unit of reading.units) out.set(reading.annotated.text.slice(unit.start, unit.end), unitFeatures({ part, focus, passageCover: focusFoundIn(readings, focus), questionLemmas, reading, unit }));
  }
  return out;
}

const get = (m: Map<string, Features>, quote: string) => {
  const f = m.get(quote);
  if (!f) throw new Error(`no unit ${quote}; have ${[...m.keys()].join(" | ")}`);
  return f;
};

describe("unitFeatures: cover", () => {
  const m = featuresOf("Do I need permission to record lectures?", [
    { text: "You need permission to record lectures." },
    { text: "A permit is required to record lectures." },
    { text: "Lectures start at nine." },
  ]);

  it("is 1 when the unit holds every focus word, and lower when it holds only some", () => {
    expect(get(m, "You need permission to record lectures.").cover).toBe(1);
    expect(get(m, "You need permission to record lectures.").coverRelated).toBe(0);
    const partial = get(m, "Lectures start at nine.").cover;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(0.2);
  });

  it("credits a WordNet-related word in coverRelated, not in cover", () => {
    expect(relatedWords("permission")).toContain("permit");
    const f = get(m, "A permit is required to record lectures.");
    expect(f.coverRelated).toBeGreaterThan(0.5);
    expect(f.cover).toBeLessThan(0.5);
    expect(f.cover + f.coverRelated).toBeCloseTo(1, 10);
  });

  it("keeps every feature inside [0, 1] and names each feature once", () => {
    expect(new Set(featureNames).size).toBe(featureNames.length);
    for (const f of m.values()) {
      expect(Object.keys(f).sort()).toEqual([...featureNames].sort());
      for (const n of featureNames) {
        expect(f[n]).toBeGreaterThanOrEqual(0);
        expect(f[n]).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe("unitFeatures: answer type", () => {
  const m = featuresOf("When is the poster due?", [{ text: "The poster is due on 3 May." }, { text: "The poster must be printed in colour." }]);

  it("marks a date question's unit with a date as typeMatch", () => {
    expect(get(m, "The poster is due on 3 May.")).toMatchObject({ typeMatch: 1, typeMissing: 0, cover: 1 });
  });

  it("marks a unit without a date as typeMissing", () => {
    expect(get(m, "The poster must be printed in colour.")).toMatchObject({ typeMatch: 0, typeMissing: 1 });
  });

  it("leaves both at 0 for a question that asks for no measurable type", () => {
    const yesno = featuresOf("Is the poster printed in colour?", [{ text: "The poster must be printed in colour." }]);
    expect(get(yesno, "The poster must be printed in colour.")).toMatchObject({ typeMatch: 0, typeMissing: 0 });
  });
});

describe("required identifiers", () => {
  const m = featuresOf("When is Lab 4 due?", [{ text: "Lab 3 is due on 2 April." }, { text: "Lab 4 is due on 9 April." }]);
  const [part] = analyzeQuestion("When is Lab 4 due?").parts;

  it("sets requiredId on the unit naming the asked identifier only", () => {
    expect(get(m, "Lab 4 is due on 9 April.").requiredId).toBe(1);
    expect(get(m, "Lab 3 is due on 2 April.").requiredId).toBe(0);
  });

  it("treats a unit naming only another id of the same noun as contradicting", () => {
    expect(part.required).toEqual([{ noun: "lab", id: "4" }]);
    expect(contradictsRequiredId(part, "Lab 3 is due on 2 April.")).toBe(true);
    expect(contradictsRequiredId(part, "Lab 4 is due on 9 April.")).toBe(false);
    expect(contradictsRequiredId(part, "Labs 3 and 4 share a deadline: Lab 4 is due first.")).toBe(false);
    // A unit that does not name a lab at all does not contradict.
    expect(contradictsRequiredId(part, "Everything is due on 9 April.")).toBe(false);
  });

  it("never contradicts when the part names no identifier", () => {
    const [plain] = analyzeQuestion("When is the poster due?").parts;
    expect(contradictsRequiredId(plain, "Lab 3 is due on 2 April.")).toBe(false);
  });
});

describe("unitFeatures: scope", () => {
  // Both documents' titles share "compilers" and "lab": scope words.
  const docs = [
    { text: "Lab 4 is due on 9 April.\n\nThe Compilers lab 4 report is due on 9 April.", title: "Compilers Lab Handbook.pdf" },
    { text: "Compilers lectures are on Tuesdays.", title: "Compilers_Lab_Schedule.pdf" },
  ];
  const m = featuresOf("When is Lab 4 due for Compilers?", docs);

  it("counts a title word shared by every document, but not the identifier the question names", () => {
    const readings = readPassages(docs.map((d, i) => makePassage(d.text, { chunkId: `c${i}`, documentTitle: d.title })));
    expect([...readings[0].titleLemmas].sort()).toEqual(["compiler", "lab"]);
    const [part] = analyzeQuestion("When is Lab 4 due for Compilers?").parts;
    const focus = weightFocus(part, lineIdf(readings));
    expect(focus.map((w) => w.lemma)).toEqual(["lab", "4", "due", "compiler"]);
    const share = (lemma: string) => focus.find((w) => w.lemma === lemma)!.weight / focus.reduce((s, w) => s + w.weight, 0);
    // A unit that says "Compilers" matches a scope word: only "compiler" counts as scope; "lab" is the named identifier's noun, though a title word too.
    const named = get(m, "The Compilers lab 4 report is due on 9 April.");
    expect(named.scope).toBeGreaterThan(0);
    expect(named.scope).toBeCloseTo(share("compiler"), 10);
    expect(named.cover).toBeCloseTo(1, 10);
    // A scope word found only in a title is no evidence: neither coverage nor scope.
    const plain = get(m, "Lab 4 is due on 9 April.");
    expect(plain.scope).toBe(0);
    expect(plain.coverContext).toBe(0);
    expect(plain.cover).toBeCloseTo(1 - share("compiler"), 10);
  });

  it("is 0 when the documents share no title word", () => {
    const other = featuresOf("When is Lab 4 due for Compilers?", [
      { text: "Lab 4 is due on 9 April.", title: "handbook.pdf" },
      { text: "Compilers lectures are on Tuesdays.", title: "schedule.pdf" },
    ]);
    expect(get(other, "Lab 4 is due on 9 April.").scope).toBe(0);
  });
});

describe("lineIdf", () => {
  it("weighs a word found on fewer lines more", () => {
    const readings = readPassages([makePassage("The poster is due.\nThe poster is big.\nThe essay is due.", { chunkId: "x" })]);
    const idf = lineIdf(readings);
    expect(idf("essay")).toBeGreaterThan(idf("poster"));
    expect(idf("absent")).toBeGreaterThan(idf("essay"));
  });
});
