/**
 * The extractive generator: answers by quoting the sentences of the packed passages. Faithful
 * by construction (every claim is verbatim text of a passage it cites), deterministic, offline.
 *
 * For each requested part of the question (question.ts): every sentence of every passage is
 * scored by how much of the part's subject it matches (IDF-weighted over the sentences at hand,
 * with related course words at a reduced weight), by the other words of the part, and by a cue
 * for the kind of answer wanted (a date, a number, a definition, a person, a place). Hard gates
 * come first: identifiers named in the question ("Assignment 4") must be matched, never a
 * different one; date/number parts need their predicate ("due", "worth") and a date/number.
 * A sentence may borrow its heading or the sentence before it ("Assignment 4\nDue: 2 October")
 * and then quotes it too. Two documents giving different dates/numbers for the same thing are a
 * conflict, unless exactly one side is an instructor-marked correction, which then supersedes.
 *
 * Layout is read too: the rows of a schedule table ("Week Topics" over "6 Natural Language
 * Processing") are "week 6"; the lines under a short heading that names the subject ("Textbook")
 * answer for it even when they do not repeat it; abbreviations the passages introduce ("Hamming
 * Weight (HW)") match their expansion. For "what is X", a sentence whose grammatical subject is X
 * and which defines it ("X is a …", "X (ABBR) refers to …", "X A non-linear mapping …") wins over
 * one that only mentions X.
 */
import { sentenceSpans } from "./chunk";
import {
  analyze,
  coordinatedSubjects,
  hasUnresolvedPronoun,
  isDeliverableNoun,
  isPredicateTerm,
  relatedStems,
  splitQuestion,
  stemWord,
  type Analysis,
  type IdMention,
  type RequestedPart,
  type RequiredId,
  type Token,
  tokenStem,
} from "./question";
import type { DraftClaim, DraftPart, GenerateState, LabelledPassage } from "./types";

// ─── Thresholds ─────────────────────────────────────────────────────────────────────────────
//
// These are policies, not facts: each draws a line between "answer" and "I could not find it".
// They are set by hand to sensible values and are meant to be calibrated on the golden set
// (lib/eval): sweep each one, and pick the value that keeps unsupported answers (a claim where
// the golden answer is "not in the notes", or a claim citing the wrong passage) near zero while
// losing as few supported answers as possible. Calibrate minScore and minSubjectCoverage first
// (they decide answer vs abstain), then conflictRatio and secondClaimRatio (they decide how
// many claims a part gets). Re-calibrate when the chunker, the retriever or the stemmer changes.

/** Minimum total score of a supporting sentence (subject coverage + weighted other words + weighted cue). Range 0 … ~1.5. */
export const EXTRACTIVE_MIN_SCORE = 0.6;
/** Minimum IDF-weighted share of the part's subject terms the sentence (with its heading/title) must match. 0 … 1. */
export const EXTRACTIVE_MIN_SUBJECT_COVERAGE = 0.6;
/** Weight of the answer-type cue (a date for "when", a number for "how much", "X is …" for "what is X"). */
export const EXTRACTIVE_CUE_WEIGHT = 0.3;
/** Weight of the part's non-subject words ("due", "policy", words from context sentences). */
export const EXTRACTIVE_PREDICATE_WEIGHT = 0.2;
/** A related word ("deadline" for "due", "deducted" for "penalty") counts this much of an exact match. */
export const EXTRACTIVE_RELATED_WEIGHT = 0.8;
/** A term matched only in the document title counts this much. */
export const EXTRACTIVE_TITLE_WEIGHT = 0.6;
/** A second claim (another passage) needs at least this share of the best score. */
export const EXTRACTIVE_SECOND_CLAIM_RATIO = 0.9;
/** A sentence from another document is a contender in a conflict when it reaches this share of the best score. */
export const EXTRACTIVE_CONFLICT_RATIO = 0.75;

export interface ExtractiveOptions {
  minScore: number;
  minSubjectCoverage: number;
  cueWeight: number;
  predicateWeight: number;
  relatedWeight: number;
  titleWeight: number;
  secondClaimRatio: number;
  conflictRatio: number;
  /** Claims per part at most (sides of a conflict, or distinct identifiers for an ambiguous question). */
  maxClaimsPerPart: number;
  /** How many sentences back a heading is looked for. */
  maxContextBack: number;
}

export const defaultExtractiveOptions: Readonly<ExtractiveOptions> = {
  minScore: EXTRACTIVE_MIN_SCORE,
  minSubjectCoverage: EXTRACTIVE_MIN_SUBJECT_COVERAGE,
  cueWeight: EXTRACTIVE_CUE_WEIGHT,
  predicateWeight: EXTRACTIVE_PREDICATE_WEIGHT,
  relatedWeight: EXTRACTIVE_RELATED_WEIGHT,
  titleWeight: EXTRACTIVE_TITLE_WEIGHT,
  secondClaimRatio: EXTRACTIVE_SECOND_CLAIM_RATIO,
  conflictRatio: EXTRACTIVE_CONFLICT_RATIO,
  maxClaimsPerPart: 3,
  maxContextBack: 8,
};

// ─── Sentences and their features ───────────────────────────────────────────────────────────

interface Features {
  dates: string[];
  times: string[];
  weekdays: string[];
  relative: boolean;
  monthOnly: boolean;
  percents: string[];
  points: string[];
  numbers: string[];
  numberWords: boolean;
  duration: boolean;
  person: number;
  place: number;
  /** Stems before the first definitional pattern ("X is defined as", "X refers to", "X:"), or null. */
  defPrefix: Set<string> | null;
  /** Stems before the first plain copula ("X is …"), or null. */
  copulaPrefix: Set<string> | null;
  /** Stems of the first few words. */
  lead: Set<string>;
  /** Stems of words followed by an apposition or relative clause that explains them. */
  explained: Set<string>;
  /** Noun phrases that are the grammatical subject of a clause, and what follows them (see nounPhraseForms). */
  forms: NounPhraseForm[];
}

/**
 * A noun phrase a sentence is about, by its position: "define" ("Open addressing is a …", "S-Box
 * A non-linear mapping …", "PCA (principal component analysis) refers to …"), "introduce"
 * ("The most popular algorithm is Principal Component Analysis (PCA)."), "copula" ("The HD is
 * the number of …"), "frame" ("In supervised learning, we are given …"), "verb" ("the sigmoid
 * function maps any real number …").
 */
interface NounPhraseForm {
  kind: "define" | "introduce" | "copula" | "frame" | "verb";
  stems: Set<string>;
  /** Stems that are another name of the same thing (an abbreviation and its expansion): never extra words. */
  aliases: Set<string>;
}

/** Abbreviations the passages introduce ("Hamming Weight (HW)", a glossary line "HD Hamming Distance"): key → stems of the expansion, and the abbreviation's own stems. */
type Abbreviations = Map<string, { expansion: string[]; own: string[] }>;

