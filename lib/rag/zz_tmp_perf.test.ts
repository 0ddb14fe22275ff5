import { test } from "vitest";
import { generateExtractive } from "@/lib/rag/generate-extractive";
import { standaloneFollowUp } from "@/lib/rag/question";
import type { LabelledPassage } from "@/lib/rag/types";
test("perf", () => {
  const base = `Assignment 3 is due on 2 October at 17:00. The final exam is worth 35% of the course grade. Late submissions lose 10% per day. A hash function maps keys to integers in a fixed range. Office hours are Tuesdays 14:00–16:00 in Room ENG 214. Lecture 7 covers balanced search trees and rotations.`;
  const passages: LabelledPassage[] = Array.from({ length: 50 }, (_, i) => ({ chunkId: `c${i}`, revisionId: "r", documentId: `d${i % 7}`, documentTitle: `Doc ${i}`, revisionNumber: 1, isCorrection: false, uploadedAt: "", pdfPage: 1, pageLabel: null, text: base.replace(/3/g, String(i)), charStart: 0, label: `S${i + 1}` }));
  const t0 = performance.now();
  for (let k = 0; k < 5; k++) generateExtractive({ question: "What is the late penalty, and when is Assignment 4 due? Who is the instructor?", passages });
  console.log("ms per call (300 sentences):", (performance.now() - t0) / 5);
  const r = generateExtractive({ question: "When is assignment 4 due?", passages });
  console.log(JSON.stringify(r.parts));
  const H = ["When is Assignment 2 due?"];
  for (const q of ["And assignment 3?", "what about the late penalty?", "How much is it worth?", "Is it graded?", "When is that due?", "Where is the final exam?", "and the midterm?", "Why?"]) console.log(q, "=>", standaloneFollowUp(q, H));
  console.log(standaloneFollowUp("and where is it?", ["When is the final exam?", "Is it cumulative?"]));
});
