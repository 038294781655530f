// The first module of a worker thread that runs Guildhall's TypeScript (typescript-worker.ts starts it): tsx's loaders
// registered in this thread, then the entry module named in workerData. JavaScript, because nothing in a new thread
// reads TypeScript until this has run: on Node 20 a worker inherits neither `--import tsx` nor the hooks it registered
// in the main thread. Both of tsx's loaders: the project's .ts files load as CommonJS (package.json has no "type"), and
// their imports of ES modules go through the ESM one. tsx reads tsconfig.json in the working directory, so `@/` imports
// resolve as they do in the server.
import { workerData } from "node:worker_threads";
import { register as registerCommonJs } from "tsx/cjs/api";
import { register as registerEsm } from "tsx/esm/api";

registerCommonJs();
registerEsm();
await import(workerData.entry);
