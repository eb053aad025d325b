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

// Letters that Unicode does not decompose into a base letter plus accents.
const LIGATURES = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th" };

/**
 * "Crème Brûlée, 2e édition!" → "creme-brulee-2e-edition": lowercase ASCII letters and
 * digits joined by "-". Accented letters lose their accents instead of vanishing.
 */
export function slugify(text) {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{Mn}+/gu, "")
    .replace(/[ßæœøđłþ]/g, (c) => LIGATURES[c])
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
