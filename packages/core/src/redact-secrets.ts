export const REDACTED = "[redacted]";

/**
 * Token shapes worth hiding even when nobody told us the value: GitHub tokens (installation,
 * personal, OAuth, user-to-server, refresh), fine-grained PATs, Anthropic and OpenAI keys.
 * The look-behind keeps words like "task-list" or "risk-free" intact.
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /(?<![A-Za-z0-9_-])github_pat_[A-Za-z0-9_]{8,}/g,
  /(?<![A-Za-z0-9_-])gh[pousr]_[A-Za-z0-9]{8,}/g,
  /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{8,}/g,
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{8,}/g,
];

/**
 * Hides the exact secret values handed to a harness and anything shaped like a token.
 * Longer values go first so a secret containing another is hidden whole.
 */
export function redactSecrets(text: string, knownValues: readonly string[]): string {
  let out = text;
  const values = [...new Set(knownValues.filter((v) => v.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}
