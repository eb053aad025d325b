/** "a=1&b=two" → { a: "1", b: "two" }; a repeated key keeps its last value. */
export function parse(query) {
  const out = {};
  const text = query.startsWith("?") ? query.slice(1) : query;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decodeURIComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decodeURIComponent(pair.slice(eq + 1));
    out[key] = value;
  }
  return out;
}

/** { a: "1", b: "two" } → "a=1&b=two"; undefined values are left out. */
export function stringify(params) {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
}
