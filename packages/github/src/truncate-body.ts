/** GitHub rejects issue and comment bodies longer than this with a 422 "body is too long". */
export const GITHUB_BODY_LIMIT = 65536;

const MIN_LIMIT = 64;

/**
 * Keeps a body within `limit` characters (UTF-16 code units, which is what GitHub counts),
 * cutting at a line boundary and adding a visible pointer so a reader knows text is
 * missing and where the rest lives. Never throws: a nonsense limit is raised to a small
 * floor, and a text with no line break in reach is cut mid-line.
 */
export function truncateBody(text: string, limit = GITHUB_BODY_LIMIT, link?: string): string {
  const max = Number.isFinite(limit) ? Math.max(MIN_LIMIT, Math.floor(limit)) : GITHUB_BODY_LIMIT;
  if (text.length <= max) return text;
  const target = link ? `full state: ${link}` : "full state is kept by LoopX";
  let pointer = `\n\n… truncated; ${target}`;
  if (pointer.length > max / 2) pointer = "\n\n… truncated";
  const room = max - pointer.length;
  let cut = text.lastIndexOf("\n", room);
  // A cut far from the limit wastes most of the body; only then accept a mid-line cut.
  if (cut < room / 2) cut = room;
  // Never split a surrogate pair: half an emoji is an invalid string on the wire.
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut).replace(/[ \t\r]+$/, "")}${pointer}`;
}
