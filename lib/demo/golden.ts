/**
 * The demo course's golden set `demo`, seeded with the course: 25 questions of each kind written
 * over the demo documents (none is a development-set question of lib/eval). Gold passages are
 * sentences printed in the documents (DEMO_FACTS and the document specs), so they cannot drift
 * from the PDFs; lib/demo/golden.test.ts checks each against the indexed pages.
 */
import type { GoldenPage, GoldenQuestion } from "@/lib/eval/metrics";
import { DEMO_DOCUMENT_TITLES, DEMO_FACTS, type DemoDocumentKey } from "./course";

export const DEMO_GOLDEN_SET = "demo";

const at = (document: DemoDocumentKey, pdfPage: number, quote?: string): GoldenPage => ({ document: DEMO_DOCUMENT_TITLES[document], pdfPage, ...(quote ? { quote } : {}) });
const fact = (key: keyof typeof DEMO_FACTS.sentences): GoldenPage => {
  const s = DEMO_FACTS.sentences[key];
  return at(s.document, s.pdfPage, s.sentence);
};

type Draft = Omit<GoldenQuestion, "id" | "course" | "split" | "kind">;
const answered = (question: string, pages: GoldenPage[], answer: string, history?: string[]): Draft => ({ question, pages, answer, expect: "answered", ...(history ? { history } : {}) });
const partial = (question: string, pages: GoldenPage[], answer: string): Draft => ({ question, pages, answer, expect: "partial" });
const declined = (question: string, { offTopic = false, history }: { offTopic?: boolean; history?: string[] } = {}): Draft => ({
  question,
  expect: "insufficient_evidence",
  ...(offTopic ? { offTopic } : {}),
  ...(history ? { history } : {}),
});

const answerable: Draft[] = [
  answered("Which person is in charge of teaching CS 101?", [fact("instructor")], DEMO_FACTS.instructor),
  answered("On which days can I drop in to see the instructor?", [fact("officeHours")], "Tuesdays and Thursdays"),
  answered("Why was the deadline of Assignment 3 moved?", [at("correction", 1, "because the test script for the assignment was published later than planned")], "test script"),
  answered("What is the deadline for the first assignment?", [fact("assignment1Due")], DEMO_FACTS.assignment1Due),
  answered("By what date must the SQL assignment be handed in?", [fact("assignment2Due")], "25 September"),
  answered("What is the new due date for the transactions assignment?", [fact("correction")], "16 October"),
  answered("On what date does the midterm take place?", [fact("midterm")], "23 October"),
  answered("Where will the final exam be held?", [fact("finalExam")], "Main Examination Hall"),
  answered("What share of the final grade comes from the assignments?", [at("syllabus", 3)], DEMO_FACTS.gradingWeights.assignments),
  answered("How much does the midterm count towards the grade?", [at("syllabus", 3)], DEMO_FACTS.gradingWeights.midterm),
  answered("What overall mark do I need to pass?", [at("syllabus", 3, "you need an overall mark of at least 50%")], "50%"),
  answered("How many days late can a submission still earn some credit?", [fact("latePolicy")], "up to 3 days"),
  answered("Can I get an extension on an assignment?", [at("syllabus", 3, "Extensions are only granted when they are requested in advance.")], "requested in advance"),
  answered("Am I allowed to share my solutions with classmates?", [at("syllabus", 3, "sharing your solutions with others, is treated as academic misconduct")], "academic misconduct"),
  answered("What is taught in week 10?", [at("syllabus", 4, "Query processing and optimisation")], "Query processing and optimisation"),
  answered("How long does a participation quiz take?", [at("syllabus", 4, "Each quiz takes about ten minutes")], "ten minutes"),
  answered("Who runs the weekly lab sessions?", [at("syllabus", 1, "The teaching assistant is Samuel Okafor")], "Samuel Okafor"),
  answered("Which lecture hall are the lectures in?", [at("syllabus", 1, "Lectures are held on Mondays and Wednesdays from 11:00 to 12:30 in Lecture Hall A.")], "Lecture Hall A"),
  answered("What may I bring into the exams?", [at("syllabus", 2, "You may bring one handwritten sheet of notes to each exam.")], "one handwritten sheet"),
  answered("What locking scheme must the Assignment 3 transaction manager use?", [at("notice", 1, "using strict two-phase locking to control access to each key")], "strict two-phase locking"),
  answered("How long may the Assignment 3 report be?", [at("notice", 1, "A short report of at most four pages that explains your locking design.")], "four pages"),
  answered("Define a transaction.", [fact("transaction")], "single logical unit of work"),
  answered("What does durability guarantee?", [at("lecture", 4, "Durability means that once a transaction has committed, its changes survive crashes and power failures.")], "survive crashes"),
  answered("Which anomalies can still happen under repeatable read?", [at("lecture", 5)], "Phantom"),
  answered("Does two-phase locking prevent deadlocks?", [at("lecture", 6, "It does not prevent deadlocks, so the system must detect them and abort one of the transactions involved.")], "does not prevent deadlocks"),
];

