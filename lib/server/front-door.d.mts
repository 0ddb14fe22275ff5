import type { IncomingMessage, ServerResponse } from "node:http";

export function busyMessage(retryAfter: number): string;

export function isAnswerRequest(req: { method?: string; url?: string }): boolean;

export interface FrontDoor {
  /** The server's request listener: an answer is counted until its response closes (or refused with 503 past the bound), then runs from the check phase in arrival order; other requests go straight to `handle`. */
  listener(handle: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => void;
  readonly inside: number;
}

export interface DoorSettings {
  limit: number;
  maxWaitMs: number;
}

export function createFrontDoor(settings: DoorSettings): FrontDoor;

export function doorSettings(vars: Record<string, string | undefined>): DoorSettings;

export function numberSetting(vars: Record<string, string | undefined>, name: string, fallback: number): number;
