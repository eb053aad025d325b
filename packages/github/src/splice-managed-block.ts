import { findManagedBlocks } from "./find-managed-block.ts";
import { FENCE, splitLines } from "./markers.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

const BLOCK_RESERVE = 4096;

function shrinkBlock(block: string, room: number): string {
  const first = block.indexOf("\n");
  const last = block.lastIndexOf("\n");
  if (first < 0 || last <= first) return block;
  if (block.length <= room) return block;
  const head = block.slice(0, first);
  const tail = block.slice(last + 1);
  const inner = block.slice(first + 1, last);
  return `${head}\n${truncateBody(inner, room - head.length - tail.length - 2)}\n${tail}`;
}

/**
 * The code fence the text leaves open at its end, if any. Markdown runs an unclosed fence to
 * the end of the body, so a block appended after it would show as code and our readers
 * (which skip fenced lines) would never find it: every write would append one more.
 */
function openFence(text: string): string | null {
  let fence: string | null = null;
  for (const line of splitLines(text)) {
    const f = FENCE.exec(line.text)?.[1];
    if (fence === null) fence = f ?? null;
    else if (f !== undefined && f[0] === fence[0] && f.length >= fence.length) fence = null;
  }
  return fence;
}

/** The author's text, then a blank line; an unclosed fence is closed first (see openFence). */
function authorPart(text: string, eol: string): string {
  const author = text.replace(/\s+$/, "");
  if (author === "") return "";
  const fence = openFence(author);
  return fence === null ? `${author}${eol}${eol}` : `${author}${eol}${fence}${eol}${eol}`;
}

/**
 * Puts a rendered managed block into an issue body without touching the author's text:
 * appended after a blank line when the body has none, replacing the existing block when it
 * has one. A damaged block (begin without end) is replaced up to the end of the body, and
 * any further blocks are removed, so repeated writes converge on exactly one. The body's
 * line endings (CRLF after a browser edit) are kept. The result stays within `limit`: the
 * block's checklist is cut first; only an objective that alone nearly fills the limit is cut.
 */
export function spliceManagedBlock(body: string, block: string, limit = GITHUB_BODY_LIMIT): string {
  const crlf = body.includes("\r\n");
  const eol = crlf ? "\r\n" : "\n";
  const ours = crlf ? block.replace(/\r?\n/g, "\r\n") : block;
  const spans = findManagedBlocks(body);
  let before: string;
  let after: string;
  const first = spans[0];
  if (first === undefined) {
    before = authorPart(body, eol);
    after = "";
  } else {
    before = body.slice(0, first.start);
    after = "";
    let cursor = first.end;
    for (const span of spans.slice(1)) {
      after += body.slice(cursor, span.start);
      cursor = span.end;
    }
    after += body.slice(cursor);
    // Keep the line break that ended the old block, so the author's text below stays below.
    const endEol = /(\r\n|\n|\r)$/.exec(body.slice(first.start, first.end))?.[0];
    if (first.closed && endEol) after = `${endEol}${after}`;
  }
  const whole = `${before}${ours}${after}`;
  if (whole.length <= limit) return whole;
  // The checklist is guaranteed this much; the objective is cut only to make that room.
  const reserve = Math.min(ours.length, BLOCK_RESERVE);
  let room = limit - before.length - after.length;
  if (room < reserve) {
    // The objective alone nearly fills the body; the kernel keeps its full snapshot.
    after = truncateBody(after, Math.max(0, (limit - reserve) / 4));
    before = truncateBody(before, limit - reserve - after.length - 2 * eol.length);
    before = authorPart(before, eol);
    room = limit - before.length - after.length;
  }
  return `${before}${shrinkBlock(ours, room)}${after}`;
}
