"use client";

// A path under a guild that names no section (rendered inside the guild shell, whose sidebar lists the real ones).
// A client component for the address: not-found pages receive no params.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { EmptyState } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";

export default function SectionNotFound() {
  const overview = usePathname().split("/").slice(0, 3).join("/");
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold tracking-tight">Page not found</h1>
      <EmptyState title="There is no such section" icon={<Icons.compass className="size-8" />}>
        <p>The address may be mistyped, or the page was moved. Pick a section in the menu, or</p>
        <Link prefetch={false} href={overview} className="font-medium text-blurple-ink hover:underline">
          go to the server&apos;s overview
        </Link>
      </EmptyState>
    </>
  );
}
