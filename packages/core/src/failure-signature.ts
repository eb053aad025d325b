/**
 * What makes two red runs of one check "the same failure": the first failing test the
 * check's output names, else its first error line with everything that changes from run to
 * run (timestamps, ids, durations, temp paths, positions) taken out. Repairs are counted per
 * signature, so a fix that moves the failure elsewhere is a new problem, not a failed retry.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** GitHub Actions prefixes every log line with its time. */
const LOG_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\s?/;

function lines(output: string): string[] {
  return output
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.replace(LOG_STAMP, ""));
}

/** A test's trailing timing, as reporters print it: `(5 ms)`, `3ms`, `(0.00s)`, `[1.2s]`. */
const TRAILING_TIME = /\s*[([]?\s*\d+(?:\.\d+)?\s*(?:ms|s|m)\s*[)\]]?\s*$/;

function clean(id: string): string | null {
  const out = id.replace(TRAILING_TIME, "").trim().slice(0, 200);
  return out === "" ? null : out;
}

/** TAP: `not ok 3 - name`; a `# TODO` or `# SKIP` directive is no failure. */
function tap(line: string): string | null {
  const m = /^\s*not ok\b\s*\d*\s*(?:-\s*)?(.*)$/.exec(line);
  if (!m) return null;
  if (/#\s*(?:todo|skip)\b/i.test(m[1] ?? "")) return null;
  return clean((m[1] ?? "").replace(/\s+#.*$/, "")) ?? "(unnamed)";
}

/** pytest's short summary: `FAILED tests/test_x.py::test_y - AssertionError`. */
function pytest(line: string): string | null {
  const m = /^\s*FAILED\s+(\S+::\S+)/.exec(line);
  return m ? clean(m[1] ?? "") : null;
}

/** go test: `--- FAIL: TestX/sub (0.00s)`. */
function goTest(line: string): string | null {
  const m = /^\s*--- FAIL:\s+(\S+)/.exec(line);
  return m ? clean(m[1] ?? "") : null;
}

/** Jest and Vitest: `✕ name (5 ms)`, `× name 3ms`, `FAIL  file > suite > name`, `❯ file (…)`. */
function jestLike(line: string): { file: string } | { test: string } | null {
  const cross = /^\s*[✕×✗]\s+(.+)$/.exec(line);
  if (cross) {
    const test = clean(cross[1] ?? "");
    return test ? { test } : null;
  }
  // Vitest heads a file's failures with `❯ file (3 tests | 1 failed)`.
  const head = /^\s*❯\s+(\S+)\s+\(\d+ tests?\b.*\bfailed\b/.exec(line);
  if (head) return { file: head[1] ?? "" };
  const fail = /^\s*FAIL\s+(\S.*)$/.exec(line);
  if (!fail) return null;
  const named = clean(fail[1] ?? "");
  if (!named) return null;
  // Vitest names the test after the file; Jest names only the file, its ✕ lines the test.
  return named.includes(" > ") ? { test: named } : { file: named };
}

/** The first failing test the output names and the line that named it. */
function locateFailingTest(output: string): { test: string; at: number } | null {
  let file: { test: string; at: number } | null = null;
  for (const [at, line] of lines(output).entries()) {
    const plain = tap(line) ?? pytest(line) ?? goTest(line);
    if (plain) return { test: plain, at };
    const jest = jestLike(line);
    if (!jest) continue;
    if ("file" in jest) {
      file ??= { test: jest.file, at };
      continue;
    }
    // The same test reads the same whether a reporter printed its file first or not.
    const prefix =
      file !== null && !jest.test.startsWith(`${file.test} > `) ? `${file.test} > ` : "";
    return { test: `${prefix}${jest.test}`, at };
  }
  return file;
}

/** The first failing test the output names, or null when it names none. */
export function firstFailingTest(output: string): string | null {
  return locateFailingTest(output)?.test ?? null;
}

const ERROR_WORD = /\b(?:error|errors|failed|failure|fail|fatal|exception|panic|assert\w*)\b|✕|×/i;

/**
 * One line with the parts that differ between two runs of the same failure replaced, so equal
 * failures hash equal: timestamps, hex ids, durations, temp directories, line:col positions.
 */
export function normalizeErrorLine(line: string): string {
  return line
    .replace(ANSI, "")
    .replace(LOG_STAMP, "")
    .replace(
      /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
      "<time>",
    )
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>")
    .replace(
      /(?:\/tmp|\/var\/folders|\/private\/var\/folders|\/home\/runner\/work\/_temp|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp)[/\\][^\s:'"`)]*/g,
      "<tmp>",
    )
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<hex>")
    .replace(/\b0x[0-9a-f]+\b/gi, "<hex>")
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, "<hex>")
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|m|min|minutes)\b/g, "<dur>")
    .replace(/:\d+(?::\d+)?\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first line that reads as an error (else the first non-empty line), normalized. */
export function firstErrorLine(output: string): string {
  const all = lines(output).filter((l) => l.trim() !== "");
  const line = all.find((l) => ERROR_WORD.test(l)) ?? all[0] ?? "";
  return normalizeErrorLine(line).slice(0, 500);
}

/** FNV-1a, 64 bits, over UTF-16 code units: a stable short name, not a secret. */
export function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

export interface FailureSignature {
  /** check name + app id + failure: what attempts are counted against. */
  key: string;
  /** The failing test the output names, or null (then the key holds a line hash). */
  test: string | null;
  /** The output from the line that names the failure on: untrusted, shown only fenced. */
  excerpt: string;
}

const EXCERPT_LINES = 12;
const EXCERPT_CHARS = 800;

/** The lines from the one naming the failure (a test, else an error word, else the top). */
function excerptOf(output: string, from: number): string {
  return lines(output)
    .slice(Math.max(0, from), Math.max(0, from) + EXCERPT_LINES)
    .join("\n")
    .trim()
    .slice(0, EXCERPT_CHARS);
}

/** The signature of one failing check's run (`appId` null: a commit status, no app). */
export function failureSignature(check: {
  name: string;
  appId: number | null;
  output: string;
}): FailureSignature {
  const located = locateFailingTest(check.output);
  const test = located?.test ?? null;
  const from = located?.at ?? lines(check.output).findIndex((l) => ERROR_WORD.test(l));
  const failure = test !== null ? `test:${test}` : `line:${fnv1a64(firstErrorLine(check.output))}`;
  const app = check.appId === null ? "status" : String(check.appId);
  return {
    key: `${check.name.slice(0, 60)}|${app}|${failure}`.slice(0, 300),
    test,
    excerpt: excerptOf(check.output, from),
  };
}