const unanswerable: Draft[] = [
  declined("Is there a Discord server for this course?"),
  declined("What is the teaching assistant's email address?"),
  declined("How many students are enrolled in CS 101?"),
  declined("What programming language is required for Assignment 5?"),
  declined("When is the deadline for Assignment 6?"),
  declined("Which chapter of the textbook covers B-trees?"),
  declined("Are the lectures recorded on video?"),
  declined("What was the class average on last year's final?"),
  declined("Where can I park my car on campus?"),
  declined("What time does the library close?"),
  declined("Who won the football world cup in 2018?", { offTopic: true }),
  declined("How do I make sourdough bread?", { offTopic: true }),
  declined("What is the boiling point of water at sea level?", { offTopic: true }),
  declined("Recommend a good movie for the weekend.", { offTopic: true }),
  declined("What is the population of Canada?", { offTopic: true }),
  declined("Is there a resit exam in January?"),
  declined("How much does the course cost in tuition fees?"),
  declined("What is the dress code for the final exam?"),
  declined("Can I take the midterm online from home?"),
  declined("What is the password for the lab computers?"),
  declined("Which NoSQL databases are covered in the course?"),
  declined("What is the weather forecast for tomorrow?", { offTopic: true }),
  declined("Who is the head of the computer science department?"),
  declined("How many credits is this course worth?"),
  declined("What is the syllabus of CS 102?"),
];

const twoPart: Draft[] = [
  answered("When is the first assignment due, and what does it cover?", [fact("assignment1Due")], "11 September"),
  answered("Where is the midterm held and when is the final exam?", [fact("midterm"), fact("finalExam")], "Lecture Hall B"),
  answered("What is atomicity and what is durability?", [fact("atomicity")], "either all of the operations"),
  answered("How much is the midterm worth and how much are the assignments worth?", [at("syllabus", 3)], DEMO_FACTS.gradingWeights.midterm),
  answered("Who teaches the course and what is their email address?", [fact("instructor")], "Lindqvist"),
  answered("What does Assignment 3 ask us to build, and what must we submit?", [at("notice", 1, "you will build a small transaction manager for a key-value store")], "transaction manager"),
  answered("What is two-phase locking, and what does strict two-phase locking add?", [fact("twoPhaseLocking")], "acquires all of its locks"),
  answered("What is covered in week 2 and in week 11?", [at("syllabus", 4, "Recovery and logging")], "Recovery and logging"),
  answered("What is the late penalty and how do I ask for an extension?", [fact("latePolicy")], DEMO_FACTS.latePenalty),
  answered("When is the final exam and what does it cover?", [fact("finalExam")], "11 December"),
  answered("What does the serializable level guarantee, and which level is the usual default?", [fact("serializable"), at("lecture", 5, "Many systems use read committed by default.")], "read committed"),
  answered("How are participation marks earned, and how much are they worth?", [at("syllabus", 4, "Participation is assessed through attendance at the weekly lab sessions and short online quizzes."), at("syllabus", 3)], "weekly lab sessions"),
  partial("When is Assignment 1 due and who marks it?", [fact("assignment1Due")], "11 September"),
  partial("What is consistency, and how does multiversion concurrency control work?", [at("lecture", 4, "Consistency means that a transaction which starts from a valid database state")], "valid"),
  partial("Where are office hours, and is there a course podcast?", [fact("officeHours")], "Room 2.14"),
  partial("When is the midterm, and when are its grades released?", [fact("midterm")], "23 October"),
  partial("What is the pass mark and is the grading curved?", [at("syllabus", 3, "you need an overall mark of at least 50%")], "50%"),
  partial("What must the Assignment 3 report explain, and which font should it use?", [at("notice", 1, "A short report of at most four pages that explains your locking design.")], "locking design"),
  partial("What is a transaction and what is a stored procedure?", [fact("transaction")], "single logical unit of work"),
  partial("How many sheets of notes can I bring, and may I use a calculator?", [at("syllabus", 2, "You may bring one handwritten sheet of notes to each exam.")], "one handwritten sheet"),
  partial("What is taught in week 5 and which guest speaker visits that week?", [at("syllabus", 4, "Functional dependencies and normal forms")], "Functional dependencies"),
  partial("What does the second assignment cover, and when is the fifth one due?", [at("syllabus", 2, "It covers SQL queries over the schema from the first assignment.")], "SQL queries"),
  partial("What is the Assignment 3 deadline now, and how many late days does Assignment 7 allow?", [fact("correction")], "16 October"),
  partial("Who is the teaching assistant and what is his phone number?", [at("syllabus", 1, "The teaching assistant is Samuel Okafor")], "Samuel Okafor"),
  partial("What is isolation, and how is a hash index built?", [at("lecture", 4, "Isolation means that concurrent transactions do not see each other's intermediate results.")], "intermediate results"),
];

