/** Debian's chromium as the browser tests drive it through playwright-core. */

import { existsSync } from "node:fs";
import { chromium, type Page } from "playwright-core";
import { z } from "zod";

export const CHROMIUM = "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

// The test network is closed: without these, Chromium keeps dialling Google's hosts.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/** Debian's chromium, headless, with a profile of its own; `viewport` sets the screen. */
export function launchChromium(profile: string, viewport?: { width: number; height: number }) {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...(viewport ? { viewport } : {}),
  });
}

/** Reads a value the page computed (the test's side of the browser has no DOM types). */
export const pageValue = async <T extends z.ZodType>(page: Page, script: string, as: T) =>
  as.parse(await page.evaluate(script));

/**
 * Waits until a script is true in the page. Polled through `evaluate`: the dashboard's CSP
 * forbids the eval a string `waitForFunction` needs, as it should.
 */
export async function pageUntil(page: Page, script: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await pageValue(page, script, z.boolean()))) {
    if (Date.now() > end) throw new Error(`the page never got to: ${script}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
