import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RuntimeGrant, RuntimeTokens } from "../runner/runtime-tokens.ts";
import { bytes, type ServiceReply } from "./reply.ts";

const TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/";
const BLOB = "/_apis/results/blob/";

interface Artifact {
  id: number;
  runId: number;
  jobId: number;
  name: string;
  blocks: Map<string, Buffer>;
  bytes: Buffer | null;
  size: number;
  createdAt: string;
  key: string;
}

const twirpError = (status: number, code: string, msg: string): ServiceReply => ({
  status,
  body: { code, msg },
});

/**
 * The Actions artifact service at ACTIONS_RESULTS_URL as @actions/artifact (v2, behind
 * actions/upload-artifact@v4 to v6 and download-artifact@v4 to v7) speaks it: Twirp JSON calls
 * `CreateArtifact` → a signed blob URL the client PUTs to (one body, or Azure block-blob
 * `comp=block` / `comp=blocklist`) → `FinalizeArtifact`; `ListArtifacts`, `GetSignedArtifactURL`
 * (a plain GET) and `DeleteArtifact`. Calls need the job's ACTIONS_RUNTIME_TOKEN; artifacts
 * belong to the run (one name per run), which every job of the run can list and download.
 */
export class ArtifactService {
  private readonly artifacts = new Map<number, Artifact>();
  private nextId = 1;

  constructor(
    private readonly tokens: RuntimeTokens,
    private readonly url: () => string,
  ) {}

  handles(path: string): boolean {
    return path.startsWith(TWIRP) || path.startsWith(BLOB);
  }

  async handle(req: IncomingMessage, path: string, query: URLSearchParams): Promise<ServiceReply> {
    if (path.startsWith(BLOB)) return this.blob(req, path.slice(BLOB.length), query);
    const grant = this.tokens.fromHeader(req.headers.authorization);
    if (!grant)
      return twirpError(401, "unauthenticated", "a job's ACTIONS_RUNTIME_TOKEN is required");
    const body = JSON.parse((await bytes(req)).toString("utf8") || "{}") as Record<string, unknown>;
    const method = path.slice(TWIRP.length);
    const name = typeof body.name === "string" ? body.name : "";
    const ofRun = (a: Artifact) => a.runId === grant.runId;
    if (method === "CreateArtifact") return this.create(grant, name);
    if (method === "FinalizeArtifact") {
      const a = [...this.artifacts.values()].find((x) => ofRun(x) && x.name === name && !x.bytes);
      if (!a) return twirpError(404, "not_found", `no artifact ${name} being uploaded`);
      a.bytes = Buffer.concat([...a.blocks.values()]);
      a.size = a.bytes.length;
      return { status: 200, body: { ok: true, artifact_id: String(a.id) } };
    }
    const done = [...this.artifacts.values()].filter((a) => ofRun(a) && a.bytes);
    const filter = (body.name_filter as { value?: string } | undefined)?.value;
    if (method === "ListArtifacts") {
      return {
        status: 200,
        body: {
          artifacts: done
            .filter((a) => filter === undefined || a.name === filter)
            .map((a) => ({
              workflow_run_backend_id: String(a.runId),
              workflow_job_run_backend_id: String(a.jobId),
              database_id: String(a.id),
              name: a.name,
              size: String(a.size),
              created_at: a.createdAt,
            })),
        },
      };
    }
    const found = done.find((a) => a.name === name);
    if (method === "GetSignedArtifactURL") {
      if (!found) return twirpError(404, "not_found", `Artifact not found for name: ${name}`);
      return { status: 200, body: { signed_url: this.signed(found) } };
    }
    if (method === "DeleteArtifact") {
      if (!found) return twirpError(404, "not_found", `Artifact not found for name: ${name}`);
      this.artifacts.delete(found.id);
      return { status: 200, body: { ok: true, artifact_id: String(found.id) } };
    }
    return twirpError(404, "bad_route", `no such method: ${method}`);
  }

  private create(grant: RuntimeGrant, name: string): ServiceReply {
    if (!name) return twirpError(400, "invalid_argument", "an artifact needs a name");
    const taken = [...this.artifacts.values()].some(
      (a) => a.runId === grant.runId && a.name === name,
    );
    if (taken)
      return twirpError(
        409,
        "already_exists",
        `an artifact with this name already exists on the workflow run: ${name}`,
      );
    const a: Artifact = {
      id: this.nextId++,
      runId: grant.runId,
      jobId: grant.jobId,
      name,
      blocks: new Map(),
      bytes: null,
      size: 0,
      createdAt: new Date().toISOString(),
      key: randomBytes(16).toString("hex"),
    };
    this.artifacts.set(a.id, a);
    return { status: 200, body: { ok: true, signed_upload_url: this.signed(a) } };
  }

  private signed(a: Artifact): string {
    return `${this.url()}${BLOB}${a.id}?sig=${a.key}`;
  }

  /** The storage side: the signature is the credential, as with the SAS URLs GitHub hands out. */
  private async blob(
    req: IncomingMessage,
    rest: string,
    query: URLSearchParams,
  ): Promise<ServiceReply> {
    const a = this.artifacts.get(Number(rest));
    if (!a || query.get("sig") !== a.key)
      return { status: 403, body: { message: "AuthenticationFailed" } };
    if (req.method === "GET")
      return a.bytes
        ? { status: 200, raw: a.bytes }
        : { status: 404, body: { message: "BlobNotFound" } };
    if (req.method !== "PUT") return { status: 405, body: { message: "Method Not Allowed" } };
    if (a.bytes) return { status: 409, body: { message: "the artifact is finalized" } };
    const data = await bytes(req);
    const comp = query.get("comp");
    if (comp === "block") a.blocks.set(query.get("blockid") ?? "", data);
    else if (comp === "blocklist") {
      const ids = [
        ...data.toString("utf8").matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]+)</g),
      ].map((m) => m[1] ?? "");
      const staged = a.blocks;
      a.blocks = new Map(ids.map((id) => [id, staged.get(id) ?? Buffer.alloc(0)]));
    } else a.blocks = new Map([["", data]]);
    return { status: 201, headers: { etag: `"${a.key}"` } };
  }
}
