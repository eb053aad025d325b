import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

type Handle = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * A loopback server listening before its App exists: the App's URL is its OIDC audience (as
 * LOOPX_PUBLIC_URL is in production), so the harness needs the URL to create the App.
 */
export async function listenFirst(): Promise<{
  server: Server;
  url: string;
  serve(handle: Handle): void;
}> {
  let handle: Handle | null = null;
  const server = createServer((req, res) => void handle?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the app server has no port");
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    serve: (h) => {
      handle = h;
    },
  };
}
