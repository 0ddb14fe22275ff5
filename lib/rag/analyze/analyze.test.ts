import { describe, expect, it } from "vitest";
import { analyzeQuestion, personNamed, requestedParts, resolveFollowUp, spelledOut } from "./analyze";

const lemmas = (focus: Array<{ lemma: string }>) => focus.map((f) => f.lemma);

describe("requestedParts: splitting a question into parts", () => {
  it("splits 'What is X, and when is Y due?' into two parts with their own focus and type", () => {
    const { parts } = requestedParts("What is the attendance policy, and when is the poster due?");
    expect(parts.map((p) => p.ask)).toEqual(["What is the attendance policy", "when is the poster due"]);
    expect(parts.map((p) => p.answerType)).toEqual(["definition", "date"]);
    expect(lemmas(parts[0].focus)).toEqual(["attendance", "policy"]);
    expect(lemmas(parts[1].focus)).toEqual(["poster", "due"]);
    expect(parts[1].focus.some((f) => f.borrowed)).toBe(false);
  });

  it("splits where a preposition leads the next interrogative ('…, and in which room …')", () => {
    const { parts } = requestedParts("Who grades the essays, and in which room are they handed in?");
    expect(parts.map((p) => p.ask)).toEqual(["Who grades the essays", "in which room are they handed in"]);
    expect(parts[1].answerType).toBe("place");
  });

  it("reads 'what share of …' as a request for a percentage", () => {
    expect(requestedParts("What share of the mark comes from the poster?").parts[0].answerType).toBe("percent");
  });

  it("keeps a one-part question whole", () => {
    const { parts } = requestedParts("When does the library close?");
    expect(parts).toHaveLength(1);
    expect(parts[0].ask).toBe("When does the library close");
  });

  it("gives a bare interrogative the clause of the next part ('where and when …')", () => {
    const { parts } = requestedParts("where and when do the seminars take place");
    expect(parts.map((p) => p.ask)).toEqual(["where do the seminars take place", "when do the seminars take place"]);
    expect(parts.map((p) => p.answerType)).toEqual(["place", "date"]);
    for (const p of parts) expect(lemmas(p.focus)).toContain("seminar");
  });

  it("turns the statements around a question into context, not parts", () => {
    const { parts, context } = requestedParts("I was sick last Monday. My doctor wrote a note. Can I make up the missed quiz?");
    expect(parts).toHaveLength(1);
    expect(parts[0].ask).toBe("Can I make up the missed quiz");
    expect(parts[0].answerType).toBe("yesno");
    expect(lemmas(parts[0].focus)).toContain("quiz");
    expect(lemmas(parts[0].focus)).not.toContain("doctor");
    expect(context).toEqual(expect.arrayContaining(["sick", "monday", "doctor", "write", "note"]));
    expect(context).not.toContain("quiz");
  });
});

