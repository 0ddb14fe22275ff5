/** What every CLI here does with its arguments: usage on --help, usage errors exit 2. */

export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

export function helpRequested(help: boolean | undefined, usage: string): void {
  if (!help) return;
  console.log(usage);
  process.exit(0);
}
