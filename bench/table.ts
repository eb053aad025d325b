/** The one table `npm run bench` prints and writes to bench/results.md. */
export interface Row {
  section: string;
  figure: string;
  value: string;
  target: string;
  /** true: met, false: not met, null: no target (context for another figure). */
  met: boolean | null;
}

const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "NOT MET");

/** One line: how many targets were met, and which were not. */
export function summary(rows: readonly Row[]): string {
  const judged = rows.filter((r) => r.met !== null);
  const missed = judged.filter((r) => r.met === false);
  const names = missed.map((r) => `${r.section.replace(/ \(.*$/, "")}: ${r.figure}`);
  return `Targets met: ${judged.length - missed.length} of ${judged.length}.${names.length > 0 ? ` Not met: ${names.join("; ")}.` : ""}`;
}

/** Column widths for the terminal; a longer cell overflows its column rather than widen all. */
const widthOf = (cells: string[], cap: number) =>
  Math.min(cap, Math.max(...cells.map((c) => c.length)));

export function renderText(rows: readonly Row[]): string {
  const w = {
    figure: widthOf(
      rows.map((r) => r.figure),
      64,
    ),
    value: widthOf(
      rows.map((r) => r.value),
      28,
    ),
    target: widthOf(
      rows.map((r) => r.target),
      28,
    ),
  };
  const lines: string[] = [];
  let section = "";
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      lines.push("", section);
    }
    lines.push(
      `  ${r.figure.padEnd(w.figure)}  ${r.value.padStart(w.value)}  ${r.target.padEnd(w.target)}  ${verdict(r.met)}`.trimEnd(),
    );
  }
  lines.push("", summary(rows));
  return lines.join("\n");
}

const cell = (s: string) => s.replaceAll("|", "\\|");

export function renderMarkdown(rows: readonly Row[], header: string[], notes: string[]): string {
  const out = [...header, "", summary(rows)];
  let section = "";
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      out.push(
        "",
        `## ${section}`,
        "",
        "| figure | value | target | |",
        "| --- | ---: | --- | --- |",
      );
    }
    out.push(`| ${cell(r.figure)} | ${cell(r.value)} | ${cell(r.target)} | ${verdict(r.met)} |`);
  }
  if (notes.length > 0) out.push("", "## Notes", "", ...notes.map((n) => `- ${n}`));
  return `${out.join("\n")}\n`;
}
