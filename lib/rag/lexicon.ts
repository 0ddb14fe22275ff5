/**
 * What no library gives the answerer: how English questions name the kind of answer they want.
 * Every entry is a general rule of the language with its reason, never a word taken from an
 * evaluation question. Tokens, lemmas, parts of speech and entity types come from wink-nlp
 * (text/nlp.ts); related words from WordNet (text/wordnet.ts).
 */

/** The kinds of answer a requested part can ask for. Entity-backed kinds map to wink entity types in extractive/features.ts. */
export type AnswerType =
  | "date"
  | "time"
  | "duration"
  | "percent"
  | "money"
  | "count"
  | "amount"
  | "email"
  | "phone"
  | "url"
  | "person"
  | "place"
  | "definition"
  | "reason"
  | "yesno"
  | "general";

// ─── Closed classes (grammar words: stopwords by nature, listed because they steer parsing) ────

/** Interrogative words open a question clause; each implies an answer type unless its head noun says otherwise. */
export const INTERROGATIVES: ReadonlyMap<string, AnswerType> = new Map([
  ["what", "general"],
  ["which", "general"],
  ["when", "date"],
  ["where", "place"],
  ["who", "person"],
  ["whom", "person"],
  ["whose", "person"],
  ["why", "reason"],
  ["how", "general"],
]);

/** "how" + a degree word asks for a measure; the word after "how" decides which. */
export const HOW_DEGREE: ReadonlyMap<string, AnswerType> = new Map([
  ["many", "count"],
  ["much", "amount"],
  ["long", "duration"],
  ["often", "duration"],
]);

/** Proximal demonstratives: "this course" with no antecedent points at the asker's own situation. */
export const DEMONSTRATIVES: ReadonlySet<string> = new Set(["this", "these"]);

/** Demonstratives, near and far: before a noun they determine it ("that week"); standing alone they point back ("what does that mean?"). */
export const ALL_DEMONSTRATIVES: ReadonlySet<string> = new Set([...DEMONSTRATIVES, "that", "those"]);

/** Third-person pronouns and demonstratives that point back to something named earlier. */
export const ANAPHORS: ReadonlySet<string> = new Set(["it", "its", "they", "them", "their", "this", "that", "these", "those", "he", "him", "his", "she", "her"]);

/** Pronouns that stand for more than one thing: their antecedent is a plural noun phrase. Reason: closed class. */
export const PLURAL_PRONOUNS: ReadonlySet<string> = new Set(["they", "them", "their", "these", "those"]);

/** Pronouns that stand for a person, never for a course or a thing: after "who teaches it?", "her office" is the person the answer named. Reason: closed class. */
export const PERSONAL_PRONOUNS: ReadonlySet<string> = new Set(["he", "him", "his", "she", "her"]);

/** Possessive determiners: they determine the noun after them ("what is his email") as "the" does. Reason: closed class. */
export const POSSESSIVE_DETERMINERS: ReadonlySet<string> = new Set(["my", "your", "his", "her", "its", "our", "their"]);

/** Openers of an elliptical follow-up that swaps the subject of the previous question ("what about X?"). */
export const SUBJECT_SWAP_OPENERS: readonly string[] = ["and what about", "and how about", "what about", "how about", "same for", "and for", "and"];

/** Connectives that can start a new requested part when an interrogative follows them; "+" and "&" are "and" as typed in a hurry. */
export const PART_CONNECTIVES: ReadonlySet<string> = new Set(["and", "or", "but", "also", "plus", "then", ",", "+", "&"]);

/** The two words whose WordNet synonyms mark where a working concludes: a connective ("therefore", "hence", "so") opening the line, or a label naming its outcome ("Answer:", "Result:", "Solution:"). Reason: closed class (seeds; extractive/features.ts `concludes` widens them). */
export const CONCLUSION_SEEDS = { connective: "therefore", label: "answer" } as const;

/** Causal connectives: a sentence that gives a reason usually contains one of them. */
export const REASON_MARKERS: ReadonlySet<string> = new Set(["because", "since", "so", "therefore", "thus", "hence", "order", "due", "reason", "purpose", "cause", "allow", "enable", "prevent", "avoid", "ensure"]);

/** Prepositions of place: "in the kitchen bins", "at the front desk" say where, as a name does. */
export const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(["in", "at", "on", "inside", "outside", "near", "behind", "beside", "under", "above", "below", "beneath"]);

/** Prepositions of time: "at the end of the term", "during the break" place the answer in a period. */
export const TIME_PREPOSITIONS: ReadonlySet<string> = new Set(["at", "in", "on", "during", "by", "before", "after", "until", "till", "within", "throughout", "over"]);

