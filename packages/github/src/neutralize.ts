/**
 * U+200B ZERO WIDTH SPACE. Invisible when rendered, but it breaks every pattern that
 * matters here: GitHub's mention syntax, other bots' trigger matchers, our own command
 * prefix and our own HTML-comment markers.
 */
export const ZWSP = "\u200b";

/**
 * Trigger phrases of agents that act on issue comments. They are all @-mentions, so the
 * general mention rule below already covers them; the list documents why that rule must
 * stay broad and lets tests check each one.
 */
export const BOT_TRIGGERS: readonly string[] = [
  "@claude",
  "@copilot",
  "@codex",
  "@openhands-agent",
  "@gemini-cli",
  "@cursor",
];

// GitHub only links `@name` after a non-word character, but other bots match anywhere and
// case-insensitively (some also accept the fullwidth ＠), so every `@` directly followed
// by a login character is broken.
const MENTION = /([@\uFF20])(?=[A-Za-z0-9_])/g;
// `/loopx` anywhere in rendered text, any case: a person quoting our comment must never
// turn it into a command, and our own parser must never read it as one.
const SLASH_COMMAND = /\/(?=loopx)/gi;
// Every HTML comment opener, not only `<!-- loopx:`: our readers accept whitespace and case
// variants, so the neutraliser must be broader than any reader. `<` followed by ZWSP is not
// a tag or comment to Markdown, so the text shows as typed.
const COMMENT_OPEN = /<!--/g;

/**
 * Makes text safe to render on GitHub: mentions cannot ping, bots' trigger phrases and
 * `/loopx` commands cannot fire, and nothing can pass for one of our hidden markers.
 * Idempotent: neutralize(neutralize(x)) === neutralize(x).
 */
export function neutralize(text: string): string {
  return text
    .replace(MENTION, `$1${ZWSP}`)
    .replace(SLASH_COMMAND, `/${ZWSP}`)
    .replace(COMMENT_OPEN, `<${ZWSP}!--`);
}

// A stray `</details>` or `<table>` in a title would break the layout around it; `&lt;`
// shows the same character without opening a tag.
const TAG_OPEN = /<(?=[A-Za-z/!?])/g;

/**
 * neutralize() for text shown on one line (a title in a list item, a table cell): newlines
 * folded, HTML tags shown as text, length bounded.
 */
export function neutralizeInline(text: string, max = 256): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return neutralize(cut).replace(TAG_OPEN, "&lt;");
}

/** Escapes tag openers in multi-line text; see neutralizeInline. */
export function escapeTags(text: string): string {
  return text.replace(TAG_OPEN, "&lt;");
}
