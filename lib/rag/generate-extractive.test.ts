import { describe, expect, it } from "vitest";
import { defaultExtractiveOptions, EXTRACTIVE_MIN_SCORE, generateExtractive } from "./generate-extractive";
import { standaloneFollowUp } from "./question";
import type { GenerateState, LabelledPassage } from "./types";

// ─── Fixtures: course material as the chunker would hand it over (normalised, line breaks kept) ───

let seq = 0;
function passage(label: string, text: string, over: Partial<LabelledPassage> = {}): LabelledPassage {
  seq++;
  return {
    label,
    chunkId: `chunk-${seq}`,
    revisionId: `rev-${over.documentId ?? "syllabus"}`,
    documentId: "syllabus",
    documentTitle: "CS 210 Syllabus, Fall 2026",
    revisionNumber: 1,
    isCorrection: false,
    uploadedAt: "2026-08-20T09:00:00.000Z",
    pdfPage: 1,
    pageLabel: null,
    text,
    charStart: 0,
    ...over,
  };
}

const syllabusGrading = passage(
  "S1",
  `Grading
Assignments 40%, Midterm exam 20%, Final exam 35%, Participation 5%.
The final exam is worth 35% of the course grade and is cumulative.
Late policy: Late submissions lose 10% per day, up to a maximum of three days. After three days, late work receives a mark of zero.`,
  { pdfPage: 2 },
);
const syllabusStaff = passage(
  "S2",
  `Instructor: Dr. Maria Alvarez (malvarez@uni.edu). Office hours are Tuesdays 14:00–16:00 in Room ENG 214.
Teaching assistants: Sam Okafor and Priya Raman.`,
  { pdfPage: 1 },
);
const syllabusSchedule = passage(
  "S3",
  `Assignment deadlines
Assignment 1 is due on 4 September at 17:00.
Assignment 2 is due on 18 September at 17:00.
Assignment 3 is due on 2 October at 17:00.
All assignments are submitted through Gradescope.`,
  { pdfPage: 3 },
);
const a3Notice = passage(
  "S4",
  `Assignment 3 notice
Assignment 3 covers hash tables and open addressing. Because of reading week, Assignment 3 is due on 9 October at 17:00.`,
  { documentId: "a3-notice", documentTitle: "Assignment 3 announcement", uploadedAt: "2026-09-20T09:00:00.000Z" },
);
const a3Correction = passage("S5", `Correction: Assignment 3 is now due on 9 October at 17:00, not 2 October as printed in the syllabus.`, {
  documentId: "a3-correction",
  documentTitle: "Schedule correction",
  isCorrection: true,
  uploadedAt: "2026-09-01T09:00:00.000Z",
});
const lectureHashing = passage(
  "S6",
  `Lecture 5: Hashing
A hash function maps keys to integers in a fixed range. A collision occurs when two distinct keys hash to the same slot.
Open addressing is a collision resolution strategy in which every entry is stored in the table itself. The load factor is the ratio of stored entries to table slots.`,
  { documentId: "lecture-5", documentTitle: "Lecture 5 notes" },
);
const assignmentSheet = passage(
  "S7",
  `Assignment 4
Release: 9 October
Due: 23 October, 23:59
Weight: 10% of the final grade`,
  { documentId: "a4", documentTitle: "Assignments overview" },
);

const course = [syllabusGrading, syllabusStaff, syllabusSchedule, lectureHashing];

function run(question: string, passages: LabelledPassage[] = course): GenerateState {
  return generateExtractive({ question, passages });
}

/** Every quote of every claim occurs verbatim in the passage its label names. */
function expectExactQuotes(result: GenerateState, passages: LabelledPassage[]) {
  const byLabel = new Map(passages.map((p) => [p.label, p]));
  for (const part of result.parts) {
    for (const claim of part.claims) {
      expect(claim.evidence.length).toBeGreaterThan(0);
      for (const e of claim.evidence) {
        const p = byLabel.get(e.sourceId);
        expect(p, `unknown label ${e.sourceId}`).toBeDefined();
        expect(e.quote.trim()).not.toBe("");
        expect(p!.text.includes(e.quote), `"${e.quote}" not in ${e.sourceId}`).toBe(true);
      }
    }
  }
}

