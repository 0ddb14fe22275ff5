import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "./analyze/analyze";
import { makeHit } from "./fixtures.mock";
import { CLOSEST_LABEL, explainGaps } from "./gap";
import type { AnswerPart, Hit } from "./types";

const hit = (text: string, rank: number, pdfPage = rank) => makeHit(text, rank, { passage: { documentId: "guide", documentTitle: "Greenhouse handbook", pdfPage } });
const missing = (ask: string): AnswerPart => ({ ask, state: "missing", claims: [] });

/** The gap told for a one-part question left missing over these hits. */
function gapFor(question: string, hits: Hit[]) {
  const analysis = analyzeQuestion(question);
  const [part] = explainGaps([missing(analysis.parts[0].ask)], { analysis, hits });
  return part.gap;
}

describe("explainGaps", () => {
  const warden = hit("Greenhouse warden: Ilse Marchetti, ilse.marchetti@fernbrook.ac.uk, Room G12.", 1);
  const watering = hit("Seedlings in Bay 2 are watered at 7:30 every morning.", 2, 4);

  it("names an identifier the question asks about that no passage states", () => {
    expect(gapFor("When are the seedlings in Bay 5 watered?", [watering, warden])).toEqual({ kind: "unmentioned", text: "No passage found mentions “Bay 5”." });
  });

  it("names the nouns of the question no passage uses, as the phrase they make", () => {
    expect(gapFor("Who approves the orchid import licence?", [warden, watering])).toEqual({ kind: "unmentioned", text: "No passage found mentions “orchid import licence”." });
  });

  it("names a number only with its noun or inside a word", () => {
    expect(gapFor("Which of the 12 benches gets the ferns?", [warden, watering])).toEqual({ kind: "unmentioned", text: "No passage found mentions “benches” or “ferns”." });
  });

  it("lists nouns apart in the question one by one", () => {
    expect(gapFor("Where do the choir, the orchestra and the brass band rehearse?", [warden, watering])).toEqual({
      kind: "unmentioned",
      text: "No passage found mentions “choir”, “orchestra” or “brass band”.",
    });
  });

  it("says the closest passage gives no value of the kind asked for, with its document and page, and quotes it", () => {
    const gap = gapFor("What is the greenhouse warden's phone number?", [warden, watering]);
    expect(gap).toMatchObject({ kind: "no_value", text: "The closest passage (Greenhouse handbook, PDF page 1) gives no phone number." });
    expect(gap?.closest).toMatchObject({ label: CLOSEST_LABEL, documentTitle: "Greenhouse handbook", pdfPage: 1 });
    expect(warden.passage.text).toContain(gap!.closest!.quote);
  });

  it("says when the closest passage is on the subject but does not answer it, and quotes it as the stored text has it", () => {
    const gap = gapFor("Why are the seedlings watered in the morning?", [watering, warden]);
    expect(gap).toMatchObject({ kind: "not_close", text: "The closest passage (Greenhouse handbook, PDF page 4) does not answer it closely enough." });
    const closest = gap!.closest!;
    expect(closest).toMatchObject({ label: CLOSEST_LABEL, pdfPage: 4, quote: "Seedlings in Bay 2 are watered at 7:30 every morning.", revision: watering.passage.revisionNumber });
    // Offsets in the stored page text, as any citation's: the excerpt opens on exactly this quote.
    expect(closest.charEnd - closest.charStart).toBe(closest.quote.length);
    expect(closest.context).toBe(watering.passage.text);
  });

  it("keeps the reason but quotes nothing from a passage whose text cannot be mapped to the stored page", () => {
    const unmapped = makeHit("Seedlings in Bay 2 are watered at 7:30 every morning.\u00ad", 1, { passage: { documentTitle: "Greenhouse handbook", pdfPage: 4 } });
    const gap = gapFor("Why are the seedlings watered in the morning?", [unmapped]);
    expect(gap).toMatchObject({ kind: "not_close", text: "The closest passage (Greenhouse handbook, PDF page 4) does not answer it closely enough." });
    expect(gap?.closest).toBeUndefined();
  });

  it("quotes no passage when the reason is a word no passage uses", () => {
    expect(gapFor("Who approves the orchid import licence?", [warden, watering])?.closest).toBeUndefined();
  });

  it("says nothing was found when no passage was retrieved", () => {
    expect(gapFor("Where is the compost kept?", [])).toEqual({ kind: "nothing_found", text: "Nothing in the notes mentions “compost”." });
    expect(gapFor("Where is it kept?", [])).toEqual({ kind: "nothing_found", text: "Nothing in the notes shares its words." });
  });

  it("leaves parts that are not missing, and parts it cannot match to the question, as they are", () => {
    const analysis = analyzeQuestion("Who is the greenhouse warden?");
    const supported: AnswerPart = { ask: analysis.parts[0].ask, state: "supported", claims: [] };
    const other = missing("an ask the analysis never made");
    expect(explainGaps([supported, other], { analysis, hits: [warden] })).toEqual([supported, other]);
  });

  it("explains each missing part of a two-part question on its own", () => {
    const analysis = analyzeQuestion("What is the warden's email, and what is her phone number?");
    expect(analysis.parts).toHaveLength(2);
    const parts = explainGaps(analysis.parts.map((p) => missing(p.ask)), { analysis, hits: [warden, watering] });
    expect(parts[1].gap?.kind).toBe("no_value");
  });
});
