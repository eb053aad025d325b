// Forms encode spaces as "+" (application/x-www-form-urlencoded); decodeURIComponent does not.
function decode(text) {
  return decodeURIComponent(text.replaceAll("+", " "));
}

/** "a=1&a=2&b=x+y" → { a: ["1", "2"], b: "x y" }: a repeated key collects its values. */
export function parse(query) {
  const out = {};
  const text = query.startsWith("?") ? query.slice(1) : query;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decode(pair.slice(eq + 1));
    if (!Object.hasOwn(out, key)) out[key] = value;
    else if (Array.isArray(out[key])) out[key].push(value);
    else out[key] = [out[key], value];
  }
  return out;
}

/** { a: ["1", "2"], b: "two" } → "a=1&a=2&b=two"; undefined values are left out. */
export function stringify(params) {
  const pairs = [];
  for (const [k, v] of Object.entries(params)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === undefined) continue;
      pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(item))}`);
    }
  }
  return pairs.join("&");
}
