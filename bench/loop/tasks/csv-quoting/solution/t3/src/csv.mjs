/**
 * Parses CSV text into rows of fields (RFC 4180): a field in double quotes may hold commas,
 * line breaks, and "" for one quote. Rows end with \n or \r\n; a trailing line break does not
 * make an empty row.
 */
export function parseCsv(text) {
  if (text === "") return [];
  const rows = [];
  let row = [];
  let at = 0;
  let line = 1;
  // Quoted fields can span lines, so the text is read as one stream rather than line by line.
  while (at <= text.length) {
    let field = "";
    if (text[at] === '"') {
      const startLine = line;
      at++;
      for (;;) {
        const q = text.indexOf('"', at);
        if (q === -1) throw new SyntaxError(`line ${startLine}: unterminated quoted field`);
        const chunk = text.slice(at, q);
        line += chunk.split("\n").length - 1;
        field += chunk;
        at = q + 1;
        if (text[at] !== '"') break;
        field += '"';
        at++;
      }
    } else {
      const end = text.slice(at).search(/,|\r?\n/);
      field = text.slice(at, end === -1 ? text.length : at + end);
      at += field.length;
    }
    row.push(field);
    if (text[at] === ",") {
      at++;
      continue;
    }
    const eol = text.startsWith("\r\n", at) ? 2 : text[at] === "\n" ? 1 : 0;
    if (eol === 0 && at < text.length) {
      throw new SyntaxError(`line ${line}: text after a closing quote`);
    }
    rows.push(row);
    row = [];
    at += eol;
    line++;
    if (at >= text.length) break;
  }
  return rows;
}

/** The CSV text of `rows`; a field is quoted only when it holds a comma, quote or line break. */
export function stringifyCsv(rows) {
  const field = (value) => {
    const text = value === null || value === undefined ? "" : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.map((row) => `${row.map(field).join(",")}\r\n`).join("");
}
