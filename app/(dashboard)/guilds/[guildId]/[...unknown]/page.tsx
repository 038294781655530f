// Any path under a guild that is not a section: a real 404 (thrown before the first byte, inside the guild shell),
// shown by ../not-found.tsx with the way to the sections that exist.
import { notFound } from "next/navigation";

export default function UnknownSectionPage(): never {
  notFound();
}
