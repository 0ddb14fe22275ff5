import { test } from "vitest";
import { splitQuestion, coordinatedSubjects } from "@/lib/rag/question";
test("c", () => {
  for (const q of ["What are the grading weights and late policy?", "When are the midterm and final exams?", "When are assignments 3 and 4 due?", "What is the difference between stacks and queues?", "What are the late policy, the regrade policy and the attendance rules for labs?", "How much are quizzes, labs and the final exam worth?", "When is Assignment 2 due?", "What is the late penalty, and when is Assignment 4 due?"])
    for (const p of splitQuestion(q)) console.log(p.ask, "→", JSON.stringify(coordinatedSubjects(p)));
});
