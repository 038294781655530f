// The V8 flags the production server runs with: `npm start` (package.json) and the image's CMD (Dockerfile) pass them
// to node, and the benchmarks start the server with them too (bench/setup.ts), so that what is measured is what runs.
// tests/unit/server-node-flags.test.ts keeps the three the same. V8 takes them for the whole process, every thread.
//
// --initial-old-space-size: with the dashboard in a thread of its own (pages-thread.ts), the main thread's heap is
// the API's and the gateway's alone, a few tens of megabytes, and V8 sized its old generation to that: the gateway's
// fan-out buffers that survive a young collection filled it again within seconds, and the thread ran 60–85 full
// collections every five minutes. Starting the old generation at 256 MB puts them minutes apart, at the price of the
// heap growing that far before its first full collection (resident memory about 600–650 MB under the soak's load).
export const SERVER_NODE_FLAGS = ["--initial-old-space-size=256"] as const;
