// Imported first by main.ts, before the SDK builds its schemas: zod probes
// for eval to compile fast parsers when a schema is made, and the page's
// CSP forbids eval (the probe would be reported as a violation). Parse
// without compiling.
import { config } from "zod/v4/core";

config({ jitless: true });
