// Array.map for asynchronous steps that read the store: one step at a time, in order, so a transaction's statements
// run in the order the code reads and nothing of one step interleaves with the next.
export async function mapSequentially<T, R>(
  items: readonly T[],
  step: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const [index, item] of items.entries()) results.push(await step(item, index));
  return results;
}