interface Sentence {
  passage: number;
  index: number;
  start: number;
  end: number;
  text: string;
  a: Analysis;
  /** A line of its own that names a section ("Assignment 4", "Late policy:"), usable as context below it. */
  heading: boolean;
  /** Starts with a pronoun ("It is due…"): may borrow the sentence before it. */
  anaphoric: boolean;
  /** Starts a line (or the passage). */
  lineStart: boolean;
  words: number;
  /** The stem of each token (null for stopwords and symbols), aligned with a.tokens. */
  tokenStems: Array<string | null>;
  f: Features;
  /** A row of a schedule table ("6 Natural Language Processing" under "Week Topics"): the row's identifier and the index of its header line. */
  row: { noun: string; id: string; header: number } | null;
  /** The section heading whose block this line is in (the lines under a short heading, up to a blank line or the next heading), or null. */
  block: number | null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY_MONTH_RE = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${MONTH}\\b\\.?(?:,?\\s+(\\d{4}))?`, "gi");
const MONTH_DAY_RE = new RegExp(`\\b${MONTH}\\b\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:])(?:,?\\s+(\\d{4}))?`, "gi");
const MONTH_ONLY_RE = new RegExp(`\\b${MONTH}\\b`, "gi");
const ISO_RE = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g;
const SLASH_RE = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?\b/g;
const CLOCK_RE = /\b([01]?\d|2[0-3]):([0-5]\d)(?:\s*([ap])\.?\s?m\b\.?)?/gi;
const AMPM_RE = /\b(1[0-2]|0?[1-9])\s*([ap])\.?\s?m\b\.?/gi;
const NOON_RE = /\b(noon|midday|midnight)\b/gi;
const WEEKDAY_FULL_RE = /\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b/gi;
const WEEKDAY_ABBR_RE = /\b(Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\b\.?(?!\s*[a-z])/g;
const RELATIVE_RE =
  /\b(extended|postponed|moved|delayed|pushed back|brought forward|week\s+\d+|(?:end|beginning|start|last day) of (?:the )?(?:week|term|semester|quarter|class|lecture|day|month|course)|today|tomorrow|tonight|next week|this week|finals? week|reading week|exam period|exam week|within \d+ (?:days?|hours?|weeks?))\b/i;
const DURATION_RE = /\b\d+(?:\.\d+)?\s*(?:-\s*)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|semesters?)\b|\b(?:within|for|after|in)\s+(?:a|an|one|two|three|four|five|six|seven|ten|a few|a couple of)\s+(?:minutes?|hours?|days?|weeks?|months?)\b|\b\d{1,2}(?::\d{2})?\s*[–-]\s*\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?/i;
const PHONE_RE = /(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/;
const PERCENT_RE = /(\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s?cent\b)/gi;
const POINTS_RE = /(\d+(?:\.\d+)?)\s*(?:points?|pts?\b\.?|marks?)\b/gi;
const NUM_RE = /\d+(?:\.\d+)?/g;
const NUMBER_WORD_RE = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|half|twice|double|once)\b/i;
const TITLE_NAME_RE = /\b(?:Prof(?:essor)?\.?|Dr\.?|Mr\.?|Mrs\.?|Ms\.?|Mx\.?)\s+\p{Lu}[\p{L}'’-]+/u;
const ROLE_RE = /\b(?:[Ii]nstructors?|[Ll]ecturers?|[Pp]rofessors?|[Tt]eachers?|[Tt]utors?|[Cc]oordinator|[Cc]onven[eo]r|[Tt]eaching [Aa]ssistants?|[Cc]ourse staff|TAs?|GSIs?)\b/;
const NAME_RE = /(?<=\S\s+)(\p{Lu}\p{Ll}+)\s+(\p{Lu}\p{Ll}+)/gu;
/** Capitalised words of course documents that are not names ("Course Website", "Office Hours"). */
const NOT_NAME_WORDS = new Set(
  (
    "course courses office hours hour website web site page information info syllabus department university college school faculty room hall building " +
    "class classes lecture lectures exam exams final midterm project projects assignment assignments homework grade grades grading policy policies " +
    "schedule calendar week weeks spring fall summer winter autumn term semester quarter teaching assistant assistants instructor instructors professor " +
    "contact email phone textbook textbooks reading readings required recommended academic student students learning objectives outcomes overview " +
    "description prerequisites prerequisite credit credits late attendance participation section lab labs tutorial quiz quizzes introduction chapter " +
    "part unit module science sciences engineering systems system data computer computing analysis program programming language languages " +
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december " +
    "the this that these those our your their my its and for with from note notes table figure section appendix equation lemma theorem definition " +
    "example examples exercise exercises solution solutions key keys main general important fundamentals principles topics topic"
  ).split(/\s+/),
);
/** Two capitalised words that can be a person's name ("Maya Lindqvist", not "Course Website"). */
const hasName = (text: string, atStart = false) =>
  [...text.matchAll(atStart ? NAME_ANYWHERE_RE : NAME_RE)].some((m) => !NOT_NAME_WORDS.has(m[1].toLowerCase()) && !NOT_NAME_WORDS.has(m[2].toLowerCase()));
/** A name anywhere, the start of the text included (a row of a contact table: "Nick Ulle naulle Instructor"). */
const NAME_ANYWHERE_RE = /(?<![\p{L}])(\p{Lu}\p{Ll}+)\s+(\p{Lu}\p{Ll}+)/gu;
const EMAIL_RE = /\b[\w.+-]+@[\w-]+\.[\w.-]+\b/;
const PLACE_RE =
  /\b(?:room|rm\.?|hall|building|bldg\.?|auditorium|theatre|theater|laboratory|library|gym|gymnasium|campus|centre|center|classroom|online|zoom|teams|canvas|moodle|blackboard|gradescope|brightspace|portal|website|web\s?site|in[- ]person|virtual(?:ly)?|remotely?|location|venue|floor|office)\b/i;
const ROOM_CODE_RE = /\b\p{Lu}{1,5}[- ]?\d{2,4}[A-Z]?\b/u;
const IN_PLACE_RE = /\b(?:in|at)\s+(?:the\s+)?\p{Lu}\p{L}+/u;
/** "located in the inner membrane", "takes place in the cytoplasm": where things are in the subject matter itself. */
const LOCATIVE_RE = /\b(?:located|takes? place|took place|occurs?|occurred|found|held|situated|lives?|resides?|stored|kept|posted|available)\s+(?:in|at|on|inside|within|under|via|through)\b/i;
const LOOSE_IN_RE = /\b(?:in|at|inside|within)\s+(?:the\s+|a\s+|an\s+)?\p{L}{3,}/u;
/** "fermentation, which …", "the citric acid cycle (also called …)": the word before an apposition is being explained. */
const APPOSITION_RE = /(?<!\p{L})(\p{L}+)\s*(?:,\s+(?:which|that is|i\.e\.|also called|also known as|a|an)\b|\((?!\s*(?:like|e\.g|eg|see|cf|for|such|as|including|\d)))/gu;
const URL_RE = /\bhttps?:\/\/|\bwww\./i;
const DEF_RE =
  /\b(?:is|are)\s+(?:defined\s+as|called|known\s+as|when|where|the\s+process|a|an|one|any|used\s+to)\b|\b(?:refers?\s+to|means|denotes?|is\s+defined\s+as|occurs?\s+when|happens?\s+when|consists?\s+of|represents?)\b|\s[—–-]\s|:\s/i;
const COPULA_RE = /\b(?:is|are|was|were|will\s+be)\b/i;
const ANAPHORIC_START_RE = /^(?:[•\-–*▪◦●]\s*)?(?:it|its|this|that|these|those|they|their|them|he|she|his|her|such|the same)\b/i;
const BULLET_RE = /^[•\-–*▪◦●]\s*/;
/** A sentence ending in one of these runs on into the next one ("Dr. Smith", "J. Smith"). */
const RUNS_ON_RE = /(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|St|Fig|Eq|Ch|Sec|Vol|No|vs|cf|e\.g|i\.e)|(?<![\p{L}.])\p{Lu})\.$/u;

const monthNumber = (m: string) => MONTHS.indexOf(m.slice(0, 3).toLowerCase()) + 1;
const pad = (n: number) => String(n).padStart(2, "0");
const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** A table-of-contents line ("6.1 Clustering . . . . 40") names a topic; it never answers about it. */
const DOT_LEADER_RE = /(?:\.\s?){4,}|\((?:page|p\.|pp\.)\s*\d+\)\s*$/i;

/** Sentence spans of a passage, with abbreviation splits mended, list bullets and contents lines left out. */
function answerSpans(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const s of sentenceSpans(text)) {
    const last = out[out.length - 1];
    if (last) {
      const gap = text.slice(last.end, s.start);
      const next = text.slice(s.start, s.end);
      if (!gap.includes("\n") && (RUNS_ON_RE.test(text.slice(last.start, last.end)) || /^[\p{Ll}\p{N}(]/u.test(next))) {
        last.end = s.end;
        continue;
      }
    }
    out.push({ ...s });
  }
  return out
    .map(({ start, end }) => {
      const bullet = text.slice(start, end).match(BULLET_RE);
      return { start: start + (bullet ? bullet[0].length : 0), end };
    })
    .filter(({ start, end }) => end > start && /[\p{L}\p{N}]/u.test(text.slice(start, end)) && !DOT_LEADER_RE.test(text.slice(start, end)));
}

/** Stems of the tokens that end before `end`. */
function stemsBefore(a: Analysis, end: number): Set<string> {
  const out = new Set<string>();
  for (const t of a.tokens) {
    if (t.end > end) break;
    const x = tokenStem(t);
    if (x !== null) out.add(x);
  }
  return out;
}

/** Stems before the first match of `re`, when that is near the start of the sentence. */
function prefixStems(text: string, a: Analysis, re: RegExp): Set<string> | null {
  const m = re.exec(text);
  if (!m) return null;
  const before = stemsBefore(a, m.index);
  return a.tokens.filter((t) => t.end <= m.index).length > 15 ? null : before;
}

// ─── Noun phrases: what a sentence is about ─────────────────────────────────────────────────

const DETERMINER_RE = /^(the|a|an|this|these|each|every|our|its|their)$/;
/** Verbs that, right after a noun phrase, define it. */
const DEF_VERB_WORDS = new Set(["is", "are", "refers", "refer", "means", "mean", "denotes", "denote", "describes", "describe", "represents", "represent", "stands", "stand", "consists", "consist"]);
/** After "X is/are": the start of a definition ("is a …", "is defined as …", "is the …"). */
const DEFINING_COMPLEMENT_RE = /^(?:is|are)\s+(?:defined\s+as|called|known\s+as|the|a|an|one|any|used\s+to|when|where|simply|essentially|basically)\b|^(?:refers?\s+to|means|denotes?|describes?|represents?|stands?\s+for|consists?\s+of)\b/i;
/** After a noun phrase, a modal or auxiliary verb: the phrase is the subject of the clause. */
const AUXILIARY_AFTER_RE = /^(?:can|cannot|can't|could|may|might|must|should|shall|will|would|does|do|did|has|have|had|was|were)\b/i;
/** After a phrase that ended in a verb, the start of its object ("maps any real number", "returns the …"). */
const OBJECT_START_RE = /^(?:the|a|an|any|all|every|each|its|their|this|these|those|it|them|both|no|only)\b/i;
/** A parenthesised argument or abbreviation between a term and its verb: "HW (b) is", "Principal Component Analysis (PCA) is". */
const PAREN_RE = /^\s*\([^()]{0,24}\)/;

/**
 * The noun phrase that starts at token i (after determiners): its content tokens, up to a
 * stopword, a verb of definition or punctuation (at most 7 words); hyphenated terms ("S-Box")
 * stay whole and abbreviations add what they stand for.
 */
function nounPhraseAt(text: string, tokens: Token[], stems: Array<string | null>, i: number, abbr: Abbreviations): { stems: Set<string>; aliases: Set<string>; next: number; end: number; words: number } | null {
  while (i < tokens.length && tokens[i].kind === "word" && DETERMINER_RE.test(tokens[i].value)) i++;
  const out = new Set<string>();
  const aliases = new Set<string>();
  let j = i;
  let words = 0;
  while (j < tokens.length && words < 7) {
    const t = tokens[j];
    const prev = tokens[j - 1];
    // a parenthesis ends the phrase: "Principal Component Analysis (PCA)"
    if (j > i && /[()]/.test(text.slice(prev.end, t.start))) break;
    if (t.kind === "sym") {
      // the hyphen inside "S-Box"
      if (t.value === "-" && j > i && prev.end === t.start && tokens[j + 1]?.start === t.end) {
        j++;
        continue;
      }
      break;
    }
    if (t.kind === "word") {
      if (DEF_VERB_WORDS.has(t.value)) break;
      const letterBeforeHyphen = t.value.length === 1 && tokens[j + 1]?.kind === "sym" && tokens[j + 1].value === "-" && tokens[j + 1].start === t.end;
      const st = stems[j];
      if (st === null && !letterBeforeHyphen && !t.glued) break;
      if (st !== null) out.add(st);
      if (t.joined) out.add(stemWord(t.joined));
      for (const key of [t.value, t.joined]) {
        const x = key ? abbr.get(key) : undefined;
        if (!x || !/\p{Lu}/u.test(text.slice(t.start, t.end))) continue;
        for (const e of x.expansion) out.add(e);
        for (const e of [...x.expansion, ...x.own]) aliases.add(e);
        if (st !== null) aliases.add(st);
      }
      words++;
      j++;
      continue;
    }
    if (t.kind === "num" && t.glued) {
      j++;
      continue;
    }
    break;
  }
  if (words === 0 || out.size === 0) return null;
  // "Linear Probing" names "LP" when the passages introduce it so
  for (const { expansion, own } of abbr.values()) {
    if (!expansion.every((e) => out.has(e))) continue;
    for (const o of own) out.add(o);
    for (const e of [...expansion, ...own]) aliases.add(e);
  }
  return { stems: out, aliases, next: j, end: tokens[j - 1].end, words };
}

/** Words that open an introductory phrase before the main clause ("As we see on the plot, …", "In practice, …"). */
const INTRO_WORD_RE = /^(as|in|on|for|at|by|with|when|if|once|since|because|after|before|while|although|though|here|thus|hence|therefore|however|moreover|furthermore|finally|first|second|also|note|recall|again|now|then|similarly|formally|informally|intuitively|generally|typically|usually|often|specifically|essentially|roughly|simply|put|briefly|consequently|otherwise)$/;

/** Where clauses start: the sentence start, and after an introductory phrase ending in a comma ("As we see on the plot, the sigmoid function maps …"). */
function clauseStarts(tokens: Token[]): number[] {
  const out = [0];
  if (tokens[0]?.kind !== "word" || !INTRO_WORD_RE.test(tokens[0].value)) return out;
  for (let i = 1; i < Math.min(tokens.length, 9); i++) {
    if (tokens[i].kind === "sym" && tokens[i].value === ",") {
      out.push(i + 1);
      break;
    }
  }
  return out;
}

/** The noun phrases a sentence is about and how (see NounPhraseForm). */
function nounPhraseForms(text: string, a: Analysis, stems: Array<string | null>, abbr: Abbreviations): NounPhraseForm[] {
  const tokens = a.tokens;
  const out: NounPhraseForm[] = [];
  // "In supervised learning, we …", "Under two-phase locking, a transaction …": the sentence describes the thing it opens with
  if (tokens[0]?.kind === "word" && /^(in|under|with|for|during)$/.test(tokens[0].value)) {
    const np = nounPhraseAt(text, tokens, stems, 1, abbr);
    if (np && /^\s*,/.test(text.slice(np.end))) out.push({ kind: "frame", stems: np.stems, aliases: np.aliases });
  }
  for (const i0 of clauseStarts(tokens)) {
    const np = nounPhraseAt(text, tokens, stems, i0, abbr);
    if (!np) continue;
    let rest = text.slice(np.end);
    const paren = rest.match(PAREN_RE);
    if (paren) rest = rest.slice(paren[0].length);
    rest = rest.replace(/^\s+/, "");
    if (DEFINING_COMPLEMENT_RE.test(rest) || /^:\s|^[—–-]\s/.test(rest)) out.push({ kind: "define", stems: np.stems, aliases: np.aliases });
    // a description list: "Permutations A linear mapping to provide …" (the term at the start of a line, then its description)
    else if (i0 === 0 && np.next <= 4 && /^(A|An)\s+\S/.test(rest)) out.push({ kind: "define", stems: np.stems, aliases: np.aliases });
    else if (/^(?:is|are|was|were)\b/i.test(rest)) out.push({ kind: "copula", stems: np.stems, aliases: np.aliases });
    // "the sigmoid function maps any …" (a verb ends the phrase, an object follows), "the S-Box may be …"
    else if (AUXILIARY_AFTER_RE.test(rest) || (np.words >= 2 && OBJECT_START_RE.test(rest))) out.push({ kind: "verb", stems: np.stems, aliases: np.aliases });
  }
  // "… is (called) Principal Component Analysis (PCA)": the term introduced at the end of a copula
  const intro = /\b(?:is|are)\s+(?:(?:called|known\s+as|named|termed|referred\s+to\s+as)\s+)?/gi;
  for (const m of text.matchAll(intro)) {
    const at = m.index! + m[0].length;
    const i = tokens.findIndex((t) => t.start >= at);
    if (i < 0) break;
    const np = nounPhraseAt(text, tokens, stems, i, abbr);
    if (!np) continue;
    const rest = text.slice(np.end);
    const named = /called|known|named|termed|referred/i.test(m[0]);
    if ((named && /^\s*(?:[(.,;]|$)/.test(rest)) || /^\s*\([^()]{1,12}\)\s*(?:[.,;]|$)/.test(rest)) out.push({ kind: "introduce", stems: np.stems, aliases: np.aliases });
  }
  return out;
}

function features(text: string, a: Analysis, abbr: Abbreviations = new Map(), stems: Array<string | null> = a.tokens.map(tokenStem)): Features {
  const mask = new Uint8Array(text.length);
  const cover = (start: number, end: number) => mask.fill(1, start, end);
  const free = (start: number, end: number) => mask.subarray(start, end).indexOf(1) < 0;
  const dates = new Set<string>();
  const addDate = (month: number, day: number, idx: number, len: number) => {
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      dates.add(`${pad(month)}-${pad(day)}`);
      cover(idx, idx + len);
    }
  };
  for (const m of text.matchAll(ISO_RE)) addDate(Number(m[2]), Number(m[3]), m.index!, m[0].length);
  for (const m of text.matchAll(DAY_MONTH_RE)) if (m[2] !== "may") addDate(monthNumber(m[2]), Number(m[1]), m.index!, m[0].length);
  for (const m of text.matchAll(MONTH_DAY_RE)) if (m[1] !== "may" && free(m.index!, m.index! + m[0].length)) addDate(monthNumber(m[1]), Number(m[2]), m.index!, m[0].length);
  for (const m of text.matchAll(SLASH_RE)) {
    if (!free(m.index!, m.index! + m[0].length)) continue;
    dates.add(`${Number(m[1])}/${Number(m[2])}`);
    cover(m.index!, m.index! + m[0].length);
  }
  const times = new Set<string>();
  for (const m of text.matchAll(CLOCK_RE)) {
    let h = Number(m[1]);
    if (m[3]?.toLowerCase() === "p" && h < 12) h += 12;
    if (m[3]?.toLowerCase() === "a" && h === 12) h = 0;
    times.add(`${pad(h)}:${m[2]}`);
    cover(m.index!, m.index! + m[0].length);
  }
  for (const m of text.matchAll(AMPM_RE)) {
    if (!free(m.index!, m.index! + m[0].length)) continue;
    let h = Number(m[1]) % 12;
    if (m[2].toLowerCase() === "p") h += 12;
    times.add(`${pad(h)}:00`);
    cover(m.index!, m.index! + m[0].length);
  }
  for (const m of text.matchAll(NOON_RE)) times.add(m[1].toLowerCase() === "midnight" ? "00:00" : "12:00");
  const weekdays = new Set<string>();
  for (const m of text.matchAll(WEEKDAY_FULL_RE)) weekdays.add(m[1].slice(0, 3).toLowerCase());
  for (const m of text.matchAll(WEEKDAY_ABBR_RE)) weekdays.add(m[1].slice(0, 3).toLowerCase());
  const monthOnly = [...text.matchAll(MONTH_ONLY_RE)].some((m) => m[1] !== "may");

  for (const id of a.ids) for (const [s, e] of id.idSpans) cover(s, e);
  const percents = new Set<string>();
  for (const m of text.matchAll(PERCENT_RE)) {
    if (!free(m.index!, m.index! + m[1].length)) continue;
    percents.add(`${Number(m[1])}%`);
    cover(m.index!, m.index! + m[0].length);
  }
  const points = new Set<string>();
  for (const m of text.matchAll(POINTS_RE)) {
    if (!free(m.index!, m.index! + m[1].length)) continue;
    points.add(`${Number(m[1])}pt`);
    cover(m.index!, m.index! + m[0].length);
  }
  const numbers = new Set<string>();
  for (const m of text.matchAll(NUM_RE)) {
    const before = text[m.index! - 1] ?? " ";
    if (free(m.index!, m.index! + m[0].length) && !/[\p{L}]/u.test(before)) numbers.add(String(Number(m[0])));
  }

  let person = 0;
  if (TITLE_NAME_RE.test(text)) person = 1;
  else if (ROLE_RE.test(text) && (hasName(text, true) || EMAIL_RE.test(text) || /:\s*\p{Lu}/u.test(text))) person = 1;
  else if (/\bName:\s*\p{Lu}/u.test(text)) person = 1;
  else if (ROLE_RE.test(text)) person = 0.6;
  else if (hasName(text) || EMAIL_RE.test(text)) person = 0.5;

  let place = 0;
  if (PLACE_RE.test(text) || URL_RE.test(text)) place = 1;
  else if (ROOM_CODE_RE.test(text)) place = 0.8;
  else if (IN_PLACE_RE.test(text) || LOCATIVE_RE.test(text)) place = 0.7;
  else if (LOOSE_IN_RE.test(text)) place = 0.4;

  const leadTokens = a.tokens.filter((t) => t.kind === "word" || t.kind === "num").slice(0, 4);
  const lead = stemsBefore(a, leadTokens.length ? leadTokens[leadTokens.length - 1].end : 0);
  const explained = new Set<string>();
  for (const m of text.matchAll(APPOSITION_RE)) for (const x of stemsBefore(a, m.index! + m[1].length)) if (a.tokens.some((t) => t.end === m.index! + m[1].length && tokenStem(t) === x)) explained.add(x);

  return {
    dates: [...dates].sort(),
    times: [...times].sort(),
    weekdays: [...weekdays].sort(),
    relative: RELATIVE_RE.test(text),
    monthOnly,
    percents: [...percents].sort(),
    points: [...points].sort(),
    numbers: [...numbers].sort(),
    numberWords: NUMBER_WORD_RE.test(text),
    duration: DURATION_RE.test(text),
    person,
    place,
    defPrefix: prefixStems(text, a, DEF_RE),
    copulaPrefix: prefixStems(text, a, COPULA_RE),
    lead,
    explained,
    forms: nounPhraseForms(text, a, stems, abbr),
  };
}

const wordCount = (a: Analysis) => a.tokens.filter((t) => t.kind === "word" || t.kind === "num").length;

/** Short, unpunctuated, and not a row of its own (no deadline with a date, no percentage): "Deadlines and late work" is a heading, "A2 due Friday" is not. */
function isHeadingLike(text: string, a: Analysis, f: Features): boolean {
  const words = wordCount(a);
  const dated = /\d/.test(text) || f.dates.length > 0 || f.times.length > 0 || f.weekdays.length > 0 || f.relative;
  return text.length <= 80 && words > 0 && words <= 10 && !/[.!?]["')\]]?$/.test(text) && /\p{L}/u.test(text) && !(/\b(due|deadlines?)\b/i.test(text) && dated) && f.percents.length === 0;
}

/** Words a sentence satisfies by its form: an address is an "email", a URL a "link". */
function patternStems(text: string): string[] {
  const out: string[] = [];
  if (EMAIL_RE.test(text)) out.push("email", "contact");
  if (URL_RE.test(text)) out.push("link", "url", "websit", "site", "web");
  if (PHONE_RE.test(text)) out.push("phone", "contact");
  return out;
}

// ─── Abbreviations ──────────────────────────────────────────────────────────────────────────

const ABBR_PAREN_RE = /\(([A-Z][A-Za-z]?(?:-?[A-Za-z0-9]){1,7})\)/g;
const GLOSSARY_LINE_RE = /^[ \t]*([A-Z][A-Z0-9-]{1,7})[ \t]+((?:\p{Lu}[\p{L}-]*[ \t]*){2,6})$/gmu;

/** The words of `before` whose initials spell `letters`, read backwards (small function words may sit between). */
function initialsMatch(before: string, letters: string): string[] | null {
  const parts = [...before.matchAll(/\p{L}[\p{L}'’]*/gu)].map((m) => m[0]);
  const out: string[] = [];
  let li = letters.length - 1;
  for (let wi = parts.length - 1; wi >= 0 && li >= 0; wi--) {
    const w = parts[wi];
    if (w[0].toLowerCase() === letters[li]) {
      out.unshift(w);
      li--;
    } else if (out.length > 0 && /^(of|and|the|for|to|in|on|de)$/i.test(w)) continue;
    else return null;
  }
  return li < 0 ? out : null;
}

/**
 * Abbreviations introduced in the passages: "Hamming Weight (HW)", "Substitution Box (S-Box)",
 * and glossary lines ("HD Hamming Distance"): the initials of the words before must spell the
 * abbreviation. Keyed by the abbreviation as a token reads it ("hw", "sbox").
 */
function buildAbbreviations(passages: LabelledPassage[]): Abbreviations {
  const out: Abbreviations = new Map();
  const add = (abbr: string, words: string[]) => {
    const key = abbr.toLowerCase().replace(/-/g, "");
    if (out.has(key)) return;
    const expansion = [...new Set(words.flatMap((w) => [...analyze(w).stems]))];
    if (expansion.length < 2) return;
    out.set(key, { expansion, own: [...analyze(abbr).stems] });
  };
  for (const p of passages) {
    for (const m of p.text.matchAll(ABBR_PAREN_RE)) {
      const letters = m[1].replace(/[^A-Z]/g, "").toLowerCase();
      if (letters.length < 2) continue;
      const words = initialsMatch(p.text.slice(Math.max(0, m.index! - 100), m.index!).split(/[\n.;:()]/).pop() ?? "", letters);
      if (words) add(m[1], words);
    }
    for (const m of p.text.matchAll(GLOSSARY_LINE_RE)) {
      const letters = m[1].replace(/[^A-Z]/g, "").toLowerCase();
      const words = m[2].trim().split(/\s+/);
      if (letters.length >= 2 && words.length === letters.length && words.every((w, i) => w[0].toLowerCase() === letters[i])) add(m[1], words);
    }
  }
  return out;
}

/** A sentence that uses an abbreviation also says what it stands for, and one that spells it out also names the abbreviation. */
function expandAbbreviations(text: string, a: Analysis, abbr: Abbreviations): void {
  if (abbr.size === 0) return;
  for (const t of a.tokens) {
    if (t.kind !== "word") continue;
    for (const key of [t.value, t.joined]) {
      const x = key ? abbr.get(key) : undefined;
      if (x && /\p{Lu}/u.test(text.slice(t.start, t.end))) for (const e of x.expansion) a.stems.add(e);
    }
  }
  for (const { expansion, own } of abbr.values()) if (expansion.every((e) => a.stems.has(e))) for (const o of own) a.stems.add(o);
}

// ─── Schedule tables ────────────────────────────────────────────────────────────────────────

/** First words of a header line over numbered rows: "Week Topics", "Lecture | Date | Reading". */
const SCHEDULE_NOUN_RE = /^[|\s]*(weeks?|wk|lectures?|lec|class(?:es)?|labs?|sessions?|modules?|units?|days?|chapters?|lessons?|tutorials?|seminars?|workshops?|meetings?|parts?|sections?)\b/i;
/** A row: a number at the start of the line that is not a date, time or decimal ("6 Natural Language Processing", "9 | Storage"). */
const ROW_START_RE = /^[|\s]*(\d{1,3})(?![\d/:.,]\d)(?:[.):|]\s*|\s+)(?=\S)/;
/** A further row on the same line: the next number of the sequence before a word ("1 Python; Jupyter 2 Numpy; Pandas"). */
const ROW_CONTINUES_RE = /(?<=\S)\s+(\d{1,3})(?:[.):|]\s*|\s+)(?=[\p{L}(“"'])/gu;

interface Span {
  start: number;
  end: number;
  row?: { noun: string; id: string; idStart: number; idEnd: number; header: number };
}

/**
 * Rows of schedule tables: lines starting with a number under a header line whose first word is
 * a schedule noun ("Week", "Lecture", "Session"…) become "week 6" etc. A line holding two rows
 * side by side is cut at the number that continues the sequence.
 */
function tableRows(text: string, spans: Array<{ start: number; end: number }>): Span[] {
  const out: Span[] = [];
  const lineStartAt = (i: number) => i === 0 || text.slice(spans[i - 1].end, spans[i].start).includes("\n");
  for (let i = 0; i < spans.length; i++) {
    const { start, end } = spans[i];
    const line = text.slice(start, end);
    out.push({ start, end });
    const head = line.match(SCHEDULE_NOUN_RE);
    if (!head || !lineStartAt(i) || /\d|[.!?:]$/.test(line)) continue;
    // a header names columns: a few words, capitalised or separated by bars ("Week Topics", "Lecture | Date | Reading")
    const words = line.split(/[\s|]+/).filter(Boolean);
    if (words.length > 8 || !(words.length <= 3 || line.includes("|") || words.filter((w) => /^\p{Lu}/u.test(w)).length >= 0.6 * words.length)) continue;
    const headerToken = analyze(head[1]).tokens[0];
    const noun = headerToken ? tokenStem(headerToken) : null;
    if (!noun) continue;
    const header = out.length - 1;
    const table: Span[] = [];
    let rows = 0;
    let last = -1;
    let loose = 0;
    let j = i + 1;
    for (; j < spans.length; j++) {
      const gap = text.slice(spans[j - 1].end, spans[j].start);
      const sj = text.slice(spans[j].start, spans[j].end);
      const m = gap.includes("\n") ? sj.match(ROW_START_RE) : null;
      const n = m ? Number(m[1]) : NaN;
      const continues = !!m && (last < 0 ? n <= 60 : n >= last && n <= last + 3);
      if (/\n\s*\n/.test(gap) && !(continues && last >= 0 && n <= last + 1)) break;
      if (!continues) {
        // a wrapped row ("management, C conventions"); more than two in a row end the table
        if (last < 0 || ++loose > 2) break;
        table.push({ start: spans[j].start, end: spans[j].end });
        continue;
      }
      loose = 0;
      // cut the line where the sequence continues
      const cuts: Array<{ at: number; n: number; numStart: number; numEnd: number }> = [];
      const numStart = spans[j].start + sj.indexOf(m![1]);
      cuts.push({ at: spans[j].start, n, numStart, numEnd: numStart + m![1].length });
      let expect = n + 1;
      for (const c of sj.matchAll(ROW_CONTINUES_RE)) {
        if (Number(c[1]) !== expect) continue;
        const at = spans[j].start + c.index! + c[0].indexOf(c[1]);
        cuts.push({ at, n: expect, numStart: at, numEnd: at + c[1].length });
        expect++;
      }
      for (let k = 0; k < cuts.length; k++) {
        const from = cuts[k].at;
        let to = k + 1 < cuts.length ? cuts[k + 1].at : spans[j].end;
        while (to > from && /\s/.test(text[to - 1])) to--;
        table.push({ start: from, end: to, row: { noun, id: String(cuts[k].n), idStart: cuts[k].numStart - from, idEnd: cuts[k].numEnd - from, header } });
        rows++;
      }
      last = cuts[cuts.length - 1].n;
    }
    // one numbered line under a heading is not a table
    if (rows < 2) continue;
    out.push(...table);
    i = j - 1;
  }
  return out;
}

/** Schedule nouns whose rows are slots in time ("week 7"): a row answers "which week …". */
const TIME_SLOT_NOUNS = new Set(["week", "wk", "day", "lectur", "lecture", "class", "session", "meeting", "lesson", "seminar", "tutorial", "lab"].map((w) => stemWord(w)));

function readSentences(passages: LabelledPassage[], abbr: Abbreviations, maxBack: number): Sentence[][] {
  return passages.map((p, pi) => {
    const spans = tableRows(p.text, answerSpans(p.text));
    const list: Sentence[] = spans.map(({ start, end, row }, index) => {
      const text = p.text.slice(start, end);
      const a = analyze(text);
      if (row) {
        a.ids.push({ noun: row.noun, alt: [], ids: [row.id], form: "single", start: row.idStart, end: row.idEnd, idSpans: [[row.idStart, row.idEnd]], surface: row.noun });
        a.stems.add(row.noun);
      }
      expandAbbreviations(text, a, abbr);
      for (const x of patternStems(text)) a.stems.add(x);
      const tokenStems = a.tokens.map(tokenStem);
      const f = features(text, a, abbr, tokenStems);
      if (row && TIME_SLOT_NOUNS.has(row.noun)) f.relative = true;
      const lineStart = index === 0 || p.text.slice(spans[index - 1].end, start).includes("\n");
      return {
        passage: pi,
        index,
        start,
        end,
        text,
        a,
        heading: !row && lineStart && isHeadingLike(text, a, f),
        anaphoric: ANAPHORIC_START_RE.test(text),
        lineStart,
        words: wordCount(a),
        tokenStems,
        f,
        row: row ? { noun: row.noun, id: row.id, header: row.header } : null,
        block: null,
      };
    });
    // The block of a section heading: the lines under it, up to a blank line or the next heading ("Label: value" lines are not headings).
    for (const s of list) {
      if (!s.lineStart) continue;
      for (let k = s.index - 1; k >= 0 && k >= s.index - maxBack; k--) {
        if (/\n\s*\n/.test(p.text.slice(list[k].end, list[k + 1].start))) break;
        if (isSectionHeading(list[k]) && list[k].lineStart) {
          s.block = k;
          break;
        }
      }
    }
    return list;
  });
}

/** A heading that names a section (not a "Label: value" line). */
const isSectionHeading = (s: Sentence) => s.heading && !/:\s*\S/.test(s.text);

// ─── Scoring one part ───────────────────────────────────────────────────────────────────────

type Requirement = "ok" | "violated" | "absent";

function requirement(r: RequiredId, mentions: IdMention[]): Requirement {
  const nouns = new Set([r.noun, ...(r.alt ?? [])]);
  const relevant = mentions.filter((m) => nouns.has(m.noun) || m.alt.some((x) => nouns.has(x)));
  if (relevant.length === 0) return "absent";
  return relevant.some((m) => m.ids.some((id) => r.ids.includes(id))) ? "ok" : "violated";
}

interface Unit {
  s: Sentence;
  /** The features the cue and the values were read from: the sentence's, or sentence + context when quoted together as one line. */
  f: Features;
  ctx: Sentence | null;
  contiguous: boolean;
  passage: LabelledPassage;
  score: number;
  /** Identifiers of the subject this sentence is about ("assignment#3"): conflicts need the same scope. */
  scope: string;
  /** About an event around the subject ("review session"): never a side of a conflict. */
  satellite: boolean;
  order: number;
  /** The answer-type cue it earned (for definitions: how much it defines the subject). */
  cue: number;
}

type ValueKind = "dates" | "weekdays" | "times" | "percents" | "points" | "numbers";
type ValueType = "date" | "number" | "any";
const VALUE_KINDS: Record<ValueType, ValueKind[]> = {
  date: ["dates", "weekdays", "times"],
  number: ["percents", "points", "numbers"],
  // other parts ("what is the late penalty") are compared on unambiguous values only
  any: ["dates", "times", "percents", "points"],
};

/** The values two sentences can be compared on: the first kind both have ("dates" before "times"). */
function comparable(a: Features, b: Features, type: ValueType): { kind: ValueKind; same: boolean } | null {
  for (const kind of VALUE_KINDS[type]) {
    const x = a[kind];
    const y = b[kind];
    if (x.length && y.length) return { kind, same: x.some((v) => y.includes(v)) };
  }
  return null;
}

interface PartContext {
  part: RequestedPart;
  numberKind: "count" | "duration" | "amount";
  subject: string[];
  other: string[];
  predicates: string[];
  weights: Map<string, number>;
  /** For each term, the stems that count as a related match (course-word groups and derivations found in the passages). */
  related: Map<string, string[]>;
}

/** Endings that turn one word of a family into another ("recursion"/"recursive", "valid"/"validity"). */
const DERIVATIONAL = new Set(
  ["", "e", "l", "le", "al", "ally", "ly", "ity", "ility", "ibility", "ion", "ions", "ation", "ition", "ive", "iv", "ively", "ness", "ment", "er", "or", "ist", "ism", "iz", "ize", "is", "ise", "y", "ic", "ical", "ous", "ance", "ence", "ant", "ent", "ency", "ancy", "on", "v", "ve", "ate", "able", "ible", "ure"],
);

/** Two stems of one word family: a common start of five letters or more, and only derivational endings after it. */
function sameFamily(a: string, b: string): boolean {
  if (a === b || !/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) return false;
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k >= 5 && DERIVATIONAL.has(a.slice(k)) && DERIVATIONAL.has(b.slice(k));
}

/** Bonus for the share of the subject matched in the quoted sentence itself rather than in its heading or title. */
const OWN_SENTENCE_WEIGHT = 0.15;

const hasDigitAndLetter = (t: string) => /\d/.test(t) && /\p{L}/u.test(t);

function prepare(part: RequestedPart, sentences: Sentence[], vocabulary: string[]): PartContext | null {
  const idNums = new Set(part.required.flatMap((r) => r.ids));
  let subject = part.subject.filter((t) => !idNums.has(t));
  if (subject.length === 0) subject = part.required.map((r) => r.noun);
  if (subject.length === 0) {
    // An unresolved "it" has no subject to look for.
    if (hasUnresolvedPronoun(part.ask)) return null;
    subject = part.terms.filter((t) => !idNums.has(t) && !hasDigitAndLetter(t));
  }
  subject = [...new Set(subject)];
  if (subject.length === 0) return null;
  // "what is X about", "what does X cover": what it covers is the answer
  const about = /\b(about|cover|covers)$/i.test(part.ask) ? ["cover", "topic", "include"] : [];
  const other = [...new Set([...part.terms, ...(part.context ?? []), ...about])].filter((t) => !subject.includes(t) && !idNums.has(t) && !hasDigitAndLetter(t));
  const predicates = other.filter(isPredicateTerm);
  const n = sentences.length;
  const weights = new Map<string, number>();
  const related = new Map<string, string[]>();
  for (const t of [...subject, ...other]) {
    const rel = [...new Set([...relatedStems(t), ...vocabulary.filter((v) => sameFamily(t, v))])];
    related.set(t, rel);
    const forms = [t, ...rel];
    let df = 0;
    for (const s of sentences) if (forms.some((x) => s.a.stems.has(x))) df++;
    weights.set(t, 1 + Math.log((n + 1) / (df + 1)));
  }
  const ask = part.ask.toLowerCase();
  const numberKind = /\bhow many\b|\bnumber of\b/.test(ask) ? "count" : /\bhow long\b|\bduration\b|\blength of\b/.test(ask) ? "duration" : "amount";
  return { part, numberKind, subject, other, predicates, weights, related };
}

/** "2 ATP", "three unexcused absences", "10 weekly quizzes": a number right before the thing counted. */
function countsSubject(pc: PartContext, s: Sentence): boolean {
  const tokens = s.a.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!(t.kind === "num" || (t.kind === "word" && NUMBER_WORD_RE.exec(t.value)?.[0].length === t.value.length))) continue;
    for (const j of [i + 1, i + 2]) {
      const w = tokens[j];
      const x = s.tokenStems[j];
      if (!w || w.kind !== "word") break;
      if (x !== null && pc.subject.some((q) => q === x || (pc.related.get(q) ?? []).includes(x))) return true;
    }
  }
  return false;
}

function typeCue(pc: PartContext, f: Features, s: Sentence, ctx: Sentence | null, subjectInContextOnly: boolean): number {
  switch (pc.part.answerType) {
    case "date":
      return f.dates.length || f.times.length ? 1 : f.weekdays.length ? 0.8 : f.relative ? 0.6 : f.monthOnly ? 0.5 : 0;
    case "number": {
      const amount = f.percents.length > 0 || f.points.length > 0;
      const count = f.numbers.length > 0 || f.numberWords;
      // "how many" wants a count, "how long" a duration, "how much"/"worth" an amount or share
      if (pc.numberKind === "count") return countsSubject(pc, s) ? 1 : count ? 0.7 : amount ? 0.4 : 0;
      if (pc.numberKind === "duration") return f.duration ? 1 : count ? 0.6 : amount ? 0.3 : 0;
      return amount ? 1 : f.numbers.length ? 0.7 : f.numberWords ? 0.6 : 0;
    }
    case "person":
      // a name under a role heading ("Instructor Information" / "Name: S. Seth Long")
      // (a role label, not another person's row: "Nick Ulle naulle Instructor" does not make the next row the instructor)
      return ctx && (f.person >= 0.5 || hasName(s.text, true)) && ROLE_RE.test(ctx.text) && ctx.f.person < 1 ? 1 : f.person;
    case "place":
      return f.place;
    case "definition":
      return aboutness(pc, f, s, ctx, subjectInContextOnly);
    default:
      // For anything else, a sentence whose grammatical subject is the thing asked about reads best.
      return aboutness(pc, f, s, ctx, subjectInContextOnly) * 0.5;
  }
}

/** How much a noun phrase in each position says about it (see NounPhraseForm). */
const FORM_ABOUTNESS: Record<NounPhraseForm["kind"], number> = { define: 1.25, introduce: 1.2, copula: 1, frame: 0.95, verb: 0.85 };

/**
 * How much a sentence is about the part's subject: defines it as its grammatical subject (1.25),
 * introduces it (1.2), says what it is (1), frames the sentence (0.95), does something as its
 * subject (0.85; 0.5 for a definition), has it before a definitional phrase (0.9) or a copula or
 * explains it in an apposition (0.8), starts with it (0.5). The row of a schedule table for the
 * identifier asked about counts as saying what it is (1).
 */
function aboutness(pc: PartContext, f: Features, s: Sentence, ctx: Sentence | null, subjectInContextOnly: boolean): number {
  const has = (set: Set<string> | null) => !!set && pc.subject.some((t) => set.has(t) || (pc.related.get(t) ?? []).some((r) => set.has(r)));
  let best = 0;
  for (const form of f.forms) {
    // "X guarantees …" says what X does, which answers "what does X do" better than "what is X"
    const value = form.kind === "verb" && pc.part.answerType === "definition" ? 0.5 : FORM_ABOUTNESS[form.kind];
    if (value > best && namesSubject(pc, form.stems, form.aliases)) best = value;
  }
  // the row of a schedule table for the identifier asked about ("6 Natural Language Processing" for week 6)
  if (s.row && pc.part.required.some((r) => r.noun === s.row!.noun && r.ids.includes(s.row!.id))) best = Math.max(best, 1);
  if (best >= 0.9) return best;
  if (has(f.defPrefix)) return 0.9;
  if (best >= 0.8) return best;
  if (has(f.copulaPrefix) || has(f.explained)) return 0.8;
  if (subjectInContextOnly && ctx?.heading) return 0.8;
  if (has(f.lead)) return Math.max(best, 0.5);
  return best;
}

/** Nouns whose identifiers say whom or when a statement applies to ("Section B", "Fall 2025"): different ones are not a conflict. */
const SCOPE_NOUNS = new Set(
  ["section", "group", "stream", "cohort", "track", "campus", "semester", "term", "fall", "spring", "summer", "winter", "autumn", "year"].flatMap((w) => [...analyze(w).stems]),
);
/** Events around a thing rather than the thing ("final exam review session", "assignment 3 solutions"). */
const SATELLITE_WORDS = new Set(
  ["review", "session", "solution", "solutions", "result", "results", "feedback", "rubric", "registration", "signup", "prep", "preparation", "practice", "makeup", "conflict", "conflicts", "accommodation", "accommodations", "study", "guide", "announcement", "regrade", "grades", "marks", "release", "released", "draft", "proposal", "extension", "extensions", "workshop", "q&a", "walkthrough"].map((w) => analyze(w).stems).flatMap((x) => [...x]),
);
/** How much a "satellite" sentence loses (for parts that are not dates or numbers), so the thing itself wins when both are present. */
const SATELLITE_PENALTY = 0.2;

/** Does the sentence name the subject as a modifier of another event ("the final exam review session is on …")? */
function isSatellite(pc: PartContext, s: Sentence): boolean {
  const toks = s.a.tokens;
  const st = s.tokenStems;
  const isSubject = (i: number) => toks[i].kind === "word" && st[i] !== null && pc.subject.includes(st[i]!);
  for (let i = 0; i + 1 < toks.length; i++) {
    if (!isSubject(i) && !(toks[i].kind === "num" && i > 0 && isSubject(i - 1))) continue;
    const next = st[i + 1];
    if (toks[i + 1].kind !== "word" || next === null || isSubject(i + 1)) continue;
    if (SATELLITE_WORDS.has(next) && !pc.part.terms.includes(next)) return true;
  }
  return false;
}

/**
 * How well each term matches a set of stems: 1 exact, `weight` through a related word. One word
 * of the text answers for one term only ("deadline" cannot stand for both "submit" and "late"),
 * unless the two terms are themselves related ("professor" and "teach" are both "lecturer").
 */
function matchTerms(stems: Set<string>, terms: readonly string[], related: Map<string, string[]>, weight: number): Map<string, number> {
  const out = new Map<string, number>();
  const usedBy = new Map<string, string>();
  const akin = (a: string, b: string) => a === b || (related.get(a) ?? []).includes(b) || (related.get(b) ?? []).includes(a);
  for (const t of terms) {
    if (stems.has(t)) {
      out.set(t, 1);
      usedBy.set(t, t);
    }
  }
  for (const t of terms) {
    if (out.has(t)) continue;
    const r = (related.get(t) ?? []).find((x) => stems.has(x) && (!usedBy.has(x) || akin(usedBy.get(x)!, t)));
    if (r === undefined) {
      out.set(t, 0);
      continue;
    }
    out.set(t, weight);
    if (!usedBy.has(r)) usedBy.set(r, t);
  }
  return out;
}

/** A noun phrase that names the part's subject: most of its terms, few other words (another name of it is not another word). */
function namesSubject(pc: PartContext, stems: Set<string>, aliases: Set<string> = new Set()): boolean {
  const matched = matchTerms(stems, pc.subject, pc.related, 1);
  let hits = 0;
  for (const v of matched.values()) if (v > 0) hits++;
  if (hits === 0 || hits < Math.ceil(0.6 * pc.subject.length)) return false;
  let extra = 0;
  for (const x of stems) if (!aliases.has(x) && !pc.subject.some((t) => t === x || (pc.related.get(t) ?? []).includes(x))) extra++;
  return extra <= 2;
}

function scoreUnit(
  pc: PartContext,
  s: Sentence,
  ctx: Sentence | null,
  contiguous: boolean,
  f: Features,
  title: Analysis,
  opts: ExtractiveOptions,
  section = false,
): { score: number; scope: string; satellite: boolean; cue: number } | null {
  const { part, subject, other, predicates, weights } = pc;
  // Identifiers: the sentence decides; if it names none, its heading; then the document title.
  for (const r of part.required) {
    let st = requirement(r, s.a.ids);
    // A sentence about another numbered deliverable ("HW3 due Oct 3") does not borrow "A2" from the line above.
    if (st === "absent" && isDeliverableNoun(r.noun) && s.a.ids.some((m) => isDeliverableNoun(m.noun))) st = "violated";
    if (st === "absent" && ctx) st = requirement(r, ctx.a.ids);
    if (st === "absent") st = requirement(r, title.ids);
    if (st !== "ok") return null;
  }
  const { related } = pc;
  const inSentenceMap = new Map([...matchTerms(s.a.stems, subject, related, opts.relatedWeight), ...matchTerms(s.a.stems, other, related, opts.relatedWeight)]);
  const inCtxMap = ctx ? new Map([...matchTerms(ctx.a.stems, subject, related, opts.relatedWeight), ...matchTerms(ctx.a.stems, other, related, opts.relatedWeight)]) : null;
  const inTitleMap = new Map([...matchTerms(title.stems, subject, related, opts.relatedWeight), ...matchTerms(title.stems, other, related, opts.relatedWeight)]);
  const inS = (t: string) => inSentenceMap.get(t) ?? 0;
  const inC = (t: string) => inCtxMap?.get(t) ?? 0;
  const m = (t: string) => Math.max(inS(t), inC(t), opts.titleWeight * (inTitleMap.get(t) ?? 0));
  let num = 0;
  let den = 0;
  let inSentence = 0;
  for (const t of subject) {
    const w = weights.get(t) ?? 1;
    num += w * m(t);
    den += w;
    inSentence += inS(t);
  }
  const coverage = den > 0 ? num / den : 0;
  if (coverage < opts.minSubjectCoverage) return null;
  // The quoted sentence itself must say something asked about; a heading or a title alone cannot make it relevant…
  if (inSentence === 0 && !other.some((t) => inS(t) > 0) && !part.required.some((r) => requirement(r, s.a.ids) === "ok")) {
    // …except a short section heading that names the subject, for the lines of its block ("Textbook" above "“Linux Kernel Development”, by …")
    // (terms the document title already names, like the course code, are not the heading's to match)
    if (!section || !ctx || ctx.words > 6) return null;
    let cNum = 0;
    let cDen = 0;
    for (const t of subject) {
      if ((inTitleMap.get(t) ?? 0) > 0 && inC(t) === 0) continue;
      cNum += (weights.get(t) ?? 1) * inC(t);
      cDen += weights.get(t) ?? 1;
    }
    if (cDen === 0 || cNum / cDen < opts.minSubjectCoverage) return null;
  }
  const type = part.answerType;
  // A bare heading ("Recursion", "Instructor") names a topic; it does not say anything about it.
  const titleLine = type !== "date" && type !== "number" && s.heading && (!/:\s*\S/.test(s.text) || /^\d+(?:\.\d+)+\s/.test(s.text));
  if (titleLine && [...s.a.stems].every((t) => /^\d+$/.test(t) || subject.some((x) => x === t || (related.get(x) ?? []).includes(t)))) return null;
  // (a short line can name a person or a place: "Nick Ulle naulle Instructor")
  const bareHeading = titleLine && (type === "general" || type === "definition");
  // nor does it define anything ("S-Box layer" for "what is an S-box")
  if (bareHeading && type === "definition") return null;
  if ((type === "date" || type === "number") && predicates.length && !predicates.some((t) => m(t) > 0)) return null;
  const cue = typeCue(pc, f, s, ctx, inSentence === 0);
  if (type !== "general" && cue === 0) return null;
  // a subject met only through related words ("books" for "textbook") needs the sentence to be about it
  if (type === "general" && cue === 0 && !subject.some((t) => inS(t) === 1 || inC(t) === 1 || (inTitleMap.get(t) ?? 0) === 1)) return null;
  if (type === "definition" && cue < 0.5) return null;
  let oNum = 0;
  let oDen = 0;
  for (const t of other) {
    const w = weights.get(t) ?? 1;
    oNum += w * m(t);
    oDen += w;
  }
  // what the quote itself says: the sentence, and its heading when they are quoted together
  let own = 0;
  for (const t of subject) own += (weights.get(t) ?? 1) * (ctx && contiguous ? Math.max(inS(t), inC(t)) : inS(t));
  const words = s.a.tokens.length;
  const score =
    coverage +
    // of two equally covered units, the one whose own sentence says more of it
    OWN_SENTENCE_WEIGHT * (den > 0 ? own / den : 0) +
    opts.predicateWeight * (oDen > 0 ? oNum / oDen : 0) +
    opts.cueWeight * cue -
    // a heading quoted with its sentence is part of the answer; one borrowed from further up costs a little
    (ctx && !contiguous ? 0.02 : 0) -
    (bareHeading ? 0.1 : 0) -
    Math.min(0.1, Math.max(0, words - 35) * 0.002);
  if (score < opts.minScore) return null;
  // "the final exam review session is on 10 December" does not say when the final exam is
  const satellite = isSatellite(pc, s);
  if ((type === "date" || type === "number") && satellite) return null;

  // Scope: the identifiers of subject nouns the unit talks about, and the cohort or term it applies to.
  const subjectNouns = new Set([...subject, ...part.required.flatMap((r) => [r.noun, ...(r.alt ?? [])])]);
  const scope = new Set<string>();
  for (const r of part.required) scope.add(`${r.noun}#${r.ids.join("|")}`);
  for (const mention of [...s.a.ids, ...(ctx?.a.ids ?? [])]) {
    if (part.required.some((r) => r.noun === mention.noun || mention.alt.includes(r.noun))) continue;
    if (subjectNouns.has(mention.noun) || SCOPE_NOUNS.has(mention.noun)) scope.add(`${mention.noun}#${mention.ids.join("|")}`);
  }
  return { score: score - (satellite ? SATELLITE_PENALTY : 0), scope: [...scope].sort().join(" "), satellite, cue };
}