describe("requestedParts: answer types", () => {
  const typeOf = (q: string) => requestedParts(q).parts[0].answerType;

  it.each([
    ["When does the library close?", "date"],
    ["How many credits is the thesis worth?", "count"],
    ["What percentage of the mark comes from homework?", "percent"],
    ["Who grades the essays?", "person"],
    ["Define recursion.", "definition"],
    ["How is a leap year defined?", "definition"],
    ["How is the thesis graded?", "general"],
    ["Is the final exam open book?", "yesno"],
    ["Where is the chemistry building?", "place"],
    ["What time does the gym open?", "time"],
    // The head of a compound or possessive noun phrase is its last noun.
    ["What is the field trip date?", "date"],
    ["When are the pottery studio's opening hours?", "time"],
    ["What is the museum's entry fee?", "money"],
    // "how much" asks for the quantity a word of its clause names, a sum when it costs.
    ["How much does a replacement locker key cost?", "money"],
    ["How much water does the kiln use?", "amount"],
    ["What time zone does the observatory log in?", "general"],
    // An adverb between the interrogative and "is" leaves a definition question one.
    ["What exactly is a sonnet?", "definition"],
    ["What actually is photosynthesis?", "definition"],
  ])("%s → %s", (question, type) => {
    expect(typeOf(question)).toBe(type);
  });

  it("drops the type noun and the degree word from the focus", () => {
    const [part] = requestedParts("What percentage of the mark comes from homework?").parts;
    expect(lemmas(part.focus)).not.toContain("percentage");
    const [count] = requestedParts("How many credits is the thesis worth?").parts;
    expect(lemmas(count.focus)).toEqual(["credit", "thesis", "worth"]);
  });

  it("drops a classifier heading the interrogative's phrase ('what sort of glaze'), keeping the noun it classifies", () => {
    expect(lemmas(requestedParts("What sort of glaze is fired in the kiln?").parts[0].focus)).toEqual(["glaze", "fire", "kiln"]);
    expect(lemmas(requestedParts("What is another word for a kiln shelf?").parts[0].focus)).toEqual(["kiln", "shelf"]);
    // A word for something needs no "of": "what term describes X" asks for the term.
    expect(lemmas(requestedParts("What term describes a kiln with two chambers?").parts[0].focus)).toEqual(["describe", "kiln", "chamber"]);
    // Not heading the interrogative's phrase, or followed by no "of"/"for": the noun is asked about.
    expect(lemmas(requestedParts("Which glaze is the sort of blue the potter wants?").parts[0].focus)).toContain("sort");
    expect(lemmas(requestedParts("Which form do I sign for the kiln?").parts[0].focus)).toContain("form");
    // Alone it is the subject: "what sort is it" has nothing else to ask about.
    expect(lemmas(requestedParts("What sort is best?").parts[0].focus)).toContain("sort");
  });

  it("drops a verb that only takes the next one ('need to bring'), but not a verb asked about", () => {
    expect(lemmas(requestedParts("what do we need to bring to the kiln room").parts[0].focus)).toEqual(["bring", "kiln", "room"]);
    expect(lemmas(requestedParts("what do we need for the kiln room").parts[0].focus)).toEqual(["need", "kiln", "room"]);
  });

  it("leaves out the asker's setting named by a demonstrative, while anything else is asked about", () => {
    const [part] = requestedParts("Which lab manual do we need for this seminar?").parts;
    expect(lemmas(part.focus)).toEqual(["lab", "manual", "need"]);
    // Nothing else to be about: the demonstrative's noun is the subject.
    const [only] = requestedParts("How does this cipher work?").parts;
    expect(lemmas(only.focus)).toContain("cipher");
    const [typed] = requestedParts("What year did this treaty end?").parts;
    expect(lemmas(typed.focus)).toContain("treaty");
    // The head of a compound goes, its modifier stays ("this reading group" keeps "reading").
    const [compound] = requestedParts("Where does this reading group meet on Fridays?").parts;
    expect(lemmas(compound.focus)).toEqual(["reading", "meet", "friday"]);
  });

  it("marks a period in a time adjunct as a frame ('at the close of the year'), not one the question is about", () => {
    const framed = (q: string) => requestedParts(q).parts[0].focus.filter((f) => f.frame).map((f) => f.lemma);
    expect(framed("By when must the lockers be emptied at the close of the year?")).toEqual(["year"]);
    expect(framed("When is the midterm?")).toEqual([]);
    expect(framed("Which day is the midterm critique?")).toEqual([]);
    // A named day says which one: another day's hours do not meet it.
    expect(framed("When does the pottery studio open on sundays?")).toEqual([]);
    expect(framed("What is due in week 7?")).toEqual([]);
  });
});

