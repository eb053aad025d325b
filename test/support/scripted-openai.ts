/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the REAL `codex` CLI in tests,
 * the demo and e2e runs (codex is pointed at it as a custom `model_providers.local`).
 * Each conversation turn answers with the next scripted output items, streamed as the
 * Responses API SSE events; function_call items make codex run commands in the work tree.
 *
 * The turn is chosen by counting the assistant turns already in the request's `input`
 * (a run of assistant-side items followed by tool output or a user message), so retries
 * never advance the script.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isRecord, json, parseJson, readBody, sleep, sse, userTextOf } from "./scripted-http.ts";

export type OpenAIItem =
  | { type: "message"; text: string }
  | { type: "function_call"; name: string; arguments: Record<string, unknown> }
  /** A freeform tool call: codex 0.17x exposes its tools through the custom `exec` tool. */
  | { type: "custom_tool_call"; name: string; input: string };

export interface OpenAITurn {
  output: OpenAIItem[];
  /** Token counts reported for this turn (defaults: 10 in, 5 out). */
  usage?: { input_tokens?: number; output_tokens?: number; cached_tokens?: number };
  /** Send nothing at all for this long before answering (idle-timeout tests). */
  stallMs?: number;
}

/** What a dynamic turn can look at: e.g. the prompt, to find the result path it names. */
export interface OpenAITurnRequest {
  body: unknown;
  /** All user text in the input, joined. */
  prompt: string;
}

export type OpenAIScriptStep = OpenAITurn | ((req: OpenAITurnRequest) => OpenAITurn);

export interface RecordedOpenAIRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface ScriptedOpenAI {
  /** Base URL including /v1, for `model_providers.local.base_url`. */
  url: string;
  requests: RecordedOpenAIRequest[];
  turnsServed(): number;
  close(): Promise<void>;
}

export const message = (t: string): OpenAIItem => ({ type: "message", text: t });
export const functionCall = (name: string, args: Record<string, unknown>): OpenAIItem => ({
  type: "function_call",
  name,
  arguments: args,
});

export const customToolCall = (name: string, input: string): OpenAIItem => ({
  type: "custom_tool_call",
  name,
  input,
});
/**
 * Runs a shell command through codex's `exec` tool (JavaScript that calls the nested
 * `exec_command` tool), which is how codex 0.17x lets the model run commands.
 */
export const execCommand = (cmd: string): OpenAIItem =>
  customToolCall(
    "exec",
    `const r = await tools.exec_command(${JSON.stringify({ cmd, tty: false })});\ntext(r.output ?? "");`,
  );

const FINAL_TEXT = "Done.";

export async function startScriptedOpenAI(opts: {
  turns: OpenAIScriptStep[];
  model?: string;
  /** Like the real API: a request without `Authorization: Bearer <apiKey>` is refused with 401. */
  apiKey?: string;
}): Promise<ScriptedOpenAI> {
  const requests: RecordedOpenAIRequest[] = [];
  const model = opts.model ?? "gpt-scripted";
  let served = 0;
  let nextId = 1;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err), type: "server_error" } }));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const raw = await readBody(req);
    const body = parseJson(raw);
    requests.push({ method: req.method ?? "", path, headers: req.headers, body });

    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      json(res, 401, {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
      return;
    }
    if (req.method === "HEAD" || req.method === "GET") {
      if (path === "/v1/models") {
        json(res, 200, { object: "list", data: [{ id: model, object: "model" }] });
      } else {
        res.writeHead(200).end();
      }
      return;
    }
    if (req.method !== "POST" || path !== "/v1/responses") {
      json(res, 404, { error: { message: `no route ${path}`, type: "invalid_request_error" } });
      return;
    }

    const index = countAssistantTurns(body);
    const step = opts.turns[index] ?? { output: [message(FINAL_TEXT)] };
    const turn =
      typeof step === "function"
        ? step({ body, prompt: userTextOf(isRecord(body) ? body.input : undefined) })
        : step;
    if (index < opts.turns.length) served = Math.max(served, index + 1);
    if (turn.stallMs) await sleep(turn.stallMs);
    if (res.destroyed) return;

    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const responseId = `resp_scripted_${nextId++}`;
    const base = { id: responseId, object: "response", created_at: 0, model, output: [] };
    let seq = 0;
    const send = (type: string, data: Record<string, unknown>) =>
      sse(res, type, { type, sequence_number: seq++, ...data });

    send("response.created", { response: { ...base, status: "in_progress" } });
    const done: Record<string, unknown>[] = [];
    turn.output.forEach((item, outputIndex) => {
      if (item.type === "message") {
        const id = `msg_${nextId++}`;
        const content = { type: "output_text", text: item.text, annotations: [] };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
        });
        send("response.content_part.added", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          part: { ...content, text: "" },
        });
        send("response.output_text.delta", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          delta: item.text,
        });
        send("response.output_text.done", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          text: item.text,
        });
        send("response.content_part.done", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          part: content,
        });
        const full = {
          type: "message",
          id,
          role: "assistant",
          status: "completed",
          content: [content],
        };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      } else if (item.type === "custom_tool_call") {
        const id = `ctc_${nextId++}`;
        const pending = {
          type: "custom_tool_call",
          id,
          call_id: `call_${nextId++}`,
          name: item.name,
        };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { ...pending, input: "", status: "in_progress" },
        });
        send("response.custom_tool_call_input.delta", {
          item_id: id,
          output_index: outputIndex,
          delta: item.input,
        });
        send("response.custom_tool_call_input.done", {
          item_id: id,
          output_index: outputIndex,
          input: item.input,
        });
        const full = { ...pending, input: item.input, status: "completed" };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      } else {
        const id = `fc_${nextId++}`;
        const args = JSON.stringify(item.arguments);
        const pending = { type: "function_call", id, call_id: `call_${nextId++}`, name: item.name };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { ...pending, arguments: "", status: "in_progress" },
        });
        send("response.function_call_arguments.delta", {
          item_id: id,
          output_index: outputIndex,
          delta: args,
        });
        send("response.function_call_arguments.done", {
          item_id: id,
          output_index: outputIndex,
          arguments: args,
        });
        const full = { ...pending, arguments: args, status: "completed" };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      }
    });
    const input = turn.usage?.input_tokens ?? 10;
    const output = turn.usage?.output_tokens ?? 5;
    send("response.completed", {
      response: {
        ...base,
        status: "completed",
        output: done,
        usage: {
          input_tokens: input,
          input_tokens_details: { cached_tokens: turn.usage?.cached_tokens ?? 0 },
          output_tokens: output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: input + output,
        },
      },
    });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    turnsServed: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Items the model produced, as codex replays them in `input`. */
function isAssistantSide(item: unknown): boolean {
  if (!isRecord(item)) return false;
  if (item.type === "function_call" || item.type === "custom_tool_call") return true;
  if (item.type === "reasoning") return true;
  return item.type === "message" && item.role === "assistant";
}

function countAssistantTurns(body: unknown): number {
  if (!isRecord(body) || !Array.isArray(body.input)) return 0;
  let turns = 0;
  let inAssistantRun = false;
  for (const item of body.input) {
    if (isAssistantSide(item)) {
      if (!inAssistantRun) turns++;
      inAssistantRun = true;
    } else {
      inAssistantRun = false;
    }
  }
  return turns;
}
