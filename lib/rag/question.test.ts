import { describe, expect, it } from "vitest";
import {
  answerTypeOf,
  contentTerms,
  coordinatedSubjects,
  idMentions,
  looksLikeFollowUp,
  splitQuestion,
  standaloneFollowUp,
  stemWord,
  STOPWORDS,
} from "./question";

describe("splitQuestion", () => {
  it("splits two requested facts joined by 'and' before a new interrogative clause", () => {
    const parts = splitQuestion("What is the late penalty, and when is Assignment 2 due?");
    expect(parts.map((p) => p.ask)).toEqual(["What is the late penalty", "when is Assignment 2 due"]);
    expect(parts.map((p) => p.answerType)).toEqual(["number", "date"]);
    expect(parts[0].terms).toEqual(["late", "penalty"]);
    expect(parts[1].required).toEqual([{ noun: "assignment", ids: ["2"] }]);
  });

  it("gives a bare interrogative joined to another the clause they share", () => {
    expect(splitQuestion("Where and when does the class meet?").map((p) => p.ask)).toEqual(["Where does the class meet", "when does the class meet"]);
    expect(splitQuestion("How and why does bitslicing work?").map((p) => p.ask)).toEqual(["How does bitslicing work", "why does bitslicing work"]);
    expect(splitQuestion("Where and when does the class meet?")[0].terms).toEqual(splitQuestion("When does the class meet?")[0].terms);
  });

  it("never splits inside a coordinated noun phrase", () => {
    const parts = splitQuestion("What are the grading weights and late policy?");
    expect(parts).toHaveLength(1);
    expect(parts[0].ask).toBe("What are the grading weights and late policy");
    // …but the generator can still see the two things it names
    expect(coordinatedSubjects(parts[0])?.map((c) => c.text)).toEqual(["grading weights", "late policy"]);
  });

  it("does not split at a subordinate 'when' or a bare comma", () => {
    expect(splitQuestion("What is the policy when an assignment is late?")).toHaveLength(1);
    expect(splitQuestion("What happens to my grade, when I submit late?")).toHaveLength(1);
  });

  it("splits on question marks, semicolons and auxiliaries that start a new question", () => {
    expect(splitQuestion("When is the midterm? Where is it held?").map((p) => p.ask)).toEqual(["When is the midterm", "Where is it held"]);
    expect(splitQuestion("Is the final exam cumulative, and can I bring a calculator?").map((p) => p.ask)).toEqual([
      "Is the final exam cumulative",
      "can I bring a calculator",
    ]);
    expect(splitQuestion("what's the deadline for HW1; how many late days do we get").map((p) => p.answerType)).toEqual(["date", "number"]);
  });

  it("reads the answer type from cues", () => {
    expect(answerTypeOf("When is Assignment 2 due")).toBe("date");
    expect(answerTypeOf("What is the deadline for the project")).toBe("date");
    expect(answerTypeOf("What time does the exam start")).toBe("date");
    expect(answerTypeOf("How much is the final exam worth")).toBe("number");
    expect(answerTypeOf("What percentage of the grade is the midterm")).toBe("number");
    expect(answerTypeOf("How long is the exam")).toBe("number");
    expect(answerTypeOf("What is the weight of the labs")).toBe("number");
    expect(answerTypeOf("What is open addressing")).toBe("definition");
    expect(answerTypeOf("Define memoization")).toBe("definition");
    expect(answerTypeOf("What is the meaning of load factor")).toBe("definition");
    expect(answerTypeOf("Who teaches the course")).toBe("person");
    expect(answerTypeOf("Where are office hours held")).toBe("place");
    expect(answerTypeOf("Can I work with a partner")).toBe("general");
  });

  it("keeps content terms only, lowercased and stemmed the same way as passages", () => {
    expect(contentTerms("What are the grading weights?")).toEqual(["grade", "weight"]);
    expect(contentTerms("late penalties")).toEqual(contentTerms("Late penalty"));
    expect(contentTerms("Lectures were submitted")).toEqual(["lectur", "submit"]);
    expect(contentTerms("When is Assignment 4 due?")).toEqual(["assignment", "4", "due"]);
    for (const w of ["what", "the", "is", "and", "please", "when"]) expect(STOPWORDS.has(w)).toBe(true);
  });

  it("treats numbers next to nouns as required identifiers", () => {
    const [part] = splitQuestion("When is Assignment 4 due?");
    expect(part.required).toEqual([{ noun: "assignment", ids: ["4"] }]);
    expect(splitQuestion("What's covered in Week 3?")[0].required).toEqual([{ noun: "week", ids: ["3"] }]);
    expect(splitQuestion("When is HW1 due?")[0].required).toEqual([{ noun: "homework", ids: ["1"] }]);
    expect(splitQuestion("Is Lab #2 graded?")[0].required).toEqual([{ noun: "lab", ids: ["2"] }]);
    expect(splitQuestion("When is the second midterm?")[0].required).toEqual([{ noun: "midterm", ids: ["2"] }]);
    // quantities and times are not identifiers
    expect(splitQuestion("Is the penalty 10 points per day?")[0].required).toEqual([]);
    expect(idMentions("due at 5 pm on 18 September").length).toBe(0);
  });

  it("recognises identifiers written differently in notes", () => {
    const ids = (t: string) => idMentions(t).map((m) => `${m.noun} ${m.ids.join(",")}`);
    expect(ids("A2 due Fri Sept 26")).toEqual(["assignment 2"]);
    expect(ids("Homework 1 and the fourth quiz")).toEqual(["homework 1", "quiz 4"]);
    expect(ids("Read chapters 3-5 before Section B meets")).toEqual(["chapter 3,4,5", "section b"]);
  });

  it("gives an elliptical part the subject of the part before it", () => {
    const parts = splitQuestion("What is Assignment 4 about, and when is it due?");
    expect(parts).toHaveLength(2);
    expect(parts[1].ask).toBe("when is it due");
    expect(parts[1].answerType).toBe("date");
    expect(parts[1].terms).toEqual(expect.arrayContaining(["due", "assignment", "4"]));
    expect(parts[1].required).toEqual([{ noun: "assignment", ids: ["4"] }]);
  });

  it("gives a leading elliptical part the subject of the part after it", () => {
    const parts = splitQuestion("When, and where, is the final exam?");
    expect(parts.map((p) => p.answerType)).toEqual(["date", "place"]);
    expect(parts[0].subject).toEqual(expect.arrayContaining(["final", "exam"]));
  });

  it("makes one part per listed identifier", () => {
    const parts = splitQuestion("When are assignments 3 and 4 due?");
    expect(parts.map((p) => p.required)).toEqual([[{ noun: "assignment", ids: ["3"] }], [{ noun: "assignment", ids: ["4"] }]]);
  });

  it("keeps the terms of a statement around the question as context, not as its subject", () => {
    const parts = splitQuestion("I missed the lecture on hashing. What is open addressing?");
    expect(parts.map((p) => p.ask)).toEqual(["What is open addressing"]);
    expect(parts[0].terms).toEqual(["open", "address"]);
    expect(parts[0].subject).toEqual(["open", "address"]);
    expect(parts[0].context).toEqual(expect.arrayContaining(["lectur", "hash"]));
  });

  it("returns nothing for an empty question and one part for a bare phrase", () => {
    expect(splitQuestion("  ")).toEqual([]);
    expect(splitQuestion("late policy")).toEqual([{ ask: "late policy", answerType: "general", terms: ["late", "policy"], subject: ["late"], required: [] }]);
  });
});

