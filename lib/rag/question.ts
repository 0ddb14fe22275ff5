/**
 * Pure helpers about questions: words → terms, identifiers ("Assignment 4"), the requested
 * parts of a question, and the extractive standalone rewrite of a follow-up. No I/O, no model:
 * everything here is deterministic and shared by retrieval (contentTerms) and the extractive
 * generator (analyze, splitQuestion).
 */

export type AnswerType = "date" | "number" | "definition" | "person" | "place" | "general";

/** stemWord is pure and called for every word of every passage: remember its answers (declared first: word lists below use it). */
const stemCache = new Map<string, string>();

/**
 * An identifier the question names: the noun stem and the ids that satisfy it.
 * "Assignment 4" → { noun: "assignment", ids: ["4"] }; "chapters 3–5" → { noun: "chapter", ids: ["3", "4", "5"] }.
 * A supporting sentence must mention the same noun with one of the ids (or not mention the noun
 * with any id and get it from its heading or document title).
 */
export interface RequiredId {
  noun: string;
  ids: string[];
  /** Other nouns of the same phrase ("midterm" for "midterm exam 2"): a mention with any of them counts. */
  alt?: string[];
}

/** One requested fact of a question: "What is the late penalty, and when is Assignment 2 due?" has two. */
export interface RequestedPart {
  /** The words of the question that ask for this part, trimmed ("when is Assignment 2 due"). */
  ask: string;
  answerType: AnswerType;
  /** Content terms of the ask (stems, stopwords removed), plus the subject an elliptical part inherited ("when is it due" → assignment, 4). */
  terms: string[];
  /** The subset of `terms` that names what the part is about (not the kind of answer): "assignment", "late", "penalty". */
  subject: string[];
  /** Identifiers a supporting sentence must match (numbers next to nouns: Assignment 4, Week 3, HW1). */
  required: RequiredId[];
  /** Terms of statements around the question ("I missed the lecture on hashing."): they may rank, never decide. */
  context?: string[];
}

// ─── Words ──────────────────────────────────────────────────────────────────────────────────

/** Function words, question words and chat filler: never a search or matching term. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but nor so yet if then than else also too as of at by for from in into onto on off out over under " +
    "to up down with without within about above below across after before against along among around behind beside " +
    "besides between beyond during except inside near since through throughout till toward towards until upon via per " +
    "vs versus etc eg ie " +
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers " +
    "herself it its itself they them their theirs themselves one ones someone somebody something anything anyone " +
    "everything everyone nothing none this that these those there here " +
    "what whats which who whom whose when where why how whatever whenever wherever whoever " +
    "is am are was were be been being do does did doing done have has had having will would shall should can could may " +
    "might must ought need needs needed want wants wanted get gets got getting go goes going gone let lets " +
    "not no yes any some all each every both either neither few more most much many other another such own same " +
    "just only very really quite rather still already even ever again always never often sometimes usually " +
    "please tell know knows explain show give say says said mention mentioned mentions according regarding concerning " +
    "hi hello hey thanks thank ok okay like well actually basically exactly maybe perhaps probably " +
    "thing things stuff way ways kind sort lot lots bit " +
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth " +
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen " +
    "eighteen nineteen twenty " +
    "notes note"
  ).split(/\s+/),
);

/** Words that say which kind of answer is wanted rather than what it is about. */
const TYPE_WORDS = new Set(
  ["date", "time", "deadline", "due", "worth", "weight", "weighted", "weighting", "percent", "percentage", "proportion", "fraction", "share", "portion", "amount", "number", "mean", "means", "meaning", "define", "defined", "definition", "stand", "stands", "refer", "refers", "term", "name", "location", "place", "located", "held"].map(stemWord),
);

/** Generic nouns and verbs of questions ("the late policy", "what topics are covered"): they rank, they do not decide. */
const GENERIC_WORDS = new Set(
  ["policy", "policies", "rule", "rules", "requirement", "requirements", "require", "required", "information", "info", "detail", "details", "procedure", "process", "topic", "topics", "cover", "covered", "covers", "content", "contents", "discuss", "discussed", "describe", "described", "happen", "happens", "course", "specific", "type", "types", "example", "examples", "main", "key", "important", "purpose", "idea", "concept", "overview", "summary", "summarize", "summarise", "work", "works", "use", "used", "using", "find", "look", "see", "happened", "bring", "take", "make", "put", "allowed", "allow", "difference", "differences", "differ", "similarity", "similarities", "similar"].map(stemWord),
);

/** For date and number parts these words must be matched (by themselves or a related word): "due" is not "released". */
const PREDICATE_WORDS = new Set(["due", "deadline", "worth", "weight", "weighted", "weighting", "percent", "percentage"].map(stemWord));

/** A term that, for date and number parts, a supporting sentence must match ("due", "worth", "weight"). */
export function isPredicateTerm(term: string): boolean {
  return PREDICATE_WORDS.has(term);
}

/** Related words of course material: a match on one of these counts, at a reduced weight, for the other. */
const RELATED_GROUPS: string[][] = [
  ["due", "deadline", "submit", "submission", "handin"],
  ["penalty", "penalties", "penalize", "penalise", "penalized", "deduct", "deduction", "deducted", "lose", "loses", "loss", "reduce", "reduced", "reduction"],
  ["worth", "weight", "weighted", "percent", "percentage", "count", "counts"],
  ["exam", "examination", "test"],
  ["midterm", "midsemester"],
  ["instructor", "professor", "prof", "lecturer", "teacher", "teach", "teaches", "taught", "convenor", "coordinator"],
  ["ta", "tas", "tutor", "assistant"],
  ["grade", "grading", "mark", "marks", "score"],
  ["extension", "extend", "extended"],
  ["absence", "absent", "miss", "missed"],
  ["attendance", "attend", "present", "come", "show"],
  ["plagiarism", "plagiarize", "cheat", "cheating", "integrity", "misconduct", "dishonesty"],
  ["textbook", "book", "reading", "text"],
  ["allow", "allowed", "permit", "permitted"],
  ["collaborate", "collaboration", "collaborative", "group", "team", "partner", "together"],
  ["prerequisite", "prereq", "prerequisites"],
  ["lecture", "class"],
  ["room", "location", "venue", "building", "hall"],
  ["email", "contact"],
  ["late", "lateness", "overdue"],
  ["mandatory", "compulsory", "obligatory", "required", "expected"],
  ["regrade", "remark", "appeal"],
  ["define", "definition", "mean", "meaning", "refer"],
  ["choose", "pick", "select", "selection"],
  ["copy", "copied", "reuse", "adapt", "borrow"],
  ["ask", "request"],
];

const RELATED: Map<string, string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of RELATED_GROUPS) {
    const stems = [...new Set(group.map(stemWord))];
    for (const s of stems) {
      const set = map.get(s) ?? new Set<string>();
      for (const o of stems) if (o !== s) set.add(o);
      map.set(s, set);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v].sort()]));
})();

/** Stems related to a stem (not including itself), for query expansion and matching. */
export function relatedStems(stem: string): readonly string[] {
  return RELATED.get(stem) ?? [];
}

/** Number words and ordinals that can name an identifier ("assignment two", "the second quiz"). */
const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
};
const ORDINAL_WORDS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
};
const ROMAN: Record<string, number> = { ii: 2, iii: 3, iv: 4, vi: 6, vii: 7, viii: 8, ix: 9 };

