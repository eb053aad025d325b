/**
 * Parses INI text: `[section]` headers, `key = value` lines, `;` and `#` comment lines.
 * Keys before any header belong to the "" section. Values are strings; a value in double
 * quotes keeps its spaces and may hold `;` or `#`. With `{ typed: true }`, unquoted true/false
 * become booleans and unquoted numbers become numbers.
 */
export function parse(text, { typed = false } = {}) {
  const out = { "": {} };
  let section = out[""];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1].trim();
      out[name] ??= {};
      section = out[name];
      continue;
    }
    const eq = line.indexOf("=");
    if (eq === -1) continue;
    section[line.slice(0, eq).trim()] = value(line.slice(eq + 1).trim(), typed);
  }
  return out;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function value(text, typed) {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  if (!typed) return text;
  if (text === "true") return true;
  if (text === "false") return false;
  if (NUMBER.test(text)) return Number(text);
  return text;
}
