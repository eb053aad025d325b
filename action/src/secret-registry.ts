import * as core from "@actions/core";
import { redactSecrets } from "@loopx/core";

/**
 * The secret values this step has seen (lease token, push token, harness keys). Each is masked
 * in the job log by the runner (`setSecret`) and removed by us from everything we write:
 * summaries, outputs and error messages, which the runner does not always mask (files).
 */
export class SecretRegistry {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (!value || value.length < 4 || this.values.has(value)) return;
    this.values.add(value);
    core.setSecret(value);
  }

  /** Known values and token-shaped strings (ghs_, ghp_, github_pat_, sk-ant-, sk-). */
  redact(text: string): string {
    return redactSecrets(text, [...this.values]);
  }

  list(): string[] {
    return [...this.values];
  }
}
