/**
 * pdf.js's legacy build (the one that runs on Node 20) bundles core-js, which
 * on V8 before 12 (Node 20) replaces Array.prototype.push, JSON.parse and
 * JSON.stringify with JavaScript versions: for pushing past 2^32 elements,
 * for a length made read-only, and for proposals (JSON.parse's source text,
 * JSON.rawJSON) that pdf.js itself never uses. On the PDF thread every push
 * of pdf.js's and ours then went through the slow version: some 15 % of the
 * CPU of reading a one-page invoice's text. Imported before pdf.js, this
 * module keeps the thread's own builtins, and `restoreNativeBuiltins` puts
 * them back once pdf.js has loaded. On Node 22 core-js leaves them alone and
 * this changes nothing.
 */
const builtins = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [JSON, 'stringify'],
] as const;

const kept = builtins.map(([owner, name]) => ({ owner, name, descriptor: Object.getOwnPropertyDescriptor(owner, name)! }));

/** Puts back the builtins as they were before pdf.js loaded; returns the names of those it had replaced. */
export function restoreNativeBuiltins(): string[] {
  const restored: string[] = [];
  for (const { owner, name, descriptor } of kept) {
    if (Object.getOwnPropertyDescriptor(owner, name)?.value === descriptor.value) continue;
    Object.defineProperty(owner, name, descriptor);
    restored.push(name);
  }
  return restored;
}