describe("requestedParts: a condition before the question", () => {
  it("keeps an if-clause with the question it sets up: one part, asking what the question asks", () => {
    const { parts } = requestedParts("If the kiln cools overnight, how long before we can unload it?");
    expect(parts).toHaveLength(1);
    expect(parts[0].answerType).toBe(requestedParts("How long before we can unload the kiln?").parts[0].answerType);
    expect(parts[0].focus.map((f) => f.lemma)).toEqual(expect.arrayContaining(["kiln", "cool", "overnight", "unload"]));
  });

  it("keeps a setting phrase with the question after it: one part", () => {
    const { parts } = requestedParts("In the glaze-firing example with a 6 kg load at 1200 °C, how much energy does the kiln use?");
    expect(parts).toHaveLength(1);
    expect(parts[0].answerType).toBe(requestedParts("How much energy does the kiln use?").parts[0].answerType);
    expect(parts[0].focus.map((f) => f.lemma)).toEqual(expect.arrayContaining(["glaze", "load", "energy", "kiln"]));
  });

  it("still splits two questions joined by a comma", () => {
    expect(requestedParts("When is the critique, and where is it held?").parts).toHaveLength(2);
  });

  it("splits a first question led by a preposition ('By when …, and where …?')", () => {
    const { parts } = requestedParts("By when must the kiln shelves be scraped, and where do the scrapings go?");
    expect(parts.map((p) => p.ask)).toEqual(["By when must the kiln shelves be scraped", "where do the scrapings go"]);
    expect(parts[0].answerType).toBe("date");
  });

  it("splits two questions behind a phrase that frames both, and gives the frame to each ('in exercise 4.3 what is T and what is Q')", () => {
    const { parts } = requestedParts("in exercise 4.3 what is T and what is Q");
    expect(parts.map((p) => p.ask)).toEqual(["in exercise 4.3 what is T", "what is Q"]);
    expect(parts[1].required).toEqual([{ noun: "exercise", id: "4.3" }]);
    expect(parts[1].focus.map((f) => f.lemma)).toEqual(expect.arrayContaining(["q", "exercise"]));
  });

  it("keeps an if-clause with the question it sets up, and gives it to the next question as its frame", () => {
    const { parts } = requestedParts("if the glaze runs, what do we scrape it with and who do we tell");
    expect(parts.map((p) => p.ask)).toEqual(["if the glaze runs, what do we scrape it with", "who do we tell"]);
    expect(parts[1].focus.map((f) => f.lemma)).toEqual(expect.arrayContaining(["glaze"]));
  });

  it("asks about a bare noun phrase joined to a question by 'and', '+' or '&' ('bisque temperature + when does the kiln open')", () => {
    for (const q of ["bisque temperature + when does the kiln open", "bisque temperature & when does the kiln open", "bisque temperature and when does the kiln open"]) {
      const { parts } = requestedParts(q);
      expect(parts.map((p) => p.ask)).toEqual(["bisque temperature", "when does the kiln open"]);
    }
  });

  it("asks the question before ', and' again of a noun phrase that ends the sentence ('…, and the glaze firing?')", () => {
    const { parts } = requestedParts("what's the soak time for the bisque firing in kiln 2, and the glaze firing?");
    expect(parts.map((p) => p.ask)).toEqual(["what's the soak time for the bisque firing in kiln 2", "what's the soak time for the glaze firing in kiln 2"]);
    expect(parts[1].answerType).toBe(parts[0].answerType);
    // Without the comma, "and" joins two nouns of one phrase; with a pronoun, the phrase points back and is read as written.
    expect(requestedParts("what's the difference between bisque and glaze firing?").parts).toHaveLength(1);
    expect(requestedParts("who runs the kiln room, and her email?").parts.map((p) => p.ask)).not.toContain("who runs her email");
  });
});