const followUp: Draft[] = [
  answered("What is her email address?", [at("syllabus", 1, "m.lindqvist@example.edu")], "m.lindqvist@example.edu", ["Who teaches this course?"]),
  answered("What does it cover?", [at("syllabus", 2, "It covers the material of the first five weeks")], "first five weeks", ["When is the midterm exam?"]),
  answered("And where is that?", [fact("finalExam")], "Main Examination Hall", ["When is the final exam?"]),
  answered("How does one end?", [at("lecture", 3, "It either commits, and then all of its changes become permanent")], "commits", ["What is a transaction?"]),
  answered("For how many days does it apply?", [fact("latePolicy")], "up to 3 days", ["What is the late penalty?"]),
  answered("Why was it changed?", [at("correction", 1, "because the test script for the assignment was published later than planned")], "test script", ["When is Assignment 3 due?"]),
  answered("What happens in the shrinking phase?", [at("lecture", 6, "From then on it may release locks but never acquire new ones.")], "never acquire new ones", ["What is two-phase locking?"]),
  answered("Which level do many systems use instead?", [at("lecture", 5, "Many systems use read committed by default.")], "read committed", ["What is the serializable isolation level?"]),
  answered("When can I meet them?", [fact("officeHours")], "Tuesdays and Thursdays", ["Who is the instructor?"]),
  answered("By when must it be submitted?", [fact("assignment1Due")], "11 September", ["What does Assignment 1 cover?"]),
  answered("And week 4?", [at("syllabus", 4, "Entity-relationship modelling")], "Entity-relationship modelling", ["What is taught in week 3?"]),
  answered("And participation?", [at("syllabus", 3)], DEMO_FACTS.gradingWeights.participation, ["How much is the final exam worth?"]),
  answered("How long can it be?", [at("notice", 1, "A short report of at most four pages that explains your locking design.")], "four pages", ["What should the Assignment 3 report explain?"]),
  answered("How long does it last?", [fact("midterm")], "10:00 to 12:00", ["Where is the midterm held?"]),
  answered("Where does he answer questions?", [at("syllabus", 1, "answers questions on the course forum")], "course forum", ["Who is the teaching assistant?"]),
  answered("Which constraints must it respect?", [at("lecture", 4, "respecting every declared constraint")], "every declared constraint", ["What is consistency in ACID?"]),
  answered("And the final?", [fact("finalExam")], "11 December", ["When is the midterm?"]),
  answered("What if I am ill?", [at("syllabus", 3, "contact the instructor before the deadline")], "contact the instructor", ["What happens if I submit late?"]),
  answered("What does it cover?", [at("syllabus", 2, "It covers SQL queries over the schema from the first assignment.")], "SQL queries", ["When is Assignment 2 due?"]),
  declined("And the one after it?", { history: ["When is Assignment 3 due?"] }),
  declined("What is her phone number?", { history: ["Who is the instructor?"] }),
  declined("Is there a practice exam for it?", { history: ["When is the final exam?"] }),
  declined("Who invented it?", { history: ["What is two-phase locking?"] }),
  declined("When will its results be published?", { history: ["How much is the midterm worth?"] }),
  declined("And in week 13?", { history: ["What is taught in week 12?"] }),
];

const kinds = [
  ["answerable", "ans", answerable],
  ["unanswerable", "una", unanswerable],
  ["two-part", "two", twoPart],
  ["follow-up", "fol", followUp],
] as const;

/** The `demo` golden set of the demo course, in the lib/eval format. */
export const demoGoldenQuestions: GoldenQuestion[] = kinds.flatMap(([kind, prefix, drafts]) =>
  drafts.map((d, i) => ({ ...d, id: `${prefix}-${String(i + 1).padStart(2, "0")}`, course: "demo", kind, split: "test" as const })),
);
