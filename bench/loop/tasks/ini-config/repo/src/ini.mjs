/**
 * Parses INI text: `[section]` headers, `key = value` lines, `;` and `#` comment lines.
 * Keys before any header belong to the "" section. Values are strings.
 */
export function parse(text) {
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
    section[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}