/** Abbreviations of identifier nouns ("HW1", "Ch. 3"); the single letters only when glued to digits ("A4"). */
const NOUN_ALIASES: Record<string, string> = {
  hw: "homework", hwk: "homework", asg: "assignment", asgn: "assignment", assn: "assignment", assgn: "assignment",
  ps: "pset", pset: "pset", lec: "lecture", wk: "week", ch: "chapter", chap: "chapter", sec: "section", sect: "section",
  ex: "exercise", proj: "project", mt: "midterm", tut: "tutorial",
};
const GLUED_ALIASES: Record<string, string> = { a: "assignment", w: "week" };

/** Nouns that are themselves the name of a numbered thing ("the first midterm exam" is midterm 1). */
const ID_NOUNS = new Set(
  ["assignment", "homework", "midterm", "quiz", "exam", "lab", "lecture", "week", "project", "test", "essay", "paper", "problem", "pset", "chapter", "section", "tutorial", "module", "unit", "exercise", "term", "semester", "report", "presentation", "draft", "milestone", "deliverable", "part", "session", "seminar", "workshop", "practical", "checkpoint"].map(stemWord),
);

/** Numbered things a student hands in or sits: a sentence naming a different one of these is about something else. */
const DELIVERABLE_NOUNS = new Set(
  ["assignment", "homework", "pset", "project", "lab", "quiz", "exam", "midterm", "test", "essay", "paper", "report", "presentation", "milestone", "deliverable", "exercise", "tutorial", "checkpoint", "draft", "worksheet", "practical"].map(stemWord),
);
export function isDeliverableNoun(noun: string): boolean {
  return DELIVERABLE_NOUNS.has(noun);
}

/** Nouns that take a letter as identifier ("Section B", "Appendix A"). */
const LETTER_ID_NOUNS = new Set(["section", "part", "appendix", "group", "option", "problem", "question", "exercise", "lab", "unit", "module", "table", "figure", "stream", "cohort", "track", "room", "hall", "building", "block", "wing"].map(stemWord));

const MONTH_WORDS = new Set(["jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december"]);
const WEEKDAY_WORDS = new Set(["mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu", "thur", "thurs", "thursday", "fri", "friday", "sat", "saturday", "sun", "sunday"]);
/** Words after a number that make it a quantity, not an identifier ("10 points", "5 pm"). */
const UNIT_WORDS = new Set(
  ["percent", "per", "point", "points", "pt", "pts", "mark", "marks", "pm", "am", "hour", "hours", "hr", "hrs", "h", "minute", "minutes", "min", "mins", "second", "seconds", "sec", "day", "days", "week", "weeks", "month", "months", "year", "years", "word", "words", "line", "lines", "page", "pages", "credit", "credits", "student", "students", "time", "times", "people", "member", "members", "question", "questions", "problem", "problems", "x", "am", "th", "st", "nd", "rd", "o'clock", "oclock"],
);
/** Nouns never read as identifier heads (a number after them is a quantity or a date). */
const NON_ID_NOUNS = new Set(["due", "worth", "weight", "deadline", "by", "at", "top", "over", "under", "about", "around", "approximately", "approx", "least", "most", "max", "maximum", "min", "minimum", "total", "score", "grade", "mark", "marks", "percent", "lose", "loses", "lost", "deduct", "deducted", "pm", "am", "and", "or", "p", "pp"]);

// ─── Stemming ───────────────────────────────────────────────────────────────────────────────

function isVowelAt(w: string, i: number): boolean {
  const c = w[i];
  if ("aeiou".includes(c)) return true;
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
}
/** Porter's measure m: the number of vowel-consonant sequences. */
function measure(w: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < w.length; i++) {
    const v = isVowelAt(w, i);
    if (!v && prevVowel) m++;
    prevVowel = v;
  }
  return m;
}
function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (isVowelAt(w, i)) return true;
  return false;
}
/** consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "how"). */
function endsCvc(w: string): boolean {
  return w.length >= 3 && !isVowelAt(w, w.length - 1) && isVowelAt(w, w.length - 2) && !isVowelAt(w, w.length - 3) && !"wxy".includes(w[w.length - 1]);
}

/**
 * Light stemming: Porter's steps 1a, 1b and 5 (plurals, -ed/-ing, final -e), keeping y.
 * Close enough to Porter that FTS5's porter tokenizer maps a stem and its word to the same
 * token ("grading" → "grade", "submitted" → "submit", "lectures" → "lectur", "penalties" → "penalty").
 */
export function stemWord(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stemUncached(word);
  if (stemCache.size > 50_000) stemCache.clear();
  stemCache.set(word, stemmed);
  return stemmed;
}

function stemUncached(word: string): string {
  let w = word.toLowerCase().replace(/’/g, "'").replace(/'s?$/, "");
  if (w.length <= 2 || !/^[a-z]+$/.test(w)) return w;
  // 1a: plurals
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("zzes")) w = w.slice(0, -3);
  else if (/(xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  // 1b: -eed, -ed, -ing
  let stripped = false;
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    stripped = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3)) && w.length > 5) {
    w = w.slice(0, -3);
    stripped = true;
  }
  if (stripped) {
    if (/(at|bl|iz)$/.test(w)) w += "e";
    else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && endsCvc(w)) w += "e";
  }
  // 5a: final -e (kept on -ance, -ive, -ate…: Porter's step 4 strips those whole, so the search index sees the same stem)
  if (w.endsWith("e") && w.length > 3 && !/(ance|ence|able|ible|ate|ive|ize|ise)$/.test(w)) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) w = base;
  }
  // 5b: -ll
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

/** Alias for stemWord, the name retrieval uses. */
export const stem = stemWord;

// ─── Tokens ─────────────────────────────────────────────────────────────────────────────────

export type TokenKind = "word" | "num" | "ord" | "sym";

/** One token of a text, with its offsets; numbers keep their value ("02" → "2"), words are lowercase. */
export interface Token {
  kind: TokenKind;
  /** Lowercase word, normalised number, ordinal value as digits, or the symbol itself. */
  value: string;
  start: number;
  end: number;
  /** A word or number split out of a glued token ("HW1" → "hw" + "1", "5pm" → "5" + "pm"). */
  glued?: boolean;
  /** For a hyphenated compound ("mid-term"): the joined word. */
  joined?: string;
}

