import { findManagedBlocks } from "./find-managed-block.ts";
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
    const author = body.replace(/\s+$/, "");
    before = author === "" ? "" : `${author}${eol}${eol}`;
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
    before = `${before.replace(/\s+$/, "")}${eol}${eol}`;
    room = limit - before.length - after.length;
  }
  return `${before}${shrinkBlock(ours, room)}${after}`;
}
