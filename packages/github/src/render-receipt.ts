import { quoteUntrusted } from "./format.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/**
 * A receipt for an accepted act ("G2 approved by …"). The text comes from the kernel but may
 * embed a person's note, so it is neutralised and quoted like any other untrusted text.
 */
export function renderReceipt(text: string): string {
  return truncateBody(`🧾 **Receipt**\n\n${quoteUntrusted(text, 4000)}`, GITHUB_BODY_LIMIT - 200);
}
