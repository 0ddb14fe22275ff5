import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../analyze/analyze";
import { makePassage } from "../fixtures.mock";
import { contentLemmas } from "../text/nlp";
import { relatedWords } from "../text/wordnet";
import { readPassages } from "./answer";
import { clippedWordsIn, contractedWordsIn, contradictsRequiredId, featureNames, numberedIds, requiredIn, shortFormsIn, symbolsDefinedIn, focusFoundIn, isReferenceEntry, isTableOfContents, segmentIdf, spelledAsIn, statesId, unitFeatures, vocabularyOf, weightFocus, type Features } from "./features";

/** Features of every unit of the passages for the question's first part, keyed by quote. */
function featuresOf(question: string, docs: Array<{ text: string; title?: string; before?: string }>): Map<string, Features> {
  const analysis = analyzeQuestion(question);
  const passages = docs.map((d, i) => makePassage(d.text, { chunkId: `c${i}`, documentId: `d${i}`, documentTitle: d.title ?? `doc-${i}`, ...(d.before ? { before: d.before } : {}) }));
  const readings = readPassages(passages);
  const part = numberedIds(analysis.parts[0], readings);
  const focus = weightFocus(part, segmentIdf(readings), vocabularyOf(readings));
  const questionLemmas = new Set(contentLemmas(analysis.standalone));
  const shortForms = shortFormsIn(readings);
  const symbols = symbolsDefinedIn(readings);
  const out = new Map<string, Features>();
  for (const reading of readings) {
    for (const unit of reading.units) out.set(reading.annotated.text.slice(unit.start, unit.end), unitFeatures({ part, focus, passageCover: focusFoundIn(readings, focus), pageCover: focusFoundIn([reading], focus), questionLemmas, reading, unit, shortForms, symbols }));
  }
  return out;
}

const get = (m: Map<string, Features>, quote: string) => {
  const f = m.get(quote);
  if (!f) throw new Error(`no unit ${quote}; have ${[...m.keys()].join(" | ")}`);
  return f;
};

