// Forms encode spaces as "+" (application/x-www-form-urlencoded); decodeURIComponent does not.
function decode(text) {
  return decodeURIComponent(text.replaceAll("+", " "));
}

/** "user[tags][]" → ["user", "tags", ""]; "" means "append to a list". */
function keyPath(key) {
  const open = key.indexOf("[");
  if (open <= 0 || !key.endsWith("]")) return [key];
  return [key.slice(0, open), ...key.slice(open + 1, -1).split("][")];
}

function assign(target, path, value) {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    if (head === "" && Array.isArray(target)) target.push(value);
    else if (!Object.hasOwn(target, head)) target[head] = value;
    else if (Array.isArray(target[head])) target[head].push(value);
    else target[head] = [target[head], value];
    return;
  }
  if (typeof target[head] !== "object" || target[head] === null) {
    target[head] = rest[0] === "" ? [] : {};
  }
  assign(target[head], rest, value);
}

/**
 * "a=1&a=2&b=x+y" → { a: ["1", "2"], b: "x y" }: a repeated key collects its values.
 * "user[name]=Ann&user[tags][]=x" → { user: { name: "Ann", tags: ["x"] } }.
 */
export function parse(query) {
  const out = {};
  const text = query.startsWith("?") ? query.slice(1) : query;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decode(pair.slice(eq + 1));
    assign(out, keyPath(key), value);
  }
  return out;
}

function flatten(prefix, value, pairs) {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    const nested = value.some((v) => typeof v === "object" && v !== null);
    for (const item of value) flatten(nested ? `${prefix}[]` : prefix, item, pairs);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) flatten(`${prefix}[${k}]`, v, pairs);
  } else {
    pairs.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(String(value))}`);
  }
}

/** The inverse of parse: nested objects become bracketed keys, arrays repeated keys. */
export function stringify(params) {
  const pairs = [];
  for (const [k, v] of Object.entries(params)) flatten(k, v, pairs);
  return pairs.join("&");
}
