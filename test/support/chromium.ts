/** Debian's chromium as the browser tests drive it through playwright-core. */

import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

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
