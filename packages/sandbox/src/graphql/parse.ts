/**
 * A small GraphQL parser: enough of the language for the operations the sandbox answers
 * (one query or mutation, variables, fields with arguments and aliases). Fragments and
 * directives are not supported; they fail to parse like any other syntax error.
 */
export type Value =
  | { kind: "var"; name: string }
  | { kind: "int"; value: number }
  | { kind: "string"; value: string }
  | { kind: "bool"; value: boolean }
  | { kind: "enum"; value: string }
  | { kind: "object"; fields: Record<string, Value> };

export interface Field {
  alias: string | null;
  name: string;
  args: Record<string, Value>;
  selections: Field[] | null;
  line: number;
  column: number;
}

export interface Operation {
  kind: "query" | "mutation";
  /** Declared variables: name → type as written (`Int!`). */
  variables: Record<string, string>;
  selections: Field[];
}

export class GraphqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Token {
  kind: "name" | "punct" | "string" | "int" | "eof";
  text: string;
  line: number;
  column: number;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = () => ({ line, column: i - lineStart + 1 });
  while (i < source.length) {
    const c = source[i] ?? "";
    if (c === "\n") {
      i += 1;
      line += 1;
      lineStart = i;
    } else if (/[\s,\uFEFF]/.test(c)) i += 1;
    else if (c === "#") while (i < source.length && source[i] !== "\n") i += 1;
    else if (/[{}():!$[\]=]/.test(c)) {
      tokens.push({ kind: "punct", text: c, ...at() });
      i += 1;
    } else if (c === '"') {
      const start = at();
      let j = i + 1;
      let text = "";
      while (j < source.length && source[j] !== '"') {
        if (source[j] === "\\") j += 1;
        text += source[j] ?? "";
        j += 1;
      }
      if (j >= source.length)
        throw new GraphqlSyntaxError("Unterminated string", start.line, start.column);
      tokens.push({ kind: "string", text, ...start });
      i = j + 1;
    } else {
      const m = /^(-?\d+|[_A-Za-z][_0-9A-Za-z]*)/.exec(source.slice(i));
      if (!m?.[0])
        throw new GraphqlSyntaxError(`Unexpected character "${c}"`, line, i - lineStart + 1);
      tokens.push({ kind: /^-?\d/.test(m[0]) ? "int" : "name", text: m[0], ...at() });
      i += m[0].length;
    }
  }
  tokens.push({ kind: "eof", text: "", ...at() });
  return tokens;
}

/** Parses one operation; anything else is a GraphqlSyntaxError with its position. */
export function parseOperation(source: string): Operation {
  const tokens = tokenize(source);
  let p = 0;
  const peek = (): Token => tokens[p] ?? { kind: "eof", text: "", line: 0, column: 0 };
  const fail = (t: Token): never => {
    const what = t.kind === "eof" ? "end of file" : `"${t.text}"`;
    throw new GraphqlSyntaxError(`Parse error on ${what}`, t.line, t.column);
  };
  const next = () => {
    const t = peek();
    p += 1;
    return t;
  };
  const expect = (text: string) => {
    const t = next();
    if (t.text !== text || t.kind === "string") fail(t);
  };
  const name = () => {
    const t = next();
    if (t.kind !== "name") fail(t);
    return t.text;
  };
  const value = (): Value => {
    const t = next();
    if (t.kind === "punct" && t.text === "$") return { kind: "var", name: name() };
    if (t.kind === "int") return { kind: "int", value: Number(t.text) };
    if (t.kind === "string") return { kind: "string", value: t.text };
    if (t.kind === "name" && (t.text === "true" || t.text === "false"))
      return { kind: "bool", value: t.text === "true" };
    if (t.kind === "name") return { kind: "enum", value: t.text };
    if (t.kind === "punct" && t.text === "{") {
      const fields: Record<string, Value> = {};
      while (peek().text !== "}") {
        const key = name();
        expect(":");
        fields[key] = value();
      }
      expect("}");
      return { kind: "object", fields };
    }
    return fail(t);
  };
  const selectionSet = (): Field[] => {
    expect("{");
    const fields: Field[] = [];
    while (peek().text !== "}") {
      const start = peek();
      let fieldName = name();
      let alias: string | null = null;
      if (peek().text === ":") {
        next();
        alias = fieldName;
        fieldName = name();
      }
      const args: Record<string, Value> = {};
      if (peek().text === "(") {
        next();
        while (peek().text !== ")") {
          const key = name();
          expect(":");
          args[key] = value();
        }
        expect(")");
      }
      const selections = peek().text === "{" ? selectionSet() : null;
      fields.push({
        alias,
        name: fieldName,
        args,
        selections,
        line: start.line,
        column: start.column,
      });
    }
    if (fields.length === 0) fail(peek());
    expect("}");
    return fields;
  };

  let kind: Operation["kind"] = "query";
  const variables: Record<string, string> = {};
  if (peek().kind === "name") {
    const word = name();
    if (word !== "query" && word !== "mutation") fail(tokens[p - 1] ?? peek());
    kind = word === "mutation" ? "mutation" : "query";
    if (peek().kind === "name") name();
    if (peek().text === "(") {
      next();
      while (peek().text !== ")") {
        expect("$");
        const variable = name();
        expect(":");
        let type = "";
        if (peek().text === "[") {
          next();
          type = `[${name()}${peek().text === "!" ? next().text : ""}]`;
          expect("]");
        } else type = name();
        if (peek().text === "!") type += next().text;
        variables[variable] = type;
      }
      expect(")");
    }
  }
  const selections = selectionSet();
  if (peek().kind !== "eof") fail(peek());
  return { kind, variables, selections };
}