const TOKEN_RE = /\p{N}+(?:[.,]\p{N}+)?\p{L}*|[\p{L}\p{N}]+(?:['’]\p{L}+)?|[%#&,;:?!/–—-]/gu;

const normNumber = (s: string) => {
  const n = s.replace(/,/g, "");
  return /^\d+$/.test(n) ? String(Number(n)) : n.replace(/^0+(?=\d)/, "");
};

/** Tokens of a text. Glued tokens are split ("hw1", "a4", "5pm", "2nd"); hyphenated words keep their joined form. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const raw = m[0];
    const start = m.index!;
    const end = start + raw.length;
    const lower = raw.toLowerCase().replace(/’/g, "'");
    let g: RegExpMatchArray | null;
    if (/^[%#&,;:?!/–—-]$/.test(raw)) {
      out.push({ kind: "sym", value: raw === "–" || raw === "—" ? "-" : raw, start, end });
    } else if ((g = lower.match(/^(\d+(?:[.,]\d+)?)([a-z]*)$/))) {
      const [, num, suffix] = g;
      if (/^(st|nd|rd|th)$/.test(suffix) && /^\d+$/.test(num)) {
        out.push({ kind: "ord", value: String(Number(num)), start, end });
      } else {
        // "1,000" is a number, "3,4" is a list
        if (num.includes(",") && !/^\d{1,3},\d{3}$/.test(num)) {
          const [a, b] = num.split(",");
          const comma = start + a.length;
          out.push({ kind: "num", value: normNumber(a), start, end: comma });
          out.push({ kind: "sym", value: ",", start: comma, end: comma + 1 });
          out.push({ kind: "num", value: normNumber(b), start: comma + 1, end: start + num.length });
        } else {
          out.push({ kind: "num", value: normNumber(num), start, end: start + num.length, glued: suffix.length > 0 });
        }
        if (suffix) out.push({ kind: "word", value: suffix, start: start + num.length, end, glued: true });
      }
    } else if ((g = lower.match(/^([a-z]{1,5})(\d{1,4})([a-z]?)$/))) {
      const [, prefix, digits, tail] = g;
      out.push({ kind: "word", value: prefix, start, end: start + prefix.length, glued: true });
      out.push({ kind: "num", value: normNumber(digits), start: start + prefix.length, end: start + prefix.length + digits.length, glued: true });
      if (tail) out.push({ kind: "word", value: tail, start: end - 1, end, glued: true });
    } else {
      out.push({ kind: "word", value: lower, start, end });
    }
  }
  // Hyphenated compounds: "mid-term" → mid, -, term with joined "midterm" on the last part.
  for (let i = 0; i + 2 < out.length; i++) {
    const [a, h, b] = [out[i], out[i + 1], out[i + 2]];
    if (a.kind === "word" && h.kind === "sym" && h.value === "-" && b.kind === "word" && a.end === h.start && h.end === b.start && !a.glued && !b.glued) {
      b.joined = (a.joined ?? a.value) + b.value;
    }
  }
  return out;
}

/** Contractions and other words with an apostrophe that carry no content ("what's", "don't"). */
function isStopToken(word: string): boolean {
  if (STOPWORDS.has(word)) return true;
  const apos = word.indexOf("'");
  if (apos < 0) return word.length === 1;
  const base = word.slice(0, apos);
  const suffix = word.slice(apos + 1);
  return STOPWORDS.has(base) || /^(t|re|ve|ll|d|m)$/.test(suffix) || base.length <= 1;
}

/** The stem a word token contributes (possessive stripped, alias of glued abbreviations applied); null for stopwords. */
export function tokenStem(t: Token): string | null {
  if (t.kind === "num") return t.value;
  if (t.kind !== "word") return null;
  if (t.glued) {
    const alias = GLUED_ALIASES[t.value] ?? NOUN_ALIASES[t.value];
    if (alias) return stemWord(alias);
    if (t.value === "pm" || t.value === "am" || /^(st|nd|rd|th|h)$/.test(t.value)) return null;
    return t.value;
  }
  const word = t.value.replace(/'s$/, "");
  if (isStopToken(word)) return null;
  return stemWord(NOUN_ALIASES[word] ?? word);
}

/** Every stem a token sequence contributes (glued raw forms and hyphen-joined forms included). */
function stemsOf(tokens: Token[], text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "sym") {
      if (t.value === "%") out.push("percent");
      continue;
    }
    // "teaching assistant" is a TA, not someone who teaches the course
    if (t.kind === "word" && t.value === "teaching" && /^assistants?$/.test(tokens[i + 1]?.value ?? "")) {
      out.push("ta");
      i++;
      continue;
    }
    // "hand in", "turn it in": submitting
    if (t.kind === "word" && /^(hand|hands|handed|handing|turn|turns|turned|turning)$/.test(t.value)) {
      const n1 = tokens[i + 1];
      const n2 = tokens[i + 2];
      const skip = n1?.kind === "word" && n1.value === "in" ? 1 : n1?.kind === "word" && /^(it|them|this|that|these|those|everything)$/.test(n1.value) && n2?.kind === "word" && n2.value === "in" ? 2 : 0;
      if (skip) {
        out.push(stemWord("submit"));
        i += skip;
        continue;
      }
    }
    // "the last day to drop": a deadline
    if (t.kind === "word" && /^(last|final)$/.test(t.value) && /^(day|date)$/.test(tokens[i + 1]?.value ?? "") && /^(to|for)$/.test(tokens[i + 2]?.value ?? "")) {
      out.push(stemWord("deadline"));
      i++;
      continue;
    }
    const s = tokenStem(t);
    if (s !== null) out.push(s);
    if (t.joined && !isStopToken(t.joined)) out.push(stemWord(t.joined));
    // The glued form as written ("hw1", "cs101"): the search index has it as one token.
    if (t.kind === "word" && t.glued && i + 1 < tokens.length && tokens[i + 1].glued && tokens[i + 1].start === t.end) {
      out.push(text.slice(t.start, tokens[i + 1].end).toLowerCase());
    }
  }
  return out;
}

/**
 * Content terms of a text: lowercase stems, stopwords removed, numbers kept, de-duplicated in
 * order of first appearance. Used for retrieval (each term is a quoted FTS5 string) and matching.
 */
export function contentTerms(text: string): string[] {
  return [...new Set(stemsOf(tokenize(text), text))];
}

// ─── Identifiers ────────────────────────────────────────────────────────────────────────────

/** One identifier mention in a text: "Assignment 4", "HW1", "weeks 3-5", "the second quiz". */
export interface IdMention {
  noun: string;
  /** Another noun of the same phrase ("midterm" in "midterm exam 2"): a mention of either names the same thing. */
  alt: string[];
  ids: string[];
  /** How the ids were written: one id, a range ("3-5": any of them satisfies), or a list ("3 and 4": each is its own fact). */
  form: "single" | "range" | "list";
  /** Offsets of the whole mention in the text. */
  start: number;
  end: number;
  /** Offsets of the id tokens (so numbers that are identifiers are not read as quantities). */
  idSpans: Array<[number, number]>;
  /** The noun as written. */
  surface: string;
}

function idValue(t: Token | undefined, noun: string): string | null {
  if (!t) return null;
  if (t.kind === "num") return /^\d{1,4}(\.\d+)?$/.test(t.value) ? t.value : null;
  if (t.kind !== "word") return null;
  if (t.value in NUMBER_WORDS) return String(NUMBER_WORDS[t.value]);
  if (t.value in ROMAN) return String(ROMAN[t.value]);
  if (t.value.length === 1 && /[a-h]/.test(t.value) && LETTER_ID_NOUNS.has(noun)) return t.value;
  return null;
}

function isNounToken(t: Token): boolean {
  if (t.kind !== "word") return false;
  if (t.glued) return true;
  const w = t.value.replace(/'s$/, "");
  if (w.length < 2 || isStopToken(w) || /'/.test(w)) return false;
  if (MONTH_WORDS.has(w) || WEEKDAY_WORDS.has(w) || NON_ID_NOUNS.has(w) || /^(per|percent|x|th|st|nd|rd|h|hr|hrs|mins?|pts?|o'clock|oclock)$/.test(w)) return false;
  return /^\p{L}+$/u.test(w);
}

function canonicalNoun(tokens: Token[], i: number): string {
  const t = tokens[i];
  const word = t.joined ?? t.value.replace(/'s$/, "");
  const alias = t.glued ? (GLUED_ALIASES[word] ?? NOUN_ALIASES[word]) : NOUN_ALIASES[word];
  const s = stemWord(alias ?? word);
  // "problem set 3" is a pset
  if (s === "set" && i > 0 && tokens[i - 1].value === "problem") return "pset";
  return s;
}

const isUnitAfter = (t: Token | undefined) => !!t && ((t.kind === "sym" && t.value === "%") || (t.kind === "word" && (UNIT_WORDS.has(t.value) || UNIT_WORDS.has(stemWord(t.value)))));

/** Identifier mentions of a text, in order. */
export function idMentions(text: string, tokens: Token[] = tokenize(text)): IdMention[] {
  const out: IdMention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // Ordinal before a noun: "the second assignment", "2nd quiz" (one adjective may sit between).
    const ord = t.kind === "ord" ? t.value : t.kind === "word" && t.value in ORDINAL_WORDS ? String(ORDINAL_WORDS[t.value]) : null;
    if (ord !== null) {
      const n1 = tokens[i + 1];
      const n2 = tokens[i + 2];
      if (n1 && isNounToken(n1)) {
        // "the second programming assignment": the head is the second noun unless the first is an identifier noun
        const head = n2 && isNounToken(n2) && !ID_NOUNS.has(canonicalNoun(tokens, i + 1)) ? i + 2 : i + 1;
        const h = tokens[head];
        out.push({ noun: canonicalNoun(tokens, head), alt: head === i + 2 ? [canonicalNoun(tokens, i + 1)] : [], ids: [ord], form: "single", start: t.start, end: h.end, idSpans: [[t.start, t.end]], surface: h.value });
      }
      continue;
    }
    if (!isNounToken(t)) continue;
    let j = i + 1;
    const skip = tokens[j];
    if (skip && ((skip.kind === "sym" && skip.value === "#") || (skip.kind === "word" && /^(no|nr|number|num)$/.test(skip.value)))) j++;
    const noun = canonicalNoun(tokens, i);
    const first = idValue(tokens[j], noun);
    if (first === null) continue;
    const idTok = tokens[j];
    // Only spaces, "#", "no." or a hyphen between a noun and its identifier: "code (≤ 10 lines)" names no code 10.
    if (!/^[\s#:.\-–]*(?:(?:no|nr|num|number)\.?)?[\s#.]*$/i.test(text.slice(t.end, idTok.start))) continue;
    // A quantity or a time, not an identifier: "10 points", "5 pm", "17:00", "9/18".
    if (idTok.kind === "num" && (isUnitAfter(tokens[j + 1]) || /^[:/]\d/.test(text.slice(idTok.end, idTok.end + 2)))) continue;
    // "section a student": an article, not an identifier
    if (idTok.kind === "word" && idTok.value === "a" && tokens[j + 1]?.kind === "word" && !isStopToken(tokens[j + 1].value)) continue;
    const ids = [first];
    const idSpans: Array<[number, number]> = [[idTok.start, idTok.end]];
    let form: IdMention["form"] = "single";
    let k = j + 1;
    let end = idTok.end;
    // Range: "3-5", "3 to 5", "3 through 5"
    const sep = tokens[k];
    if (sep && ((sep.kind === "sym" && sep.value === "-") || (sep.kind === "word" && /^(to|through|thru)$/.test(sep.value)))) {
      const last = idValue(tokens[k + 1], noun);
      if (last !== null && /^\d+$/.test(first) && /^\d+$/.test(last) && Number(last) > Number(first) && Number(last) - Number(first) <= 20) {
        for (let n = Number(first) + 1; n <= Number(last); n++) ids.push(String(n));
        idSpans.push([tokens[k + 1].start, tokens[k + 1].end]);
        form = "range";
        end = tokens[k + 1].end;
        k += 2;
      }
    }
    // List: "3 and 4", "3, 4 and 5", "3 or 4"
    if (form === "single") {
      while (k + 1 < tokens.length) {
        const c = tokens[k];
        if (!((c.kind === "sym" && (c.value === "," || c.value === "&")) || (c.kind === "word" && /^(and|or)$/.test(c.value)))) break;
        let n = k + 1;
        if (tokens[n]?.kind === "word" && /^(and|or)$/.test(tokens[n].value)) n++;
        const next = idValue(tokens[n], noun);
        if (next === null || /^\d/.test(next) !== /^\d/.test(first)) break;
        if (tokens[n].kind === "num" && isUnitAfter(tokens[n + 1])) break;
        ids.push(next);
        idSpans.push([tokens[n].start, tokens[n].end]);
        end = tokens[n].end;
        form = "list";
        k = n + 1;
      }
    }
    // "midterm exam 2", "programming assignment 3": the word before the noun may be the name used elsewhere
    const prev = tokens[i - 1];
    const alt = prev && isNounToken(prev) && !prev.glued && /^\s+$/.test(text.slice(prev.end, t.start)) && ID_NOUNS.has(canonicalNoun(tokens, i - 1)) ? [canonicalNoun(tokens, i - 1)] : [];
    out.push({ noun, alt, ids: [...new Set(ids)], form, start: t.start, end, idSpans, surface: t.value });
  }
  return out;
}

// ─── Analysis of a text span (shared with the generator) ────────────────────────────────────

export interface Analysis {
  tokens: Token[];
  stems: Set<string>;
  ids: IdMention[];
}

export function analyze(text: string): Analysis {
  const tokens = tokenize(text);
  return { tokens, stems: new Set(stemsOf(tokens, text)), ids: idMentions(text, tokens) };
}

// ─── Answer types ───────────────────────────────────────────────────────────────────────────

const WH = new Set(["what", "when", "who", "whom", "whose", "where", "why", "how", "which"]);
const AUX = new Set(["is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "should", "shall", "may", "might", "must", "has", "have", "had"]);
/** After an auxiliary, a word that makes it a question ("and is it", "and do we"). */
const AFTER_AUX = new Set(["it", "there", "the", "a", "an", "we", "i", "you", "they", "this", "that", "these", "those", "my", "our", "your", "their", "he", "she", "late", "any", "attendance", "participation"]);
const IMPERATIVES = new Set(["tell", "explain", "list", "give", "describe", "define", "summarize", "summarise", "show", "find", "name", "compare", "clarify", "remind"]);

const expandContractions = (s: string) =>
  s
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/\b(what|when|where|who|how|that|it|there)'s\b/g, "$1 is")
    .replace(/\b(what|when|where|who|how)'re\b/g, "$1 are");

/** Answer-type nouns that can also be part of a technical term ("the Hamming weight model", "weight decay"). */
const NAMED_TYPE_RE = /\b(weights?|worth|penalty|penalties|credits?|marks?|costs?|price|fees?|percentages?|dates?|time|deadlines?|numbers?|amounts?|terms?|names?)\b/gi;
/** Heads of technical compounds: a type word before one of these names a concept, not the kind of answer. */
const COMPOUND_HEAD_RE = /^[\s-]+(models?|functions?|matri(?:x|ces)|vectors?|decay|layers?|sharing|initiali[sz]ation|updates?|distributions?|series|complexity|attacks?|leakage|domain|slots?|steps?)\b/i;

/**
 * Type words of a question that are part of the name of a concept rather than a request for a
 * kind of answer: the modifier of a technical compound ("the Hamming weight model", "weight
 * decay", "time series"). Their offsets.
 */
function namedTypeWords(ask: string): Array<{ start: number; end: number; word: string }> {
  const out: Array<{ start: number; end: number; word: string }> = [];
  for (const m of ask.matchAll(NAMED_TYPE_RE)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (COMPOUND_HEAD_RE.test(ask.slice(end))) out.push({ start, end, word: m[0].toLowerCase() });
  }
  return out;
}

/** The kind of answer a part asks for, from its wording. */
export function answerTypeOf(ask: string): AnswerType {
  // "the Hamming weight model" asks what a model is, not for a weight
  let named = ask;
  for (const w of namedTypeWords(ask).reverse()) named = named.slice(0, w.start) + "concept" + named.slice(w.end);
  const t = expandContractions(named)
    .replace(/^[\s,;:]*((and|or|but|so|then|also|plus)\b[\s,]*)+/, "")
    .trim();
  // The leading interrogative decides first.
  if (/^(who|whom|whose)\b/.test(t) || /^(which|what) (instructor|professor|lecturer|teacher|ta|tutor|person|staff)\b/.test(t)) return "person";
  if (/^when\b/.test(t) || /^by when\b/.test(t) || /^(what|which) (date|day|days|time|week|month|year|deadline)\b/.test(t) || /^(until|till) when\b/.test(t)) return "date";
  if (/^where\b/.test(t) || /^(what|which) (room|building|location|place|venue|platform|website|site)\b/.test(t)) return "place";
  if (/^how (much|many|long|often|far|big|large)\b/.test(t) || /^(what|which) (percentage|percent|proportion|fraction|share|portion|number|amount)\b/.test(t)) return "number";
  // Then cue words anywhere.
  if (/\b(due|deadlines?|due dates?|dates?)\b/.test(t) || /\b(last|final) (day|date) (to|for)\b/.test(t)) return "date";
  // Quantities asked for by name: "what is the late penalty" wants "10% per day", not a definition.
  if (/\b(worth|weights?|weighted|weighting|percentages?|percent|penalty|penalties|deductions?|fees?|costs?|price|credits?|marks?)\b/.test(t)) return "number";
  if (/\b(who)\b/.test(t)) return "person";
  if (/^(what|which) (is|are|was|were)\b.*\babout$/.test(t)) return "general";
  // "what are we covering in week 6": a pronoun as the subject asks what happens, not what something is
  if (/^(what|which) (is|are|was|were|will) (we|you|i|they|he|she)\b/.test(t)) return "general";
  // "what is the instructor's email", "what are the office hours": a detail to look up, not a term to define
  if (/\b(e-?mail|phone|telephone|website|web site|url|link|address|office hours?|name)\b/.test(t)) return "general";
  if (/^(what|which) (is|are|was|were)\b/.test(t) || /^(define|definition)\b/.test(t) || /\b(meaning of|definition of|what is meant by|stand for|stands for)\b/.test(t) || /^what (does|do) .+ mean\b/.test(t)) return "definition";
  return "general";
}

// ─── Splitting a question into its requested parts ──────────────────────────────────────────

interface Segment {
  text: string;
  question: boolean;
}

const ABBREV_BEFORE_DOT = /\b(dr|prof|mr|mrs|ms|mx|st|sept?|oct|nov|dec|jan|feb|mar|apr|jun|jul|aug|no|vs|etc|e\.g|i\.e|approx|ch|sec|fig|eq|p|pp|[a-z])$/i;

/** Hard boundaries: ?, !, ;, line breaks and sentence-final periods. */
function hardSegments(question: string): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  const push = (to: number, endChar: string) => {
    const text = question.slice(from, to);
    if (/[\p{L}\p{N}]/u.test(text)) out.push({ text, question: endChar === "?" });
    from = to + 1;
  };
  for (let i = 0; i < question.length; i++) {
    const c = question[i];
    if (c === "?" || c === "!" || c === ";" || c === "\n") push(i, c);
    else if (c === "." && /\s/.test(question[i + 1] ?? " ")) {
      const before = question.slice(Math.max(from, i - 6), i);
      const nextWord = question.slice(i + 1).match(/^\s*([\p{L}'’]+)/u)?.[1] ?? "";
      const title = /\b(dr|prof|mr|mrs|ms|mx|st)$/i.test(before);
      if (!title && (isQuestionStart(nextWord) || (!ABBREV_BEFORE_DOT.test(before) && !/\d$/.test(before)))) push(i, c);
    }
  }
  push(question.length, "");
  return out;
}

interface WordAt {
  w: string;
  start: number;
  end: number;
}
const CONNECTORS = new Set(["and", "or", "also", "plus", "but", "then", "so", ","]);

/** Soft boundaries inside a segment: a connector followed by a new interrogative clause. */
function softSplit(segment: string): string[] {
  const words: WordAt[] = [...segment.matchAll(/[\p{L}\p{N}'’]+|,/gu)].map((m) => ({ w: expandContractions(m[0]).split(" ")[0], start: m.index!, end: m.index! + m[0].length }));
  const cuts: number[] = [];
  /** Cut index → the bare interrogative before it and where the clause it shares starts. */
  const shared = new Map<number, { wh: string; clause: number }>();
  let lastCut = 0;
  for (let i = 0; i < words.length; i++) {
    if (!CONNECTORS.has(words[i].w)) continue;
    let n = i;
    while (n < words.length && CONNECTORS.has(words[n].w)) n++;
    const next = words[n];
    if (!next) break;
    const run = words.slice(i, n).map((x) => x.w);
    const hasWordConnector = run.some((w) => w !== ",");
    const after = words[n + 1]?.w;
    let split = false;
    if (WH.has(next.w)) {
      if (hasWordConnector) split = true;
      // a bare comma: only "..., when is it due", not "..., when I submit late"
      else split = !!after && (AUX.has(after) || /^(much|many|long|often|far|about)$/.test(after) || (next.w === "what" || next.w === "which" ? !AFTER_AUX.has(after) : false));
      if (next.w === "how" && after === "about") split = true;
    } else if (AUX.has(next.w) && hasWordConnector) {
      split = !!after && AFTER_AUX.has(after);
    } else if (IMPERATIVES.has(next.w) && hasWordConnector && i > 0) {
      split = true;
    }
    // Never leave an empty left side ("And when…" at the start).
    const left = words.slice(lastCut, i).filter((x) => x.w !== ",");
    if (split && left.length > 0) {
      // "where and when does the class meet": a bare interrogative shares the clause of the one it is joined to.
      if (left.length === 1 && WH.has(left[0].w) && WH.has(next.w) && after) {
        shared.set(cuts.length, { wh: segment.slice(left[0].start, left[0].end), clause: words[n + 1].start });
      }
      cuts.push(words[i].start);
      lastCut = n;
    }
    i = n - 1;
  }
  const pieces: string[] = [];
  let from = 0;
  cuts.forEach((c, k) => {
    const bare = shared.get(k);
    pieces.push(bare ? `${bare.wh} ${segment.slice(bare.clause, cuts[k + 1] ?? segment.length)}` : segment.slice(from, c));
    from = c;
  });
  pieces.push(segment.slice(from));
  return pieces;
}

const cleanAsk = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:.\-–—]*((and|or|also|plus|but|then|so)\b[\s,]*)*/i, "")
    .replace(/[\s?!.,;:]+$/, "")
    .trim();

const ANAPHORA = /\b(it|its|they|them|their|this|that|these|those|same|one)\b/i;
const FOLLOW_UP_START = /^(and|also|plus|what about|how about|and what about|and how about|same for|what if)\b/i;

/** Words of a part that name its subject: content stems minus type, generic and identifier-number words. */
function subjectOf(ask: string, a: Analysis): string[] {
  const idNums = new Set(a.ids.flatMap((m) => m.ids));
  // "what day/time/percentage…": the noun after the interrogative is the answer type, not the subject
  const typeNoun = expandContractions(ask).match(/^(?:(?:and|or|also|but|so)\s+)*(?:what|which)\s+(\p{L}+)/u)?.[1];
  const typeStem = typeNoun && (/^(date|day|days|time|week|month|year|percentage|percent|proportion|fraction|share|portion|number|amount|room|building|location|place|venue)$/.test(typeNoun) ? stemWord(typeNoun) : null);
  const howWord = expandContractions(ask).match(/\bhow (long|often|far|soon|late|early)\b/)?.[1];
  const named = new Set(namedTypeWords(ask).map((w) => stemWord(w.word)));
  return [...a.stems].filter((s) => {
    if (s === howWord) return false;
    if (named.has(s)) return true;
    if (/^\d+(\.\d+)?$/.test(s)) return !idNums.has(s);
    if (/\d/.test(s)) return false; // glued forms as written ("hw1"): the identifier covers them
    return !TYPE_WORDS.has(s) && !GENERIC_WORDS.has(s) && s !== typeStem;
  });
}

const isQuestionStart = (text: string) => {
  const first = expandContractions(cleanAsk(text)).split(/\s+/)[0] ?? "";
  return WH.has(first) || AUX.has(first) || IMPERATIVES.has(first);
};

/**
 * The requested parts of a question, in order. Splits on "?", ";" and line breaks, and on
 * "and"/"," only where a new interrogative clause starts ("…, and when is it due"), never inside
 * a noun phrase ("grading weights and late policy"). Statements around the question ("I'm in
 * Section B.") add their terms to every part. An elliptical part ("when is it due", "what about
 * assignment 5") takes the subject, identifiers (and for "what about", the answer type) of its
 * neighbour. Lists of identifiers ("assignments 3 and 4") become one part per identifier.
 * Always at least one part for a question with any letters or digits.
 */
export function splitQuestion(question: string): RequestedPart[] {
  const q = question.normalize("NFC");
  const segments = hardSegments(q);
  if (segments.length === 0) return [];
  const anyQuestion = segments.some((s) => s.question || isQuestionStart(s.text));
  const asks: string[] = [];
  const context: string[] = [];
  for (const seg of segments) {
    if (anyQuestion && !seg.question && !isQuestionStart(seg.text)) {
      context.push(seg.text);
      continue;
    }
    for (const piece of softSplit(seg.text)) {
      const ask = cleanAsk(piece);
      if (/[\p{L}\p{N}]/u.test(ask)) asks.push(ask);
    }
  }
  if (asks.length === 0) asks.push(...context.splice(0).map(cleanAsk).filter(Boolean));
  const contextTerms = context.flatMap((c) => contentTerms(c));

  interface Draft {
    ask: string;
    type: AnswerType;
    own: Analysis;
    terms: string[];
    subject: string[];
    required: RequiredId[];
    elliptical: boolean;
    followUp: boolean;
  }
  const drafts: Draft[] = asks.map((ask) => {
    const own = analyze(ask);
    const subject = subjectOf(ask, own);
    const required: RequiredId[] = own.ids.filter((m) => m.form !== "list").map((m) => ({ noun: m.noun, ids: m.ids, ...(m.alt.length ? { alt: m.alt } : {}) }));
    const lists = own.ids.filter((m) => m.form === "list");
    const hasAnaphora = ANAPHORA.test(ask.replace(/\bwhich one\b/i, ""));
    const nonIdSubject = subject.filter((s) => !own.ids.some((m) => m.noun === s));
    return {
      ask,
      type: answerTypeOf(ask),
      own,
      // "how long/often/far …" names the kind of answer, not a word the answer contains
      terms: [...own.stems].filter((t) => t !== expandContractions(ask).match(/\bhow (long|often|far|soon)\b/)?.[1]),
      subject,
      required: [...required, ...lists.map((m) => ({ noun: m.noun, ids: m.ids, ...(m.alt.length ? { alt: m.alt } : {}) }))],
      elliptical: subject.length === 0 || (hasAnaphora && nonIdSubject.length === 0 && own.ids.length === 0),
      followUp: FOLLOW_UP_START.test(ask) && !isQuestionStart(ask.replace(FOLLOW_UP_START, "").trim() || "x") && !/^(and|also|plus)\s+(what|when|who|where|how|which|why)\b/i.test(ask),
    };
  });

  // Ellipsis: borrow subject and identifiers from the nearest part before (or after) that has them.
  drafts.forEach((d, i) => {
    const donor = [...drafts.slice(0, i)].reverse().find((o) => !o.elliptical) ?? drafts.slice(i + 1).find((o) => !o.elliptical);
    if (!donor) return;
    if (d.elliptical) {
      d.subject = [...new Set([...d.subject, ...donor.subject])];
      d.required = d.required.length ? d.required : donor.required.map((r) => ({ ...r }));
      d.terms = [...new Set([...d.terms, ...donor.subject, ...donor.required.flatMap((r) => [r.noun, ...r.ids])])];
    } else if (d.followUp && i > 0) {
      // "what about assignment 5": the answer type and the type words of the previous part
      if (d.type === "general" || d.type === "definition") d.type = donor.type;
      const donorTypeWords = donor.terms.filter((t) => !donor.subject.includes(t) && !donor.required.some((r) => r.noun === t || r.ids.includes(t)));
      d.terms = [...new Set([...d.terms, ...donorTypeWords])];
    }
    // "that assignment": the identifier of the part it refers to
    if (!d.elliptical && d.required.length === 0 && ANAPHORA.test(d.ask)) {
      const inherited = donor.required.filter((r) => d.subject.includes(r.noun));
      if (inherited.length) {
        d.required = inherited.map((r) => ({ ...r }));
        d.terms = [...new Set([...d.terms, ...inherited.flatMap((r) => r.ids)])];
      }
    }
  });

  const parts: RequestedPart[] = [];
  const around = contextTerms.length ? { context: [...new Set(contextTerms)] } : {};
  for (const d of drafts) {
    const terms = d.terms;
    const list = d.own.ids.find((m) => m.form === "list");
    if (list) {
      // One part per listed identifier: each deadline is its own fact.
      const label = list.surface.replace(/(?<=[a-z]{3})s$/i, "");
      for (const id of list.ids) {
        parts.push({
          ask: `${d.ask} (${label} ${id})`,
          answerType: d.type,
          terms: terms.filter((t) => !list.ids.includes(t) || t === id),
          subject: d.subject,
          required: d.required.map((r) => (r.noun === list.noun && r.ids.join() === list.ids.join() ? { noun: r.noun, ids: [id] } : r)),
          ...around,
        });
      }
      continue;
    }
    parts.push({ ask: d.ask, answerType: d.type, terms, subject: d.subject, required: d.required, ...around });
  }
  return parts;
}

/**
 * The coordinated subjects of a part ("the grading weights and late policy" → [["grade"], ["late"]];
 * "the midterm and final exams" → [["midterm"], ["final", "exam"]]), each with the part's
 * shared subject terms added; null when the part names one thing. Lists of identifiers
 * ("assignments 3 and 4") and comparisons ("difference between stacks and queues") are not split.
 */
export function coordinatedSubjects(part: RequestedPart): Array<{ text: string; subject: string[]; terms: string[] }> | null {
  // "how do X and Y relate" asks about both at once; "the difference between X and Y" can be answered thing by thing
  if (/\b(compare|comparison|versus|vs|both|relationship|relate|related|together|interact)\b/i.test(part.ask)) return null;
  const tokens = tokenize(part.ask);
  const subject = new Set(part.subject);
  const isContent = (t: Token) => (t.kind === "word" && !isStopToken(t.value.replace(/'s$/, "")) && !WH.has(t.value) && !AUX.has(t.value)) || t.kind === "num";
  const isSep = (t: Token) => (t.kind === "sym" && (t.value === "," || t.value === "&")) || (t.kind === "word" && t.value === "and");
  const runs: Token[][] = [];
  let current: Token[] = [];
  let chain: Token[][] = [];
  const flush = () => {
    if (chain.length >= 2 && current.length === 0) runs.push(...chain, []);
    chain = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isContent(t)) {
      current.push(t);
      continue;
    }
    // a determiner opening a conjunct ("…, the regrade policy") keeps the chain going
    if (current.length === 0 && chain.length && t.kind === "word" && /^(the|a|an|my|our|your|their|its)$/.test(t.value)) continue;
    if (isSep(t) && current.length) {
      chain.push(current);
      current = [];
      // "…, and" counts as one separator
      while (i + 1 < tokens.length && isSep(tokens[i + 1])) i++;
      continue;
    }
    if (current.length && chain.length) {
      chain.push(current);
      current = [];
      flush();
    } else {
      current = [];
      chain = [];
    }
  }
  if (current.length && chain.length) {
    chain.push(current);
    current = [];
    flush();
  }
  // Take the first coordination with at least two conjuncts that each name a subject term.
  const groups: string[][] = [];
  const texts: string[] = [];
  const all: string[][] = [];
  for (const run of runs) {
    if (run.length === 0) {
      if (groups.length >= 2) break;
      groups.length = 0;
      texts.length = 0;
      all.length = 0;
      continue;
    }
    if (run[0].kind === "num") {
      groups.length = 0;
      texts.length = 0;
      all.length = 0;
      continue;
    }
    const runTerms = [...new Set(stemsOf(run, part.ask))];
    const terms = runTerms.filter((x) => subject.has(x));
    if (terms.length === 0) continue;
    groups.push(terms);
    all.push(runTerms);
    texts.push(part.ask.slice(run[0].start, run[run.length - 1].end));
  }
  if (groups.length < 2) return null;
  const inGroups = new Set(groups.flat());
  const shared = part.subject.filter((x) => !inGroups.has(x));
  return groups.map((g, i) => ({ text: texts[i], subject: [...new Set([...g, ...shared])], terms: all[i] }));
}

// ─── Follow-ups ─────────────────────────────────────────────────────────────────────────────

const PRONOUN_RE = /\b(it|its|they|them|their|this|that|these|those|he|him|his|she|her|hers)\b/gi;
/** Pronouns that stand for a person ("what are his office hours?" after "who teaches the course?"). */
const PERSONAL_RE = /^(he|him|his|she|her|hers)$/i;
/** Demonstratives that can open a noun phrase of their own ("this course"): not anaphoric before a noun. */
const DEMONSTRATIVE_RE = /^(this|that|these|those)$/i;

/** A word of a question that can be part of its subject phrase (stopwords and question words are not). */
const isPhraseWord = (w: string) => {
  const lw = w.toLowerCase();
  if (/^\d/.test(lw) || /^#/.test(lw)) return true;
  return !isStopToken(lw.replace(/'s$/, ""));
};

/**
 * The subject phrase of a question as written: "Assignment 4", "the late penalty", "the final
 * exam", "the Hamming weight model". The run of content words that names the most subject
 * words, with answer-type and generic words trimmed from its ends only ("the final project
 * worth" → "the final project", but "Hamming weight model" stays whole).
 */
function subjectPhrase(question: string): { phrase: string; tail: string } | null {
  const tokens = [...question.matchAll(/[\p{L}\p{N}'’#-]+/gu)];
  // a type word inside a technical term is part of it ("weight" in "the weight update rule")
  const named = new Set(namedTypeWords(question).map((w) => w.start));
  const isSubjectWord = (k: number) => {
    const lw = tokens[k][0].toLowerCase();
    if (/^\d/.test(lw) || /^#/.test(lw)) return true;
    if (isStopToken(lw.replace(/'s$/, ""))) return false;
    if (named.has(tokens[k].index!)) return true;
    const s = stemWord(lw);
    return !TYPE_WORDS.has(s) && !GENERIC_WORDS.has(s);
  };
  let best: { start: number; end: number; runEnd: number; n: number } | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (!isPhraseWord(tokens[i][0])) continue;
    let j = i;
    while (j + 1 < tokens.length && isPhraseWord(tokens[j + 1][0]) && question.slice(tokens[j].index! + tokens[j][0].length, tokens[j + 1].index!).trim() === "") j++;
    // trim: the phrase starts at a subject word (not a number) and ends at a subject word or an identifier
    let a = i;
    let b = j;
    // (a type word before subject words modifies them: "the term project", "the weight update rule")
    const isType = (k: number) => TYPE_WORDS.has(stemWord(tokens[k][0].toLowerCase()));
    while (a <= b && ((!isSubjectWord(a) && !isType(a)) || /^\d/.test(tokens[a][0]))) a++;
    while (b >= a && !isSubjectWord(b)) b--;
    if (a <= b) {
      let n = 0;
      for (let k = a; k <= b; k++) if (isSubjectWord(k) && !/^\d/.test(tokens[k][0])) n++;
      if (n > 0 && (!best || n > best.n)) best = { start: tokens[a].index!, end: tokens[b].index! + tokens[b][0].length, runEnd: tokens[j].index! + tokens[j][0].length, n };
    }
    i = j;
  }
  if (!best) return null;
  // Keep a determiner right before it ("the final exam").
  const before = question.slice(0, best.start).match(/\b(the|my|our|this|that)\s+$/i);
  return { phrase: (before ? question.slice(best.start - before[0].length, best.start) : "") + question.slice(best.start, best.end), tail: question.slice(best.end, best.runEnd) };
}

const ROLE_WORD_RE = /\b(instructors?|professors?|lecturers?|teachers?|tutors?|TAs?|teaching assistants?|coordinators?|conven[eo]rs?|graders?|readers?|advisors?|advisers?|supervisors?|chairs?)\b/i;
const TITLED_NAME_RE = /\b(?:Prof(?:essor)?\.?|Dr\.?|Mr\.?|Mrs\.?|Ms\.?|Mx\.?)\s+\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?/u;

/** Whom a personal pronoun of a follow-up stands for: the person the previous question named or asked about ("who teaches …" → "the instructor"). */
function personReferent(prev: string): string | null {
  const named = prev.match(TITLED_NAME_RE);
  if (named) return named[0];
  const role = prev.match(ROLE_WORD_RE);
  if (role) {
    const det = prev.slice(0, role.index!).match(/\b(the|my|our|your)\s+$/i);
    return `${det ? det[1] : "the"} ${role[0]}`;
  }
  if (answerTypeOf(prev) === "person" && /\b(teach|teaches|taught|teaching|lectures?|instructs?|runs?)\b/i.test(prev)) return "the instructor";
  return null;
}

/** Does the text lean on a pronoun with nothing to resolve it ("when is it due", but not "this course")? */
export function hasUnresolvedPronoun(text: string): boolean {
  for (const m of text.matchAll(PRONOUN_RE)) {
    const after = text.slice(m.index! + m[0].length).match(/^\s+([\p{L}]+)/u)?.[1]?.toLowerCase();
    if (!(/^(this|that|these|those|their|its)$/i.test(m[0]) && nounLike(after))) return true;
  }
  return false;
}

/** A word that can follow a determiner as its noun ("this course"), not "that due" or "it is". */
const nounLike = (w: string | undefined) => !!w && !isStopToken(w) && !AUX.has(w) && !TYPE_WORDS.has(stemWord(w)) && !/^(cover|covered|mean|about|due|worth)$/.test(w);

/** Does a question lean on an earlier turn? Short, anaphoric, or starting with "and"/"what about". */
export function looksLikeFollowUp(question: string): boolean {
  const q = question.trim();
  if (!q) return false;
  if (FOLLOW_UP_START.test(q)) return true;
  const a = analyze(q);
  const subject = subjectOf(q, a);
  // nothing but answer-type words ("when is it due?", "why?")
  if ([...a.stems].every((t) => TYPE_WORDS.has(t)) && a.ids.length === 0) return true;
  // "can it get stuck…", "how does it work": a pronoun as the subject of the question's own verb
  if (/^(?:(?:what|when|where|why|how|which)\s+)?(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|may|might|must|has|have)\s+(?:it|they)\b/i.test(expandContractions(cleanAsk(q)))) return true;
  // an anaphoric pronoun that is not a determiner of a noun ("it", "that one", but not "this course")
  for (const m of q.matchAll(PRONOUN_RE)) {
    const after = q.slice(m.index! + m[0].length).match(/^\s+([\p{L}]+)/u)?.[1]?.toLowerCase();
    // "his office hours": a person of an earlier turn, whatever else the question names (unless it names one itself: "who is the TA and what is her email")
    if (PERSONAL_RE.test(m[0])) {
      const before = q.slice(0, m.index!);
      if (!ROLE_WORD_RE.test(before) && !TITLED_NAME_RE.test(before)) return true;
      continue;
    }
    const isDeterminer = /^(this|that|these|those|their|its)$/i.test(m[0]) && nounLike(after);
    if (!isDeterminer && subject.length <= 2) return true;
  }
  return false;
}

/**
 * The extractive standalone question: a follow-up ("when is it due?", "what about assignment 5?",
 * "and the late penalty?") rewritten with the previous turn's subject; anything else unchanged.
 * `history` is the earlier questions of the conversation, oldest first; earlier follow-ups are
 * resolved first, so a chain of follow-ups keeps its subject. Deterministic, no model.
 */
export function standaloneFollowUp(question: string, history: string[]): string {
  const q = question.trim();
  if (!q || history.length === 0 || !looksLikeFollowUp(q)) return question;
  // The previous turn, itself made standalone (bounded depth).
  const prevIndex = history.map((h) => h.trim()).findLastIndex((h) => contentTerms(h).length > 0);
  if (prevIndex < 0) return question;
  const prior = history.slice(Math.max(0, prevIndex - 4), prevIndex);
  const prev = cleanAsk(prior.length ? standaloneFollowUp(history[prevIndex], prior) : history[prevIndex]);
  if (!prev) return question;

  const core = cleanAsk(q.replace(FOLLOW_UP_START, "").trim() || q);
  const ownIds = idMentions(q);
  const prevIds = idMentions(prev);
  const ownSubject = subjectOf(q, analyze(q));

  // "what about assignment 5?" → the previous question with its identifier or subject replaced
  if (FOLLOW_UP_START.test(q) && !isQuestionStart(core)) {
    const sameNoun = ownIds.length === 1 && prevIds.find((m) => m.noun === ownIds[0].noun);
    if (sameNoun) {
      const start = sameNoun.idSpans[0][0];
      const end = sameNoun.idSpans[sameNoun.idSpans.length - 1][1];
      return `${prev.slice(0, start)}${ownIds[0].ids[0]}${prev.slice(end)}?`;
    }
    const found = subjectPhrase(prev);
    // the generic words after the phrase go too when the new subject repeats them ("the weight update rule" → "the gradient descent update rule")
    const tailWords = found?.tail.trim().toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const coreWords = core.toLowerCase().split(/\s+/);
    const phrase = found ? found.phrase + (tailWords.length && tailWords.every((w) => coreWords.includes(w)) ? found.tail : "") : null;
    // "when is A2 due?" → "what about the late penalty?": a deliverable's frame does not fit a policy
    const deliverableFrame = /\b(due|worth|weigh|weighted|weighting|submit|submitted|handed in)\b/i.test(prev);
    const coreIsDeliverable = contentTerms(core).some(isDeliverableNoun) || ownIds.some((m) => isDeliverableNoun(m.noun));
    if (deliverableFrame && !coreIsDeliverable && ownSubject.length > 0) return `What is ${core}?`;
    if (phrase && ownSubject.length > 0) {
      const at = prev.indexOf(phrase);
      return `${prev.slice(0, at)}${core}${prev.slice(at + phrase.length)}?`;
    }
    return `${prev} (${core})?`;
  }

  // "when is it due?" → the pronoun replaced by the previous subject phrase
  const phrase = subjectPhrase(prev)?.phrase ?? null;
  const person = personReferent(prev);
  const qCore = q.replace(/[\s?!.]+$/, "");
  if ((phrase || person) && ownIds.length === 0) {
    let done = false;
    const replaced = qCore.replace(/^(and|also|plus)\s+/i, "").replace(PRONOUN_RE, (m, _p, offset: number, whole: string) => {
      if (done) return m;
      const after = whole.slice(offset + m.length).match(/^\s+([\p{L}]+)/u)?.[1]?.toLowerCase();
      if (DEMONSTRATIVE_RE.test(m) && nounLike(after)) return m;
      // "his office hours" → "the instructor's office hours"
      const personal = PERSONAL_RE.test(m);
      const referent = personal ? (person ?? phrase) : phrase;
      if (!referent) return m;
      done = true;
      const possessive = /^(its|their|his|hers)$/i.test(m) || (/^her$/i.test(m) && nounLike(after));
      return possessive ? `${referent}'s` : referent;
    });
    if (done) return `${replaced}?`;
  }
  // Otherwise: the question with the previous turn's key words appended.
  const prevTerms = [phrase, ...prevIds.map((m) => prev.slice(m.start, m.end))].filter((x): x is string => !!x);
  const extra = [...new Set(prevTerms)].filter((t) => !qCore.toLowerCase().includes(t.toLowerCase()));
  if (extra.length === 0) return question;
  return `${qCore.replace(/^(and|also|plus)\s+/i, "")} (${extra.join(", ")})?`;
}
