import {
  createScript,
  isRecord,
  json,
  type RecordedRequest,
  type ScriptedModelOptions,
  type ScriptedServerOptions,
  type ScriptStep,
  sleep,
  sse,
  startScriptedServer,
  startStream,
  type TurnRequest,
  userTextOf,
  withinOutputCap,
} from "./scripted-http.ts";

export type { RecordedRequest, TurnRequest };

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface AnthropicTurn {
  content: AnthropicBlock[];
  /** Token counts reported for this turn (defaults: 10 in, 5 out). */
  usage?: { input_tokens?: number; output_tokens?: number };
  /** Send nothing at all for this long before answering (idle-timeout tests). */
  stallMs?: number;
}

/** A turn, or a function of the request that builds it. */
export type AnthropicScriptStep = ScriptStep<AnthropicTurn>;

export interface ScriptedAnthropic {
  /** Base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  /** Conversation turns served from the script so far (side requests excluded). */
  turnsServed(): number;
  close(): Promise<void>;
}

export const text = (t: string): AnthropicBlock => ({ type: "text", text: t });
export const toolUse = (name: string, input: Record<string, unknown>): AnthropicBlock => ({
  type: "tool_use",
  name,
  input,
});
/** Claude Code's Write tool wants an absolute path. */
export const writeFile = (filePath: string, content: string): AnthropicBlock =>
  toolUse("Write", { file_path: filePath, content });
export const bash = (command: string): AnthropicBlock =>
  toolUse("Bash", { command, description: "scripted command" });

const FINAL_TEXT = "Done.";
/** What a request without tools (a title, a summary) gets: not a turn of the script. */
const PLAIN_TURN: AnthropicTurn = {
  content: [text("LoopX slice")],
  usage: { input_tokens: 1, output_tokens: 1 },
};

export async function startScriptedAnthropic(
  opts: ScriptedModelOptions<AnthropicTurn>,
): Promise<ScriptedAnthropic> {
  // The API answers as the model asked for; a script may pin another (a gateway's own id).
  const modelOf = (body: unknown) =>
    opts.model ??
    (isRecord(body) && typeof body.model === "string" ? body.model : "claude-sonnet-4-5");
  const script = createScript(opts.turns, { content: [text(FINAL_TEXT)] });
  let nextId = 1;

  const answer: ScriptedServerOptions["answer"] = async (req, res, path, body) => {
    if (req.method === "HEAD" || (req.method === "GET" && path === "/")) {
      res.writeHead(200).end();
      return;
    }
    // The count is what the request would be billed as input, as the provider's count is.
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      const turn = hasTools(body)
        ? script.peek(countAssistantMessages(body), {
            body,
            prompt: userTextOf(isRecord(body) ? body.messages : undefined),
          })
        : PLAIN_TURN;
      json(res, 200, { input_tokens: turn.usage?.input_tokens ?? 10 });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/messages") {
      json(res, 404, { type: "error", error: { type: "not_found_error", message: path } });
      return;
    }

    const scripted: AnthropicTurn = hasTools(body)
      ? script.turn(countAssistantMessages(body), {
          body,
          prompt: userTextOf(isRecord(body) ? body.messages : undefined),
        })
      : PLAIN_TURN;
    const turn = withinOutputCap(scripted, body, "max_tokens");
    if (turn.stallMs) await sleep(turn.stallMs);
    if (res.destroyed) return;

    if (!isStreaming(body)) {
      json(
        res,
        200,
        messageObject(turn, modelOf(body), `msg_${nextId++}`, () => `toolu_${nextId++}`),
      );
      return;
    }
    startStream(res);
    const id = `msg_scripted_${nextId++}`;
    const usage = { input_tokens: turn.usage?.input_tokens ?? 10, output_tokens: 0 };
    sse(res, "message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: modelOf(body),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    turn.content.forEach((block, index) => {
      if (block.type === "text") {
        sse(res, "content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        });
        sse(res, "content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: block.text },
        });
      } else {
        sse(res, "content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: `toolu_${nextId++}`, name: block.name, input: {} },
        });
        sse(res, "content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        });
      }
      sse(res, "content_block_stop", { type: "content_block_stop", index });
    });
    sse(res, "message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason(turn), stop_sequence: null },
      usage: { output_tokens: turn.usage?.output_tokens ?? 5 },
    });
    sse(res, "message_stop", { type: "message_stop" });
    res.end();
  };

  const server = await startScriptedServer({
    authorized: (req) => opts.apiKey === undefined || req.headers["x-api-key"] === opts.apiKey,
    unauthorized: {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    },
    failure: (message) => ({ type: "error", error: { type: "api_error", message } }),
    answer,
  });
  return {
    url: server.origin,
    requests: server.requests,
    turnsServed: script.served,
    close: server.close,
  };
}

function stopReason(turn: AnthropicTurn): "tool_use" | "end_turn" {
  return turn.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function messageObject(
  turn: AnthropicTurn,
  model: string,
  id: string,
  toolId: () => string,
): Record<string, unknown> {
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content: turn.content.map((b) =>
      b.type === "text" ? b : { type: "tool_use", id: toolId(), name: b.name, input: b.input },
    ),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: {
      input_tokens: turn.usage?.input_tokens ?? 10,
      output_tokens: turn.usage?.output_tokens ?? 5,
    },
  };
}

function hasTools(body: unknown): boolean {
  return isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
}

function isStreaming(body: unknown): boolean {
  return isRecord(body) && body.stream === true;
}

function countAssistantMessages(body: unknown): number {
  if (!isRecord(body) || !Array.isArray(body.messages)) return 0;
  return body.messages.filter((m) => isRecord(m) && m.role === "assistant").length;
}
