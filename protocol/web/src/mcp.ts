// The page's one link to editord: an MCP client of /mcp (the official
// SDK's Streamable HTTP transport), with the bearer token in a header. It
// calls the same tools agents call and hears the same notifications. A
// lost connection (the server restarted, the network dropped) is redialed
// with a new session; the owner re-reads the workspace then (onReconnect).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export interface ChangeEvent {
  seq: number;
  time: string;
  root: string;
  path: string;
  kind: "created" | "modified" | "deleted" | "moved";
  from?: string;
  cause: string;
  by?: string;
  /** The turn the change belongs to (turns.ts). */
  turn?: string;
  version?: string;
  added: number;
  removed: number;
  patch?: string;
  truncated?: boolean;
}

/** A refusal from a tool: CONTRACT §1's {code, message, path}. */
export class ToolError extends Error {
  constructor(readonly code: string, message: string, readonly path?: string) {
    super(message);
  }
}

export type LinkState = "connecting" | "online" | "offline" | "unauthorized";

export interface LinkEvents {
  state(s: LinkState, detail?: string): void;
  changed(ev: ChangeEvent): void;
  workspaceUpdated(): void;
  reconnected(): void;
}

const clientInfo = { name: "editord-page", version: "1" };

export class Link {
  private client: Client | null = null;
  private dialing: Promise<Client> | null = null;
  private everOnline = false;
  private retry = 0;

  constructor(private token: string, private on: LinkEvents) {}

  /** Connects (or reconnects) and resolves once a session is ready. */
  connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.dialing) {
      this.dialing = this.dial().finally(() => (this.dialing = null));
    }
    return this.dialing;
  }

  private async dial(): Promise<Client> {
    this.on.state("connecting");
    for (;;) {
      const client = new Client(clientInfo, { capabilities: {} });
      client.fallbackNotificationHandler = async (n) => this.notification(n.method, n.params as Record<string, unknown>);
      const transport = new StreamableHTTPClientTransport(new URL("/mcp", location.origin), {
        requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
        reconnectionOptions: { initialReconnectionDelay: 300, maxReconnectionDelay: 3000, reconnectionDelayGrowFactor: 1.5, maxRetries: 3 },
      });
      transport.onerror = (err) => this.lost(client, err);
      try {
        await client.connect(transport);
        await client.subscribeResource({ uri: "editor://workspace" });
        client.onclose = () => this.lost(client, new Error("closed"));
        this.client = client;
        this.retry = 0;
        this.on.state("online");
        if (this.everOnline) this.on.reconnected();
        this.everOnline = true;
        return client;
      } catch (err) {
        client.close().catch(() => {});
        if (/\b401\b|Unauthorized/.test(String(err))) {
          this.on.state("unauthorized", String(err));
          throw new ToolError("unauthorized", "The server refused the token: open the link editord printed when it started.");
        }
        this.on.state("offline", String(err));
        await sleep(Math.min(3000, 250 * 2 ** this.retry++));
      }
    }
  }

  /** A transport error: the standalone stream failed for good, or the
   * server forgot the session (it restarted). Redial with a new session. */
  private lost(client: Client, err: Error) {
    if (this.client !== client) return;
    const msg = String(err?.message ?? err);
    if (!/SSE|session|404|Failed to fetch|NetworkError|closed|reconnect/i.test(msg)) return;
    this.client = null;
    client.close().catch(() => {});
    this.on.state("offline", msg);
    this.connect().catch(() => {});
  }

  private notification(method: string, params: Record<string, unknown>) {
    if (method === "notifications/editor/changed") {
      this.on.changed(params as unknown as ChangeEvent);
    } else if (method === "notifications/resources/updated" && params?.uri === "editor://workspace") {
      this.on.workspaceUpdated();
    }
  }

  /** Calls a tool by its function id's wire name and returns its
   * structured result; a refusal throws ToolError. */
  async call<T>(tool: string, args: Record<string, unknown> = {}, opts: { onProgress?: (done: number, total: number | undefined, message: string | undefined) => void } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect();
      let res;
      try {
        // With onProgress the call carries a progressToken, and the
        // tool's notifications/progress come to it while it runs.
        const onprogress = opts.onProgress && ((p: { progress: number; total?: number; message?: string }) => opts.onProgress!(p.progress, p.total, p.message));
        res = await client.callTool({ name: tool, arguments: args }, undefined, onprogress ? { onprogress, resetTimeoutOnProgress: true } : undefined);
      } catch (err) {
        if (attempt < 2 && /404|session|fetch|network/i.test(String(err))) {
          if (this.client === client) {
            this.client = null;
            client.close().catch(() => {});
          }
          continue;
        }
        throw err;
      }
      const sc = res.structuredContent as Record<string, unknown> | undefined;
      if (res.isError) {
        const e = (sc?.error ?? {}) as { code?: string; message?: string; path?: string };
        const text = Array.isArray(res.content) && res.content[0]?.type === "text" ? String(res.content[0].text) : "refused";
        // The root was switched by another caller: read the workspace again
        // (which also lets this session's relative writes through again).
        if (e.code === "root_changed") this.on.workspaceUpdated();
        throw new ToolError(e.code ?? "internal", e.message ?? text, e.path);
      }
      return sc as T;
    }
  }
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
