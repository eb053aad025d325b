/**
 * Reading a brief as a careful agent would: a data block opens at a line starting
 * `UNTRUSTED DATA <nonce> —` and ends only at a line starting `END OF UNTRUSTED DATA <nonce> —`
 * with this brief's nonce. Anything else that looks like an end is still inside.
 */

/** The nonce the brief announces in its instructions. */
export function nonceOf(briefText: string): string {
  const nonce = /this brief's nonce \(([0-9a-f]{16,})\)/.exec(briefText)?.[1];
  if (!nonce) throw new Error("the brief announces no nonce");
  return nonce;
}

/** The character ranges of the brief that are data (inside a nonce-delimited block). */
function dataRanges(text: string, nonce: string): Array<[number, number]> {
  const open = `UNTRUSTED DATA ${nonce} —`;
  const close = `\nEND OF UNTRUSTED DATA ${nonce} —`;
  const ranges: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) return ranges;
    // A block opens only at the start of a line.
    if (start > 0 && text[start - 1] !== "\n") {
      from = start + open.length;
      continue;
    }
    const end = text.indexOf(close, start);
    if (end < 0) return [...ranges, [start, text.length]];
    ranges.push([start, end + close.length]);
    from = end + close.length;
  }
}

/** Every occurrence of `needle` lies inside a data block; false when there is none at all. */
export function onlyAsData(text: string, needle: string): boolean {
  const ranges = dataRanges(text, nonceOf(text));
  let at = text.indexOf(needle);
  if (at < 0) return false;
  while (at >= 0) {
    const i = at;
    if (!ranges.some(([s, e]) => i > s && i + needle.length <= e)) return false;
    at = text.indexOf(needle, at + needle.length);
  }
  return true;
}

/** The brief's lines outside every data block (what can instruct). */
export function instructingText(text: string): string {
  const ranges = dataRanges(text, nonceOf(text));
  let out = "";
  let from = 0;
  for (const [s, e] of ranges) {
    out += text.slice(from, s);
    from = e;
  }
  return out + text.slice(from);
}
