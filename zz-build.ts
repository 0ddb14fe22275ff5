import { mkdirSync } from "node:fs";
import { openDb, prepareDb } from "@/lib/db/client";
import { courseOf } from "./bench/questions";
mkdirSync("/tmp/b100k", { recursive: true });
await courseOf(100_000, async () => { const h = openDb("file:/tmp/b100k/study.db"); await prepareDb(h); return { ...h, dir: "/tmp/b100k", dispose: () => {} }; });
