// Load and latency measurement on 127.0.0.1: autocannon for throughput (warm-up discarded), and sequential
// requests for per-request time where a scenario's goal is a median.
import http from "node:http";
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU time the server spent per request, in µs (where the load said which process serves it). */
  cpuPerRequest?: number;
  /** The p99's 95 % interval (p99Interval), where the times were summarized here. */
  p99Interval?: { low: number; high: number };
}

export interface LoadOptions {
  url: string;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** The CPU time (ms) the serving process has used so far: gives the result its cpuPerRequest. */
  serverCpuMs?: () => number;
}

function run(options: LoadOptions, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        method: (options.method ?? "GET") as "GET",
        headers: options.headers,
        body: options.body,
        connections: options.connections ?? 10,
        duration,
      },
      (error: Error | null, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
  });
}

export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  await run(options, Math.min(2, options.duration));
  const cpuBefore = options.serverCpuMs?.();
  const result = await run(options, options.duration);
  const cpuAfter = options.serverCpuMs?.();
  const bad = result.non2xx + result.errors;
  if (bad > 0 && bad > result.requests.total * 0.01)
    throw new Error(`${bad} non-2xx/errors of ${result.requests.total} for ${options.url}`);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
  };
}

/** Sequential timing of `count` requests made by `once` (after `warmup` unmeasured ones): ms per request. */
export async function measureSequential(
  once: (i: number) => Promise<void>,
  count: number,
  warmup = 5,
): Promise<LoadResult> {
  for (let i = 0; i < warmup; i++) await once(i);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await once(warmup + i);
    times.push(performance.now() - t0);
  }
  return summarize(times, (performance.now() - started) / 1000);
}

/** Median and 99th percentile of per-request times (ms), with the rate they came at. */
export function summarize(times: number[], totalSeconds: number): LoadResult {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    requestsPerSecond: times.length / totalSeconds,
    p50: at(0.5),
    p99: at(0.99),
    p99Interval: p99Interval(sorted),
  };
}

/**
 * The 95 % interval of a p99 measured on `sorted` (ascending), without assuming any shape: the count of requests
 * slower than the true p99 is binomial (n, 1 %), so the true p99 lies between the order statistics n·0.99 ∓ 1.96
 * standard deviations of that count. With a few hundred requests the interval reaches the slowest one: the p99 of
 * such a kind is a few events, and one more stall in a window moves it.
 */
export function p99Interval(sorted: readonly number[]): { low: number; high: number } {
  const n = sorted.length;
  if (n === 0) return { low: NaN, high: NaN };
  const spread = 1.96 * Math.sqrt(n * 0.99 * 0.01);
  const rank = (at: number) => sorted[Math.min(n - 1, Math.max(0, Math.floor(at)))];
  return { low: rank(n * 0.99 - spread), high: rank(n * 0.99 + spread) };
}

/**
 * Sequential GETs of a streamed page (a server render): the time to its first body byte and to its last, each
 * summarized. A status other than 200 fails the measurement (a redirect to sign-in would measure nothing).
 */
export async function measureStreamed(
  url: string,
  headers: Record<string, string>,
  count: number,
  warmup = 5,
): Promise<{ firstByte: LoadResult; complete: LoadResult }> {
  const once = () =>
    new Promise<{ firstByte: number; complete: number }>((resolve, reject) => {
      const started = performance.now();
      let firstByte = 0;
      http
        .get(url, { headers }, (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            reject(new Error(`HTTP ${response.statusCode} for ${url}`));
            return;
          }
          response.on("data", () => {
            firstByte ||= performance.now() - started;
          });
          response.on("end", () => resolve({ firstByte, complete: performance.now() - started }));
        })
        .on("error", reject);
    });
  for (let i = 0; i < warmup; i++) await once();
  const firstBytes: number[] = [];
  const completes: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const { firstByte, complete } = await once();
    firstBytes.push(firstByte);
    completes.push(complete);
  }
  const total = (performance.now() - started) / 1000;
  return { firstByte: summarize(firstBytes, total), complete: summarize(completes, total) };
}