/**
 * Chat shorthand for grammar words, as students type it ("wat r the rules", "w/o a penalty"), with
 * the word it stands for. Reason: read as written, each becomes a focus term ("r" is a radius to
 * WordNet); spelled out, each is the stopword it is.
 */
export const SHORTHAND: ReadonlyMap<string, string> = new Map([
  ["wat", "what"],
  ["wut", "what"],
  ["ur", "your"],
  ["w/", "with"],
  ["w/o", "without"],
  ["b/c", "because"],
  ["cuz", "because"],
  ["thru", "through"],
  ["abt", "about"],
  ["pls", "please"],
  ["plz", "please"],
]);

/** "u" and "r", which are also variables ("r = 10", "the u value"), stand for "you" and "are" only after these words, or "r" before a determiner or pronoun ("r the", "r we"). Reason: closed classes (auxiliaries, modals, interrogatives; determiners and pronouns). */
export const BEFORE_SHORT_YOU: ReadonlySet<string> = new Set(["can", "could", "do", "did", "does", "will", "would", "should", "are", "r", "have", "if", "when", "thank"]);
export const BEFORE_SHORT_ARE: ReadonlySet<string> = new Set(["what", "wat", "when", "where", "who", "how", "which", "why", "there", "they", "we", "you", "u"]);
export const AFTER_SHORT_ARE: ReadonlySet<string> = new Set(["the", "a", "an", "we", "you", "u", "they", "there", "my", "our", "your", "ur", "these", "those", "i", "all", "any", "some"]);

/** Words whose "'s" a student may type without the apostrophe ("whats", "thats"): interrogatives, and the demonstrative or existential before "is" ("its" is a possessive). Reason: closed classes. */
export const CONTRACTS_IS: ReadonlySet<string> = new Set([...INTERROGATIVES.keys(), "that", "there", "here"]);

/** Verbs a definition is stated with ("X is …", "X refers to …", "X means …", "X denotes …"). */
export const DEFINING_VERBS: ReadonlySet<string> = new Set(["be", "refer", "mean", "denote", "define", "describe", "represent", "call", "know"]);

// ─── Open class: nouns that name the kind of answer ("what time", "which year") ───────────────

/**
 * A head noun of a wh-question that names the answer's type rather than its subject: "what
 * year…" wants a date, "what percentage…" a percentage. Reason: these nouns denote the measure
 * or the format itself.
 */
export const TYPE_NOUNS: ReadonlyMap<string, AnswerType> = new Map([
  ["year", "date"],
  ["date", "date"],
  ["day", "date"],
  ["month", "date"],
  ["century", "date"],
  ["decade", "date"],
  ["deadline", "date"],
  ["time", "time"],
  ["hour", "time"],
  ["percentage", "percent"],
  ["percent", "percent"],
  ["proportion", "percent"],
  ["fraction", "percent"],
  ["share", "percent"],
  ["price", "money"],
  ["cost", "money"],
  ["fee", "money"],
  ["email", "email"],
  ["address", "email"],
  ["phone", "phone"],
  ["telephone", "phone"],
  ["website", "url"],
  ["url", "url"],
  ["link", "url"],
  ["number", "count"],
  ["duration", "duration"],
  ["length", "duration"],
  ["location", "place"],
  ["place", "place"],
  ["room", "place"],
  ["city", "place"],
  ["country", "place"],
  ["person", "person"],
]);

/** Imperatives that ask a question ("Define X", "Explain Y", "List Z"): they open a part like an interrogative. Reason: a request verb in the base form at the start is a command, not a statement. */
export const REQUEST_VERBS: ReadonlyMap<string, AnswerType> = new Map([
  ["define", "definition"],
  ["explain", "general"],
  ["describe", "general"],
  ["list", "general"],

  ["state", "general"],
  ["summarize", "general"],
  ["summarise", "general"],
  ["compare", "general"],
  ["tell", "general"],
]);

/** Every open-class entry, for the test that no entry is also a stopword (a stopword entry would never match a content token). */
export const openClassEntries = (): string[] => [...TYPE_NOUNS.keys(), ...REQUEST_VERBS.keys()];

/** Cardinal numbers written as words, with their digits: "three days" states what "3 days" asks. Reason: closed class; wink tags them NUM but leaves them as words on its stop list. "one" is left out: mostly a pronoun ("one of", "the one that"). */
export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(
  ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
    .map((w, i): [string, string] => [w, String(i + 2)])
    .concat(["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"].map((w, i): [string, string] => [w, String((i + 3) * 10)])),
);