/** "For each molecule of glucose, the cycle turns twice." after "The citric acid cycle …": a definite noun phrase naming the previous sentence's subject. */
function refersBack(s: Sentence, prev: Sentence, pc: PartContext): boolean {
  if (/\n\s*\n/.test(s.text) || s.passage !== prev.passage) return false;
  const toks = s.a.tokens;
  for (let i = 0; i + 1 < toks.length; i++) {
    if (toks[i].kind !== "word" || !/^(the|this|that|these|those|each|such|its|their)$/.test(toks[i].value)) continue;
    for (const j of [i + 1, i + 2]) {
      const t = toks[j];
      if (!t || t.kind !== "word") break;
      const x = s.tokenStems[j];
      if (x !== null && prev.a.stems.has(x) && pc.subject.some((q) => q === x || (pc.related.get(q) ?? []).includes(x))) return true;
    }
  }
  return false;
}

function claimOf(u: Unit): DraftClaim {
  const { s, ctx, passage } = u;
  const label = passage.label;
  if (!ctx) return { text: collapse(s.text), evidence: [{ sourceId: label, quote: s.text }] };
  if (u.contiguous) {
    const quote = passage.text.slice(ctx.start, s.end);
    return { text: collapse(quote), evidence: [{ sourceId: label, quote }] };
  }
  return {
    text: `${collapse(ctx.text).replace(/[\s:]+$/, "")}: ${collapse(s.text)}`,
    evidence: [
      { sourceId: label, quote: ctx.text },
      { sourceId: label, quote: s.text },
    ],
  };
}

