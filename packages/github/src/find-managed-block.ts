import { BEGIN_LINE, END_LINE, fencedCode, splitLines } from "./markers.ts";

/** Where a managed block sits in a body, as character offsets. */
export interface BlockSpan {
  /** Offset of the begin marker's line. */
  start: number;
  /** Offset just past the end marker's line (or the body's length when the end is missing). */
  end: number;
  /** The lines strictly between the markers. */
  inner: string[];
  /** Whether the end marker was found; false means a damaged block that runs to EOF. */
  closed: boolean;
}

/**
 * Every managed block in a body, in order. A block starts at a line holding only the begin
 * marker and runs to the next line holding only the end marker, or to the end of the body
 * when that is missing (a damaged block is still ours: treating it as the author's would
 * duplicate the checklist on the next write). Markers inside the author's fenced code are
 * text, not markers: someone documenting LoopX in an issue must not lose their example.
 */
export function findManagedBlocks(body: string): BlockSpan[] {
  const blocks: BlockSpan[] = [];
  let offset = 0;
  const inCode = fencedCode();
  let open: { start: number; inner: string[] } | null = null;
  for (const line of splitLines(body)) {
    const lineStart = offset;
    offset += line.text.length + line.eol.length;
    if (open === null) {
      if (inCode(line.text)) continue;
      if (BEGIN_LINE.test(line.text)) open = { start: lineStart, inner: [] };
      continue;
    }
    if (END_LINE.test(line.text)) {
      blocks.push({ start: open.start, end: offset, inner: open.inner, closed: true });
      open = null;
      continue;
    }
    open.inner.push(line.text);
  }
  if (open !== null) {
    blocks.push({ start: open.start, end: body.length, inner: open.inner, closed: false });
  }
  return blocks;
}
