/**
 * The subset of GitHub Actions expressions LoopX's workflows use: contexts (`github.*`,
 * `inputs.*`, `needs.<job>.outputs.<name>`, `needs.<job>.result`, `steps.<id>.outputs.<name>`,
 * `env.*`, `secrets.*`, `vars.*`), literals, `== != && || !`, parentheses, and the functions
 * always() success() failure() cancelled() contains() startsWith() endsWith() format().
 */

export type Value = string | number | boolean | null | { [key: string]: Value } | Value[];

export interface ExprContext {
  contexts: Record<string, Value>;
  /** What success()/failure()/cancelled() see. */
  status: { success: boolean; failure: boolean; cancelled: boolean };
}

type Token =
  | { t: "str"; v: string }
  | { t: "num"; v: number }
  | { t: "id"; v: string }
  | { t: "op"; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? "";
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      let s = "";
      i++;
      for (;;) {
        if (i >= src.length) throw new Error(`unterminated string in ${src}`);
        if (src[i] === "'" && src[i + 1] === "'") {
          s += "'";
          i += 2;
        } else if (src[i] === "'") {
          i++;
          break;
        } else s += src[i++];
      }
      out.push({ t: "str", v: s });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (["==", "!=", "&&", "||", "<=", ">="].includes(two)) {
      out.push({ t: "op", v: two });
      i += 2;
      continue;
    }
    if ("()!,.[]<>*".includes(c)) {
      out.push({ t: "op", v: c });
      i++;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: "num", v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (!id) throw new Error(`unexpected '${c}' in expression: ${src}`);
    out.push({ t: "id", v: id[0] });
    i += id[0].length;
  }
  return out;
}

export function truthy(v: Value): boolean {
  return !(v === false || v === null || v === 0 || v === "" || Number.isNaN(v));
}

export function asString(v: Value): string {
  if (v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function loose(a: Value, b: Value): boolean {
  // GitHub compares strings case-insensitively and coerces mixed types to numbers.
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b) return a === b;
  const num = (v: Value) => (v === null ? 0 : typeof v === "boolean" ? Number(v) : Number(v));
  return num(a) === num(b);
}

function member(v: Value, key: string): Value {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  // Context keys are case-insensitive, as GitHub's are.
  if (key in v) return v[key] ?? null;
  const found = Object.keys(v).find((k) => k.toLowerCase() === key.toLowerCase());
  return found ? (v[found] ?? null) : null;
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly ctx: ExprContext,
  ) {}

  parse(): Value {
    const v = this.or();
    if (this.i < this.tokens.length) throw new Error("trailing tokens in expression");
    return v;
  }

  private peek(v: string): boolean {
    const t = this.tokens[this.i];
    return t?.t === "op" && t.v === v;
  }

  private eat(v: string): void {
    if (!this.peek(v)) throw new Error(`expected '${v}'`);
    this.i++;
  }

  private or(): Value {
    let left = this.and();
    while (this.peek("||")) {
      this.i++;
      const right = this.and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  private and(): Value {
    let left = this.cmp();
    while (this.peek("&&")) {
      this.i++;
      const right = this.cmp();
      left = truthy(left) ? right : left;
    }
    return left;
  }

  private cmp(): Value {
    let left = this.unary();
    for (;;) {
      if (this.peek("==") || this.peek("!=")) {
        const op = this.tokens[this.i++]?.v;
        const right = this.unary();
        left = op === "==" ? loose(left, right) : !loose(left, right);
      } else if (this.peek("<") || this.peek(">") || this.peek("<=") || this.peek(">=")) {
        const op = this.tokens[this.i++]?.v;
        const a = Number(left);
        const b = Number(this.unary());
        left = op === "<" ? a < b : op === ">" ? a > b : op === "<=" ? a <= b : a >= b;
      } else return left;
    }
  }

  private unary(): Value {
    if (this.peek("!")) {
      this.i++;
      return !truthy(this.unary());
    }
    return this.postfix(this.primary());
  }

  private postfix(base: Value): Value {
    let v = base;
    for (;;) {
      if (this.peek(".")) {
        this.i++;
        const t = this.tokens[this.i++];
        if (!t || (t.t !== "id" && !(t.t === "op" && t.v === "*")))
          throw new Error("expected a property name");
        v = member(v, String(t.v));
      } else if (this.peek("[")) {
        this.i++;
        const key = this.or();
        this.eat("]");
        v = Array.isArray(v) ? (v[Number(key)] ?? null) : member(v, asString(key));
      } else return v;
    }
  }

  private primary(): Value {
    const t = this.tokens[this.i++];
    if (!t) throw new Error("unexpected end of expression");
    if (t.t === "str" || t.t === "num") return t.v;
    if (t.t === "op" && t.v === "(") {
      const v = this.or();
      this.eat(")");
      return v;
    }
    if (t.t !== "id") throw new Error(`unexpected '${t.v}'`);
    if (t.v === "true") return true;
    if (t.v === "false") return false;
    if (t.v === "null") return null;
    if (this.peek("(")) return this.call(t.v.toLowerCase());
    return member(this.ctx.contexts, t.v);
  }

  private call(name: string): Value {
    this.eat("(");
    const args: Value[] = [];
    while (!this.peek(")")) {
      args.push(this.or());
      if (!this.peek(")")) this.eat(",");
    }
    this.eat(")");
    const [a = null, b = null] = args;
    const s = this.ctx.status;
    switch (name) {
      case "always":
        return true;
      case "success":
        return s.success && !s.cancelled;
      case "failure":
        return s.failure;
      case "cancelled":
        return s.cancelled;
      case "contains":
        return Array.isArray(a)
          ? a.some((x) => loose(x, b))
          : asString(a).toLowerCase().includes(asString(b).toLowerCase());
      case "startswith":
        return asString(a).toLowerCase().startsWith(asString(b).toLowerCase());
      case "endswith":
        return asString(a).toLowerCase().endsWith(asString(b).toLowerCase());
      case "format":
        return asString(a).replace(/\{(\d+)\}/g, (_m, n: string) =>
          asString(args[Number(n) + 1] ?? null),
        );
      case "tojson":
        return JSON.stringify(a, null, 2);
      default:
        throw new Error(`unsupported function ${name}()`);
    }
  }
}

export function evaluate(expr: string, ctx: ExprContext): Value {
  return new Parser(tokenize(expr), ctx).parse();
}

/** Replaces every `${{ … }}` in a string. */
export function interpolate(text: string, ctx: ExprContext): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expr: string) => asString(evaluate(expr, ctx)));
}

/**
 * Evaluates an `if:` as GitHub does: `${{ }}` optional, and `success() && (…)` implied unless
 * the condition calls a status function itself.
 */
export function condition(raw: string | boolean | undefined, ctx: ExprContext): boolean {
  if (raw === undefined) return evaluateStatus("success()", ctx);
  if (typeof raw === "boolean") return raw && evaluateStatus("success()", ctx);
  const expr = raw.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const wrapped = /\b(always|success|failure|cancelled)\s*\(/i.test(expr)
    ? expr
    : `success() && (${expr})`;
  return evaluateStatus(wrapped, ctx);
}

function evaluateStatus(expr: string, ctx: ExprContext): boolean {
  return truthy(evaluate(expr, ctx));
}
