/** Opens the part of the goal issue body that LoopX owns. Always on a line of its own. */
export const BLOCK_BEGIN = "<!-- loopx:begin -->";
/** Closes it. Text after this line is the author's again. */
export const BLOCK_END = "<!-- loopx:end -->";

// Readers are a little lenient (whitespace, case) because people and editors reformat
// bodies; neutralize() breaks every `<!--`, so leniency cannot be abused by rendered text.
export const BEGIN_LINE = /^\s*<!--\s*loopx:begin\s*-->\s*$/i;
export const END_LINE = /^\s*<!--\s*loopx:end\s*-->\s*$/i;

/** The hidden tag that binds a checklist item to a todo. */
export function todoMarker(key: string): string {
  return `<!-- loopx:todo=${key} -->`;
}
export const TODO_MARKER = /<!--\s*loopx:todo=([^\s>]*)\s*-->/gi;

/** Splits on any line ending and remembers each one, so a splice can keep CRLF bodies CRLF. */
export function splitLines(text: string): { text: string; eol: string }[] {
  const out: { text: string; eol: string }[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (const m of text.matchAll(re)) {
    out.push({ text: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  out.push({ text: text.slice(start), eol: "" });
  return out;
}

/** An opening or closing code fence (``` or ~~~, up to three spaces in), per CommonMark. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A reader of fenced code, line by line: true for a fence line and every line it encloses
 * (a fence closes at the same character, at least as long), per CommonMark.
 */
export function fencedCode(): (line: string) => boolean {
  let fence: string | null = null;
  return (line) => {
    const f = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (f !== undefined && f[0] === fence[0] && f.length >= fence.length) fence = null;
      return true;
    }
    if (f !== undefined) fence = f;
    return f !== undefined;
  };
}
