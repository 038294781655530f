// Layout pieces of the settings page: a section (an anchor with a heading) and the cards inside it.
export function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-20">
      <header className="mb-5 border-b border-line pb-4">
        <h2 id={`${id}-heading`} className="text-2xl font-bold tracking-tight">
          {title}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-ink-muted">{description}</p>
      </header>
      <div className="flex flex-col gap-5">{children}</div>
    </section>
  );
}

export function Card({
  id,
  title,
  description,
  children,
}: {
  id?: string;
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-title` : undefined}
      className="scroll-mt-20 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6"
    >
      <h3 id={id ? `${id}-title` : undefined} className="text-base font-semibold">
        {title}
      </h3>
      {description && <p className="mt-1 max-w-3xl text-sm text-ink-muted">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function FieldLabel({ children, htmlFor }: { children: React.ReactNode; htmlFor?: string }) {
  const className = "mb-1.5 block text-xs font-bold uppercase tracking-wide text-ink-muted";
  return htmlFor ? (
    <label htmlFor={htmlFor} className={className}>
      {children}
    </label>
  ) : (
    <p className={className}>{children}</p>
  );
}
