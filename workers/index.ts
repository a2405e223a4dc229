// The deployable worker: the Hono app and its per-session Durable Object.
import { app } from "./app.js";

export { SessionObject } from "./session.js";
export default app;
