import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Guildhall", template: "%s · Guildhall" },
  description: "Manage your Discord-style guilds: settings, channels, members, roles, bans, prune and more.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Dark mode follows the system until the user picks one (stored in localStorage by the theme toggle);
// this runs before paint so there is no flash of the wrong theme.
const themeScript = `try{var t=localStorage.getItem("theme");var d=t?t==="dark":matchMedia("(prefers-color-scheme: dark)").matches;document.documentElement.classList.toggle("dark",d)}catch(e){}`;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen font-sans antialiased">{children}</body>
    </html>
  );
}
