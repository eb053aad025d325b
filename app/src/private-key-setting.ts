/**
 * The App's private key, from PRIVATE_KEY (the PEM itself) or PRIVATE_KEY_PATH (its file),
 * checked with the other settings: a key that cannot sign would otherwise fail at the first
 * webhook, far from the cause.
 */
import { createPrivateKey } from "node:crypto";

export type PrivateKeyVariable = "PRIVATE_KEY" | "PRIVATE_KEY_PATH";

/** A PEM as pasted into an env var: `\n` escapes (one line) become real newlines. */
function normalisePem(value: string): string {
  return value.includes("\\n") ? value.replaceAll("\\n", "\n").trim() : value.trim();
}

function checkPrivateKey(pem: string, from: string): string | null {
  if (!pem.includes("-----BEGIN")) {
    return `${from} is not a PEM private key: paste the whole .pem file GitHub gave you (from -----BEGIN RSA PRIVATE KEY----- to the END line; newlines may be written as \\n), or set PRIVATE_KEY_PATH to the file`;
  }
  try {
    createPrivateKey(pem);
    return null;
  } catch (error) {
    return `${from} could not be read as a private key (${error instanceof Error ? error.message : String(error)}): generate a new key in the App's settings (General → Private keys) and set it again`;
  }
}

/** The PEM, or `""` with each problem pushed onto `problems`. */
export function privateKeySetting(
  raw: Partial<Record<PrivateKeyVariable, string>>,
  readFile: (path: string) => string,
  problems: string[],
): string {
  if (raw.PRIVATE_KEY && raw.PRIVATE_KEY_PATH) {
    problems.push(
      "PRIVATE_KEY and PRIVATE_KEY_PATH are both set: keep one (the key itself, or the path to its .pem file)",
    );
    return "";
  }
  if (raw.PRIVATE_KEY) {
    const pem = normalisePem(raw.PRIVATE_KEY);
    const problem = checkPrivateKey(pem, "PRIVATE_KEY");
    if (problem) problems.push(problem);
    return pem;
  }
  if (raw.PRIVATE_KEY_PATH) {
    try {
      const pem = readFile(raw.PRIVATE_KEY_PATH).trim();
      const problem = checkPrivateKey(pem, `PRIVATE_KEY_PATH (${raw.PRIVATE_KEY_PATH})`);
      if (problem) problems.push(problem);
      return pem;
    } catch (error) {
      problems.push(
        `PRIVATE_KEY_PATH (${raw.PRIVATE_KEY_PATH}) cannot be read (${error instanceof Error ? error.message : String(error)}): point it at the App's .pem file, readable by this process`,
      );
      return "";
    }
  }
  problems.push(
    "PRIVATE_KEY is not set: set it to the App's private key (PEM; newlines may be written as \\n), or set PRIVATE_KEY_PATH to the .pem file (App settings → General → Private keys)",
  );
  return "";
}