describe("question wording", () => {
  it("does not take a quantity word inside a technical term for the kind of answer", () => {
    expect(answerTypeOf("What is the Hamming weight model?")).toBe("definition");
    expect(splitQuestion("What is the Hamming weight model?")[0].subject).toEqual(expect.arrayContaining(["weight", "model"]));
    expect(answerTypeOf("What is weight decay?")).toBe("definition");
    // …but still for the grading weight of something
    expect(answerTypeOf("What is the weight of the final exam?")).toBe("number");
    expect(answerTypeOf("What are the grading weights?")).toBe("number");
  });

  it("reads what a question asks for from its subject and phrasing", () => {
    expect(answerTypeOf("What are we covering in week 6?")).toBe("general");
    expect(answerTypeOf("what's the last day to drop the course?")).toBe("date");
    expect(answerTypeOf("What is the instructor's email?")).toBe("general");
    expect(answerTypeOf("What are the office hours?")).toBe("general");
  });

  it("reads phrasal verbs and set phrases as the words the notes use", () => {
    expect(contentTerms("When do we hand in project 2?")).toEqual(["submit", "project", "2"]);
    expect(contentTerms("Can I turn it in late?")).toEqual(["submit", "late"]);
    expect(contentTerms("What's the last day to drop?")).toEqual([stemWord("deadline"), "drop"]);
    // "how long" names the kind of answer, not a word to look for
    expect(splitQuestion("How long do I have to ask for a regrade?")[0].terms).not.toContain("long");
  });

  it("does not read a number behind a parenthesis as an identifier", () => {
    expect(idMentions("Adapt short pieces of code (at most 10 lines) from online sources.")).toEqual([]);
    expect(idMentions("Project #2 and Lab no. 3").map((m) => `${m.noun} ${m.ids.join()}`)).toEqual(["project 2", "lab 3"]);
  });
});