describe("requestedParts: required identifiers", () => {
  it("reads 'Lab 3' as noun lab with id 3", () => {
    const [part] = requestedParts("When is Lab 3 due?").parts;
    expect(part.required).toEqual([{ noun: "lab", id: "3" }]);
  });

  it("keeps the spelling of a gerund that names the item ('Glazing 2'), which its verb lemma would not match", () => {
    const [part] = requestedParts("how long does glazing 2 take?").parts;
    expect(part.required).toEqual([{ noun: "glazing", id: "2" }]);
  });

  it("reads a share or a multiple after a noun as a quantity, not an id ('the pump 90%', 'a beam 3x')", () => {
    expect(requestedParts("if the pump is 70% and the valve 90%, what is the flow?").parts[0].required).toEqual([]);
    expect(requestedParts("how stiff is a beam 3x as deep?").parts[0].required).toEqual([]);
    expect(requestedParts("which bench is rig 3B on?").parts[0].required).toEqual([{ noun: "rig", id: "3b" }]);
  });

  it("reads a number a participle counts ('the remaining 40 seats') and a verb's letter ('computing K') as naming nothing, a gerund's number as its id", () => {
    expect(requestedParts("who repots the remaining 40 cacti?").parts[0].required).toEqual([]);
    expect(requestedParts("when is Writing 2 due?").parts[0].required).toEqual([{ noun: "writing", id: "2" }]);
    expect(requestedParts("what limits the rate when computing K for the mixture?").parts[0].required).toEqual([]);
    expect(requestedParts("what is in Appendix K?").parts[0].required).toEqual([{ noun: "appendix", id: "k" }]);
    // A letter hyphened to the next word is part of it.
    expect(requestedParts("why do indexes use B-trees?").parts[0].required).toEqual([]);
  });

  it("gives the numbered item named before it the part a letter names ('pt c', '(c)', 'c)'), and no part without an item", () => {
    expect(requestedParts("kiln 4 pt c: what temperature do we fire at?").parts[0].required).toEqual([{ noun: "kiln", id: "4", part: "c" }]);
    expect(requestedParts("in exercise 6 (c) which glaze crazes?").parts[0].required).toEqual([{ noun: "exercise", id: "6", part: "c" }]);
    expect(requestedParts("exercise 6 c) which glaze crazes?").parts[0].required).toEqual([{ noun: "exercise", id: "6", part: "c" }]);
    expect(requestedParts("which glaze crazes in part c?").parts[0].required).toEqual([]);
  });

  it("reads a glued form 'HW2' as noun hw with id 2", () => {
    const [part] = requestedParts("When is HW2 due?").parts;
    expect(part.required).toEqual([{ noun: "hw", id: "2" }]);
  });

  it("reads a possessive before the type noun as a determiner ('what is their email?' asks for an email)", () => {
    expect(requestedParts("what is their email?").parts[0].answerType).toBe("email");
    expect(requestedParts("what is our room?").parts[0].answerType).toBe("place");
  });

  it("reads a number named by the noun before it as an identifier, not a count ('the locker number')", () => {
    expect(requestedParts("what is the locker number for the pottery studio?").parts[0].answerType).toBe("general");
    expect(requestedParts("what is the number of kilns in the studio?").parts[0].answerType).toBe("count");
    // A noun that names a value of its own form makes the number that value.
    expect(requestedParts("what is the phone number for the pottery studio?").parts[0].answerType).toBe("phone");
  });

  it("reads the noun after a possessive as the one asked for, whatever the possessor ('the head porter for Hall 2B's email')", () => {
    expect(requestedParts("What's the head porter for Hall 2B's email?").parts[0].answerType).toBe("email");
    expect(requestedParts("What's warden's email?").parts[0].answerType).toBe("email");
  });

  it("falls back on the interrogative's own noun when the possessed one names no type ('what room is the dean's office in')", () => {
    expect(requestedParts("what room is the dean's office in?").parts[0].answerType).toBe("place");
    expect(requestedParts("which day is the club's bake sale?").parts[0].answerType).toBe("date");
  });

  it("takes an adjective that heads its phrase ('the optional') for a noun a later part can borrow", () => {
    const { parts } = requestedParts("How many points is the optional worth, and when is it due?");
    expect(parts[0].focus.find((f) => f.lemma === "optional")?.noun).toBe(true);
    expect(parts[1].focus.filter((f) => f.borrowed).map((f) => f.lemma)).toContain("optional");
    // Before its noun it stays an adjective.
    expect(requestedParts("Is the optional quiz graded?").parts[0].focus.find((f) => f.lemma === "optional")?.noun).toBe(false);
  });

  it("searches for the closed compounds that are kinds of a question's noun ('room' finds 'bedroom'), not of its verbs", () => {
    const { searchTerms } = analyzeQuestion("Which room do I book?");
    expect(searchTerms).toContain("bedroom");
    expect(searchTerms).not.toContain("storybook");
  });

  it("reads an ordinal before a noun as that noun's number, in words or figures ('the third recital', 'the 4th critique')", () => {
    const [words] = requestedParts("Where is the third recital held?").parts;
    expect(words.required).toEqual([{ noun: "recital", id: "3", ordinal: true }]);
    // Met by the number ("Recital 3") or as written ("the third recital").
    expect(words.focus.find((f) => f.lemma === "3")?.surface).toBe("third");
    expect(requestedParts("When is the 4th critique?").parts[0].required).toEqual([{ noun: "critique", id: "4", ordinal: true }]);
    // An ordinal adverb names nothing ("who first described it").
    expect(requestedParts("Who first described the glaze?").parts[0].required).toEqual([]);
  });

  it("reads a dotted number after its noun as an identifier ('figure 3.2', 'exercise 10.4')", () => {
    expect(requestedParts("what does figure 3.2 show?").parts[0].required).toEqual([{ noun: "figure", id: "3.2" }]);
    expect(requestedParts("in exercise 10.4 what is the final speed").parts[0].required).toEqual([{ noun: "exercise", id: "10.4" }]);
    // A measure is no identifier: nothing names it.
    expect(requestedParts("what is the speed at 2.5 seconds").parts[0].required).toEqual([]);
  });

  it("reads a capital followed by an equals sign as a variable, not an identifier ('the supply line S = 4 + 2W')", () => {
    expect(requestedParts("On the supply line S = 4 + 2W, what is the wage at S = 10?").parts[0].required).toEqual([]);
    expect(requestedParts("Where is Section B held?").parts[0].required).toEqual([{ noun: "section", id: "b" }]);
  });

  it("names no identifier when there is none", () => {
    expect(requestedParts("When is the poster due?").parts[0].required).toEqual([]);
  });

  it("reads a single capital as an identifier after a noun, but never the pronoun 'I'", () => {
    expect(requestedParts("Where is Section B held?").parts[0].required).toEqual([{ noun: "section", id: "b" }]);
    expect(requestedParts("Which week I should start the poster?").parts[0].required).toEqual([]);
    expect(requestedParts("What is the latest time I can leave the lab?").parts[0].required).toEqual([]);
  });
});

