import { existsSync, readFileSync } from "node:fs";

/**
 * Parses a runner file command (GITHUB_OUTPUT, GITHUB_ENV): `name=value` lines and the heredoc
 * form `name<<DELIMITER` … `DELIMITER`, as @actions/core writes multi-line values.
 */
export function parseFileCommand(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line === "") continue;
    const heredoc = /^([^=]+?)<<(.+)$/.exec(line);
    const eq = line.indexOf("=");
    if (heredoc && (eq < 0 || line.indexOf("<<") < eq)) {
      const [, name = "", delimiter = ""] = heredoc;
      const value: string[] = [];
      i++;
      while (i < lines.length && lines[i] !== delimiter) value.push(lines[i++] ?? "");
      if (i >= lines.length) throw new Error(`matching delimiter not found '${delimiter}'`);
      out[name] = value.join("\n");
    } else if (eq > 0) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else {
      throw new Error(`invalid format '${line}'`);
    }
  }
  return out;
}

/** `INPUT_<NAME>` as the runner names it: uppercase, spaces → `_`, dashes kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}
