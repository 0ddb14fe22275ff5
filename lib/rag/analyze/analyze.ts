/**
 * analyze: the one reading of a question, made once by the pipeline and passed to every stage
 * that needs it (retrieval terms, gate, extractive generator, trace). Parts, answer types, focus
 * terms and identifiers come from wink-nlp's tokens and tags (text/nlp.ts) and the grammar
 * rules of lexicon.ts; follow-ups are resolved against the conversation's earlier questions and,
 * for a person's pronoun, its last answer.
 */
import { AFTER_SHORT_ARE, ALL_DEMONSTRATIVES, ANAPHORS, BEFORE_SHORT_ARE, BEFORE_SHORT_YOU, CONTRACTS_IS, DEFINING_VERBS, DEMONSTRATIVES, HOW_DEGREE, INTERROGATIVES, PART_CONNECTIVES, PERSONAL_PRONOUNS, PLURAL_PRONOUNS, POSSESSIVE_DETERMINERS, REQUEST_VERBS, SHORTHAND, SUBJECT_SWAP_OPENERS, TIME_PREPOSITIONS, TYPE_NOUNS, type AnswerType } from "../lexicon";
import { annotate, contentLemmas, type EntitySpan, type TextToken } from "../text/nlp";
import { classifierOf, closedCompoundsOf, isCommonWord, isPlaceWord, isTimeNoun, relatedWords } from "../text/wordnet";

export type { AnswerType } from "../lexicon";

/** A term the answer should be about: a content lemma of the question. */
export interface FocusTerm {
  lemma: string;
  /** As written in the question (lowercased). */
  surface: string;
  /** Nouns and names weigh more than verbs and adjectives when a passage is scored. */
  noun: boolean;
  /** Borrowed from another part or an earlier question, not written in this part. */
  borrowed?: boolean;
  /** A period in a time adjunct ("by when …, at the end of the semester"): it frames the date asked for, which a date then states. */
  frame?: boolean;
}

/** An identifier the question names ("Assignment 4", "week 3", "HW1"): a passage naming the same noun with another id does not answer it. */
export interface RequiredId {
  noun: string;
  id: string;
  /** Said as an ordinal ("the second midterm"): an identifier only where the notes number that noun ("Midterm 2"). */
  ordinal?: boolean;
  /** The noun as the question wrote it, where the notes number the item under another ("q3" of "Problem 3"; extractive/features.ts `numberedIds`). */
  written?: string;
  /** The part of the item asked about, by its letter ("b" of "q1 pt b", "question 2(b)", "4b" where the notes number 4). */
  part?: string;
}

/** One requested fact of a question: "What is the late penalty, and when is Assignment 2 due?" has two. */
export interface RequestedPart {
  /** The words that ask for this part, trimmed. */
  ask: string;
  answerType: AnswerType;
  focus: FocusTerm[];
  required: RequiredId[];
  /** Words to search for this part alone (its focus, as written and as lemmas). */
  searchTerms: string[];
}

/** How a follow-up was made standalone; kind "none" when the question stands on its own. */
export interface Resolution {
  kind: "none" | "pronoun" | "subject_swap" | "ellipsis" | "model";
  reason: string;
}

/** Invariant: parts.length ≥ 1 for a question with any letter or digit; computed once per question. */
export interface QuestionAnalysis {
  question: string;
  /** The question with its follow-up resolved: what is searched for. */
  standalone: string;
  resolution: Resolution;
  parts: RequestedPart[];
  /** Lemmas of statements around the question ("I missed Tuesday's lecture."): they may rank, never decide. */
  context: string[];
  /** Words to search for, unstemmed (FTS5 applies its own stemming). */
  searchTerms: string[];
}

const isNounish = (t: TextToken) => t.pos === "NOUN" || t.pos === "PROPN";
/** A number, or a single capital that is not the pronoun "I" or the article "A" ("the last day I can drop" names no day I). */
const isIdToken = (t: TextToken) => (t.pos === "NUM" && /^\d+(?:\.\d+)*[a-z]?$/i.test(t.text)) || (/^[A-Z]$/.test(t.text) && t.pos !== "PRON" && t.pos !== "DET");
/** A letter hyphened to the word after it is part of that word ("B-tree", "T-test"), not an identifier of the word before it. */
const opensCompound = (t: TextToken, after: TextToken | undefined, word: TextToken | undefined) => /^\p{L}$/u.test(t.text) && after?.text === "-" && after.start === t.end && word?.start === after.end;
const hasAlnumId = (t: TextToken) => /\p{L}/u.test(t.text) && /\d/.test(t.text) && t.text.length <= 8;

/** Signs that make the name before them a variable: equals, (in)equalities, approximately. */
const EQUATION_SIGN = /^[=<>≤≥≈≠]$/;

/** "2nd", "3rd", "21st": an ordinal in figures. */
const ORDINAL_FIGURES = /^(\d+)(?:st|nd|rd|th|d)$/i;

/** The number an ordinal adjective before a noun stands for ("second midterm" → 2, "3rd quiz" → 3): its figures, or the figures WordNet gives as its synonym ("second, 2nd, 2d"). */
function ordinalNumber(tokens: readonly TextToken[], i: number): string | null {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (t.pos !== "ADJ" || !next?.content || !isNounish(next)) return null;
  const figures = ORDINAL_FIGURES.exec(t.text) ?? [...relatedWords(t.lemma)].map((w) => ORDINAL_FIGURES.exec(w)).find(Boolean);
  return figures ? String(Number(figures[1])) : null;
}

/** A number with a percent or times sign flush after it ("85%", "4x", "1.5×") is a share or a multiple of something, not an identifier. */
const isQuantity = (number: TextToken, after: TextToken | undefined) => !!after && after.start === number.end && /^(?:%|x|×)$/i.test(after.text);

/**
 * A verb before a number or letter that names nothing: a participle before a plural noun it
 * counts ("the remaining 40 seats"), or a verb taking a letter as its object ("computing T",
 * "implies P"): a gerund names an item by a number only ("Writing 2").
 */
const verbNamesNothing = (before: TextToken, id: TextToken, after: TextToken | undefined) => before.pos === "VERB" && (id.pos !== "NUM" || (after?.pos === "NOUN" && after.lemma !== lower(after)));

/** Identifiers: a noun followed by a number or single capital ("Section B"), a glued form ("HW1"), or an ordinal before a noun ("the second midterm"). */
function requiredIds(tokens: TextToken[]): RequiredId[] {
  const out: RequiredId[] = [];
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    const ordinal = ordinalNumber(tokens, i);
    if (ordinal) out.push({ noun: next.lemma, id: ordinal, ordinal: true });
    // A name followed by "=" is a variable of an equation ("the demand curve Q = 100 − 2P"), not an identifier.
    else if (t.content && t.pos !== "NUM" && next && isIdToken(next) && !hasAlnumId(t) && !EQUATION_SIGN.test(tokens[i + 2]?.text ?? "") && !isQuantity(next, tokens[i + 2]) && !verbNamesNothing(t, next, tokens[i + 2]) && !opensCompound(next, tokens[i + 2], tokens[i + 3])) out.push({ noun: t.pos === "VERB" ? lower(t) : t.lemma, id: (next.pos === "NUM" ? next.lemma : next.text).toLowerCase() }); // a number's lemma keeps a letter written flush after it ("3B"); a gerund naming the item keeps its spelling ("Writing 2", not "write")
    else if (hasAlnumId(t) && t.type !== "number") {
      const m = t.text.toLowerCase().match(/^(\p{L}+)-?(\d+\p{L}?)$/u);
      if (m) out.push({ noun: m[1], id: m[2] });
    }
  });
  // A part's letter belongs to the numbered item named before it ("q1 pt b", "question 2 (b)").
  const words = tokens.map((t) => t.text.toLowerCase()).join(" ");
  const part = PART_ASKED.map((re) => re.exec(words)?.[1]).find(Boolean);
  const item = out.findLast((r) => /^\d+$/.test(r.id));
  if (part && item) item.part = part;
  return out;
}

