// Streaming a page's slow part after its shell, for certain. React inlines a Suspense boundary whose data is ready
// before the shell has been sent, and a read from the built-in API (served by this same process, over loopback) often
// is: the members table then came inside the first chunk, and the page's first byte waited for its 100 rows to render
// (measured: 5.6 × Next's floor for an empty dynamic page). A boundary that starts its reads after one turn of the
// event loop's check phase lets Next send the shell first; the rows follow in the same response.
import "server-only";

export function afterShell(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
