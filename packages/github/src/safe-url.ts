/**
 * A URL fit for a Markdown link destination, or null. Only http(s): a `javascript:` link is
 * stripped by GitHub anyway, but a relative or odd scheme would mislead. Characters that end
 * a link destination or open a comment are percent-encoded rather than neutralised, so the
 * link still works.
 */
export function safeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return url.href.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