describe("generateExtractive", () => {
  it("answers a deadline question with the sentence that states it", () => {
    const result = run("When is Assignment 2 due?");
    expect(result.parts).toHaveLength(1);
    const [part] = result.parts;
    expect(part).toMatchObject({ ask: "When is Assignment 2 due", state: "supported" });
    expect(part.claims).toEqual([
      { text: "Assignment 2 is due on 18 September at 17:00.", evidence: [{ sourceId: "S3", quote: "Assignment 2 is due on 18 September at 17:00." }] },
    ]);
    expectExactQuotes(result, course);
  });

  it("answers the supported part and declines the missing one", () => {
    const result = run("What is the late penalty, and when is Assignment 4 due?");
    expect(result.parts.map((p) => [p.ask, p.state])).toEqual([
      ["What is the late penalty", "supported"],
      ["when is Assignment 4 due", "missing"],
    ]);
    expect(result.parts[0].claims).toHaveLength(1);
    expect(result.parts[0].claims[0].text).toContain("10% per day");
    expect(result.parts[1].claims).toEqual([]);
  });

  it("never answers one assignment's deadline with another's", () => {
    // Assignments 1–3 have deadlines in the notes; 4 and 7 do not.
    for (const n of [4, 7]) expect(run(`When is Assignment ${n} due?`).parts[0].state).toBe("missing");
    const a1 = run("When is A1 due?").parts[0];
    expect(a1.state).toBe("supported");
    expect(a1.claims.map((c) => c.text)).toEqual(["Assignment 1 is due on 4 September at 17:00."]);
  });

  it("reports a conflict between two documents with different dates, citing both", () => {
    const passages = [...course, a3Notice];
    const result = run("When is Assignment 3 due?", passages);
    const [part] = result.parts;
    expect(part.state).toBe("conflicting");
    expect(part.claims).toHaveLength(2);
    const cited = part.claims.map((c) => c.evidence.map((e) => e.sourceId));
    expect(cited).toEqual(expect.arrayContaining([["S3"], ["S4"]]));
    expect(part.claims.map((c) => c.text).join(" ")).toMatch(/2 October[\s\S]*9 October|9 October[\s\S]*2 October/);
    expectExactQuotes(result, passages);
  });

  it("lets an instructor-marked correction supersede, whatever the upload order", () => {
    // The correction was uploaded before the notice it sides with, and after the syllabus: no effect either way.
    const passages = [...course, a3Correction];
    const result = run("When is Assignment 3 due?", passages);
    const [part] = result.parts;
    expect(part.state).toBe("supported");
    expect(part.claims).toHaveLength(1);
    expect(part.claims[0].evidence).toEqual([{ sourceId: "S5", quote: a3Correction.text }]);
    // Order of the passages does not decide either.
    expect(run("When is Assignment 3 due?", [a3Correction, ...course]).parts[0]).toEqual(part);
  });

  it("keeps the conflict when both sides are corrections", () => {
    const noticeAsCorrection = { ...a3Notice, isCorrection: true };
    const result = run("When is Assignment 3 due?", [...course, noticeAsCorrection, { ...a3Correction, text: "Correction: Assignment 3 is now due on 12 October at 17:00." }]);
    expect(result.parts[0].state).toBe("conflicting");
  });

  it("does not call three copies of one date a majority", () => {
    const copies = [1, 2, 3].map((i) => passage(`C${i}`, "Assignment 3 is due on 2 October at 17:00.", { documentId: `copy-${i}`, documentTitle: `Handout copy ${i}` }));
    const result = run("When is Assignment 3 due?", [...copies, a3Notice]);
    expect(result.parts[0].state).toBe("conflicting");
  });

  it("finds nothing for a question the notes do not cover", () => {
    for (const q of ["What is the capital of France?", "What is the attendance policy?", "When is the midterm?"]) {
      const result = run(q);
      expect(result.parts.every((p) => p.state === "missing" && p.claims.length === 0), q).toBe(true);
    }
  });

  it("answers 'what is X' with a definitional sentence", () => {
    const cases: Array<[string, string]> = [
      ["What is open addressing?", "Open addressing is a collision resolution strategy in which every entry is stored in the table itself."],
      ["What is a collision?", "A collision occurs when two distinct keys hash to the same slot."],
      ["Define load factor", "The load factor is the ratio of stored entries to table slots."],
    ];
    for (const [q, sentence] of cases) {
      const [part] = run(q).parts;
      expect(part.state, q).toBe("supported");
      expect(part.claims[0]).toEqual({ text: sentence, evidence: [{ sourceId: "S6", quote: sentence }] });
    }
  });

  it("answers 'how much is the final exam worth' with the weight sentence", () => {
    const [part] = run("How much is the final exam worth?").parts;
    expect(part.state).toBe("supported");
    expect(part.claims[0].text).toBe("The final exam is worth 35% of the course grade and is cumulative.");
  });

  it("reports a conflict between two documents with different weights", () => {
    const slides = passage("S8", "Reminder: the final exam is worth 40% of your grade this term.", { documentId: "slides-1", documentTitle: "Lecture 1 slides" });
    const [part] = run("How much is the final exam worth?", [...course, slides]).parts;
    expect(part.state).toBe("conflicting");
    expect(part.claims.flatMap((c) => c.evidence.map((e) => e.sourceId)).sort()).toEqual(["S1", "S8"]);
  });

  it("answers people and places", () => {
    const who = run("Who is the instructor?").parts[0];
    expect(who.state).toBe("supported");
    expect(who.claims[0].text).toContain("Dr. Maria Alvarez");
    const where = run("Where are office hours held?").parts[0];
    expect(where.state).toBe("supported");
    expect(where.claims[0].text).toContain("Room ENG 214");
  });

  it("quotes a heading with a label line that lacks the subject", () => {
    const passages = [...course, assignmentSheet];
    const due = run("When is Assignment 4 due?", passages);
    expect(due.parts[0].state).toBe("supported");
    expect(due.parts[0].claims[0].evidence).toEqual([
      { sourceId: "S7", quote: "Assignment 4" },
      { sourceId: "S7", quote: "Due: 23 October, 23:59" },
    ]);
    expectExactQuotes(due, passages);
    const worth = run("How much is assignment 4 worth?", passages).parts[0];
    expect(worth.claims[0].text).toContain("10% of the final grade");
    // the release date is not the deadline
    expect(due.parts[0].claims.map((c) => c.text).join(" ")).not.toContain("9 October");
  });

  it("answers each thing a coordinated question names, and says which one is missing", () => {
    const both = run("What are the grading weights and late policy?");
    expect(both.parts).toHaveLength(1);
    expect(both.parts[0].state).toBe("supported");
    expect(both.parts[0].claims.map((c) => c.text).join(" ")).toMatch(/Final exam 35%[\s\S]*10% per day/);
    const half = run("What are the grading weights and attendance policy?");
    expect(half.parts.map((p) => p.state)).toEqual(["supported", "missing"]);
    expect(half.parts[1].ask).toContain("attendance policy");
  });

  it("reads a schedule table row by row, never borrowing another row's identifier", () => {
    const table = passage("T1", "Week Topic Due\n1 Introduction\n2 Arrays and lists A1 due Fri Sept 12\n3 Stacks and queues\n4 Hashing A2 due Fri Sept 26\n5 Trees HW3 due Oct. 3, 11:59 pm", {
      documentId: "schedule",
      documentTitle: "Course schedule",
    });
    expect(run("When is assignment 2 due?", [table]).parts[0].claims).toEqual([
      { text: "4 Hashing A2 due Fri Sept 26", evidence: [{ sourceId: "T1", quote: "4 Hashing A2 due Fri Sept 26" }] },
    ]);
    expect(run("When is HW3 due?", [table]).parts[0].claims[0].text).toBe("5 Trees HW3 due Oct. 3, 11:59 pm");
    expect(run("When is homework 2 due?", [table]).parts[0].state).toBe("missing");
  });

  it("does not take an event around a thing for the thing itself", () => {
    const exam = passage("E1", "The final exam is on 12 December at 9:00 in the Main Gym.");
    const review = passage("E2", "A final exam review session will be held on 10 December at 18:00.", { documentId: "announcements", documentTitle: "Announcements" });
    const both = run("When is the final exam?", [exam, review]).parts[0];
    expect(both.state).toBe("supported");
    expect(both.claims.map((c) => c.evidence[0].sourceId)).toEqual(["E1"]);
    expect(run("When is the final exam?", [review]).parts[0].state).toBe("missing");
  });

  it("does not call statements for different sections a conflict", () => {
    const a = passage("A", "Section A: the midterm is on 14 October.", { documentId: "section-a" });
    const b = passage("B", "Section B: the midterm is on 16 October.", { documentId: "section-b" });
    const any = run("When is the midterm?", [a, b]).parts[0];
    expect(any.state).toBe("supported");
    expect(any.claims).toHaveLength(2);
    expect(run("When is the midterm for Section B?", [a, b]).parts[0].claims.map((c) => c.text)).toEqual(["Section B: the midterm is on 16 October."]);
  });

  it("sees a disagreement in a 'what is' answer too", () => {
    const old = passage("O", "Late work is penalized 5% per day.", { documentId: "old-handout", documentTitle: "Lab handout" });
    const result = run("What is the late penalty?", [syllabusGrading, old]);
    expect(result.parts[0].state).toBe("conflicting");
    expect(result.parts[0].claims.flatMap((c) => c.evidence.map((e) => e.sourceId)).sort()).toEqual(["O", "S1"]);
  });

  it("answers a follow-up once it is made standalone", () => {
    const question = standaloneFollowUp("And when is it due?", ["What does Assignment 2 cover?"]);
    const [part] = run(question).parts;
    expect(part.state).toBe("supported");
    expect(part.claims[0].text).toBe("Assignment 2 is due on 18 September at 17:00.");
    // the raw follow-up has nothing to look for
    expect(run("When is it due?").parts[0].state).toBe("missing");
  });

  it("keeps every quote an exact substring of its passage", () => {
    const passages = [...course, a3Notice, assignmentSheet];
    for (const q of [
      "When is Assignment 3 due?",
      "What is Assignment 3 about, and when is it due?",
      "Who are the TAs?",
      "How are assignments submitted?",
      "What percentage of the grade is the midterm?",
      "Is the final exam cumulative?",
    ]) {
      const result = run(q, passages);
      expect(result.parts.some((p) => p.state !== "missing"), q).toBe(true);
      expectExactQuotes(result, passages);
    }
  });

  it("is deterministic and returns its parts as raw JSON", () => {
    const passages = [...course, a3Notice, a3Correction, assignmentSheet];
    const q = "What is the late penalty, and when are assignments 3 and 4 due? Who teaches the course?";
    const first = generateExtractive({ question: q, passages });
    const second = generateExtractive({ question: q, passages: passages.map((p) => ({ ...p })) });
    expect(second).toEqual(first);
    expect(JSON.parse(first.raw)).toEqual(first.parts);
  });

  it("abstains with no passages, and thresholds are options", () => {
    expect(run("When is Assignment 2 due?", []).parts).toEqual([{ ask: "When is Assignment 2 due", state: "missing", claims: [] }]);
    expect(defaultExtractiveOptions.minScore).toBe(EXTRACTIVE_MIN_SCORE);
    const strict = generateExtractive({ question: "When is Assignment 2 due?", passages: course }, { minScore: 5 });
    expect(strict.parts[0].state).toBe("missing");
  });

  // ─── Schedule tables ─────────────────────────────────────────────────────────────────────

  const physicsSchedule = passage(
    "W1",
    `Course Schedule
The order of topics may shift by a week depending on our pace.

Week Topics
1 Kinematics in one dimension; units 2 Vectors and projectile motion
3 Newton's laws of motion 4 Friction and circular motion
5 Work and kinetic energy 6 Momentum and collisions
7 Rotational dynamics 8 Oscillations and waves

Office Hours
Tuesdays 15:00-16:00 in Room PHY 210.`,
    { documentId: "phys-syllabus", documentTitle: "PHYS 121 Syllabus", pdfPage: 2 },
  );

  it("reads the row of a schedule table for the week asked about, with its header", () => {
    const result = run("what are we covering in week 6?", [physicsSchedule]);
    expect(result.parts[0].state).toBe("supported");
    // two weeks side by side on one line are two rows: week 6 is not week 5
    expect(result.parts[0].claims).toEqual([
      {
        text: "Week Topics: 6 Momentum and collisions",
        evidence: [
          { sourceId: "W1", quote: "Week Topics" },
          { sourceId: "W1", quote: "6 Momentum and collisions" },
        ],
      },
    ]);
    expectExactQuotes(result, [physicsSchedule]);
    expect(run("What is the topic of week 3?", [physicsSchedule]).parts[0].claims[0].text).toBe("Week Topics: 3 Newton's laws of motion");
    // the week a topic is in
    expect(run("Which week do we do oscillations?", [physicsSchedule]).parts[0].claims[0].text).toBe("Week Topics: 8 Oscillations and waves");
    // a week the table does not have
    expect(run("What do we cover in week 11?", [physicsSchedule]).parts[0].state).toBe("missing");
  });

  it("reads a table with column bars and numbered rows of another schedule noun", () => {
    const plan = passage("L1", "Lecture plan\nLecture | Topic | Reading\n1 | Temperature and heat | Ch. 1\n2 | The first law of thermodynamics | Ch. 2\n3 | Entropy | Ch. 3", {
      documentId: "thermo",
      documentTitle: "Thermodynamics outline",
    });
    const [part] = run("What is lecture 2 about?", [plan]).parts;
    expect(part.state).toBe("supported");
    expect(part.claims[0].text).toContain("2 | The first law of thermodynamics");
    expect(part.claims[0].text).not.toContain("Entropy");
  });

  it("does not read numbered lines under an ordinary sentence as a table", () => {
    const rules = passage("R1", "Lab reports are marked on a simple scale\n1 point is deducted for each missing figure\n2 points are deducted for a missing conclusion", {
      documentId: "lab-rules",
      documentTitle: "Lab rules",
    });
    expect(run("What do we do in lab 1?", [rules]).parts[0].state).toBe("missing");
  });

  // ─── Headings and the lines under them ──────────────────────────────────────────────────

  const materials = passage(
    "M1",
    `Required Text
“Principles of Heat Transfer”, by Alma Ferreira, Second Edition.

Course Staff
Instructor
Helena Marsh
hmarsh@northfield.edu

Grading
Problem sets 40%, Midterm 25%, Final exam 35%.`,
    { documentId: "heat-syllabus", documentTitle: "MECH 340 Syllabus" },
  );

  it("answers from the line under a heading that names the subject", () => {
    const book = run("What textbook do we use?", [materials]);
    expect(book.parts[0].state).toBe("supported");
    expect(book.parts[0].claims[0].text).toContain("“Principles of Heat Transfer”, by Alma Ferreira, Second Edition.");
    expectExactQuotes(book, [materials]);
    const who = run("Who teaches the course?", [materials]);
    expect(who.parts[0].state).toBe("supported");
    expect(who.parts[0].claims[0].text).toContain("Helena Marsh");
    // the heading alone is never the answer
    expect(who.parts[0].claims[0].text).not.toBe("Instructor");
    expect(run("What is the instructor's email?", [materials]).parts[0].claims[0].text).toContain("hmarsh@northfield.edu");
    // a heading does not answer what its lines do not say
    expect(run("What is the ISBN of the textbook?", [materials]).parts[0].state).toBe("missing");
    expect(run("What is the instructor's phone number?", [materials]).parts[0].state).toBe("missing");
    // a related word in passing is not the thing asked about
    const tips = passage("M2", "Search for references online and in books before you ask on the forum.", { documentId: "tips", documentTitle: "Study tips" });
    expect(run("What textbook do we use?", [tips]).parts[0].state).toBe("missing");
  });

  // ─── Definitions ────────────────────────────────────────────────────────────────────────

  it("prefers the sentence that defines the term over one that merely mentions it", () => {
    const notes = passage(
      "D1",
      `3.2 Hash Tables
A table may keep several hash functions (like cuckoo hashing) or one single function (e.g., chaining).
Hash function A deterministic mapping from keys to bucket indices, usually cheap to compute.
The most common use of a hash function in this course is to index a table.
The most widely used probing scheme is Linear Probing (LP). The main benefit of LP is that the data stays in one array.`,
      { documentId: "ds-notes", documentTitle: "Data structures notes" },
    );
    const first = (q: string) => run(q, [notes]).parts[0].claims.map((c) => c.text);
    expect(first("What is a hash function?")).toEqual(["Hash function A deterministic mapping from keys to bucket indices, usually cheap to compute."]);
    // "X (ABBR)" introduced at the end of a copula defines both names
    expect(first("What is linear probing?")[0]).toBe("The most widely used probing scheme is Linear Probing (LP).");
    expect(first("What is LP?")[0]).toBe("The most widely used probing scheme is Linear Probing (LP).");
  });

  it("matches a term with the abbreviation the notes introduce for it", () => {
    const leakage = passage(
      "H1",
      "The simplest leakage model is the Hamming Weight (HW) model: the power drawn is proportional to the HW of the data. Recall that HW(x) is defined as the number of bits set to 1 in x. A second model is the Hamming Distance (HD) model. The HD counts the bits that differ between the old and the new value of a register.",
      { documentId: "sca-notes", documentTitle: "Side-channel notes" },
    );
    const [weight] = run("What is the Hamming weight?", [leakage]).parts;
    expect(weight.state).toBe("supported");
    expect(weight.claims[0].text).toBe("Recall that HW(x) is defined as the number of bits set to 1 in x.");
    const [model] = run("What is the Hamming weight model?", [leakage]).parts;
    expect(model.claims[0].text).toContain("Hamming Weight (HW) model");
    expect(run("What is the Hamming distance model?", [leakage]).parts[0].claims.map((c) => c.text).join(" ")).toMatch(/Hamming Distance \(HD\) model|The HD counts/);
  });

  it("answers 'what does X do' with the sentence whose grammatical subject is X", () => {
    const notes = passage(
      "F1",
      "We apply the softplus function to the output of every hidden unit. As the plot shows, the softplus function maps every real input to a positive output. Other activation functions are discussed in the next chapter.",
      { documentId: "nn-notes", documentTitle: "Neural networks notes" },
    );
    const [part] = run("What does the softplus function do?", [notes]).parts;
    expect(part.claims[0].text).toBe("As the plot shows, the softplus function maps every real input to a positive output.");
  });

  // ─── Matching ───────────────────────────────────────────────────────────────────────────

  it("answers what happens to late work with the late policy, not with the deadline rule", () => {
    const syllabus = passage(
      "P1",
      `Assignments
There are six assignments. Each assignment is submitted on the course website before its deadline. Assignment 1 is released in week 2.

Late Policy
Late submissions lose 5% per day, for at most four days. After that, the assignment receives no credit.`,
      { documentId: "policies", documentTitle: "Course policies" },
    );
    const [part] = run("What happens if I submit an assignment late?", [syllabus]).parts;
    expect(part.state).toBe("supported");
    expect(part.claims[0].text).toContain("5% per day");
    // synonyms in the question may share one word of the answer: "lecturer" is both "professor" and "teach"
    const staff = passage("P2", "Course Staff\nThe lecturer is Dr. Ana Ruiz.", { documentId: "staff", documentTitle: "Course policies" });
    expect(run("Who is the professor teaching this course?", [staff]).parts[0].claims[0].text).toContain("Dr. Ana Ruiz");
  });

  it("reads 'hand in' as submitting and 'the last day to' as a deadline", () => {
    const notice = passage("N1", "Project 2 is due on 14 March at 17:00. The withdrawal deadline is 2 April.", { documentId: "notice", documentTitle: "Announcements" });
    expect(run("When do we have to hand in project 2?", [notice]).parts[0].claims[0].text).toBe("Project 2 is due on 14 March at 17:00.");
    expect(run("What's the last day to withdraw from the course?", [notice]).parts[0].claims[0].text).toBe("The withdrawal deadline is 2 April.");
  });

  it("stays fast on a few hundred sentences", () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      passage(
        `S${i + 1}`,
        `Assignment ${i} is due on ${(i % 28) + 1} November at 17:00. Late submissions lose 10% per day. A hash function maps keys to integers. Office hours are in Room ENG ${200 + i}. Lecture ${i} covers balanced search trees.`,
        { documentId: `doc-${i}` },
      ),
    );
    const start = performance.now();
    const result = generateExtractive({ question: "What is the late penalty, and when is Assignment 42 due?", passages: many });
    expect(performance.now() - start).toBeLessThan(1000);
    expect(result.parts[1].claims[0].text).toBe("Assignment 42 is due on 15 November at 17:00.");
  });
});

describe("a sentence that announces the next one", () => {
  it("is quoted together with the sentence it announces", () => {
    const text =
      "Bitslicing speeds up ciphers in software. The key observation behind bitslicing is the following:\nEvery operation works bitwise, so eight blocks can be processed in parallel in one byte.";
    const { parts } = generateExtractive({ question: "What is the key observation behind bitslicing?", passages: [passage("S1", text)] });
    const quote = parts[0].claims.map((c) => c.evidence.map((e) => e.quote).join(" ")).join(" ");
    expect(quote).toContain("the following:");
    expect(quote).toContain("eight blocks can be processed in parallel");
    for (const c of parts[0].claims) for (const e of c.evidence) expect(text).toContain(e.quote);
  });
});