const unitText = (u: Unit) => collapse((u.ctx && u.contiguous ? u.passage.text.slice(u.ctx.start, u.s.end) : u.s.text).toLowerCase());

/** Sides of a date/number question within one scope: supported, superseded by a correction, or conflicting. */
function resolveValues(units: Unit[], type: ValueType, opts: ExtractiveOptions): { state: "supported" | "conflicting"; units: Unit[] } {
  const best = units[0];
  const strong = units.filter((u) => !u.satellite && (u.score >= opts.conflictRatio * best.score || u.passage.isCorrection));
  const sides: Unit[] = [best];
  for (const u of strong.slice(1)) {
    if (sides.some((x) => x.passage.documentId === u.passage.documentId)) continue;
    if (sides.every((x) => comparable(x.f, u.f, type)?.same === false)) sides.push(u);
  }
  if (sides.length > 1) {
    const corrections = sides.filter((u) => u.passage.isCorrection);
    // An instructor-marked correction supersedes what it corrects; two corrections that disagree do not.
    if (corrections.length === 1) return { state: "supported", units: corrections };
    return { state: "conflicting", units: (corrections.length > 1 ? corrections : sides).slice(0, opts.maxClaimsPerPart) };
  }
  if (!best.passage.isCorrection) {
    const correction = strong.find((u) => u.passage.isCorrection && u.passage.documentId !== best.passage.documentId);
    if (correction) {
      // Same values: the correction alone. Values that cannot be compared ("extended by two days"): both, correction first.
      return { state: "supported", units: comparable(correction.f, best.f, type) ? [correction] : [correction, best] };
    }
  }
  return { state: "supported", units: [best] };
}

