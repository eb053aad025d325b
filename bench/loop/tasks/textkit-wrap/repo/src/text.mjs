/**
 * textkit: small text helpers for the CLI's output and for URLs.
 */

/** Splits `text` into lines of at most `width` characters, breaking at spaces. */
export function wrap(text, width) {
  const words = text.split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Collapses runs of whitespace to one space and trims the ends. */
export function squish(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Truncates `text` to `max` characters, ending with "…" when it had to cut. */
export function truncate(text, max) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "Hello, World!" → "hello-world": lowercase ASCII letters and digits joined by "-". */
export function slugify(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
