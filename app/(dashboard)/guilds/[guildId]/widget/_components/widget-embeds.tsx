"use client";

// The five widget.png styles as the API serves them, and copy-ready embed code: the iframe (the live widget) and an
// image link in the chosen style.
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { useToast } from "@/components/ui/toast";
import { WIDGET_STYLES, type WidgetStyle } from "@/lib/dashboard/actions/schemas/widget";

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Non-secure origins have no async clipboard: fall back to a selection.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

function Snippet({ id, title, code, note }: { id: string; title: string; code: string; note?: ReactNode }) {
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id={id} className="text-sm font-medium">
          {title}
        </h3>
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Copy ${title}`}
          onClick={async () => {
            if (await copyText(code)) {
              setCopied(true);
              toast.success("Copied to the clipboard.");
              setTimeout(() => setCopied(false), 2000);
            } else toast.error("Couldn't copy", "Select the code and copy it by hand.");
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <pre
        data-developer-sample
        aria-labelledby={id}
        data-testid={`${id}-code`}
        className="overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-surface-sunken p-3 font-mono text-xs ring-1 ring-line"
      >
        {code}
      </pre>
      {note && (
        <p id={`${id}-note`} className="text-xs text-ink-muted">
          {note}
        </p>
      )}
    </div>
  );
}

export function WidgetEmbeds({
  enabled,
  imageUrls,
  embedUrl,
  inviteUrl,
  guildName,
}: {
  enabled: boolean;
  imageUrls: Record<WidgetStyle, string>;
  embedUrl: string;
  inviteUrl: string | null;
  guildName: string;
}) {
  const [style, setStyle] = useState<WidgetStyle>(WIDGET_STYLES[2].style);
  const iframe = `<iframe src="${embedUrl}" width="350" height="500" allowtransparency="true" frameborder="0" sandbox="allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts"></iframe>`;
  const image = `<img src="${imageUrls[style]}" alt="${guildName.replace(/"/g, "&quot;")} on Discord">`;
  const imageLink = inviteUrl ? `<a href="${inviteUrl}">${image}</a>` : image;
  const link = `<a href="${embedUrl}">${guildName.replace(/</g, "&lt;")} on Discord</a>`;

  return (
    <Card>
      <CardHeader
        title="Widget images"
        description="Five styles anyone can load without signing in. Pick one for the image embed."
      />
      {enabled ? (
        <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <legend className="sr-only">Image style</legend>
          {WIDGET_STYLES.map((s) => (
            <label
              key={s.style}
              className={cn(
                "flex cursor-pointer flex-col gap-2 rounded-md p-3 ring-1 ring-line hover:bg-surface-sunken has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blurple",
                style === s.style && "ring-2 ring-blurple",
              )}
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="widget-style"
                  value={s.style}
                  checked={style === s.style}
                  onChange={() => setStyle(s.style)}
                  className="accent-blurple"
                />
                <span className="text-sm font-medium">{s.label} style</span>
              </span>
              {/* eslint-disable-next-line @next/next/no-img-element -- the API's PNG as-is, at its own size */}
              <img
                src={imageUrls[s.style]}
                alt={`${s.label} widget image`}
                data-style={s.style}
                className="h-auto max-w-full self-start"
              />
              <span className="text-xs text-ink-muted">{s.description}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-ink-muted">
          The images are served only while the widget is on.
        </p>
      )}
      <div className="mt-6 grid grid-cols-1 gap-5 lg:grid-cols-2">
        <Snippet
          id="embed-iframe"
          title="Widget embed (iframe)"
          code={iframe}
          note={
            <>
              Works on a page served over http or https. A page opened from a file on your computer (a file: address)
              cannot frame the widget: the browser shows an empty or broken frame there. For a local file, use the image
              link, or the plain link below.
            </>
          }
        />
        <Snippet id="embed-image" title="Image link" code={imageLink} />
        <Snippet id="embed-link" title="Plain link (works anywhere, local files too)" code={link} />
      </div>
      {!inviteUrl && enabled && (
        <p className="mt-3 text-xs text-ink-muted">
          Choose an invite channel to make the image a link people can join through.
        </p>
      )}
    </Card>
  );
}
