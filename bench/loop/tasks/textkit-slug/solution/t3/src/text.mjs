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
 * digits joined by `separator` (default "-"). Accented letters lose their accents instead of
 * vanishing. With `maxLength`, the slug is cut at the last whole word that fits (a lone long
 * word is cut).
 */
export function slugify(text, { maxLength = Number.POSITIVE_INFINITY, separator = "-" } = {}) {
  if (/[a-z0-9]/i.test(separator)) {
    throw new RangeError(`separator "${separator}" would be mistaken for part of a word`);
  }
  const words = text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{Mn}+/gu, "")
    .replace(/[ßæœøđłþ]/g, (c) => LIGATURES[c])
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}${separator}${word}`;
    if (next.length > maxLength) return slug === "" ? word.slice(0, maxLength) : slug;
    slug = next;
  }
  return slug;
}
