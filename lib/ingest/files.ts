/** A file name as a person gave it, made safe to store and show: no folders, no control characters, bounded length. */
export function sanitizeFileName(raw: string): string {
  const base = raw.normalize("NFC").split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  let name = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").replace(/\s+/g, " ").trim();
  name = name.replace(/^\.+/, "");
  if (!name) return "document.pdf";
  const max = 200;
  if (name.length > max) {
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? "";
    name = Array.from(name.slice(0, name.length - ext.length)).slice(0, max - ext.length).join("") + ext;
  }
  return name;
}

/** "week_3-transactions.pdf" → "week 3 transactions". */
export function titleFromFileName(fileName: string): string {
  const title = fileName.replace(/\.pdf$/i, "").replace(/[_]+/g, " ").replace(/\s+/g, " ").trim();
  return title || "Untitled document";
}
