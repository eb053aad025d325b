import { diffChecklist, findManagedBlocks } from "@loopx/github";

/** What a person's edit of the goal issue body changed, as LoopX reads it. */
export interface BodyEdit {
  ticked: string[];
  unticked: string[];
  /** Anything inside the managed block changed (a tick, a title, a deleted line). */
  blockChanged: boolean;
  /** The author's text (outside the block) changed. */
  outsideChanged: boolean;
}

// A browser edit may turn every line ending into CRLF; that is no change of meaning.
const normalize = (text: string) => text.replace(/\r\n?/g, "\n");

function split(body: string): { blocks: string; outside: string } {
  const text = normalize(body);
  let outside = "";
  let blocks = "";
  let cursor = 0;
  for (const span of findManagedBlocks(text)) {
    outside += text.slice(cursor, span.start);
    blocks += `${span.inner.join("\n")}\n\u0000`;
    cursor = span.end;
  }
  outside += text.slice(cursor);
  return { blocks, outside: outside.replace(/\s+/g, " ").trim() };
}

/** Compares the body before (`changes.body.from`) and after a person's edit. */
export function readBodyEdit(from: string, to: string): BodyEdit {
  const before = split(from);
  const after = split(to);
  const { ticked, unticked } = diffChecklist(from, to);
  return {
    ticked,
    unticked,
    blockChanged: before.blocks !== after.blocks,
    outsideChanged: before.outside !== after.outside,
  };
}

/** The managed block exactly as a body holds it (markers included), or null. */
export function blockOf(body: string): string | null {
  const span = findManagedBlocks(body)[0];
  if (span === undefined || !span.closed) return null;
  return body.slice(span.start, span.end).replace(/(\r\n|\n|\r)$/, "");
}
