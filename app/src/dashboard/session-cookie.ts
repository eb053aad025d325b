/**
 * Sealed cookies for the dashboard's sign-in: the value is encrypted (AES-256-GCM, so the
 * person's GitHub token inside is never readable in the browser or in a proxy's log) and
 * signed (HMAC-SHA256 over the whole value, checked in constant time before anything is
 * decrypted). Both keys derive from LOOPX_SESSION_SECRET, so every replica and every restart
 * accepts the same sessions; rotating the secret signs everyone out.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { z } from "zod";

const VERSION = "v1";

export interface CookieSealer {
  seal(payload: unknown): string;
  /** The payload if the value is ours, untampered and parses; null otherwise. */
  unseal<T extends z.ZodType>(value: string | undefined, schema: T): z.infer<T> | null;
}

export function cookieSealer(secret: string): CookieSealer {
  const ikm = Buffer.from(secret, "utf8");
  const derive = (info: string) =>
    Buffer.from(hkdfSync("sha256", ikm, "loopx-dashboard", info, 32));
  const macKey = derive("session-cookie-mac");
  const encKey = derive("session-cookie-enc");
  const mac = (data: string) => createHmac("sha256", macKey).update(data).digest();

  return {
    seal(payload) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", encKey, iv);
      const body = Buffer.concat([
        cipher.update(JSON.stringify(payload), "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      const data = `${VERSION}.${Buffer.concat([iv, body]).toString("base64url")}`;
      return `${data}.${mac(data).toString("base64url")}`;
    },
    unseal(value, schema) {
      if (!value) return null;
      const parts = value.split(".");
      if (parts.length !== 3 || parts[0] !== VERSION || !parts[1] || !parts[2]) return null;
      const data = `${parts[0]}.${parts[1]}`;
      const given = Buffer.from(parts[2], "base64url");
      const expected = mac(data);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const raw = Buffer.from(parts[1], "base64url");
      if (raw.length < 12 + 16) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", encKey, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(raw.length - 16));
        const text = Buffer.concat([
          decipher.update(raw.subarray(12, raw.length - 16)),
          decipher.final(),
        ]).toString("utf8");
        const parsed = schema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}

/** One cookie's value from the request's Cookie header (undefined when absent). */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  path: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  /** Only over https (set when the dashboard's public URL is https). */
  secure: boolean;
}

/** A Set-Cookie value: never readable by scripts, not sent on cross-site subrequests. */
export function setCookie(name: string, value: string, opts: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${opts.path}`,
    `Max-Age=${opts.maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(opts.secure ? ["Secure"] : []),
  ].join("; ");
}
