import { Card, CardHeader, EmptyState } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import type { ThreadSummary } from "@/lib/dashboard/data/channels";
import { ChannelIcon } from "./channel-icon";

export function ThreadList({
  threads,
  channels,
}: {
  threads: ThreadSummary[];
  channels: Array<{ id: string; name: string }>;
}) {
  const names = new Map(channels.map((c) => [c.id, c.name]));
  return (
    <Card className="self-start">
      <CardHeader title="Active threads" description={`${threads.length} open, newest first.`} />
      {threads.length === 0 ? (
        <EmptyState title="No active threads" />
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label="Active threads">
          {threads.map((t) => (
            <li key={t.id} className="flex items-start gap-2 py-2">
              <ChannelIcon type={t.type} className="mt-0.5 size-4" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{t.name}</p>
                <p className="text-xs text-ink-muted">
                  in #{(t.parent_id && names.get(t.parent_id)) ?? "unknown"} · {t.message_count ?? 0} messages ·{" "}
                  {t.member_count ?? 0} members
                </p>
              </div>
              {t.locked && <Badge>Locked</Badge>}
              {t.type === 12 && <Badge tone="blurple">Private</Badge>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
