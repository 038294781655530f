// The process holding raw gateway sessions (bench/gateway/sessions.ts), and a way to ask it something and await its
// answer. Used by the gateway bench and the soak.
import { helperProcess } from "../processes";

export const sessionsProcess = (env: Record<string, string> = {}) => helperProcess("bench/gateway/sessions.ts", env);