/** A part named by its letter, over the question's tokens joined by spaces: "part b", "pt b", "(b)", "b)". */
const PART_ASKED = [/(?:^| )(?:part|pt)\.? \(? ?([a-h])(?: \))?(?= |$)/, /\( ([a-h]) \)/, /(?:^| )([a-h]) \)/];

interface Clause {
  from: number;
  to: number;
  /** The verbless phrase that frames the first question of the sentence ("in example 6", "at equal pressure"): it frames the later ones too. */
  frame?: { from: number; to: number };
  /** A noun phrase alone after ", and" that asks the clause before it again of another thing ("… for the bisque firing, and the glaze firing?"). */
  elliptic?: boolean;
}

const lower = (t: TextToken) => t.text.toLowerCase();
const isInterrogative = (t: TextToken | undefined) => !!t && INTERROGATIVES.has(lower(t));
const isAux = (t: TextToken | undefined) => !!t && t.pos === "AUX";
/** An interrogative at `i`, or one led by a preposition ("on which date …", "by when …", "for how long …"). */
const opensInterrogative = (tokens: TextToken[], i: number) => isInterrogative(tokens[i]) || (tokens[i]?.pos === "ADP" && isInterrogative(tokens[i + 1]));
const opensClause = (tokens: TextToken[], i: number) => {
  const t = tokens[i];
  if (!t) return false;
  if (opensInterrogative(tokens, i)) return true;
  // "…, and is it …": an auxiliary followed by its subject starts a yes/no question.
  if (isAux(t)) return ["PRON", "DET", "NOUN", "PROPN"].includes(tokens[i + 1]?.pos ?? "");
  return false;
};
const opensQuestion = (tokens: TextToken[], from: number) => {
  const at = tokens.findIndex((t, i) => i >= from && t.pos !== "SPACE" && t.pos !== "PUNCT" && !PART_CONNECTIVES.has(lower(t)));
  if (at < 0) return false;
  const first = tokens[at];
  return opensInterrogative(tokens, at) || isAux(first) || (first.pos === "VERB" && REQUEST_VERBS.has(first.lemma)) || SUBJECT_SWAP_OPENERS.some((o) => o.endsWith(lower(first)));
};

const isVerb = (t: TextToken) => t.pos === "VERB" || t.pos === "AUX";

/**
 * Whether the clause from `from` to `to` asks something, so that a connective after it starts a new
 * part. It holds a question after the phrase that frames it (`framedAt`, from framedQuestionAt), or opens one; or,
 * joined by a word rather than a bare comma, it is a noun phrase with no verb at all ("word count
 * for the essay and when is it due"), asked about in its own right. A clause that holds no
 * question sets up the one after it ("if I drain the field, how much …").
 */
function asksBefore(tokens: TextToken[], from: number, to: number, bareComma: boolean, framedAt: number): boolean {
  if (framedAt > from || opensQuestion(tokens, from)) return true;
  const words = tokens.slice(from, to);
  return !bareComma && !words.some(isVerb) && words.some((t) => t.content && isNounish(t));
}

/**
 * Where the question opens after a phrase that frames it, or -1: a phrase with no verb ("in
 * example 6 what is …", "at equal pressure is …"), or a clause closed by a comma ("if the kiln
 * cools, how long …"). The frame goes to the later parts of the sentence too.
 */
function framedQuestionAt(tokens: TextToken[], from: number, to: number): number {
  if (opensQuestion(tokens, from)) return -1;
  let clause = false;
  for (let k = from + 1; k < to; k++) {
    if (opensClause(tokens, k) && (!clause || tokens[k - 1].text === ",")) return k;
    clause ||= isVerb(tokens[k]);
  }
  return -1;
}

/** Hard segments (sentences, semicolons) and, inside them, a connective followed by a new interrogative clause. */
function clauses(question: string, tokens: TextToken[]): { asks: Clause[]; statements: Clause[] } {
  const segments: Clause[] = [];
  let from = 0;
  tokens.forEach((t, i) => {
    if (t.text === "?" || t.text === ";" || t.text === "!" || t.pos === "SPACE" || (t.text === "." && i === tokens.length - 1)) {
      if (i > from) segments.push({ from, to: i });
      from = i + 1;
    } else if (t.text === "." && tokens[i + 1] && /^\p{Lu}/u.test(tokens[i + 1].text)) {
      if (i > from) segments.push({ from, to: i });
      from = i + 1;
    }
  });
  if (from < tokens.length) segments.push({ from, to: tokens.length });
  const questionLike = (c: Clause) => question.slice(tokens[c.to - 1]?.end ?? 0).trimStart().startsWith("?") || opensQuestion(tokens, c.from);
  const anyQuestion = segments.some(questionLike);
  const asks: Clause[] = [];
  const statements: Clause[] = [];
  for (const seg of segments) {
    if (anyQuestion && !questionLike(seg)) {
      statements.push(seg);
      continue;
    }
    let start = seg.from;
    let frame: Clause["frame"];
    let isElliptic = false;
    for (let i = seg.from + 1; i < seg.to; i++) {
      if (!PART_CONNECTIVES.has(lower(tokens[i]))) continue;
      let n = i;
      while (n < seg.to && PART_CONNECTIVES.has(lower(tokens[n]))) n++;
      const bareComma = tokens.slice(i, n).every((t) => t.text === ",");
      // "what's the exit temperature in Q2, and the exit pressure?": a comma and "and" before a verbless noun phrase that ends the sentence, after a whole question.
      const rest = tokens.slice(n, seg.to);
      // A pronoun in it ("…, and her email?") points back instead: the part is read as written, about the nouns before it.
      const elliptic = n < seg.to && lower(tokens[i]) === "," && lower(tokens[n - 1]) === "and" && opensQuestion(tokens, start) && !rest.some((t) => isVerb(t) || t.pos === "PRON" || POSSESSIVE_DETERMINERS.has(lower(t))) && rest.some((t) => t.content && isNounish(t));
      if (n >= seg.to || (!elliptic && (!opensClause(tokens, n) || (bareComma && !isAux(tokens[n + 1]) && !isInterrogative(tokens[n]))))) continue;
      const left = tokens.slice(start, i).filter((t) => t.pos !== "PUNCT");
      if (left.length === 0) continue;
      // "If I drain the field, how much water comes out?", "In the example with $100 of income, how much x is bought?":
      // a clause that asks nothing of its own sets up the question after it.
      const framed = framedQuestionAt(tokens, start, i);
      if (!asksBefore(tokens, start, i, bareComma, framed)) continue;
      asks.push({ from: start, to: i, frame, elliptic: isElliptic });
      if (start === seg.from && framed > start) frame = { from: start, to: framed };
      start = n;
      isElliptic = elliptic;
      i = n - 1;
    }
    asks.push({ from: start, to: seg.to, frame, elliptic: isElliptic });
  }
  return { asks, statements };
}

/**
 * The head of the noun phrase that starts at `from`: its last noun. English compounds and
 * possessives put the head at the right ("the exam date", "BEE 4750's office hours").
 */