interface Answered {
  part: DraftPart;
  /** The sentences claimed (without their headings). */
  sentences: Sentence[];
}

/** Everything read from the passages once per question, shared by every requested part. */
interface Reading {
  sentences: Sentence[][];
  flat: Sentence[];
  vocabulary: string[];
  passages: LabelledPassage[];
  titles: Analysis[];
  opts: ExtractiveOptions;
  abbr: Abbreviations;
}

function answerSingle(part: RequestedPart, { sentences, flat, vocabulary, passages, titles, opts, abbr }: Reading): Answered {
  const missing: Answered = { part: { ask: part.ask, state: "missing", claims: [] }, sentences: [] };
  const pc = prepare(part, flat, vocabulary);
  if (!pc) return missing;
  // A sentence that announces what follows ("The key observation is the following:") is quoted with the sentence it announces.
  const withFollower = (u: Unit): Unit => {
    const next = sentences[u.s.passage][u.s.index + 1];
    if (!/:\s*$/.test(u.s.text) || !next || /\n\s*\n/.test(u.passage.text.slice(u.s.end, next.start))) return u;
    return { ...u, ctx: u.ctx && u.contiguous ? u.ctx : u.s, s: next, contiguous: true };
  };
  const answered = (state: DraftPart["state"], units: Unit[]): Answered => {
    const full = units.map(withFollower);
    return { part: { ask: part.ask, state, claims: full.map(claimOf) }, sentences: full.map((u) => u.s) };
  };

  const candidates: Unit[] = [];
  const askStems = analyze(part.ask).stems;
  let order = 0;
  for (const list of sentences) {
    for (const s of list) {
      const passage = passages[s.passage];
      const title = titles[s.passage];
      // A table row the question asks about by its noun ("week 6", "which week") is quoted with its header ("Week Topics: 6 Momentum and collisions").
      const rowHeader = s.row ? list[s.row.header] : null;
      const headerOption = rowHeader ? { ctx: rowHeader, contiguous: rowHeader.index === s.index - 1 && s.lineStart, f: s.f, section: false } : null;
      const options: Array<{ ctx: Sentence | null; contiguous: boolean; f: Features; section: boolean }> =
        headerOption && askStems.has(s.row!.noun) ? [headerOption] : [{ ctx: null, contiguous: false, f: s.f, section: false }, ...(headerOption ? [headerOption] : [])];
      const prev = s.index > 0 ? list[s.index - 1] : null;
      // (a table row borrows nothing but its header)
      if (!s.row && prev && (prev.heading || s.anaphoric || refersBack(s, prev, pc))) options.push({ ctx: prev, contiguous: true, f: s.f, section: s.block === prev.index });
      else if (!s.row && prev && !s.lineStart && s.words <= 8 && !prev.row) {
        // a fragment at the end of a line ("… IRB. Quiz 1"): the line is the unit
        const line = passage.text.slice(prev.start, s.end);
        options.push({ ctx: prev, contiguous: true, f: features(line, analyze(line), abbr), section: false });
      }
      // The section heading of its block ("Textbook" above the line naming the book).
      if (s.block !== null && s.block !== s.index - 1 && !s.row) options.push({ ctx: list[s.block], contiguous: false, f: s.f, section: true });
      // The nearest section heading further up ("Assignment 4" above "Release: …" and "Due: …"); label lines ("Due: 9 Oct") are not sections.
      for (let k = s.index - 2; k >= 0 && k >= s.index - opts.maxContextBack && !s.row; k--) {
        if (isSectionHeading(list[k])) {
          if (k !== s.block) options.push({ ctx: list[k], contiguous: false, f: s.f, section: false });
          break;
        }
      }
      let best: Unit | null = null;
      for (const { ctx, contiguous, f, section } of options) {
        // One quote never runs across a paragraph break: the next paragraph is about something else.
        if (ctx && contiguous && /\n\s*\n/.test(passage.text.slice(Math.min(ctx.end, s.start), s.start))) continue;
        const r = scoreUnit(pc, s, ctx, contiguous, f, title, opts, section);
        if (r && (!best || r.score > best.score)) best = { s, f, ctx, contiguous, passage, score: r.score, scope: r.scope, satellite: r.satellite, order, cue: r.cue };
      }
      order++;
      if (best) candidates.push(best);
    }
  }
  if (candidates.length === 0) return missing;
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  // The same sentence from overlapping chunks or copies of a handout counts once.
  const seen = new Set<string>();
  const passing = candidates.filter((u) => {
    const key = unitText(u);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const top = passing[0].score;
  const type = part.answerType;

  if (type === "date" || type === "number") {
    const groups = new Map<string, Unit[]>();
    for (const u of passing) groups.set(u.scope, [...(groups.get(u.scope) ?? []), u]);
    const chosen: Unit[] = [];
    let conflicting = false;
    let first = true;
    for (const units of groups.values()) {
      if (!first && units[0].score < opts.secondClaimRatio * top) continue;
      if (chosen.length >= opts.maxClaimsPerPart) break;
      const resolved = resolveValues(units, type, opts);
      if (resolved.state === "conflicting") conflicting = true;
      chosen.push(...resolved.units.slice(0, opts.maxClaimsPerPart - chosen.length));
      first = false;
    }
    return answered(conflicting ? "conflicting" : "supported", chosen);
  }

  // Definitions, people, places, everything else: the best sentence, a correction first when one speaks to the same scope.
  const best = passing[0];
  // Two documents stating different dates or percentages for it ("10% per day" / "5% per day") still disagree.
  const sameScope = passing.filter((u) => u.scope === best.scope);
  const values = resolveValues(sameScope, "any", opts);
  if (values.state === "conflicting" || values.units[0] !== best) return answered(values.state, values.units);
  let primary = best;
  if (!best.passage.isCorrection) {
    const correction = passing.find(
      (u) => u.passage.isCorrection && u.scope === best.scope && u.passage.documentId !== best.passage.documentId && u.score >= opts.conflictRatio * top,
    );
    if (correction) primary = correction;
  }
  const claims = [primary];
  const second = passing.find(
    (u) =>
      u !== primary &&
      u.passage.chunkId !== primary.passage.chunkId &&
      u.score >= opts.secondClaimRatio * top &&
      // a definition is not followed by a sentence that merely mentions the term
      (type !== "definition" || u.cue >= primary.cue) &&
      (type !== "general" || u.cue >= 0.8 * primary.cue) &&
      // a superseded document does not come back as a second claim
      (primary === best || u.passage.isCorrection || u.passage.documentId === primary.passage.documentId),
  );
  if (second && opts.maxClaimsPerPart > 1) claims.push(second);
  return answered("supported", claims);
}

/**
 * One requested part → one or more DraftParts. A part naming several things ("the grading
 * weights and late policy") is answered per thing: all found → one part with a claim for each;
 * none → missing; some → one part per thing, so support for one never covers the other.
 */
function answerPart(part: RequestedPart, reading: Reading): DraftPart[] {
  const conjuncts = coordinatedSubjects(part);
  const whole = answerSingle(part, reading);
  if (!conjuncts) return [whole.part];
  // Sentences that themselves speak to every thing named answer the whole part.
  if (whole.part.state !== "missing") {
    const said = new Set(whole.sentences.flatMap((x) => [...x.a.stems]));
    if (conjuncts.every((c) => c.terms.filter((t) => part.subject.includes(t)).every((t) => said.has(t)))) return [whole.part];
  }
  const answers = conjuncts.map((c) => {
    // the other things named are not this one's words
    const others = new Set(conjuncts.flatMap((o) => o.terms).filter((t) => !c.terms.includes(t) && !c.subject.includes(t)));
    // "the difference between X and Y": anything said about X is part of the answer, not only a definition
    const answerType = /\b(difference|differences|differ|distinguish)\b/i.test(part.ask) ? "general" : part.answerType;
    return answerSingle({ ...part, answerType, subject: c.subject, terms: part.terms.filter((t) => !others.has(t)) }, reading).part;
  });
  if (answers.every((a) => a.state === "missing")) return [{ ask: part.ask, state: "missing", claims: [] }];
  if (answers.some((a) => a.state === "missing")) return answers.map((a, i) => ({ ...a, ask: `${part.ask} (${conjuncts[i].text})` }));
  const claims: DraftClaim[] = [];
  const seen = new Set<string>();
  for (const a of answers) {
    for (const c of a.claims) {
      if (seen.has(c.text)) continue;
      seen.add(c.text);
      claims.push(c);
    }
  }
  return [{ ask: part.ask, state: answers.some((a) => a.state === "conflicting") ? "conflicting" : "supported", claims }];
}

/**
 * generate (extractive): one DraftPart per requested part of the question, each either
 * supported (verbatim sentences with their quotes), conflicting (one claim per side, each citing
 * its own passage) or missing (no claims). Every quote is an exact substring of its passage's
 * text. Deterministic: same input, same output.
 */
export function generateExtractive(
  { question, passages }: { question: string; passages: LabelledPassage[] },
  options: Partial<ExtractiveOptions> = {},
): GenerateState {
  const opts: ExtractiveOptions = { ...defaultExtractiveOptions, ...options };
  const requested = splitQuestion(question);
  const abbr = buildAbbreviations(passages);
  const sentences = readSentences(passages, abbr, opts.maxContextBack);
  const flat = sentences.flat();
  const titleCache = new Map<string, Analysis>();
  const titles = passages.map((p) => {
    const t = p.documentTitle.replace(/\.(pdf|docx?|pptx?|txt)$/i, "").replace(/[_]+/g, " ");
    let a = titleCache.get(t);
    if (!a) titleCache.set(t, (a = analyze(t)));
    return a;
  });
  const vocabulary = [...new Set([...flat.flatMap((x) => [...x.a.stems]), ...titles.flatMap((t) => [...t.stems])])].sort();
  const parts: DraftPart[] = requested.flatMap((part) => answerPart(part, { sentences, flat, vocabulary, passages, titles, opts, abbr }));
  if (parts.length === 0 && question.trim()) parts.push({ ask: question.trim(), state: "missing", claims: [] });
  return { parts, raw: JSON.stringify(parts) };
}
