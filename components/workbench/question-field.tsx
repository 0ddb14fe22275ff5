"use client";

import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";

/** The question a workbench run asks, as a student would. */
export function QuestionField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="block">
      <span className="text-sm font-medium text-ink">Question</span>
      <textarea
        name="question"
        required
        rows={2}
        maxLength={MAX_QUESTION_CHARS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="e.g. When is Assignment 2 due?"
        className="mt-1 block w-full resize-y rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100"
      />
    </label>
  );
}
