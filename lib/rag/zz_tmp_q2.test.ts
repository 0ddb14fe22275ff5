import { test } from "vitest";
import { splitQuestion, standaloneFollowUp, looksLikeFollowUp } from "@/lib/rag/question";
test("q2", () => {
  for (const q of ["I'm in Section B. When is my lab?", "final exam date?", "Tell me about the final exam", "What is this course about?", "Dr. Smith's office hours?", "When is the exam, and how long is it?", "What are Sept. 18's readings?", "When's A2 due and what's the late penalty", "How do I submit assignment 3 and what is the penalty for late work"]) console.log(q, "→", JSON.stringify(splitQuestion(q).map(p => [p.ask, p.answerType, p.subject, p.required])));
  for (const q of ["What is this course about?", "Is it graded?", "When is it due?", "Who is the TA?"]) console.log(q, looksLikeFollowUp(q), standaloneFollowUp(q, ["When is Assignment 2 due?"]));
});
