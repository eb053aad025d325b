/** Parses CSV text into rows of fields. A trailing newline does not make an empty row. */
export function parseCsv(text) {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => line.split(","));
}
