"use client";

// The settings page's sidebar: links to each section, the one in view highlighted as you scroll.
import { useEffect, useState } from "react";
import { BotIcon, DownloadIcon, InfoIcon, KeyIcon, RocketIcon } from "./icons";

const NAV = [
  { id: "general", label: "General Information", icon: InfoIcon },
  { id: "oauth2", label: "OAuth2", icon: KeyIcon },
  {
    id: "activities",
    label: "Activities",
    icon: RocketIcon,
    children: [
      { id: "activity-settings", label: "Settings" },
      { id: "url-mappings", label: "URL Mappings" },
    ],
  },
  { id: "installation", label: "Installation", icon: DownloadIcon },
  { id: "bot", label: "Bot", icon: BotIcon },
];

export function SectionNav() {
  const [active, setActive] = useState("general");

  useEffect(() => {
    const sections = NAV.map((item) => document.getElementById(item.id)).filter((el): el is HTMLElement => el !== null);
    let frame = 0;
    // The last section whose top has passed under the sticky header is the one being read.
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const current = [...sections].reverse().find((el) => el.getBoundingClientRect().top <= 120) ?? sections[0];
        if (current) setActive(current.id);
      });
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", update);
    };
  }, []);

  return (
    <nav aria-label="Settings sections" className="flex flex-col gap-0.5 text-sm">
      {NAV.map((item) => (
        <div key={item.id}>
          <a
            href={`#${item.id}`}
            aria-current={active === item.id ? "location" : undefined}
            className="flex items-center gap-2.5 rounded-md px-3 py-2 font-medium text-ink-muted transition-colors hover:bg-surface hover:text-ink aria-[current]:bg-blurple/10 aria-[current]:text-blurple dark:aria-[current]:bg-blurple/20 dark:aria-[current]:text-blurple-light"
          >
            <item.icon className="size-4" />
            {item.label}
          </a>
          {item.children?.map((child) => (
            <a
              key={child.id}
              href={`#${child.id}`}
              className="ml-9 block rounded-md px-3 py-1.5 text-ink-muted transition-colors hover:bg-surface hover:text-ink"
            >
              {child.label}
            </a>
          ))}
        </div>
      ))}
    </nav>
  );
}