function phraseHead(words: readonly TextToken[], from: number): TextToken {
  let head = words[from];
  for (let k = from + 1; k < words.length; k++) {
    const t = words[k];
    if (isNounish(t)) head = t;
    else if (!(t.pos === "NUM" || (t.pos === "PART" && /^['’]s?$/i.test(t.text)))) break;
  }
  return head;
}

/**
 * The answer type a phrase's head names: "the number of seats" asks for a count, but a number named
 * by the noun before it ("locker number", "room number") is an identifier, unless that noun names a
 * value written in its own form ("phone number").
 */
function typeNamedBy(words: readonly TextToken[], head: TextToken): AnswerType | undefined {
  const type = TYPE_NOUNS.get(head.lemma);
  const modifier = words[words.indexOf(head) - 1];
  if (type !== "count" || !modifier || modifier.pos !== "NOUN" || !modifier.content) return type;
  return TYPE_NOUNS.get(modifier.lemma) === "phone" ? "phone" : "general";
}

/** The quantities "how much" may ask for. */
const MEASURES: ReadonlySet<AnswerType> = new Set(["money", "percent", "duration"]);

function answerTypeOf(tokens: TextToken[]): AnswerType {
  const words = tokens.filter((t) => t.pos !== "PUNCT" && !PART_CONNECTIVES.has(lower(t)));
  const i = words.findIndex(isInterrogative);
  if (i === -1) {
    if (words[0]?.pos === "VERB" && REQUEST_VERBS.has(words[0].lemma)) return REQUEST_VERBS.get(words[0].lemma)!;
    return isAux(words[0]) ? "yesno" : "general";
  }
  const wh = lower(words[i]);
  // "how is X defined", "how do you define X": a defining verb asks for the definition.
  if (wh === "how") {
    const degree = HOW_DEGREE.get(lower(words[i + 1] ?? words[i]));
    // "how much does it cost", "how much time": a word of the clause that names a measure says which quantity.
    if (degree === "amount") return words.slice(i + 2).map((t) => TYPE_NOUNS.get(t.lemma)).find((type) => type && MEASURES.has(type)) ?? degree;
    return degree ?? (words.slice(i + 1).some((t) => t.pos === "VERB" && t.lemma !== "be" && DEFINING_VERBS.has(t.lemma)) ? "definition" : "general");
  }
  // The head noun after the interrogative ("what year", "which room", "what is the deadline") may name the type.
  const first = words.slice(i + 1, i + 5).findIndex(isNounish) + i + 1;
  // "what's the lead TA for 141B's email", "what's course's email": the noun after a possessive is the one asked for, however the possessor is tagged.
  const possessed = words.findLastIndex((t, k) => k > i && t.pos === "PART" && /^['’]s?$/i.test(t.text) && isNounish(words[k + 1] ?? t));
  // Failing that, the interrogative's own noun: "what room is Dr Lee's office in" asks for a room, whatever the office is.
  const named =
    (possessed > i ? typeNamedBy(words, phraseHead(words, possessed + 1)) : undefined) ??
    (first > i && words.slice(i + 1, first).every((t) => t.pos === "AUX" || t.pos === "DET" || t.pos === "ADJ" || POSSESSIVE_DETERMINERS.has(lower(t))) ? typeNamedBy(words, phraseHead(words, first)) : undefined);
  if (named) return named;
  if (wh === "what" || wh === "which") {
    // "what is X" / "what are X" / "what does X mean" over a bare noun phrase asks for a definition.
    // "what exactly is X", "what actually is X": an adverb does not change what is asked.
    let after = i + 1;
    while (words[after]?.pos === "ADV") after++;
    const rest = words.slice(after);
    // A gerund names an activity ("what is clustering"): it is the thing to define, not a verb of the question.
    const verbs = rest.filter((t) => t.pos === "VERB" && t.lemma !== "mean" && !/ing$/i.test(t.text));
    if (isAux(rest[0]) && rest[0].lemma === "be" && verbs.length === 0 && rest.slice(1).some((t) => isNounish(t) || /ing$/i.test(t.text))) return "definition";
    if (rest.some((t) => t.lemma === "mean") && verbs.length === 0) return "definition";
  }
  return INTERROGATIVES.get(wh) ?? "general";
}

/**
 * A noun a demonstrative points at with nothing in the question to point back to ("the
 * prerequisite for this course", "the exam in this module"): the asker's situation, which every
 * page of the notes shares, not what the answer is about. Follow-up resolution has already put
 * an antecedent from the conversation in place of a bare pronoun.
 */
function situational(tokens: TextToken[]): Set<TextToken> {
  const out = new Set<TextToken>();
  tokens.forEach((t, i) => {
    // The tagger reads a demonstrative before a compound as a pronoun at times ("this/PRON reading group").
    if ((t.pos !== "DET" && t.pos !== "PRON") || !DEMONSTRATIVES.has(lower(t))) return;
    let j = i + 1;
    while (tokens[j]?.pos === "ADJ" || (tokens[j] && isNounish(tokens[j]) && tokens[j + 1] && isNounish(tokens[j + 1]))) j++;
    const head = tokens[j];
    // The phrase's head only ("this reading group" keeps "reading"), and not a possessor ("this course's textbook").
    if (head && isNounish(head) && tokens[j + 1]?.text !== "'s") out.add(head);
  });
  return out;
}

/**
 * A demonstrative before its noun ("this module", "those two slides") determines the noun, whatever
 * the tagger calls it (it reads "is this/PRON module" as a pronoun); only standing alone does it
 * point back to something named before.
 */
function determinesNoun(tokens: TextToken[], i: number): boolean {
  if (!ALL_DEMONSTRATIVES.has(lower(tokens[i]))) return false;
  let j = i + 1;
  while (tokens[j]?.pos === "ADJ" || tokens[j]?.pos === "NUM") j++;
  return !!tokens[j] && isNounish(tokens[j]) && tokens[j].content;
}

/** An adjective after a determiner with no noun after it heads its phrase as a noun does ("the final", "how much is the final worth"). */
const headsItsPhrase = (tokens: readonly TextToken[], i: number) =>
  tokens[i].pos === "ADJ" && !!tokens[i - 1] && (tokens[i - 1].pos === "DET" || POSSESSIVE_DETERMINERS.has(lower(tokens[i - 1]))) && !["NOUN", "PROPN", "NUM"].includes(tokens[i + 1]?.pos ?? "");

/**
 * A period heading the object of a time preposition, through "of" ("at the end of the semester",
 * "during the break"): an adjunct saying when, not the thing asked about. A period with an
 * identifier ("in week 5") or before another noun ("the midterm review") is neither.
 */
function framesTime(tokens: readonly TextToken[], i: number): boolean {
  const t = tokens[i];
  // A named day or month ("on saturdays", "in March") says which one, as a date would: it frames nothing (WordNet writes names capitalised).
  if (t.pos !== "NOUN" || !isTimeNoun(t.lemma) || !isCommonWord(t.lemma) || ["NOUN", "PROPN", "NUM"].includes(tokens[i + 1]?.pos ?? "")) return false;
  for (let j = i - 1; j >= 0; j--) {
    const p = tokens[j];
    if (p.pos === "ADP" && TIME_PREPOSITIONS.has(lower(p))) return true;
    if (!(p.pos === "DET" || p.pos === "ADJ" || p.pos === "NOUN" || POSSESSIVE_DETERMINERS.has(lower(p)) || (p.pos === "ADP" && lower(p) === "of"))) return false;
  }
  return false;
}

/**
 * A classifier noun heading the interrogative's phrase (only auxiliaries, determiners and
 * adjectives between them): a word for something ("what term describes …", "known by what name"),
 * or a kind followed by "of" or "for" ("which type of engine"; "which form do I sign" asks about a
 * form).
 */
function classifiesNext(tokens: readonly TextToken[], i: number): boolean {
  const t = tokens[i];
  if (!isNounish(t)) return false;
  const classifier = classifierOf(t.lemma);
  if (!classifier || (classifier === "kind" && !["of", "for"].includes(lower(tokens[i + 1] ?? t)))) return false;
  const wh = tokens.slice(0, i).findLastIndex(isInterrogative);
  return wh >= 0 && tokens.slice(wh + 1, i).every((p) => p.pos === "AUX" || p.pos === "DET" || p.pos === "ADJ" || !p.content);
}

const focusOf = (tokens: TextToken[]): FocusTerm[] => {
  const seen = new Set<string>();
  const out: FocusTerm[] = [];
  const setting = situational(tokens);
  // Only while another noun is asked about ("how does this attack work" is about the attack; "what year" names a type, not a subject).
  const others = tokens.filter((t) => t.content && !setting.has(t) && isNounish(t) && !TYPE_NOUNS.has(t.lemma));
  tokens.forEach((t, i) => {
    if (!t.content || seen.has(t.lemma)) return;
    if (setting.has(t) && others.length) return;
    // "what year", "how many": the type noun names the kind of answer, not its subject.
    if (TYPE_NOUNS.has(t.lemma) && tokens.slice(0, i).every((p) => !p.content)) return;
    // "what kind of plant", "another name for a cell": the classifier asks something of the noun after it, which is the subject.
    if (classifiesNext(tokens, i) && others.some((o) => o !== t)) return;
    if (t.pos === "VERB" && REQUEST_VERBS.has(t.lemma) && i === tokens.findIndex((p) => p.content)) return;
    if (HOW_DEGREE.has(lower(t))) return;
    // "what do we need to bring", "do I want to cite it": a verb that only takes the next one ("to bring") asks nothing itself.
    if (t.pos === "VERB" && tokens[i + 1]?.pos === "PART" && lower(tokens[i + 1]) === "to" && tokens[i + 2]?.pos === "VERB") return;
    seen.add(t.lemma);
    // An ordinal is met by its number ("Midterm 2") or as written ("the second midterm").
    const ordinal = ordinalNumber(tokens, i);
    if (ordinal) out.push({ lemma: ordinal, surface: lower(t), noun: true });
    else {
      const noun = isNounish(t) || t.pos === "NUM" || t.pos === "X" || headsItsPhrase(tokens, i);
      out.push(framesTime(tokens, i) ? { lemma: t.lemma, surface: lower(t), noun, frame: true } : { lemma: t.lemma, surface: lower(t), noun });
    }
  });
  return out;
};

const cleanAsk = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:.\-–—+&]*((and|or|also|plus|but|then|so)\b[\s,]*)*/i, "")
    .replace(/[\s?!.,;:]+$/, "")
    .trim();

/** Where the noun phrase of the noun at `at` starts: back over its adjectives, nouns and hyphened words, then to its determiner, every word between modifying the noun whatever the tagger calls it ("the back/ADV work/VERB ratio", "the fair-copy map"). */
function phraseStart(tokens: readonly TextToken[], at: number): number {
  let first = at;
  const hyphened = (k: number) => k > 1 && /^[-‐–]$/.test(tokens[k - 1].text) && tokens[k - 1].start === tokens[k - 2].end && tokens[k].start === tokens[k - 1].end;
  while (first > 0 && (tokens[first - 1].pos === "ADJ" || (tokens[first - 1].pos === "NOUN" && tokens[first - 1].content) || hyphened(first))) first -= hyphened(first) ? 2 : 1;
  let det = first;
  while (det > 0 && !["AUX", "ADP", "PUNCT", "PRON", "CCONJ", "SCONJ", "PART", "DET"].includes(tokens[det - 1].pos) && !POSSESSIVE_DETERMINERS.has(lower(tokens[det - 1]))) det--;
  return det < first && det > 0 && isDeterminer(tokens[det - 1]) ? det : first;
}

/** The noun phrases of a question, in order: runs of nouns and the words that join them ("late penalty", "Assignment 4", "policy on regrades"), and whether the head is plural. */
function nounPhrases(text: string): Array<{ text: string; plural: boolean }> {
  const { tokens } = annotate(text);
  const named = (t: TextToken, i: number) => t.content && !TYPE_NOUNS.has(t.lemma) && (isNounish(t) || hasAlnumId(t) || (t.pos !== "NUM" && isIdToken(tokens[i + 1] ?? t) && tokens[i + 1] !== undefined));
  const out: Array<{ text: string; plural: boolean }> = [];
  let i = tokens.findIndex(named);
  while (i >= 0 && i < tokens.length) {
    let last = i;
    let j = i + 1;
    for (; j < tokens.length; j++) {
      const t = tokens[j];
      // A number spelled out names its item as figures do ("module two").
      const id = isIdToken(t) || t.pos === "NUM";
      if (!(named(t, j) || id || t.pos === "ADJ" || t.pos === "ADP" || t.pos === "DET" || t.pos === "CCONJ")) break;
      if (named(t, j) || id) last = j;
    }
    const first = phraseStart(tokens, i);
    // The head: the last noun before any preposition ("policy" of "policy on regrades", "stars" of "K stars").
    const ofPhrase = tokens.slice(i, last + 1);
    const headEnd = ofPhrase.findIndex((t) => t.pos === "ADP");
    const head = (headEnd < 0 ? ofPhrase : ofPhrase.slice(0, headEnd)).filter((t) => isNounish(t)).at(-1);
    out.push({ text: text.slice(tokens[first].start, tokens[last].end), plural: !!head && lower(head) !== head.lemma && /s$/i.test(head.text) });
    const next = tokens.slice(j).findIndex(named);
    i = next < 0 ? -1 : j + next;
  }
  return out;
}

/**
 * A swapped-in phrase without its last prepositional phrase when that points back ("the bandwidth for that one",
 * "the deadline for it"): the thing pointed at is the previous question's, which keeps it; only the attribute is swapped.
 */
function withoutPointerBack(swapped: string): string {
  const words = annotate(swapped).tokens.filter((t) => t.pos !== "SPACE" && t.pos !== "PUNCT");
  const last = words.at(-1);
  const one = last && /^one$/i.test(last.text) ? words.at(-2) : undefined;
  const pointer = one ? (ALL_DEMONSTRATIVES.has(lower(one)) ? one : undefined) : last && ANAPHORS.has(lower(last)) && last.pos === "PRON" ? last : undefined;
  const adp = pointer ? words[words.indexOf(pointer) - 1] : undefined;
  return adp && adp.pos === "ADP" && words.indexOf(adp) > 0 ? swapped.slice(0, adp.start).trim() : swapped;
}

/**
 * A swapped-in phrase with its pro-form "one" written as the noun it stands for: the head of the
 * previous question's phrase ("the one for the raku workshop" after "… the wheel workshop journal" is
 * the journal for the raku workshop; "the second one" after "… the first critique" is the second critique). Only "one" after a determiner or
 * an adjective stands for a noun; after a noun it is a number ("question one").
 */
function withProFormNamed(swapped: string, prevPhrase: string): string {
  const words = annotate(swapped).tokens.filter((t) => t.pos !== "SPACE");
  const at = words.findIndex((t, i) => /^one$/i.test(t.text) && i > 0 && (words[i - 1].pos === "DET" || words[i - 1].pos === "ADJ") && !ALL_DEMONSTRATIVES.has(lower(words[i - 1])) && !isNounish(words[i + 1] ?? t));
  if (at < 0) return swapped;
  const prevWords = annotate(prevPhrase).tokens.filter((t) => t.pos !== "SPACE");
  const first = prevWords.findIndex(isNounish);
  if (first < 0) return swapped;
  const head = phraseHead(prevWords, first);
  return swapped.slice(0, words[at].start) + head.text + swapped.slice(words[at].end);
}

/** Whether a phrase is the one an interrogative determines ("which room", "how many marks"): it names what is asked, not what it is asked of. */
function asksWithPhrase(question: string, phrase: string): boolean {
  const at = question.indexOf(phrase);
  return at >= 0 && isInterrogative(annotate(question.slice(0, at)).tokens.filter((t) => t.pos !== "SPACE").at(-1));
}

/** The noun phrase a question asks for, after its interrogative and verb, up to the preposition that says what it is of ("the firing temperature" of "what is the firing temperature for the test tile"). */
function askedAttribute(question: string): { start: number; end: number } | null {
  const tokens = annotate(question).tokens.filter((t) => t.pos !== "SPACE");
  const wh = tokens.findIndex(isInterrogative);
  let from = wh + 1;
  while (tokens[from] && (isAux(tokens[from]) || tokens[from].pos === "PART")) from++;
  if (wh < 0 || !tokens[from] || !["DET", "ADJ", "NOUN", "PROPN"].includes(tokens[from].pos)) return null;
  const adp = tokens.findIndex((t, k) => k > from && t.pos === "ADP" && lower(t) !== "of");
  if (adp < 0 || !tokens.slice(from, adp).some(isNounish)) return null;
  return { start: tokens[from].start, end: tokens[adp - 1].end };
}

/**
 * The part of the previous question's phrase a swapped-in phrase stands for: the noun phrase,
 * before or after a preposition, it shares a word with ("the margin of error" for "the standard
 * error" in "the standard error in the battery example", keeping the example); else, or when the
 * swapped-in phrase brings its own preposition ("the policy on extensions"), the whole.
 */
function swappedPart(phrase: string, swapped: string): string {
  // "of" joins one noun phrase ("margin of error"); other prepositions attach another.
  const joins = (t: TextToken) => t.pos === "ADP" && lower(t) !== "of";
  if (annotate(swapped).tokens.some(joins)) return phrase;
  const { tokens } = annotate(phrase);
  const own = new Set(contentLemmas(swapped));
  const segments: Array<{ start: number; end: number; lemmas: string[] }> = [];
  for (const t of tokens) {
    if (joins(t) || !segments.length) segments.push({ start: joins(t) ? -1 : t.start, end: t.end, lemmas: [] });
    const last = segments[segments.length - 1];
    if (joins(t)) continue;
    if (last.start < 0) last.start = t.start;
    // A segment ends on its last noun or number ("unit two"): a word after it is a verb the tagger took for an adjective ("the tablet last(s) on …").
    if (isNounish(t) || isIdToken(t) || t.pos === "NUM" || last.end < last.start) last.end = t.end;
    if (t.content) last.lemmas.push(t.lemma);
  }
  const shared = segments.filter((g) => g.start >= 0 && g.lemmas.some((l) => own.has(l)));
  if (segments.length > 1 && shared.length === 1) return phrase.slice(shared[0].start, shared[0].end);
  // "the boiling point of water", then "what about ethanol?": a phrase sharing no word names another thing the attribute is of.
  const of = tokens.findIndex((t) => lower(t) === "of");
  if (!shared.length && of > 0 && tokens[of + 1]) return phrase.slice(tokens[of + 1].start, segments.find((g) => g.end >= tokens[of].end)!.end);
  // Sharing no word with any: the thing asked about, before the prepositional phrase that sets where or when ("the tablet … on standby").
  if (!shared.length && segments.length > 1) return phrase.slice(segments[0].start, segments[0].end);
  return phrase;
}

/**
 * A swapped-in phrase that opens with a preposition ("and in labs?", "what about during
 * reading week?") changes where or when, not what: it takes the place of the previous question's
 * phrase with the same preposition, else (unless `sameOnly`) its last prepositional phrase, else it is added.
 */
function swappedSetting(prev: string, swapped: string, sameOnly = false): { standalone: string; replaced: string } | null {
  const [opening] = annotate(swapped).tokens;
  const attaches = (t: TextToken) => t.pos === "ADP" && lower(t) !== "of";
  if (!opening || !attaches(opening)) return null;
  const tokens = annotate(prev).tokens;
  const same = tokens.findLastIndex((t) => attaches(t) && lower(t) === lower(opening));
  if (same < 0 && sameOnly) return null;
  const at = same >= 0 ? same : tokens.findLastIndex(attaches);
  const body = prev.replace(/[?.!\s]+$/, "");
  if (at < 0) return { standalone: `${body} ${swapped}?`, replaced: "" };
  let end = at;
  while (end + 1 < tokens.length && (["DET", "ADJ", "NOUN", "PROPN", "NUM"].includes(tokens[end + 1].pos) || isIdToken(tokens[end + 1]) || (lower(tokens[end + 1]) === "of" && end > at))) end++;
  const replaced = prev.slice(tokens[at].start, tokens[end].end);
  return { standalone: prev.slice(0, tokens[at].start) + swapped + prev.slice(tokens[end].end), replaced };
}

/**
 * What a how- or why-question asks about doing: its words after the interrogative, the auxiliary
 * and a pronoun subject ("calibrate a pyrometer …" of "how do I calibrate a pyrometer …"), or
 * null when it asks about no action (no verb but "be").
 */
function askedProcess(question: string): string | null {
  const { tokens } = annotate(question);
  const wh = tokens.findIndex(isInterrogative);
  if (wh < 0 || !["how", "why"].includes(lower(tokens[wh])) || !isAux(tokens[wh + 1])) return null;
  let from = wh + 2;
  if (tokens[from]?.pos === "PRON") from++;
  const rest = tokens.slice(from).filter((t) => t.pos !== "PUNCT");
  if (!rest.some((t) => t.pos === "VERB" && t.lemma !== "be")) return null;
  return question.slice(rest[0].start, rest.at(-1)!.end);
}

const isDeterminer = (t: TextToken) => t.pos === "DET" || POSSESSIVE_DETERMINERS.has(lower(t));

/** A capitalised word that is no common English word: a heading's "Information" names nobody, "Srikrishnan" or "Seth" does; a code with digits ("P3") names nobody either. */
export const isName = (t: TextToken) => /^\p{Lu}\P{N}*$/u.test(t.text) && !isCommonWord(t.text) && !isCommonWord(t.lemma);

/**
 * A word of a person's name: a name (isName) written in lower case after its capital, as names
 * are and codes ("PSC 318") are not; not cut short by a period, as titles, initials and degrees
 * are ("Dr.", "S.", "Ph.D"); and no date ("Mon", "Thu").
 */
const isPersonName = (t: TextToken, next: TextToken | undefined, dates: readonly EntitySpan[]) =>
  isName(t) && /\p{Ll}/u.test(t.text) && !t.text.endsWith(".") && !(next?.text === "." && next.start === t.end) && !dates.some((e) => e.start <= t.start && t.end <= e.end);

/**
 * The person an answer names first, as written ("Dr. Miriam Okonkwo-Hale" in "Instructor: Dr.
 * Miriam Okonkwo-Hale, Braddock 214"): the first line naming anyone decides, and it must name one
 * person only (the same name said twice, once with more words around it, is one); else null.
 */
export function personNamed(answer: string): string | null {
  for (const line of answer.split("\n")) {
    const people = peopleIn(line);
    if (people.length) return new Set(people.map((p) => [...p.words].sort().join(" "))).size === 1 ? people[0].text : null;
  }
  return null;
}

/** A title or initial cut short by a period is this long at most ("Dr.", "Prof.", "J."). */
const MAX_TITLE_LETTERS = 4;

/** The names of one line, each with its name words, a name inside a longer one left out. */
function peopleIn(line: string): Array<{ text: string; words: Set<string> }> {
  const { tokens, entities } = annotate(line);
  const dates = entities.filter((e) => e.type === "DATE" || e.type === "TIME");
  const named: Array<{ text: string; words: Set<string> }> = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].pos !== "PROPN" || !/^\p{Lu}/u.test(tokens[i].text)) continue;
    // A run of capitalised names, joined by hyphens or a title's or initial's period ("Dr. Miriam Okonkwo-Hale"); a longer word's period ends a sentence ("… in Leeds. Oduya …").
    let j = i;
    const joined = (k: number) => tokens[k + 1].text === "-" || (tokens[k + 1].text === "." && tokens[k].text.length <= MAX_TITLE_LETTERS);
    const joins = (k: number) => (/^\p{Lu}/u.test(tokens[k + 1].text) ? tokens[k + 1].pos === "PROPN" : joined(k) && /^\p{Lu}/u.test(tokens[k + 2]?.text ?? "") && tokens[k + 2].pos === "PROPN");
    while (j + 1 < tokens.length && joins(j)) j++;
    const run = tokens.slice(i, j + 1);
    const after = tokens[j + 1];
    // A name before a noun for a place names the place ("Larkin Building", "Fenwood Hall"), not a person.
    const place = !!after && after.pos === "NOUN" && after.start - run[run.length - 1].end <= 1 && isPlaceWord(after.lemma);
    const nameWords = place ? [] : run.filter((t, k) => isPersonName(t, tokens[i + k + 1], dates));
    // A title may open the name ("Ms", "Dr."); a word after its last name word is the next cell's ("Ms Ana Reyes Lab demonstrator").
    if (nameWords.length) named.push({ text: line.slice(run[0].start, nameWords[nameWords.length - 1].end), words: new Set(nameWords.map((t) => t.text)) });
    i = j;
  }
  const within = (a: Set<string>, b: Set<string>) => [...a].every((w) => b.has(w));
  return named.filter((p) => !named.some((q) => q !== p && within(q.words, p.words) && (q.words.size < p.words.size || q.text.length < p.text.length)));
}

/** A word: letters, digits, and the slash of "w/o". */
const WORD = /[\p{L}\p{N}/']+/gu;

/** Chat shorthand spelled out ("wat r the rules w/o notes" → "what are the rules without notes", "whats" → "what is"); "u" and "r" only where they stand for "you" and "are". */
export function spelledOut(question: string): string {
  const words = [...question.matchAll(WORD)];
  let out = "";
  let from = 0;
  words.forEach((m, i) => {
    const word = m[0].toLowerCase();
    const [previous, next] = [words[i - 1], words[i + 1]];
    const before = previous?.[0].toLowerCase();
    const after = next?.[0].toLowerCase();
    // Only a word standing alone between spaces or punctuation: "r=10" or "u-value" is no shorthand.
    const around = question.slice(previous ? previous.index + previous[0].length : 0, m.index) + question.slice(m.index + m[0].length, next?.index ?? question.length);
    const alone = !/[=+\-*^]/.test(around);
    // "whats", "hows", "thats": a contraction typed without its apostrophe.
    const contracted = word.endsWith("s") && CONTRACTS_IS.has(word.slice(0, -1)) ? `${m[0].slice(0, -1)} is` : undefined;
    const spelled =
      SHORTHAND.get(word) ??
      contracted ??
      (alone && word === "u" && (before === undefined || BEFORE_SHORT_YOU.has(before)) ? "you" : undefined) ??
      (alone && word === "r" && ((before !== undefined && BEFORE_SHORT_ARE.has(before)) || (after !== undefined && AFTER_SHORT_ARE.has(after))) ? "are" : undefined);
    if (spelled === undefined) return;
    out += question.slice(from, m.index) + spelled;
    from = m.index + m[0].length;
  });
  return out + question.slice(from);
}

/** The verb an enclitic after a pronoun stands for, by the lemma the tagger gave it ("'s" is "is" or "has"). */
const CLITIC_VERBS = new Map<string, (lemma: string) => string>([
  ["'s", (lemma) => (lemma === "have" ? "has" : "is")],
  ["'re", () => "are"],
  ["'ve", () => "have"],
  ["'ll", () => "will"],
  ["'d", (lemma) => (lemma === "have" ? "had" : "would")],
]);

/**
 * A follow-up made standalone from the previous question (oldest-first history) and, for "he" or
 * "her" after a who-question, the person its answer named. Only a pronoun with no antecedent in
 * the question itself, a subject swap ("what about X?") or a question with no subject at all
 * borrows from the conversation.
 */
export function resolveFollowUp(question: string, history: readonly string[], previousAnswer?: string): { standalone: string; resolution: Resolution } {
  const none = { standalone: question, resolution: { kind: "none" as const, reason: "stands on its own" } };
  const previous = history.at(-1);
  if (!previous) return none;
  const prev = resolveFollowUp(previous, history.slice(0, -1)).standalone;
  // A frame before the interrogative ("in Q3, what is …", "q5e what's …") says where the question is set, not what it asks about: a swap keeps it.
  const prevWords = annotate(prev).tokens;
  const wh = prevWords.findIndex(isInterrogative);
  const all = nounPhrases(prev);
  const asked = all.filter((p) => wh <= 0 || prev.indexOf(p.text) >= prevWords[wh].start);
  const phrases = asked.length ? asked : all;
  // The phrase the previous question is mainly about: its first, unless that is the interrogative's own ("how many marks is the essay worth", "which room is the lab in"): then the next.
  const prevPhrase = (phrases.length > 1 && asksWithPhrase(prev, phrases[0].text) ? phrases[1] : phrases[0])?.text;
  if (!prevPhrase) return none;
  const { tokens } = annotate(question);
  // "ok and at 2000 m?": an interjection before the opener says nothing of what is asked.
  const lead = tokens.findIndex((t) => t.pos !== "INTJ" && t.pos !== "PUNCT");
  const q = question.slice(lead > 0 ? tokens[lead].start : 0).trim();
  const opener = SUBJECT_SWAP_OPENERS.find((o) => q.toLowerCase().startsWith(o + " "));
  if (opener) {
    const asked = q.slice(opener.length).replace(/[?.!\s]+$/, "").trim();
    const swapped = withProFormNamed(withoutPointerBack(asked), prevPhrase);
    const swappedIn = (standalone: string, replaced: string) => ({ standalone, resolution: { kind: "subject_swap" as const, reason: `“${swapped}” takes the place of “${replaced}” in the previous question` } });
    if (swapped && !annotate(swapped).tokens.some((t) => t.pos === "VERB" || t.pos === "AUX")) {
      // "and the soak time for that one?": the attribute asked before gives way; what it was of stays.
      const attribute = swapped !== asked ? askedAttribute(prev) : null;
      if (attribute) return swappedIn(prev.slice(0, attribute.start) + swapped + prev.slice(attribute.end), prev.slice(attribute.start, attribute.end));
      // "and for the exam?" after "… the late penalty for essays": the opener's preposition opens the swapped-in phrase, when nothing else in it matches.
      const via = opener.endsWith(" for") && !contentLemmas(swapped).some((l) => contentLemmas(prevPhrase).includes(l)) ? "for " : "";
      const setting = swappedSetting(prev, via + swapped, !!via);
      if (setting) return swappedIn(setting.standalone, setting.replaced);
      // "and the glaze firing?" after "… the soak time for the bisque firing …": the phrase with the same head noun is the one it stands for.
      const head = headLemmaOf(swapped);
      const parallel = (head && phrases.find((p) => contentLemmas(p.text).includes(head))?.text) ?? prevPhrase;
      const replaced = swappedPart(parallel, swapped);
      const at = prev.indexOf(replaced);
      // "the margin of error" after "what's the …": one determiner, not two.
      const before = annotate(prev.slice(0, at)).tokens.at(-1);
      const [opening] = annotate(swapped).tokens;
      const doubled = before && opening && isDeterminer(before) && isDeterminer(opening);
      const standalone = prev.slice(0, at) + (doubled ? swapped.slice(opening.end).trimStart() : swapped) + prev.slice(at + replaced.length);
      return swappedIn(standalone, replaced);
    }
  }
  const anaphors = tokens.flatMap((t, i) => (ANAPHORS.has(lower(t)) && (t.pos === "PRON" || t.pos === "DET") && !determinesNoun(tokens, i) ? [i] : []));
  // "where do they store it" after "… the raku kiln shelf": "they" (whoever stores it) agrees with no phrase asked about; "it" does.
  const idx = anaphors.find((i) => !PLURAL_PRONOUNS.has(lower(tokens[i])) || phrases.some((p) => p.plural)) ?? anaphors[0] ?? -1;
  // "that one", "this one": the pro-form stands for a thing of the kind talked about before, never for a noun of the same question.
  const proForm = idx !== -1 && ALL_DEMONSTRATIVES.has(lower(tokens[idx])) && /^ones?$/i.test(tokens[idx + 1]?.text ?? "");
  // A pronoun whose antecedent is a noun earlier in the same question refers to that noun, not to the previous turn: a noun
  // that agrees with it in number ("you students" is no antecedent of "it"), and not the noun it complements ("a diagram of that").
  const pluralPronoun = idx !== -1 && PLURAL_PRONOUNS.has(lower(tokens[idx]));
  const agrees = (t: TextToken) => PERSONAL_PRONOUNS.has(lower(tokens[idx])) || (lower(t) !== t.lemma && /s$/i.test(t.text)) === pluralPronoun;
  const complemented = idx > 1 && tokens[idx - 1].pos === "ADP" ? idx - 2 : -1;
  const antecedent = !proForm && idx > 0 && tokens.slice(0, idx).some((t, k) => t.content && isNounish(t) && agrees(t) && k !== complemented);
  if (idx !== -1 && !antecedent) {
    const t = proForm ? { ...tokens[idx], text: question.slice(tokens[idx].start, tokens[idx + 1].end), end: tokens[idx + 1].end } : tokens[idx];
    // "her office", "her drop-in desk": "her" before the noun phrase it determines.
    const determines = (k: number) => isNounish(tokens[k] ?? t) || (!!tokens[k]?.content && isNounish(tokens[k + 1] ?? t));
    const possessive = lower(t) === "its" || lower(t) === "their" || lower(t) === "his" || (lower(t) === "her" && determines(idx + 1));
    const asked = (s: string) => (possessive ? `${s}'s` : s);
    // "it's late" → "the journal is late": a verb cliticised on the pronoun is written out, or it would read as a possessive.
    const clitic = proForm ? undefined : tokens[idx + 1];
    const full = clitic && clitic.start === t.end && clitic.pos === "AUX" ? CLITIC_VERBS.get(clitic.text.replace("’", "'").toLowerCase())?.(clitic.lemma) : undefined;
    const rest = full ? ` ${full}${question.slice(clitic!.end)}` : question.slice(t.end);
    const person = PERSONAL_PRONOUNS.has(lower(t)) && previousAnswer && requestedParts(prev).parts.some((p) => p.answerType === "person") ? personNamed(previousAnswer) : null;
    if (person) return { standalone: question.slice(0, t.start) + asked(person) + rest, resolution: { kind: "pronoun", reason: `“${t.text}” refers to ${person}, whom the previous answer named` } };
    // "they" stands for a plural phrase, "it" for a singular one: the first of the previous question's that agrees ("K stars", not "colour", in "what colour are K stars").
    const plural = PLURAL_PRONOUNS.has(lower(t));
    // "a sketch of that", "why does that work": "that" or "this" alone points at what the previous question asked how or why to do, not at one of its nouns.
    const process = !proForm && (lower(t) === "that" || lower(t) === "this") ? askedProcess(prev) : null;
    const phrase = process ?? (PERSONAL_PRONOUNS.has(lower(t)) ? prevPhrase : (phrases.find((p) => p.plural === plural)?.text ?? prevPhrase));
    // "it" and "they" point at a thing, not at what was asked of it: "the max height of the ball" then "how far does it go" is about the ball.
    const referent = process || PERSONAL_PRONOUNS.has(lower(t)) || ALL_DEMONSTRATIVES.has(lower(t)) ? phrase : thingOf(phrase);
    const standalone = question.slice(0, t.start) + asked(referent) + rest;
    return { standalone, resolution: { kind: "pronoun", reason: `“${t.text}” refers to “${referent}” from the previous question` } };
  }
  // "the gas ones", "the rescheduled one": "one" heading its own modifiers stands for the thing asked about before.
  const one = tokens.findIndex((t, i) => /^ones?$/i.test(t.text) && i > 0 && ["DET", "ADJ", "NOUN", "PROPN", "VERB", "ADP"].includes(tokens[i - 1].pos) && !isNounish(tokens[i + 1] ?? t));
  if (one > 0) {
    const referent = (lower(tokens[one]) === "ones" ? phrases.find((p) => p.plural)?.text : undefined) ?? prevPhrase;
    const standalone = question.slice(0, tokens[one].start) + referent + question.slice(tokens[one].end);
    return { standalone, resolution: { kind: "pronoun", reason: `“${tokens[one].text}” stands for “${referent}” from the previous question` } };
  }
  // "that week", "the same example": a demonstrative before a noun heading a phrase of the previous question points at that phrase ("the moral luck week").
  const pointed = tokens.findIndex((t, i) => ALL_DEMONSTRATIVES.has(lower(t)) && !!tokens[i + 1] && isNounish(tokens[i + 1]) && !isNounish(tokens[i + 2] ?? t));
  const named = pointed >= 0 ? modifiedIn(prevWords, tokens[pointed + 1].lemma) : null;
  if (named) {
    const phrase = prev.slice(named.start, named.end);
    const standalone = `${question.slice(0, tokens[pointed].start)}the ${phrase}${question.slice(tokens[pointed + 1].end)}`;
    return { standalone, resolution: { kind: "pronoun", reason: `“${question.slice(tokens[pointed].start, tokens[pointed + 1].end)}” points at “${phrase}” from the previous question` } };
  }
  const body = question.replace(/[?.!\s]+$/, "");
  if (!tokens.some((t) => t.content && (isNounish(t) || hasAlnumId(t)) && !TYPE_NOUNS.has(t.lemma))) {
    return { standalone: `${body} (${prevPhrase})?`, resolution: { kind: "ellipsis", reason: `no subject of its own: “${prevPhrase}” from the previous question` } };
  }
  // "and what is the glaze for tile B?" after "… of tile A in example 2.3": a question that goes on from the last keeps the numbered things it named.
  const own = new Set(numberedIn(tokens).map((n) => n.noun));
  const kept = /^(and|also|plus)\b/i.test(q) ? numberedIn(annotate(prev).tokens).filter((n) => !own.has(n.noun)) : [];
  if (kept.length) {
    const named = kept.map((n) => n.text).join(", ");
    return { standalone: `${body} (${named})?`, resolution: { kind: "ellipsis", reason: `goes on from the previous question: “${named}” from it` } };
  }
  return none;
}

/** Where a noun with this lemma stands in a question with the words that modify it ("moral luck week" of "… for the moral luck week?"), or null when it stands bare or not at all. */
function modifiedIn(words: readonly TextToken[], lemma: string): { start: number; end: number } | null {
  const at = words.findIndex((t) => t.lemma === lemma && isNounish(t));
  const from = at > 0 ? phraseStart(words, at) : at;
  return at > 0 && from < at ? { start: words[from].start, end: words[at].end } : null;
}

/** The lemma of a noun phrase's head: its last noun before any preposition ("firing" of "the glaze firing in kiln 2"). */
function headLemmaOf(phrase: string): string | undefined {
  const words = annotate(phrase).tokens;
  const adp = words.findIndex((t) => t.pos === "ADP");
  return (adp < 0 ? words : words.slice(0, adp)).filter(isNounish).at(-1)?.lemma;
}

/**
 * What an attribute phrase is of ("the ball in problem 6" of "max height of the ball in problem 6",
 * "week 3" of "the topic of week 3"); the phrase itself when it names no attribute of a thing. A
 * bare noun after "of" is part of one name ("margin of error").
 */
function thingOf(phrase: string): string {
  const tokens = annotate(phrase).tokens;
  const of = tokens.findIndex((t, k) => lower(t) === "of" && tokens.slice(0, k).some(isNounish));
  const next = tokens[of + 1];
  const thing = of > 0 && next && (isDeterminer(next) || next.pos === "PROPN" || (isNounish(next) && tokens[of + 2]?.pos === "NUM"));
  return thing ? phrase.slice(next.start) : phrase;
}

/** Numbered things a question names: a noun and the number after it ("example 2.3", "session 4"). */
function numberedIn(tokens: readonly TextToken[]): Array<{ noun: string; text: string }> {
  return tokens.flatMap((t, i) => (t.content && isNounish(t) && tokens[i + 1]?.pos === "NUM" ? [{ noun: t.lemma, text: `${t.text} ${tokens[i + 1].text}` }] : []));
}

/** A part takes focus words it lacks, marked borrowed, and the identifiers when it names none of its own. */
function borrow(part: { focus: FocusTerm[]; required: RequiredId[] }, focus: readonly FocusTerm[], required: RequiredId[]): void {
  const have = new Set(part.focus.map((f) => f.lemma));
  part.focus = [...part.focus, ...focus.filter((f) => !have.has(f.lemma)).map((f) => ({ ...f, borrowed: true }))];
  if (part.required.length === 0) part.required = required;
}

/** The requested parts of a standalone question, in order; elliptical parts and pronouns borrow from the part before. */
export function requestedParts(question: string): { parts: RequestedPart[]; context: string[] } {
  const { tokens } = annotate(question);
  const { asks, statements } = clauses(question, tokens);
  const written = (c: Clause) => cleanAsk(question.slice(tokens[c.from]?.start ?? 0, tokens[c.to - 1]?.end ?? 0));
  const asked: string[] = [];
  const drafts = asks
    .map((c, k) => {
      // An elliptic part is the part before it asked again of its own noun phrase, as a follow-up "and the …?" would be.
      const ask = c.elliptic && k > 0 ? cleanAsk(resolveFollowUp(`and ${written(c)}`, [asked[k - 1]]).standalone) : written(c);
      asked.push(ask);
      const own = c.elliptic && k > 0 ? annotate(ask).tokens : tokens.slice(c.from, c.to);
      const draft = { ask, own, focus: focusOf(own), answerType: answerTypeOf(own), required: requiredIds(own) };
      if (c.frame) {
        const frame = tokens.slice(c.frame.from, c.frame.to);
        borrow(draft, focusOf(frame), requiredIds(frame));
      }
      return draft;
    })
    .filter((d) => /[\p{L}\p{N}]/u.test(d.ask));
  // "where and when does the choir rehearse": a bare interrogative shares the next part's clause.
  drafts.forEach((d, i) => {
    const next = drafts[i + 1];
    if (next && d.own.filter((t) => t.pos !== "PUNCT").length === 1 && isInterrogative(d.own.find((t) => t.pos !== "PUNCT"))) {
      const clauseStart = next.own.findIndex(isInterrogative) + 1;
      const shared = next.own.slice(clauseStart);
      if (shared.length) {
        d.ask = cleanAsk(`${d.ask} ${question.slice(shared[0].start, shared.at(-1)!.end)}`);
        d.focus = focusOf(shared);
        d.required = requiredIds(shared);
      }
    }
  });
  // Within the question: a part with no noun of its own, or with a pronoun, is about the nouns of the part before it.
  drafts.forEach((d, i) => {
    const donor = drafts.slice(0, i).reverse().find((o) => o.focus.some((f) => f.noun)) ?? (i === 0 ? drafts.slice(1).find((o) => o.focus.some((f) => f.noun)) : undefined);
    if (!donor) return;
    const pronoun = d.own.some((t, j) => ANAPHORS.has(lower(t)) && t.pos === "PRON" && !determinesNoun(d.own, j));
    if (pronoun || !d.focus.some((f) => f.noun)) borrow(d, donor.focus.filter((f) => f.noun), donor.required);
  });
  const context = [...new Set(statements.flatMap((c) => tokens.slice(c.from, c.to).filter((t) => t.content).map((t) => t.lemma)))];
  const partTerms = (focus: FocusTerm[]) => [...new Set(focus.flatMap((f) => [f.surface, f.lemma, ...compoundsOf(f.lemma, f.noun)]).filter((w) => /^[\p{L}\p{N}]+$/u.test(w)))];
  return { parts: drafts.map(({ ask, answerType, focus, required }) => ({ ask, answerType, focus, required, searchTerms: partTerms(focus) })), context };
}

/** Closed compounds searched for a noun: "book" finds the "Textbook" heading, which FTS5 reads as another word. */
const MAX_COMPOUNDS = 12;
const compoundsOf = (lemma: string, noun: boolean) => (noun ? closedCompoundsOf(lemma).slice(0, MAX_COMPOUNDS) : []);

/** Unstemmed words to search for: the question's content words, their lemmas where they differ, and the closed compounds that are kinds of its nouns. */
function searchTermsOf(text: string): string[] {
  const out = new Set<string>();
  for (const t of annotate(text).tokens) {
    if (!t.content) continue;
    out.add(lower(t));
    if (/^[\p{L}\p{N}]+$/u.test(t.lemma)) out.add(t.lemma);
    for (const c of compoundsOf(t.lemma, isNounish(t))) out.add(c);
  }
  return [...out];
}

/**
 * The whole analysis of a question in its conversation (history oldest first); `rewritten` is a
 * model's standalone rewrite, when there is one; `previousAnswer` is the text of the last answer.
 */
export function analyzeQuestion(question: string, history: readonly string[] = [], { rewritten, previousAnswer }: { rewritten?: string; previousAnswer?: string } = {}): QuestionAnalysis {
  const { standalone, resolution } =
    rewritten !== undefined && rewritten.trim() !== question.trim()
      ? { standalone: rewritten, resolution: { kind: "model" as const, reason: "rewritten by the model from the conversation" } }
      : resolveFollowUp(spelledOut(question), history.map(spelledOut), previousAnswer);
  const { parts, context } = requestedParts(standalone);
  return { question, standalone, resolution, parts, context, searchTerms: searchTermsOf(standalone) };
}
