import { test } from "vitest";
import { generateExtractive } from "@/lib/rag/generate-extractive";
import type { LabelledPassage } from "@/lib/rag/types";
let n = 0;
const P = (label: string, text: string, o: Partial<LabelledPassage> = {}): LabelledPassage => ({ chunkId: `c${++n}`, revisionId: "r", documentId: "syllabus", documentTitle: "PSYC 201 Syllabus", revisionNumber: 1, isCorrection: false, uploadedAt: "", pdfPage: 1, pageLabel: null, text, charStart: 0, label, ...o });
const ps = [
P("S1", `PSYC 201: Research Methods in Psychology
Spring 2026, Tuesdays and Thursdays 10:30–11:50, Biology Building Room 120
Instructor: Professor Hannah Kim, Department of Psychology. Email: hkim@college.edu. Office: Psychology Hall 314. Office hours: Wednesdays 1–3 pm or by appointment.
Teaching Assistant: Daniel Ortiz (dortiz@college.edu). TA office hours are Mondays from 2 to 4 pm in the Psychology Learning Lab.
Prerequisites: PSYC 101 and STAT 150, or permission of the instructor.`),
P("S2", `Required textbook: Morling, B. Research Methods in Psychology: Evaluating a World of Information (4th ed.). Additional readings will be posted on Canvas.
Course requirements and grading
Your final grade is based on the following components: Quizzes (10%), Lab reports (30%), Research proposal (20%), Midterm exam (15%), Final exam (25%). There are 10 weekly quizzes; the lowest two quiz scores will be dropped.
Letter grades: A 93–100, A- 90–92, B+ 87–89, B 83–86.`),
P("S3", `Attendance and participation. Attendance is expected at every class meeting. More than three unexcused absences will lower your participation grade. If you must miss class, email the instructor before the class meeting.
Late work. Lab reports submitted after the deadline will be penalized 5 percentage points per calendar day. Work more than one week late will not be accepted. Extensions are granted only for documented emergencies.
Academic integrity. Plagiarism, fabrication of data, and unauthorized collaboration are violations of the college's academic integrity policy and will be reported to the Dean of Students. The use of generative AI tools such as ChatGPT to write any part of a lab report is not permitted.`),
P("S4", `Schedule
Week 1 (Jan 13) Introduction; the scientific method
Week 2 (Jan 20) Ethics in research; IRB. Quiz 1
Week 5 (Feb 10) Correlational designs. Lab report 1 due Feb 13
Week 8 (Mar 3) Midterm exam (in class, March 5)
Week 9 (Mar 10) Spring break, no class
Week 11 (Mar 24) Experimental designs. Lab report 2 due March 27
Week 14 (Apr 14) Research proposal due April 17 by 11:59 p.m.
Final exam: Tuesday, May 5, 8:00–10:00 am, location TBA.`, { pdfPage: 3 }),
P("S5", `Lecture 4: Measurement
Reliability refers to the consistency of a measure. Test-retest reliability is the consistency of scores when the same test is given twice to the same people.
Validity is the extent to which a measure assesses what it is supposed to measure. Construct validity concerns whether the operational definition of a variable reflects the theoretical meaning of the concept.
An operational definition specifies how a variable will be measured or manipulated in a particular study.`, { documentId: "lec4", documentTitle: "Lecture 4 - Measurement.pdf" }),
];
test("battery", () => {
  const qs = [
    "When is the final exam?", "Where is the final exam?", "When is lab report 2 due?", "When is lab report 3 due?", "When is the research proposal due?",
    "How much is the research proposal worth?", "How is the course graded?", "What textbook do we use?", "Is attendance mandatory?", "Can I use ChatGPT for lab reports?",
    "What is the late policy for lab reports?", "What are the prerequisites?", "Who is the TA?", "What's the TA's email?", "When are the TA's office hours?",
    "When are office hours?", "What is reliability?", "What is construct validity?", "What is an operational definition?", "What is the difference between reliability and validity?",
    "How many quizzes are there?", "Are the lowest quiz scores dropped?", "When is the midterm?", "What happens in week 9?", "What is covered in week 5?",
    "What is the attendance policy?", "How many absences are allowed?", "What is the capital of France?", "When is assignment 2 due?", "What is a p-value?",
    "Who do I email if I miss class?", "What is the grading scale?", "When does the class meet?", "What is internal validity?", "What time is the final exam?",
    "What percentage is the midterm worth?", "Is there a curve?", "What is plagiarism?", "What happens if I submit late?", "When is quiz 1?",
  ];
  for (const q of qs) { const r = generateExtractive({ question: q, passages: ps }); for (const p of r.parts) console.log(`${p.state.padEnd(11)} ${p.ask}\n${p.claims.map(c => `            → ${c.text.slice(0, 150)} [${c.evidence.map(e => e.sourceId).join(",")}]`).join("\n")}`); }
});
