"use client";

import { useSyncExternalStore } from "react";
import { formatLocalDateTime, formatUtcDateTime } from "./format";

const subscribe = () => () => {};

/** A timestamp in the reader's time zone; the server pass renders UTC so hydration matches. */
export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return (
    <time dateTime={iso} className={className} title={formatUtcDateTime(iso)}>
      {hydrated ? formatLocalDateTime(iso) : formatUtcDateTime(iso)}
    </time>
  );
}
