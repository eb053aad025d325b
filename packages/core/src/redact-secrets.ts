import { containsCredential } from "./credential-scan.ts";

/** What a field becomes when it held a credential: the whole field, never a patched remainder. */
export const WITHHELD = "withheld: it contained a credential";

/**
 * The field as it may be shown: unchanged, or WITHHELD when it holds one of the known secret
 * values or a token shape in any encoding an agent could use (see credential-scan.ts). A
 * partial scrub would leave the rest of an encoding, or a neighbouring half of a split value.
 */
export function redactSecrets(text: string, knownValues: readonly string[]): string {
  return containsCredential(text, knownValues) ? WITHHELD : text;
}

/**
 * Every string inside a JSON-like value passed through redactSecrets; `withheld` receives the
 * dotted path of each field that was withheld (e.g. `handoff.questions.0`), for the ledger.
 */
export function redactFields<T>(value: T, knownValues: readonly string[], withheld: string[]): T {
  return walk(value, knownValues, withheld, "") as T;
}

function walk(value: unknown, known: readonly string[], withheld: string[], path: string): unknown {
  if (typeof value === "string") {
    const shown = redactSecrets(value, known);
    if (shown !== value) withheld.push(path || "(value)");
    return shown;
  }
  const at = (key: string | number) => (path === "" ? String(key) : `${path}.${key}`);
  if (Array.isArray(value)) return value.map((v, i) => walk(v, known, withheld, at(i)));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, walk(v, known, withheld, at(k))]),
    );
  }
  return value;
}

export { containsCredential, TOKEN_SHAPES } from "./credential-scan.ts";