/** A unit that states a value of the asked-for kind, and one that does not. */
const TYPE_MET = { typeMatch: 1, typeMissing: 0 };
const TYPE_UNMET = { typeMatch: 0, typeMissing: 1 };

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

  it("credits a closed compound that is a kind of a focus noun, but not the general word for the kind", () => {
    const c = featuresOf("Which storybook should we read?", [{ text: "Read the book by Friday." }]);
    expect(get(c, "Read the book by Friday.").coverRelated).toBe(0);
    const n = featuresOf("Where do we sleep, in which room?", [{ text: "Each bedroom sleeps two." }]);
    expect(get(n, "Each bedroom sleeps two.").coverRelated).toBeGreaterThan(0);
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

describe("unitFeatures: the section a unit is in", () => {
  it("finds focus words in the title of the section above the unit, in the passage or on its page before it", () => {
    const question = "what yield did they get in the sourdough example?";
    const result = "Result: yield = 1.6 kg.";
    const within = featuresOf(question, [{ text: `Example 3.1 (Sourdough batch). A baker mixes 1 kg of flour.\nWater = 0.7 kg.\n${result}` }]);
    expect(get(within, result).coverSection).toBeGreaterThan(0);
    // What the section's title says counts as said: every noun asked about is found.
    expect(get(within, result).nounCover).toBe(1);
    const above = featuresOf(question, [{ text: `Water = 0.7 kg.\n${result}`, before: "Example 3.1 (Sourdough batch). A baker mixes 1 kg of flour.\n" }]);
    expect(get(above, result).coverSection).toBeGreaterThan(0);
    // A table's header row above the chunk names the identifier's noun for rows cut from it.
    const rows = "6 Oct 1 Sampling frames Ch. 6\n7 Oct 8 Survey wording Ch. 7\n8 Oct 15 Field experiments Ch. 8";
    const headed = featuresOf("what topic is covered in week 7?", [{ text: rows, before: "Week Date Topic Reading\n" }]);
    expect(get(headed, "7 Oct 8 Survey wording Ch. 7").requiredId).toBe(1);
    expect(get(featuresOf("what topic is covered in week 7?", [{ text: rows }]), "7 Oct 8 Survey wording Ch. 7").requiredId).toBe(0);
    // No title above: nothing to find.
    expect(get(featuresOf(question, [{ text: `Water = 0.7 kg.\n${result}` }]), result).coverSection).toBe(0);
  });

  it("reads rows a chunk boundary cut from a header row with one row left above them as that table's rows (a symbol's index in the header is no figure)", () => {
    const before = "Table 2. Tensile tests\n\nSpecimen Load (kN) σ0 (MPa) Elongation\n1 12 80 0.2%\n";
    const rows = featuresOf("how much elongation did specimen 3 show?", [{ text: "2 15 95 0.3%\n3 18 110 0.5%", before }]);
    expect(get(rows, "3 18 110 0.5%").kind_table_row).toBe(1);
    expect(get(rows, "3 18 110 0.5%").coverSection).toBeGreaterThan(0);
  });
});

describe("unitFeatures: numbered items inside numbered items", () => {
  // Each step opens a block of its own, so each is a section's title.
  const example = "Worked Example 4.2 — Heat lost through a window\n\nStep 1: area: A = 1.5 × 2.0 = 3.0 m²\n\nStep 2: heat loss: Q = U·A·ΔT = 2.8 × 3.0 × 20 = 168 W";
  const step = "Step 2: heat loss: Q = U·A·ΔT = 2.8 × 3.0 × 20 = 168 W";

  it("reads a step under a worked example as part of the example: its title's words and identifier count for the step", () => {
    const f = get(featuresOf("what heat loss did they get in worked example 4.2?", [{ text: example }]), step);
    expect(f.coverSection).toBeGreaterThan(0);
    expect(f.requiredId).toBe(1);
  });

  it("lends nothing from an example numbered otherwise than the one asked about", () => {
    const f = get(featuresOf("what heat loss did they get in worked example 4.3?", [{ text: example }]), step);
    expect(f.coverSection).toBe(0);
    expect(f.requiredMissing).toBe(1);
  });

  it("reads a table's caption, and the working under it, as part of the numbered item it sits in, past the table's header row", () => {
    const problem = "Problem 3 · Anchor pull on a pontoon\nGiven: two ropes hold the pontoon.\n\nRope Tension Angle\n1 4.0 kN 30°\n2 6.0 kN 45°\n\nTable 1. Rope components for the pontoon.\nPull = 4.0 × 0.87 + 6.0 × 0.71 = 7.7 kN";
    const f = get(featuresOf("what total pull on the anchor in problem 3?", [{ text: problem }]), "Pull = 4.0 × 0.87 + 6.0 × 0.71 = 7.7 kN");
    expect(f.requiredId).toBe(1);
    expect(f.coverSection).toBeGreaterThan(0);
  });

  it("marks a numbered item's title and statement as posing its task, and the working under them as not", () => {
    const m = featuresOf("what total pull on the anchor in problem 3?", [{ text: "Problem 3 · Anchor pull on a pontoon\nGiven: two ropes hold the pontoon at 30° and 45°.\n\nPull = 4.0 × 0.87 + 6.0 × 0.71 = 7.7 kN" }]);
    expect(get(m, "Problem 3 · Anchor pull on a pontoon").poses).toBe(1);
    expect(get(m, "Given: two ropes hold the pontoon at 30° and 45°.").poses).toBe(1);
    expect(get(m, "Pull = 4.0 × 0.87 + 6.0 × 0.71 = 7.7 kN").poses).toBe(0);
    // A heading that numbers nothing poses nothing.
    expect(get(featuresOf("what is the pull on the anchor?", [{ text: "Anchor pulls\nGiven: two ropes hold the pontoon.\n\nPull = 7.7 kN" }]), "Given: two ropes hold the pontoon.").poses).toBe(0);
  });

  it("names the result where a focus word stands left of the equals sign of a worked value, in the same clause", () => {
    const m = featuresOf("what total pull on the anchor in problem 3?", [{ text: "Problem 3 · Anchor pull on a pontoon\n\nRope 1: T = 4.0 × 0.87 = 3.5 kN\nTotal pull = 3.5 + 4.3 = 7.8 kN" }]);
    expect(get(m, "Total pull = 3.5 + 4.3 = 7.8 kN").namesResult).toBe(1);
    expect(get(m, "Rope 1: T = 4.0 × 0.87 = 3.5 kN").namesResult).toBe(0);
  });

  it("marks a line that concludes a working: opened by '∴' or a concluding connective, or labelled with the outcome", () => {
    const m = featuresOf("what total pull on the anchor?", [{ text: "∴ Pull = 7.7 kN on the anchor\nHence the anchor takes 7.7 kN.\nAnswer: the anchor takes 7.7 kN.\nThe anchor takes 7.7 kN, hence the ropes.\nRope note: the anchor takes 7.7 kN." }]);
    expect(get(m, "∴ Pull = 7.7 kN on the anchor").concludes).toBe(1);
    expect(get(m, "Hence the anchor takes 7.7 kN.").concludes).toBe(1);
    expect(get(m, "Answer: the anchor takes 7.7 kN.").concludes).toBe(1);
    expect(get(m, "The anchor takes 7.7 kN, hence the ropes.").concludes).toBe(0);
    expect(get(m, "Rope note: the anchor takes 7.7 kN.").concludes).toBe(0);
  });

  it("reads a table's rows under the caption right above their header row", () => {
    const table = "Table 2.4: Thermal conductivity of metals\nMetal Conductivity Density\n1 Copper 401 8.96\n2 Aluminium 237 2.70\n3 Iron 80 7.87";
    expect(get(featuresOf("what is the conductivity of iron in table 2.4", [{ text: table }]), "3 Iron 80 7.87").requiredId).toBe(1);
  });
});

describe("unitFeatures: numbers written as words", () => {
  it("counts a number word as the digits the question typed, and a different number not at all", () => {
    const m = featuresOf("What happens if my lab report is 4 days late?", [
      { text: "A lab report four days late gets half marks." },
      { text: "A lab report five days late gets no marks." },
    ]);
    const same = get(m, "A lab report four days late gets half marks.");
    const other = get(m, "A lab report five days late gets no marks.");
    expect(same.cover).toBeGreaterThan(other.cover);
    expect(same.rarestMissing).toBe(0);
  });
});

describe("unitFeatures: answer type", () => {
  const m = featuresOf("When is the poster due?", [{ text: "The poster is due on 3 May." }, { text: "The poster must be printed in colour." }]);

  it("marks a date question's unit with a date as typeMatch", () => {
    expect(get(m, "The poster is due on 3 May.")).toMatchObject({ typeMatch: 1, typeMissing: 0, cover: 1 });
  });

  it("marks a unit without a date as typeMissing", () => {
    expect(get(m, "The poster must be printed in colour.")).toMatchObject(TYPE_UNMET);
  });

  it("wants a clock time for a what-time question: the day alone does not say it", () => {
    const t = featuresOf("What time does the glaze workshop start?", [{ text: "The glaze workshop is on Saturday 4 May." }, { text: "The glaze workshop starts at 10:30 am." }]);
    expect(get(t, "The glaze workshop is on Saturday 4 May.")).toMatchObject(TYPE_UNMET);
    expect(get(t, "The glaze workshop starts at 10:30 am.")).toMatchObject(TYPE_MET);
  });

  it("takes any quantity for a how-much question about a thing, not only a share or a sum", () => {
    const much = featuresOf("How much clay does one mug need?", [{ text: "Each mug takes 450 grams of clay.\n\nMugs are glazed on Fridays.\n" }]);
    expect(get(much, "Each mug takes 450 grams of clay.")).toMatchObject(TYPE_MET);
    expect(get(much, "Mugs are glazed on Fridays.")).toMatchObject(TYPE_UNMET);
  });

  it("takes a person's name for a who-question, not a capitalised heading or a weekday", () => {
    const who = featuresOf("Who runs the glassblowing workshop?", [{ text: "Workshop Schedule And Materials\n\nWorkshop lead: Oksana Petrenkova\n\nOpen Saturday mornings in the studio.\n" }]);
    expect(get(who, "Workshop lead: Oksana Petrenkova")).toMatchObject(TYPE_MET);
    expect(get(who, "Workshop Schedule And Materials")).toMatchObject(TYPE_UNMET);
    expect(get(who, "Open Saturday mornings in the studio.")).toMatchObject(TYPE_UNMET);
    // A code with digits names a thing, not a person.
    const code = featuresOf("Who judges the kiln showcase?", [{ text: "Thu, Mar 6 K2 kiln showcase, public\n" }]);
    expect(get(code, "Thu, Mar 6 K2 kiln showcase, public")).toMatchObject(TYPE_UNMET);
  });

  it("takes a place said with a preposition for a where-question, named or not, but not a time or the question's own place", () => {
    const where = featuresOf("Where should wet paintings be left?", [{ text: "Leave wet paintings on the drying rack by the window.\nWet paintings are collected in week 3.\nWet paintings must dry in the studio.\nPaintings must dry for a day." }]);
    expect(get(where, "Leave wet paintings on the drying rack by the window.")).toMatchObject(TYPE_MET);
    expect(get(where, "Wet paintings are collected in week 3.")).toMatchObject(TYPE_UNMET);
    expect(get(where, "Paintings must dry for a day.")).toMatchObject(TYPE_UNMET);
    const inStudio = featuresOf("Where in the studio should wet paintings be left?", [{ text: "Wet paintings must dry in the studio." }]);
    expect(get(inStudio, "Wet paintings must dry in the studio.").typeMatch).toBe(0);
  });

  it("takes for a where-question a place noun with its name or number, or a name WordNet files as a location, but not a person's bare name", () => {
    const text = "Mentor: Oksana Petrenkova\nOffice: Room 2.17, Kestrel Building\nLast stop: Lisbon\n";
    const where = featuresOf("Where does the mentor sit?", [{ text }]);
    expect(get(where, "Mentor: Oksana Petrenkova")).toMatchObject(TYPE_UNMET);
    expect(get(where, "Office: Room 2.17, Kestrel Building")).toMatchObject(TYPE_MET);
    expect(get(where, "Last stop: Lisbon")).toMatchObject(TYPE_MET);
    // The same name still answers who.
    expect(get(featuresOf("Who mentors the cohort?", [{ text }]), "Mentor: Oksana Petrenkova")).toMatchObject(TYPE_MET);
  });

  it("takes for a where-question a place noun in a capitalised name whose words are common ones ('Chemistry Pavilion'), not the same noun in lower case", () => {
    const text = "Star party: Friday 3 October, 8 pm, Chemistry Pavilion roof\nStar party: the pavilion sells warm drinks\n";
    const where = featuresOf("Where is the star party held?", [{ text }]);
    expect(get(where, "Star party: Friday 3 October, 8 pm, Chemistry Pavilion roof")).toMatchObject(TYPE_MET);
    expect(get(where, "Star party: the pavilion sells warm drinks")).toMatchObject(TYPE_UNMET);
  });

  it("takes a telephone number for a phone question, not an email beside it", () => {
    const text = "Greenhouse desk: (614) 292-7765\nGreenhouse email: desk@greens.example.edu\n";
    const phone = featuresOf("What is the greenhouse desk's phone number?", [{ text }]);
    expect(get(phone, "Greenhouse desk: (614) 292-7765")).toMatchObject(TYPE_MET);
    expect(get(phone, "Greenhouse email: desk@greens.example.edu")).toMatchObject(TYPE_UNMET);
  });

  it("marks a unit that holds none of a yes/no question's verbs or adjectives: it says neither yes nor no", () => {
    const yn = featuresOf("Are rehearsals filmed?", [{ text: "Rehearsals are filmed for the archive.\nRehearsals start at six." }]);
    expect(get(yn, "Rehearsals are filmed for the archive.").predicateMissing).toBe(0);
    expect(get(yn, "Rehearsals start at six.").predicateMissing).toBe(1);
    // Other questions have no predicate to miss.
    const what = featuresOf("When are rehearsals filmed?", [{ text: "Rehearsals start at six." }]);
    expect(get(what, "Rehearsals start at six.").predicateMissing).toBe(0);
  });

  it("takes a number for a how-many question only where it counts a noun asked about", () => {
    const ferries = featuresOf("How many ferries cross the bay?", [{ text: "In summer, 6 ferries cross the bay.\nWhen they dock, the 3 buses leave from the pier." }]);
    expect(get(ferries, "In summer, 6 ferries cross the bay.")).toMatchObject(TYPE_MET);
    expect(get(ferries, "When they dock, the 3 buses leave from the pier.")).toMatchObject(TYPE_UNMET);
  });

  it("counts a focus word that names the kind of answer as said by a value of that kind", () => {
    const email = featuresOf("What is the tutor's email address?", [{ text: "Tutor\n• Ines Marlowe\n• imarlowe@example.edu\n\nPlease email the office about absences." }]);
    const value = get(email, "• imarlowe@example.edu");
    expect(value).toMatchObject({ typeMatch: 1, nounCover: 1 });
    expect(value.cover).toBeGreaterThan(0.5);
    // Without a value of the kind, the word itself is needed.
    expect(get(email, "Please email the office about absences.")).toMatchObject({ typeMatch: 0 });
    // "hours" names a time, and a when-question asks for a date or a time: the time says it.
    const hours = featuresOf("When does the tutor hold office hours?", [{ text: "Tutor\n• Ines Marlowe\n• Wed 2-3pm" }]);
    expect(get(hours, "• Wed 2-3pm").cover).toBeGreaterThan(0);
    const day = featuresOf("What is the last day to withdraw?", [{ text: "The withdrawal deadline is 14 March." }]);
    expect(get(day, "The withdrawal deadline is 14 March.").cover).toBeGreaterThan(0);
  });

  it("counts a period framing a when-question as said by a date, but not a period the question is about", () => {
    const framed = featuresOf("By when must the lockers be emptied in the spring?", [{ text: "Lockers must be emptied by Friday, June 12." }]);
    expect(get(framed, "Lockers must be emptied by Friday, June 12.")).toMatchObject({ typeMatch: 1, rarestMissing: 0 });
    expect(get(framed, "Lockers must be emptied by Friday, June 12.").cover).toBeCloseTo(1);
    const about = featuresOf("When does the spring end?", [{ text: "Lockers must be emptied by Friday, June 12." }]);
    expect(get(about, "Lockers must be emptied by Friday, June 12.").cover).toBe(0);
  });

  it("does not take the number of one item ('Quiz 2') for a count", () => {
    const m = featuresOf("How many quizzes are there?", [{ text: "Quiz 2 is on Friday.\n\nThere are 6 quizzes in the term." }]);
    expect(get(m, "Quiz 2 is on Friday.")).toMatchObject(TYPE_UNMET);
    expect(get(m, "There are 6 quizzes in the term.")).toMatchObject(TYPE_MET);
  });

  it("leaves both at 0 for a question that asks for no measurable type", () => {
    const yesno = featuresOf("Is the poster printed in colour?", [{ text: "The poster must be printed in colour." }]);
    expect(get(yesno, "The poster must be printed in colour.")).toMatchObject({ typeMatch: 0, typeMissing: 0 });
  });
});

describe("unitFeatures: a task's prompt", () => {
  it("marks a part of an exercise's task ('(b) Find …') as asking, not stating, and its worked answer as stating", () => {
    const notes = "Exercise 2 — Glaze batch\n\nGiven: a batch uses 3 kg of frit.\n\n(a) Find the frit needed for 4 batches.\n\n(a) Frit = 4 × 3 = 12 kg.\n\nSubmit the batch card to the technician.";
    const m = featuresOf("how much frit is needed for 4 batches", [{ text: notes }]);
    expect(get(m, "(a) Find the frit needed for 4 batches.").question).toBe(1);
    expect(get(m, "(a) Frit = 4 × 3 = 12 kg.").question).toBe(0);
    // An instruction without a task's part marker states what to do.
    expect(get(m, "Submit the batch card to the technician.").question).toBe(0);
  });

  it("reads a part lettered with a period ('b. Determine …') as a task's prompt too", () => {
    const notes = "Exercise 3 — Kiln cooling\n\nb. Determine the kiln temperature after 2 hours.\n\nb. Temperature = 900 − 2 × 150 = 600 °C.";
    const m = featuresOf("what is the kiln temperature after 2 hours", [{ text: notes }]);
    expect(get(m, "b. Determine the kiln temperature after 2 hours.").question).toBe(1);
    expect(get(m, "b. Temperature = 900 − 2 × 150 = 600 °C.").question).toBe(0);
  });
});

describe("required identifiers", () => {
  const m = featuresOf("When is Lab 4 due?", [{ text: "Lab 3 is due on 2 April." }, { text: "Lab 4 is due on 9 April." }]);
  const [part] = analyzeQuestion("When is Lab 4 due?").parts;

  it("sets requiredId on the unit naming the asked identifier only", () => {
    expect(get(m, "Lab 4 is due on 9 April.").requiredId).toBe(1);
    expect(get(m, "Lab 3 is due on 2 April.").requiredId).toBe(0);
  });

  it("sets requiredMissing when the question names an identifier the unit does not state, and never for a question without one", () => {
    const vague = featuresOf("When is Lab 4 due?", [{ text: "Each lab is due a week after it is set." }, { text: "Lab 4 is due on 9 April." }]);
    expect(get(vague, "Each lab is due a week after it is set.").requiredMissing).toBe(1);
    expect(get(vague, "Lab 4 is due on 9 April.").requiredMissing).toBe(0);
    const none = featuresOf("When are labs due?", [{ text: "Each lab is due a week after it is set." }]);
    expect(get(none, "Each lab is due a week after it is set.").requiredMissing).toBe(0);
  });

  it("finds an identifier as the notes write it: a code without its noun, a gerund by its spelling, but not a bare number", () => {
    const stated = (question: string, text: string, other: string) => {
      const m = featuresOf(question, [{ text }, { text: other }]);
      return [get(m, text).requiredId, get(m, other).requiredId];
    };
    expect(stated("Who may fire the kiln in Room 3B?", "Only glaze students may fire the kiln in 3B.", "The kiln in 3C is open to all.")).toEqual([1, 0]);
    // The tagger reads "glazing" as the verb "glaze", whose lemma the notes' "Glazing 2" does not spell.
    expect(stated("how long does glazing 2 take?", "Glazing 2 takes three hours in the kiln.", "Glazing 1 takes an hour.")).toEqual([1, 0]);
    const number = featuresOf("When is Lab 4 due?", [{ text: "Submit 4 copies by Friday." }]);
    expect(get(number, "Submit 4 copies by Friday.").requiredMissing).toBe(1);
  });

  it("treats a unit naming only another id of the same noun as contradicting", () => {
    expect(part.required).toEqual([{ noun: "lab", id: "4" }]);
    expect(contradictsRequiredId(part.required, "Lab 3 is due on 2 April.")).toBe(true);
    expect(contradictsRequiredId(part.required, "Lab 4 is due on 9 April.")).toBe(false);
    expect(contradictsRequiredId(part.required, "Labs 3 and 4 share a deadline: Lab 4 is due first.")).toBe(false);
    // A unit that does not name a lab at all does not contradict.
    expect(contradictsRequiredId(part.required, "Everything is due on 9 April.")).toBe(false);
    // A word the noun starts ends in no letter id ("Laboratory" is no "Lab y"); a letter apart from it is one.
    expect(contradictsRequiredId(part.required, "Laboratory safety rules")).toBe(false);
    expect(contradictsRequiredId(part.required, "Lab C meets on Fridays.")).toBe(true);
    // A dotted id is read whole and nests: "Lab 4.1" is part of Lab 4, "Lab 5.1" is not.
    expect(contradictsRequiredId(part.required, "Lab 4.1 is due on 9 April.")).toBe(false);
    expect(contradictsRequiredId(part.required, "Lab 5.1 is due on 9 April.")).toBe(true);
  });

  it("reads a range of ids as naming each id in it, and a week beside a date as no range", () => {
    const week = analyzeQuestion("What is read in week 5?").parts[0].required;
    expect(contradictsRequiredId(week, "Weeks 3–6: the novel in parts.")).toBe(false);
    expect(contradictsRequiredId(week, "Week 3 – Week 6 cover the novel.")).toBe(false);
    expect(contradictsRequiredId(week, "Weeks 3 to 6: the novel.")).toBe(false);
    expect(contradictsRequiredId(week, "Weeks 6–9: poetry.")).toBe(true);
    // A week and the day it starts, not weeks 3 to 10.
    expect(contradictsRequiredId(week, "Week 3 – 10 Sep: the novel.")).toBe(true);
    const squad = analyzeQuestion("Who marks squad K7?").parts[0].required;
    expect(statesId("Marker: R. Osei (Squads K5–K8)", squad[0])).toBe(true);
    expect(contradictsRequiredId(squad, "Marker: R. Osei (Squads K5–K8)")).toBe(false);
    expect(contradictsRequiredId(squad, "Marker: J. Baptiste (Squads K1–K4)")).toBe(true);
    // So the unit stating the range states the id the question asks about.
    const [inRange, outOfRange] = ["Squads K5–K8 meet on Tuesdays.", "Squads K1–K4 meet on Mondays."];
    const f = featuresOf("When does squad K7 meet?", [{ text: `${inRange}\n${outOfRange}` }]);
    expect([get(f, inRange).requiredId, get(f, outOfRange).requiredId]).toEqual([1, 0]);
  });

  it("reads a code with a leading zero whole ('T07' is T with 07, not T0 with 7)", () => {
    const code = analyzeQuestion("which room is tutorial group T07 in?").parts[0].required;
    expect(contradictsRequiredId(code, "T07 Thursday 10:00 Hawthorn 2.14")).toBe(false);
    expect(contradictsRequiredId(code, "T08 Friday 11:00 Hawthorn 2.16")).toBe(true);
    // Its letter is no noun of other words: "take a" names no tutorial group.
    expect(contradictsRequiredId(code, "Groups take a break at 10:30.")).toBe(false);
  });

  it("reads an ordinal as an identifier where the notes number its noun, and as words where they do not", () => {
    const numbered = featuresOf("When is the second recital?", [{ text: "Recital 1 is on 3 May." }, { text: "Recital 2 is on 9 June." }]);
    expect(get(numbered, "Recital 2 is on 9 June.")).toMatchObject({ cover: 1, requiredId: 1, requiredMissing: 0 });
    expect(get(numbered, "Recital 1 is on 3 May.").requiredId).toBe(0);
    const [part] = analyzeQuestion("When is the second recital?").parts;
    const plain = readPassages([makePassage("The second recital is in June.")]);
    expect(numberedIds(part, plain).required).toEqual([]);
    expect(get(featuresOf("When is the second recital?", [{ text: "The second recital is in June." }]), "The second recital is in June.")).toMatchObject({ cover: 1, requiredMissing: 0 });
  });

  it("meets a date-like identifier written with WordNet's short form of its noun ('April 15' as 'Apr 15')", () => {
    const m = featuresOf("What do we do in the week of April 15?", [{ text: "Week Topic\nApr 8 Parsing basics\nApr 15 Type checking\nApr 22 Code generation" }]);
    expect(get(m, "Apr 15 Type checking")).toMatchObject({ requiredId: 1, requiredMissing: 0 });
    const [part] = analyzeQuestion("What do we do in the week of April 15?").parts;
    expect(contradictsRequiredId(part.required, "Apr 8 Parsing basics")).toBe(true);
  });

  it("meets an identifier whose noun the question shortens to letters of it that WordNet lists ('hr 2' as 'Hour 2'), in a line or over a table's rows", () => {
    const m = featuresOf("what happens in hr 2 of the workshop?", [{ text: "Hour 2 covers glaze mixing at the wheel." }, { text: "Hour 3 covers firing." }]);
    expect(get(m, "Hour 2 covers glaze mixing at the wheel.")).toMatchObject({ requiredId: 1, requiredMissing: 0 });
    expect(get(m, "Hour 3 covers firing.")).toMatchObject({ requiredId: 0, requiredMissing: 1 });
    const rows = featuresOf("what is the kiln temperature in yr 2?", [{ text: "Year Kiln temperature Firings\n1 1,100 °C 12\n2 1,240 °C 18\n3 1,280 °C 20" }]);
    expect(get(rows, "2 1,240 °C 18").requiredId).toBe(1);
    expect(get(rows, "3 1,280 °C 20").requiredId).toBe(0);
  });

  it("reads a one-letter identifier noun ('q2') as the one noun the notes number with that initial, and the glued id as said there", () => {
    const notes = [{ text: "Question 1 — Kiln shelf\n\nThe shelf holds 14 bowls." }, { text: "Question 2 — Beam load\n\nThe beam carries 3 kN." }];
    const [part] = analyzeQuestion("what load does the beam carry in q2").parts;
    expect(numberedIds(part, readPassages(notes.map((n) => makePassage(n.text)))).required).toEqual([{ noun: "question", id: "2", written: "q" }]);
    const m = featuresOf("what load does the beam carry in q2", notes);
    expect(get(m, "Question 2 — Beam load")).toMatchObject({ requiredId: 1, requiredMissing: 0 });
    expect(get(m, "Question 2 — Beam load").nounCover).toBe(1);
    expect(get(m, "Question 1 — Kiln shelf").requiredId).toBe(0);
    // Two numbered nouns with that initial: the letter stays as written.
    const both = readPassages([makePassage("Quiz 2 is on Monday.\nQuestion 2 asks for the beam load.")]);
    expect(numberedIds(part, both).required).toEqual(part.required);
  });

  it("reads an identifier noun shortened past a prefix ('qn 2') as the one noun the notes number that it shortens", () => {
    const questions = readPassages([makePassage("Question 1 — Kiln shelf\n\nQuestion 2 — Beam load")]);
    expect(numberedIds(analyzeQuestion("what load does the beam carry in qn 2").parts[0], questions).required).toEqual([{ noun: "question", id: "2", written: "qn" }]);
  });

  it("reads 'q2' or 'question 2' as 'Problem 2' where the notes number problems only (a problem is a kind of question), and the glued id as said there", () => {
    const notes = [{ text: "Problem 1 · Kiln shelf\n\nThe shelf holds 14 bowls." }, { text: "Problem 2 · Beam load\n\nThe beam carries 3 kN." }];
    const readings = readPassages(notes.map((n) => makePassage(n.text)));
    expect(numberedIds(analyzeQuestion("what load does the beam carry in question 2").parts[0], readings).required).toEqual([{ noun: "problem", id: "2", written: "question" }]);
    const m = featuresOf("what load does the beam carry in q2", notes);
    expect(get(m, "Problem 2 · Beam load")).toMatchObject({ requiredId: 1, requiredMissing: 0, nounCover: 1 });
    expect(get(m, "Problem 1 · Kiln shelf").requiredId).toBe(0);
    // Nothing numbered is a kind of week: the noun stays as written.
    const [week] = analyzeQuestion("what load does the beam carry in wk 2").parts;
    expect(numberedIds(week, readings).required).toEqual(week.required);
  });

  it("reads '4b' as part b of item 4 where the notes number 4 but never 4b, and a unit in part b as the part asked, one in part a as another", () => {
    const notes = [{ text: "Problem 4 · Kiln loads\nGiven: a kiln holds 40 mugs.\n(a) Firings for 120 mugs\nn = 120 / 40 = 3 firings\n(b) Firings for 200 mugs\nn = 200 / 40 = 5 firings" }];
    const [part] = analyzeQuestion("how many firings in prob 4b?").parts;
    expect(numberedIds(part, readPassages(notes.map((n) => makePassage(n.text)))).required).toEqual([{ noun: "prob", id: "4", part: "b" }]);
    const m = featuresOf("how many firings in prob 4b?", notes);
    expect(get(m, "n = 200 / 40 = 5 firings")).toMatchObject({ askedPart: 1, otherPart: 0, requiredId: 1 });
    expect(get(m, "n = 120 / 40 = 3 firings")).toMatchObject({ askedPart: 0, otherPart: 1 });
    // Asked without a part, no unit is in one.
    expect(get(featuresOf("how many firings in prob 4?", notes), "n = 200 / 40 = 5 firings")).toMatchObject({ askedPart: 0, otherPart: 0 });
    // Where the notes number "4b" itself, it stays an identifier.
    const [item] = analyzeQuestion("when is lab 4b?").parts;
    expect(numberedIds(item, readPassages([makePassage("Lab 4a is on Monday.\nLab 4b is on Friday.")])).required).toEqual([{ noun: "lab", id: "4b" }]);
  });

  it("never contradicts when the part names no identifier", () => {
    const [plain] = analyzeQuestion("When is the poster due?").parts;
    expect(contradictsRequiredId(plain.required, "Lab 3 is due on 2 April.")).toBe(false);
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
    const focus = weightFocus(part, segmentIdf(readings));
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

  it("does not pull the answer to the title line when the question names the course by its code", () => {
    const title = "GLZ 220: Kiln Glazes, Autumn term";
    const pages = [makePassage(`${title}\n\nStudio technician • Mara Quill\nFiring fees are paid at the front desk.`, { chunkId: "p1", scopeTerms: ["glz", "220", "kiln", "glazes", "autumn", "term"] })];
    const readings = readPassages(pages);
    const [part] = analyzeQuestion("who is the studio technician for GLZ 220?").parts;
    expect(part.required).toEqual([{ noun: "glz", id: "220" }]);
    // The course code is the document's own scope: every unit of it meets it, none must repeat it.
    expect(requiredIn(part, readings[0].titleLemmas)).toEqual([]);
    // The same two words apart in the scope are no code: "week 2" and "lab 1" do not name "lab 2".
    const [labTwo] = analyzeQuestion("When is Lab 2 due?").parts;
    expect(labTwo.required).toEqual([{ noun: "lab", id: "2" }]);
    expect(requiredIn(labTwo, new Set(["week", "2", "joins", "lab", "1"]))).toEqual(labTwo.required);
    expect(requiredIn(labTwo, new Set(["handout", "lab2"]))).toEqual([]);
    const focus = weightFocus(part, segmentIdf(readings));
    const at = (quote: string) => {
      const unit = readings[0].units.find((u) => readings[0].annotated.text.slice(u.start, u.end) === quote)!;
      return unitFeatures({ part, focus, passageCover: 1, pageCover: 1, questionLemmas: new Set(contentLemmas(part.ask)), reading: readings[0], unit });
    };
    const answer = at("Studio technician • Mara Quill");
    expect(answer.cover).toBeCloseTo(1, 10);
    expect(answer.requiredMissing).toBe(0);
    expect(answer.requiredId).toBe(1);
    const titleLine = at(title);
    // The code is neutral everywhere: the title line gains neither coverage nor the scope mark from it.
    expect(titleLine.cover).toBe(0);
    expect(titleLine.scope).toBe(0);
  });

  it("keeps the course code neutral when the question writes it glued (\"glz220\")", () => {
    const text = "GLZ 220: Kiln Glazes\n\nThe glaze lab opens at nine.\nThe studio chat channel is \"glz220\".";
    const readings = readPassages([makePassage(text, { chunkId: "p1", scopeTerms: ["glz", "220", "kiln", "glazes"] })]);
    const [part] = analyzeQuestion("which textbook does glz220 use?").parts;
    const focus = weightFocus(part, segmentIdf(readings));
    const unit = readings[0].units.find((u) => text.slice(u.start, u.end) === 'The studio chat channel is "glz220".')!;
    // The line holds only the course's own code, which says nothing about the textbook.
    expect(unitFeatures({ part, focus, passageCover: 1, pageCover: 1, questionLemmas: new Set(contentLemmas(part.ask)), reading: readings[0], unit }).cover).toBe(0);
  });

  it("still asks for another identifier when the question also names the course's own code", () => {
    const text = "GLZ 220: Kiln Glazes\n\nStudio hours: Tuesday 1:30 to 4:00.\nShelf 2 holds at most twelve test tiles.\nGLZ 220 Handbook · Page 2";
    const readings = readPassages([makePassage(text, { chunkId: "p1", scopeTerms: ["glz", "220", "kiln", "glazes", "handbook", "page"] })]);
    const [part] = analyzeQuestion("how many tiles can shelf 2 in GLZ 220 hold?").parts;
    const focus = weightFocus(part, segmentIdf(readings));
    const at = (quote: string) => {
      const unit = readings[0].units.find((u) => text.slice(u.start, u.end) === quote)!;
      return unitFeatures({ part, focus, passageCover: 1, pageCover: 1, questionLemmas: new Set(contentLemmas(part.ask)), reading: readings[0], unit });
    };
    expect(at("Shelf 2 holds at most twelve test tiles.")).toMatchObject({ requiredId: 1, requiredMissing: 0 });
    // The course's own code does not stand in for "shelf 2", and the bare "2" of a page number or the "1" of a time is not it.
    expect(at("GLZ 220 Handbook · Page 2")).toMatchObject({ requiredId: 0, requiredMissing: 1, cover: 0 });
    expect(at("Studio hours: Tuesday 1:30 to 4:00.").requiredMissing).toBe(1);
  });

  it("keeps a course number with a letter (\"310B\") neutral when the question names it without its department", () => {
    const text = "WVG 310B: Tapestry Weaving\n\nThe loom room key is kept by the porter.\nBring 310B yarn kits on Mondays.";
    // The file name holds the code glued to its department ("wvg310b"); the question drops the department.
    const readings = readPassages([makePassage(text, { chunkId: "p1", scopeTerms: ["wvg310b", "tapestry", "weaving"] })]);
    const [part] = analyzeQuestion("Who keeps the loom room key for 310B?").parts;
    expect(part.focus.map((f) => f.lemma)).toEqual(["loom", "room", "key", "310b"]);
    const focus = weightFocus(part, segmentIdf(readings));
    const at = (quote: string) => {
      const unit = readings[0].units.find((u) => text.slice(u.start, u.end) === quote)!;
      return unitFeatures({ part, focus, passageCover: 1, pageCover: 1, questionLemmas: new Set(contentLemmas(part.ask)), reading: readings[0], unit });
    };
    // The code names the course: the answer is not short of it, and a line holding it gains nothing.
    expect(at("The loom room key is kept by the porter.").cover).toBeCloseTo(1, 10);
    expect(at("Bring 310B yarn kits on Mondays.").cover).toBe(0);
  });

  it("is 0 when the documents share no title word", () => {
    const other = featuresOf("When is Lab 4 due for Compilers?", [
      { text: "Lab 4 is due on 9 April.", title: "handbook.pdf" },
      { text: "Compilers lectures are on Tuesdays.", title: "schedule.pdf" },
    ]);
    expect(get(other, "Lab 4 is due on 9 April.").scope).toBe(0);
  });
});

describe("unitFeatures: abbreviations", () => {
  const docs = [
    { text: "Each plot carries a Time Domain Reflectometer (TDR) buried at 30 cm." },
    { text: "The TDR reads soil moisture every ten minutes.\nRain gauges are emptied weekly." },
  ];

  it("reads a short form the notes define as its long form's words", () => {
    const f = get(featuresOf("How often does the time domain reflectometer read moisture?", docs), "The TDR reads soil moisture every ten minutes.");
    expect(f.cover).toBeCloseTo(1, 10);
    expect(get(featuresOf("How often does the time domain reflectometer read moisture?", docs), "Rain gauges are emptied weekly.").cover).toBe(0);
  });

  it("meets a question's short form with the long form's words", () => {
    const f = get(featuresOf("Where is the TDR buried?", docs), "Each plot carries a Time Domain Reflectometer (TDR) buried at 30 cm.");
    expect(f.cover).toBeCloseTo(1, 10);
    const spelled = featuresOf("Where is the TDR buried?", [{ text: "A Time Domain Reflectometer (TDR) is calibrated first.\nThe time domain reflectometer is buried at 30 cm." }]);
    expect(get(spelled, "The time domain reflectometer is buried at 30 cm.").cover).toBeCloseTo(1, 10);
  });
});

describe("focusFoundIn", () => {
  it("finds a focus word by its spelling where the passage's lemma differs, as a unit's cover does", () => {
    const text = "Bore — the width of the drilled hole.\nStroke — how far the arm travels.";
    const readings = readPassages([makePassage(text, { chunkId: "b" })]);
    // The tagger reads the opening "Bore" as the past of "bear"; the question's noun must still be found.
    expect(readings[0].annotated.tokens.find((t) => t.text === "Bore")?.lemma).not.toBe("bore");
    const [part] = analyzeQuestion("what is the bore?").parts;
    const focus = weightFocus(part, segmentIdf(readings));
    expect(focusFoundIn(readings, focus)).toBe(1);
    expect(get(featuresOf("what is the bore?", [{ text }]), "Bore — the width of the drilled hole.").cover).toBe(1);
  });
});

describe("segmentIdf", () => {
  it("weighs a word found on fewer lines more", () => {
    const readings = readPassages([makePassage("The poster is due.\nThe poster is big.\nThe essay is due.", { chunkId: "x" })]);
    const idf = segmentIdf(readings);
    expect(idf("essay")).toBeGreaterThan(idf("poster"));
    expect(idf("absent")).toBeGreaterThan(idf("essay"));
  });

  it("counts the sentences of a one-line paragraph apart: its topic word, in every sentence, weighs less than a word in one", () => {
    const paragraph = "The kiln fires clay at night. The kiln cools by morning. Glazes crack when the kiln cools too fast.";
    const idf = segmentIdf(readPassages([makePassage(paragraph, { chunkId: "p" }), makePassage("Potters sell their work at the market.", { chunkId: "q" })]));
    expect(idf("kiln")).toBeLessThan(idf("glaze"));
    expect(idf("cool")).toBeLessThan(idf("glaze"));
    expect(idf("glaze")).toBeCloseTo(idf("morning"), 10);
  });
});

describe("unitFeatures: position, shape and form", () => {
  it("density and bigram reward the focus words standing together", () => {
    const m = featuresOf("What does the fuel pump do?", [
      { text: "The fuel pump moves petrol to the engine.\n\nThe pump is checked when fuel levels drop, and the engine is serviced yearly." },
    ]);
    const together = get(m, "The fuel pump moves petrol to the engine.");
    const apart = get(m, "The pump is checked when fuel levels drop, and the engine is serviced yearly.");
    expect(together.bigram).toBe(1);
    expect(apart.bigram).toBe(0);
    expect(together.density).toBeGreaterThan(apart.density);
  });

  it("nounCover stands in the share of the focus found when the focus has no noun", () => {
    const m = featuresOf("Who presides?", [{ text: "The dean presides over the council.\n\nThe council meets monthly." }]);
    expect(get(m, "The dean presides over the council.").nounCover).toBe(1);
    expect(get(m, "The council meets monthly.").nounCover).toBe(0);
  });

  it("density measures the shortest window holding each focus word once, not the span from first match to last", () => {
    const m = featuresOf("What does the fuel pump do?", [{ text: "A pump for water differs from the fuel pump of a car." }]);
    // "pump … fuel pump": the window "fuel pump" holds both words.
    expect(get(m, "A pump for water differs from the fuel pump of a car.").density).toBe(1);
  });

  it("novelty counts words the question did not say; an echo of the question has none", () => {
    const m = featuresOf("Who maintains the greenhouse?", [{ text: "Who maintains the greenhouse?\n\nThe greenhouse is maintained by Priya Raman and two volunteers." }]);
    expect(get(m, "Who maintains the greenhouse?").novelty).toBe(0);
    expect(get(m, "Who maintains the greenhouse?").question).toBe(1);
    expect(get(m, "The greenhouse is maintained by Priya Raman and two volunteers.").novelty).toBeGreaterThan(0);
  });

  it("flags a lead-in that ends with a colon", () => {
    // Ending its passage, with nothing after it to announce (the chunk ends there).
    const m = featuresOf("Which tools does the workshop use?", [{ text: "A saw and a drill.\n\nThe workshop uses these tools:" }]);
    expect(get(m, "The workshop uses these tools:").endsColon).toBe(1);
    expect(get(m, "A saw and a drill.").endsColon).toBe(0);
  });

  it("knows a reference-list entry by the citation key opening its line, in either style, and not a bracket in prose", () => {
    const text = "[KL19] Ana Kovač and Li Lee. Timing Leaks in Small Devices. In Proc. of a Workshop, 2019.\n[7] B. Ortiz. Power Traces Explained. 2011.\n\nAs shown in [KL19], timing leaks.";
    const at = (s: string) => text.indexOf(s);
    expect(isReferenceEntry(text, at("Timing Leaks in Small"))).toBe(true);
    expect(isReferenceEntry(text, at("Power Traces"))).toBe(true);
    expect(isReferenceEntry(text, at("As shown"))).toBe(false);
    expect(isReferenceEntry("[x] done. Next.", 4)).toBe(false);
    // A passage that opens partway through an entry, above more entries.
    const tail = "pages 31–47. Springer, 2014.\n\n[Ort] B. Ortiz. Power Traces\nExplained. https://example.org/\ntraces.\n\n[8] C. Ruiz. Glitches. 2012.";
    expect(isReferenceEntry(tail, tail.indexOf("Springer"))).toBe(true);
    const wrapped = "[Ruiz12] Carla Ruiz and Jean-\nLuc Petit. Glitches in small devices. In Proc. of a Workshop, pages 1–\n9. 2012.";
    expect(isReferenceEntry(wrapped, wrapped.indexOf("Glitches"))).toBe(true);
    const prose = "Masking splits each value into shares.\nEach share alone says nothing.";
    expect(isReferenceEntry(prose, 0)).toBe(false);
  });

  it("knows a table-of-contents entry by its dot leaders, alone or joined with the next entry, and not an ellipsis in a formula", () => {
    expect(isTableOfContents("3.1 Workshop tools . . . . . . . . . 14")).toBe(true);
    expect(isTableOfContents("12 3.1 Workshop tools . . . . . . 14 3.2 Workshop safety . . . . . . 15")).toBe(true);
    expect(isTableOfContents("7.2 Glazing ..........")).toBe(true);
    expect(isTableOfContents("Let x1, . . . , xn be the samples.")).toBe(false);
  });

  it("requiredId finds the id as the first cell of a table row under a header naming the noun", () => {
    const m = featuresOf("What do we study in session 4?", [{ text: "Session Theme\n3 Kilns and firing\n4 Glazes and colour\n5 Critique" }]);
    expect(get(m, "4 Glazes and colour").requiredId).toBe(1);
    expect(get(m, "5 Critique").requiredId).toBe(0);
  });

  it("definitionForm marks 'X is a …' for a definition question only, not 'X is likely …'", () => {
    const q = "What is a watershed?";
    const m = featuresOf(q, [{ text: "A watershed is an area of land that drains into one river.\n\nEvery watershed in the valley was mapped in spring." }]);
    expect(get(m, "A watershed is an area of land that drains into one river.").definitionForm).toBe(1);
    expect(get(m, "Every watershed in the valley was mapped in spring.").definitionForm).toBe(0);
    const described = featuresOf(q, [{ text: "A watershed is unlikely to stay dry in spring.\n\nA watershed is called a basin by some authors." }]);
    expect(get(described, "A watershed is unlikely to stay dry in spring.").definitionForm).toBe(0);
    expect(get(described, "A watershed is called a basin by some authors.").definitionForm).toBe(1);
    const gerund = featuresOf("What is composting?", [{ text: "Composting refers to turning food waste into soil." }]);
    expect(get(gerund, "Composting refers to turning food waste into soil.").definitionForm).toBe(1);
    const colon = featuresOf(q, [{ text: "Watershed: land draining into one river\n\n4.1 Watershed: Field Methods\n" }]);
    expect(get(colon, "Watershed: land draining into one river").definitionForm).toBe(0.5);
    expect(get(colon, "4.1 Watershed: Field Methods").definitionForm).toBe(0);
    const opened = featuresOf(q, [{ text: "As noted earlier, a watershed is an area of land that drains into one river.\n\nIn spring the watershed floods." }]);
    expect(get(opened, "As noted earlier, a watershed is an area of land that drains into one river.").definitionForm).toBe(1);
    expect(get(opened, "In spring the watershed floods.").definitionForm).toBe(0);
    const slashed = featuresOf("What is a floodplain?", [{ text: "Floodplain/Bottomland: the flat land beside a river that floods in spring" }]);
    expect(get(slashed, "Floodplain/Bottomland: the flat land beside a river that floods in spring").definitionForm).toBe(0.5);
    const other = featuresOf("Where is the watershed?", [{ text: "A watershed is an area of land that drains into one river." }]);
    expect(get(other, "A watershed is an area of land that drains into one river.").definitionForm).toBe(0);
  });

  it("definitionForm counts a definition stated with a short form the passages define", () => {
    const text = "The Soil Moisture Index (SMI) rises after rain.\n\nSMI is defined as the water held per unit of dry soil.";
    const m = featuresOf("How is the soil moisture index defined?", [{ text }]);
    expect(get(m, "SMI is defined as the water held per unit of dry soil.").definitionForm).toBe(1);
    // Without the passage that spells it out, "SMI" names nothing the question asked about.
    const alone = featuresOf("How is the soil moisture index defined?", [{ text: "SMI is defined as the water held per unit of dry soil." }]);
    expect(get(alone, "SMI is defined as the water held per unit of dry soil.").definitionForm).toBe(0);
  });

  it("reasonMarker marks a causal sentence for a why-question", () => {
    const m = featuresOf("Why are the samples frozen?", [{ text: "The samples are frozen because warm samples decay.\n\nThe samples are frozen on Mondays." }]);
    expect(get(m, "The samples are frozen because warm samples decay.").reasonMarker).toBe(1);
    expect(get(m, "The samples are frozen on Mondays.").reasonMarker).toBe(0);
  });

  it("rank falls with the passage's retrieval position; length grows with the unit", () => {
    const m = featuresOf("When does the ferry leave?", [{ text: "The ferry leaves at noon." }, { text: "The ferry leaves the harbour every day at noon, weather and tides permitting, from pier two." }]);
    const first = get(m, "The ferry leaves at noon.");
    const second = get(m, "The ferry leaves the harbour every day at noon, weather and tides permitting, from pier two.");
    expect(first.rank).toBe(1);
    expect(second.rank).toBe(0.5);
    expect(second.length).toBeGreaterThan(first.length);
  });

  it("passageCover is the share of the focus found anywhere in the passages, the same for every unit", () => {
    const m = featuresOf("When does the glacier tour start?", [{ text: "The glacier is retreating.\n\nThe museum opens at ten." }]);
    const values = new Set([...m.values()].map((f) => f.passageCover));
    expect(values.size).toBe(1);
    const [v] = values;
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThan(1);
  });

  it("pageCover is the share of the focus the unit's own passage holds, the same for all its units", () => {
    const m = featuresOf("Which kiln fires the porcelain glaze?", [
      { text: "The porcelain glaze needs a slow cooling.\n\nThe second kiln fires every glaze at night." },
      { text: "Stoneware dries on the rack." },
    ]);
    const slow = get(m, "The porcelain glaze needs a slow cooling.");
    expect(get(m, "The second kiln fires every glaze at night.").pageCover).toBe(slow.pageCover);
    expect(slow.pageCover).toBe(1);
    const rack = get(m, "Stoneware dries on the rack.");
    expect(rack.pageCover).toBe(0);
    // The passage-wide share does not tell the two passages apart.
    expect(rack.passageCover).toBe(slow.passageCover);
  });

  it("rarestMissing marks a unit without the focus word that tells this question apart from the others", () => {
    const m = featuresOf("When is the glaze critique?", [
      { text: "The glaze critique is on 3 May.\n\nEvery glaze is tested before firing." },
      { text: "Glaze recipes are kept in the binder." },
    ]);
    expect(get(m, "The glaze critique is on 3 May.").rarestMissing).toBe(0);
    // "glaze" is on every page; "critique" is the word that matters.
    expect(get(m, "Every glaze is tested before firing.").rarestMissing).toBe(1);
    expect(get(m, "Glaze recipes are kept in the binder.").rarestMissing).toBe(1);
  });

  it("titleLine marks the units of a document's first line only", () => {
    const m = featuresOf("When does GEO 210 meet?", [{ text: "GEO 210: Field Methods\nGEO 210 meets on Fridays at nine." }]);
    expect(get(m, "GEO 210: Field Methods").titleLine).toBe(1);
    expect(get(m, "GEO 210 meets on Fridays at nine.").titleLine).toBe(0);
    // A one-sentence notice has no title line: its first line is its content.
    const notice = featuresOf("When does GEO 210 meet?", [{ text: "GEO 210 meets on Fridays at nine." }]);
    expect(get(notice, "GEO 210 meets on Fridays at nine.").titleLine).toBe(0);
  });

  it("heading marks a short verbless line, numbered or in title case, and not a sentence or a label with its value", () => {
    const m = featuresOf("What is osmosis?", [{ text: "3.2 Osmosis and diffusion\n\nMembrane Transport Basics\n\nOsmosis is the movement of water across a membrane.\n\nosmosis notes continued\n" }]);
    expect(get(m, "3.2 Osmosis and diffusion").heading).toBe(1);
    expect(get(m, "Membrane Transport Basics").heading).toBe(1);
    expect(get(m, "Osmosis is the movement of water across a membrane.").heading).toBe(0);
    expect(get(m, "osmosis notes continued").heading).toBe(0);
  });

  it("a numbered line is a heading even when the tagger reads a verb in it, and its colon introduces a subtitle, not a definition", () => {
    const m = featuresOf("What is pruning?", [{ text: "4.2 Pruning: Growing Smaller Trees\n\nPruning removes the branches of a decision tree that add little accuracy.\n" }]);
    const heading = get(m, "4.2 Pruning: Growing Smaller Trees");
    expect(heading.heading).toBe(1);
    expect(heading.kind_label_value).toBe(0);
    expect(heading.definitionForm).toBe(0);
    expect(get(m, "Pruning removes the branches of a decision tree that add little accuracy.").heading).toBe(0);
  });

  it("sets exactly one unit-kind indicator, none for a sentence", () => {
    const m = featuresOf("Which room is the seminar in?", [{ text: "Seminar room: B12\n\nThe seminar is in room B12." }]);
    const label = get(m, "Seminar room: B12");
    expect(label.kind_label_value).toBe(1);
    expect(label.kind_line + label.kind_lead_in + label.kind_list_item + label.kind_table_row).toBe(0);
    const sentence = get(m, "The seminar is in room B12.");
    expect(sentence.kind_label_value + sentence.kind_line + sentence.kind_lead_in + sentence.kind_list_item + sentence.kind_table_row).toBe(0);
  });
});

describe("unitFeatures: the sentence before", () => {
  const m = featuresOf("What stopped the caravan from crossing the desert?", [
    { text: "In spring the caravan set out to cross the desert. But a sandstorm forced it back to the oasis. The oasis had water." },
  ]);

  it("credits focus the unit lacks and the previous sentence states, in coverPrev", () => {
    const answer = get(m, "But a sandstorm forced it back to the oasis.");
    expect(answer.coverPrev).toBeGreaterThan(0.5);
    // The first sentence has no sentence before it.
    expect(get(m, "In spring the caravan set out to cross the desert.").coverPrev).toBe(0);
  });

  it("takes the line above for the sentence before a line the tagger joined to it (a slide's bullet and the line under it)", () => {
    const slide = featuresOf("when does the kiln log close", [{ text: "Studio notices\nThe kiln log opens Monday 3 March, 9:00 am\nCloses Friday 7 March, 5:00 pm, two firings each" }]);
    expect(get(slide, "Closes Friday 7 March, 5:00 pm, two firings each").coverPrev).toBeGreaterThan(0.3);
  });

  it("links it when the unit opens by pointing back (a connective or pronoun), not otherwise", () => {
    const answer = get(m, "But a sandstorm forced it back to the oasis.");
    expect(answer.coverPrevLinked).toBeCloseTo(answer.coverPrev, 10);
    const plain = get(m, "The oasis had water.");
    expect(plain.coverPrevLinked).toBe(0);
    // A unit opening with a pronoun or demonstrative is quoted with the sentence before it (units.ts), so that sentence's words are its own.
    const demonstrative = featuresOf("Why did the caravan turn back?", [{ text: "The caravan turned back in May. This was caused by a sandstorm." }]);
    const pair = get(demonstrative, "The caravan turned back in May. This was caused by a sandstorm.");
    expect(pair.cover).toBeGreaterThan(0.5);
    expect(pair.coverPrev).toBe(0);
  });

  it("lends nothing from a sentence about another identifier than the one asked for", () => {
    const text = "Lab 2 is due on 3 May. Also, the lab covers joins.";
    expect(get(featuresOf("When is Lab 5 due?", [{ text }]), "Also, the lab covers joins.").coverPrev).toBe(0);
    expect(get(featuresOf("When is Lab 2 due?", [{ text }]), "Also, the lab covers joins.").coverPrev).toBeGreaterThan(0);
  });

  it("does not reach across a blank line (another paragraph)", () => {
    const apart = featuresOf("What stopped the caravan from crossing the desert?", [{ text: "The caravan set out to cross the desert.\n\nA sandstorm came in May." }]);
    expect(get(apart, "A sandstorm came in May.").coverPrev).toBe(0);
  });
});

describe("unitFeatures: result", () => {
  const notes = "Worked example. A kiln holds 40 tiles and each tile needs 0.25 kg of glaze.\n\nGlaze needed = 40 × 0.25 = 10 kg.\n\nGlaze is mixed the day before.";

  it("marks a value worked out under sentences that state what the question restates", () => {
    const m = featuresOf("How much glaze do 40 tiles in the kiln need?", [{ text: notes }]);
    expect(get(m, "Glaze needed = 40 × 0.25 = 10 kg.").result).toBeGreaterThan(0.3);
    // The setup restates the givens: it works out nothing.
    expect(get(m, "A kiln holds 40 tiles and each tile needs 0.25 kg of glaze.").result).toBe(0);
    expect(get(m, "Glaze is mixed the day before.").result).toBe(0);
  });

  it("reads the setup from the title of the example the value is worked out under, however far back", () => {
    const text = "Example 7.3 (Roof beam).\n\nThe span is 6 m and the load is 2 kN per metre.\n\nShear at the support is found first.\n\nBending is checked next.\n\nDeflection checks follow.\n\nMoment = 2 × 6² / 8 = 9 kN·m.";
    const m = featuresOf("What moment did the roof beam example get?", [{ text }]);
    expect(get(m, "Moment = 2 × 6² / 8 = 9 kN·m.").result).toBeGreaterThan(0.3);
    expect(get(featuresOf("What moment did the roof beam example get?", [{ text: text.replace("Example 7.3 (Roof beam).\n\n", "") }]), "Moment = 2 × 6² / 8 = 9 kN·m.").result).toBe(0);
  });

  it("reads the setup from the statement under a numbered problem's title, above the passage", () => {
    const line = "Payment = 9,000 / 36 = $250 per month.";
    const before = "Problem 4 — Studio lease\n\nGiven: the Marrick pottery co-op leases a kiln for $9,000 over 3 years.\n\n";
    const m = featuresOf("whats the monthly payment for the marrick kiln", [{ text: line, before }]);
    expect(get(m, line).result).toBeGreaterThan(0.5);
    expect(get(m, line).nounCover).toBe(1);
  });

  it("is 0 for a line that only restates the question's own numbers after '='", () => {
    const m = featuresOf("What happens when the load is 40 tiles?", [{ text: "Worked example with a full kiln.\n\nLoad = 40 tiles." }]);
    expect(get(m, "Load = 40 tiles.").result).toBe(0);
  });
});

describe("unitFeatures: symbols", () => {
  const notes = "The thermal resistance R of a wall is its thickness over its conductivity.\n\nFor the brick wall, R = 0.2 / 0.8 = 0.25 m²K/W.\n\nThe value of R rises with thickness.";

  it("reads a symbol the notes define as its quantity's name where a unit works it out", () => {
    const m = featuresOf("What thermal resistance does the brick wall have?", [{ text: notes }]);
    const worked = get(m, "For the brick wall, R = 0.2 / 0.8 = 0.25 m²K/W.");
    expect(worked.cover).toBeGreaterThan(0.9);
    // Named in passing, the symbol states nothing of the quantity.
    expect(get(m, "The value of R rises with thickness.").cover).toBe(0);
  });

  it("reads nothing into a symbol the notes do not define", () => {
    const m = featuresOf("What thermal resistance does the brick wall have?", [{ text: "For the brick wall, R = 0.2 / 0.8 = 0.25 m²K/W." }]);
    expect(get(m, "For the brick wall, R = 0.2 / 0.8 = 0.25 m²K/W.").cover).toBeLessThan(0.6);
  });
});

describe("contractedWordsIn", () => {
  it("reads vowel-dropped shorthand the notes never use as the known words that hold its letters in order", () => {
    const vocabulary = new Set(["building", "hour", "harbour", "kettle", "student"]);
    expect(contractedWordsIn("bldg", vocabulary)).toEqual(["building"]);
    // A final "s" is the plural: the notes' lemmas are singular.
    expect(contractedWordsIn("hrs", vocabulary).sort()).toEqual(["harbour", "hour"]);
  });

  it("credits the word it stands for in coverRelated", () => {
    const m = featuresOf("which bldg is the chem lab in", [{ text: "The chemistry lab is in the Aldous building, room 210." }]);
    expect(get(m, "The chemistry lab is in the Aldous building, room 210.").coverRelated).toBeGreaterThan(0);
  });

  it("leaves words with vowels, short ones, words the notes use and shorthand with too many readings alone", () => {
    expect(contractedWordsIn("lab", new Set(["label"]))).toEqual([]);
    expect(contractedWordsIn("hr", new Set(["hour"]))).toEqual([]);
    expect(contractedWordsIn("bldg", new Set(["bldg", "building"]))).toEqual([]);
    expect(contractedWordsIn("ppr", new Set(["paper", "pepper", "popper", "proper", "pauper"]))).toEqual([]);
  });
});

describe("clippedWordsIn", () => {
  it("reads a clipping the notes never use as the known words it begins", () => {
    const vocabulary = new Set(["thermodynamics", "thermometer", "lecture", "entropy"]);
    expect(clippedWordsIn("thermo", vocabulary).sort()).toEqual(["thermodynamics", "thermometer"]);
  });

  it("credits the clipped word in coverRelated", () => {
    const m = featuresOf("When is the thermo midterm?", [{ text: "The thermodynamics midterm is on 3 May." }]);
    expect(get(m, "The thermodynamics midterm is on 3 May.").coverRelated).toBeGreaterThan(0);
  });

  it("leaves a word the notes use, a word WordNet knows, a short word and an ambiguous clipping alone", () => {
    expect(clippedWordsIn("thermo", new Set(["thermo", "thermodynamics"]))).toEqual([]);
    expect(clippedWordsIn("lect", new Set(["lecture"]))).toEqual(["lecture"]);
    expect(clippedWordsIn("text", new Set(["textbook"]))).toEqual([]);
    expect(clippedWordsIn("lec", new Set(["lecture"]))).toEqual([]);
    expect(clippedWordsIn("cons", new Set(["constant", "consumer", "construct", "consider", "consent"]))).toEqual([]);
  });
});

describe("spelledAsIn: a focus word typed with a typo", () => {
  const text = "The Wexford regatta starts at the harbour in July. Entries close a week before.";

  it("reads a misspelled focus word as the passages' word one edit away, a swap of neighbours included", () => {
    const vocabulary = vocabularyOf(readPassages([makePassage(text)]));
    expect(spelledAsIn("wexfrod", vocabulary)).toBe("wexford");
    expect(spelledAsIn("regata", vocabulary)).toBe("regatta");
    const typed = get(featuresOf("When does the Wexfrod regata start?", [{ text }]), "The Wexford regatta starts at the harbour in July.");
    expect(typed.cover).toBeGreaterThan(0.9);
  });

  it("leaves a short word, a word WordNet knows and a word two passage words are equally near as typed", () => {
    expect(spelledAsIn("tdie", new Set(["tide"]))).toBe("tdie");
    expect(spelledAsIn("horse", new Set(["house"]))).toBe("horse");
    expect(spelledAsIn("bantor", new Set(["banter", "cantor"]))).toBe("bantor");
    expect(spelledAsIn("bantor", new Set(["banter"]))).toBe("banter");
    // Not a typo: the passages' word with an ending more or less.
    expect(spelledAsIn("tokenizer", new Set(["tokenize"]))).toBe("tokenizer");
  });
});

describe("unitFeatures: coverRelated2", () => {
  it("credits a word two WordNet steps away (both share a related word), apart from one step", () => {
    expect(relatedWords("teach")).not.toContain("instructor");
    const m = featuresOf("Who will teach the seminar?", [{ text: "The instructor for the seminar is Ana Ruiz." }, { text: "The seminar meets weekly." }]);
    const f = get(m, "The instructor for the seminar is Ana Ruiz.");
    expect(f.coverRelated2).toBeGreaterThan(0);
    expect(f.coverRelated).toBe(0);
    expect(get(m, "The seminar meets weekly.").coverRelated2).toBe(0);
  });
});
