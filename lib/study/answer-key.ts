/** The key two values or texts are compared by: case, spacing and punctuation do not make a new answer. Shared by the generator and the quiz in the browser. */
export const answerKey = (s: string) => s.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}%$€£]+/gu, "");
