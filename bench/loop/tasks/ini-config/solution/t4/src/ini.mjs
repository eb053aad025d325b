/**
 * Parses INI text: `[section]` headers, `key = value` lines, `;` and `#` comment lines.
 * Keys before any header belong to the "" section; any other line is a SyntaxError naming its
 * line number. Values are strings; a value in double quotes keeps its spaces and may hold `;`
 * or `#`. With `{ typed: true }`, unquoted true/false become booleans and unquoted numbers
 * become numbers.
 */
export function parse(text, { typed = false } = {}) {
  const out = { "": {} };
  let section = out[""];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) return;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1].trim();
      out[name] ??= {};
      section = out[name];
      return;
    }
    const eq = line.indexOf("=");
    const key = eq === -1 ? "" : line.slice(0, eq).trim();
    // A skipped line is a setting silently lost: say where it is instead.
    if (key === "" || line.startsWith("[")) {
      throw new SyntaxError(`line ${i + 1}: expected "key = value" or "[section]", got "${line}"`);
    }
    section[key] = value(line.slice(eq + 1).trim(), typed);
  });
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

function render(value) {
  const text = String(value);
  if (/[\r\n]/.test(text)) throw new Error(`INI values are one line; got ${JSON.stringify(text)}`);
  // Quote whatever parse would otherwise trim, type, or cut at a comment character.
  const plain =
    typeof value !== "string" ||
    (text !== "" &&
      text === text.trim() &&
      !/^(true|false)$/.test(text) &&
      !NUMBER.test(text) &&
      !/[;#"\\]/.test(text));
  return plain ? text : `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** The INI text of `data` (as parse returns it); `parse(stringify(d), { typed: true })` is `d`. */
export function stringify(data) {
  const lines = [];
  const write = (entries) => {
    for (const [k, v] of Object.entries(entries)) lines.push(`${k} = ${render(v)}`);
  };
  write(data[""] ?? {});
  for (const [name, entries] of Object.entries(data)) {
    if (name === "") continue;
    if (lines.length > 0) lines.push("");
    lines.push(`[${name}]`);
    write(entries);
  }
  return `${lines.join("\n")}\n`;
}
