import { groundingInstruction, userMessage } from "./prompts";
import type { GroundState, LabelledPassage } from "./types";
import { StageError } from "./errors";

export class DuplicatePassageLabelError extends StageError {
  readonly stage = "ground";
  constructor(readonly label: string) {
    super(`Passage label ${label} is used twice`);
    this.name = "DuplicatePassageLabelError";
  }
}

export function isDuplicatePassageLabelError(e: unknown): e is DuplicatePassageLabelError {
  return e instanceof DuplicatePassageLabelError;
}

/**
 * ground: the exact chat messages for a question over the selected passages, in the given order.
 * Instructions only ever travel in the system message; the registry holds exactly the passages sent.
 */
export function ground({ question, history, selected }: { question: string; history: string[]; selected: LabelledPassage[] }): GroundState {
  const registry = new Map<string, LabelledPassage>();
  for (const passage of selected) {
    // Two passages under one label would make a citation resolve to whichever came last.
    if (registry.has(passage.label)) throw new DuplicatePassageLabelError(passage.label);
    registry.set(passage.label, passage);
  }
  return {
    messages: [
      { role: "system", content: groundingInstruction() },
      { role: "user", content: userMessage({ question, passages: selected, history }) },
    ],
    registry,
  };
}
