export {};
/**
 * `npm run eval`: with --course, a golden set of a course in the app's database
 * (scripts/eval-course.ts); otherwise the development evaluation of lib/eval (scripts/eval.ts).
 */
if (process.argv.slice(2).includes("--course")) await import("./eval-course");
else await import("./eval");
