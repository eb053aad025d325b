/**
 * Parses CSV text into rows of fields (RFC 4180 quoting): a field in double quotes may hold
 * commas, and "" inside it is one quote. A trailing newline does not make an empty row.
 */
export function parseCsv(text) {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, i) => parseLine(line, i + 1));
}

function parseLine(line, lineNo) {
  const fields = [];
  let at = 0;
  for (;;) {
    let field = "";
    if (line[at] === '"') {
      at++;
      for (;;) {
        const q = line.indexOf('"', at);
        if (q === -1) throw new SyntaxError(`line ${lineNo}: unterminated quoted field`);
        field += line.slice(at, q);
        at = q + 1;
        if (line[at] !== '"') break;
        field += '"';
        at++;
      }
      if (at < line.length && line[at] !== ",") {
        throw new SyntaxError(`line ${lineNo}: text after a closing quote at column ${at + 1}`);
      }
    } else {
      const comma = line.indexOf(",", at);
      field = line.slice(at, comma === -1 ? line.length : comma);
      at = comma === -1 ? line.length : comma;
    }
    fields.push(field);
    if (at >= line.length) return fields;
    at++; // the comma
  }
}
