// The View side of MCP Apps (io.modelcontextprotocol/ui, protocol
// 2026-01-26): a View runs in the host's sandboxed iframe and speaks
// JSON-RPC with the host over postMessage. It says hello (ui/initialize,
// then ui/notifications/initialized), hears the tool call it belongs to
// (ui/notifications/tool-input, then ui/notifications/tool-result), calls
// the server's tools through the host (tools/call), and tells the host its
// size. Nothing else of the page is loaded here.

type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string };
};

export type ToolResult = {
  content?: { type: string; text?: string }[];
  structuredContent?: any;
  isError?: boolean;
};

export class Bridge {
  private next = 1;
  private pending = new Map<number | string, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  onToolInput: (args: Record<string, unknown>) => void = () => {};
  onToolResult: (res: ToolResult) => void = () => {};

  constructor() {
    window.addEventListener("message", (e) => {
      if (e.source !== window.parent) return; // only the host speaks to a View
      this.receive(e.data as Message);
    });
  }

  private post(m: Message): void {
    window.parent.postMessage(m, "*");
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.next++;
    this.post({ jsonrpc: "2.0", id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  notify(method: string, params: unknown): void {
    this.post({ jsonrpc: "2.0", method, params });
  }

  private receive(m: Message): void {
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message));
      else p.resolve(m.result);
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-input":
        this.onToolInput(m.params?.arguments ?? {});
        break;
      case "ui/notifications/tool-result":
        this.onToolResult(m.params ?? {});
        break;
      case "ui/resource-teardown":
        if (m.id !== undefined) this.post({ jsonrpc: "2.0", id: m.id, result: {} });
        break;
      default:
        // A request this View does not serve: say so, so the host does not wait.
        if (m.id !== undefined) this.post({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: `${m.method} is not served by this view` } });
    }
  }

  async connect(name: string): Promise<void> {
    await this.request("ui/initialize", { appInfo: { name, version: "1" }, appCapabilities: {}, protocolVersion: "2026-01-26" });
    this.notify("ui/notifications/initialized", {});
  }

  // callTool calls one of the server's tools through the host.
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request("tools/call", { name, arguments: args })) as ToolResult;
  }

  sized(): void {
    const el = document.documentElement;
    this.notify("ui/notifications/size-changed", { width: el.scrollWidth, height: el.scrollHeight });
  }
}