describe("stemWord", () => {
  it("maps inflections to one stem", () => {
    expect(new Set(["grading", "grade", "grades", "graded"].map(stemWord))).toEqual(new Set(["grade"]));
    expect(new Set(["submit", "submits", "submitted", "submitting"].map(stemWord))).toEqual(new Set(["submit"]));
    expect(stemWord("quizzes")).toBe(stemWord("quiz"));
    expect(stemWord("deadlines")).toBe(stemWord("deadline"));
    expect(stemWord("syllabus")).toBe("syllabus");
  });
});

describe("standaloneFollowUp", () => {
  const history = ["What is Assignment 4 about?"];

  it("returns a standalone question unchanged", () => {
    expect(standaloneFollowUp("What is the late penalty?", history)).toBe("What is the late penalty?");
    expect(standaloneFollowUp("Who teaches this course?", history)).toBe("Who teaches this course?");
    expect(standaloneFollowUp("When is it due?", [])).toBe("When is it due?");
  });

  it("replaces a pronoun with the previous subject", () => {
    expect(standaloneFollowUp("When is it due?", history)).toBe("When is Assignment 4 due?");
    expect(standaloneFollowUp("How much is it worth?", history)).toBe("How much is Assignment 4 worth?");
    expect(standaloneFollowUp("and when is that due?", ["What does assignment 3 cover?"])).toBe("when is assignment 3 due?");
  });

  it("reuses the previous question for 'what about …'", () => {
    expect(standaloneFollowUp("what about assignment 5?", ["When is assignment 4 due?"])).toBe("When is assignment 5 due?");
    expect(standaloneFollowUp("And the midterm?", ["How much is the final exam worth?"])).toBe("How much is the midterm worth?");
    expect(standaloneFollowUp("what about the late penalty?", ["When is Assignment 2 due?"])).toBe("What is the late penalty?");
  });

  it("resolves a personal pronoun to the person the previous question asked about", () => {
    expect(standaloneFollowUp("what are his office hours?", ["Who is the instructor?"])).toBe("what are the instructor's office hours?");
    expect(standaloneFollowUp("what are her office hours?", ["Who teaches PHYS 121?"])).toBe("what are the instructor's office hours?");
    expect(standaloneFollowUp("what is her email?", ["Who is the TA for section B?"])).toBe("what is the TA's email?");
    expect(standaloneFollowUp("when are his office hours?", ["What does Prof. Daniel Okoro teach?"])).toBe("when are Prof. Daniel Okoro's office hours?");
    expect(looksLikeFollowUp("what are his office hours?")).toBe(true);
    // a question that names its person itself stands alone
    expect(looksLikeFollowUp("Who is the TA and what is her email?")).toBe(false);
  });

  it("replaces the whole subject phrase of the previous question, type words inside it included", () => {
    expect(standaloneFollowUp("and the Hamming distance model?", ["What is the Hamming weight model?"])).toBe("What is the Hamming distance model?");
    expect(standaloneFollowUp("and the gradient descent update rule?", ["What is the weight update rule?"])).toBe("What is the gradient descent update rule?");
    // a trailing type word is not part of it
    expect(standaloneFollowUp("and the lab report?", ["How much is the term project worth?"])).toBe("How much is the lab report worth?");
  });

  it("treats a pronoun as the subject of the question's verb as a follow-up, however long the question", () => {
    expect(standaloneFollowUp("can it get stuck in a poor local minimum?", ["How does gradient descent work?"])).toBe("can gradient descent get stuck in a poor local minimum?");
  });

  it("resolves a chain of follow-ups", () => {
    expect(standaloneFollowUp("and where is it?", ["When is the final exam?", "Is it cumulative?"])).toContain("final exam");
  });

  it("detects follow-ups and is deterministic", () => {
    expect(looksLikeFollowUp("When is it due?")).toBe(true);
    expect(looksLikeFollowUp("what about lab 3?")).toBe(true);
    expect(looksLikeFollowUp("When is Assignment 2 due?")).toBe(false);
    const a = standaloneFollowUp("Why?", ["When is Assignment 2 due?"]);
    expect(a).toBe(standaloneFollowUp("Why?", ["When is Assignment 2 due?"]));
    expect(a).toContain("Assignment 2");
  });
});

describe("relatedStems: everyday phrasings of policy words", () => {
  it("relates “together” to collaboration and “dishonesty” to cheating", async () => {
    const { relatedStems: rel, stemWord: st } = await import("./question");
    expect(rel(st("together"))).toContain(st("collaboration"));
    expect(rel(st("dishonesty"))).toContain(st("cheating"));
  });
});
