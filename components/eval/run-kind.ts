import type { evalRunKinds } from "@/lib/db/schema";

/** A run's kind as pages show it. Kept out of the client modules: a server page importing a value from a "use client" module gets a reference, not the value. */
export const kindLabel: Record<(typeof evalRunKinds)[number], string> = { single: "One configuration", ab: "A/B", chunk_sizes: "Chunk sizes" };
