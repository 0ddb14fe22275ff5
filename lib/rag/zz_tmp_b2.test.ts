import { test } from "vitest";
import { generateExtractive } from "@/lib/rag/generate-extractive";
import type { LabelledPassage } from "@/lib/rag/types";
let n = 0;
const P = (label: string, text: string, o: Partial<LabelledPassage> = {}): LabelledPassage => ({ chunkId: `c${++n}`, revisionId: "r", documentId: "bio", documentTitle: "BIOL 110 Lecture 6 - Cellular Respiration", revisionNumber: 1, isCorrection: false, uploadedAt: "", pdfPage: 1, pageLabel: null, text, charStart: 0, label, ...o });
const ps = [
P("S1", `Cellular respiration is the process by which cells break down glucose to produce ATP. It occurs in three stages: glycolysis, the citric acid cycle, and oxidative phosphorylation.
Glycolysis takes place in the cytoplasm and does not require oxygen. It splits one molecule of glucose into two molecules of pyruvate, producing a net gain of 2 ATP and 2 NADH.`),
P("S2", `The citric acid cycle (also called the Krebs cycle) occurs in the mitochondrial matrix. For each molecule of glucose, the cycle turns twice.
Oxidative phosphorylation produces about 26 to 28 ATP per glucose molecule. The electron transport chain is located in the inner mitochondrial membrane.
In the absence of oxygen, cells rely on fermentation, which regenerates NAD+ but yields no additional ATP.`, { pdfPage: 2 }),
P("S3", `Exam 2 will cover Lectures 5–8. Bring a pencil and your student ID. Calculators are not permitted.
Exam 2 is on Thursday, October 16, during the regular class time.
Review session: Tuesday, October 14, 6–8 pm in Science Center 101.`, { documentId: "announce", documentTitle: "Exam 2 announcement" }),
];
test("b2", () => {
  const qs = ["What is cellular respiration?", "Where does glycolysis take place?", "How many ATP does glycolysis produce?", "Where is the electron transport chain located?", "What is the Krebs cycle?", "Does glycolysis require oxygen?", "What happens without oxygen?",
   "When is exam 2?", "When is exam 3?", "What does exam 2 cover?", "Can I use a calculator on the exam?", "When is the review session?", "Where is the review session?", "What is photosynthesis?", "What is ATP?", "How many times does the citric acid cycle turn per glucose?", "What is the role of NADH?", "Who teaches BIOL 110?", "What is the final exam worth?", "When is the exam?", "What should I bring to the exam?", "Explain oxidative phosphorylation", "What is the difference between glycolysis and fermentation?"];
  for (const q of qs) { const r = generateExtractive({ question: q, passages: ps }); for (const p of r.parts) console.log(`${p.state.padEnd(11)} ${p.ask}\n${p.claims.map(c => `            → ${c.text.slice(0, 150)} [${c.evidence.map(e => e.sourceId).join(",")}]`).join("\n")}`); }
});
