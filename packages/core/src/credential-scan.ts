/**
 * Finds credentials in text an agent produced, however it was dressed: the plain value, the
 * value split across lines, and the encodings a shell has at hand (`base64` wrapped or not,
 * after any prefix; base64url; `xxd -p`; `od -An -tx1`; percent and JSON `\u` escapes).
 * Pure and linear in the text: every candidate run is decoded once per alignment.
 */

/**
 * Token shapes of real issuers, unanchored. Shown text is searched with word boundaries around
 * them (TOKEN_SHAPES), so words like "risk-free", "task-list" or "sk-learn" and hex SHAs or
 * UUIDs never match; decoded bytes are searched without, since a prefix can precede a value.
 */
const SHAPES: readonly string[] = [
  // GitHub: fine-grained PATs, then classic PATs, OAuth, user-to-server, server-to-server, refresh.
  "github_pat_[A-Za-z0-9_]{22,}",
  "gh[pousr]_[A-Za-z0-9]{20,}",
  // Anthropic: api03 keys, oat01 OAuth tokens, admin keys.
  "sk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{20,}",
  // OpenAI: project, service-account and admin keys, and the legacy 48-character key.
  "sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}",
  "sk-[A-Za-z0-9]{48}",
  // A JWT (Actions runtime and OIDC tokens are JWTs): header and payload are base64url JSON.
  "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
];
export const TOKEN_SHAPES: readonly RegExp[] = SHAPES.map(
  (s) => new RegExp(`(?<![A-Za-z0-9_-])${s}(?![A-Za-z0-9_-])`),
);
const DECODED_SHAPES: readonly RegExp[] = SHAPES.map((s) => new RegExp(s));

/** A known value is looked for in decodings only from this length on (shorter ones collide). */
const MIN_DECODED_VALUE = 8;
/** Encoded runs shorter than this cannot hold a credential worth the name. */
const MIN_RUN = 12;

/** Whether `text` holds one of `known` or a token shape, plainly or encoded. */
export function containsCredential(text: string, known: readonly string[]): boolean {
  if (text === "") return false;
  const values = known.filter((v) => v.length >= 4);
  if (shown(text, values)) return true;
  const long = values.filter((v) => v.length >= MIN_DECODED_VALUE);
  // Split across lines, or wrapped: the pieces joined again.
  if (long.length > 0 && includesAny(text.replace(/\s+/g, ""), long)) return true;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i + 1 < lines.length; i++) {
    if (shown(`${lines[i]?.trimEnd()}${lines[i + 1]?.trimStart()}`, long)) return true;
  }
  if (shown(decodePercent(text), long) || shown(decodeJsonEscapes(text), long)) return true;
  for (const bytes of decodedRuns(text)) {
    if (includesAny(bytes, long) || DECODED_SHAPES.some((s) => s.test(bytes))) return true;
  }
  return false;
}

function includesAny(text: string, values: readonly string[]): boolean {
  return values.some((v) => text.includes(v));
}

function shown(text: string, values: readonly string[]): boolean {
  return includesAny(text, values) || TOKEN_SHAPES.some((shape) => shape.test(text));
}

/** Every base64 (either alphabet) and hex run, whitespace ignored, decoded at each alignment. */
function* decodedRuns(text: string): Generator<string> {
  const compact = text.replace(/\s+/g, "");
  for (const run of compact.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
    // A prefix glued to the run shifts base64's 3-byte groups: try every alignment.
    for (let skip = 0; skip < 4 && run.length - skip >= MIN_RUN; skip++) {
      yield Buffer.from(run.slice(skip), "base64").toString("latin1");
    }
  }
  for (const run of compact.match(/[0-9A-Fa-f]{12,}/g) ?? []) {
    for (let skip = 0; skip < 2; skip++) {
      const hex = run.slice(skip);
      yield Buffer.from(hex.slice(0, hex.length - (hex.length % 2)), "hex").toString("latin1");
    }
  }
}

function decodePercent(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function decodeJsonEscapes(text: string): string {
  return text
    .replace(/\\u([0-9A-Fa-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\x([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