describe("follow-ups", () => {
  it("keeps a pronoun with an antecedent in the same question inside the question, even with history", () => {
    const a = analyzeQuestion("Who marks the capstone report and when does it get returned?", ["When is the midterm?"]);
    expect(a.resolution.kind).toBe("none");
    expect(a.standalone).toBe("Who marks the capstone report and when does it get returned?");
    expect(a.parts).toHaveLength(2);
    const borrowed = a.parts[1].focus.filter((f) => f.borrowed).map((f) => f.lemma);
    expect(borrowed).toEqual(expect.arrayContaining(["capstone", "report"]));
    expect(borrowed).not.toContain("midterm");
    expect(a.searchTerms).not.toContain("midterm");
  });

  it("resolves a pronoun with no antecedent to the previous question's noun phrase", () => {
    const a = analyzeQuestion("When is it graded?", ["Who teaches the robotics elective?"]);
    expect(a.resolution.kind).toBe("pronoun");
    expect(a.standalone).toBe("When is robotics elective graded?");
    expect(lemmas(a.parts[0].focus)).toEqual(expect.arrayContaining(["robotics", "elective"]));
  });

  it("reads a demonstrative before its noun as a determiner, though the tagger calls it a pronoun ('is this module …')", () => {
    // The second part names its own subject: it borrows nothing from the first.
    const a = analyzeQuestion("What is a heat pump and how many credits is this module worth?");
    expect(lemmas(a.parts[1].focus)).toEqual(["credit", "worth"]);
    expect(a.parts[1].focus.some((f) => f.borrowed)).toBe(false);
    // Nor is it a pronoun for the previous turn's subject.
    expect(resolveFollowUp("is this module hard?", ["Who teaches the robotics elective?"]).resolution.kind).toBe("none");
    // Standing alone it still points back.
    expect(resolveFollowUp("what does that mean?", ["Who teaches the robotics elective?"]).resolution.kind).toBe("pronoun");
    const b = analyzeQuestion("What is a heat pump and what does that mean for bills?");
    expect(b.parts[1].focus.filter((f) => f.borrowed).map((f) => f.lemma)).toEqual(["heat"]);
  });

  it("writes out a verb cliticised on the pronoun it replaces, which would otherwise read as a possessive", () => {
    expect(resolveFollowUp("so what happens when it's over a week late", ["what happens if i hand in my kiln log late?"]).standalone).toBe("so what happens when kiln log is over a week late");
    expect(resolveFollowUp("and when they’re due?", ["what are the kiln reports worth?"]).standalone).toBe("and when kiln reports are due?");
    // A possessive pronoun stays a possessive.
    expect(resolveFollowUp("what's its weight", ["how is the glaze journal marked?"]).standalone).toBe("what's glaze journal's weight");
  });

  it("swaps only the noun phrase the new one stands for, keeping the rest of the previous question", () => {
    const a = resolveFollowUp("and what about the death rate?", ["what's the growth rate in the rabbit island model?"]);
    expect(a.standalone).toBe("what's the death rate in the rabbit island model?");
    // A phrase with its own preposition replaces the whole phrase.
    expect(resolveFollowUp("what about the rule on absences?", ["what is the rule on extensions?"]).standalone).toBe("what is the rule on absences?");
  });

  it("swaps a phrase whole when a hyphen joins its first word ('the two-week loan period'), never cutting inside the hyphened word", () => {
    expect(resolveFollowUp("and the overnight loan?", ["what's the two-week loan period for kilns?"]).standalone).not.toMatch(/two-the|-the /);
    expect(resolveFollowUp("and the overnight loan?", ["what's the two-week loan period for kilns?"]).standalone).toContain("overnight loan");
  });

  it("keeps a frame set before the previous question's interrogative ('in Q2, …'), swapping what that question asked about", () => {
    const a = resolveFollowUp("and the glaze cost?", ["in exercise 4 what's the clay cost per bowl"]);
    expect(a.standalone).toMatch(/^in exercise 4 what's /);
    expect(a.standalone).toContain("glaze cost");
  });

  it("reads 'that week' or 'this example' as the phrase of the previous question the noun heads ('the spring glaze week')", () => {
    expect(resolveFollowUp("and who leads the demo that week?", ["what are the readings for the spring glaze week?"]).standalone).toBe("and who leads the demo the spring glaze week?");
    // A noun the previous question named bare adds nothing to point at.
    expect(resolveFollowUp("and who leads the demo that week?", ["what is due this week?"]).standalone).not.toContain("the week week");
  });

  it("reads 'it' and 'its' as the thing the previous question asked an attribute of, not the attribute", () => {
    expect(resolveFollowUp("and how long does it stay hot", ["what's the peak temperature of the raku kiln in lab 3"]).standalone).toBe("and how long does the raku kiln in lab 3 stay hot");
    expect(resolveFollowUp("what's its capacity", ["who is the curator of the Harbour Gallery"]).standalone).toBe("what's the Harbour Gallery's capacity");
    // "margin of error" is one name: "of" before a bare noun asks no attribute of a thing.
    expect(resolveFollowUp("how is it worked out", ["what is the margin of error in the survey example"]).standalone).toBe("how is margin of error in the survey example worked out");
  });

  it("swaps an item numbered in words whole ('unit two' for 'unit three'), as one numbered in figures", () => {
    expect(resolveFollowUp("and for module three?", ["what are the glaze tests for module two"]).standalone).toBe("what are the glaze tests for module three");
    expect(resolveFollowUp("what about kiln five?", ["when is the firing in kiln two"]).standalone).toBe("when is the firing in kiln five");
  });

  it("swaps what the previous question asked of, not the interrogative's own phrase ('how many marks', 'which room')", () => {
    expect(resolveFollowUp("and the glaze journal?", ["how many marks is the throwing test worth"]).standalone).toBe("how many marks is the glaze journal worth");
    expect(resolveFollowUp("and the raku firing?", ["which yard is the pit firing in"]).standalone).toBe("which yard is the raku firing in");
  });

  it("swaps only the attribute when the new phrase points back at what the previous one was of ('the soak time for that one')", () => {
    expect(resolveFollowUp("and the soak time for that one?", ["what is the firing temperature for the celadon test tile in the kiln lab"]).standalone).toBe("what is the soak time for the celadon test tile in the kiln lab");
    expect(resolveFollowUp("and the word limit for it?", ["what is the deadline for the pottery portfolio"]).standalone).toBe("what is the word limit for the pottery portfolio");
    // A thing named afresh takes the old thing's place, as before.
    expect(resolveFollowUp("and for the glaze report?", ["what is the deadline for the pottery portfolio"]).standalone).toBe("what is the deadline for the glaze report");
  });

  it("writes a swapped-in 'one' as the noun it stands for ('the one for lab 3', 'the second one')", () => {
    expect(resolveFollowUp("and the one for the raku workshop?", ["when is the wheel workshop journal due"]).standalone).toBe("when is the journal for the raku workshop due");
    expect(resolveFollowUp("what about the second one?", ["how long is the first critique"]).standalone).toBe("how long is the second critique");
  });

  it("takes every word between a determiner and its noun into the referent, whatever the tagger calls it ('the back pressure limit')", () => {
    expect(resolveFollowUp("how is it set?", ["what is the back pressure limit?"]).standalone).toBe("how is back pressure limit set?");
  });

  it("swaps what an attribute is of when the new phrase shares no word with the old ('the density of copper', then 'tin')", () => {
    expect(resolveFollowUp("what about tin?", ["what is the density of copper in table 2.3"]).standalone).toBe("what is the density of tin in table 2.3");
  });

  it("swaps the thing asked about, not its setting, when the new phrase shares no word with either", () => {
    // The tagger reads "last" after the noun as an adjective; the verb stays, and so does "on standby".
    expect(resolveFollowUp("and for a bigger battery?", ["how long does the tablet last on standby"]).standalone).toBe("how long does the bigger battery last on standby");
    expect(resolveFollowUp("ok and a comet twice as wide?", ["how long does the moon last in orbit"]).standalone).toBe("how long does the comet twice as wide last in orbit");
  });

  it("swaps a phrase that opens with a preposition for the previous question's like phrase, keeping what was asked", () => {
    expect(resolveFollowUp("and in the studio?", ["what does the technician do in the workshop"]).standalone).toBe("what does the technician do in the studio");
    expect(resolveFollowUp("what about during reading week?", ["are the labs open on fridays?"]).standalone).toBe("are the labs open during reading week?");
    expect(resolveFollowUp("and after the break?", ["when is the first quiz?"]).standalone).toBe("when is the first quiz after the break?");
    expect(resolveFollowUp("and for the poster?", ["what is the word limit for the report"]).standalone).toBe("what is the word limit for the poster");
  });

  it("reads 'that one' as the thing asked about before, even after a noun of its own question", () => {
    expect(resolveFollowUp("ok and what do the plots look like for that one", ["what does an allosteric activator do to the curve?"]).standalone).toBe("ok and what do the plots look like for allosteric activator");
  });

  it("reads 'one' heading its own modifiers as the thing asked about before ('the gas ones')", () => {
    expect(resolveFollowUp("are the gas ones allowed on weekends?", ["which kilns can students use"]).standalone).toBe("are the gas kilns allowed on weekends?");
    expect(resolveFollowUp("do i have to attend the rescheduled one", ["what happens if the museum visit is cancelled"]).standalone).toBe("do i have to attend the rescheduled museum visit");
  });

  it("keeps the numbered things of the previous question when the next goes on with 'and'", () => {
    expect(resolveFollowUp("and which clay body do we throw?", ["when is studio session 4"]).standalone).toBe("and which clay body do we throw (session 4)?");
    expect(resolveFollowUp("and what is the glaze for tile B?", ["what is the firing temperature of tile A in example 2.3"]).standalone).toBe("and what is the glaze for tile B (example 2.3)?");
    // A question that names its own does not.
    expect(resolveFollowUp("and when is lab 5 due?", ["when is lab 4 due"]).resolution.kind).toBe("none");
  });

  it("skips an interjection before the opener of a swap", () => {
    expect(resolveFollowUp("oh and in the studio?", ["what does the technician do in the workshop"]).standalone).toBe("what does the technician do in the studio");
  });

  it("resolves the pronoun that agrees with the previous question when two are asked ('where do they store it')", () => {
    expect(resolveFollowUp("where do they store it", ["how heavy is the raku kiln shelf"]).standalone).toBe("where do they store raku kiln shelf");
    // A plural noun of the same question is no antecedent of "it".
    expect(resolveFollowUp("where do you students keep it", ["how heavy is the raku kiln shelf"]).standalone).toBe("where do you students keep raku kiln shelf");
  });

  it("does not take the noun a pronoun complements for its antecedent ('a diagram of that')", () => {
    expect(resolveFollowUp("can you show a diagram of that", ["who invented the pyrometer"]).standalone).toBe("can you show a diagram of pyrometer");
  });

  it("reads 'that' alone after a how-question as the doing it asked about, not one of its nouns", () => {
    expect(resolveFollowUp("is there a sketch of that", ["how do i calibrate a pyrometer with a reference lamp"]).standalone).toBe("is there a sketch of calibrate a pyrometer with a reference lamp");
    // "it" is a thing, never the doing.
    expect(resolveFollowUp("is there a sketch of it", ["how do i calibrate a pyrometer"]).standalone).toBe("is there a sketch of pyrometer");
  });

  it("reads 'her' before a noun phrase as a possessive, though the tagger calls its first word a verb", () => {
    expect(resolveFollowUp("where is her drop-in desk", ["who is the kiln technician"]).standalone).toBe("where is kiln technician's drop-in desk");
  });

  it("reads 'they' as the previous question's plural phrase and 'it' as its singular one", () => {
    expect(resolveFollowUp("how long do they live?", ["what colour are red dwarf stars?"]).standalone).toBe("how long do red dwarf stars live?");
    expect(resolveFollowUp("when is it due?", ["what sections does the lab notebook need?"]).standalone).toBe("when is lab notebook due?");
  });

  it("swaps the subject of the previous question ('what about quiz 5?')", () => {
    const a = analyzeQuestion("what about quiz 5?", ["When is quiz 2 due?"]);
    expect(a.resolution.kind).toBe("subject_swap");
    expect(a.standalone).toContain("quiz 5");
    expect(a.standalone).toContain("due");
    expect(a.standalone).not.toContain("quiz 2");
    expect(a.parts[0].required).toEqual([{ noun: "quiz", id: "5" }]);
    expect(a.parts[0].answerType).toBe("date");
  });

  it("reads 'he' or 'her' after a who-question as the one person its answer named", () => {
    const who = ["Who runs the pottery studio?"];
    const answer = "Studio manager: Dr. Ilse Vanterpool-Reyes, room G12";
    const a = analyzeQuestion("where is her office?", who, { previousAnswer: answer });
    expect(a.resolution.kind).toBe("pronoun");
    expect(a.standalone).toBe("where is Dr. Ilse Vanterpool-Reyes's office?");
    expect(lemmas(a.parts[0].focus)).toEqual(expect.arrayContaining(["vanterpool", "office"]));
    expect(analyzeQuestion("when can I email him?", who, { previousAnswer: answer }).standalone).toBe("when can I email Dr. Ilse Vanterpool-Reyes?");
    // Two people named, or none: the previous question's subject, as without an answer.
    const two = "Studio manager: Ilse Vanterpool; technician: Bram Okafor";
    expect(analyzeQuestion("where is her office?", who, { previousAnswer: two }).standalone).toBe("where is pottery studio's office?");
    expect(analyzeQuestion("where is her office?", who, { previousAnswer: "The studio is run by its manager." }).standalone).toBe("where is pottery studio's office?");
    // "it" stands for a thing, and only a who-question's answer names the person meant.
    expect(analyzeQuestion("when is it open?", who, { previousAnswer: answer }).standalone).toBe("when is pottery studio open?");
    expect(analyzeQuestion("where is her office?", ["When does the pottery studio open?"], { previousAnswer: "Open Mondays, ask Ilse Vanterpool for a key" }).standalone).toBe("where is pottery studio's office?");
  });

  it("finds one person's name in an answer, not a heading's capitalised words or a code", () => {
    expect(personNamed("Course Coordinator: Tamsin Achterberg (K2 office)")).toBe("Tamsin Achterberg");
    // The first line that names anyone decides: the best claim comes first.
    expect(personNamed("Coordinator: Tamsin Achterberg\nSee Harbourview Wellness for support")).toBe("Tamsin Achterberg");
    expect(personNamed("Coordinator: Tamsin Achterberg, Tamsin Achterberg Coordinator (LSB 210)")).toBe("Tamsin Achterberg");
    expect(personNamed("Office Hours And Contact Information")).toBeNull();
    expect(personNamed("Room K2, Building B7")).toBeNull();
    // A table row: the name ends where the next cell's capitalised words begin.
    expect(personNamed("Mr Leopold Fairweather Lab supervisor (Benches 1–9) l.fairweather@example.edu")).toBe("Mr Leopold Fairweather");
    // A name before a noun for a place names the place: the row's one person is the tutor.
    expect(personNamed("Seminar S2 Friday 2:00 pm Room 14, Thornbury Building (T2) Oksana Villiers")).toBe("Oksana Villiers");
    // A period after a longer word ends a sentence: the next sentence's name does not take that word in.
    expect(personNamed("The glaze was developed by a chemist at a tile works in Leeds. Oduya later taught glaze chemistry.")).toBe("Oduya");
  });

  it("leaves a question that stands on its own alone", () => {
    expect(resolveFollowUp("Where is the chemistry building?", ["When is quiz 2 due?"])).toEqual({
      standalone: "Where is the chemistry building?",
      resolution: { kind: "none", reason: "stands on its own" },
    });
  });

  it("does nothing without history", () => {
    expect(resolveFollowUp("When is it graded?", []).resolution.kind).toBe("none");
  });

  it("takes a model's rewrite when it differs from the question", () => {
    const a = analyzeQuestion("and the other one?", ["When is quiz 2 due?"], { rewritten: "When is quiz 3 due?" });
    expect(a.resolution.kind).toBe("model");
    expect(a.standalone).toBe("When is quiz 3 due?");
    expect(a.parts[0].required).toEqual([{ noun: "quiz", id: "3" }]);
  });
});

describe("spelledOut: chat shorthand", () => {
  it("spells out shorthand for grammar words, so that none becomes a focus term", () => {
    expect(spelledOut("wat r the rules for the kiln w/o a tutor")).toBe("what are the rules for the kiln without a tutor");
    expect(lemmas(analyzeQuestion("wat r the rules for the kiln w/o a tutor").parts[0].focus)).toEqual(["rule", "kiln", "tutor"]);
    expect(spelledOut("can u send ur slides")).toBe("can you send your slides");
  });

  it("reads a contraction typed without its apostrophe, but not the possessive 'its'", () => {
    expect(spelledOut("whats a glaze and hows it fired")).toBe("what is a glaze and how is it fired");
    expect(spelledOut("thats the kiln, its door sticks")).toBe("that is the kiln, its door sticks");
  });

  it("leaves 'r' and 'u' alone where they are variables", () => {
    expect(spelledOut("what is the drag at r = 4?")).toBe("what is the drag at r = 4?");
    expect(spelledOut("what is r in the drag formula")).toBe("what is r in the drag formula");
    expect(spelledOut("what's the u value of a brick wall")).toBe("what's the u value of a brick wall");
  });
});
